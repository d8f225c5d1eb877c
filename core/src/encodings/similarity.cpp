#include "pelab/encodings/similarity.h"

#include "base/format.h"
#include "pelab/base/error.h"
#include "pelab/encodings/sinusoidal.h"

#include <cmath>

namespace pelab {

using detail::concat;

namespace {
void validate_common(double pos_a, double pos_b, int d_model, double base) {
    validate_d_model(d_model);
    validate_base(base);
    validate_position(pos_a);
    validate_position(pos_b);
}
} // namespace

PositionComparison compare_positions(double pos_a, double pos_b, int d_model, double base) {
    validate_common(pos_a, pos_b, d_model, base);
    const std::vector<double> a = pe_vector_double(pos_a, d_model, base);
    const std::vector<double> b = pe_vector_double(pos_b, d_model, base);
    PositionComparison result;
    double squared_distance = 0, norm_a2 = 0, norm_b2 = 0;
    for (int dim = 0; dim < d_model; ++dim) {
        result.dot_product += a[dim] * b[dim];
        norm_a2 += a[dim] * a[dim];
        norm_b2 += b[dim] * b[dim];
        const double diff = a[dim] - b[dim];
        squared_distance += diff * diff;
    }
    result.distance = std::fabs(pos_a - pos_b);
    result.norm_a = std::sqrt(norm_a2);
    result.norm_b = std::sqrt(norm_b2);
    result.cosine_similarity = result.dot_product / (result.norm_a * result.norm_b);
    result.euclidean_distance = std::sqrt(squared_distance);
    return result;
}

std::vector<double> pair_contributions(double pos_a, double pos_b, int d_model, double base) {
    validate_common(pos_a, pos_b, d_model, base);
    const std::vector<double> omegas = frequencies(d_model, base);
    std::vector<double> result(omegas.size());
    // sin(ωa)sin(ωb) + cos(ωa)cos(ωb) = cos(ω(a − b)); computed from the two angles so that it
    // is exactly pair i's share of the dot product the table sums.
    for (std::size_t i = 0; i < omegas.size(); ++i) {
        const double angle_a = omegas[i] * pos_a, angle_b = omegas[i] * pos_b;
        result[i] = std::sin(angle_a) * std::sin(angle_b) + std::cos(angle_a) * std::cos(angle_b);
    }
    return result;
}

std::vector<float> similarity_matrix(int first, int count, int d_model, double base) {
    validate_d_model(d_model);
    validate_base(base);
    validate_position(first);
    if (count < 1 || count > 4096)
        throw InvalidArgument(
            concat("similarity matrix size must be in [1, 4096] (got ", count, ")"));
    validate_position(static_cast<double>(first) + count - 1);
    const std::vector<double> omegas = frequencies(d_model, base);
    // dot(p, q) depends on |p − q| only: tabulate it once per offset.
    std::vector<double> by_offset(static_cast<std::size_t>(count), 0.0);
    for (int k = 0; k < count; ++k) {
        double sum = 0;
        for (double w : omegas)
            sum += std::cos(w * k);
        by_offset[k] = sum; // each of the d/2 pairs contributes cos(ω k)
    }
    std::vector<float> result(static_cast<std::size_t>(count) * count);
    for (int p = 0; p < count; ++p)
        for (int q = 0; q < count; ++q)
            result[static_cast<std::size_t>(p) * count + q] =
                static_cast<float>(by_offset[static_cast<std::size_t>(std::abs(p - q))]);
    return result;
}

std::vector<double> dot_product_by_offset(double pos, int max_offset, int d_model, double base) {
    validate_d_model(d_model);
    validate_base(base);
    validate_position(pos);
    if (max_offset < 0 || max_offset > 1 << 20)
        throw InvalidArgument(concat("max offset must be in [0, 1048576] (got ", max_offset, ")"));
    validate_position(pos + max_offset);
    const std::vector<double> omegas = frequencies(d_model, base);
    std::vector<double> result(static_cast<std::size_t>(max_offset) + 1);
    for (int k = 0; k <= max_offset; ++k) {
        double sum = 0;
        for (double w : omegas) {
            const double angle_p = w * pos, angle_q = w * (pos + k);
            sum += std::sin(angle_p) * std::sin(angle_q) + std::cos(angle_p) * std::cos(angle_q);
        }
        result[k] = sum;
    }
    return result;
}

std::vector<double> dot_product_at_offsets(const std::vector<double>& offsets, int d_model,
                                           double base) {
    validate_d_model(d_model);
    validate_base(base);
    if (offsets.size() > 65536)
        throw InvalidArgument(concat("at most 65536 offsets (got ", offsets.size(), ")"));
    for (double k : offsets)
        if (!std::isfinite(k) || std::fabs(k) > 1e6)
            throw InvalidArgument(concat("offsets must be finite, |k| <= 1e6 (got ", k, ")"));
    const std::vector<double> omegas = frequencies(d_model, base);
    std::vector<double> result;
    result.reserve(offsets.size());
    for (double k : offsets) {
        double sum = 0;
        for (double w : omegas)
            sum += std::cos(w * k);
        result.push_back(sum);
    }
    return result;
}

std::vector<double> dot_product_by_offset_range(int count, int d_model, double base) {
    validate_d_model(d_model);
    validate_base(base);
    if (count < 1 || count > 1 << 20)
        throw InvalidArgument(concat("count must be in [1, 1048576] (got ", count, ")"));
    const std::vector<double> omegas = frequencies(d_model, base);
    std::vector<double> result(static_cast<std::size_t>(count), 0.0);
    for (double w : omegas) {
        const double step_cos = std::cos(w), step_sin = std::sin(w);
        double c = 1.0, s = 0.0; // cos and sin of w·k, starting at k = 0
        for (int k = 0; k < count; ++k) {
            if (k % kAnchorInterval == 0 && k > 0) {
                c = std::cos(w * k); // exact again: rounding cannot pile up
                s = std::sin(w * k);
            }
            result[k] += c;
            const double next_c = c * step_cos - s * step_sin;
            s = s * step_cos + c * step_sin;
            c = next_c;
        }
    }
    return result;
}

const char* similarity_label(double cosine_similarity) {
    // No "(neighbours)" or "(far apart)": equal positions, or far ones at a small d_model,
    // can land in any band, so the label names the band only.
    if (cosine_similarity >= kSimilarityVeryHigh) return "very high";
    if (cosine_similarity >= kSimilarityHigh) return "high";
    if (cosine_similarity >= kSimilarityModerate) return "moderate";
    return "low";
}

} // namespace pelab
