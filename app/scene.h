// scene.h — saving and opening every shared parameter as JSON (`--scene`, `--state-out`).
//
// A scene file is an object with the fields below; all are optional when reading (what is
// absent keeps its default), but a field that is present must have the right type and be in
// range, and unknown fields are refused (a typo must not pass silently). Errors name the field.
//   d_model      even integer in [2, 4096]      base        number in [10, 1e6]
//   pos_a, pos_b number in [0, 1e6]             pair        integer in [0, d_model/2)
//   pe_enabled   bool                            pe_scale    number in [0, 100]
//   sentence_a, sentence_b  text the order demo accepts (valid UTF-8, 1 to 32 words)
//   open_panels  array of panel names ("waves", "compare", "clocks", "order")
//   shift_k      integer in [-1000, 1000]       scale_embeddings  bool
//   order_d_model even integer in [2, 64]       random_embeddings bool   embedding_seed  int ≥ 0
//   font_scale   number in [0.5, 4]         presented_panel  "" or one panel name (shown alone)
// Written scenes also carry "format": "pelab-scene" and "version": 1, and `--state-out` adds a
// "readouts" object (numbers computed from the state) that reading ignores.
#pragma once

#include "app_state.h"

#include <string>

namespace pelab {

/// Applies the scene in json_text to state. Returns "" on success, else a one-line message
/// naming the field; on error state is left unchanged.
std::string ApplySceneText(const std::string& json_text, AppState& state);

/// Reads path and applies it. Missing, unreadable or corrupt files give a message too.
std::string LoadSceneFile(const std::string& path, AppState& state);

/// The scene of state as pretty-printed JSON; with_readouts adds the computed numbers.
std::string SceneText(const AppState& state, bool with_readouts);

/// Writes SceneText atomically. Returns "" or the error message.
std::string SaveSceneFile(const std::string& path, const AppState& state, bool with_readouts);

} // namespace pelab
