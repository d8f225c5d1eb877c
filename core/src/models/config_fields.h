// models/config_fields.h — reading one field of config.json: the value checked against its type
// and range, or a one-line message naming the field ("config field \"n_head\": must be a whole
// number in [1, 4096] (got \"12\")"). null counts as absent: the output is then left alone.
// Shared by the readers of model_config.cpp and layer_schedule.cpp.
#pragma once

#include "pelab/base/status.h"
#include <nlohmann/json.hpp>

#include <initializer_list>
#include <string>
#include <vector>

namespace pelab {
struct CheckpointConfig;
}

namespace pelab::detail {

/// A value for a message: its JSON text cut to about 40 bytes.
std::string Got(const nlohmann::json& value);
/// The first present (non-null) key among names (*which receives it); nullptr when none is.
const nlohmann::json* First(const nlohmann::json& object, std::initializer_list<const char*> names,
                            const char** which);
/// A whole number in [low, high] under the first present name.
Status Whole(const nlohmann::json& object, std::initializer_list<const char*> names, long long low,
             long long high, long long* out);
Status WholeInt(const nlohmann::json& object, std::initializer_list<const char*> names, int low,
                int high, int* out);
/// A finite number in [low, high] ((low, high] when low_open); *given set when one was read.
Status Number(const nlohmann::json& object, std::initializer_list<const char*> names, double low,
              double high, bool low_open, double* out, bool* given = nullptr);
Status Boolean(const nlohmann::json& object, const char* name, bool* out);
/// Text of at most 200 bytes.
Status Text(const nlohmann::json& object, const char* name, std::string* out);
/// A list of at most max_items whole numbers, each in [low, high].
Status WholeList(const nlohmann::json& object, const char* name, long long low, long long high,
                 std::size_t max_items, std::vector<long long>* out);
/// A list of at most max_items texts (each at most 200 bytes).
Status TextList(const nlohmann::json& object, const char* name, std::size_t max_items,
                std::vector<std::string>* out);
/// A message about a key inside an entry, naming the entry: "config field \"rope_theta\": …"
/// becomes "config field \"rope_parameters.rope_theta\": …". ok stays ok.
Status Inside(const Status& problem, const std::string& where);

/// The keys that change a forward pass's computation (pass_keys.cpp): GPT-2's
/// activation_function and attention scales, the rotary families' hidden_act and
/// tie_word_embeddings.
Status ReadPassKeys(const nlohmann::json& settings, CheckpointConfig* config);

/// The keys that differ from layer to layer (layer_types, sliding windows, no_rope_layers, MLA's
/// widths, …) into config (layer_schedule.cpp). ok or the message naming the first wrong one.
Status ReadLayerKeys(const nlohmann::json& settings, CheckpointConfig* config);

} // namespace pelab::detail
