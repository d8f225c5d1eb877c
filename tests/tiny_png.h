// tiny_png.h — the smallest PNG the chunk code accepts, for tests that build figures by hand.
#pragma once

#include "io/png_scene.h"

#include <string>

namespace pelab::test {

// A minimal PNG: signature, IHDR (1×1, 8-bit grey), IEND. IDAT is not needed by the chunk code.
inline std::string TinyPng() {
    std::string png("\x89PNG\r\n\x1a\n", 8);
    const std::string ihdr_body("IHDR\0\0\0\x01\0\0\0\x01\x08\x00\x00\x00\x00", 17);
    png += std::string("\0\0\0\x0d", 4) + ihdr_body;
    const unsigned long crc =
        Crc32(reinterpret_cast<const unsigned char*>(ihdr_body.data()), ihdr_body.size());
    for (int shift = 24; shift >= 0; shift -= 8)
        png.push_back(static_cast<char>((crc >> shift) & 0xFF));
    png += std::string("\0\0\0\0IEND\xae\x42\x60\x82", 12);
    return png;
}

} // namespace pelab::test
