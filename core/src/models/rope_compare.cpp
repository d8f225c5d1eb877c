// The tolerances of `rope check` and the comparison of a candidate table with a dump, a block of
// rows at a time (models/rope_check_internal.h).
#include "models/rope_check_internal.h"

#include "base/format.h"
#include "pelab/models/checkpoint.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>

namespace pelab::rope_check_detail {

using detail::shown_name;

namespace {
// The tolerance of each pair of a table of value_dtype whose angles p·θ_i were formed in
// angle_dtype: absolute for cos, sin and angles — the value's own rounding at the table's largest
// value (scale) plus what the angle's rounding at the pair's largest angle moves it —, relative
// for inverse frequencies, which span orders of magnitude.
double ValueUlps(TableDtype dtype) {
    return dtype == TableDtype::F64 ? 4 : dtype == TableDtype::F32 ? 2 : 1;
}

} // namespace

std::vector<double> Tolerances(RopeDumpKind kind, TableDtype value_dtype, TableDtype angle_dtype,
                               double scale, const RopeFrequencies& frequencies, long long first,
                               long long rows) {
    const double farthest = static_cast<double>(
        std::max(std::llabs(first), std::llabs(first + std::max(rows, 1LL) - 1)) + 1);
    std::vector<double> out;
    for (double inv : frequencies.inv_freq) {
        if (kind == RopeDumpKind::InvFreq) {
            const auto relative = [](TableDtype dtype) {
                switch (dtype) {
                case TableDtype::F64:
                    return 1e-12;
                case TableDtype::F32:
                    return std::ldexp(1.0, -22);
                case TableDtype::BF16:
                    return std::ldexp(1.0, -7);
                case TableDtype::F16:
                    break;
                }
                return std::ldexp(1.0, -10);
            };
            out.push_back(std::max(relative(value_dtype), relative(angle_dtype)));
            continue;
        }
        const double max_angle = std::fabs(inv) * farthest;
        const double angle_term = ValueUlps(angle_dtype) * dtype_ulp(max_angle, angle_dtype);
        if (kind == RopeDumpKind::Angles)
            out.push_back(ValueUlps(value_dtype) * dtype_ulp(max_angle, value_dtype) + angle_term);
        else
            out.push_back(ValueUlps(value_dtype) * dtype_ulp(scale, value_dtype) +
                          scale * angle_term);
    }
    return out;
}

// One position's values of every pair under a candidate: cos, sin and the angle.
// The angle of pair i at position under the candidate: p·θ_i in double, in float32 (transformers'
// pipeline), or with θ, p and their product rounded to a lower precision.
double AngleOf(const Candidate& candidate, double inv, long long position) {
    if (candidate.pipeline == RopeReference::Transformers)
        return static_cast<float>(inv) * static_cast<float>(position);
    if (candidate.angle_dtype == TableDtype::F64) return inv * static_cast<double>(position);
    const TableDtype low = candidate.angle_dtype;
    return round_to_dtype(
        round_to_dtype(inv, low) * round_to_dtype(static_cast<double>(position), low), low);
}

void ValuesAt(const Candidate& candidate, long long position, TableDtype dtype, PairValues* out) {
    const std::vector<double>& inv = candidate.frequencies.inv_freq;
    const std::size_t pairs = inv.size();
    out->cos.resize(pairs);
    out->sin.resize(pairs);
    out->angle.resize(pairs);
    out->exact_angle.resize(pairs);
    const double factor = candidate.frequencies.attention_factor;
    for (std::size_t i = 0; i < pairs; ++i) {
        const double angle = AngleOf(candidate, inv[i], position);
        double c = 0, s = 0;
        if (candidate.pipeline == RopeReference::Transformers) {
            const auto single = static_cast<float>(angle);
            c = std::cos(single) * static_cast<float>(factor);
            s = std::sin(single) * static_cast<float>(factor);
        } else {
            c = std::cos(angle) * factor;
            s = std::sin(angle) * factor;
        }
        out->cos[i] = round_to_dtype(c, dtype);
        out->sin[i] = round_to_dtype(s, dtype);
        out->angle[i] = round_to_dtype(angle, dtype);
        out->exact_angle[i] = angle;
    }
}

// The first position from 0 to last whose angle under the candidate is off the ideal angle by
// more than one position's step θ_i in some pair (−1: none).
long long FirstBeyondOneStep(const Candidate& candidate, const RopeFrequencies& ideal,
                             long long last) {
    const std::size_t pairs =
        std::min(ideal.inv_freq.size(), candidate.frequencies.inv_freq.size());
    for (long long position = 0; position <= last; ++position)
        for (std::size_t i = 0; i < pairs; ++i) {
            const double step = ideal.inv_freq[i];
            const double error = AngleOf(candidate, candidate.frequencies.inv_freq[i], position) -
                                 step * static_cast<double>(position);
            if (step > 0 && std::fabs(error) > step) return position;
        }
    return -1;
}

constexpr long long kBlockRows = 1024;
/// Past this, a dump's number is no cos, sin, angle (2^31 positions × 1 rad) or frequency.
constexpr double kLargestValue = 1e15;

// Compares candidate with the dump over the row ranges given ([first, end) pairs); stops at the
// first value beyond tolerance when stop_early.
Status Compare(const DumpSource& source, const Candidate& candidate,
               const std::vector<std::pair<long long, long long>>& ranges,
               const std::vector<double>& tolerance, bool stop_early, Measure* out,
               bool check_finite) {
    const RopeCheckRequest& request = *source.request;
    Measure measure;
    std::vector<double> first, second;
    PairValues values;
    const int width = source.width;
    const int pairs = static_cast<int>(candidate.frequencies.inv_freq.size());
    const bool inv_kind = request.kind == RopeDumpKind::InvFreq;
    const int expected_width = candidate.layout == TableLayout::Undoubled ? pairs : 2 * pairs;
    if (width != expected_width) return Status("internal: layout width");
    for (const auto& [range_first, range_end] : ranges) {
        for (long long row = range_first; row < range_end; row += kBlockRows) {
            const long long count = std::min(kBlockRows, range_end - row);
            if (Status problem = read_rope_dump_rows(request.first, row, count, &first);
                !problem.ok())
                return problem;
            if (request.kind == RopeDumpKind::CosSin)
                if (Status problem = read_rope_dump_rows(request.second, row, count, &second);
                    !problem.ok())
                    return problem;
            if (check_finite)
                for (const std::vector<double>* table : {&first, &second})
                    for (std::size_t at = 0; at < table->size(); ++at)
                        if (!std::isfinite((*table)[at]) || std::fabs((*table)[at]) > kLargestValue)
                            return Status(
                                shown_name(table == &first ? request.first.path
                                                           : request.second.path) +
                                ": holds " +
                                (std::isnan((*table)[at])   ? std::string("NaN")
                                 : std::isinf((*table)[at]) ? std::string("an infinity")
                                                            : Num((*table)[at]) + ", far past any "
                                                                                  "RoPE value,") +
                                " at row " +
                                std::to_string(row + static_cast<long long>(at) / width) +
                                ", column " + std::to_string(at % static_cast<std::size_t>(width)) +
                                " (a table of an engine that works has none)");
            for (long long k = 0; k < count; ++k) {
                const long long position = request.first_position + row + k;
                if (!inv_kind)
                    ValuesAt(candidate, position + candidate.shift, source.dtype, &values);
                for (int column = 0; column < width; ++column) {
                    const int pair = table_pair(column, width, candidate.layout);
                    const auto at = static_cast<std::size_t>(k * width + column);
                    double error = 0;
                    if (inv_kind) {
                        const double want = round_to_dtype(
                            candidate.frequencies.inv_freq[static_cast<std::size_t>(pair)],
                            source.dtype);
                        error = std::fabs(first[at] - want) / std::max(std::fabs(want), 1e-300);
                        if (want == 0)
                            error = first[at] == 0 ? 0 : std::numeric_limits<double>::infinity();
                    } else if (request.kind == RopeDumpKind::Angles) {
                        error = std::fabs(first[at] - values.angle[static_cast<std::size_t>(pair)]);
                    } else {
                        error = std::max(
                            std::fabs(first[at] - values.cos[static_cast<std::size_t>(pair)]),
                            std::fabs(second[at] - values.sin[static_cast<std::size_t>(pair)]));
                    }
                    if (!(error <= measure.difference.largest_error)) {
                        measure.difference.largest_error = error;
                        measure.difference.largest_at = position;
                        measure.difference.largest_pair = pair;
                    }
                    if (!(error <= tolerance[static_cast<std::size_t>(pair)]) &&
                        measure.difference.position < 0) {
                        measure.difference.position = position;
                        measure.difference.pair = pair;
                        measure.within = false;
                        if (stop_early) {
                            *out = measure;
                            return Status();
                        }
                    }
                }
            }
        }
    }
    *out = measure;
    return Status();
}

// A number for a sentence: "32", "0.5", "1.2079".
// Whole numbers of five digits or more in groups of three ("150 000"), as a reader writes them.
std::string Num(double value) {
    char text[40];
    if (value == std::floor(value) && std::fabs(value) >= 1e4 && std::fabs(value) < 1e15) {
        std::snprintf(text, sizeof text, "%.0f", std::fabs(value));
        std::string digits = text, grouped;
        for (std::size_t k = 0; k < digits.size(); ++k) {
            if (k > 0 && (digits.size() - k) % 3 == 0) grouped += ' ';
            grouped += digits[k];
        }
        return (value < 0 ? "-" : "") + grouped;
    }
    std::snprintf(text, sizeof text, "%.6g", value);
    return text;
}

TableLayout ModelLayout(const RopeTableSpec& spec) {
    return spec.pairing == RotaryPairing::Interleaved ? TableLayout::Interleaved
                                                      : TableLayout::HalfSplit;
}

// Rows to test candidates on before the whole dump: the first and last, the powers of two,
// some spread evenly, and those from where the dump parts from the reference.
std::vector<std::pair<long long, long long>> SampleRanges(long long rows, long long parts_at) {
    std::vector<std::pair<long long, long long>> ranges;
    const auto add = [&](long long first, long long end) {
        first = std::clamp(first, 0LL, rows);
        end = std::clamp(end, 0LL, rows);
        if (first < end) ranges.push_back({first, end});
    };
    add(0, 256);
    for (long long row = 256; row < rows; row *= 2)
        add(row, row + 1);
    for (int k = 1; k < 64; ++k)
        add(rows * k / 64, rows * k / 64 + 1);
    if (parts_at >= 0) add(parts_at, parts_at + 256);
    add(rows - 256, rows);
    std::sort(ranges.begin(), ranges.end());
    std::vector<std::pair<long long, long long>> merged;
    for (const auto& range : ranges)
        if (!merged.empty() && range.first <= merged.back().second)
            merged.back().second = std::max(merged.back().second, range.second);
        else
            merged.push_back(range);
    return merged;
}

// The dump's own frequency of each pair, read from its angles (cos/sin: atan2, unwrapped over
// rows 1, 2, 4, 8, …; angles: the slope). Empty when the dump cannot tell (one row, inv_freq).
Status RecoverFrequencies(const DumpSource& source, TableLayout layout, int pairs,
                          std::vector<double>* out) {
    const RopeCheckRequest& request = *source.request;
    out->clear();
    if (request.kind == RopeDumpKind::InvFreq) {
        std::vector<double> row;
        if (Status problem = read_rope_dump_rows(request.first, 0, 1, &row); !problem.ok())
            return problem;
        for (int i = 0; i < pairs && i < source.width; ++i)
            out->push_back(row[static_cast<std::size_t>(i)]);
        return Status();
    }
    if (source.rows < 2) return Status();
    const auto phase_at = [&](long long row, std::vector<double>* phase) -> Status {
        std::vector<double> a, b;
        if (Status problem = read_rope_dump_rows(request.first, row, 1, &a); !problem.ok())
            return problem;
        if (request.kind == RopeDumpKind::CosSin)
            if (Status problem = read_rope_dump_rows(request.second, row, 1, &b); !problem.ok())
                return problem;
        phase->assign(static_cast<std::size_t>(pairs), 0);
        for (int column = 0; column < source.width; ++column) {
            const int pair = table_pair(column, source.width, layout);
            const auto at = static_cast<std::size_t>(column);
            (*phase)[static_cast<std::size_t>(pair)] =
                request.kind == RopeDumpKind::Angles ? a[at] : std::atan2(b[at], a[at]);
        }
        return Status();
    };
    std::vector<double> start, later;
    if (Status problem = phase_at(0, &start); !problem.ok()) return problem;
    const double two_pi = 2 * std::acos(-1.0);
    const auto wrap = [&](double angle) { return angle - two_pi * std::round(angle / two_pi); };
    out->assign(static_cast<std::size_t>(pairs), 0);
    for (long long step = 1; step < source.rows; step *= 2) {
        if (Status problem = phase_at(step, &later); !problem.ok()) return problem;
        for (std::size_t i = 0; i < out->size(); ++i) {
            const double change = later[i] - start[i];
            if (request.kind == RopeDumpKind::Angles) {
                (*out)[i] = change / static_cast<double>(step);
                continue;
            }
            const double predicted = (*out)[i] * static_cast<double>(step);
            (*out)[i] += wrap(change - predicted) / static_cast<double>(step);
        }
    }
    return Status();
}

TableDtype Coarser(TableDtype a, TableDtype b) {
    return dtype_ulp(1, a) >= dtype_ulp(1, b) ? a : b;
}

// The tolerances a candidate is held to: its values' precision and its angles' (float32 in
// transformers' pipeline), at the larger of its attention factor and the reference's.
std::vector<double> CandidateTolerances(const CheckContext& context, const Candidate& candidate) {
    const RopeCheckRequest& request = *context.request;
    const TableDtype values = Coarser(context.source.dtype, candidate.precision);
    const TableDtype angles =
        candidate.pipeline == RopeReference::Transformers ? TableDtype::F32 : TableDtype::F64;
    const double scale =
        std::max(context.ideal.attention_factor, candidate.frequencies.attention_factor);
    return Tolerances(request.kind, values, angles, scale, candidate.frequencies,
                      request.first_position + candidate.shift, context.source.rows);
}

std::string DifferenceWords(const RopeDifference& difference, RopeDumpKind kind) {
    std::string text =
        "from position " + std::to_string(difference.position) + ", pair " +
        std::to_string(difference.pair) + ", largest error " + Num(difference.largest_error) +
        (kind == RopeDumpKind::InvFreq ? " (relative)" : "") + " at position " +
        std::to_string(difference.largest_at) + ", pair " + std::to_string(difference.largest_pair);
    return text;
}

Status ReadFirstRow(CheckContext* context) {
    const RopeCheckRequest& request = *context->request;
    if (request.kind == RopeDumpKind::InvFreq) return Status();
    std::vector<double> a, b;
    if (Status problem = read_rope_dump_rows(request.first, 0, 1, &a); !problem.ok())
        return problem;
    if (request.kind == RopeDumpKind::CosSin)
        if (Status problem = read_rope_dump_rows(request.second, 0, 1, &b); !problem.ok())
            return problem;
    const int width = context->source.width, pairs = context->pairs;
    std::vector<double> phase(static_cast<std::size_t>(pairs), 0);
    for (int column = width - 1; column >= 0; --column) {
        const auto pair = static_cast<std::size_t>(table_pair(column, width, context->layout));
        const auto at = static_cast<std::size_t>(column);
        phase[pair] = request.kind == RopeDumpKind::Angles ? a[at] : std::atan2(b[at], a[at]);
    }
    if (request.kind == RopeDumpKind::CosSin) context->amplitude = std::hypot(a[0], b[0]);
    const double two_pi = 2 * std::acos(-1.0);
    double estimate = -1;
    for (int i = pairs - 1; i >= 0; --i) {
        const double step = context->ideal.inv_freq[static_cast<std::size_t>(i)];
        if (!(step > 0)) continue;
        double angle = phase[static_cast<std::size_t>(i)];
        if (request.kind == RopeDumpKind::CosSin) {
            if (angle < 0) angle += two_pi;
            if (estimate >= 0) angle += two_pi * std::round((estimate * step - angle) / two_pi);
        }
        estimate = angle / step;
    }
    if (estimate >= 0 && estimate < 1e12) context->implied_first = std::llround(estimate);
    return Status();
}

} // namespace pelab::rope_check_detail
