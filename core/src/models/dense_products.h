// models/dense_products.h — the matrix products of the forward passes on checkpoints (gpt2.cpp,
// llama.cpp): weights packed once in column panels, each product split by panels over threads
// through the trainer's Gemm (the same bits on every CPU path, whatever the split).
#pragma once

#include "transformer/gemm.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

namespace pelab::detail {

// A weight matrix (k × n, row-major) rearranged as panels of kPanel columns, each k × width
// contiguous: a product then reads B row after row within a panel, in order, instead of jumping
// n floats between rows (which for GPT-2's 768 × 3 072 matrices cost more than the arithmetic).
// The sums are the same chains in the same order, so the results do not change.
constexpr int kPanel = 64;
inline std::vector<float> PackPanels(const std::vector<float>& weight, int k, int n) {
    std::vector<float> packed(weight.size());
    for (int first = 0; first < n; first += kPanel) {
        const int width = std::min(kPanel, n - first);
        float* panel = packed.data() + static_cast<std::size_t>(first) * k;
        for (int p = 0; p < k; ++p)
            std::copy_n(weight.data() + static_cast<std::size_t>(p) * n + first, width,
                        panel + static_cast<std::size_t>(p) * width);
    }
    return packed;
}

// A weight as PyTorch's Linear holds it (out × in, row-major: y = x·Wᵀ) packed for Product, which
// reads in × out.
inline std::vector<float> PackLinearWeight(const std::vector<float>& weight, int out, int in) {
    std::vector<float> transposed(weight.size());
    for (int o = 0; o < out; ++o)
        for (int i = 0; i < in; ++i)
            transposed[static_cast<std::size_t>(i) * out + o] =
                weight[static_cast<std::size_t>(o) * in + i];
    return PackPanels(transposed, in, out);
}

// work(begin, end) over [0, count) in up to `threads` contiguous ranges, the first on this thread
// (one range in the browser, which has no threads).
template <typename Work> void SplitOverThreads(int count, int threads, const Work& work) {
#ifdef __EMSCRIPTEN__
    threads = 1;
#endif
    threads = std::clamp(std::min(threads, count), 1, 16);
    const int step = (count + threads - 1) / threads;
    std::vector<std::thread> workers;
    for (int t = 1; t < threads; ++t)
        workers.emplace_back(work, std::min(count, t * step), std::min(count, (t + 1) * step));
    work(0, std::min(count, step));
    for (std::thread& worker : workers)
        worker.join();
}

// C (m × n, row-major) = A (m × k, row-major) · B (k × n, packed by PackPanels), the panels split
// over threads (each element is the same chain of multiply-adds whatever the split).
inline void Product(const float* a, int m, int k, const float* packed, int n, float* c,
                    int threads) {
    const int panels = (n + kPanel - 1) / kPanel;
    SplitOverThreads(panels, threads, [&](int first_panel, int end_panel) {
        for (int panel = first_panel; panel < end_panel; ++panel) {
            const int first = panel * kPanel, width = std::min(kPanel, n - first);
            trainer::Gemm(m, width, k, trainer::RowMajor(a, k),
                          packed + static_cast<std::size_t>(first) * k, width, c + first, n, false);
        }
    });
}

// logitsᵀ rows [begin, end) of a table (vocab × d, row-major) times hᵀ (d × m): C = T · hᵀ,
// vocab × m, the table's rows split over the threads in blocks of 1 024 words at least.
inline void TableProduct(const float* table, int vocab, int d, const float* h_t, int m, float* c,
                         int threads) {
    SplitOverThreads(vocab, std::min(threads, std::max(1, vocab / 1024)), [&](int begin, int end) {
        trainer::Gemm(end - begin, m, d,
                      trainer::RowMajor(table + static_cast<std::size_t>(begin) * d, d), h_t, m,
                      c + static_cast<std::size_t>(begin) * m, m, false);
    });
}

// A weight whose every value is a bfloat16 (a BF16 checkpoint widened) is held as its 16 bits,
// half the bytes, and each panel widened into a buffer just before its product: the pass reads
// its weights from memory once per pass, so it runs near the memory's speed, and the widened
// values are the same floats (the results do not change). Any other weight stays float32.
struct PackedWeight {
    int k = 0, n = 0;                ///< k × n, packed in panels as PackPanels
    std::vector<float> f32;          ///< the panels, or empty
    std::vector<std::uint16_t> bf16; ///< the panels' upper halves, or empty
    std::size_t Bytes() const { return f32.size() * 4 + bf16.size() * 2; }
};

// Whether every value's lower 16 bits are 0: it is a bfloat16, exactly.
inline bool AllBfloat16(const std::vector<float>& values) {
    for (float value : values) {
        std::uint32_t bits = 0;
        std::memcpy(&bits, &value, 4);
        if ((bits & 0xFFFFu) != 0) return false;
    }
    return true;
}

inline std::vector<std::uint16_t> UpperHalves(const std::vector<float>& values) {
    std::vector<std::uint16_t> halves(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        std::uint32_t bits = 0;
        std::memcpy(&bits, &values[i], 4);
        halves[i] = static_cast<std::uint16_t>(bits >> 16);
    }
    return halves;
}

inline void Widen(const std::uint16_t* halves, std::size_t count, float* out) {
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint32_t bits = static_cast<std::uint32_t>(halves[i]) << 16;
        std::memcpy(out + i, &bits, 4);
    }
}

// A PyTorch Linear's weight (out × in) packed for Product, as bfloat16 halves when it is exactly
// bfloat16: the same panels as PackLinearWeight's, written straight from the out × in rows in
// tiles of 64 inputs (a 8 192 × 2 048 matrix transposed element by element missed the cache at
// every write), the panels shared out over threads.
inline PackedWeight PackLinear(const std::vector<float>& weight, int out, int in, int threads = 2) {
    PackedWeight packed;
    packed.k = in;
    packed.n = out;
    const bool half = AllBfloat16(weight);
    if (half)
        packed.bf16.resize(weight.size());
    else
        packed.f32.resize(weight.size());
    constexpr int kTile = 64;
    const int panels = (out + kPanel - 1) / kPanel;
    SplitOverThreads(panels, threads, [&](int first_panel, int end_panel) {
        for (int each = first_panel; each < end_panel; ++each) {
            const int first = each * kPanel, width = std::min(kPanel, out - first);
            const std::size_t base = static_cast<std::size_t>(first) * in;
            for (int i0 = 0; i0 < in; i0 += kTile) {
                const int i1 = std::min(in, i0 + kTile);
                for (int j = 0; j < width; ++j) {
                    const float* row = weight.data() + static_cast<std::size_t>(first + j) * in;
                    for (int i = i0; i < i1; ++i) {
                        const std::size_t at = base + static_cast<std::size_t>(i) * width + j;
                        if (half) {
                            std::uint32_t bits = 0;
                            std::memcpy(&bits, row + i, 4);
                            packed.bf16[at] = static_cast<std::uint16_t>(bits >> 16);
                        } else {
                            packed.f32[at] = row[i];
                        }
                    }
                }
            }
        }
    });
    return packed;
}

// C (m × n) = A (m × k) · W, as Product; bfloat16 panels widened one at a time per thread.
inline void Product(const float* a, int m, const PackedWeight& w, float* c, int threads) {
    if (!w.f32.empty()) {
        Product(a, m, w.k, w.f32.data(), w.n, c, threads);
        return;
    }
    const int k = w.k, n = w.n, panels = (n + kPanel - 1) / kPanel;
    SplitOverThreads(panels, threads, [&](int first_panel, int end_panel) {
        std::vector<float> panel(static_cast<std::size_t>(k) * kPanel);
        for (int each = first_panel; each < end_panel; ++each) {
            const int first = each * kPanel, width = std::min(kPanel, n - first);
            Widen(w.bf16.data() + static_cast<std::size_t>(first) * k,
                  static_cast<std::size_t>(k) * width, panel.data());
            trainer::Gemm(m, width, k, trainer::RowMajor(a, k), panel.data(), width, c + first, n,
                          false);
        }
    });
}

// A table of rows (vocab × d, row-major: the token embeddings, the output head), as bfloat16
// halves when it is exactly bfloat16.
struct PackedTable {
    int rows = 0, cols = 0;
    std::vector<float> f32;
    std::vector<std::uint16_t> bf16;
    bool empty() const { return rows == 0; }
    std::size_t Bytes() const { return f32.size() * 4 + bf16.size() * 2; }
    void Row(int row, float* out) const {
        const std::size_t at = static_cast<std::size_t>(row) * cols;
        if (!f32.empty())
            std::copy_n(f32.data() + at, cols, out);
        else
            Widen(bf16.data() + at, static_cast<std::size_t>(cols), out);
    }
};

inline PackedTable PackTable(std::vector<float> values, int rows, int cols) {
    PackedTable table;
    table.rows = rows;
    table.cols = cols;
    if (AllBfloat16(values))
        table.bf16 = UpperHalves(values);
    else
        table.f32 = std::move(values);
    return table;
}

// TableProduct of a packed table: bfloat16 rows widened 256 at a time per thread.
inline void TableProduct(const PackedTable& table, const float* h_t, int m, float* c, int threads) {
    const int vocab = table.rows, d = table.cols;
    if (!table.f32.empty()) {
        TableProduct(table.f32.data(), vocab, d, h_t, m, c, threads);
        return;
    }
    constexpr int kRows = 256;
    SplitOverThreads(vocab, std::min(threads, std::max(1, vocab / 1024)), [&](int begin, int end) {
        std::vector<float> rows(static_cast<std::size_t>(kRows) * d);
        for (int first = begin; first < end; first += kRows) {
            const int count = std::min(kRows, end - first);
            Widen(table.bf16.data() + static_cast<std::size_t>(first) * d,
                  static_cast<std::size_t>(count) * d, rows.data());
            trainer::Gemm(count, m, d, trainer::RowMajor(rows.data(), d), h_t, m,
                          c + static_cast<std::size_t>(first) * m, m, false);
        }
    });
}

} // namespace pelab::detail
