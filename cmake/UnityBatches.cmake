# Unity batches that name their sources by relative path (option PELAB_UNITY, scripts/build.sh
# --unity). CMake's own unity build (3.25, Debian 12) writes `#include "/abs/clone/src.cpp"`
# into each batch, so a batch compiled in one clone never matches the compiler cache in another
# clone of the same commit (docs/testing.md: 17 of 102 objects hit). These batches include each
# source by its path relative to the batch, which is the same in every clone, and ccache's
# CCACHE_BASEDIR (scripts/ccache.sh) makes the rest of the command line the same too.
#
# pelab_unity_batches(DIR) batches every target defined under DIR (recursively) that compiles
# two or more of our .cpp files, eight to a batch, in the order the target lists them. A target
# keeps its sources unbatched when its property PELAB_UNITY is OFF. Generated sources (in the
# build tree) and generator expressions stay as they are.
set(PELAB_UNITY_BATCH_SIZE 8)

function(pelab_unity_target target)
    get_target_property(type ${target} TYPE)
    if(NOT type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|OBJECT_LIBRARY|MODULE_LIBRARY)$")
        return()
    endif()
    get_target_property(wanted ${target} PELAB_UNITY)
    if(wanted STREQUAL "OFF")
        return()
    endif()
    get_target_property(target_source_dir ${target} SOURCE_DIR)
    get_target_property(target_binary_dir ${target} BINARY_DIR)
    get_target_property(sources ${target} SOURCES)
    set(batchable)
    foreach(source IN LISTS sources)
        if(source MATCHES "\\$<" OR NOT source MATCHES "\\.cpp$")
            continue()
        endif()
        get_filename_component(path "${source}" ABSOLUTE BASE_DIR "${target_source_dir}")
        string(FIND "${path}" "${CMAKE_SOURCE_DIR}/" in_tree)
        string(FIND "${path}" "${CMAKE_BINARY_DIR}/" in_build)
        if(NOT in_tree EQUAL 0 OR in_build EQUAL 0)
            continue()
        endif()
        # A source with its own compile options (-ffp-contract=off) is compiled alone, or a
        # batch would drop them.
        get_source_file_property(own_options "${path}" DIRECTORY "${target_source_dir}"
                                 COMPILE_OPTIONS)
        if(own_options)
            continue()
        endif()
        list(APPEND batchable "${path}")
    endforeach()
    list(LENGTH batchable count)
    if(count LESS 2)
        return()
    endif()
    set(batch_dir "${target_binary_dir}/pelab_unity")
    set(batch_files)
    set(index 0)
    set(content "")
    set(in_batch 0)
    foreach(path IN LISTS batchable)
        file(RELATIVE_PATH relative "${batch_dir}" "${path}")
        string(APPEND content "#include \"${relative}\"\n")
        math(EXPR in_batch "${in_batch} + 1")
        if(in_batch EQUAL PELAB_UNITY_BATCH_SIZE)
            pelab_unity_write("${batch_dir}/${target}_${index}.cxx" "${content}")
            list(APPEND batch_files "${batch_dir}/${target}_${index}.cxx")
            math(EXPR index "${index} + 1")
            set(content "")
            set(in_batch 0)
        endif()
    endforeach()
    if(in_batch GREATER 0)
        pelab_unity_write("${batch_dir}/${target}_${index}.cxx" "${content}")
        list(APPEND batch_files "${batch_dir}/${target}_${index}.cxx")
    endif()
    # The sources stay in the target (IDEs and the compile database of tidy's own configure list
    # them) but are compiled only through their batch.
    set_source_files_properties(${batchable} TARGET_DIRECTORY ${target}
                                PROPERTIES HEADER_FILE_ONLY ON)
    target_sources(${target} PRIVATE ${batch_files})
endfunction()

# Rewrites a batch only when its text changes, so a reconfigure does not recompile it.
function(pelab_unity_write file content)
    if(EXISTS "${file}")
        file(READ "${file}" old)
        if(old STREQUAL content)
            return()
        endif()
    endif()
    file(WRITE "${file}" "${content}")
endfunction()

function(pelab_unity_batches dir)
    get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
    foreach(target IN LISTS targets)
        pelab_unity_target(${target})
    endforeach()
    get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
    foreach(subdir IN LISTS subdirs)
        pelab_unity_batches("${subdir}")
    endforeach()
endfunction()
