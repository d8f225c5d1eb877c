// pelab/models/rope_tables.h and rope_check.h: the dtype roundings against the formats' own
// definitions (IEEE 754 binary16; bfloat16 = float32's top 16 bits), the layer specs a config
// gives, and the dump reader on files of every shape and type people save. The tables' numbers
// are checked against transformers itself (PyTorch) and a NumPy port of it by
// tests/models/check_rope_tables.py, the causes by tests/models/check_rope_check.py.
#include "pelab/models/rope_check.h"
#include "pelab/models/rope_tables.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <string>

namespace pelab {
namespace {

TEST(DtypeRounding, BfloatBitsAreTheFormatsOwn) {
    // bfloat16: sign, 8 exponent bits (bias 127), 7 fraction bits.
    EXPECT_EQ(bf16_bits(round_to_dtype(1.0, TableDtype::BF16)), 0x3F80);
    EXPECT_EQ(bf16_bits(round_to_dtype(-2.0, TableDtype::BF16)), 0xC000);
    // π = 1.5707…·2: fraction 0.5707… · 128 = 73.05 → 73 = 0x49.
    EXPECT_EQ(bf16_bits(round_to_dtype(3.14159265358979, TableDtype::BF16)), 0x4049);
    // Ties go to the even neighbour: 1 + 2⁻⁸ is halfway between 1 and 1 + 2⁻⁷.
    EXPECT_EQ(round_to_dtype(1 + std::ldexp(1, -8), TableDtype::BF16), 1.0);
    EXPECT_EQ(round_to_dtype(1 + 3 * std::ldexp(1, -8), TableDtype::BF16), 1 + std::ldexp(1, -6));
    EXPECT_EQ(bf16_from_bits(0x3F81), 1 + std::ldexp(1, -7));
    EXPECT_TRUE(std::isinf(round_to_dtype(std::ldexp(1.0, 128), TableDtype::BF16)));
}

TEST(DtypeRounding, HalfBitsAreTheFormatsOwn) {
    EXPECT_EQ(f16_bits(round_to_dtype(1.0, TableDtype::F16)), 0x3C00);
    EXPECT_EQ(f16_bits(round_to_dtype(65504.0, TableDtype::F16)), 0x7BFF); // the largest
    EXPECT_EQ(f16_bits(round_to_dtype(1.0 / 3, TableDtype::F16)), 0x3555);
    EXPECT_EQ(f16_bits(round_to_dtype(std::ldexp(1.0, -24), TableDtype::F16)), 0x0001);
    EXPECT_EQ(f16_bits(round_to_dtype(-std::ldexp(1.0, -14), TableDtype::F16)), 0x8400);
    // 65520 is halfway between 65504 and 65536 (not a half number): rounds to 65536, ∞.
    EXPECT_TRUE(std::isinf(round_to_dtype(65520.0, TableDtype::F16)));
    EXPECT_EQ(round_to_dtype(65519.0, TableDtype::F16), 65504.0);
    for (unsigned bits : {0x0001u, 0x03FFu, 0x0400u, 0x3555u, 0x7BFFu, 0xC000u})
        EXPECT_EQ(f16_bits(f16_from_bits(static_cast<std::uint16_t>(bits))), bits);
    EXPECT_EQ(round_to_dtype(0.1, TableDtype::F32), static_cast<double>(0.1f));
}

CheckpointConfig Config(const std::string& text) {
    CheckpointConfig config;
    EXPECT_TRUE(ReadModelConfig(nlohmann::json::parse(text), &config).ok());
    return config;
}

TEST(RopeTableSpec, SaysWhichLayersRotate) {
    // Llama 4: every fourth layer without RoPE (no_rope_layers' default).
    const CheckpointConfig llama4 =
        Config(R"({"model_type": "llama4_text", "hidden_size": 512, "num_attention_heads": 4,
                   "num_hidden_layers": 8, "max_position_embeddings": 4096,
                   "rope_theta": 500000})");
    RopeTableSpec spec;
    const Status nope = rope_table_spec(llama4, 3, &spec);
    ASSERT_FALSE(nope.ok());
    EXPECT_NE(nope.message().find("layer 3 has no RoPE"), std::string::npos) << nope.message();
    EXPECT_NE(nope.message().find("the layers without RoPE are 3, 7 (2 of 8)"), std::string::npos)
        << nope.message();
    EXPECT_NE(rope_table_spec(llama4, 8, &spec).message().find("layers 0 to 7"), std::string::npos);
    ASSERT_TRUE(rope_table_spec(llama4, 2, &spec).ok());
    EXPECT_EQ(spec.rotary_dims, 128);
    EXPECT_EQ(spec.pairing, RotaryPairing::Interleaved);
    EXPECT_EQ(spec.base, 500000);
}

TEST(RopeTables, DefaultFrequenciesAndLayouts) {
    RopeTableSpec spec;
    spec.base = 10000;
    spec.rotary_dims = spec.frequency_dims = spec.head_dim = 4;
    const RopeFrequencies ideal = rope_inv_freq(spec, 16, RopeReference::Ideal);
    ASSERT_EQ(ideal.inv_freq.size(), 2u);
    EXPECT_EQ(ideal.inv_freq[0], 1.0);
    EXPECT_DOUBLE_EQ(ideal.inv_freq[1], 0.01); // 10000^(−2/4)
    double row[4];
    rope_table_rows(ideal, RopeReference::Ideal, RopeTableKind::Angles, 3, 1,
                    TableLayout::HalfSplit, TableDtype::F64, row);
    EXPECT_DOUBLE_EQ(row[0], 3);
    EXPECT_DOUBLE_EQ(row[1], 0.03);
    EXPECT_DOUBLE_EQ(row[2], 3);
    rope_table_rows(ideal, RopeReference::Ideal, RopeTableKind::Angles, 3, 1,
                    TableLayout::Interleaved, TableDtype::F64, row);
    EXPECT_DOUBLE_EQ(row[1], 3);
    EXPECT_DOUBLE_EQ(row[2], 0.03);
}

// An .npy file of the given header dict and raw data bytes.
std::string WriteNpy(const std::string& name, const std::string& dict, const std::string& data) {
    std::string path = ::testing::TempDir() + name;
    std::string header = dict;
    while ((10 + header.size() + 1) % 64 != 0)
        header += ' ';
    header += '\n';
    std::ofstream out(path, std::ios::binary);
    out << "\x93NUMPY" << '\x01' << '\x00' << static_cast<char>(header.size() & 0xFF)
        << static_cast<char>(header.size() >> 8) << header << data;
    return path;
}

TEST(RopeDumps, ReadsTheShapesAndTypesPeopleSave) {
    // PyTorch's cache shape [1, 1, positions, dims], float32.
    std::string data;
    for (float value : {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f}) {
        char bytes[4];
        std::memcpy(bytes, &value, 4);
        data.append(bytes, 4);
    }
    RopeDump dump;
    const std::string cache = WriteNpy(
        "cache.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 3, 2), }", data);
    ASSERT_TRUE(open_rope_dump(cache, false, &dump).ok());
    EXPECT_EQ(dump.rows, 3);
    EXPECT_EQ(dump.width, 2);
    std::vector<double> rows;
    ASSERT_TRUE(read_rope_dump_rows(dump, 1, 2, &rows).ok());
    EXPECT_EQ(rows, (std::vector<double>{3, 4, 5, 6}));
    // bfloat16 as '<u2' bits: only with bf16 asked for.
    const std::string bits =
        WriteNpy("bits.npy", "{'descr': '<u2', 'fortran_order': False, 'shape': (2,), }",
                 std::string("\x80\x3F\x00\xC0", 4));
    EXPECT_NE(open_rope_dump(bits, false, &dump).message().find("--dtype bf16"), std::string::npos);
    ASSERT_TRUE(open_rope_dump(bits, true, &dump).ok());
    ASSERT_TRUE(read_rope_dump_rows(dump, 0, 1, &rows).ok());
    EXPECT_EQ(rows, (std::vector<double>{1.0, -2.0}));
    EXPECT_TRUE(dump.one_dimensional);
    // Only leading dimensions of 1 are dropped: [1, 3, 2] is [3, 2]; [3, 1, 2] stays 3-D.
    const std::string leading = WriteNpy(
        "leading.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 2), }", data);
    ASSERT_TRUE(open_rope_dump(leading, false, &dump).ok());
    EXPECT_EQ(dump.rows, 3);
    const std::string batch = WriteNpy(
        "batch.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 1, 2), }", data);
    EXPECT_FALSE(open_rope_dump(batch, false, &dump).ok());
    // A batch of several sequences, a Fortran-order table: refused with what to do.
    const std::string three =
        WriteNpy("three.npy", "{'descr': '<f2', 'fortran_order': False, 'shape': (3, 2, 2), }",
                 std::string(24, '\0'));
    EXPECT_NE(open_rope_dump(three, false, &dump).message().find("save one of them"),
              std::string::npos);
    const std::string fortran =
        WriteNpy("fortran.npy", "{'descr': '<f4', 'fortran_order': True, 'shape': (3, 2), }", data);
    EXPECT_NE(open_rope_dump(fortran, false, &dump).message().find("ascontiguousarray"),
              std::string::npos);
}

} // namespace
} // namespace pelab
