#include "pelab/models/rope_check.h"

#include "base/format.h"
#include "models/rope_check_internal.h"

#include <algorithm>
#include <cmath>

namespace pelab {

using detail::shown_name;
using namespace rope_check_detail;

namespace {

// The dump's width against this layer's n pairs: how its columns are read, or why not.
Status ReadLayout(const CheckContext& context, TableLayout* layout) {
    const int width = context.source.width, pairs = context.pairs;
    if (context.request->kind == RopeDumpKind::InvFreq) {
        *layout = TableLayout::Undoubled;
        return width == pairs ? Status() : Status("width");
    }
    if (width == 2 * pairs) {
        *layout = ModelLayout(context.request->spec);
        return Status();
    }
    if (width == pairs) {
        *layout = TableLayout::Undoubled;
        return Status();
    }
    return Status("width");
}

// The same layer with another number of rotating dimensions, when the dump's width says so.
Status PartialRotary(CheckContext* context, RopeCheckResult* result, bool* found) {
    const RopeCheckRequest& request = *context->request;
    const int width = context->source.width;
    *found = false;
    const RopeTableSpec& spec = request.spec;
    for (const auto& [pairs, layout] :
         {std::pair<int, TableLayout>{width / 2, ModelLayout(spec)},
          std::pair<int, TableLayout>{width, TableLayout::Undoubled}}) {
        if (request.kind == RopeDumpKind::InvFreq && layout != TableLayout::Undoubled) continue;
        // Two pairs at least: one column of the fastest pair fits any width.
        if ((layout != TableLayout::Undoubled && width % 2 != 0) || pairs < 2 ||
            2 * pairs > spec.head_dim || spec.scaling.type == "proportional" ||
            pairs == context->pairs)
            continue;
        RopeTableSpec changed = spec;
        changed.rotary_dims = 2 * pairs;
        changed.frequency_dims = 2 * pairs;
        if (changed.scaling.type == "longrope") continue; // its factors are one per pair
        for (RopeReference pipeline : {RopeReference::Ideal, RopeReference::Transformers}) {
            Candidate candidate;
            candidate.cause = RopeCause::PartialRotary;
            candidate.pipeline = pipeline;
            candidate.frequencies = rope_inv_freq(changed, context->length, pipeline);
            candidate.layout = layout;
            if (pipeline == RopeReference::Transformers) candidate.precision = TableDtype::F32;
            const std::vector<double> tolerance = CandidateTolerances(*context, candidate);
            Measure measure;
            if (Status problem = Compare(context->source, candidate, {{0, context->source.rows}},
                                         tolerance, true, &measure, true);
                !problem.ok())
                return problem;
            if (!measure.within) continue;
            *found = true;
            result->cause = RopeCause::PartialRotary;
            result->cause_pipeline = pipeline;
            result->layout = layout;
            result->verdict = "differs: the table rotates " + std::to_string(2 * pairs) +
                              " of the head's " + std::to_string(spec.head_dim) +
                              " dimensions (partial_rotary_factor " +
                              Num(2.0 * pairs / spec.head_dim) + ") where this layer rotates " +
                              std::to_string(spec.rotary_dims) + " (" +
                              Num(static_cast<double>(spec.rotary_dims) / spec.head_dim) +
                              "): with that width the reference matches every row.";
            return Status();
        }
    }
    return Status();
}

// A dump whose width is neither 2n nor n: another rotating width, or bad input.
Status OtherWidth(CheckContext* context, RopeCheckResult* result) {
    const RopeDump& dump = context->request->first;
    bool found = false;
    if (Status problem = PartialRotary(context, result, &found); !problem.ok()) return problem;
    if (found) return Status();
    const std::string pairs = std::to_string(context->pairs);
    if (context->request->kind == RopeDumpKind::InvFreq)
        return Status(shown_name(dump.path) + ": " + std::to_string(dump.width) +
                      " frequencies, where this layer has " + pairs +
                      " pairs, and no other rotating width explains them");
    return Status(shown_name(dump.path) + ": rows of " + std::to_string(dump.width) +
                  " numbers fit no layout of this layer's " + pairs + " pairs ([positions, " +
                  std::to_string(2 * context->pairs) +
                  "] with the duplicated half, or [positions, " + pairs +
                  "] without), and no other rotating width explains them");
}

const RopeDifference& Nearer(const RopeCheckResult& result, const char** name) {
    const bool ideal = result.ideal.largest_error <= result.transformers.largest_error;
    *name = ideal ? "the ideal reference" : "transformers' float32 pipeline";
    return ideal ? result.ideal : result.transformers;
}

// Tests the candidates on the sample, then the first that fits there on every row.
Status FindCause(CheckContext* context, RopeCheckResult* result) {
    const RopeCheckRequest& request = *context->request;
    if (Status problem = RecoverFrequencies(context->source, context->layout, context->pairs,
                                            &context->recovered);
        !problem.ok())
        return problem;
    if (Status problem = ReadFirstRow(context); !problem.ok()) return problem;
    long long parts_at = -1;
    for (const RopeDifference* each : {&result->ideal, &result->transformers})
        if (each->position >= 0)
            parts_at = parts_at < 0 ? each->position - request.first_position
                                    : std::min(parts_at, each->position - request.first_position);
    const auto sample = SampleRanges(context->source.rows, parts_at);
    for (const Candidate& candidate : Candidates(*context)) {
        if (candidate.frequencies.inv_freq.size() != static_cast<std::size_t>(context->pairs))
            continue;
        const std::vector<double> tolerance = CandidateTolerances(*context, candidate);
        Measure measure;
        if (Status problem = Compare(context->source, candidate, sample, tolerance, true, &measure);
            !problem.ok())
            return problem;
        if (!measure.within) continue;
        const bool low = candidate.cause == RopeCause::LowPrecisionFreq ||
                         candidate.cause == RopeCause::LowPrecisionAngle;
        if (Status problem = Compare(context->source, candidate, {{0, context->source.rows}},
                                     tolerance, true, &measure);
            !problem.ok())
            return problem;
        if (!measure.within) continue;
        result->cause = candidate.cause;
        result->cause_pipeline = candidate.pipeline;
        const long long last = request.first_position + context->source.rows - 1;
        if (low) result->precision_position = FirstBeyondOneStep(candidate, context->ideal, last);
        result->layout = candidate.layout;
        std::string text = "differs: " + candidate.words + ".";
        if (low)
            text += result->precision_position >= 0
                        ? " From position " + std::to_string(result->precision_position) +
                              " the angle error exceeds one position's step θ_i in some pair" +
                              (result->precision_position < request.first_position
                                   ? " (before this dump's first row)."
                                   : ".")
                        : " Up to position " + std::to_string(last) +
                              " its angle error stays below one position's step.";
        text += " With that change alone the reference matches every row (largest difference " +
                Num(measure.difference.largest_error) + ").";
        result->verdict = text;
        return Status();
    }
    result->cause = RopeCause::Unknown;
    return Status();
}

// The verdict of a dump that agrees with a reference (the ideal one when both).
void Agrees(const CheckContext& context, bool ideal_within,
            const std::vector<double>& ideal_tolerance,
            const std::vector<double>& transformers_tolerance, RopeCheckResult* out) {
    const RopeCheckRequest& request = *context.request;
    const RopeDump& dump = request.first;
    RopeCheckResult& result = *out;
    const bool ideal = ideal_within;
    const std::vector<double>& used = ideal ? ideal_tolerance : transformers_tolerance;
    const double loosest = *std::max_element(used.begin(), used.end());
    if (request.kind != RopeDumpKind::InvFreq && request.kind != RopeDumpKind::Angles &&
        loosest > 0.1 * context.ideal.attention_factor)
        result.notes.push_back(
            "at these positions the fastest pairs' float32 angles are only known to " +
            Num(loosest / context.ideal.attention_factor) +
            " rad, so there they are compared that loosely");
    result.agrees = true;
    result.matched = ideal ? RopeReference::Ideal : RopeReference::Transformers;
    const RopeDifference& difference = ideal ? result.ideal : result.transformers;
    result.verdict =
        std::string("agrees with ") +
        (ideal ? "the ideal reference (every step in double)" : "transformers' float32 pipeline") +
        " within " + DtypeWords(ideal ? dump.dtype : Coarser(dump.dtype, TableDtype::F32)) +
        " rounding: largest difference " + Num(difference.largest_error) + " (tolerance " +
        Num(ideal
                ? result.tolerance
                : *std::max_element(transformers_tolerance.begin(), transformers_tolerance.end())) +
        " at most)";
}

} // namespace

Status rope_check(const RopeCheckRequest& request, RopeCheckResult* out) {
    RopeCheckResult result;
    const RopeDump& dump = request.first;
    if (request.kind == RopeDumpKind::CosSin &&
        (request.second.shape != dump.shape || request.second.dtype != dump.dtype))
        return Status(shown_name(dump.path) + " and " + shown_name(request.second.path) +
                      " differ in shape or type: a cos table and its sin table have the same");
    if (request.kind == RopeDumpKind::InvFreq && !dump.one_dimensional)
        return Status(shown_name(dump.path) +
                      ": inverse frequencies are one row of numbers, one "
                      "per pair; this file holds " +
                      std::to_string(dump.rows) + " rows");
    CheckContext context;
    context.request = &request;
    context.source = {&request, dump.rows, dump.width, dump.dtype};
    context.length = request.sequence_length > 0             ? request.sequence_length
                     : request.kind == RopeDumpKind::InvFreq ? 0
                                                             : request.first_position + dump.rows;
    context.ideal = rope_inv_freq(request.spec, context.length, RopeReference::Ideal);
    context.transformers = rope_inv_freq(request.spec, context.length, RopeReference::Transformers);
    context.pairs = static_cast<int>(context.ideal.inv_freq.size());
    result.rows = dump.rows;
    result.width = dump.width;
    result.pairs = context.pairs;
    result.dtype = dump.dtype;
    result.first_position = request.first_position;
    result.sequence_length = context.length;
    result.attention_factor = context.ideal.attention_factor;
    const long long last = request.first_position + dump.rows - 1;
    if (request.kind != RopeDumpKind::InvFreq && request.spec.max_positions > 0 &&
        last >= request.spec.max_positions)
        result.notes.push_back("the dump runs to position " + std::to_string(last) + ", past the " +
                               std::to_string(request.spec.max_positions) +
                               " positions of the model's context (max_position_embeddings); "
                               "compared all the same");
    TableLayout layout = TableLayout::HalfSplit;
    if (!ReadLayout(context, &layout).ok()) {
        if (Status problem = OtherWidth(&context, &result); !problem.ok()) return problem;
        *out = std::move(result);
        return Status();
    }
    context.layout = layout;
    result.layout = layout;
    if (layout == TableLayout::Undoubled && request.kind != RopeDumpKind::InvFreq)
        result.notes.push_back("read as [positions, " + std::to_string(dump.width) +
                               "]: each pair once, without the duplicated half (this layer's "
                               "cache is " +
                               std::to_string(2 * context.pairs) + " wide)");
    Candidate ideal, transformers;
    ideal.frequencies = context.ideal;
    ideal.layout = layout;
    transformers = ideal;
    transformers.pipeline = RopeReference::Transformers;
    transformers.precision = TableDtype::F32;
    transformers.frequencies = context.transformers;
    const std::vector<double> ideal_tolerance = CandidateTolerances(context, ideal);
    const std::vector<double> transformers_tolerance = CandidateTolerances(context, transformers);
    result.tolerance = *std::max_element(ideal_tolerance.begin(), ideal_tolerance.end());
    Measure by_ideal, by_transformers;
    if (Status problem = Compare(context.source, ideal, {{0, dump.rows}}, ideal_tolerance, false,
                                 &by_ideal, true);
        !problem.ok())
        return problem;
    if (Status problem = Compare(context.source, transformers, {{0, dump.rows}},
                                 transformers_tolerance, false, &by_transformers);
        !problem.ok())
        return problem;
    result.ideal = by_ideal.difference;
    result.transformers = by_transformers.difference;
    if (request.kind == RopeDumpKind::CosSin) {
        std::vector<double> cos_row, sin_row;
        if (read_rope_dump_rows(request.first, 0, 1, &cos_row).ok() &&
            read_rope_dump_rows(request.second, 0, 1, &sin_row).ok())
            result.dump_amplitude = std::hypot(cos_row[0], sin_row[0]);
    }
    if (by_ideal.within || by_transformers.within) {
        Agrees(context, by_ideal.within, ideal_tolerance, transformers_tolerance, &result);
        *out = std::move(result);
        return Status();
    }
    if (Status problem = FindCause(&context, &result); !problem.ok()) return problem;
    if (result.cause == RopeCause::Unknown) {
        // [positions, n] read as one column per pair did not fit: n/2 pairs, doubled?
        bool found = false;
        if (Status problem = PartialRotary(&context, &result, &found); !problem.ok())
            return problem;
    }
    const char* name = nullptr;
    const RopeDifference& nearer = Nearer(result, &name);
    const std::string where = DifferenceWords(nearer, request.kind);
    if (result.cause == RopeCause::Unknown)
        result.verdict =
            "differs from transformers' tables from position " + std::to_string(nearer.position) +
            ", pair " + std::to_string(nearer.pair) + ", largest error " +
            Num(nearer.largest_error) + " (against " + name +
            "). None of the known causes "
            "(pairing, positions, attention factor, base, scaling, precision, rotating width) "
            "explains it; the largest error is at position " +
            std::to_string(nearer.largest_at) + ", pair " + std::to_string(nearer.largest_pair) +
            ".";
    else
        result.verdict += " Against " + std::string(name) + " the dump parts " + where + ".";
    *out = std::move(result);
    return Status();
}

} // namespace pelab

namespace pelab {

namespace {

// For each pair, the one of its two columns that differs more over the curve's rows (kept: per
// row, per pair, the two columns' values and errors), drawn all along.
void KeepCurveColumns(const std::vector<std::vector<double>>& kept, int pairs, TableLayout layout,
                      RopeCheckPicture* picture) {
    std::vector<double> most(static_cast<std::size_t>(pairs) * 2, 0.0);
    for (const std::vector<double>& columns : kept)
        for (std::size_t i = 0; i < static_cast<std::size_t>(pairs); ++i) {
            most[i * 2] = std::max(most[i * 2], columns[i * 4 + 2]);
            most[i * 2 + 1] = std::max(most[i * 2 + 1], columns[i * 4 + 3]);
        }
    for (std::size_t i = 0; i < static_cast<std::size_t>(pairs); ++i) {
        const bool second = most[i * 2 + 1] > most[i * 2] && layout != TableLayout::Undoubled;
        const int pair = static_cast<int>(i);
        picture->curve_column.push_back(
            layout == TableLayout::HalfSplit     ? pair + (second ? pairs : 0)
            : layout == TableLayout::Interleaved ? 2 * pair + (second ? 1 : 0)
                                                 : pair);
    }
    for (const std::vector<double>& columns : kept)
        for (std::size_t i = 0; i < static_cast<std::size_t>(pairs); ++i) {
            const bool second = most[i * 2 + 1] > most[i * 2] && layout != TableLayout::Undoubled;
            picture->curve_dump.push_back(columns[i * 4 + (second ? 1 : 0)]);
        }
}

} // namespace

Status rope_check_picture(const RopeCheckRequest& request, const RopeCheckResult& result,
                          int max_rows, RopeCheckPicture* out) {
    RopeCheckPicture picture;
    const bool ideal_used = result.agrees
                                ? result.matched == RopeReference::Ideal
                                : result.ideal.largest_error <= result.transformers.largest_error;
    picture.reference_used = ideal_used ? RopeReference::Ideal : RopeReference::Transformers;
    const RopeFrequencies frequencies =
        rope_inv_freq(request.spec, result.sequence_length, picture.reference_used);
    const int pairs = static_cast<int>(frequencies.inv_freq.size());
    const int width = request.first.width;
    // The columns as this model lays them out, whatever layout the cause found (a swapped
    // pairing is what the picture shows).
    const TableLayout layout =
        request.kind == RopeDumpKind::InvFreq || result.layout == TableLayout::Undoubled
            ? TableLayout::Undoubled
            : ModelLayout(request.spec);
    const int expected = layout == TableLayout::Undoubled ? pairs : 2 * pairs;
    if (width != expected || result.cause == RopeCause::PartialRotary) {
        *out = std::move(picture);
        return Status();
    }
    picture.pairs = pairs;
    picture.inv_freq = frequencies.inv_freq;
    const long long rows = request.first.rows;
    const long long shown = std::max(1LL, std::min<long long>(rows, max_rows));
    Candidate reference;
    reference.pipeline = picture.reference_used;
    reference.frequencies = frequencies;
    reference.layout = layout;
    PairValues values;
    std::vector<double> first, second;
    // One row: each pair's value in its column that differs more, the reference's, the error.
    // columns (the curve's rows): per pair, each of its two columns' value and error, so that
    // one column is drawn all along.
    const auto add_row = [&](long long row, std::vector<double>* dumps,
                             std::vector<double>* references, std::vector<double>* errors,
                             std::vector<double>* columns = nullptr) {
        const long long position = request.first_position + row;
        if (Status problem = read_rope_dump_rows(request.first, row, 1, &first); !problem.ok())
            return problem;
        if (request.kind == RopeDumpKind::CosSin)
            if (Status problem = read_rope_dump_rows(request.second, row, 1, &second);
                !problem.ok())
                return problem;
        ValuesAt(reference, position, result.dtype, &values);
        std::vector<double> dump_row(static_cast<std::size_t>(pairs)),
            error_row(dump_row.size(), -1);
        for (int column = 0; column < width; ++column) {
            const auto pair = static_cast<std::size_t>(table_pair(column, width, layout));
            const auto at = static_cast<std::size_t>(column);
            double error = 0;
            if (request.kind == RopeDumpKind::InvFreq)
                error =
                    std::fabs(first[at] - round_to_dtype(frequencies.inv_freq[pair], result.dtype));
            else if (request.kind == RopeDumpKind::Angles)
                error = std::fabs(first[at] - values.angle[pair]);
            else
                error = std::max(std::fabs(first[at] - values.cos[pair]),
                                 std::fabs(second[at] - values.sin[pair]));
            if (columns) {
                const bool second_column = layout == TableLayout::HalfSplit     ? column >= pairs
                                           : layout == TableLayout::Interleaved ? column % 2 == 1
                                                                                : false;
                (*columns)[pair * 4 + (second_column ? 1 : 0)] = first[at];
                (*columns)[pair * 4 + (second_column ? 3 : 2)] = error;
            }
            if (error > error_row[pair]) dump_row[pair] = first[at], error_row[pair] = error;
            picture.largest_error = std::max(picture.largest_error, error);
        }
        for (std::size_t i = 0; i < dump_row.size(); ++i) {
            dumps->push_back(dump_row[i]);
            references->push_back(request.kind == RopeDumpKind::InvFreq
                                      ? round_to_dtype(frequencies.inv_freq[i], result.dtype)
                                  : request.kind == RopeDumpKind::Angles ? values.angle[i]
                                                                         : values.cos[i]);
            if (errors) errors->push_back(error_row[i]);
        }
        return Status();
    };
    for (long long k = 0; k < shown; ++k) {
        const long long row = shown == 1 ? 0 : k * (rows - 1) / (shown - 1);
        picture.positions.push_back(
            request.kind == RopeDumpKind::InvFreq ? 0 : request.first_position + row);
        if (Status problem = add_row(row, &picture.dump, &picture.reference, &picture.error);
            !problem.ok())
            return problem;
    }
    const RopeDifference& parted = ideal_used ? result.ideal : result.transformers;
    const long long count = std::min<long long>(rows, 160);
    const long long start =
        std::clamp((parted.position >= 0 ? parted.position - request.first_position : 0) - 8, 0LL,
                   rows - count);
    // The curve's rows, and for each pair the column that differs more over them.
    std::vector<std::vector<double>> kept;
    std::vector<double> unused;
    for (long long row = start; request.kind != RopeDumpKind::InvFreq && row < start + count;
         ++row) {
        picture.curve_positions.push_back(request.first_position + row);
        kept.emplace_back(static_cast<std::size_t>(pairs) * 4, 0.0);
        if (Status problem = add_row(row, &unused, &picture.curve_reference, nullptr, &kept.back());
            !problem.ok())
            return problem;
    }
    KeepCurveColumns(kept, pairs, layout, &picture);
    *out = std::move(picture);
    return Status();
}

} // namespace pelab
