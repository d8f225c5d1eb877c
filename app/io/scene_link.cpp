#include "io/scene_link.h"

#include <array>

namespace pelab {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

// The fields the viewer keeps as their own (as Reset all keeps them): a link never changes how a
// student reads the screen, nor the beginner or advanced mode they chose.
constexpr std::array<const char*, 3> kKeptOut = {"theme", "font_scale", "mode"};

int SextetOf(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '-') return 62;
    if (c == '_') return 63;
    return -1;
}

} // namespace

std::string Base64UrlEncode(const std::string& bytes) {
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t k = 0;
    for (; k + 3 <= bytes.size(); k += 3) {
        const unsigned value = static_cast<unsigned char>(bytes[k]) << 16 |
                               static_cast<unsigned char>(bytes[k + 1]) << 8 |
                               static_cast<unsigned char>(bytes[k + 2]);
        for (int shift = 18; shift >= 0; shift -= 6)
            out += kAlphabet[(value >> shift) & 63];
    }
    const std::size_t left = bytes.size() - k; // 0, 1 or 2 bytes: 0, 2 or 3 characters
    if (left > 0) {
        unsigned value = static_cast<unsigned char>(bytes[k]) << 16;
        if (left == 2) value |= static_cast<unsigned char>(bytes[k + 1]) << 8;
        out += kAlphabet[(value >> 18) & 63];
        out += kAlphabet[(value >> 12) & 63];
        if (left == 2) out += kAlphabet[(value >> 6) & 63];
    }
    return out;
}

bool Base64UrlDecode(const std::string& text, std::string* bytes) {
    if (text.size() % 4 == 1) return false;
    bytes->clear();
    bytes->reserve(text.size() / 4 * 3 + 2);
    unsigned value = 0;
    int bits = 0;
    for (const char c : text) {
        const int sextet = SextetOf(c);
        if (sextet < 0) return false;
        value = (value << 6) | static_cast<unsigned>(sextet);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            bytes->push_back(static_cast<char>((value >> bits) & 0xFF));
        }
    }
    // The bits left over must be zero: an encoder never sets them, so a link whose last
    // character says otherwise was damaged.
    return (value & ((1u << bits) - 1)) == 0;
}

nlohmann::json SceneDifference(const nlohmann::json& scene, const nlohmann::json& defaults) {
    nlohmann::json difference = nlohmann::json::object();
    for (const auto& [key, value] : scene.items()) {
        bool kept_out = false;
        for (const char* field : kKeptOut)
            kept_out = kept_out || key == field;
        if (kept_out) continue;
        const auto found = defaults.find(key);
        if (found == defaults.end() || *found != value) difference[key] = value;
    }
    return difference;
}

bool RemoveViewerSettings(nlohmann::json& scene) {
    bool removed = false;
    if (!scene.is_object()) return false;
    for (const char* field : kKeptOut)
        removed = scene.erase(field) > 0 || removed;
    return removed;
}

std::string SceneLink(const nlohmann::json& difference, std::string* why) {
    const std::string encoded =
        Base64UrlEncode(difference.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    if (encoded.size() > kMaxSceneLinkChars) {
        *why = "this scene is too large for a link (" + std::to_string(encoded.size() / 1024 + 1) +
               " KB, at most 8 KB): save it as a file instead";
        return {};
    }
    return kSceneLinkPrefix + encoded;
}

bool ReadSceneLink(const std::string& fragment, std::string* scene_text, std::string* why) {
    why->clear();
    const std::string prefix = kSceneLinkPrefix;
    if (fragment.compare(0, prefix.size(), prefix) != 0) return false;
    const std::string encoded = fragment.substr(prefix.size());
    if (encoded.empty()) {
        *why = "the link's scene is empty (was the link cut short?)";
        return false;
    }
    if (encoded.size() > kMaxSceneLinkChars) {
        *why = "the link's scene is longer than 8 KB";
        return false;
    }
    if (!Base64UrlDecode(encoded, scene_text)) {
        *why = "the link's scene is damaged (not base64url text; was the link cut short?)";
        return false;
    }
    return true;
}

} // namespace pelab
