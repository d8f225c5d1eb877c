# The browser edition's build (scripts/web.sh configures it with emcmake): what the desktop build
# finds on the system comes from a staging folder that scripts/web.sh fills from Debian's
# packages, because emcc must not see /usr/include (its own libc headers would be shadowed):
#   ${PELAB_WEB_STAGING}/include  nlohmann/, Eigen/, stb_image_write.h (header-only libraries)
#   ${PELAB_WEB_STAGING}/imgui    Dear ImGui 1.86 from Debian's source package (apt-get source
#                                 imgui), the same version the desktop links, with its GLFW and
#                                 OpenGL 3 backends
#   ${PELAB_WEB_STAGING}/fonts    the fonts widgets/fonts.cpp looks for, at the same paths
# GLFW is Emscripten's own (-sUSE_GLFW=3), OpenGL is WebGL 2 (OpenGL ES 3.0), and there are no
# threads: the page runs anywhere a static web server (or one self-contained file) can serve it.
set(PELAB_WEB_STAGING "" CACHE PATH "the staging folder scripts/web.sh fills")
if(NOT EXISTS "${PELAB_WEB_STAGING}/imgui/imgui.cpp")
    message(FATAL_ERROR "PELAB_WEB_STAGING (${PELAB_WEB_STAGING}) holds no imgui/imgui.cpp: "
                        "build the browser edition with scripts/web.sh")
endif()
set(PELAB_IMGUI_DIR ${PELAB_WEB_STAGING}/imgui)

add_library(pelab_imgui STATIC
    ${PELAB_IMGUI_DIR}/imgui.cpp
    ${PELAB_IMGUI_DIR}/imgui_draw.cpp
    ${PELAB_IMGUI_DIR}/imgui_tables.cpp
    ${PELAB_IMGUI_DIR}/imgui_widgets.cpp
    ${PELAB_IMGUI_DIR}/misc/cpp/imgui_stdlib.cpp
    ${PELAB_IMGUI_DIR}/backends/imgui_impl_glfw.cpp
    ${PELAB_IMGUI_DIR}/backends/imgui_impl_opengl3.cpp)
target_include_directories(pelab_imgui PUBLIC ${PELAB_IMGUI_DIR} ${PELAB_IMGUI_DIR}/misc/cpp)
# Each of Dear ImGui's files on its own: batched with the GLFW backend (whose header brings the
# desktop GL names), the OpenGL 3 backend takes WebGL for desktop GL and calls glPolygonMode.
set_target_properties(pelab_imgui PROPERTIES PELAB_UNITY OFF)
# WebGL 2 is OpenGL ES 3.0 (ImGui's default for Emscripten is ES 2, WebGL 1).
target_compile_definitions(pelab_imgui PUBLIC IMGUI_IMPL_OPENGL_ES3)
add_library(PkgConfig::IMGUI ALIAS pelab_imgui)

add_library(pelab_web_headers INTERFACE)
target_include_directories(pelab_web_headers INTERFACE ${PELAB_WEB_STAGING}/include)
add_library(nlohmann_json::nlohmann_json ALIAS pelab_web_headers)
add_library(Eigen3::Eigen ALIAS pelab_web_headers)
set(STB_INCLUDE_DIR ${PELAB_WEB_STAGING}/include)
# No threads in the page: what runs on a thread on the desktop runs between frames here.
add_library(pelab_no_threads INTERFACE)
add_library(Threads::Threads ALIAS pelab_no_threads)
# C++ exceptions carry the readers' messages (a bad file is a message, never an abort). They are
# WebAssembly's own (-fwasm-exceptions, whose libraries Debian's Emscripten cache has), not
# Emscripten's JavaScript ones: with those every call that may throw past a destructor went out to
# JavaScript and back, and frames took up to 1.7 times as long (docs/web.md). WebAssembly SIMD:
# training steps 2.3 times faster (121 against 275 ms a step here). Both: Chrome and Edge 95,
# Firefox 100, Safari 16.4 and later (shell.html says so to an older browser).
add_compile_options(-fwasm-exceptions -msimd128)
add_link_options(-fwasm-exceptions)
