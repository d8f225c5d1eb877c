// models/rope_check_internal.h — what the parts of `rope check` share (rope_compare.cpp: the
// tolerances and comparing a candidate with the dump; rope_causes.cpp: the candidates each known
// cause makes; rope_check.cpp: the verdict). Not part of core's public interface.
#pragma once

#include "pelab/models/rope_check.h"

#include <string>
#include <utility>
#include <vector>

namespace pelab::rope_check_detail {

struct Candidate {
    RopeCause cause = RopeCause::None;
    RopeReference pipeline = RopeReference::Ideal; ///< trig and angles in double or float32
    RopeFrequencies frequencies;
    TableDtype angle_dtype = TableDtype::F64; ///< LowPrecisionAngle: θ, p and p·θ rounded to it
    TableDtype precision = TableDtype::F64;   ///< the coarsest step, for the tolerance
    long long shift = 0;                      ///< row r holds position A + r + shift
    TableLayout layout = TableLayout::HalfSplit;
    std::string words; ///< the cause, in the engine developer's words
};

struct PairValues {
    std::vector<double> cos, sin, angle;
    std::vector<double> exact_angle; ///< before rounding to the dump's dtype
};

// The dump being checked, with its sizes, read block by block.
struct DumpSource {
    const RopeCheckRequest* request = nullptr;
    long long rows = 0;
    int width = 0;
    TableDtype dtype = TableDtype::F32;
};

// A difference measured over some rows, against a tolerance.
struct Measure {
    RopeDifference difference;
    bool within = true;
};

// The reference under both pipelines with one change to the spec.
struct SpecChange {
    RopeCause cause;
    RopeTableSpec spec;
    long long length;
    std::string words;
    bool keep_attention = false; ///< use the reference's attention factor
};

struct CheckContext {
    const RopeCheckRequest* request = nullptr;
    DumpSource source;
    RopeFrequencies ideal, transformers;
    long long length = 0;
    int pairs = 0;
    TableLayout layout = TableLayout::HalfSplit; ///< the dump's, read with the model's pairing
    std::vector<double> recovered;               ///< the dump's own frequencies (may be empty)
    double amplitude = 0; ///< √(cos² + sin²) of the dump's first row, first column (cos/sin)
    long long implied_first = -1; ///< the position the first row's angles imply (−1: unknown)
};

/// Per pair: how far a dump of value_dtype may be from a table whose angles were formed in
/// angle_dtype (relative for inverse frequencies).
std::vector<double> Tolerances(RopeDumpKind kind, TableDtype value_dtype, TableDtype angle_dtype,
                               double scale, const RopeFrequencies& frequencies, long long first,
                               long long rows);
/// The coarser of two dtypes.
TableDtype Coarser(TableDtype a, TableDtype b);
std::vector<double> CandidateTolerances(const CheckContext& context, const Candidate& candidate);
double AngleOf(const Candidate& candidate, double inv, long long position);
void ValuesAt(const Candidate& candidate, long long position, TableDtype dtype, PairValues* out);
long long FirstBeyondOneStep(const Candidate& candidate, const RopeFrequencies& ideal,
                             long long last);
/// The candidate against the dump over the row ranges ([first, end)); stops at the first value
/// beyond tolerance when stop_early; check_finite: bad input for NaN or ∞ in the dump.
Status Compare(const DumpSource& source, const Candidate& candidate,
               const std::vector<std::pair<long long, long long>>& ranges,
               const std::vector<double>& tolerance, bool stop_early, Measure* out,
               bool check_finite = false);
std::vector<std::pair<long long, long long>> SampleRanges(long long rows, long long parts_at);
Status RecoverFrequencies(const DumpSource& source, TableLayout layout, int pairs,
                          std::vector<double>* out);
/// The first row's amplitude and the position its angles imply (context->amplitude,
/// implied_first): the slowest pair's angle, refined pair by pair towards the fastest.
Status ReadFirstRow(CheckContext* context);
std::string Num(double value);
/// "from position P, pair i, largest error E at position Q, pair j".
std::string DifferenceWords(const RopeDifference& difference, RopeDumpKind kind);
TableLayout ModelLayout(const RopeTableSpec& spec);
const char* DtypeWords(TableDtype dtype);
/// Every candidate the known causes make, in the order they are tested.
std::vector<Candidate> Candidates(const CheckContext& context);

} // namespace pelab::rope_check_detail
