#include "pelab/models/model_positions.h"

#include "base/format.h"
#include "models/rope_config.h"
#include "pelab/models/layer_schedule.h"
#include "pelab/models/top_eigen.h"

#include "pelab/base/error.h"
#include "pelab/encodings/alternatives.h"
#include "pelab/scaling/context_scaling.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>

namespace pelab {

namespace {

// name is suffix, or ends with "." + suffix (so "wpe.weight" finds "transformer.wpe.weight" but
// not "xwpe.weight").
bool EndsWith(const std::string& name, const std::string& suffix) {
    if (name.size() < suffix.size()) return false;
    if (name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) return false;
    return name.size() == suffix.size() || name[name.size() - suffix.size() - 1] == '.';
}

const std::string* FindEnding(const Checkpoint& checkpoint, const std::string& suffix) {
    for (const std::string& name : checkpoint.Names())
        if (EndsWith(name, suffix)) return &name;
    return nullptr;
}

// "…layers.<N><rest>": the layer number N, or −1.
int LayerOf(const std::string& name, const std::string& rest) {
    if (name.size() <= rest.size() ||
        name.compare(name.size() - rest.size(), rest.size(), rest) != 0)
        return -1;
    const std::string head = name.substr(0, name.size() - rest.size()); // "…layers.12"
    const std::size_t dot = head.rfind('.');
    if (dot == std::string::npos) return -1;
    const std::string digits = head.substr(dot + 1);
    if (digits.empty() || digits.size() > 6 ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return -1;
    // "…layers.N" (Hugging Face's names), "h.N" (phi-msft's transformer.h.N), "blk.N" (GGUF's).
    const std::string stack = head.substr(0, dot);
    if (!EndsWith(stack, "layers") && stack != "h" && !EndsWith(stack, ".h") && stack != "blk")
        return -1;
    return std::stoi(digits);
}

std::string RopeFamily(const std::string& model_type, const std::string& fallback) {
    if (const ModelFamily* family = family_of_model_type(model_type)) return family->display;
    return model_type.empty() ? fallback : model_type;
}

} // namespace

const char* position_kind_name(PositionKind kind) {
    switch (kind) {
    case PositionKind::LearnedTable:
        return "learned table";
    case PositionKind::RelativeBuckets:
        return "T5 relative buckets";
    case PositionKind::Alibi:
        return "ALiBi";
    case PositionKind::Rope:
        return "RoPE";
    case PositionKind::None:
        break;
    }
    return "none";
}

void pair_dimensions(int pair, int rotary_dims, RotaryPairing pairing, int* first, int* second) {
    if (pairing == RotaryPairing::HalfSplit) {
        *first = pair;
        *second = pair + rotary_dims / 2;
    } else {
        *first = 2 * pair;
        *second = 2 * pair + 1;
    }
}

std::vector<double> rotate_head(const std::vector<double>& x, int rotary_dims, double base,
                                double position, RotaryPairing pairing) {
    if (rotary_dims < 2 || rotary_dims % 2 != 0 || rotary_dims > static_cast<int>(x.size()))
        throw InvalidArgument("rotary_dims must be even and in [2, " + std::to_string(x.size()) +
                              "] (got " + std::to_string(rotary_dims) + ")");
    std::vector<double> out = x;
    for (int pair = 0; pair < rotary_dims / 2; ++pair) {
        const double theta = std::pow(base, -2.0 * pair / rotary_dims);
        const double angle = position * theta;
        int a = 0, b = 0;
        pair_dimensions(pair, rotary_dims, pairing, &a, &b);
        const double c = std::cos(angle), s = std::sin(angle);
        out[a] = x[a] * c - x[b] * s;
        out[b] = x[b] * c + x[a] * s;
    }
    return out;
}

namespace {

// Each family's finder: nothing when the checkpoint is not of that family; else "" (out filled)
// or the reason it cannot be read.
using Finding = std::optional<Status>;

// A table of at least 2 rows and 1 column, of floating-point numbers: "" or why not.
Status TableProblem(Checkpoint& checkpoint, const std::string& name, const TensorInfo** info) {
    Status error;
    *info = checkpoint.Find(name, &error);
    if (*info == nullptr)
        return error.ok() ? "the checkpoint has no tensor " + detail::shown_name(name)
                          : error.message();
    if ((*info)->shape.size() != 2 || (*info)->shape[0] < 2 || (*info)->shape[1] < 1) {
        std::string shape;
        for (std::int64_t extent : (*info)->shape)
            shape += (shape.empty() ? "" : ", ") + std::to_string(extent);
        return "tensor " + detail::shown_name(name) +
               " is not a table of at least 2 rows and 1 column (its shape is [" + shape + "])";
    }
    if (!(*info)->Readable())
        return "tensor " + detail::shown_name(name) + " holds " + (*info)->dtype +
               " numbers, not floating point ones";
    return {};
}

// What every family's reader should know about the rest of the file: saved masks and position
// ids, which are not weights.
void NoteSkippedTensors(const Checkpoint& checkpoint, FoundPositions* found) {
    int masks = 0;
    for (const std::string& name : checkpoint.Names())
        if (EndsWith(name, "attn.bias") || EndsWith(name, "attn.masked_bias") ||
            EndsWith(name, "attention.bias") || EndsWith(name, "attention.masked_bias"))
            ++masks;
    if (masks > 0)
        found->notes.push_back(std::to_string(masks) + (masks == 1 ? " tensor" : " tensors") +
                               " named …attn.bias or …attention.bias " +
                               (masks == 1 ? "is a" : "are") + " causal mask" +
                               (masks == 1 ? "" : "s") +
                               " saved with the weights, not learned biases (skipped)");
    for (const std::string& name : checkpoint.Names())
        if (EndsWith(name, "position_ids")) {
            found->notes.push_back(detail::shown_name(name) +
                                   " holds the integers 0, 1, 2, …, not weights (skipped)");
            break;
        }
}

// A tensor the user chose by name, or a lone .npy table: read as a learned position table.
Finding FindChosenTable(Checkpoint& checkpoint, const std::string& chosen_table,
                        FoundPositions* found) {
    const bool lone_npy = chosen_table.empty() && checkpoint.FormatName() == "npy";
    if (chosen_table.empty() && !lone_npy) return std::nullopt;
    const std::string name = lone_npy ? checkpoint.Names().front() : chosen_table;
    const TensorInfo* info = nullptr;
    if (Status problem = TableProblem(checkpoint, name, &info); !problem.ok()) return problem;
    found->family = lone_npy ? "NumPy table" : "chosen tensor";
    found->kind = PositionKind::LearnedTable;
    found->table = name;
    found->context = info->shape[0];
    return std::string();
}

// T5's relative buckets: one table per stack, in its first block.
Finding FindBuckets(const Checkpoint& checkpoint, const std::string& model_type,
                    const CheckpointConfig* config, FoundPositions* found) {
    for (const char* stack : {"encoder", "decoder"}) {
        const std::string suffix =
            std::string(stack) + ".block.0.layer.0.SelfAttention.relative_attention_bias.weight";
        if (const std::string* name = FindEnding(checkpoint, suffix)) {
            found->bias_tables.push_back(*name);
            found->bias_stacks.push_back(stack);
        }
    }
    if (found->bias_tables.empty()) return std::nullopt;
    found->family = model_type.empty() || model_type == "t5" ? "T5" : model_type;
    found->kind = PositionKind::RelativeBuckets;
    found->context = config ? config->max_positions : 0;
    return std::string();
}

// The notes of a learned table: the output layer tied or not, the rows a family skips.
void NoteLearnedTable(const Checkpoint& checkpoint, FoundPositions* found) {
    if (found->family == "GPT-2" || found->family == "GPT-Neo" || found->family == "OPT") {
        bool tied = true;
        for (const std::string& each : checkpoint.Names())
            if (EndsWith(each, "lm_head.weight")) tied = false;
        if (tied)
            found->notes.push_back("no lm_head.weight: the output layer reuses the token "
                                   "embeddings (tied)");
    }
    if (found->first_row == 2)
        found->notes.push_back(found->family + " keeps positions from row 2 of its table" +
                               std::string(found->padding_row == 1
                                               ? " (row 1 is the padding tokens' position)"
                                               : " (rows 0 and 1 are never used by text)"));
}

// The learned tables of GPT-2 / GPT-Neo, BERT / RoBERTa and its relatives, and OPT.
Finding FindLearnedTable(Checkpoint& checkpoint, const std::string& model_type,
                         FoundPositions* found) {
    struct Table {
        const char* suffix;
        const char* family;
        int first_row;
    };
    const bool roberta_config =
        model_type == "roberta" || model_type == "xlm-roberta" || model_type == "camembert";
    for (const Table& table :
         {Table{"wpe.weight", "GPT-2", 0}, Table{"position_embd.weight", "GPT-2", 0},
          Table{"embeddings.position_embeddings.weight", "BERT", 0},
          Table{"decoder.embed_positions.weight", "OPT", 2}}) {
        const std::string* name = FindEnding(checkpoint, table.suffix);
        if (name == nullptr) continue;
        const TensorInfo* info = nullptr;
        if (Status problem = TableProblem(checkpoint, *name, &info); !problem.ok()) return problem;
        found->kind = PositionKind::LearnedTable;
        found->table = *name;
        found->family = table.family;
        found->first_row = table.first_row;
        if (std::string(table.family) == "GPT-2" && model_type == "gpt_neo")
            found->family = "GPT-Neo";
        if (std::string(table.family) == "BERT" &&
            (roberta_config || name->rfind("roberta.", 0) == 0)) {
            found->family = model_type == "xlm-roberta"  ? "XLM-RoBERTa"
                            : model_type == "camembert"  ? "CamemBERT"
                            : model_type == "longformer" ? "Longformer"
                                                         : "RoBERTa";
            found->first_row = 2;
            found->padding_row = 1;
        }
        if (found->first_row >= info->shape[0])
            return "tensor " + detail::shown_name(*name) + " has " +
                   std::to_string(info->shape[0]) + " rows; " + found->family +
                   "'s positions start at row " + std::to_string(found->first_row);
        found->context = info->shape[0] - found->first_row;
        NoteLearnedTable(checkpoint, found);
        return std::string();
    }
    return std::nullopt;
}

// Each layer's query and key projections, by the names the RoPE families give them.
std::map<int, RopeLayerTensors> RopeLayers(const Checkpoint& checkpoint) {
    std::map<int, RopeLayerTensors> layers;
    for (const std::string& name : checkpoint.Names()) {
        using Fused = RopeLayerTensors::Fused;
        int layer = LayerOf(name, ".self_attn.q_proj.weight");
        if (layer < 0) layer = LayerOf(name, ".self_attn.q_b_proj.weight");
        if (layer >= 0) {
            const std::string prefix = name.substr(0, name.rfind(".self_attn.") + 11);
            if (checkpoint.Has(prefix + "k_proj.weight"))
                layers[layer] = {name, prefix + "k_proj.weight", Fused::No, layer};
            else if (checkpoint.Has(prefix + "kv_a_proj_with_mqa.weight"))
                layers[layer] = {name, prefix + "kv_a_proj_with_mqa.weight", Fused::Latent, layer};
            continue;
        }
        // GGUF's names (gguf-py's tensor_mapping.py): blk.N.attn_q / attn_k, DeepSeek's
        // attn_q_b (or attn_q) with attn_kv_a_mqa, and the fused attn_qkv (q, k, v rows).
        layer = LayerOf(name, ".attn_q.weight");
        if (layer < 0) layer = LayerOf(name, ".attn_q_b.weight");
        if (layer >= 0) {
            const std::string prefix = "blk." + std::to_string(layer) + ".";
            if (checkpoint.Has(prefix + "attn_k.weight"))
                layers[layer] = {name, prefix + "attn_k.weight", Fused::No, layer};
            else if (checkpoint.Has(prefix + "attn_kv_a_mqa.weight"))
                layers[layer] = {name, prefix + "attn_kv_a_mqa.weight", Fused::Latent, layer};
            continue;
        }
        layer = LayerOf(name, ".attn_qkv.weight");
        if (layer < 0) layer = LayerOf(name, ".self_attn.qkv_proj.weight");
        if (layer >= 0) {
            layers[layer] = {name, name, Fused::Stacked, layer};
            continue;
        }
        // ModernBERT attn.Wqkv and phi-msft mixer.Wqkv: all q rows, then k, then v.
        for (const char* fused : {".attn.Wqkv.weight", ".mixer.Wqkv.weight"})
            if (layer < 0) layer = LayerOf(name, fused);
        if (layer >= 0) {
            layers[layer] = {name, name, Fused::Stacked, layer};
            continue;
        }
        layer = LayerOf(name, ".attention.query_key_value.weight");
        if (layer >= 0) layers[layer] = {name, name, Fused::PerHead, layer};
    }
    return layers;
}

// A RoPE model: its layers' projections, and what config.json says of its rotation.
Finding FindRope(const Checkpoint& checkpoint, const std::string& model_type,
                 const CheckpointConfig* config, FoundPositions* found) {
    const std::map<int, RopeLayerTensors> layers = RopeLayers(checkpoint);
    if (layers.empty() || (config && config->alibi)) return std::nullopt;
    if (Status problem = detail::RopeConfigProblem(config, layers.begin()->second.query);
        !problem.ok())
        return problem;
    const bool neox = layers.begin()->second.fused == RopeLayerTensors::Fused::PerHead;
    found->kind = PositionKind::Rope;
    found->family = RopeFamily(model_type, neox ? "GPT-NeoX" : "RoPE model");
    const ModelFamily* family = family_of_model_type(model_type);
    for (auto [index, tensors] : layers) {
        if (family && family->gated_query && tensors.fused == RopeLayerTensors::Fused::No)
            tensors.fused = RopeLayerTensors::Fused::Gated;
        found->rope_layers.push_back(tensors);
    }
    return detail::RopeFromConfig(config, found);
}

// ALiBi: no tensor, the config marks it and gives the heads.
Finding FindAlibi(const std::string& model_type, const CheckpointConfig* config,
                  FoundPositions* found) {
    if (!(config && config->alibi)) return std::nullopt;
    if (config->heads == 0)
        return std::string("config.json marks an ALiBi model but gives no head count (n_head)");
    found->kind = PositionKind::Alibi;
    found->family = model_type == "bloom" || model_type.empty() ? "BLOOM" : model_type;
    found->alibi_heads = config->heads;
    found->context = config->max_positions;
    for (const std::string& note : config->positions_not_shown)
        found->notes.push_back(note);
    return std::string();
}

} // namespace

Status FindPositions(Checkpoint& checkpoint, const CheckpointConfig* config,
                     const std::string& chosen_table, FoundPositions* out) {
    // The family's own table chosen by name keeps what the family says of it (RoBERTa's and
    // OPT's rows from 2, the padding row).
    if (!chosen_table.empty()) {
        FoundPositions own;
        if (FindPositions(checkpoint, config, "", &own).ok() &&
            own.kind == PositionKind::LearnedTable && own.table == chosen_table) {
            *out = std::move(own);
            return {};
        }
    }
    FoundPositions found;
    NoteSkippedTensors(checkpoint, &found);
    const std::string model_type = config ? config->model_type : "";
    Finding finding = FindChosenTable(checkpoint, chosen_table, &found);
    if (!finding) finding = FindBuckets(checkpoint, model_type, config, &found);
    if (!finding) finding = FindLearnedTable(checkpoint, model_type, &found);
    const ModelFamily* family = family_of_model_type(model_type);
    if (!finding && config && family && family->kind == PositionKind::None) {
        detail::NoPositionsFamily(*config, *family, &found);
        finding = std::string();
    }
    if (!finding) finding = FindRope(checkpoint, model_type, config, &found);
    if (!finding) finding = FindAlibi(model_type, config, &found);
    if (!finding) {
        found.family = model_type.empty() ? "unknown" : model_type;
        found.notes.push_back("no position tensor of a known family was found: choose a 2-D "
                              "tensor to read as a position table");
        finding = std::string();
    }
    if (!finding->ok()) return *finding;
    found.family_id = found.family == "NumPy table"     ? "numpy_table"
                      : found.family == "chosen tensor" ? "chosen_tensor"
                                                        : family_id_of_display(found.family);
    *out = std::move(found);
    return {};
}

} // namespace pelab
