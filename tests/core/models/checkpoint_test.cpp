// The checkpoint readers (pelab/models/checkpoint.h), config.json's position settings
// (pelab/models/model_config.h) and the families' rotary conventions
// (pelab/models/model_positions.h). Files are written here byte by byte; every malformed one must
// give one message naming what is wrong, never a crash. The numbers of whole fixtures are checked
// against NumPy in tests/models/check_inspect.py.
#include "pelab/base/error.h"
#include "pelab/models/checkpoint.h"
#include "pelab/models/layer_schedule.h"
#include "pelab/models/model_config.h"
#include "pelab/models/model_positions.h"
#include "pelab/models/table_analysis.h"
#include "pelab/models/table_offsets.h"
#include "status_text.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace pelab {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class CheckpointFiles : public ::testing::Test {
protected:
    void SetUp() override {
        folder_ = fs::temp_directory_path() /
                  ("pelab-checkpoint-" +
                   std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(folder_);
    }
    void TearDown() override { fs::remove_all(folder_); }

    std::string Write(const std::string& name, const std::string& bytes) {
        std::string path = (folder_ / name).string();
        std::ofstream(path, std::ios::binary) << bytes;
        return path;
    }
    // A safetensors file of the header text and data bytes given.
    std::string Safetensors(const std::string& name, const std::string& header,
                            const std::string& data) {
        std::string bytes(8, '\0');
        std::uint64_t length = header.size();
        for (int i = 0; i < 8; ++i)
            bytes[i] = static_cast<char>((length >> (8 * i)) & 0xff);
        return Write(name, bytes + header + data);
    }
    static std::string Floats(const std::vector<float>& values) {
        std::string bytes(values.size() * 4, '\0');
        std::memcpy(bytes.data(), values.data(), bytes.size());
        return bytes;
    }
    std::string Open(const std::string& path) {
        Checkpoint checkpoint;
        return checkpoint.Open(path).message();
    }

    fs::path folder_;
};

TEST(HalfFloats, WidenExactlyWithSubnormalsKept) {
    // float16: 1 sign, 5 exponent, 10 mantissa bits (IEEE 754 binary16).
    EXPECT_EQ(HalfToFloat(0x3c00), 1.0f);
    EXPECT_EQ(HalfToFloat(0xc000), -2.0f);
    EXPECT_EQ(HalfToFloat(0x7bff), 65504.0f);                 // the largest
    EXPECT_EQ(HalfToFloat(0x0001), std::ldexp(1.0f, -24));    // the smallest subnormal
    EXPECT_EQ(HalfToFloat(0x03ff), std::ldexp(1023.0f, -24)); // the largest subnormal
    EXPECT_EQ(HalfToFloat(0x0400), std::ldexp(1.0f, -14));    // the smallest normal
    EXPECT_TRUE(std::isinf(HalfToFloat(0xfc00)));
    EXPECT_TRUE(std::isnan(HalfToFloat(0x7e00)));
    // bfloat16 is a float's upper half: 0x3f80 is 1, 0x4049 is 3.140625.
    EXPECT_EQ(BfloatToFloat(0x3f80), 1.0f);
    EXPECT_EQ(BfloatToFloat(0x4049), 3.140625f);
    EXPECT_EQ(BfloatToFloat(0x0001), std::ldexp(1.0f, -133));
}

TEST(EightBitFloats, WidenAsTheOcpSpecificationTabulatesThem) {
    // OCP 8-bit Floating Point Specification (OFP8) rev. 1.0, table 1: E4M3's largest normal
    // S.1111.110 = 448, smallest normal S.0001.000 = 2^−6, smallest subnormal S.0000.001 = 2^−9,
    // S.1111.111 NaN and no infinities; E5M2's largest normal S.11110.11 = 57 344, smallest
    // normal 2^−14, smallest subnormal 2^−16, S.11111.00 infinite, S.11111.{01,10,11} NaN.
    EXPECT_EQ(Float8ToFloat(0x38, TensorType::F8E4M3), 1.0f);
    EXPECT_EQ(Float8ToFloat(0x7e, TensorType::F8E4M3), 448.0f);
    EXPECT_EQ(Float8ToFloat(0xfe, TensorType::F8E4M3), -448.0f);
    EXPECT_EQ(Float8ToFloat(0x08, TensorType::F8E4M3), std::ldexp(1.0f, -6));
    EXPECT_EQ(Float8ToFloat(0x07, TensorType::F8E4M3), std::ldexp(7.0f, -9));
    EXPECT_EQ(Float8ToFloat(0x01, TensorType::F8E4M3), std::ldexp(1.0f, -9));
    EXPECT_EQ(Float8ToFloat(0x78, TensorType::F8E4M3), 256.0f); // 1.000 · 2^8: not infinite
    EXPECT_TRUE(std::isnan(Float8ToFloat(0x7f, TensorType::F8E4M3)));
    EXPECT_TRUE(std::isnan(Float8ToFloat(0xff, TensorType::F8E4M3)));
    EXPECT_EQ(Float8ToFloat(0x3c, TensorType::F8E5M2), 1.0f);
    EXPECT_EQ(Float8ToFloat(0x7b, TensorType::F8E5M2), 57344.0f);
    EXPECT_EQ(Float8ToFloat(0x04, TensorType::F8E5M2), std::ldexp(1.0f, -14));
    EXPECT_EQ(Float8ToFloat(0x01, TensorType::F8E5M2), std::ldexp(1.0f, -16));
    EXPECT_EQ(Float8ToFloat(0xc0, TensorType::F8E5M2), -2.0f);
    EXPECT_TRUE(std::isinf(Float8ToFloat(0x7c, TensorType::F8E5M2)));
    EXPECT_TRUE(std::isnan(Float8ToFloat(0x7d, TensorType::F8E5M2)));
    // E8M0 (OCP Microscaling Formats v1.0, §5.4): 2^(e − 127), 0xFF NaN, no sign and no zero.
    EXPECT_EQ(Float8ToFloat(0x7f, TensorType::F8E8M0), 1.0f);
    EXPECT_EQ(Float8ToFloat(0x80, TensorType::F8E8M0), 2.0f);
    EXPECT_EQ(Float8ToFloat(0x00, TensorType::F8E8M0), std::ldexp(1.0f, -127));
    EXPECT_EQ(Float8ToFloat(0xfe, TensorType::F8E8M0), std::ldexp(1.0f, 127));
    EXPECT_TRUE(std::isnan(Float8ToFloat(0xff, TensorType::F8E8M0)));
}

TEST_F(CheckpointFiles, BlockScaledEightBitWeightsAreMultipliedByTheirBlocksScale) {
    // A 3 × 5 F8_E4M3 weight of ones (0x38) in 2 × 2 blocks: a 2 × 3 grid of scales whose last
    // row and column cover partial blocks. Row r's sum of squares is Σ_c s(r/2, c/2)².
    const std::string weight(15, '\x38');
    const std::vector<float> scale = {1, 2, 3, 0.5f, 4, 10};
    const json header = {
        {"w", {{"dtype", "F8_E4M3"}, {"shape", {3, 5}}, {"data_offsets", {0, 15}}}},
        {"w_scale_inv", {{"dtype", "F32"}, {"shape", {2, 3}}, {"data_offsets", {15, 39}}}},
        {"e8", {{"dtype", "F8_E8M0"}, {"shape", {2, 3}}, {"data_offsets", {39, 45}}}},
        {"bad", {{"dtype", "F8_E4M3"}, {"shape", {1}}, {"data_offsets", {45, 46}}}}};
    const std::string path =
        Safetensors("fp8.safetensors", header.dump(),
                    weight + Floats(scale) + "\x7f\x80\x81\x7e\x83\x7f" + "\x7f");
    Checkpoint checkpoint;
    ASSERT_EQ(checkpoint.Open(path), "");
    Status error;
    const TensorInfo* w = checkpoint.Find("w", &error);
    const TensorInfo* s = checkpoint.Find("w_scale_inv", &error);
    ASSERT_TRUE(w && s);
    std::vector<double> squares;
    ASSERT_EQ(checkpoint.RowSquares(*w, BlockScales{s, 2, 2}, &squares), "");
    // Rows 0 and 1: 2·1² + 2·2² + 1·3² = 19; row 2: 2·0.25 + 2·16 + 100 = 132.5.
    EXPECT_EQ(squares, (std::vector<double>{19, 19, 132.5}));
    ASSERT_EQ(checkpoint.RowSquares(*w, &squares), "");
    EXPECT_EQ(squares, (std::vector<double>{5, 5, 5}));
    // E8M0 scales 1, 2, 4 / 0.5, 16, 1: rows 0–1 2·1 + 2·4 + 16 = 26; row 2 0.5 + 512 + 1.
    const TensorInfo* e8 = checkpoint.Find("e8", &error);
    ASSERT_EQ(checkpoint.RowSquares(*w, BlockScales{e8, 2, 2}, &squares), "");
    EXPECT_EQ(squares, (std::vector<double>{26, 26, 513.5}));
    // The grid must match the blocks; a NaN code is refused with its index.
    EXPECT_NE(
        checkpoint.RowSquares(*w, BlockScales{s, 3, 2}, &squares).message().find("should be 1 × 3"),
        std::string::npos);
    EXPECT_NE(checkpoint.RowSquares(*w, BlockScales{s, 0, 0}, &squares)
                  .message()
                  .find("weight_block_size"),
              std::string::npos);
    std::vector<float> values;
    EXPECT_NE(checkpoint.ReadFloats(*checkpoint.Find("bad", &error), &values)
                  .message()
                  .find("element 0 is NaN"),
              std::string::npos);
}

TEST_F(CheckpointFiles, ReadsTensorsOfEachFloatTypeAndSkipsIntegers) {
    // F32 [2, 2] at 0, F16 [2] at 16, BF16 [1] at 20, I64 [1] at 22, F64 [1] at 30: the F64's
    // data starts at an odd offset (unaligned), as real files may have it.
    std::string data = Floats({1.5f, -2.0f, 0.25f, 8.0f});
    data += std::string("\x00\x3c\x00\xc0", 4);                 // F16 1, −2
    data += std::string("\x49\x40", 2);                         // BF16 3.140625
    data += std::string("\x07\x00\x00\x00\x00\x00\x00\x00", 8); // I64 7
    const double wide = 0.1;
    std::string wide_bytes(8, '\0');
    std::memcpy(wide_bytes.data(), &wide, 8);
    data += wide_bytes;
    const json header = {{"a", {{"dtype", "F32"}, {"shape", {2, 2}}, {"data_offsets", {0, 16}}}},
                         {"b", {{"dtype", "F16"}, {"shape", {2}}, {"data_offsets", {16, 20}}}},
                         {"c", {{"dtype", "BF16"}, {"shape", {1}}, {"data_offsets", {20, 22}}}},
                         {"ids", {{"dtype", "I64"}, {"shape", {1}}, {"data_offsets", {22, 30}}}},
                         {"d", {{"dtype", "F64"}, {"shape", {1}}, {"data_offsets", {30, 38}}}},
                         {"__metadata__", {{"format", "pt"}}}};
    // One byte of padding before the header's end shifts every tensor by one: unaligned data.
    const std::string path = Safetensors("model.safetensors", header.dump() + " ", data);
    Checkpoint checkpoint;
    ASSERT_EQ(checkpoint.Open(path), "");
    EXPECT_EQ(checkpoint.Names().size(), 5u);
    Status error;
    std::vector<float> values;
    const TensorInfo* a = checkpoint.Find("a", &error);
    ASSERT_NE(a, nullptr);
    ASSERT_EQ(checkpoint.ReadFloats(*a, &values), "");
    EXPECT_EQ(values, (std::vector<float>{1.5f, -2.0f, 0.25f, 8.0f}));
    ASSERT_EQ(checkpoint.ReadFloats(*checkpoint.Find("b", &error), &values), "");
    EXPECT_EQ(values, (std::vector<float>{1.0f, -2.0f}));
    ASSERT_EQ(checkpoint.ReadFloats(*checkpoint.Find("c", &error), &values), "");
    EXPECT_EQ(values, (std::vector<float>{3.140625f}));
    ASSERT_EQ(checkpoint.ReadFloats(*checkpoint.Find("d", &error), &values), "");
    EXPECT_EQ(values, (std::vector<float>{0.1f}));
    const TensorInfo* ids = checkpoint.Find("ids", &error);
    ASSERT_NE(ids, nullptr);
    EXPECT_FALSE(ids->Readable());
    EXPECT_NE(checkpoint.ReadFloats(*ids, &values).message().find("I64"), std::string::npos);
}

TEST_F(CheckpointFiles, RefusesEachMalformedHeaderWithAMessageNamingIt) {
    const std::string data = Floats({1, 2, 3, 4});
    const auto entry = [](const char* dtype, json shape, json offsets) {
        return json{{"dtype", dtype}, {"shape", shape}, {"data_offsets", offsets}};
    };
    struct Case {
        std::string header;
        std::string expected; // a part of the message
    };
    const std::vector<Case> cases = {
        {"not json", "not valid JSON"},
        {"[1, 2]", "must be a JSON object"},
        {json{{"t", entry("F32", {4}, {0, 20})}}.dump(), "not within the 16 bytes"},
        {json{{"t", entry("F32", {3}, {0, 16})}}.dump(), "need 12 bytes"},
        {json{{"t", entry("F32", {2}, {0, 8})}, {"u", entry("F32", {2}, {4, 12})}}.dump(),
         "overlap"},
        {json{{"t", entry("F12", {4}, {0, 16})}}.dump(), "unknown dtype"},
        {json{{"t", entry("F32", {-4}, {0, 16})}}.dump(), "negative number"},
        {json{{"t", entry("F32", {4}, {16, 0})}}.dump(), "not within"},
        {json{{"t", entry("F32", {4}, {0})}}.dump(), "[begin, end]"},
        {json{{"t", {{"dtype", "F32"}, {"shape", {4}}}}}.dump(), "lacks data_offsets"},
        {json{{"t", {{"dtype", "F32"}, {"shape", {4}}, {"data_offsets", {0, 16}}, {"x", 1}}}}
             .dump(),
         "unknown field"},
        {R"({"t": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]},
             "t": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}})",
         "appears twice"},
        {json{{"t", entry("F32", {1, 1, 1, 1, 1, 1, 1, 1, 4}, {0, 16})}}.dump(),
         "more than 8 dimensions"},
        {json{{"t", entry("F32", {4}, {0, 16})}, {"__metadata__", {{"k", 1}}}}.dump(),
         "__metadata__"},
        {json{{"t", entry("F32", {4294967296, 4294967296, 4294967296}, {0, 16})}}.dump(),
         "more elements than any file"},
    };
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const std::string path =
            Safetensors("bad" + std::to_string(i) + ".safetensors", cases[i].header, data);
        const std::string error = Open(path);
        EXPECT_NE(error.find(cases[i].expected), std::string::npos)
            << "case " << i << ": " << error;
        EXPECT_NE(error.find("bad" + std::to_string(i)), std::string::npos) << error;
    }
}

TEST_F(CheckpointFiles, RefusesLengthsAndFilesThatCannotHoldAHeader) {
    EXPECT_NE(Open(Write("empty.safetensors", "")).find("shorter than its 8 length bytes"),
              std::string::npos);
    // A length past the file's end, and one past the 16 MiB limit (checked before reading).
    std::string beyond(8, '\0');
    beyond[0] = 100;
    EXPECT_NE(Open(Write("beyond.safetensors", beyond + "{}")).find("the file holds 2"),
              std::string::npos);
    std::string huge(8, '\0');
    huge[7] = 1; // 2⁵⁶ bytes
    EXPECT_NE(Open(Write("huge.safetensors", huge)).find("more than the 16 MiB"),
              std::string::npos);
    EXPECT_NE(Open((folder_ / "missing.safetensors").string()).find("No such file"),
              std::string::npos);
    EXPECT_NE(Open("/dev/zero").find("not a regular file"), std::string::npos);
    EXPECT_NE(Open(folder_.string()).find("holds neither model.safetensors"), std::string::npos);
}

// Reliability round 5: a checkpoint truncated while PE Lab held it open killed the process with
// SIGBUS (its pages were mapped). Opened, then truncated, then read: a message naming the file,
// the tensor and the shrinking, and no signal — deterministic, no race with a timer.
TEST_F(CheckpointFiles, AFileThatShrinksWhileOpenGivesAMessageNotASignal) {
    const std::vector<float> values(1 << 18, 0.5f); // 1 MiB of data
    const std::string path = Safetensors(
        "shrinks.safetensors",
        json({{"wpe.weight",
               {{"dtype", "F32"}, {"shape", {1024, 256}}, {"data_offsets", {0, 1 << 20}}}}})
            .dump(),
        Floats(values));
    Checkpoint checkpoint;
    ASSERT_EQ(checkpoint.Open(path), "");
    Status error;
    const TensorInfo* tensor = checkpoint.Find("wpe.weight", &error);
    ASSERT_NE(tensor, nullptr) << error;
    fs::resize_file(path, 1000);
    std::vector<float> read;
    error = checkpoint.ReadFloats(*tensor, &read);
    EXPECT_NE(error.message().find("shrinks.safetensors"), std::string::npos) << error;
    EXPECT_NE(error.message().find("wpe.weight"), std::string::npos) << error;
    EXPECT_NE(error.message().find("became shorter"), std::string::npos) << error;
    EXPECT_TRUE(read.empty());
    std::vector<double> squares;
    EXPECT_NE(checkpoint.RowSquares(*tensor, &squares).message().find("became shorter"),
              std::string::npos);
}

// A field or weight_map given twice would silently win over the first: refused (reliability
// round 5, as Rust's safetensors refuses it).
TEST_F(CheckpointFiles, RepeatedFieldsAreRefused) {
    const std::string data = Floats(std::vector<float>(12, 1.0f));
    for (
        const std::string header :
        {R"({"t": {"dtype": "F32", "shape": [3, 4], "shape": [4, 3], "data_offsets": [0, 48]}})",
         R"({"t": {"dtype": "F32", "shape": [3, 4], "data_offsets": [0, 48], "data_offsets": [0, 48]}})",
         R"({"t": {"dtype": "F32", "dtype": "F16", "shape": [3, 4], "data_offsets": [0, 48]}})"}) {
        const std::string error = Open(Safetensors("twice.safetensors", header, data));
        EXPECT_NE(error.find("appears twice"), std::string::npos) << error;
    }
    Safetensors("a.safetensors",
                R"({"t": {"dtype": "F32", "shape": [3, 4], "data_offsets": [0, 48]}})", data);
    const std::string index =
        Write("model.safetensors.index.json",
              R"({"weight_map": {"t": "a.safetensors"}, "weight_map": {"u": "a.safetensors"}})");
    EXPECT_NE(Open(index).find("appears twice"), std::string::npos) << Open(index);
}

TEST_F(CheckpointFiles, RefusesNonFiniteValuesWithTheirIndex) {
    const json header = {{"t", {{"dtype", "F16"}, {"shape", {3}}, {"data_offsets", {0, 6}}}}};
    const std::string path =
        Safetensors("inf.safetensors", header.dump(), std::string("\x00\x3c\x00\x7c\x00\x00", 6));
    Checkpoint checkpoint;
    ASSERT_EQ(checkpoint.Open(path), "");
    Status error;
    std::vector<float> values = {42};
    const std::string message =
        checkpoint.ReadFloats(*checkpoint.Find("t", &error), &values).message();
    EXPECT_NE(message.find("element 1 is infinite"), std::string::npos) << message;
    EXPECT_EQ(values, std::vector<float>{42}); // untouched on failure
}

TEST_F(CheckpointFiles, OpensOnlyTheShardsOfTheTensorsAskedFor) {
    const json one = {{"a", {{"dtype", "F32"}, {"shape", {2}}, {"data_offsets", {0, 8}}}}};
    const json two = {{"b", {{"dtype", "F32"}, {"shape", {2}}, {"data_offsets", {0, 8}}}}};
    Safetensors("part-1.safetensors", one.dump(), Floats({1, 2}));
    Safetensors("part-2.safetensors", two.dump(), Floats({3, 4}));
    const json index = {{"metadata", {{"total_size", 16}}},
                        {"weight_map", {{"a", "part-1.safetensors"}, {"b", "part-2.safetensors"}}}};
    const std::string path = Write("model.safetensors.index.json", index.dump());
    Checkpoint checkpoint;
    ASSERT_EQ(checkpoint.Open(folder_.string()), ""); // the folder: its index
    EXPECT_EQ(checkpoint.FormatName(), "safetensors (2 shards)");
    EXPECT_EQ(checkpoint.FilesOpened(), 0u);
    Status error;
    std::vector<float> values;
    ASSERT_EQ(checkpoint.ReadFloats(*checkpoint.Find("b", &error), &values), "");
    EXPECT_EQ(values, (std::vector<float>{3, 4}));
    EXPECT_EQ(checkpoint.FilesOpened(), 1u);

    // An index naming a shard that lacks the tensor, a missing shard, a path out of the folder.
    Write("model.safetensors.index.json",
          json{{"weight_map", {{"a", "part-2.safetensors"}}}}.dump());
    Checkpoint wrong;
    ASSERT_EQ(wrong.Open(path), "");
    EXPECT_EQ(wrong.Find("a", &error), nullptr);
    EXPECT_NE(error.message().find("does not hold it"), std::string::npos) << error;
    Write("model.safetensors.index.json", json{{"weight_map", {{"a", "gone.safetensors"}}}}.dump());
    Checkpoint gone;
    ASSERT_EQ(gone.Open(path), "");
    EXPECT_EQ(gone.Find("a", &error), nullptr);
    EXPECT_NE(error.message().find("No such file"), std::string::npos) << error;
    Write("model.safetensors.index.json",
          json{{"weight_map", {{"a", "../part-1.safetensors"}}}}.dump());
    EXPECT_NE(Open(path).find("must be a file name in the index's folder"), std::string::npos);
    Write("model.safetensors.index.json", json{{"metadata", {}}}.dump());
    EXPECT_NE(Open(path).find("no weight_map"), std::string::npos);
}

TEST_F(CheckpointFiles, ReadsNpyVersionsAndTransposesFortranOrder) {
    // NumPy's format: magic, version, header length, a dict literal padded to 64 bytes, data.
    const auto npy = [](int major, const std::string& dict, const std::string& data) {
        std::string header = dict;
        const std::size_t fixed = major == 1 ? 10 : 12;
        while ((fixed + header.size() + 1) % 64 != 0)
            header += ' ';
        header += '\n';
        std::string bytes = std::string("\x93NUMPY", 6) + static_cast<char>(major) + '\0';
        const std::size_t length = header.size();
        for (std::size_t i = 0; i < (major == 1 ? 2u : 4u); ++i)
            bytes += static_cast<char>((length >> (8 * i)) & 0xff);
        return bytes + header + data;
    };
    const std::string data = Floats({1, 2, 3, 4, 5, 6});
    for (int major : {1, 2, 3}) {
        const std::string path =
            Write("v" + std::to_string(major) + ".npy",
                  npy(major, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", data));
        Checkpoint checkpoint;
        ASSERT_EQ(checkpoint.Open(path), "") << major;
        Status error;
        const TensorInfo* table = checkpoint.Find("v" + std::to_string(major), &error);
        ASSERT_NE(table, nullptr);
        EXPECT_EQ(table->shape, (std::vector<std::int64_t>{2, 3}));
        std::vector<float> values;
        ASSERT_EQ(checkpoint.ReadFloats(*table, &values), "");
        EXPECT_EQ(values, (std::vector<float>{1, 2, 3, 4, 5, 6}));
    }
    // Column-major storage of [[1, 3, 5], [2, 4, 6]] read back row by row.
    const std::string fortran =
        Write("f.npy", npy(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", data));
    Checkpoint checkpoint;
    ASSERT_EQ(checkpoint.Open(fortran), "");
    Status error;
    std::vector<float> values;
    ASSERT_EQ(checkpoint.ReadFloats(*checkpoint.Find("f", &error), &values), "");
    EXPECT_EQ(values, (std::vector<float>{1, 3, 5, 2, 4, 6}));
    // Refusals.
    EXPECT_NE(Open(Write("big.npy", npy(1,
                                        "{'descr': '>f4', 'fortran_order': False, "
                                        "'shape': (6,), }",
                                        data)))
                  .find("big-endian"),
              std::string::npos);
    EXPECT_NE(Open(Write("int.npy", npy(1,
                                        "{'descr': '<i4', 'fortran_order': False, "
                                        "'shape': (6,), }",
                                        data)))
                  .find("not float16, float32 or float64"),
              std::string::npos);
    EXPECT_NE(Open(Write("short.npy", npy(1,
                                          "{'descr': '<f4', 'fortran_order': False, "
                                          "'shape': (7,), }",
                                          data)))
                  .find("need 28 bytes"),
              std::string::npos);
    EXPECT_NE(Open(Write("f3.npy", npy(1,
                                       "{'descr': '<f4', 'fortran_order': True, "
                                       "'shape': (1, 2, 3), }",
                                       data)))
                  .find("ascontiguousarray"),
              std::string::npos);
    EXPECT_NE(Open(Write("v9.npy", npy(9, "{}", data))).find("version 9"), std::string::npos);
    EXPECT_NE(Open(Write("junk.npy", npy(1, "{'descr': '<f4', 'shape': (6,), 'x': 1}", data)))
                  .find("unknown key"),
              std::string::npos);
}

TEST(ModelConfigReader, ReadsEachFamilysNamesAndRefusesWrongTypes) {
    CheckpointConfig gpt2;
    ASSERT_EQ(ReadModelConfig(json::parse(R"({"model_type": "gpt2", "n_positions": 1024,
        "n_embd": 768, "n_head": 12, "n_layer": 12, "unknown": [1, 2]})"),
                              &gpt2),
              "");
    EXPECT_EQ(gpt2.max_positions, 1024);
    EXPECT_EQ(gpt2.HeadWidth(), 64);
    CheckpointConfig gemma;
    ASSERT_EQ(ReadModelConfig(json::parse(R"({"model_type": "gemma", "hidden_size": 3072,
        "num_attention_heads": 16, "num_key_value_heads": 16, "head_dim": 256,
        "rope_theta": 10000.0, "rope_scaling": null, "max_position_embeddings": 8192})"),
                              &gemma),
              "");
    EXPECT_EQ(gemma.HeadWidth(), 256); // not 3072 / 16
    EXPECT_EQ(gemma.rope_scaling.type, "");
    CheckpointConfig llama31;
    ASSERT_EQ(ReadModelConfig(json::parse(R"({"model_type": "llama", "hidden_size": 4096,
        "num_attention_heads": 32, "num_key_value_heads": 8, "rope_theta": 500000.0,
        "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
        "original_max_position_embeddings": 8192, "rope_type": "llama3"}})"),
                              &llama31),
              "");
    EXPECT_EQ(llama31.rope_scaling.type, "llama3");
    EXPECT_EQ(llama31.GroupSize(), 4);
    CheckpointConfig pythia;
    ASSERT_EQ(ReadModelConfig(json::parse(R"({"model_type": "gpt_neox", "rotary_pct": 0.25,
        "rotary_emb_base": 10000, "hidden_size": 512, "num_attention_heads": 8})"),
                              &pythia),
              "");
    EXPECT_EQ(pythia.partial_rotary, 0.25);
    CheckpointConfig vision;
    ASSERT_EQ(ReadModelConfig(json::parse(R"({"model_type": "llava", "text_config": {
        "model_type": "llama", "hidden_size": 64, "num_attention_heads": 4}})"),
                              &vision),
              "");
    EXPECT_TRUE(vision.from_text_config);
    EXPECT_EQ(vision.model_type, "llama");
    EXPECT_EQ(vision.hidden, 64);
    CheckpointConfig bloom;
    ASSERT_EQ(ReadModelConfig(json::parse(R"({"model_type": "bloom", "n_head": 16})"), &bloom), "");
    EXPECT_TRUE(bloom.alibi);

    CheckpointConfig untouched;
    untouched.hidden = 7;
    for (const char* bad :
         {R"({"n_head": "12"})", R"({"n_embd": 12.5})", R"({"n_head": -1})", R"({"rope_theta": 1})",
          R"({"rope_scaling": "yarn"})", R"({"rope_scaling": {"factor": 2}})",
          R"({"rotary_pct": 1.5})", R"({"text_config": 3})", R"({"alibi": "yes"})",
          R"({"num_attention_heads": 6, "num_key_value_heads": 4})", "[1]"}) {
        const std::string error = ReadModelConfig(json::parse(bad), &untouched).message();
        EXPECT_NE(error.find("config"), std::string::npos) << bad << ": " << error;
        EXPECT_EQ(untouched.hidden, 7) << bad;
    }
}

// One pair of each family's rotation, written from the family's published reference code.
TEST(FamilyRotary, HalfSplitPairsDimensionIWithIPlusHalf) {
    // Hugging Face's Llama (modeling_llama.py): rotate_half(x) = cat(−x[d/2:], x[:d/2]) and
    // q·cos + rotate_half(q)·sin with cos = cat(freqs, freqs).cos(): dimension 0 turns with 4 of 8.
    const double p = 3;
    std::vector<double> x(8, 0.0);
    x[0] = 1;
    const std::vector<double> y = rotate_head(x, 8, 10000, p, RotaryPairing::HalfSplit);
    EXPECT_NEAR(y[0], std::cos(p), 1e-15);
    EXPECT_NEAR(y[4], std::sin(p), 1e-15);
    for (int d : {1, 2, 3, 5, 6, 7})
        EXPECT_EQ(y[d], 0.0) << d;
    // Pair 1 (dimensions 1 and 5) turns at 10000^(−2/8).
    std::vector<double> z(8, 0.0);
    z[5] = 1;
    const std::vector<double> w = rotate_head(z, 8, 10000, p, RotaryPairing::HalfSplit);
    const double angle = p * std::pow(10000.0, -0.25);
    EXPECT_NEAR(w[1], -std::sin(angle), 1e-15);
    EXPECT_NEAR(w[5], std::cos(angle), 1e-15);
}

TEST(FamilyRotary, NeoxRotatesOnlyItsRotaryDimensionsHalfSplit) {
    // GPT-NeoX (modeling_gpt_neox.py): query_rot = q[..., :rotary_ndims], rotate_half on it,
    // query_pass = q[..., rotary_ndims:] untouched. Pythia: rotary_pct 0.25.
    std::vector<double> x = {1, 0, 0, 0, 0.5, 0.25, 0, 1};
    const std::vector<double> y = rotate_head(x, 4, 10000, 2, RotaryPairing::HalfSplit);
    EXPECT_NEAR(y[0], std::cos(2.0), 1e-15);
    EXPECT_NEAR(y[2], std::sin(2.0), 1e-15);
    EXPECT_EQ(y[4], 0.5);
    EXPECT_EQ(y[5], 0.25);
    EXPECT_EQ(y[7], 1.0);
}

TEST(FamilyRotary, InterleavedPairsTwoIWithTwoIPlusOne) {
    // GPT-J (rotate_every_two) and Meta's Llama (complex pairs of view_as_complex): (0, 1).
    std::vector<double> x(8, 0.0);
    x[0] = 1;
    const std::vector<double> y = rotate_head(x, 8, 10000, 3, RotaryPairing::Interleaved);
    EXPECT_NEAR(y[0], std::cos(3.0), 1e-15);
    EXPECT_NEAR(y[1], std::sin(3.0), 1e-15);
    int first = 0, second = 0;
    pair_dimensions(2, 8, RotaryPairing::Interleaved, &first, &second);
    EXPECT_EQ(first, 4);
    EXPECT_EQ(second, 5);
    pair_dimensions(2, 8, RotaryPairing::HalfSplit, &first, &second);
    EXPECT_EQ(first, 2);
    EXPECT_EQ(second, 6);
}

TEST(TableWavelengths, APureWaveGivesItsWavelength) {
    std::vector<double> wave;
    for (int p = 0; p < 512; ++p)
        wave.push_back(std::sin(2 * 3.14159265358979 * p / 37.5 + 0.3));
    EXPECT_NEAR(dominant_wavelength(wave), 37.5, 0.05);
    // The longest table analysed (2¹⁷ rows): found by an FFT, not a scan of every frequency
    // (which took minutes at 3·10⁴ rows).
    std::vector<double> long_wave;
    for (int p = 0; p < (1 << 17); ++p)
        long_wave.push_back(std::cos(2 * 3.14159265358979 * p / 1000.0));
    EXPECT_NEAR(dominant_wavelength(long_wave), 1000.0, 0.5);
    std::vector<double> ramp;
    for (int p = 0; p < 512; ++p)
        ramp.push_back(p);
    EXPECT_EQ(dominant_wavelength(ramp), 0.0); // less than one wave: none named
}

// The share a wave carries is what decides whether a period is named: a pure wave carries all of
// its sequence's variance, white noise's largest peak a few percent, a constant none.
TEST(TableWavelengths, AWavesShareSaysWhetherItStandsOut) {
    std::vector<double> wave;
    for (int p = 0; p < 700; ++p)
        wave.push_back(3 + 2 * std::cos(2 * 3.14159265358979 * p / 61.0 - 1.1));
    const DominantWave pure = dominant_wave(wave);
    EXPECT_NEAR(pure.wavelength, 61.0, 0.1); // the periodogram's peak, a little off a pure wave's
    EXPECT_GT(pure.share, 0.999);
    // The alternating sequence: ω = π, where the sine column is all zeros.
    std::vector<double> alternating;
    for (int p = 0; p < 64; ++p)
        alternating.push_back(p % 2 ? 1.0 : -1.0);
    EXPECT_NEAR(dominant_wave(alternating).wavelength, 2.0, 1e-4);
    EXPECT_GT(dominant_wave(alternating).share, 0.9999);
    std::mt19937 random(11);
    std::normal_distribution<double> normal;
    double largest_noise_share = 0;
    for (int trial = 0; trial < 50; ++trial) {
        std::vector<double> noise(512);
        for (double& v : noise)
            v = normal(random);
        largest_noise_share = std::max(largest_noise_share, dominant_wave(noise).share);
    }
    EXPECT_LT(largest_noise_share, 0.1);
    EXPECT_LT(largest_noise_share, kWaveStandsOut);
    // Half the variance in the wave, half in noise: it still stands out, just.
    std::vector<double> mixed;
    for (int p = 0; p < 512; ++p)
        mixed.push_back(std::sqrt(2.0) * std::sin(2 * 3.14159265358979 * p / 40.0) +
                        0.9 * normal(random));
    EXPECT_NEAR(dominant_wave(mixed).wavelength, 40.0, 0.5);
    EXPECT_GT(dominant_wave(mixed).share, kWaveStandsOut);
    const DominantWave flat = dominant_wave(std::vector<double>(300, 4.0));
    EXPECT_EQ(flat.share, 0.0);
}

TEST(OffsetCosines, TheSinusoidalTableHasOneValuePerOffset) {
    // PE(p)·PE(p + k) = Σ_i cos(ω_i k) and ‖PE‖² = d/2: the cosine is the same for every start.
    const int rows = 200, d = 64;
    std::vector<float> table(static_cast<std::size_t>(rows) * d);
    for (int p = 0; p < rows; ++p)
        for (int i = 0; i < d / 2; ++i) {
            const double omega = std::pow(10000.0, -2.0 * i / d);
            table[static_cast<std::size_t>(p) * d + 2 * i] =
                static_cast<float>(std::sin(p * omega));
            table[static_cast<std::size_t>(p) * d + 2 * i + 1] =
                static_cast<float>(std::cos(p * omega));
        }
    const OffsetCosines spread = offset_cosines(table, rows, d, 150, 1000);
    ASSERT_EQ(spread.mean.size(), 151u);
    EXPECT_FALSE(spread.sampled);
    for (int k = 0; k <= 150; ++k) {
        double expected = 0;
        for (int i = 0; i < d / 2; ++i)
            expected += std::cos(k * std::pow(10000.0, -2.0 * i / d));
        expected /= d / 2.0;
        EXPECT_NEAR(spread.mean[k], expected, 1e-6) << k;
        EXPECT_NEAR(spread.least[k], expected, 1e-6) << k;
        EXPECT_NEAR(spread.greatest[k], expected, 1e-6) << k;
        EXPECT_EQ(spread.starts[k], rows - k);
    }
}

TEST(OffsetCosines, SamplesStartsEvenlyAndCountsAZeroRowAsCosineZero) {
    // Row p = (1, p): cos(row p, row p + k) = (1 + p(p + k)) / (√(1 + p²) √(1 + (p + k)²)),
    // largest at the last start and smallest at the first for k > 0.
    const int rows = 50;
    std::vector<float> table;
    for (int p = 0; p < rows; ++p)
        table.insert(table.end(), {1.0f, static_cast<float>(p)});
    const auto cosine = [](double p, double q) {
        return (1 + p * q) / (std::sqrt(1 + p * p) * std::sqrt(1 + q * q));
    };
    const OffsetCosines spread = offset_cosines(table, rows, 2, 100, 4);
    ASSERT_EQ(spread.mean.size(), 50u); // offsets up to rows − 1
    EXPECT_TRUE(spread.sampled);
    EXPECT_EQ(spread.starts[5], 4);
    EXPECT_EQ(spread.starts[48], 2);
    EXPECT_EQ(spread.starts[49], 1);
    // Offset 5: starts 0, 14, 29, 44 (the first and last of 0 … 44).
    EXPECT_NEAR(spread.least[5], cosine(0, 5), 1e-12);
    EXPECT_NEAR(spread.greatest[5], cosine(44, 49), 1e-12);
    EXPECT_NEAR(spread.mean[5],
                (cosine(0, 5) + cosine(14, 19) + cosine(29, 34) + cosine(44, 49)) / 4, 1e-12);
    EXPECT_NEAR(spread.mean[0], 1.0, 1e-12);
    // A zero row: 0 with every row, itself included.
    table[0] = table[1] = 0;
    const OffsetCosines zero = offset_cosines(table, rows, 2, 3, 100);
    EXPECT_EQ(zero.least[0], 0.0);
    EXPECT_EQ(zero.least[3], 0.0);
    EXPECT_THROW(offset_cosines(table, 1, 2, 3, 100), InvalidArgument);
    EXPECT_THROW(offset_cosines(table, rows, 2, -1, 100), InvalidArgument);
    EXPECT_THROW(offset_cosines(table, rows, 2, 3, 1), InvalidArgument);
    EXPECT_THROW(offset_cosines(table, rows, 3, 3, 100), InvalidArgument);
}

} // namespace

// The schedule's line counts layers from 0 (config.json, the JSON) or, on screen, from 1.
TEST(ScheduleSummaryText, LayersAreCountedFromTheFirstNumberAsked) {
    EXPECT_EQ(LayerList({3, 7, 11}), "3, 7, 11");
    EXPECT_EQ(LayerList({3, 7, 11}, 1), "4, 8, 12");
    EXPECT_EQ(LayerList({0, 1, 2, 3, 4, 5, 6, 7, 8}, 1), "1, 2, 3, …, 9");
}

} // namespace pelab
