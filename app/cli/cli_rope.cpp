// `pelab rope table` / `pelab rope check` (cli_rope.h).
#include "cli/cli_rope.h"

#include "cli/cli.h"
#include "cli/cli_checks.h"
#include "io/json_input.h"
#include "io/model_files.h"
#include "pelab/base/error.h"
#include "pelab/export/export.h"
#include "pelab/models/rope_check.h"
#include "pelab/models/rope_tables.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace pelab {

namespace {

/// Rows computed and written at a time: a 1 GB table never sits in memory whole.
constexpr long long kRowBlock = 4096;
/// Default rows of a table when --positions is not given.
constexpr long long kDefaultRows = 4096;
/// Largest position asked for: past 2^31 float32 cannot even tell neighbouring positions apart.
constexpr long long kMaxPosition = 1LL << 31;

// "A:B" → first, end; "" or the message.
std::string ParsePositions(const std::string& text, long long* first, long long* end) {
    std::string refused = "--positions: must be A:B, two whole numbers with 0 ≤ A < B ≤ " +
                          std::to_string(kMaxPosition) + " (got " + Excerpt(text, 40) + ")";
    const std::size_t colon = text.find(':');
    if (colon == std::string::npos) return refused;
    const auto whole = [](const std::string& part, long long* value) {
        if (part.empty() || part.size() > 12 || (part.size() > 1 && part[0] == '0')) return false;
        for (char c : part)
            if (c < '0' || c > '9') return false;
        *value = std::stoll(part);
        return true;
    };
    if (!whole(text.substr(0, colon), first) || !whole(text.substr(colon + 1), end) ||
        *first >= *end || *end > kMaxPosition)
        return refused;
    return {};
}

struct TableRequest {
    CheckpointConfig config;
    std::string config_path, model_dtype;
    RopeTableSpec spec;
    RopeReference reference = RopeReference::Ideal;
    TableDtype dtype = TableDtype::F64;
    TableLayout layout = TableLayout::HalfSplit;
    RopeTableKind kind = RopeTableKind::Cos;
    long long first = 0, end = 0;
};

TableLayout LayoutOfPairing(RotaryPairing pairing) {
    return pairing == RotaryPairing::Interleaved ? TableLayout::Interleaved
                                                 : TableLayout::HalfSplit;
}

// Reads the config and the options shared by table and check: "" or the message.
std::string ReadRequest(const RopeOptions& options, TableRequest* request) {
    if (std::string error = ReadModelConfigFile(options.config, &request->config,
                                                &request->model_dtype, &request->config_path);
        !error.empty())
        return error;
    const int layer = options.layer >= 0 ? options.layer : rope_default_layer(request->config);
    if (layer < 0) return Excerpt(request->config_path, 200) + ": no layer of this model has RoPE";
    if (Status problem = rope_table_spec(request->config, layer, &request->spec); !problem.ok())
        return Excerpt(request->config_path, 200) + ": " + problem.message();
    request->reference =
        options.reference == "transformers" ? RopeReference::Transformers : RopeReference::Ideal;
    if (!options.dtype.empty()) {
        if (!table_dtype_from_name(options.dtype, &request->dtype))
            return "--dtype: must be f64, f32, bf16 or f16 (got " + Excerpt(options.dtype) + ")";
    } else if (request->reference == RopeReference::Transformers) {
        // transformers casts cos and sin to the model's dtype (config.json's dtype).
        if (!table_dtype_from_name(request->model_dtype, &request->dtype))
            request->dtype = TableDtype::F32;
    }
    request->layout = options.pairing == "interleaved"  ? TableLayout::Interleaved
                      : options.pairing == "half-split" ? TableLayout::HalfSplit
                                                        : LayoutOfPairing(request->spec.pairing);
    if (!options.positions.empty()) {
        if (std::string error = ParsePositions(options.positions, &request->first, &request->end);
            !error.empty())
            return error;
    }
    return {};
}

std::string Descr(TableDtype dtype) {
    switch (dtype) {
    case TableDtype::F64:
        return "<f8";
    case TableDtype::F32:
        return "<f4";
    case TableDtype::F16:
        return "<f2";
    case TableDtype::BF16:
        return "<u2"; // NumPy has no bfloat16: its bits
    }
    return "<f8";
}

// The values of one block, as .npy's little-endian bytes.
void WriteNpyValues(std::ostream& out, const double* values, std::size_t count, TableDtype dtype) {
    std::string bytes;
    const std::size_t item = dtype == TableDtype::F64 ? 8 : dtype == TableDtype::F32 ? 4 : 2;
    bytes.resize(count * item);
    for (std::size_t k = 0; k < count; ++k) {
        unsigned char little[8] = {};
        std::uint64_t bits = 0;
        if (dtype == TableDtype::F64) {
            std::memcpy(&bits, &values[k], 8);
        } else if (dtype == TableDtype::F32) {
            const auto single = static_cast<float>(values[k]);
            std::uint32_t word = 0;
            std::memcpy(&word, &single, 4);
            bits = word;
        } else {
            bits = dtype == TableDtype::BF16 ? bf16_bits(values[k]) : f16_bits(values[k]);
        }
        for (std::size_t b = 0; b < item; ++b)
            little[b] = static_cast<unsigned char>(bits >> (8 * b));
        std::memcpy(&bytes[k * item], little, item);
    }
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A number as text that reads back to the same dtype number.
std::string NumberText(double value, TableDtype dtype) {
    char text[40];
    std::snprintf(text, sizeof text, dtype == TableDtype::F64 ? "%.17g" : "%.9g", value);
    return text;
}

struct TableShape {
    long long rows = 0; ///< 0: one row without positions (inv_freq), −1: a single number
    int width = 0;
};

void WriteTable(std::ostream& out, const RopeOptions& options, const TableRequest& request,
                const RopeFrequencies& frequencies, const TableShape& shape) {
    const bool positional = shape.rows > 0;
    const TableDtype dtype = request.dtype;
    std::vector<double> block;
    // Each row block: computed, then written in the format asked.
    const auto rows_of = [&](long long first_row, long long count) {
        block.resize(static_cast<std::size_t>(count * shape.width));
        rope_table_rows(frequencies, request.reference, request.kind, request.first + first_row,
                        count, request.layout, dtype, block.data());
    };
    std::vector<double> single;
    if (!positional) {
        if (shape.rows == 0)
            for (double inv : frequencies.inv_freq)
                single.push_back(round_to_dtype(inv, dtype));
        else
            single.push_back(round_to_dtype(frequencies.attention_factor, dtype));
    }
    if (options.format == "npy") {
        std::vector<long long> dims;
        if (positional) dims = {shape.rows, shape.width};
        if (shape.rows == 0) dims = {shape.width};
        write_npy_header(out, Descr(dtype), dims);
        if (!positional) WriteNpyValues(out, single.data(), single.size(), dtype);
        for (long long r = 0; positional && r < shape.rows; r += kRowBlock) {
            const long long count = std::min(kRowBlock, shape.rows - r);
            rows_of(r, count);
            WriteNpyValues(out, block.data(), block.size(), dtype);
        }
        return;
    }
    if (options.format == "csv") {
        if (!positional) {
            out << (shape.rows == 0 ? "pair,inv_freq\n" : "attention_factor\n");
            for (std::size_t k = 0; k < single.size(); ++k)
                out << (shape.rows == 0 ? std::to_string(k) + "," : "")
                    << NumberText(single[k], dtype) << "\n";
            return;
        }
        out << "position";
        for (int c = 0; c < shape.width; ++c)
            out << ",d" << c;
        out << "\n";
        for (long long r = 0; r < shape.rows; r += kRowBlock) {
            const long long count = std::min(kRowBlock, shape.rows - r);
            rows_of(r, count);
            for (long long k = 0; k < count; ++k) {
                out << request.first + r + k;
                for (int c = 0; c < shape.width; ++c)
                    out << ","
                        << NumberText(block[static_cast<std::size_t>(k * shape.width + c)], dtype);
                out << "\n";
            }
        }
        return;
    }
    // JSON: what the table is, then its values.
    nlohmann::json head = {{"format", "pelab-rope-table"},
                           {"config", request.config_path},
                           {"layer", request.spec.layer},
                           {"layer_type", request.spec.layer_type},
                           {"what", rope_table_kind_name(request.kind)},
                           {"reference", rope_reference_name(request.reference)},
                           {"dtype", table_dtype_name(dtype)},
                           {"pairing", table_layout_name(request.layout)},
                           {"positions", {request.first, request.end}},
                           {"attention_factor", frequencies.attention_factor},
                           {"rule", frequencies.rule}};
    std::string text = head.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    text.pop_back(); // the closing brace: the values follow
    out << text << ",\"values\":";
    if (!positional) {
        if (shape.rows < 0) {
            out << NumberText(single[0], dtype) << "}\n";
            return;
        }
        out << "[";
        for (std::size_t k = 0; k < single.size(); ++k)
            out << (k ? "," : "") << NumberText(single[k], dtype);
        out << "]}\n";
        return;
    }
    out << "[";
    for (long long r = 0; r < shape.rows; r += kRowBlock) {
        const long long count = std::min(kRowBlock, shape.rows - r);
        rows_of(r, count);
        for (long long k = 0; k < count; ++k) {
            out << (r + k ? ",\n[" : "\n[");
            for (int c = 0; c < shape.width; ++c)
                out << (c ? "," : "")
                    << NumberText(block[static_cast<std::size_t>(k * shape.width + c)], dtype);
            out << "]";
        }
    }
    out << "]}\n";
}

} // namespace

RopeCommands AddRopeCommands(CLI::App& app, RopeOptions& options) {
    CLI::App* rope = app.add_subcommand(
        "rope", "RoPE's reference tables for any config.json, and a check of another engine's");
    rope->require_subcommand(1);
    RopeCommands commands;
    const auto shared = [&](CLI::App* command) {
        command->add_option("config", options.config, "config.json, or the folder holding it")
            ->check(FileName())
            ->required();
        command
            ->add_option("--layer", options.layer,
                         "The layer, counted from 0 (default: the first global layer with RoPE)")
            ->check(WholeNumber(0, 100000));
        command
            ->add_option("--positions", options.positions,
                         "A:B: positions A to B − 1 of a sequence of length B (dynamic NTK and "
                         "longrope decide by B)")
            ->check(NonEmpty("A:B"));
    };
    commands.table = rope->add_subcommand("table", "Write one layer's RoPE tables");
    shared(commands.table);
    commands.table
        ->add_option("--what", options.what, "inv_freq, cos, sin, angles or attention_factor")
        ->check(CLI::IsMember({"inv_freq", "cos", "sin", "angles", "attention_factor"}));
    commands.table
        ->add_option("--reference", options.reference,
                     "ideal (every step in double) or transformers (its float32 pipeline)")
        ->check(CLI::IsMember({"ideal", "transformers"}));
    commands.table->add_option("--dtype", options.dtype,
                               "f64, f32, bf16 or f16 (default: ideal f64; transformers the "
                               "model's dtype)");
    commands.table
        ->add_option("--pairing", options.pairing,
                     "model (its own), interleaved (pair i at 2i, 2i+1) or half-split (i, i+n)")
        ->check(CLI::IsMember({"model", "interleaved", "half-split"}));
    commands.table
        ->add_option("--format", options.format, "npy (bf16 as its uint16 bits), csv or json")
        ->check(CLI::IsMember({"npy", "csv", "json"}));
    commands.table->add_option("--out", options.out, "Write here instead of stdout")
        ->check(FileName());

    commands.check = rope->add_subcommand(
        "check", "Compare another engine's RoPE tables (.npy) with the references and name the "
                 "difference");
    shared(commands.check);
    commands.check->add_option("--cos", options.cos, "The cos table (.npy)")->check(FileName());
    commands.check->add_option("--sin", options.sin, "The sin table (.npy)")->check(FileName());
    commands.check->add_option("--inv-freq", options.inv_freq, "The inverse frequencies (.npy)")
        ->check(FileName());
    commands.check->add_option("--angles", options.angles, "The angles p·θ (.npy)")
        ->check(FileName());
    commands.check->add_option("--dtype", options.dtype,
                               "The dumps' type when their .npy type does not say it: bf16 for "
                               "'<u2' (bfloat16 bits)");
    commands.check->add_flag("--json", options.json, "Print JSON");
    return commands;
}

int RunRopeTable(const RopeOptions& options) {
    TableRequest request;
    if (std::string error = ReadRequest(options, &request); !error.empty())
        return UsageError(PrintableLine(error));
    const std::string& what = options.what;
    request.kind = what == "inv_freq"           ? RopeTableKind::InvFreq
                   : what == "sin"              ? RopeTableKind::Sin
                   : what == "angles"           ? RopeTableKind::Angles
                   : what == "attention_factor" ? RopeTableKind::AttentionFactor
                                                : RopeTableKind::Cos;
    if (options.positions.empty()) {
        const long long context =
            request.spec.max_positions > 0 ? request.spec.max_positions : kDefaultRows;
        request.first = 0;
        request.end = std::min(kDefaultRows, context);
    }
    if (options.format == "npy" && WritesToStdout(options.out))
        return UsageError("--format npy: name a file with --out (an .npy file is binary)");
    // What the reading could not settle (a family PE Lab does not know, a key it does not
    // compute) goes beside the table, never silently into it.
    for (const std::string& note : BuildLayerSchedule(request.config).notes)
        if (note.find("is not a family PE Lab knows") != std::string::npos)
            std::cerr << "note: " << PrintableLine(note) << "\n";
    for (const std::string& note : request.config.positions_not_shown)
        std::cerr << "note: " << PrintableLine(note) << "\n";
    std::string folder_error;
    if (!CheckOutputFolder(options.out, &folder_error)) return RuntimeError(folder_error);
    const RopeFrequencies frequencies = rope_inv_freq(request.spec, request.end, request.reference);
    TableShape shape;
    const int pairs = static_cast<int>(frequencies.inv_freq.size());
    if (request.kind == RopeTableKind::Angles && request.dtype == TableDtype::F16) {
        // float16 ends at 65 504: angles past it would be written as infinities.
        double largest = 0;
        for (double inv : frequencies.inv_freq)
            largest = std::max(largest, inv * static_cast<double>(request.end - 1));
        if (largest > 65504)
            return UsageError("--dtype f16: the angles reach " +
                              std::to_string(static_cast<long long>(largest)) +
                              " rad at position " + std::to_string(request.end - 1) +
                              ", past float16's largest number 65504; use f32 or bf16");
    }
    if (request.kind == RopeTableKind::InvFreq) {
        shape = {0, pairs};
    } else if (request.kind == RopeTableKind::AttentionFactor) {
        shape = {-1, 1};
    } else {
        shape = {request.end - request.first, 2 * pairs};
    }
    try {
        Emit(options.out,
             [&](std::ostream& out) { WriteTable(out, options, request, frequencies, shape); });
    } catch (const IoError& e) {
        return RuntimeError(e.what());
    }
    return kExitOk;
}

namespace {

nlohmann::json DifferenceJson(const RopeDifference& difference) {
    return {{"largest_error", difference.largest_error},
            {"first_position", difference.position},
            {"first_pair", difference.pair},
            {"largest_at", difference.largest_at},
            {"largest_pair", difference.largest_pair}};
}

} // namespace

int RunRopeCheck(const RopeOptions& options) {
    const int given = (options.cos.empty() && options.sin.empty() ? 0 : 1) +
                      (options.inv_freq.empty() ? 0 : 1) + (options.angles.empty() ? 0 : 1);
    if (given != 1)
        return UsageError("rope check: give --cos and --sin, or --inv-freq, or --angles (one of "
                          "the three)");
    if (options.cos.empty() != options.sin.empty())
        return UsageError("rope check: --cos and --sin go together (the angle needs both)");
    if (!options.cos.empty() && SameFile(options.cos, options.sin))
        return UsageError("rope check: --cos and --sin name the same file " + Excerpt(options.cos) +
                          " (the sin table is another)");
    TableDtype asked = TableDtype::F32;
    if (!options.dtype.empty() && !table_dtype_from_name(options.dtype, &asked))
        return UsageError("--dtype: must be f64, f32, bf16 or f16 (got " + Excerpt(options.dtype) +
                          ")");
    RopeOptions shared = options;
    shared.dtype.clear();
    TableRequest table;
    if (std::string error = ReadRequest(shared, &table); !error.empty())
        return UsageError(PrintableLine(error));
    RopeCheckRequest request;
    request.spec = table.spec;
    request.kind = !options.inv_freq.empty() ? RopeDumpKind::InvFreq
                   : !options.angles.empty() ? RopeDumpKind::Angles
                                             : RopeDumpKind::CosSin;
    const bool bf16 = !options.dtype.empty() && asked == TableDtype::BF16;
    const std::string& first_path = request.kind == RopeDumpKind::InvFreq  ? options.inv_freq
                                    : request.kind == RopeDumpKind::Angles ? options.angles
                                                                           : options.cos;
    if (Status problem = open_rope_dump(first_path, bf16, &request.first); !problem.ok())
        return UsageError(PrintableLine(problem.message()));
    if (request.kind == RopeDumpKind::CosSin)
        if (Status problem = open_rope_dump(options.sin, bf16, &request.second); !problem.ok())
            return UsageError(PrintableLine(problem.message()));
    if (!options.dtype.empty() && !bf16 && asked != request.first.dtype)
        return UsageError("--dtype " + options.dtype + ": " + Excerpt(first_path) + " holds " +
                          table_dtype_name(request.first.dtype) + " numbers (leave --dtype out)");
    if (!options.positions.empty()) {
        request.first_position = table.first;
        request.sequence_length = table.end;
        if (request.kind != RopeDumpKind::InvFreq && table.end - table.first != request.first.rows)
            return UsageError("--positions " + options.positions + " names " +
                              std::to_string(table.end - table.first) + " positions, but " +
                              Excerpt(first_path) + " holds " + std::to_string(request.first.rows) +
                              " rows");
    }
    RopeCheckResult result;
    if (Status problem = rope_check(request, &result); !problem.ok())
        return UsageError(PrintableLine(problem.message()));
    std::string text;
    if (options.json) {
        nlohmann::json notes = result.notes;
        nlohmann::json report = {
            {"format", "pelab-rope-check"},
            {"config", table.config_path},
            {"layer", table.spec.layer},
            {"agrees", result.agrees},
            {"matched", result.agrees ? rope_reference_name(result.matched) : ""},
            {"cause", rope_cause_id(result.agrees ? RopeCause::None : result.cause)},
            {"cause_pipeline", rope_reference_name(result.cause_pipeline)},
            {"verdict", result.verdict},
            {"layout", table_layout_name(result.layout)},
            {"rows", result.rows},
            {"width", result.width},
            {"pairs", result.pairs},
            {"dtype", table_dtype_name(result.dtype)},
            {"positions", {result.first_position, result.first_position + result.rows}},
            {"sequence_length", result.sequence_length},
            {"tolerance", result.tolerance},
            {"attention_factor", result.attention_factor},
            {"dump_amplitude", result.dump_amplitude},
            {"precision_position", result.precision_position},
            {"ideal", DifferenceJson(result.ideal)},
            {"transformers", DifferenceJson(result.transformers)},
            {"notes", notes}};
        text = report.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    } else {
        text = rope_spec_summary(table.spec) + "\n" + result.verdict + "\n";
        for (const std::string& note : result.notes)
            text += "note: " + note + "\n";
    }
    if (int code = WriteStandardOutput(text); code != kExitOk) return code;
    return result.agrees ? kExitOk : kExitRuntimeFailure;
}

} // namespace pelab
