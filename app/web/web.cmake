# The browser edition's page, included by app/CMakeLists.txt (cmake/WebBuild.cmake,
# scripts/web.sh): web_main.cpp drives the Runner's Frame() from the browser's main loop;
# everything else is the desktop's code. The output is index.html (from shell.html) with
# index.js, index.wasm and index.data (fonts, lessons, scenes).
add_library(pelab_web_objects OBJECT
    web/web_main.cpp
    web/web_page.cpp
    web/stb_image_write.cpp
    gl/runner.cpp
    gl/platform_glfw.cpp
    gl/gpu_heatmap.cpp
    ${PELAB_SHADERS_CPP})
target_include_directories(pelab_web_objects PRIVATE ${STB_INCLUDE_DIR})
target_link_libraries(pelab_web_objects PUBLIC pelab_ui)
pelab_warnings(pelab_web_objects)

set(web_data
    "${PELAB_WEB_STAGING}/fonts/Inter-Regular.otf@/usr/share/fonts/opentype/inter/Inter-Regular.otf"
    "${PELAB_WEB_STAGING}/fonts/DejaVuSans.ttf@/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    "${PROJECT_SOURCE_DIR}/assets/lessons@/pelab/lessons"
    "${PROJECT_SOURCE_DIR}/assets/scenes@/pelab/scenes"
    "${PROJECT_SOURCE_DIR}/assets/quiz@/pelab/quiz"
    "${PROJECT_SOURCE_DIR}/assets/train@/pelab/train")
# What JavaScript calls: the page's hooks (web_main.cpp, window.pelab in shell.html).
set(web_exports _main _malloc _free _pelab_state_json _pelab_scene_link _pelab_page_json
    _pelab_save_settings _pelab_paste)
string(REPLACE ";" "," web_exports "${web_exports}")
set(web_link_options
    -sUSE_GLFW=3 -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2 -sALLOW_MEMORY_GROWTH=1
    -sINITIAL_MEMORY=64MB -sFORCE_FILESYSTEM=1 -sMINIFY_HTML=0
    -sEXPORTED_FUNCTIONS=${web_exports}
    -sEXPORTED_RUNTIME_METHODS=ccall,UTF8ToString,FS
    "SHELL:--shell-file ${CMAKE_CURRENT_SOURCE_DIR}/web/shell.html")

# The page for a web server: index.html, index.js, index.wasm and index.data.
add_executable(pelab_web $<TARGET_OBJECTS:pelab_web_objects>)
target_link_libraries(pelab_web PRIVATE pelab_ui)
set(page_options ${web_link_options})
foreach(item IN LISTS web_data)
    list(APPEND page_options "SHELL:--preload-file ${item}")
endforeach()
target_link_options(pelab_web PRIVATE ${page_options})
set_target_properties(pelab_web PROPERTIES OUTPUT_NAME index SUFFIX .html)
set_property(TARGET pelab_web APPEND PROPERTY LINK_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/web/shell.html)

# The one-file pelab.html for file:// (a USB stick, an e-mail) is assembled from these four files
# by scripts/web_single_file.py (scripts/web.sh --single-file): no second link of the program.
