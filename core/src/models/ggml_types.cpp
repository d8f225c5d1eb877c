// ggml's tensor types and their widening to float, written from the block layouts of ggml's
// ggml-common.h and the reference dequantize_row_* functions of ggml-quants.c (ggml-org/llama.cpp
// 01243c58): the same float32 products in the same order, so that a value read here is the
// value llama.cpp's CPU reference computes.
#include "pelab/models/checkpoint.h"
#include "pelab/models/gguf.h"

#include <cstring>

namespace pelab {

namespace {

constexpr int kSuperBlock = 256; // QK_K

// ggml.h's enum ggml_type: id, name, elements and bytes per block, read here or not.
const GgmlType kTypes[] = {
    {0, "F32", 1, 4, true, "32-bit floats"},
    {1, "F16", 1, 2, true, "16-bit floats"},
    {2, "Q4_0", 32, 18, true, "4-bit, a float16 scale per 32"},
    {3, "Q4_1", 32, 20, true, "4-bit, a scale and a minimum per 32"},
    {6, "Q5_0", 32, 22, true, "5-bit, a scale per 32"},
    {7, "Q5_1", 32, 24, true, "5-bit, a scale and a minimum per 32"},
    {8, "Q8_0", 32, 34, true, "8-bit, a scale per 32"},
    {9, "Q8_1", 32, 36, false, "8-bit with sums (an intermediate type)"},
    {10, "Q2_K", 256, 84, true, "2-bit k-quant"},
    {11, "Q3_K", 256, 110, true, "3-bit k-quant"},
    {12, "Q4_K", 256, 144, true, "4-bit k-quant"},
    {13, "Q5_K", 256, 176, true, "5-bit k-quant"},
    {14, "Q6_K", 256, 210, true, "6-bit k-quant"},
    {15, "Q8_K", 256, 292, true, "8-bit k-quant"},
    {16, "IQ2_XXS", 256, 66, false, "2-bit i-quant (a lattice codebook)"},
    {17, "IQ2_XS", 256, 74, false, "2-bit i-quant (a lattice codebook)"},
    {18, "IQ3_XXS", 256, 98, false, "3-bit i-quant (a lattice codebook)"},
    {19, "IQ1_S", 256, 50, false, "1.5-bit i-quant"},
    {20, "IQ4_NL", 32, 18, false, "4-bit non-linear"},
    {21, "IQ3_S", 256, 110, false, "3-bit i-quant"},
    {22, "IQ2_S", 256, 82, false, "2-bit i-quant"},
    {23, "IQ4_XS", 256, 136, false, "4-bit non-linear"},
    {24, "I8", 1, 1, false, "8-bit integers"},
    {25, "I16", 1, 2, false, "16-bit integers"},
    {26, "I32", 1, 4, false, "32-bit integers"},
    {27, "I64", 1, 8, false, "64-bit integers"},
    {28, "F64", 1, 8, true, "64-bit floats"},
    {29, "IQ1_M", 256, 56, false, "1.75-bit i-quant"},
    {30, "BF16", 1, 2, true, "bfloat16"},
    {34, "TQ1_0", 256, 54, false, "ternary (1.69 bits)"},
    {35, "TQ2_0", 256, 66, false, "ternary (2.06 bits)"},
    {39, "MXFP4", 32, 17, false, "OCP MX 4-bit floats (GPT-OSS's experts)"},
    {40, "NVFP4", 64, 36, false, "NVIDIA 4-bit floats"},
    {41, "Q1_0", 128, 18, false, "1-bit"},
};

float Half(const unsigned char* bytes) {
    return HalfToFloat(static_cast<std::uint16_t>(bytes[0] | (bytes[1] << 8)));
}

// get_scale_min_k4: the 6-bit scale and minimum of sub-block j from a K-quant's 12 bytes.
void ScaleMin(int j, const unsigned char* q, int* scale, int* minimum) {
    if (j < 4) {
        *scale = q[j] & 63;
        *minimum = q[j + 4] & 63;
    } else {
        *scale = (q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4);
        *minimum = (q[j + 4] >> 4) | ((q[j] >> 6) << 4);
    }
}

// Q4_0 … Q8_0: blocks of 32; the low nibbles are elements 0–15, the high ones 16–31.
void Legacy(int id, const unsigned char* block, float* y) {
    const float d = Half(block);
    if (id == 8) { // Q8_0: d, 32 int8
        for (int j = 0; j < 32; ++j)
            y[j] = static_cast<float>(static_cast<std::int8_t>(block[2 + j])) * d;
        return;
    }
    const bool has_min = id == 3 || id == 7;
    const float m = has_min ? Half(block + 2) : 0.0f;
    const bool five = id == 6 || id == 7;
    std::uint32_t qh = 0;
    const unsigned char* qs = block + (has_min ? 4 : 2);
    if (five) {
        std::memcpy(&qh, qs, 4); // little-endian, as the files are
        qs += 4;
    }
    for (int j = 0; j < 16; ++j) {
        int x0 = qs[j] & 0x0F, x1 = qs[j] >> 4;
        if (five) {
            x0 |= static_cast<int>(((qh >> j) << 4) & 0x10);
            x1 |= static_cast<int>((qh >> (j + 12)) & 0x10);
        }
        if (has_min) {
            y[j] = static_cast<float>(x0) * d + m;
            y[j + 16] = static_cast<float>(x1) * d + m;
        } else {
            const int offset = five ? 16 : 8;
            y[j] = static_cast<float>(x0 - offset) * d;
            y[j + 16] = static_cast<float>(x1 - offset) * d;
        }
    }
}

// Q2_K: scales[16], qs[64], d, dmin.
void Q2K(const unsigned char* x, float* y) {
    const unsigned char* scales = x;
    const unsigned char* q = x + 16;
    const float d = Half(x + 80), minimum = Half(x + 82);
    int is = 0;
    for (int n = 0; n < kSuperBlock; n += 128) {
        int shift = 0;
        for (int j = 0; j < 4; ++j) {
            for (int half = 0; half < 2; ++half) {
                const unsigned char sc = scales[is++];
                const float dl = d * static_cast<float>(sc & 0xF);
                const float ml = minimum * static_cast<float>(sc >> 4);
                for (int l = 0; l < 16; ++l)
                    *y++ = dl * static_cast<float>((q[l + 16 * half] >> shift) & 3) - ml;
            }
            shift += 2;
        }
        q += 32;
    }
}

// Q3_K: hmask[32], qs[64], scales[12], d.
void Q3K(const unsigned char* x, float* y) {
    const unsigned char* hm = x;
    const unsigned char* q = x + 32;
    const unsigned char* packed = x + 96;
    const float d_all = Half(x + 108);
    // The sixteen 6-bit scales: low 4 bits from bytes 0–7, high 2 bits from bytes 8–11.
    std::int8_t scales[16];
    for (int j = 0; j < 16; ++j) {
        const int low = j < 8 ? packed[j] & 0xF : packed[j - 8] >> 4;
        const int high = (packed[8 + j % 4] >> (2 * (j / 4))) & 3;
        scales[j] = static_cast<std::int8_t>(low | (high << 4));
    }
    int is = 0;
    unsigned char m = 1;
    for (int n = 0; n < kSuperBlock; n += 128) {
        int shift = 0;
        for (int j = 0; j < 4; ++j) {
            for (int half = 0; half < 2; ++half) {
                const float dl = d_all * static_cast<float>(scales[is++] - 32);
                for (int l = 0; l < 16; ++l) {
                    const int k = l + 16 * half;
                    const int value = ((q[k] >> shift) & 3) - ((hm[k] & m) ? 0 : 4);
                    *y++ = dl * static_cast<float>(value);
                }
            }
            shift += 2;
            m = static_cast<unsigned char>(m << 1);
        }
        q += 32;
    }
}

// Q4_K: d, dmin, scales[12], qs[128]; Q5_K adds qh[32] before qs.
void Q45K(bool five, const unsigned char* x, float* y) {
    const float d = Half(x), minimum = Half(x + 2);
    const unsigned char* scales = x + 4;
    const unsigned char* qh = x + 16;
    const unsigned char* ql = x + (five ? 48 : 16);
    int is = 0;
    unsigned char u1 = 1, u2 = 2;
    for (int j = 0; j < kSuperBlock; j += 64) {
        int sc = 0, mn = 0;
        ScaleMin(is, scales, &sc, &mn);
        const float d1 = d * static_cast<float>(sc), m1 = minimum * static_cast<float>(mn);
        ScaleMin(is + 1, scales, &sc, &mn);
        const float d2 = d * static_cast<float>(sc), m2 = minimum * static_cast<float>(mn);
        for (int l = 0; l < 32; ++l)
            *y++ = d1 * static_cast<float>((ql[l] & 0xF) + (five && (qh[l] & u1) ? 16 : 0)) - m1;
        for (int l = 0; l < 32; ++l)
            *y++ = d2 * static_cast<float>((ql[l] >> 4) + (five && (qh[l] & u2) ? 16 : 0)) - m2;
        ql += 32;
        is += 2;
        u1 = static_cast<unsigned char>(u1 << 2);
        u2 = static_cast<unsigned char>(u2 << 2);
    }
}

// Q6_K: ql[128], qh[64], scales[16] (int8), d.
void Q6K(const unsigned char* x, float* y) {
    const unsigned char* ql = x;
    const unsigned char* qh = x + 128;
    const auto* sc = reinterpret_cast<const std::int8_t*>(x + 192);
    const float d = Half(x + 208);
    for (int n = 0; n < kSuperBlock; n += 128) {
        for (int l = 0; l < 32; ++l) {
            const int is = l / 16;
            const int q1 = ((ql[l] & 0xF) | (((qh[l] >> 0) & 3) << 4)) - 32;
            const int q2 = ((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4)) - 32;
            const int q3 = ((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32;
            const int q4 = ((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32;
            y[l] = d * static_cast<float>(sc[is]) * static_cast<float>(q1);
            y[l + 32] = d * static_cast<float>(sc[is + 2]) * static_cast<float>(q2);
            y[l + 64] = d * static_cast<float>(sc[is + 4]) * static_cast<float>(q3);
            y[l + 96] = d * static_cast<float>(sc[is + 6]) * static_cast<float>(q4);
        }
        y += 128;
        ql += 64;
        qh += 32;
        sc += 8;
    }
}

// Q8_K: d (float32), qs[256] (int8), bsums[16] (unused here).
void Q8K(const unsigned char* x, float* y) {
    float d = 0;
    std::memcpy(&d, x, 4);
    for (int j = 0; j < kSuperBlock; ++j)
        y[j] = d * static_cast<float>(static_cast<std::int8_t>(x[4 + j]));
}

void Plain(int id, const unsigned char* x, std::uint64_t count, float* y) {
    for (std::uint64_t k = 0; k < count; ++k) {
        if (id == 0) {
            std::memcpy(y + k, x + 4 * k, 4);
        } else if (id == 1) {
            y[k] = Half(x + 2 * k);
        } else if (id == 30) {
            y[k] = BfloatToFloat(static_cast<std::uint16_t>(x[2 * k] | (x[2 * k + 1] << 8)));
        } else { // F64, rounded to float (the reader refuses values beyond float's range)
            double wide = 0;
            std::memcpy(&wide, x + 8 * k, 8);
            y[k] = static_cast<float>(wide);
        }
    }
}

} // namespace

const GgmlType* ggml_type_of(int id) {
    for (const GgmlType& type : kTypes)
        if (type.id == id) return &type;
    return nullptr;
}

void dequantize_blocks(const GgmlType& type, const unsigned char* bytes, std::uint64_t blocks,
                       float* out) {
    if (type.block == 1) {
        Plain(type.id, bytes, blocks, out);
        return;
    }
    for (std::uint64_t b = 0; b < blocks; ++b) {
        const unsigned char* block = bytes + b * type.bytes;
        float* y = out + b * type.block;
        switch (type.id) {
        case 10:
            Q2K(block, y);
            break;
        case 11:
            Q3K(block, y);
            break;
        case 12:
            Q45K(false, block, y);
            break;
        case 13:
            Q45K(true, block, y);
            break;
        case 14:
            Q6K(block, y);
            break;
        case 15:
            Q8K(block, y);
            break;
        default:
            Legacy(type.id, block, y);
            break;
        }
    }
}

} // namespace pelab
