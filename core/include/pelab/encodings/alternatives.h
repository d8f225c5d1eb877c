// pelab/encodings/alternatives.h — what models use instead of (or after) the sinusoidal encoding:
// a learned table, RoPE, ALiBi and T5's relative buckets, each computed exactly.
//
// Contracts (InvalidArgument otherwise) are stated per function; positions are finite and in
// [0, kMaxPosition]; d (a head's or the model's width) is even and in [2, kMaxDModel]; base is
// valid as in sinusoidal.h.
#pragma once

#include "pelab/base/matrix.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace pelab {

// ---- Learned absolute table (BERT, GPT-2) ----------------------------------------------------

/// A seeded stand-in for a trained table of `rows` positions × d values (uniform in [−1, 1]:
/// only its shape is the point). rows in [1, kMaxLearnedRows].
constexpr int kMaxLearnedRows = 1 << 20;
struct LearnedTable {
    int rows = 0;
    int d = 0;
    std::uint64_t seed = 0;
    /// Row `pos`, or nothing when pos ≥ rows (or not a whole number): the table has no entry
    /// there, and nothing is invented. Values are generated on demand, so a table of 10⁶ rows
    /// costs no memory.
    std::optional<std::vector<double>> lookup(double pos) const;
    /// rows × d: the parameters a model trains for it (512 × 768 = 393 216 in BERT-base,
    /// 1 024 × 768 = 786 432 in GPT-2 small).
    long long parameter_count() const { return static_cast<long long>(rows) * d; }
};
LearnedTable make_learned_table(int rows, int d, std::uint64_t seed);

// ---- RoPE (Su et al. 2021, "RoFormer") -------------------------------------------------------
//
//   θ_i = base^(−2i/d);  pair i = dims (2i, 2i+1) turned by the angle m·θ_i at position m:
//   RoPE(x, m)_{2i}   = x_{2i} cos(mθ_i) − x_{2i+1} sin(mθ_i)
//   RoPE(x, m)_{2i+1} = x_{2i} sin(mθ_i) + x_{2i+1} cos(mθ_i)
//   score(m, n) = RoPE(q, m) · RoPE(k, n) = Σ_i |q_i||k_i| cos((m − n)θ_i + φ_i)
//   with |q_i| the length of q's pair i and φ_i = arg q_i − arg k_i.

/// θ_i for i < d/2 (the same spectrum as the sinusoidal encoding's ω_i).
std::vector<double> rope_frequencies(int d, double base);

/// Which dimensions make pair i: (2i, 2i + 1), the paper's and GPT-J's, or (i, i + d/2), the
/// half-split of GPT-NeoX and of Llama's Hugging Face code. The two differ by a permutation of
/// the dimensions, so both keep the score a function of m − n; weights made for one and run
/// with the other turn most dimensions at a frequency they were not made for.
enum class RopePairing { Interleaved, HalfSplit };
/// The dimension that is member (0 or 1) of pair i, in a vector of d dimensions.
inline int rope_pair_dimension(RopePairing pairing, int i, int member, int d) {
    return pairing == RopePairing::Interleaved ? 2 * i + member : i + member * (d / 2);
}
/// The pair dimension `dimension` belongs to.
inline int rope_pair_of(RopePairing pairing, int dimension, int d) {
    return pairing == RopePairing::Interleaved ? dimension / 2 : dimension % (d / 2);
}

/// x's dimensions reordered so that its pairs under `from` become interleaved pairs (pair i's
/// members at 2i and 2i + 1): rope_rotate(x, pos, base, from) is rope_rotate of the reordered x,
/// reordered back; every interleaved formula below applies to the reordered vectors.
std::vector<double> rope_as_interleaved(const std::vector<double>& x, RopePairing from);
/// The same for a head that turns only its first rotary_dims dimensions (partial rotary: GPT-NeoX
/// pairs i with i + rotary_dims/2 among them): those are reordered as above, the others, which
/// carry no position, are kept in place. rotary_dims even in [0, x.size()].
std::vector<double> rope_as_interleaved(const std::vector<double>& x, RopePairing from,
                                        int rotary_dims);

/// x turned pair by pair by pos·θ_i (x.size() = d, even).
std::vector<double> rope_rotate(const std::vector<double>& x, double pos, double base,
                                RopePairing pairing = RopePairing::Interleaved);
/// One pair (a, b) turned by the angle whose cosine and sine are c and s, in place: the turn
/// rope_rotate gives each pair, in the caller's scalar type (the trainer turns float queries
/// and keys with it, and their gradients back with −s).
template <typename Scalar> void rope_turn(Scalar& a, Scalar& b, Scalar c, Scalar s) {
    const Scalar x = a, y = b;
    a = x * c - y * s;
    b = x * s + y * c;
}
/// RoPE(q, m) · RoPE(k, n), computed by rotating both and taking the dot product.
double rope_score(const std::vector<double>& q, const std::vector<double>& k, double m, double n,
                  double base, RopePairing pairing = RopePairing::Interleaved);
/// The same score from m − n alone: Σ_i |q_i||k_i| cos((m − n)θ_i + φ_i). distance may be
/// negative (|distance| ≤ kMaxPosition).
double rope_score_relative(const std::vector<double>& q, const std::vector<double>& k,
                           double distance, double base);

/// Moves m and n together: max over s in [0, shift_count) of |score(m + s·step, n + s·step) −
/// score(m, n)|, with positions kept in range. Zero up to rounding: the score depends on
/// m − n only. shift_count in [1, 100000], step > 0.
double rope_max_shift_change(const std::vector<double>& q, const std::vector<double>& k, double m,
                             double n, double base, int shift_count, double step);

/// E[q·R(Δ)q] / E[q·q] over random q = k with independent, identically distributed components:
/// the mean over pairs of cos(Δ·θ_i). 1 at Δ = 0, falling with |Δ| as the fast pairs
/// de-correlate.
double rope_expected_similarity(double distance, int d, double base);
/// The RoPE paper's long-term decay bound (its section 3.4.3, figure 2):
/// (1/(d/2)) Σ_{j=1}^{d/2} |S_j| with S_j = Σ_{p=0}^{j−1} exp(√−1 · Δ·θ_p) (pairs counted from 0,
/// so S_j has j terms and the bound is (d/2 + 1)/2 at Δ = 0).
double rope_decay_bound(double distance, int d, double base);

/// A seeded q (or k) vector of d standard normal values.
std::vector<double> seeded_vector(int d, std::uint64_t seed);

// ---- ALiBi (Press et al. 2022) ----------------------------------------------------------------

/// The head slopes m_h: for H a power of two, m_h = 2^(−8h/H), h = 1 … H. Otherwise the
/// reference code's rule: the slopes of the nearest smaller power of two n, then every other
/// slope of 2n until H are filled. heads in [1, kMaxAlibiHeads].
constexpr int kMaxAlibiHeads = 256;
std::vector<double> alibi_slopes(int heads);
/// −slope·|i − j| for query i and key j; with `causal`, keys j > i are masked (−∞).
double alibi_bias(double slope, int query, int key, bool causal);
/// The n × n bias matrix of one head.
Matrix alibi_bias_matrix(double slope, int n, bool causal);

// ---- T5 relative position buckets (Raffel et al. 2020) ---------------------------------------
//
// relative_position = key − query. Bidirectional: half the buckets for keys after the query.
// The first half of a side's buckets are exact distances 0 … max_exact−1 (max_exact = half the
// side's buckets); beyond, buckets grow logarithmically up to max_distance, and every distance
// at or past max_distance shares the side's last bucket (it can start earlier: the int cast
// truncates). num_buckets in [2, 1024], even and at least 4 when bidirectional (a side needs an
// exact bucket), max_distance in [side/2 + 1, 10⁹].

struct T5BucketOptions {
    int num_buckets = 32;
    int max_distance = 128;
    bool bidirectional = true;
};
void validate_t5_options(const T5BucketOptions& options);
int t5_bucket(long long relative_position, const T5BucketOptions& options);
/// The smallest distance n = query − key ≥ 0 (a key before the query) that falls in that side's
/// last bucket: from there on every distance looks the same to the model.
long long t5_last_bucket_start(const T5BucketOptions& options);

/// One learned scalar per bucket (seeded normal, σ = 1): the bias a head adds to a score.
std::vector<double> t5_bucket_biases(int num_buckets, std::uint64_t seed);

// ---- CoPE (Golovneva et al. 2024): positions counted by gates --------------------------------

/// The positions CoPE gives keys 0 … i of the query i: p_j = Σ_{t = j … i} gates[t], where
/// gates[t] is the query's gate σ(q·k_t) on key t (the query itself the last). A key's position
/// counts the keys from it to the query that the gates open on, not the tokens. Throws
/// InvalidArgument for an empty list or a gate outside [0, 1].
std::vector<double> cope_positions(const std::vector<double>& gates);

// ---- Sinusoidal and learned, for the comparison table --------------------------------------

/// max over s in [0, shift_count) of |PE(m+s)·PE(n+s) − PE(m)·PE(n)| for the sinusoidal
/// encoding (the dot product depends on m − n only; 0 up to rounding).
double sinusoidal_max_shift_change(double m, double n, int d, double base, int shift_count);
/// The same for a learned table, over shifts that stay inside the table (large: a learned
/// table's dot products depend on where the two positions are, not only on their distance).
double learned_max_shift_change(const LearnedTable& table, int m, int n, int shift_count);

} // namespace pelab
