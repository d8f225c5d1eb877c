// models/dense_products.h — the matrix products of the forward passes on checkpoints (gpt2.cpp,
// llama.cpp): weights packed once in column panels, each product split by panels over threads
// through the trainer's Gemm (the same bits on every CPU path, whatever the split).
#pragma once

#include "transformer/gemm.h"

#include <algorithm>
#include <cstddef>
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

} // namespace pelab::detail
