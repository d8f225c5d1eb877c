// The tiny transformer of the training lab (pelab/training/transformer.h): every gradient of every
// layer and every positional variant against central finite differences in double precision, the
// float model against the double one, the learned table's untrained rows, the causal mask, and
// AdamW against its update rule written out here.
#include "method_slots.h"
#include "pelab/base/error.h"
#include "pelab/training/train.h"
#include "pelab/training/transformer.h"
#include "positional/method.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <tuple>
#include <vector>

using namespace pelab;

namespace {

TransformerConfig TinyConfig(PositionalKind kind, bool causal) {
    TransformerConfig c;
    c.vocab = 5;
    c.d_model = 8;
    c.layers = 2;
    // Two heads of width 4; one of 8 for rope_partial, whose quarter of a head needs 8 to hold
    // a pair (it refuses narrower heads).
    c.heads = kind == PositionalKind::RopePartial ? 1 : 2;
    c.mlp_ratio = 2;
    c.max_len = 7;
    c.causal = causal;
    c.positional = kind;
    c.t5_buckets = 8;
    c.t5_max_distance = 16;
    return c;
}

// Two sequences of five tokens; one target unscored.
TokenBatch TinyBatch() {
    TokenBatch batch;
    batch.size = 2;
    batch.length = 5;
    batch.tokens = {0, 3, 1, 4, 2, 2, 2, 0, 1, 3};
    batch.targets = {1, 4, 0, -1, 3, 3, 1, 1, 0, 2};
    return batch;
}

} // namespace

class TransformerGradient : public ::testing::TestWithParam<std::tuple<PositionalKind, bool>> {};

// d loss / d θ for every parameter θ against (L(θ + h) − L(θ − h)) / 2h, h = 1e-6: the
// norm-wise relative error of the whole gradient within 1e-6, and of each tensor within 1e-5.
TEST_P(TransformerGradient, MatchesCentralDifferences) {
    const auto [kind, causal] = GetParam();
    TinyTransformer<double> model(TinyConfig(kind, causal), 7);
    // T5's biases and CoPE's table start at 0, the LayerNorms at 1 and 0: move them off their
    // start, so that every term of the gradient is exercised.
    std::mt19937_64 random(11);
    std::normal_distribution<double> jitter(0.0, 0.3);
    for (const ParameterSlot& slot : model.slots())
        if (slot.name.find("ln") != std::string::npos || OwnedByMethod(slot, kind))
            for (int k = 0; k < slot.rows * slot.cols; ++k)
                model.parameters()[slot.offset + k] += jitter(random);
    const TokenBatch batch = TinyBatch();
    std::vector<double> gradient;
    model.loss(batch, &gradient);
    ASSERT_EQ(gradient.size(), model.parameters().size());
    const double h = 1e-6;
    double error_squared = 0, norm_squared = 0;
    for (const ParameterSlot& slot : model.slots()) {
        double slot_error = 0, slot_norm = 0;
        for (int k = 0; k < slot.rows * slot.cols; ++k) {
            double& theta = model.parameters()[slot.offset + k];
            const double kept = theta;
            theta = kept + h;
            const double up = model.loss(batch);
            theta = kept - h;
            const double down = model.loss(batch);
            theta = kept;
            const double numeric = (up - down) / (2 * h);
            const double delta = gradient[slot.offset + k] - numeric;
            slot_error += delta * delta;
            slot_norm += numeric * numeric;
        }
        // Within 1e-5 of the tensor's norm, or of the differences' own rounding (the loss's
        // ~1e-16 over 2h: ~1e-10) for a tensor whose gradient is that small (FIRE's c: ~4e-6).
        EXPECT_LE(std::sqrt(slot_error), 1e-5 * std::sqrt(slot_norm) + 1e-9)
            << slot.name << ": norm " << std::sqrt(slot_norm);
        error_squared += slot_error;
        norm_squared += slot_norm;
    }
    EXPECT_LE(std::sqrt(error_squared / norm_squared), 1e-6);
}

// Every method of the table, bidirectional and causal (a method defined for causal models only,
// xpos, causal alone: Transformer.CausalOnlyMethodsRefuseABidirectionalModel).
std::vector<std::tuple<PositionalKind, bool>> EveryMethodAndMask() {
    std::vector<std::tuple<PositionalKind, bool>> cases;
    for (const PositionalKind kind : positional_kinds())
        for (const bool causal : {false, true})
            if (causal || !positional_kind_causal_only(kind)) cases.emplace_back(kind, causal);
    return cases;
}

INSTANTIATE_TEST_SUITE_P(EveryVariant, TransformerGradient,
                         ::testing::ValuesIn(EveryMethodAndMask()), [](const auto& info) {
                             return std::string(positional_kind_name(std::get<0>(info.param))) +
                                    (std::get<1>(info.param) ? "_causal" : "_bidirectional");
                         });

// The float model computes what the double one does, from the same seed, to float's precision.
TEST(Transformer, FloatAgreesWithDouble) {
    for (const PositionalKind kind : positional_kinds()) {
        const bool causal = positional_kind_causal_only(kind);
        const TinyTransformer<double> exact(TinyConfig(kind, causal), 3);
        const TinyTransformer<float> quick(TinyConfig(kind, causal), 3);
        std::vector<double> g_exact;
        std::vector<float> g_quick;
        const double l_exact = exact.loss(TinyBatch(), &g_exact);
        const double l_quick = quick.loss(TinyBatch(), &g_quick);
        EXPECT_NEAR(l_quick, l_exact, 1e-5 * l_exact) << positional_kind_name(kind);
        double error = 0, norm = 0;
        for (std::size_t k = 0; k < g_exact.size(); ++k) {
            error += (g_quick[k] - g_exact[k]) * (g_quick[k] - g_exact[k]);
            norm += g_exact[k] * g_exact[k];
        }
        EXPECT_LE(std::sqrt(error / norm), 1e-4) << positional_kind_name(kind);
    }
}

// RoPE's two pairings are one model under a permutation of each head's query and key
// dimensions: the half-split pair i is (i, i + d_h/2), the interleaved one (2i, 2i + 1), so an
// interleaved model's q and k rows moved to their half-split places give the same logits in
// the half-split model; run there without the move, the same weights turn each dimension at a
// frequency they were not made for, and the logits change (the confusion of issue 44).
TEST(Transformer, RopePairingsAreOneModelUnderAPermutation) {
    const TinyTransformer<double> interleaved(TinyConfig(PositionalKind::Rope, true), 5);
    TinyTransformer<double> moved(TinyConfig(PositionalKind::RopeHalf, true), 99);
    TinyTransformer<double> unmoved(TinyConfig(PositionalKind::RopeHalf, true), 99);
    ASSERT_EQ(moved.parameters().size(), interleaved.parameters().size());
    moved.parameters() = interleaved.parameters();
    unmoved.parameters() = interleaved.parameters();
    const TransformerConfig& c = interleaved.config();
    const int d = c.d_model, head_width = d / c.heads, half = head_width / 2;
    for (int layer = 0; layer < c.layers; ++layer) {
        const std::string prefix = "layer" + std::to_string(layer) + ".qkv.";
        const ParameterSlot& weight = interleaved.slot(prefix + "weight"); // 3d × d, out × in
        const ParameterSlot& bias = interleaved.slot(prefix + "bias");
        for (int part = 0; part < 2; ++part) // queries, then keys; values stay
            for (int head = 0; head < c.heads; ++head)
                for (int i = 0; i < half; ++i)
                    for (int member = 0; member < 2; ++member) {
                        const int from = part * d + head * head_width + 2 * i + member;
                        const int to = part * d + head * head_width + i + member * half;
                        for (int column = 0; column < d; ++column)
                            moved.parameters()[weight.offset + to * d + column] =
                                interleaved.parameters()[weight.offset + from * d + column];
                        moved.parameters()[bias.offset + to] =
                            interleaved.parameters()[bias.offset + from];
                    }
    }
    const std::vector<double> expected = interleaved.logits(TinyBatch());
    const std::vector<double> same = moved.logits(TinyBatch());
    const std::vector<double> other = unmoved.logits(TinyBatch());
    ASSERT_EQ(same.size(), expected.size());
    double largest_same = 0, largest_other = 0;
    for (std::size_t k = 0; k < expected.size(); ++k) {
        largest_same = std::max(largest_same, std::abs(same[k] - expected[k]));
        largest_other = std::max(largest_other, std::abs(other[k] - expected[k]));
    }
    EXPECT_LT(largest_same, 1e-12);
    EXPECT_GT(largest_other, 1e-3);
}

// rope_crossed trains exactly as rope (the same seed gives the same weights, loss and gradient,
// bit for bit) and measures exactly as rope_half on those weights (logits and attention):
// weights made for interleaved pairs run by half-split code.
TEST(Transformer, RopeCrossedTrainsAsRopeAndMeasuresAsRopeHalf) {
    for (const bool causal : {false, true}) {
        const TinyTransformer<float> rope(TinyConfig(PositionalKind::Rope, causal), 11);
        const TinyTransformer<float> crossed(TinyConfig(PositionalKind::RopeCrossed, causal), 11);
        TinyTransformer<float> half(TinyConfig(PositionalKind::RopeHalf, causal), 12);
        ASSERT_EQ(crossed.parameters(), rope.parameters());
        half.parameters() = rope.parameters();
        std::vector<float> g_rope, g_crossed;
        EXPECT_EQ(crossed.loss(TinyBatch(), &g_crossed), rope.loss(TinyBatch(), &g_rope));
        EXPECT_EQ(g_crossed, g_rope);
        const std::vector<float> measured = crossed.logits(TinyBatch());
        EXPECT_EQ(measured, half.logits(TinyBatch()));
        EXPECT_NE(measured, rope.logits(TinyBatch()));
        EXPECT_EQ(crossed.attention({1, 2, 3, 4, 0}, 1, 0), half.attention({1, 2, 3, 4, 0}, 1, 0));
    }
}

// xPos is defined for causal models: a bidirectional one is refused with a message naming it,
// and only the methods that say so refuse.
TEST(Transformer, CausalOnlyMethodsRefuseABidirectionalModel) {
    EXPECT_TRUE(positional_kind_causal_only(PositionalKind::Xpos));
    for (const PositionalKind kind : positional_kinds()) {
        if (!positional_kind_causal_only(kind)) {
            EXPECT_NO_THROW(validate_transformer_config(TinyConfig(kind, false)))
                << positional_kind_name(kind);
            continue;
        }
        EXPECT_NO_THROW(validate_transformer_config(TinyConfig(kind, true)));
        try {
            validate_transformer_config(TinyConfig(kind, false));
            ADD_FAILURE() << positional_kind_name(kind) << " accepted a bidirectional model";
        } catch (const InvalidArgument& error) {
            EXPECT_NE(std::string(error.what())
                          .find(std::string(positional_kind_name(kind)) +
                                " is defined for causal models only"),
                      std::string::npos)
                << error.what();
        }
    }
}

// A method that would turn nothing at the model's head width refuses it, naming what it needs:
// rope_partial below head width 8 (a quarter, rounded down to even, holds no pair), p_rope at 2.
TEST(Transformer, PartialMethodsRefuseHeadsTooNarrowToTurnAnything) {
    const auto refusal = [](PositionalKind kind, int d_model, int heads) {
        TransformerConfig c;
        c.d_model = d_model;
        c.heads = heads;
        c.positional = kind;
        try {
            validate_transformer_config(c);
            return std::string();
        } catch (const InvalidArgument& error) {
            return std::string(error.what());
        }
    };
    EXPECT_NE(refusal(PositionalKind::RopePartial, 16, 4).find("none at head width 4"),
              std::string::npos);
    EXPECT_EQ(refusal(PositionalKind::RopePartial, 16, 2), "");
    EXPECT_NE(refusal(PositionalKind::PRope, 16, 8).find("none at head width 2"),
              std::string::npos);
    EXPECT_EQ(refusal(PositionalKind::PRope, 16, 4), "");
}

// irope's pattern: layers nope_every, 2·nope_every, … (from 1) attend without positions, in
// irope only; a period of 1 (every layer: none) or past the layers (no layer: rope) is refused.
TEST(Transformer, IropeLeavesEveryNthLayerWithoutPositions) {
    for (int layers = 1; layers <= 8; ++layers)
        for (int every = 2; every <= 8; ++every) {
            TransformerConfig c;
            c.layers = layers;
            c.options.nope_every = every;
            c.positional = PositionalKind::Irope;
            if (every > layers) {
                EXPECT_THROW(validate_transformer_config(c), InvalidArgument) << layers << every;
                continue;
            }
            validate_transformer_config(c);
            int without = 0;
            for (int l = 0; l < layers; ++l) {
                const bool expected = (l + 1) % every == 0; // layers every, 2·every, … from 1
                EXPECT_EQ(layer_without_positions(c, l), expected) << layers << " " << every;
                without += expected;
                c.positional = PositionalKind::Rope;
                EXPECT_FALSE(layer_without_positions(c, l));
                c.positional = PositionalKind::Irope;
            }
            EXPECT_EQ(without, layers / every);
        }
    TransformerConfig c;
    c.positional = PositionalKind::Irope;
    c.options.nope_every = 1;
    try {
        validate_transformer_config(c);
        ADD_FAILURE() << "nope_every 1 accepted";
    } catch (const InvalidArgument& error) {
        EXPECT_NE(std::string(error.what()).find("at least 2"), std::string::npos);
    }
    c.options.nope_every = 2;
    c.layers = 1;
    try {
        validate_transformer_config(c);
        ADD_FAILURE() << "one layer accepted";
    } catch (const InvalidArgument& error) {
        EXPECT_NE(std::string(error.what()).find("has none of them"), std::string::npos)
            << error.what();
    }
}

// Layers with positions are rope's very layers: the same seed gives the same weights (irope
// owns none), so layer 1's attention is rope's bit for bit; layer 2, without positions, is not.
TEST(Transformer, IropeLayersWithPositionsAreRopes) {
    TransformerConfig c = TinyConfig(PositionalKind::Irope, false);
    const TinyTransformer<double> irope(c, 3);
    c.positional = PositionalKind::Rope;
    const TinyTransformer<double> rope(c, 3);
    ASSERT_EQ(irope.parameters(), rope.parameters());
    const std::vector<int> tokens = {1, 2, 3, 1, 2};
    EXPECT_EQ(irope.attention(tokens, 0, 1), rope.attention(tokens, 0, 1));
    EXPECT_NE(irope.attention(tokens, 1, 1), rope.attention(tokens, 1, 1));
}

// Untrained loss: with every logit nearly equal the mean cross-entropy is close to ln(vocab);
// the causal mask: a query's weights on later keys are exactly 0 and each row sums to 1.
TEST(Transformer, CausalMaskAndStartingLoss) {
    const TinyTransformer<double> model(TinyConfig(PositionalKind::Rope, true), 5);
    const std::vector<double> weights = model.attention({1, 2, 3, 4, 0}, 1, 1);
    for (int i = 0; i < 5; ++i) {
        double sum = 0;
        for (int j = 0; j < 5; ++j) {
            sum += weights[i * 5 + j];
            if (j > i) {
                EXPECT_EQ(weights[i * 5 + j], 0.0) << i << ", " << j;
            }
        }
        EXPECT_NEAR(sum, 1.0, 1e-12);
    }
    const double loss = model.loss(TinyBatch());
    EXPECT_GT(loss, 0.5 * std::log(5.0));
    EXPECT_LT(loss, 3.0 * std::log(5.0));
}

// The learned table's hard edge: rows past the longest sequence seen get no gradient at all,
// so training never moves them.
TEST(Transformer, LearnedRowsPastTheTrainedLengthGetNoGradient) {
    const TinyTransformer<double> model(TinyConfig(PositionalKind::Learned, false), 5);
    std::vector<double> gradient;
    model.loss(TinyBatch(), &gradient); // length 5 of max_len 7
    const ParameterSlot& table = model.slot("learned.table");
    for (int row = 0; row < 7; ++row) {
        double norm = 0;
        for (int k = 0; k < table.cols; ++k)
            norm += std::abs(gradient[table.offset + row * table.cols + k]);
        if (row < 5) {
            EXPECT_GT(norm, 0.0) << row;
        } else {
            EXPECT_EQ(norm, 0.0) << row;
        }
    }
}

// Bad batches and configurations are refused with a message naming the problem.
TEST(Transformer, RefusesWhatDoesNotFit) {
    TinyTransformer<float> model(TinyConfig(PositionalKind::Sinusoidal, false), 1);
    TokenBatch batch = TinyBatch();
    batch.tokens[3] = 5;
    EXPECT_THROW(model.loss(batch), InvalidArgument);
    batch = TinyBatch();
    batch.length = 8;
    EXPECT_THROW(model.loss(batch), InvalidArgument);
    TransformerConfig odd = TinyConfig(PositionalKind::Rope, false);
    odd.heads = 3;
    EXPECT_THROW(TinyTransformer<float>(odd, 1), InvalidArgument);
    EXPECT_THROW(positional_kind_from_name("rotary"), InvalidArgument);
    EXPECT_EQ(positional_kind_from_name("alibi"), PositionalKind::Alibi);
}

// AdamW against the update rule (torch.optim.AdamW's documentation), computed here for two
// steps on two parameters, with decoupled weight decay and no clipping.
TEST(Transformer, AdamWFollowsItsUpdateRule) {
    AdamWOptions options;
    options.learning_rate = 0.1;
    options.weight_decay = 0.5;
    options.clip_norm = 0;
    AdamW<double> adam(2, options);
    std::vector<double> p = {1.0, -2.0};
    std::vector<double> g = {0.5, 0.25};
    adam.step(p, g);
    // Step 1: m = 0.1 g, v = 0.001 g², m̂ = g, v̂ = g²: p ← p(1 − lr·wd) − lr·g/(|g| + ε).
    EXPECT_NEAR(p[0], 1.0 * 0.95 - 0.1 * 0.5 / (0.5 + 1e-8), 1e-15);
    EXPECT_NEAR(p[1], -2.0 * 0.95 - 0.1 * 0.25 / (0.25 + 1e-8), 1e-15);
    const double p0 = p[0];
    g = {-1.0, 0.25};
    adam.step(p, g);
    const double m = 0.9 * 0.05 + 0.1 * -1.0, v = 0.999 * 0.00025 + 0.001 * 1.0;
    const double expected =
        p0 * 0.95 - 0.1 * (m / (1 - 0.81)) / (std::sqrt(v / (1 - 0.998001)) + 1e-8);
    EXPECT_NEAR(p[0], expected, 1e-14);
    // Clipping: a gradient of norm 5 clipped to 1 moves as one of norm 1 would.
    AdamWOptions clipped;
    clipped.clip_norm = 1.0;
    AdamW<double> adam_clipped(2, clipped);
    std::vector<double> q = {0, 0}, big = {3, 4};
    EXPECT_NEAR(adam_clipped.step(q, big), 5.0, 1e-15);
    EXPECT_NEAR(big[0], 0.6, 1e-6);
    EXPECT_NEAR(big[1], 0.8, 1e-6);
}

// The parameter counts the README and docs/train.md state for the lab's default model (vocab
// 16, d 64, 2 layers, 4 heads, MLP 4×, test length 64), counted here from the shapes: the
// embedding 16·64, per layer 2·(2·64) LayerNorms + (3·64·64 + 3·64) + (64·64 + 64) +
// (256·64 + 256) + (64·256 + 64), the final LayerNorm 2·64, the head 16·64 + 16: 102 160; the
// learned table adds 64·64 = 4 096, T5's biases 32 buckets × 4 heads = 128 and CoPE's table
// (64 + 1 counted positions, 0 … 64) × 16 (the head width) = 1 040, KERPLE's r₁ and r₂ of 4
// heads 8, FIRE's MLP (1 → 32 → 4 heads: 32 + 32 + 128, no output bias) with its c and L 194.
TEST(Transformer, TheDefaultModelHasTheDocumentedParameterCounts) {
    const int layer =
        2 * 2 * 64 + (3 * 64 * 64 + 3 * 64) + (64 * 64 + 64) + (256 * 64 + 256) + (64 * 256 + 64);
    const std::size_t shared = 16 * 64 + 2 * layer + 2 * 64 + (16 * 64 + 16);
    ASSERT_EQ(shared, 102160u);
    // Past the shared tensors, exactly the tensors the method's row declares, in its order (the
    // PyTorch reference reads each by name and shape: tests/reference/torch_transformer.py).
    for (const PositionalKind kind : positional_kinds()) {
        TransformerConfig c;
        c.max_len = 64;
        c.t5_buckets = 32;
        c.positional = kind;
        c.causal = positional_kind_causal_only(kind);
        const TinyTransformer<float> model(c, 1);
        const std::vector<trainer::OwnParameter> own = trainer::MethodFor(kind).own_parameters(c);
        std::size_t own_count = 0;
        std::vector<std::string> owned;
        for (const trainer::OwnParameter& tensor : own) {
            own_count += static_cast<std::size_t>(tensor.rows) * tensor.cols;
            owned.push_back(tensor.name);
            const ParameterSlot& slot = model.slot(tensor.name);
            EXPECT_GE(slot.offset, shared) << tensor.name;
            EXPECT_EQ(slot.rows, tensor.rows) << tensor.name;
            EXPECT_EQ(slot.cols, tensor.cols) << tensor.name;
        }
        std::vector<std::string> found;
        for (const ParameterSlot& slot : model.slots())
            if (OwnedByMethod(slot, kind)) found.push_back(slot.name);
        EXPECT_EQ(found, owned) << positional_kind_name(kind);
        EXPECT_EQ(model.parameters().size(), shared + own_count) << positional_kind_name(kind);
    }
}

// The first-token share of an attention map (pelab/training/train.h), on maps written out here: a
// head that parks everything on key 0, one that spreads evenly, and the causal even share (1/2 +
// 1/3 + 1/4)/3 for queries 1 … 3.
TEST(FirstTokenShare, IsTheMeanWeightOnKeyZeroAgainstAnEvenSpread) {
    const int n = 4;
    std::vector<double> sink(n * n, 0.0), spread(n * n, 0.25), causal_even(n * n, 0.0);
    for (int i = 0; i < n; ++i) {
        sink[static_cast<std::size_t>(i) * n] = 1.0;
        for (int j = 0; j <= i; ++j)
            causal_even[static_cast<std::size_t>(i) * n + j] = 1.0 / (i + 1);
    }
    const FirstTokenShare parked = first_token_share(sink, n, true);
    EXPECT_DOUBLE_EQ(parked.share, 1.0);
    EXPECT_DOUBLE_EQ(parked.even, (1.0 / 2 + 1.0 / 3 + 1.0 / 4) / 3);
    const FirstTokenShare even = first_token_share(causal_even, n, true);
    EXPECT_DOUBLE_EQ(even.share, even.even);
    const FirstTokenShare bidirectional = first_token_share(spread, n, false);
    EXPECT_DOUBLE_EQ(bidirectional.share, 0.25);
    EXPECT_DOUBLE_EQ(bidirectional.even, 0.25);
    EXPECT_THROW(first_token_share({1.0}, 1, true), InvalidArgument);
    EXPECT_THROW(first_token_share(sink, 3, true), InvalidArgument);
}
