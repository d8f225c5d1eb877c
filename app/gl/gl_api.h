// gl_api.h — the OpenGL declarations for the files that draw with GL (platform_glfw.cpp,
// gpu_heatmap.cpp): glad's OpenGL 3.3 core loader on the desktop, the OpenGL ES 3.0 headers in
// the browser edition (WebGL 2, which Emscripten provides without a loader). The two differ
// only in the shading language's version line (see kGlslVersion and cmake/EmbedShaders.cmake)
// and in the GPU timer, which WebGL has not.
#pragma once

#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
#else
#include <glad/gl.h>
#endif

namespace pelab {

/// The version line ImGui's renderer compiles its shaders with.
#ifdef __EMSCRIPTEN__
constexpr const char* kGlslVersion = "#version 300 es";
#else
constexpr const char* kGlslVersion = "#version 330 core";
#endif

} // namespace pelab
