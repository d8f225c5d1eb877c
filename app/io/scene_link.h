// scene_link.h — a scene as the fragment of a link (the browser edition's shared figures, docs/
// web.md): "#scene=" followed by base64url, without padding, of a scene document that holds the
// fields that differ from the defaults. It is the scene-file format, so any scene file can
// become a link and a link's text is a scene file; the app reads it with the scene reader
// (SceneTable::Load), the same checks as a file.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace pelab {

/// The fragment's prefix, "#scene=".
inline constexpr const char* kSceneLinkPrefix = "#scene=";
/// The longest link the app writes or reads: the encoded part's characters.
inline constexpr std::size_t kMaxSceneLinkChars = 8192;

/// base64url (RFC 4648 §5: A–Z a–z 0–9 - _) without padding.
std::string Base64UrlEncode(const std::string& bytes);
/// The bytes, or false when text holds a character outside the alphabet, padding, or a length
/// no encoding has (a remainder of one character).
bool Base64UrlDecode(const std::string& text, std::string* bytes);

/// The fields of scene whose values differ from defaults (a field defaults lack counts as
/// different), without theme, text size and mode: the viewer's own.
nlohmann::json SceneDifference(const nlohmann::json& scene, const nlohmann::json& defaults);

/// Takes theme, text size and mode out of a scene that came from a link (a desktop scene file
/// turned into one carries them): a link never changes the viewer's own settings. Returns
/// whether it held any.
bool RemoveViewerSettings(nlohmann::json& scene);

/// "#scene=" and the encoded difference; "" and *why when it is longer than the limit.
std::string SceneLink(const nlohmann::json& difference, std::string* why);

/// Reads a fragment: true and the scene's JSON text when it is a scene link, false and *why
/// (a sentence for the person who opened the link, without what happens instead, which the
/// caller knows) when it is a malformed one; false with an
/// empty *why when the fragment is not a scene link at all.
bool ReadSceneLink(const std::string& fragment, std::string* scene_text, std::string* why);

} // namespace pelab
