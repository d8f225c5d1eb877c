// png_scene.h — a figure that reopens as its scene. PNGs written by PE Lab carry the scene they
// show as JSON in a tEXt chunk with the keyword "pelab-scene" (ASCII-escaped JSON, as tEXt
// holds Latin-1); `pelab --scene FIGURE.png` reads it back.
#pragma once

#include "pelab/base/existing_name.h"

#include <cstddef>
#include <string>
#include <vector>

namespace pelab {

constexpr const char* kSceneChunkKeyword = "pelab-scene";

/// True when bytes start with the 8-byte PNG signature.
bool LooksLikePng(const std::string& bytes);

/// Returns png with a tEXt chunk (keyword, text) inserted right after IHDR. text must be
/// Latin-1 without NUL bytes (ASCII JSON is); png must be a well-formed PNG (as stb writes it).
std::string AddPngTextChunk(const std::string& png, const std::string& keyword,
                            const std::string& text);

/// Finds the tEXt chunk called keyword in png. Returns "" and sets *text, or a message: not a
/// PNG, a chunk that runs past the end, a text longer than max_text_bytes (refused before it
/// is copied or checked), a bad CRC, no such chunk. Reads only the chunk headers it walks over,
/// so any byte string is safe input.
std::string ReadPngTextChunk(const std::string& png, const std::string& keyword,
                             std::size_t max_text_bytes, std::string* text);

/// Encodes width × height RGBA pixels as PNG, with the scene JSON in a text chunk when it is
/// not empty, and writes the file atomically (existing: pelab/export/export.h); "" or why not.
std::string WritePngFile(const std::string& out, const std::vector<unsigned char>& rgba, int width,
                         int height, const std::string& scene,
                         ExistingName existing = ExistingName::kFollow);

/// CRC-32 (ISO 3309, as PNG uses) of bytes.
unsigned long Crc32(const unsigned char* bytes, std::size_t size);

} // namespace pelab
