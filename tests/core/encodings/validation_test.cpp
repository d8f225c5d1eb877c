// Every contract in the core headers: bad input throws InvalidArgument naming the value and
// the allowed range, and nothing is computed.
#include "pelab/encodings/attention.h"
#include "pelab/base/error.h"
#include "pelab/encodings/rotation.h"
#include "pelab/encodings/similarity.h"
#include "pelab/encodings/sinusoidal.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>

using namespace pelab;

namespace {
// Runs call, expects InvalidArgument whose message contains every one of `mentions`.
void ExpectRejected(const std::function<void()>& call,
                    std::initializer_list<const char*> mentions) {
    try {
        call();
        ADD_FAILURE() << "no error for bad input";
    } catch (const InvalidArgument& e) {
        for (const char* word : mentions)
            EXPECT_NE(std::string(e.what()).find(word), std::string::npos)
                << "message \"" << e.what() << "\" should mention \"" << word << "\"";
    }
}
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();
} // namespace

TEST(Validation, OddDModelExplainsPairs) {
    ExpectRejected([] { pe_vector(1, 7, 10000); }, {"d_model", "even", "got 7", "pairs"});
}

TEST(Validation, DModelOutOfRange) {
    for (int d : {0, -2, 32768})
        ExpectRejected([d] { frequencies(d, 10000); }, {"d_model", "[2, 16384]"});
}

TEST(Validation, BaseMustExceedOneAndBeFinite) {
    for (double base : {1.0, 0.5, -3.0, kNaN, kInf})
        ExpectRejected([base] { omega(0, 8, base); }, {"base", "> 1"});
    // Too large is said as such, not with the reason for a base of 1 or less.
    ExpectRejected([] { omega(0, 8, 1e13); }, {"base", "at most 1e+12", "got 1e+13"});
    try {
        omega(0, 8, 1e13);
    } catch (const std::exception& e) {
        EXPECT_EQ(std::string(e.what()).find("same speed"), std::string::npos) << e.what();
    }
}

TEST(Validation, PositionsMustBeFiniteAndNonNegative) {
    for (double pos : {-1.0, kNaN, kInf, 2e9})
        ExpectRejected([pos] { pe_vector(pos, 8, 10000); }, {"position", "[0, "});
    ExpectRejected([] { compare_positions(3, -5, 8, 10000); }, {"position", "got -5"});
}

TEST(Validation, PairAndDimensionIndices) {
    ExpectRejected([] { denominator(256, 512, 10000); }, {"pair index", "[0, 255]"});
    ExpectRejected([] { denominator(-1, 512, 10000); }, {"pair index"});
    ExpectRejected([] { pe_value(0, 8, 8, 10000); }, {"dimension", "[0, 7]"});
}

TEST(Validation, MatrixSizeIsBounded) {
    ExpectRejected([] { pe_matrix(0, 8, 10000); }, {"max_len", "got 0"});
    ExpectRejected([] { pe_matrix(1 << 20, 512, 10000); }, {"2^28"});
}

TEST(Validation, RotationOffsetMustKeepPositionValid) {
    ExpectRejected([] { rotation_residual(3, -5, 8, 10000); }, {"position"});
    ExpectRejected([] { rotation_matrix(0, kNaN, 8, 10000); }, {"offset"});
}

TEST(Validation, AttentionOptions) {
    OrderDemoOptions options;
    options.positional.pe_scale = -1;
    ExpectRejected([&] { run_order_demo("a b", "b a", options); }, {"pe_scale", "[0, 1000]"});
    options.positional.pe_scale = kNaN;
    ExpectRejected([&] { run_order_demo("a b", "b a", options); }, {"pe_scale"});
    OrderDemoOptions odd;
    odd.d_model = 5;
    ExpectRejected([&] { run_order_demo("a b", "b a", odd); }, {"d_model"});
    OrderDemoOptions tiny;
    tiny.d_model = 2;
    ExpectRejected([&] { run_order_demo("a b c", "c b a", tiny); }, {"distinct words", "3"});
}

TEST(Validation, PermutationMustBeABijection) {
    Matrix e(3, 4);
    ExpectRejected([&] { equivariance_residual(e, {0, 0, 1}, {}); }, {"permutation"});
    ExpectRejected([&] { equivariance_residual(e, {0, 1}, {}); }, {"permutation"});
    ExpectRejected([&] { equivariance_residual(e, {0, 1, 3}, {}); }, {"permutation"});
}

TEST(Validation, SimilarityMatrixSize) {
    ExpectRejected([] { similarity_matrix(0, 0, 8, 10000); }, {"[1, 4096]"});
    ExpectRejected([] { similarity_matrix(0, 5000, 8, 10000); }, {"[1, 4096]"});
}
