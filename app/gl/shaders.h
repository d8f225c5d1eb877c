// shaders.h — the GLSL sources of shaders/, compiled into the binary at build time
// (cmake/EmbedShaders.cmake); nothing is read from a path at run time.
#pragma once

#include <cstring>

namespace pelab {

struct EmbeddedShader {
    const char* name;   ///< file name in shaders/, e.g. "pe_heatmap.frag"
    const char* source; ///< its text, NUL-terminated
};

/// Every shader file, ending with {nullptr, nullptr}.
extern const EmbeddedShader kEmbeddedShaders[];

/// The source of the named shader file, or nullptr.
inline const char* ShaderSource(const char* name) {
    for (const EmbeddedShader* s = kEmbeddedShaders; s->name != nullptr; ++s)
        if (std::strcmp(s->name, name) == 0) return s->source;
    return nullptr;
}

} // namespace pelab
