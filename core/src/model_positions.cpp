#include "pelab/model_positions.h"
#include "pelab/top_eigen.h"

#include "pelab/alternatives.h"
#include "pelab/context_scaling.h"
#include "pelab/error.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <map>

namespace pelab {

namespace {

constexpr double kPi = 3.14159265358979323846;

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
    if (!EndsWith(head.substr(0, dot), "layers")) return -1;
    return std::stoi(digits);
}

std::string RopeFamily(const std::string& model_type, const std::string& fallback) {
    static const std::map<std::string, std::string> kNames = {
        {"llama", "Llama"},       {"mistral", "Mistral"}, {"mixtral", "Mixtral"},
        {"qwen2", "Qwen2"},       {"qwen3", "Qwen3"},     {"qwen2_moe", "Qwen2-MoE"},
        {"gemma", "Gemma"},       {"gemma2", "Gemma 2"},  {"gemma3_text", "Gemma 3"},
        {"gemma3", "Gemma 3"},    {"phi", "Phi"},         {"phi3", "Phi-3"},
        {"gpt_neox", "GPT-NeoX"}, {"olmo", "OLMo"},       {"starcoder2", "StarCoder2"}};
    const auto at = kNames.find(model_type);
    if (at != kNames.end()) return at->second;
    return model_type.empty() ? fallback : model_type;
}

std::string Quoted(const std::string& name) {
    return "\"" + (name.size() > 80 ? name.substr(0, 80) + "…" : name) + "\"";
}

// In-place radix-2 FFT (size a power of two): X(k) = Σ x(p)·e^{−2πikp/N}.
void Fft(std::vector<std::complex<double>>& x) {
    const std::size_t size = x.size();
    for (std::size_t i = 1, j = 0; i < size; ++i) {
        std::size_t bit = size >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j ^= bit;
        if (i < j) std::swap(x[i], x[j]);
    }
    // Each twiddle e^{−2πik/N} from its angle once (exact to rounding, no drift from repeated
    // multiplication); a stage of length L uses every (N/L)-th of them.
    std::vector<std::complex<double>> twiddle(size / 2);
    for (std::size_t k = 0; k < size / 2; ++k) {
        const double angle = -2 * kPi * static_cast<double>(k) / static_cast<double>(size);
        twiddle[k] = std::complex<double>(std::cos(angle), std::sin(angle));
    }
    for (std::size_t length = 2; length <= size; length <<= 1) {
        const std::size_t stride = size / length;
        for (std::size_t start = 0; start < size; start += length)
            for (std::size_t k = 0; k < length / 2; ++k) {
                const std::complex<double> even = x[start + k];
                const std::complex<double> odd = x[start + k + length / 2] * twiddle[k * stride];
                x[start + k] = even + odd;
                x[start + k + length / 2] = even - odd;
            }
    }
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

std::string FindPositions(Checkpoint& checkpoint, const CheckpointConfig* config,
                          const std::string& chosen_table, FoundPositions* out) {
    FoundPositions found;
    const std::string model_type = config ? config->model_type : "";
    std::string error;
    const auto rows_of = [&](const std::string& name, const TensorInfo** info) -> std::string {
        *info = checkpoint.Find(name, &error);
        if (*info == nullptr)
            return error.empty() ? "the checkpoint has no tensor " + Quoted(name) : error;
        if ((*info)->shape.size() != 2 || (*info)->shape[0] < 2 || (*info)->shape[1] < 1) {
            std::string shape;
            for (std::int64_t extent : (*info)->shape)
                shape += (shape.empty() ? "" : ", ") + std::to_string(extent);
            return "tensor " + Quoted(name) +
                   " is not a table of at least 2 rows and 1 column "
                   "(its shape is [" +
                   shape + "])";
        }
        if (!(*info)->Readable())
            return "tensor " + Quoted(name) + " holds " + (*info)->dtype +
                   " numbers, not floating point ones";
        return {};
    };
    // What every family's reader should know about the rest of the file.
    int masks = 0;
    for (const std::string& name : checkpoint.Names())
        if (EndsWith(name, "attn.bias") || EndsWith(name, "attn.masked_bias") ||
            EndsWith(name, "attention.bias") || EndsWith(name, "attention.masked_bias"))
            ++masks;
    if (masks > 0)
        found.notes.push_back(std::to_string(masks) + (masks == 1 ? " tensor" : " tensors") +
                              " named …attn.bias or …attention.bias " +
                              (masks == 1 ? "is a" : "are") + " causal mask" +
                              (masks == 1 ? "" : "s") +
                              " saved with the weights, not learned biases (skipped)");
    for (const std::string& name : checkpoint.Names())
        if (EndsWith(name, "position_ids")) {
            found.notes.push_back(Quoted(name) + " holds the integers 0, 1, 2, …, not weights "
                                                 "(skipped)");
            break;
        }

    // The family's own table chosen by name keeps what the family says of it (RoBERTa's and
    // OPT's rows from 2, the padding row).
    if (!chosen_table.empty()) {
        FoundPositions own;
        if (FindPositions(checkpoint, config, "", &own).empty() &&
            own.kind == PositionKind::LearnedTable && own.table == chosen_table) {
            *out = std::move(own);
            return {};
        }
    }
    // A lone .npy table is the user's own position table.
    const bool lone_npy = chosen_table.empty() && checkpoint.FormatName() == "npy";
    if (!chosen_table.empty() || lone_npy) {
        const std::string name = lone_npy ? checkpoint.Names().front() : chosen_table;
        const TensorInfo* info = nullptr;
        if (std::string problem = rows_of(name, &info); !problem.empty()) return problem;
        found.family = lone_npy ? "NumPy table" : "chosen tensor";
        found.kind = PositionKind::LearnedTable;
        found.table = name;
        found.context = info->shape[0];
        *out = std::move(found);
        return {};
    }

    // T5's relative buckets.
    for (const char* stack : {"encoder", "decoder"}) {
        const std::string suffix =
            std::string(stack) + ".block.0.layer.0.SelfAttention.relative_attention_bias.weight";
        if (const std::string* name = FindEnding(checkpoint, suffix)) {
            found.bias_tables.push_back(*name);
            found.bias_stacks.push_back(stack);
        }
    }
    if (!found.bias_tables.empty()) {
        found.family = model_type.empty() || model_type == "t5" ? "T5" : model_type;
        found.kind = PositionKind::RelativeBuckets;
        found.context = config ? config->max_positions : 0;
        *out = std::move(found);
        return {};
    }

    // Learned tables.
    struct Table {
        const char* suffix;
        const char* family;
        int first_row;
    };
    const bool roberta_config =
        model_type == "roberta" || model_type == "xlm-roberta" || model_type == "camembert";
    for (const Table& table : {Table{"wpe.weight", "GPT-2", 0},
                               Table{"embeddings.position_embeddings.weight", "BERT", 0},
                               Table{"decoder.embed_positions.weight", "OPT", 2}}) {
        const std::string* name = FindEnding(checkpoint, table.suffix);
        if (name == nullptr) continue;
        const TensorInfo* info = nullptr;
        if (std::string problem = rows_of(*name, &info); !problem.empty()) return problem;
        found.kind = PositionKind::LearnedTable;
        found.table = *name;
        found.family = table.family;
        found.first_row = table.first_row;
        if (std::string(table.family) == "GPT-2" && model_type == "gpt_neo")
            found.family = "GPT-Neo";
        if (std::string(table.family) == "BERT" &&
            (roberta_config || name->rfind("roberta.", 0) == 0)) {
            found.family = model_type == "xlm-roberta"  ? "XLM-RoBERTa"
                           : model_type == "camembert"  ? "CamemBERT"
                           : model_type == "longformer" ? "Longformer"
                                                        : "RoBERTa";
            found.first_row = 2;
            found.padding_row = 1;
        }
        if (found.first_row >= info->shape[0])
            return "tensor " + Quoted(*name) + " has " + std::to_string(info->shape[0]) +
                   " rows; " + found.family + "'s positions start at row " +
                   std::to_string(found.first_row);
        found.context = info->shape[0] - found.first_row;
        if (found.family == "GPT-2" || found.family == "GPT-Neo" || found.family == "OPT") {
            bool tied = true;
            for (const std::string& each : checkpoint.Names())
                if (EndsWith(each, "lm_head.weight")) tied = false;
            if (tied)
                found.notes.push_back("no lm_head.weight: the output layer reuses the token "
                                      "embeddings (tied)");
        }
        if (found.first_row == 2)
            found.notes.push_back(found.family + " keeps positions from row 2 of its table" +
                                  std::string(found.padding_row == 1
                                                  ? " (row 1 is the padding tokens' position)"
                                                  : " (rows 0 and 1 are never used by text)"));
        *out = std::move(found);
        return {};
    }

    // RoPE: each layer's query and key projections.
    std::map<int, RopeLayerTensors> layers;
    for (const std::string& name : checkpoint.Names()) {
        int layer = LayerOf(name, ".self_attn.q_proj.weight");
        if (layer >= 0) {
            std::string key = name.substr(0, name.size() - 13) + "k_proj.weight";
            if (checkpoint.Has(key)) layers[layer] = {name, key, RopeLayerTensors::Fused::No};
            continue;
        }
        layer = LayerOf(name, ".self_attn.qkv_proj.weight");
        if (layer >= 0) {
            layers[layer] = {name, name, RopeLayerTensors::Fused::Stacked};
            continue;
        }
        layer = LayerOf(name, ".attention.query_key_value.weight");
        if (layer >= 0) layers[layer] = {name, name, RopeLayerTensors::Fused::PerHead};
    }
    const bool neox =
        !layers.empty() && layers.begin()->second.fused == RopeLayerTensors::Fused::PerHead;
    if (!layers.empty() && !(config && config->alibi)) {
        if (config == nullptr)
            return "the checkpoint holds a RoPE model's attention (" +
                   Quoted(layers.begin()->second.query) +
                   "), but its heads, head width and base are in config.json: put config.json "
                   "beside the weights or name it with --config";
        if (config->heads == 0)
            return "config.json gives no head count (num_attention_heads), which RoPE's pairs "
                   "need";
        if (config->HeadWidth() == 0)
            return config->hidden == 0
                       ? "config.json gives no head width: neither head_dim nor hidden_size"
                       : "config.json gives no head width: head_dim is absent and hidden_size (" +
                             std::to_string(config->hidden) + ") is not a multiple of the " +
                             std::to_string(config->heads) + " heads";
        found.kind = PositionKind::Rope;
        found.family = RopeFamily(model_type, neox ? "GPT-NeoX" : "RoPE model");
        for (auto& [index, tensors] : layers)
            found.rope_layers.push_back(tensors);
        found.heads = config->heads;
        found.kv_heads = config->kv_heads > 0 ? config->kv_heads : config->heads;
        found.head_dim = config->HeadWidth();
        found.rotary_dims = static_cast<int>(found.head_dim * config->partial_rotary);
        found.rotary_dims -= found.rotary_dims % 2;
        if (found.rotary_dims < 2)
            return "config: partial rotary " +
                   [&] {
                       char text[32];
                       std::snprintf(text, sizeof text, "%g",
                                     config->partial_rotary); // 1e-300, not 0.000000
                       return std::string(text);
                   }() +
                   " of a head of " + std::to_string(found.head_dim) +
                   " dimensions leaves no pair to rotate";
        found.base = config->rope_theta > 0 ? config->rope_theta : 10000.0;
        found.base_from_default = config->rope_theta <= 0;
        found.pairing = RotaryPairing::HalfSplit;
        found.context = config->max_positions;
        const RopeScalingConfig& scaling = config->rope_scaling;
        if (!scaling.type.empty() && scaling.type != "default" && scaling.original_context > 0 &&
            static_cast<long long>(scaling.original_context) != config->max_positions) {
            found.context = static_cast<long long>(scaling.original_context);
            found.extended_context = config->max_positions;
        }
        if (found.base_from_default)
            found.notes.push_back("config.json gives no rope_theta: Hugging Face's default "
                                  "10 000 is used");
        if (found.rotary_dims < found.head_dim)
            found.notes.push_back(
                std::to_string(found.rotary_dims) + " of each head's " +
                std::to_string(found.head_dim) +
                " dimensions rotate (partial rotary); the rest carry no position");
        *out = std::move(found);
        return {};
    }

    if (config && config->alibi) {
        if (config->heads == 0)
            return "config.json marks an ALiBi model but gives no head count (n_head)";
        found.kind = PositionKind::Alibi;
        found.family = model_type == "bloom" || model_type.empty() ? "BLOOM" : model_type;
        found.alibi_heads = config->heads;
        found.context = config->max_positions;
        *out = std::move(found);
        return {};
    }
    found.family = model_type.empty() ? "unknown" : model_type;
    found.notes.push_back("no position tensor of a known family was found: choose a 2-D tensor "
                          "to read as a position table");
    *out = std::move(found);
    return {};
}

// ---- learned tables ----

double dominant_wavelength(const std::vector<double>& values) {
    const int n = static_cast<int>(values.size());
    if (n < 3) return 0;
    double mean = 0;
    for (double v : values)
        mean += v;
    mean /= n;
    const auto power = [&](double omega) {
        // Σ (v_p − mean)·e^{−iωp}, the rotation advanced by multiplying (exact enough in double
        // for tables of 10⁵ rows) and restarted every 256 steps.
        double re = 0, im = 0;
        const double step_c = std::cos(omega), step_s = std::sin(omega);
        double c = 1, s = 0;
        for (int p = 0; p < n; ++p) {
            if (p % 256 == 0) c = std::cos(omega * p), s = std::sin(omega * p);
            const double v = values[p] - mean;
            re += v * c;
            im -= v * s;
            const double next_c = c * step_c - s * step_s;
            s = s * step_c + c * step_s;
            c = next_c;
        }
        return re * re + im * im;
    };
    // The periodogram on a grid of spacing π/(2n) (the main lobe of a wave is 8 points wide on it):
    // an FFT of the values zero-padded to N ≥ 4n points (bin k is ω = 2πk/N), O(N log N) where a
    // direct scan of the grid would cost O(n²) (minutes for 10⁵ rows).
    std::size_t size = 1;
    while (size < 4 * static_cast<std::size_t>(n))
        size <<= 1;
    // The values are real: the N-point transform from one of N/2 points, even samples as the
    // real parts and odd ones as the imaginary parts (half the work), then
    // X_k = E_k + e^{−2πik/N}·O_k with E_k = (Z_k + conj Z_{N/2−k})/2, O_k = (Z_k − conj
    // Z_{N/2−k})/2i.
    const std::size_t half = size / 2;
    std::vector<std::complex<double>> packed(half);
    for (int p = 0; p < n; ++p) {
        const double v = values[static_cast<std::size_t>(p)] - mean;
        if (p % 2 == 0)
            packed[static_cast<std::size_t>(p / 2)].real(v);
        else
            packed[static_cast<std::size_t>(p / 2)].imag(v);
    }
    Fft(packed);
    const auto power_at = [&](std::size_t k) {
        const std::complex<double> z = packed[k % half], w = std::conj(packed[(half - k) % half]);
        const std::complex<double> even = (z + w) * 0.5,
                                   odd = (z - w) * std::complex<double>(0, -0.5);
        const double angle = -2 * kPi * static_cast<double>(k) / static_cast<double>(size);
        return std::norm(even + std::complex<double>(std::cos(angle), std::sin(angle)) * odd);
    };
    std::size_t best_bin = 1;
    double best_power = power_at(1);
    for (std::size_t k = 2; k <= half; ++k)
        if (const double power = power_at(k); power > best_power) best_bin = k, best_power = power;
    const double spacing = 2 * kPi / static_cast<double>(size);
    const int grid = static_cast<int>(size / 2);
    const int best = static_cast<int>(best_bin);
    // Golden-section search between the neighbours of the best grid point.
    double low = spacing * (best - 1), high = spacing * std::min(best + 1, grid);
    const double golden = (std::sqrt(5.0) - 1) / 2;
    double a = high - golden * (high - low), b = low + golden * (high - low);
    double pa = power(a), pb = power(b);
    for (int iteration = 0; iteration < 60; ++iteration) {
        if (pa > pb) {
            high = b, b = a, pb = pa;
            a = high - golden * (high - low);
            pa = power(a);
        } else {
            low = a, a = b, pa = pb;
            b = low + golden * (high - low);
            pb = power(b);
        }
    }
    const double omega = (low + high) / 2;
    // Less than one whole wave within the rows: no wavelength to name.
    if (omega * n < 2 * kPi) return 0;
    return 2 * kPi / omega;
}

namespace {

// Rows of the table widened to double and centred at a time: 8 MiB of work space at most, so the
// analysis holds the table once (float) and never a double copy of it.
int RowsPerBlock(int cols) {
    return std::max(1, static_cast<int>((std::size_t{1} << 20) / static_cast<std::size_t>(cols)));
}

// Rows of the table in double, row-major as the table is (written in order).
using RowBlock = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// block = rows [first, first + count) of the table, centred, in double.
void CentredRows(const std::vector<float>& table, int cols, const Eigen::RowVectorXd& mean,
                 int first, int count, RowBlock* block) {
    block->resize(count, cols);
    const float* in = table.data() + static_cast<std::size_t>(first) * cols;
    double* out = block->data();
    const double* centre = mean.data();
    for (int r = 0; r < count; ++r, in += cols, out += cols)
        for (int c = 0; c < cols; ++c)
            out[c] = static_cast<double>(in[c]) - centre[c];
}

} // namespace

TableReport analyse_table(const std::vector<float>& table, int rows, int cols,
                          const AnalysisControl& control) {
    if (rows < 2 || cols < 1 || table.size() != static_cast<std::size_t>(rows) * cols)
        throw InvalidArgument("a table needs at least 2 rows and 1 column, and rows × cols values");
    TableReport report;
    report.rows = rows, report.cols = cols;
    const auto row = [&](int r) { return table.data() + static_cast<std::size_t>(r) * cols; };
    const auto dot = [cols](const float* a, const float* b) {
        double s0 = 0, s1 = 0;
        int c = 0;
        for (; c + 2 <= cols; c += 2) {
            s0 += static_cast<double>(a[c]) * b[c];
            s1 += static_cast<double>(a[c + 1]) * b[c + 1];
        }
        if (c < cols) s0 += static_cast<double>(a[c]) * b[c];
        return s0 + s1;
    };
    report.norms.resize(rows);
    Eigen::RowVectorXd mean = Eigen::RowVectorXd::Zero(cols);
    for (int r = 0; r < rows; ++r) {
        const float* values = row(r);
        report.norms[r] = std::sqrt(dot(values, values));
        for (int c = 0; c < cols; ++c)
            mean(c) += values[c];
    }
    mean /= rows;
    report.neighbour_cosine.reserve(static_cast<std::size_t>(rows) - 1);
    for (int r = 0; r + 1 < rows; ++r) {
        const double denominator = report.norms[r] * report.norms[r + 1];
        report.neighbour_cosine.push_back(denominator > 0 ? dot(row(r), row(r + 1)) / denominator
                                                          : 0.0);
    }
    std::vector<double> sorted = report.norms;
    std::nth_element(sorted.begin(), sorted.begin() + rows / 2, sorted.end());
    report.median_norm = sorted[rows / 2];
    if (rows % 2 == 0) {
        const double lower = *std::max_element(sorted.begin(), sorted.begin() + rows / 2);
        report.median_norm = (report.median_norm + lower) / 2;
    }
    const int edge = std::min(16, rows);
    double edge_sum = 0;
    for (int r = rows - edge; r < rows; ++r)
        edge_sum += report.norms[r];
    report.edge_norm_ratio = report.median_norm > 0 ? edge_sum / edge / report.median_norm : 0;
    control.Check();

    // Principal components of the centred table C, through the smaller of its Gram matrices:
    // CᵀC (cols × cols) for a tall table, CCᵀ (rows × rows) for a wide one. Whole and exact up
    // to kExactGramSize; above it, the top pairs by block Krylov (pelab/top_eigen.h).
    const bool by_columns = cols <= rows;
    const int size = by_columns ? cols : rows;
    const int step = RowsPerBlock(cols);
    RowBlock block;
    double total = 0; // the variance: ‖C‖², the sum of every eigenvalue
    for (int first = 0; first < rows; first += step) {
        CentredRows(table, cols, mean, first, std::min(step, rows - first), &block);
        total += block.squaredNorm();
    }
    // Y = G·X, with G = CᵀC or CCᵀ, a block of rows of C at a time.
    const auto apply = [&](const Eigen::MatrixXd& x, Eigen::MatrixXd* y) {
        *y = Eigen::MatrixXd::Zero(size, x.cols());
        RowBlock rows_block;
        if (by_columns) {
            for (int first = 0; first < rows; first += step) {
                control.Check();
                const int count = std::min(step, rows - first);
                CentredRows(table, cols, mean, first, count, &rows_block);
                const Eigen::MatrixXd part = rows_block * x;
                y->noalias() += rows_block.transpose() * part;
            }
        } else {
            // CCᵀX = C(CᵀX): first Z = CᵀX over the row blocks, then C·Z block by block.
            Eigen::MatrixXd z = Eigen::MatrixXd::Zero(cols, x.cols());
            for (int first = 0; first < rows; first += step) {
                control.Check();
                const int count = std::min(step, rows - first);
                CentredRows(table, cols, mean, first, count, &rows_block);
                z.noalias() += rows_block.transpose() * x.middleRows(first, count);
            }
            for (int first = 0; first < rows; first += step) {
                control.Check();
                const int count = std::min(step, rows - first);
                CentredRows(table, cols, mean, first, count, &rows_block);
                y->middleRows(first, count).noalias() = rows_block * z;
            }
        }
    };
    const int wanted = std::min(kTableSingularValues, size);
    std::vector<double> values;
    Eigen::MatrixXd vectors; // size × wanted, largest first
    if (size <= kExactGramSize) {
        Eigen::MatrixXd gram;
        if (by_columns) {
            gram = Eigen::MatrixXd::Zero(cols, cols);
            for (int first = 0; first < rows; first += step) {
                control.Check();
                CentredRows(table, cols, mean, first, std::min(step, rows - first), &block);
                gram.selfadjointView<Eigen::Lower>().rankUpdate(block.transpose());
            }
            gram = gram.selfadjointView<Eigen::Lower>();
        } else {
            apply(Eigen::MatrixXd::Identity(rows, rows), &gram);
            gram = ((gram + gram.transpose()) / 2).eval();
        }
        control.Check();
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(gram);
        const Eigen::VectorXd& ascending = solver.eigenvalues();
        for (int k = 0; k < wanted; ++k)
            values.push_back(ascending(size - 1 - k));
        vectors = solver.eigenvectors().rightCols(wanted).rowwise().reverse();
    } else {
        report.iterative = true;
        const TopEigen top = top_eigenpairs(size, wanted, apply, kTableTolerance, control);
        values = top.values;
        vectors = top.vectors;
        report.approximate = !top.converged;
        for (std::size_t k = 0; k < values.size(); ++k) {
            // |σ̃ − σ| ≤ ‖r‖ / σ̃ bounds the singular value's error (‖r‖ bounds λ's, Bauer–Fike).
            const double sigma = std::sqrt(std::max(values[k], 0.0));
            report.singular_value_error.push_back(sigma > 0 ? top.residual[k] / sigma : 0.0);
        }
    }
    control.Check();
    for (int k = 0; k < wanted; ++k) {
        const double lambda = std::max(values[static_cast<std::size_t>(k)], 0.0);
        report.singular_values.push_back(std::sqrt(lambda));
        report.explained.push_back(total > 0 ? lambda / total : 0.0);
    }
    for (int k = 0; k < std::min(kTableWavelengths, wanted); ++k) {
        const Eigen::VectorXd vector = vectors.col(k);
        Eigen::VectorXd scores(rows);
        if (by_columns) {
            for (int first = 0; first < rows; first += step) {
                const int count = std::min(step, rows - first);
                CentredRows(table, cols, mean, first, count, &block);
                scores.segment(first, count) = block * vector;
            }
        } else {
            scores = vector * std::sqrt(std::max(values[static_cast<std::size_t>(k)], 0.0));
        }
        Eigen::Index largest = 0;
        scores.cwiseAbs().maxCoeff(&largest);
        if (scores(largest) < 0) scores = -scores;
        std::vector<double> component(scores.data(), scores.data() + scores.size());
        control.Check();
        report.wavelengths.push_back(dominant_wavelength(component));
        if (k < kTableComponents) report.components.push_back(std::move(component));
    }
    return report;
}

double explained_error(const TableReport& report) {
    if (!report.approximate || report.explained.empty() || report.explained[0] <= 0) return 0;
    const double total =
        report.singular_values[0] * report.singular_values[0] / report.explained[0];
    double largest = 0;
    for (std::size_t k = 0; k < report.singular_value_error.size(); ++k)
        largest =
            std::max(largest, report.singular_value_error[k] * report.singular_values[k] / total);
    return largest;
}

std::vector<float> cosine_matrix(const std::vector<float>& table, int rows, int cols) {
    if (rows < 1 || cols < 1 || table.size() != static_cast<std::size_t>(rows) * cols)
        throw InvalidArgument("cosine_matrix needs rows × cols values");
    std::vector<double> inverse_norm(rows);
    for (int r = 0; r < rows; ++r) {
        double sum = 0;
        for (int c = 0; c < cols; ++c)
            sum += static_cast<double>(table[static_cast<std::size_t>(r) * cols + c]) *
                   table[static_cast<std::size_t>(r) * cols + c];
        inverse_norm[r] = sum > 0 ? 1 / std::sqrt(sum) : 0;
    }
    std::vector<float> out(static_cast<std::size_t>(rows) * rows);
    for (int p = 0; p < rows; ++p) {
        const float* a = table.data() + static_cast<std::size_t>(p) * cols;
        for (int q = p; q < rows; ++q) {
            const float* b = table.data() + static_cast<std::size_t>(q) * cols;
            double dot = 0;
            for (int c = 0; c < cols; ++c)
                dot += static_cast<double>(a[c]) * b[c];
            const auto value = static_cast<float>(dot * inverse_norm[p] * inverse_norm[q]);
            out[static_cast<std::size_t>(p) * rows + q] = value;
            out[static_cast<std::size_t>(q) * rows + p] = value;
        }
    }
    return out;
}

// ---- RoPE ----

namespace {

// A number as a reader writes it: whole ones in full ("4096", "1000000000"), else "0.5", "32.7".
std::string ShortNumber(double value) {
    char text[40];
    std::snprintf(text, sizeof text,
                  value == std::floor(value) && std::fabs(value) < 1e15 ? "%.0f" : "%g", value);
    return text;
}

// The frequencies under the config's rope_scaling, with a line saying how they were computed.
std::vector<double> ScaledFrequencies(const RopeScalingConfig& scaling, int rotary_dims,
                                      double base, long long context, std::string* note) {
    const int pairs = rotary_dims / 2;
    std::vector<double> theta(pairs);
    for (int i = 0; i < pairs; ++i)
        theta[i] = std::pow(base, -2.0 * i / rotary_dims);
    const std::string& type = scaling.type;
    const double original =
        scaling.original_context > 0 ? scaling.original_context : static_cast<double>(context);
    if (type == "default" || type.empty()) return {};
    if (type == "dynamic") {
        // Hugging Face's dynamic NTK: at length L past the original L₀ the base becomes
        // base·(s·L/L₀ − (s − 1))^(r/(r − 2)); shown at L = s·L₀.
        const double s = scaling.factor;
        const double grown = std::pow(s * s - (s - 1), rotary_dims / (rotary_dims - 2.0));
        for (double& t : theta)
            t = std::pow(base * grown, std::log(t) / std::log(base));
        *note = "dynamic NTK at " + std::to_string(static_cast<long long>(s * original)) +
                " tokens (s × the original context): the base grows with the text's length";
        return theta;
    }
    if (type == "longrope") {
        const std::vector<double>& factors = scaling.long_factor; // required (model_config.cpp)
        if (static_cast<int>(factors.size()) != pairs) {
            *note = "longrope's long_factor has " + std::to_string(factors.size()) +
                    " numbers, not one per pair (" + std::to_string(pairs) + "): not applied";
            return {};
        }
        for (int i = 0; i < pairs; ++i)
            theta[i] /= factors[i];
        *note = "longrope: each pair's frequency divided by its long_factor";
        return theta;
    }
    if (type == "yarn") {
        if (scaling.factor < 1) {
            *note = "rope_scaling factor " + ShortNumber(scaling.factor) +
                    " is below 1 (it would shorten the context): not applied";
            return {};
        }
        // YaRN as Hugging Face's transformers computes it for these checkpoints: pair i turns
        // L₀θ_i/(2π) times in the original context L₀, so the pair that turns exactly n times
        // sits at i(n) = r·ln(L₀/(2πn)) / (2 ln base). The share of its own frequency a pair
        // keeps falls linearly over the pair index from i(beta_fast) to i(beta_slow) (rounded
        // outward to whole pairs unless rope_scaling says truncate: false); the rest of it is
        // the frequency divided by the factor. (The paper, eq. 17-21, ramps linearly in the
        // number of turns instead: the two agree at the ends and differ between them.)
        if (original < 1) {
            *note = "yarn needs the original context (original_max_position_embeddings or "
                    "max_position_embeddings): not applied";
            return {};
        }
        const double s = scaling.factor;
        const auto pair_turning = [&](double turns) {
            return rotary_dims * std::log(original / (turns * 2 * kPi)) / (2 * std::log(base));
        };
        double low = pair_turning(scaling.beta_fast), high = pair_turning(scaling.beta_slow);
        if (scaling.truncate) {
            low = std::floor(low);
            high = std::ceil(high);
        }
        low = std::max(0.0, low);
        high = std::min(rotary_dims - 1.0, high);
        if (high == low) high += 0.001; // as the reference does: no division by zero
        int kept = 0, divided = 0;
        for (int i = 0; i < pairs; ++i) {
            const double ramp = std::clamp((i - low) / (high - low), 0.0, 1.0);
            theta[i] = theta[i] / s * ramp + theta[i] * (1 - ramp);
            kept += ramp == 0 ? 1 : 0;
            divided += ramp == 1 ? 1 : 0;
        }
        const auto counted = [](int count, const char* what) {
            return std::to_string(count) + (count == 1 ? " pair " : " pairs ") + what;
        };
        *note = "YaRN as Hugging Face computes it, factor " + ShortNumber(s) +
                ", original context " + ShortNumber(original) + ": " + counted(kept, "kept") +
                ", " + counted(divided, "divided by the factor") + ", " +
                counted(pairs - kept - divided, "on the ramp between") +
                " (linear over the pair index; the paper ramps over the turns)";
        return theta;
    }
    ContextScaling method = ContextScaling::None;
    if (type == "linear")
        method = ContextScaling::Linear;
    else if (type == "llama3")
        method = ContextScaling::Llama3;
    else {
        *note = "rope_scaling type \"" + type + "\" is not one PE Lab computes: not applied";
        return {};
    }
    if (scaling.factor < 1) {
        *note = "rope_scaling factor " + ShortNumber(scaling.factor) +
                " is below 1 (it would shorten the context): not applied";
        return {};
    }
    ContextScalingOptions options;
    options.d = rotary_dims;
    options.base = base;
    options.factor = std::max(1.0, scaling.factor);
    options.original_context = std::max(1.0, original);
    options.yarn_alpha = scaling.beta_slow;
    options.yarn_beta = scaling.beta_fast;
    options.llama_low_freq_factor = scaling.low_freq_factor;
    options.llama_high_freq_factor = scaling.high_freq_factor;
    try {
        std::vector<double> scaled = scaled_frequencies(method, options);
        *note = std::string(context_scaling_name(method)) + ", factor " +
                ShortNumber(scaling.factor) + ", original context " +
                ShortNumber(options.original_context);
        return scaled;
    } catch (const InvalidArgument& error) {
        *note = std::string("rope_scaling not applied: ") + error.what();
        return {};
    }
}

} // namespace

std::string analyse_rope(Checkpoint& checkpoint, const FoundPositions& found,
                         const CheckpointConfig& config, RopeReport* out) {
    if (found.kind != PositionKind::Rope) return "the checkpoint has no RoPE attention";
    RopeReport report;
    report.head_dim = found.head_dim;
    report.rotary_dims = found.rotary_dims;
    report.pairs = found.rotary_dims / 2;
    report.base = found.base;
    report.context = found.context;
    report.extended_context = found.extended_context;
    report.heads = found.heads;
    report.layers = static_cast<int>(found.rope_layers.size());
    for (int i = 0; i < report.pairs; ++i) {
        report.wavelength.push_back(2 * kPi * std::pow(found.base, 2.0 * i / found.rotary_dims));
        if (report.context > 0 && report.wavelength.back() > static_cast<double>(report.context))
            ++report.pairs_without_turn;
    }
    report.scaling = config.rope_scaling.type;
    const std::vector<double> scaled = ScaledFrequencies(
        config.rope_scaling, found.rotary_dims, found.base, found.context, &report.scaling_note);
    for (double theta : scaled)
        report.scaled_wavelength.push_back(2 * kPi / theta);

    const int hd = found.head_dim, heads = found.heads, kv = found.kv_heads;
    const int group = heads / std::max(kv, 1);
    report.usage.assign(static_cast<std::size_t>(report.layers) * heads * report.pairs, 0.0);
    report.layer_usage.assign(static_cast<std::size_t>(report.layers) * report.pairs, 0.0);
    std::string error;
    std::vector<double> query, key;
    for (int layer = 0; layer < report.layers; ++layer) {
        const RopeLayerTensors& tensors = found.rope_layers[layer];
        std::string key_error;
        const TensorInfo* q_info = checkpoint.Find(tensors.query, &error);
        const TensorInfo* k_info = checkpoint.Find(tensors.key, &key_error);
        if (q_info == nullptr || k_info == nullptr) {
            if (!error.empty()) return error;
            if (!key_error.empty()) return key_error;
            return "layer " + std::to_string(layer) + "'s projections are missing";
        }
        long long q_rows = static_cast<long long>(heads) * hd,
                  k_rows = static_cast<long long>(kv) * hd;
        if (tensors.fused == RopeLayerTensors::Fused::PerHead) q_rows = 3LL * heads * hd;
        if (tensors.fused == RopeLayerTensors::Fused::Stacked)
            q_rows = static_cast<long long>(heads + 2 * kv) * hd;
        const auto check_shape = [&](const TensorInfo& info, long long rows) -> std::string {
            if (info.shape.size() != 2 || info.shape[0] != rows || info.shape[1] < 1)
                return "tensor " + Quoted(info.name) + " should have " + std::to_string(rows) +
                       " rows for the config's heads (" + std::to_string(heads) + " query, " +
                       std::to_string(kv) + " key, " + std::to_string(hd) +
                       " dimensions each); its shape is [" +
                       (info.shape.empty()
                            ? std::string()
                            : std::to_string(info.shape[0]) +
                                  (info.shape.size() > 1 ? ", " + std::to_string(info.shape[1])
                                                         : std::string())) +
                       "]";
            return {};
        };
        if (std::string problem = check_shape(*q_info, q_rows); !problem.empty()) return problem;
        if (tensors.fused == RopeLayerTensors::Fused::No)
            if (std::string problem = check_shape(*k_info, k_rows); !problem.empty())
                return problem;
        // Only each row's length is needed: read as sums of squares, never held whole.
        if (std::string problem = checkpoint.RowSquares(*q_info, &query); !problem.empty())
            return problem;
        const std::vector<double>* key_values = &query;
        if (tensors.fused == RopeLayerTensors::Fused::No) {
            if (std::string problem = checkpoint.RowSquares(*k_info, &key); !problem.empty())
                return problem;
            key_values = &key;
        }
        const auto row_norm2 = [&](const std::vector<double>& values, long long row) {
            return values[static_cast<std::size_t>(row)];
        };
        const auto query_row = [&](int head, int dim) -> long long {
            if (tensors.fused == RopeLayerTensors::Fused::PerHead) return 3LL * head * hd + dim;
            return static_cast<long long>(head) * hd + dim;
        };
        const auto key_row = [&](int head, int dim) -> long long {
            if (tensors.fused == RopeLayerTensors::Fused::PerHead)
                return 3LL * head * hd + hd + dim;
            if (tensors.fused == RopeLayerTensors::Fused::Stacked)
                return static_cast<long long>(heads) * hd + static_cast<long long>(head) * hd + dim;
            return static_cast<long long>(head) * hd + dim;
        };
        for (int head = 0; head < heads; ++head) {
            const int key_head =
                tensors.fused == RopeLayerTensors::Fused::PerHead ? head : head / group;
            for (int pair = 0; pair < report.pairs; ++pair) {
                int a = 0, b = 0;
                pair_dimensions(pair, found.rotary_dims, found.pairing, &a, &b);
                const double q_norm = std::sqrt(row_norm2(query, query_row(head, a)) +
                                                row_norm2(query, query_row(head, b)));
                const double k_norm = std::sqrt(row_norm2(*key_values, key_row(key_head, a)) +
                                                row_norm2(*key_values, key_row(key_head, b)));
                const double usage = q_norm * k_norm;
                report
                    .usage[(static_cast<std::size_t>(layer) * heads + head) * report.pairs + pair] =
                    usage;
                report.layer_usage[static_cast<std::size_t>(layer) * report.pairs + pair] +=
                    usage / heads;
            }
        }
    }
    *out = std::move(report);
    return {};
}

// ---- T5 ----

std::string analyse_buckets(Checkpoint& checkpoint, const FoundPositions& found,
                            const CheckpointConfig* config, std::vector<BucketReport>* out) {
    std::vector<BucketReport> reports;
    std::string error;
    for (std::size_t i = 0; i < found.bias_tables.size(); ++i) {
        const TensorInfo* info = checkpoint.Find(found.bias_tables[i], &error);
        if (info == nullptr) return error.empty() ? "the bias table is missing" : error;
        if (info->shape.size() != 2 || info->shape[0] < 2 || info->shape[1] < 1)
            return "tensor " + Quoted(info->name) + " should be buckets × heads";
        BucketReport report;
        report.stack = found.bias_stacks[i];
        report.buckets = static_cast<int>(info->shape[0]);
        report.heads = static_cast<int>(info->shape[1]);
        report.bidirectional = report.stack == "encoder";
        report.max_distance =
            config && config->relative_max_distance > 0 ? config->relative_max_distance : 128;
        if (config && config->relative_buckets > 0 && config->relative_buckets != report.buckets)
            return "tensor " + Quoted(info->name) + " has " + std::to_string(report.buckets) +
                   " buckets, config.json says " + std::to_string(config->relative_buckets);
        if (info->shape[1] > 4096)
            return "tensor " + Quoted(info->name) + " has " + std::to_string(info->shape[1]) +
                   " heads; PE Lab reads bias tables of at most 4 096";
        T5BucketOptions options{report.buckets, report.max_distance, report.bidirectional};
        try {
            validate_t5_options(options);
        } catch (const InvalidArgument& problem) {
            return "tensor " + Quoted(info->name) + ": " + problem.what();
        }
        std::vector<float> table;
        if (std::string problem = checkpoint.ReadFloats(*info, &table); !problem.empty())
            return problem;
        const long long span = std::min<long long>(2LL * report.max_distance, 4096);
        for (long long d = -span; d <= (report.bidirectional ? span : 0); ++d)
            report.distances.push_back(d);
        report.bias.resize(report.distances.size() * static_cast<std::size_t>(report.heads));
        int previous = -1;
        for (std::size_t j = 0; j < report.distances.size(); ++j) {
            const int bucket = t5_bucket(report.distances[j], options);
            if (bucket != previous && j > 0) report.edges.push_back(report.distances[j]);
            previous = bucket;
            for (int h = 0; h < report.heads; ++h)
                report.bias[static_cast<std::size_t>(h) * report.distances.size() + j] =
                    table[static_cast<std::size_t>(bucket) * report.heads + h];
        }
        reports.push_back(std::move(report));
    }
    *out = std::move(reports);
    return {};
}

} // namespace pelab
