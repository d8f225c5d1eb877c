// The config.json keys a forward pass computes with (models/config_fields.h's ReadPassKeys).
#include "models/config_fields.h"
#include "pelab/models/model_config.h"

namespace pelab::detail {

using nlohmann::json;

Status ReadPassKeys(const json& s, CheckpointConfig* config) {
    for (Status status :
         {Text(s, "activation_function", &config->activation),
          Boolean(s, "scale_attn_weights", &config->scale_attn_weights),
          Boolean(s, "scale_attn_by_inverse_layer_idx", &config->scale_attn_by_inverse_layer_idx),
          Boolean(s, "reorder_and_upcast_attn", &config->reorder_and_upcast_attn),
          Text(s, "hidden_act", &config->hidden_act)})
        if (!status.ok()) return status;
    if (s.contains("tie_word_embeddings") && !s["tie_word_embeddings"].is_null()) {
        config->tie_word_embeddings_given = true;
        return Boolean(s, "tie_word_embeddings", &config->tie_word_embeddings);
    }
    return {};
}

} // namespace pelab::detail
