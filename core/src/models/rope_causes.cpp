// The candidates of `rope check`: the reference changed by each known cause alone
// (models/rope_check_internal.h).
#include "models/rope_check_internal.h"

#include <algorithm>
#include <cmath>

namespace pelab::rope_check_detail {

namespace {

void AddBoth(const Candidate& base, std::vector<Candidate>* out) {
    for (RopeReference pipeline : {RopeReference::Ideal, RopeReference::Transformers}) {
        Candidate each = base;
        each.pipeline = pipeline;
        if (pipeline == RopeReference::Transformers && each.precision == TableDtype::F64)
            each.precision = TableDtype::F32;
        out->push_back(std::move(each));
    }
}

Candidate FromChange(const CheckContext& context, const SpecChange& change,
                     RopeReference pipeline) {
    Candidate candidate;
    candidate.cause = change.cause;
    candidate.pipeline = pipeline;
    candidate.frequencies = rope_inv_freq(change.spec, change.length, pipeline);
    if (change.keep_attention)
        candidate.frequencies.attention_factor = context.ideal.attention_factor;
    candidate.layout = context.layout;
    candidate.words = change.words;
    if (pipeline == RopeReference::Transformers) candidate.precision = TableDtype::F32;
    return candidate;
}

std::string ScalingName(const RopeScalingConfig& scaling) {
    if (scaling.type.empty() || scaling.type == "default") return "no scaling";
    return scaling.type + (scaling.type == "longrope" || scaling.type == "proportional"
                               ? std::string()
                               : ", factor " + Num(scaling.factor));
}

// Every spec change the known causes make, in the order they are tested.
std::vector<SpecChange> SpecChanges(const CheckContext& context) {
    const RopeTableSpec& spec = context.request->spec;
    const std::string& type = spec.scaling.type;
    const bool scaled = !(type.empty() || type == "default");
    std::vector<SpecChange> changes;
    if (spec.base != 10000) {
        SpecChange change{RopeCause::BaseDefaulted, spec, context.length, "", true};
        change.spec.base = 10000;
        change.words = "the base is 10 000, not the config's rope_theta " + Num(spec.base) +
                       ": rope_theta was not read (transformers 5 keeps it inside "
                       "rope_parameters) and the usual default was used";
        changes.push_back(change);
    }
    const long long context_length = spec.max_positions;
    if (type == "dynamic" && context_length > 0) {
        std::vector<long long> lengths{
            context_length, static_cast<long long>(spec.scaling.factor * context_length)};
        if (context.recovered.size() > 2) {
            // The base the dump's frequencies imply, and the length that gives it.
            const std::size_t mid = context.recovered.size() / 2;
            const double dims = spec.rotary_dims;
            const double implied =
                std::pow(context.recovered[mid], -dims / (2.0 * static_cast<double>(mid)));
            const double grown = std::pow(implied / spec.base, (dims - 2) / dims);
            const double length = static_cast<double>(context_length) *
                                  (grown + spec.scaling.factor - 1) / spec.scaling.factor;
            if (std::isfinite(length) && length > 0 && length < 1e12)
                lengths.push_back(static_cast<long long>(std::llround(length)));
        }
        for (long long length : lengths) {
            const long long used = std::max(length, context_length);
            if (used == std::max(context.length, context_length)) continue;
            changes.push_back({RopeCause::DynamicFrozen, spec, length,
                               "dynamic NTK's base is the one of length " + std::to_string(used) +
                                   (used == context_length
                                        ? " (the start-up base, unscaled: it was computed once)"
                                        : "") +
                                   ", not of this sequence's " +
                                   std::to_string(std::max(context.length, context_length)) +
                                   " (transformers computes it again for every longer sequence)"});
        }
    }
    if (type == "longrope") {
        const long long original = spec.scaling.original_context > 0
                                       ? static_cast<long long>(spec.scaling.original_context)
                                       : spec.max_positions;
        const bool long_side = context.length > original;
        changes.push_back(
            {RopeCause::LongropeSide, spec, long_side ? original : original + 1,
             std::string("longrope's ") + (long_side ? "short_factor" : "long_factor") +
                 " was used for a sequence of length " + std::to_string(context.length) +
                 "; transformers uses " + (long_side ? "long_factor" : "short_factor") +
                 (long_side ? " past " : " up to ") + "the original context of " +
                 std::to_string(original),
             true});
    }
    if (scaled && type != "proportional") {
        SpecChange change{RopeCause::ScalingMissing, spec, context.length,
                          "rope scaling (" + ScalingName(spec.scaling) +
                              ") was not applied: these are the unscaled frequencies of base " +
                              Num(spec.base)};
        change.spec.scaling = RopeScalingConfig{};
        changes.push_back(change);
        change.keep_attention = true;
        changes.push_back(change);
    }
    // Another scaling type or factor: the factors the dump's slowest pair implies and the
    // config's, under each type transformers computes.
    std::vector<double> factors;
    if (scaled && spec.scaling.factor > 1) factors.push_back(spec.scaling.factor);
    if (!context.recovered.empty()) {
        RopeTableSpec plain = spec;
        plain.scaling = RopeScalingConfig{};
        const RopeFrequencies unscaled = rope_inv_freq(plain, context.length, RopeReference::Ideal);
        const double slowest = context.recovered.back();
        if (slowest > 0 && unscaled.inv_freq.size() == context.recovered.size()) {
            const double implied = unscaled.inv_freq.back() / slowest;
            for (double factor : {std::round(implied), std::round(2 * implied) / 2})
                if (factor > 1 && factor < 1e6) factors.push_back(factor);
        }
    }
    std::sort(factors.begin(), factors.end());
    factors.erase(std::unique(factors.begin(), factors.end()), factors.end());
    for (const char* other : {"linear", "dynamic", "yarn", "llama3"})
        for (double factor : factors) {
            if (other == type && factor == spec.scaling.factor) continue;
            SpecChange change{RopeCause::OtherScaling, spec, context.length, ""};
            RopeScalingConfig& scaling = change.spec.scaling;
            if (other != type) {
                scaling = RopeScalingConfig{};
                scaling.original_context = spec.scaling.original_context;
                scaling.low_freq_factor = spec.scaling.low_freq_factor;
                scaling.high_freq_factor = spec.scaling.high_freq_factor;
            }
            scaling.type = other;
            scaling.factor = factor;
            scaling.factor_given = true;
            if (scaling.original_context <= 0 && std::string(other) != "linear" &&
                std::string(other) != "dynamic")
                scaling.original_context = static_cast<double>(spec.max_positions) / factor;
            change.words = "the frequencies are those of " + ScalingName(scaling) +
                           ", not of the config's " + ScalingName(spec.scaling);
            changes.push_back(change);
        }
    return changes;
}

} // namespace

const char* DtypeWords(TableDtype dtype) {
    switch (dtype) {
    case TableDtype::F64:
        return "float64";
    case TableDtype::F32:
        return "float32";
    case TableDtype::BF16:
        return "bfloat16";
    case TableDtype::F16:
        return "float16";
    }
    return "float64";
}

// Every candidate, in the order the causes are tested.
std::vector<Candidate> Candidates(const CheckContext& context) {
    const RopeCheckRequest& request = *context.request;
    std::vector<Candidate> out;
    Candidate reference;
    reference.frequencies = context.ideal;
    reference.layout = context.layout;
    const bool table = request.kind != RopeDumpKind::InvFreq;
    if (table && context.layout != TableLayout::Undoubled) {
        Candidate swapped = reference;
        swapped.cause = RopeCause::PairingSwapped;
        swapped.layout = context.layout == TableLayout::HalfSplit ? TableLayout::Interleaved
                                                                  : TableLayout::HalfSplit;
        swapped.words =
            std::string("the pairs are laid out ") + table_layout_name(swapped.layout) +
            " where this model's are " + table_layout_name(context.layout) + " (pair i at " +
            (context.layout == TableLayout::HalfSplit ? "i and i + n" : "2i and 2i + 1") +
            "): a conversion permuted the q/k rows, or did not when it should have";
        AddBoth(swapped, &out);
    }
    if (table)
        for (long long shift : {1LL, -1LL}) {
            Candidate shifted = reference;
            shifted.cause = RopeCause::PositionsShifted;
            shifted.shift = shift;
            shifted.words = "the positions are off by one: row r holds position " +
                            std::string(shift > 0 ? "A + r + 1" : "A + r − 1") +
                            " instead of A + r";
            AddBoth(shifted, &out);
        }
    // The rows start elsewhere than the first position given (a dump of a running cache).
    const long long implied_shift = context.implied_first - request.first_position;
    if (table && context.implied_first >= 0 && std::llabs(implied_shift) > 1) {
        Candidate started = reference;
        started.cause = RopeCause::PositionsOffset;
        started.shift = implied_shift;
        started.words = "the rows are positions " + std::to_string(context.implied_first) + " to " +
                        std::to_string(context.implied_first + context.source.rows - 1) + ", not " +
                        std::to_string(request.first_position) + " to " +
                        std::to_string(request.first_position + context.source.rows - 1) +
                        " (give --positions " + std::to_string(context.implied_first) + ":" +
                        std::to_string(context.implied_first + context.source.rows) +
                        ", or that first position in the Check view)";
        AddBoth(started, &out);
    }
    const double factor = context.ideal.attention_factor;
    if (request.kind == RopeDumpKind::CosSin && factor != 1) {
        Candidate missing = reference;
        missing.cause = RopeCause::AttentionMissing;
        missing.frequencies.attention_factor = 1;
        missing.words = "cos and sin are not multiplied by the attention factor " + Num(factor) +
                        " (" + context.ideal.rule.substr(context.ideal.rule.find("attention")) +
                        ")";
        AddBoth(missing, &out);
        Candidate squared = reference;
        squared.cause = RopeCause::AttentionSquared;
        squared.frequencies.attention_factor = factor * factor;
        squared.words = "the attention factor is applied twice: cos and sin carry " +
                        Num(factor * factor) + " = " + Num(factor) + "², not " + Num(factor);
        AddBoth(squared, &out);
    }
    // Another factor on cos and sin, as the first row's amplitude says.
    if (request.kind == RopeDumpKind::CosSin && context.amplitude > 0 &&
        std::fabs(context.amplitude - factor) > 1e-3 * factor &&
        std::fabs(context.amplitude - factor * factor) > 1e-3 * factor && context.amplitude != 1) {
        Candidate other = reference;
        other.cause = RopeCause::AttentionWrong;
        other.frequencies.attention_factor = context.amplitude;
        other.words = "cos and sin are multiplied by " + Num(context.amplitude) +
                      " where this layer's factor is " + Num(factor) +
                      (factor == 1 ? " (none): an attention factor this config does not have"
                                   : ": another attention factor");
        AddBoth(other, &out);
    }
    for (const SpecChange& change : SpecChanges(context))
        for (RopeReference pipeline : {RopeReference::Ideal, RopeReference::Transformers})
            out.push_back(FromChange(context, change, pipeline));
    // Lower precisions: inv_freq rounded (angles then in double or float32), or the angles
    // formed in bfloat16 / float16.
    for (TableDtype low : {TableDtype::BF16, TableDtype::F16, TableDtype::F32}) {
        Candidate rounded = reference;
        rounded.cause = RopeCause::LowPrecisionFreq;
        for (double& inv : rounded.frequencies.inv_freq)
            inv = round_to_dtype(inv, low);
        rounded.words = std::string("inv_freq was computed in ") + DtypeWords(low) +
                        " (or its buffer cast to it, as model.to(" + DtypeWords(low) + ") does)";
        AddBoth(rounded, &out);
    }
    if (table)
        for (TableDtype low : {TableDtype::BF16, TableDtype::F16}) {
            Candidate angles = reference;
            angles.cause = RopeCause::LowPrecisionAngle;
            angles.angle_dtype = low;
            angles.precision = low;
            angles.words = std::string("the angles p·θ were formed in ") + DtypeWords(low) +
                           " (θ and the position rounded to it, and their product)";
            out.push_back(angles);
        }
    return out;
}

} // namespace pelab::rope_check_detail
