// GGUF (pelab/models/gguf.h): files written byte by byte here from the format's specification,
// and ggml's block types against values worked out by hand from ggml-quants.c's reference C.
// tests/gguf/check_gguf.py checks every type, architecture and hostile file against an
// independent oracle; GgufFixtures below is its part that reads values (given the fixtures).
#include "pelab/models/checkpoint.h"
#include "pelab/models/gguf.h"
#include "pelab/models/layer_schedule.h"
#include "status_text.h"
#include "temp_folder.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace pelab {
namespace {

namespace fs = std::filesystem;

// A little-endian GGUF written field by field.
struct Writer {
    std::string bytes;
    void U32(std::uint32_t v) { Raw(&v, 4); }
    void U64(std::uint64_t v) { Raw(&v, 8); }
    void Raw(const void* data, std::size_t n) { bytes.append(static_cast<const char*>(data), n); }
    void Str(const std::string& s) {
        U64(s.size());
        bytes += s;
    }
    void Header(std::uint32_t version, std::uint64_t tensors, std::uint64_t keys) {
        bytes += "GGUF";
        U32(version);
        U64(tensors);
        U64(keys);
    }
    void KeyU32(const std::string& key, std::uint32_t v) {
        Str(key);
        U32(4);
        U32(v);
    }
    void KeyStr(const std::string& key, const std::string& v) {
        Str(key);
        U32(8);
        Str(v);
    }
    void KeyU32s(const std::string& key, const std::vector<std::uint32_t>& values) {
        Str(key);
        U32(9); // array
        U32(4); // of u32
        U64(values.size());
        for (std::uint32_t v : values)
            U32(v);
    }
    void Tensor(const std::string& name, const std::vector<std::uint64_t>& ne, std::uint32_t type,
                std::uint64_t offset) {
        Str(name);
        U32(static_cast<std::uint32_t>(ne.size()));
        for (std::uint64_t n : ne)
            U64(n);
        U32(type);
        U64(offset);
    }
    void Pad(std::size_t alignment = 32) {
        while (bytes.size() % alignment != 0)
            bytes += '\0';
    }
};

Status Parse(const std::string& bytes, GgufFile* out) {
    const GgufReadAt read = [&](std::uint64_t offset, std::size_t count, void* into) -> Status {
        if (offset + count > bytes.size()) return std::string("past the end");
        std::memcpy(into, bytes.data() + offset, count);
        return {};
    };
    return ParseGguf(read, bytes.size(), out);
}

// Two F32 tensors of 4 rows × 8 and an unknown type between them.
std::string SmallFile(std::uint32_t version = 3) {
    Writer w;
    w.Header(version, 3, 2);
    w.KeyStr("general.architecture", "llama");
    w.KeyU32("llama.attention.head_count", 2);
    w.Tensor("a", {8, 4}, 0, 0);
    w.Tensor("odd", {8}, 200, 128);
    w.Tensor("b", {8, 4}, 0, 160);
    w.Pad();
    std::string data(288, '\0');
    for (int k = 0; k < 32; ++k) {
        const float a = static_cast<float>(k), b = static_cast<float>(-k);
        std::memcpy(&data[4 * k], &a, 4);
        std::memcpy(&data[160 + 4 * k], &b, 4);
    }
    return w.bytes + data;
}

TEST(Gguf, ReadsMetadataTensorsAndAnUnknownTypeSizedByTheNextTensor) {
    for (std::uint32_t version : {2u, 3u}) {
        GgufFile file;
        ASSERT_TRUE(Parse(SmallFile(version), &file).ok()) << version;
        EXPECT_EQ(file.version, version);
        EXPECT_EQ(file.Text("general.architecture"), "llama");
        ASSERT_NE(file.Find("llama.attention.head_count"), nullptr);
        EXPECT_EQ(file.Find("llama.attention.head_count")->integer, 2);
        ASSERT_EQ(file.tensors.size(), 3u);
        EXPECT_EQ(file.tensors[1].type, nullptr);
        EXPECT_EQ(file.tensors[1].end - file.tensors[1].begin, 32u); // up to b's offset
        EXPECT_EQ(file.tensors[0].ne, (std::vector<std::uint64_t>{8, 4}));
    }
}

TEST(Gguf, RefusesEachMalformedHeaderWithOneLine) {
    struct Case {
        std::string bytes, words;
    };
    std::string big = SmallFile();
    std::swap(big[4], big[7]);
    std::swap(big[5], big[6]);
    std::string v1 = SmallFile();
    v1[4] = 1;
    std::string truncated = SmallFile().substr(0, 60);
    Writer overlap;
    overlap.Header(3, 2, 0);
    overlap.Tensor("a", {8, 4}, 0, 0);
    overlap.Tensor("b", {8, 4}, 0, 64);
    overlap.Pad();
    overlap.bytes += std::string(256, '\0');
    Writer blocks;
    blocks.Header(3, 1, 0);
    blocks.Tensor("q", {100, 2}, 2, 0); // Q4_0 rows of 100: not whole blocks of 32
    blocks.Pad();
    blocks.bytes += std::string(256, '\0');
    Writer deep;
    deep.Header(3, 0, 1);
    deep.Str("k");
    deep.U32(9);
    for (int level = 0; level < 5; ++level) {
        deep.U32(9);
        deep.U64(1);
    }
    Writer boolean;
    boolean.Header(3, 0, 1);
    boolean.Str("flag");
    boolean.U32(7);
    boolean.bytes += '\x02';
    const Case cases[] = {{big, "big-endian"},
                          {v1, "version 1"},
                          {truncated, "the file's 60 bytes"},
                          {overlap.bytes, "overlaps"},
                          {blocks.bytes, "whole number of its blocks"},
                          {deep.bytes, "nested deeper"},
                          {boolean.bytes, "bool byte of 2"},
                          {"GGML" + std::string(40, '\0'), "not a GGUF file"}};
    for (const Case& c : cases) {
        GgufFile file;
        const Status status = Parse(c.bytes, &file);
        ASSERT_FALSE(status.ok()) << c.words;
        EXPECT_NE(status.message().find(c.words), std::string::npos) << status.message();
        EXPECT_EQ(status.message().find('\n'), std::string::npos);
    }
}

// One block of each layout, its values worked out by hand from ggml-quants.c:
//  Q4_0: d = 0.5 (f16 0x3800); nibble j of byte j is x0 = j, high nibble 15 − j:
//        y[j] = (j − 8)·0.5, y[j + 16] = (15 − j − 8)·0.5.
//  Q8_0: d = 2 (0x4000), qs[j] = j − 16: y[j] = 2(j − 16).
//  Q4_K: d = 1, dmin = 0.5; scales bytes 0–3 = 2 (sub-blocks 0–3 scale 2), bytes 4–7 = 4 (mins
//        4), bytes 8–11 = 0x31 (sub-blocks 4–7: scale 1, min 3); qs all 0x21: low nibble 1, high 2.
//        Sub-block 0 (low nibbles of qs[0..31]): 2·1 − 0.5·4 = 0; sub-block 1 (high): 2·2 − 2 = 2;
//        sub-block 4: 1·1 − 0.5·3 = −0.5; sub-block 5: 1·2 − 1.5 = 0.5.
TEST(Gguf, DequantizesBlocksAsGgmlsReferenceCode) {
    unsigned char q40[18] = {0x00, 0x38};
    for (int j = 0; j < 16; ++j)
        q40[2 + j] = static_cast<unsigned char>(j | ((15 - j) << 4));
    float y[256];
    dequantize_blocks(*ggml_type_of(2), q40, 1, y);
    for (int j = 0; j < 16; ++j) {
        EXPECT_EQ(y[j], (j - 8) * 0.5f);
        EXPECT_EQ(y[j + 16], (15 - j - 8) * 0.5f);
    }
    unsigned char q80[34] = {0x00, 0x40};
    for (int j = 0; j < 32; ++j)
        q80[2 + j] = static_cast<unsigned char>(static_cast<signed char>(j - 16));
    dequantize_blocks(*ggml_type_of(8), q80, 1, y);
    for (int j = 0; j < 32; ++j)
        EXPECT_EQ(y[j], 2.0f * static_cast<float>(j - 16));
    unsigned char q4k[144] = {0x00, 0x3C, 0x00, 0x38, 2,    2,    2,    2,
                              4,    4,    4,    4,    0x31, 0x31, 0x31, 0x31};
    std::memset(q4k + 16, 0x21, 128);
    dequantize_blocks(*ggml_type_of(12), q4k, 1, y);
    EXPECT_EQ(y[0], 0.0f);
    EXPECT_EQ(y[32], 2.0f);
    EXPECT_EQ(y[128], -0.5f);
    EXPECT_EQ(y[160], 0.5f);
}

// llama.cpp's converter stores head h's rows i and i + d/2 at 2i and 2i + 1 (LlamaModel.permute):
// a llama file's q rows come back in transformers' order.
TEST(Gguf, PermutedRowsComeBackInTransformersOrder) {
    TempFolder folder;
    Writer w;
    w.Header(3, 1, 3);
    w.KeyStr("general.architecture", "llama");
    w.KeyU32("llama.attention.head_count", 1);
    w.KeyU32("llama.attention.head_count_kv", 1);
    w.Tensor("blk.0.attn_q.weight", {1, 4}, 0, 0); // 4 rows (d = 4) of one column
    w.Pad();
    // Stored rows 0..3 hold transformers' rows 0, 2, 1, 3: values 10, 12, 11, 13.
    for (float v : {10.0f, 12.0f, 11.0f, 13.0f})
        w.Raw(&v, 4);
    Checkpoint checkpoint;
    ASSERT_TRUE(checkpoint.Open(folder.Write("m.gguf", w.bytes)).ok());
    Status error;
    const TensorInfo* q = checkpoint.Find("blk.0.attn_q.weight", &error);
    ASSERT_NE(q, nullptr);
    EXPECT_EQ(q->permuted_heads, 1);
    std::vector<float> values;
    ASSERT_TRUE(checkpoint.ReadFloats(*q, &values).ok());
    EXPECT_EQ(values, (std::vector<float>{10, 11, 12, 13}));
    std::vector<double> squares;
    ASSERT_TRUE(checkpoint.RowSquares(*q, &squares).ok());
    EXPECT_EQ(squares, (std::vector<double>{100, 121, 144, 169}));
}

// The hybrids' per-layer head counts as their layer kinds: LFM2's attending layers are those
// with key heads (transformers' load_gguf_checkpoint sets full_attn_idxs so), the others short
// convolutions; Nemotron-H's layer with key heads attends, one with a feed-forward width is an
// MLP, one with neither is Mamba-2.
TEST(Gguf, HybridsPerLayerHeadsGiveTheirLayerKinds) {
    const auto schedule = [](const std::string& arch, const std::vector<std::uint32_t>& kv,
                             const std::vector<std::uint32_t>& ff) {
        Writer w;
        w.Header(3, 0, ff.empty() ? 6 : 7);
        w.KeyStr("general.architecture", arch);
        w.KeyU32(arch + ".block_count", static_cast<std::uint32_t>(kv.size()));
        w.KeyU32(arch + ".embedding_length", 256);
        w.KeyU32(arch + ".attention.head_count", 4);
        w.KeyU32(arch + ".context_length", 4096);
        w.KeyU32s(arch + ".attention.head_count_kv", kv);
        if (!ff.empty()) w.KeyU32s(arch + ".feed_forward_length", ff);
        w.Pad();
        GgufFile file;
        EXPECT_TRUE(Parse(w.bytes, &file).ok());
        nlohmann::json config;
        std::vector<std::string> notes;
        EXPECT_TRUE(GgufConfig(file, {}, &config, &notes).ok());
        CheckpointConfig read;
        EXPECT_EQ(ReadModelConfig(config, &read), "") << config.dump();
        return BuildLayerSchedule(read);
    };
    const LayerSchedule lfm2 = schedule("lfm2", {0, 0, 2, 0, 2}, {});
    ASSERT_EQ(lfm2.layers.size(), 5u);
    EXPECT_EQ(lfm2.layers[0].attention, LayerAttention::Conv);
    EXPECT_EQ(lfm2.layers[3].attention, LayerAttention::Conv);
    EXPECT_TRUE(lfm2.layers[2].rope);
    EXPECT_TRUE(lfm2.layers[4].rope);
    EXPECT_EQ(lfm2.layers[2].rope_theta, 1e6); // LFM2's default_theta: the file gives no base
    const LayerSchedule nemotron = schedule("nemotron_h", {0, 2, 0, 0}, {0, 0, 512, 0});
    ASSERT_EQ(nemotron.layers.size(), 4u);
    EXPECT_EQ(nemotron.layers[0].attention, LayerAttention::Linear);
    EXPECT_EQ(nemotron.layers[1].attention, LayerAttention::Full);
    EXPECT_EQ(nemotron.layers[2].attention, LayerAttention::None);
    EXPECT_EQ(nemotron.layers[3].attention, LayerAttention::Linear);
    EXPECT_FALSE(nemotron.layers[1].rope);
}

// llama.cpp's gguf-split names: the first file opens every part; a later part is refused with
// the first's name; a missing part is named.
TEST(Gguf, ASplitModelOpensFromItsFirstFile) {
    TempFolder folder;
    const auto part = [&](const std::string& name, const std::string& tensor, float value) {
        Writer w;
        w.Header(3, 1, 1);
        w.KeyStr("general.architecture", "llama");
        w.Tensor(tensor, {2}, 0, 0);
        w.Pad();
        w.Raw(&value, 4);
        w.Raw(&value, 4);
        return folder.Write(name, w.bytes);
    };
    const std::string first = part("m-00001-of-00002.gguf", "a", 1.5f);
    const std::string second = part("m-00002-of-00002.gguf", "b", -2.0f);
    Checkpoint checkpoint;
    ASSERT_TRUE(checkpoint.Open(first).ok());
    EXPECT_EQ(checkpoint.Names(), (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(checkpoint.FormatName(), "GGUF v3 (2 files)");
    Status error;
    const TensorInfo* b = checkpoint.Find("b", &error);
    ASSERT_NE(b, nullptr);
    std::vector<float> values;
    ASSERT_TRUE(checkpoint.ReadFloats(*b, &values).ok());
    EXPECT_EQ(values, (std::vector<float>{-2.0f, -2.0f}));
    Checkpoint later;
    const Status refused = later.Open(second);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.message().find("-00001-of-00002.gguf"), std::string::npos) << refused;
    fs::remove(second);
    Checkpoint missing;
    const Status gone = missing.Open(first);
    ASSERT_FALSE(gone.ok());
    EXPECT_NE(gone.message().find("file 2 of 2"), std::string::npos) << gone;
}

// With PELAB_GGUF_QUANT_DIR (tests/gguf/check_gguf.py sets it): every quant_<T>.gguf of
// make_quant_fixtures.py read as floats equals quant_<T>.npy (ggml_dequant.py's NumPy), bit for
// bit.
TEST(GgufFixtures, EveryTypeEqualsTheNumPyReference) {
    const char* folder = std::getenv("PELAB_GGUF_QUANT_DIR");
    if (folder == nullptr) GTEST_SKIP() << "run by tests/gguf/check_gguf.py";
    int files = 0;
    for (const auto& entry : fs::directory_iterator(folder)) {
        if (entry.path().extension() != ".npy") continue;
        const std::string gguf = fs::path(entry.path()).replace_extension(".gguf").string();
        Checkpoint values, reference;
        ASSERT_TRUE(values.Open(gguf).ok()) << gguf;
        ASSERT_TRUE(reference.Open(entry.path().string()).ok()) << entry.path();
        Status error;
        const TensorInfo* t = values.Find("t", &error);
        const TensorInfo* r = reference.Find(reference.Names().front(), &error);
        ASSERT_NE(t, nullptr);
        ASSERT_NE(r, nullptr);
        EXPECT_EQ(t->shape, r->shape) << gguf;
        std::vector<float> got, want;
        ASSERT_TRUE(values.ReadFloats(*t, &got).ok()) << gguf;
        ASSERT_TRUE(reference.ReadFloats(*r, &want).ok());
        ASSERT_EQ(got.size(), want.size());
        EXPECT_EQ(std::memcmp(got.data(), want.data(), got.size() * 4), 0) << gguf;
        ++files;
    }
    EXPECT_EQ(files, 15);
}

} // namespace
} // namespace pelab
