#include "pelab/scaling/rope_family.h"

#include "pelab/base/error.h"
#include "pelab/base/limits.h"
#include "pelab/encodings/alternatives.h"
#include "pelab/encodings/sinusoidal.h"

#include <cfloat>
#include <cmath>
#include <string>

namespace pelab {

namespace {

void validate_fraction(double fraction, const char* name) {
    if (!std::isfinite(fraction) || fraction < 0 || fraction > 1)
        throw InvalidArgument(std::string(name) + " must be in [0, 1] (got " +
                              std::to_string(fraction) + ")");
}

void validate_xpos(const XposOptions& options) {
    if (!std::isfinite(options.gamma) || options.gamma <= 0 || options.gamma > 10)
        throw InvalidArgument("xPos's gamma must be in (0, 10] (got " +
                              std::to_string(options.gamma) + ")");
    if (!std::isfinite(options.scale_base) || options.scale_base < 1 || options.scale_base > 1e6)
        throw InvalidArgument("xPos's scale base B must be in [1, 1e6] (got " +
                              std::to_string(options.scale_base) + ")");
}

void validate_plan_vectors(const std::vector<double>& q, const std::vector<double>& k,
                           const RopePairPlan& plan) {
    if (q.size() != k.size() || q.size() != 2 * plan.theta.size() ||
        plan.zeta.size() != plan.theta.size())
        throw InvalidArgument("q and k need two values per pair of the plan (" +
                              std::to_string(2 * plan.theta.size()) + "; got " +
                              std::to_string(q.size()) + " and " + std::to_string(k.size()) + ")");
    for (std::size_t j = 0; j < q.size(); ++j)
        if (!std::isfinite(q[j]) || !std::isfinite(k[j]))
            throw InvalidArgument("q and k must hold finite numbers (dim " + std::to_string(j) +
                                  " is not)");
}

} // namespace

int RopePairPlan::turned_pairs() const {
    int turned = 0;
    for (const double each : theta)
        turned += each > 0 ? 1 : 0;
    return turned;
}

RopePairPlan rope_plan(int d, double base) {
    RopePairPlan plan;
    plan.theta = rope_frequencies(d, base); // validates d and base
    plan.zeta.assign(plan.theta.size(), 1.0);
    return plan;
}

RopePairPlan partial_rotary_plan(int d, double base, double fraction) {
    validate_d_model(d);
    validate_base(base);
    validate_fraction(fraction, "the rotary fraction");
    // GPT-NeoX: rotary_ndims = int(head_size · rotary_pct); its frequencies span the rotary
    // dimensions, base^(−2i/r).
    const int rotary = static_cast<int>(std::floor(fraction * d)) / 2 * 2;
    RopePairPlan plan;
    plan.theta.assign(static_cast<std::size_t>(d / 2), 0.0);
    plan.zeta.assign(plan.theta.size(), 1.0);
    if (rotary >= 2) {
        const std::vector<double> turned = frequencies(rotary, base);
        for (std::size_t i = 0; i < turned.size(); ++i)
            plan.theta[i] = turned[i];
    }
    return plan;
}

RopePairPlan p_rope_plan(int d, double base, double p) {
    validate_fraction(p, "p-RoPE's p");
    RopePairPlan plan = rope_plan(d, base);
    const int pairs = d / 2; // d is even
    const int kept = static_cast<int>(std::floor(p * pairs));
    for (int i = kept; i < d / 2; ++i)
        plan.theta[static_cast<std::size_t>(i)] = 0.0;
    return plan;
}

std::vector<double> xpos_zeta(int d, double gamma) {
    validate_d_model(d);
    validate_xpos(XposOptions{gamma, 512});
    std::vector<double> zeta(static_cast<std::size_t>(d / 2));
    for (int i = 0; i < d / 2; ++i)
        zeta[static_cast<std::size_t>(i)] = (2.0 * i / d + gamma) / (1 + gamma);
    return zeta;
}

RopePairPlan xpos_plan(int d, double base, const XposOptions& options) {
    validate_xpos(options);
    RopePairPlan plan = rope_plan(d, base);
    plan.zeta = xpos_zeta(d, options.gamma);
    plan.scale_base = options.scale_base;
    return plan;
}

double plan_score_relative(const std::vector<double>& q, const std::vector<double>& k,
                           double distance, const RopePairPlan& plan) {
    validate_plan_vectors(q, k, plan);
    if (!std::isfinite(distance) || std::abs(distance) > kMaxPosition)
        throw InvalidArgument("distance must be finite and within ±1e9");
    double sum = 0;
    for (int i = 0; i < plan.pairs(); ++i) {
        const auto at = static_cast<std::size_t>(i);
        const double q_length = std::hypot(q[2 * at], q[2 * at + 1]);
        const double k_length = std::hypot(k[2 * at], k[2 * at + 1]);
        const double phase =
            std::atan2(q[2 * at + 1], q[2 * at]) - std::atan2(k[2 * at + 1], k[2 * at]);
        sum += xpos_decay(plan.zeta[at], distance, plan.scale_base) * q_length * k_length *
               std::cos(distance * plan.theta[at] + phase);
    }
    return sum;
}

double plan_score(const std::vector<double>& q, const std::vector<double>& k, double m, double n,
                  const RopePairPlan& plan) {
    validate_plan_vectors(q, k, plan);
    validate_position(m);
    validate_position(n);
    double sum = 0;
    for (int i = 0; i < plan.pairs(); ++i) {
        const auto at = static_cast<std::size_t>(i);
        double qa = q[2 * at] * xpos_decay(plan.zeta[at], m, plan.scale_base);
        double qb = q[2 * at + 1] * xpos_decay(plan.zeta[at], m, plan.scale_base);
        double ka = k[2 * at] * xpos_decay(plan.zeta[at], -n, plan.scale_base);
        double kb = k[2 * at + 1] * xpos_decay(plan.zeta[at], -n, plan.scale_base);
        rope_turn(qa, qb, std::cos(m * plan.theta[at]), std::sin(m * plan.theta[at]));
        rope_turn(ka, kb, std::cos(n * plan.theta[at]), std::sin(n * plan.theta[at]));
        sum += qa * ka + qb * kb;
    }
    return sum;
}

XposFloat32Limits xpos_float32_limits(int d, const XposOptions& options) {
    const double zeta0 = xpos_zeta(d, options.gamma).front(); // the smallest ζ
    XposFloat32Limits limits;
    // ζ0^(p/B) < FLT_MIN  ⇔  p > B·ln(FLT_MIN)/ln(ζ0); ζ0^(−p/B) > FLT_MAX ⇔ p >
    // B·ln(FLT_MAX)/−ln(ζ0). (ζ0 = γ/(1 + γ) < 1 for every γ > 0, so both are finite.)
    const double log_zeta = std::log(zeta0);
    // The logs in double: std::log(FLT_MAX) takes the float overload, whose rounded-up result
    // (88.72283936 for 88.72283905) moved the boundary one position on at γ 1.
    const double log_min = std::log(static_cast<double>(FLT_MIN));
    const double log_max = std::log(static_cast<double>(FLT_MAX));
    limits.q_subnormal_from = std::floor(options.scale_base * log_min / log_zeta) + 1;
    limits.k_overflow_from = std::floor(options.scale_base * log_max / -log_zeta) + 1;
    return limits;
}

} // namespace pelab
