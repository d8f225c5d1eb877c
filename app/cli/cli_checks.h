// cli_checks.h — the validators every command's options share: plain decimal numbers (no
// octal, no hexadecimal, no spaces), non-empty file names, 64-bit seeds, and WIDTHxHEIGHT sizes.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace pelab {

/// Digits, one optional point, an optional exponent: "512", "0.5", "1e-3"; not "010" or "0x10".
bool IsPlainDecimal(const std::string& text);
CLI::Validator PlainNumber();
/// Refuses an empty file name (it would silently mean "no file").
CLI::Validator FileName();
/// A whole number in [0, 2^64 − 1], refused rather than wrapped.
CLI::Validator Seed();
/// "WxH" with each side in [64, 8192]; "" or the message for --size.
std::string ParseSize(const std::string& text, int* width, int* height);

} // namespace pelab
