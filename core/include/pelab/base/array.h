// pelab/base/array.h — the array type the core returns when it hands out a fresh buffer.
//
// FloatArray is a std::vector<float> with an allocator tuned for large results:
//  - elements are default-initialised (no zeroing pass: the core overwrites every value);
//  - buffers of 4 MiB or more are 2 MiB-aligned and advised as transparent huge pages on
//    Linux, so first touching a 32 MiB matrix costs a few page faults instead of thousands
//    (measured on this project's VM class: 19 ms → 3 ms for 32 MiB).
// It is contiguous and row-major like any vector: data() and size() are what callers use.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>
#include <utility>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace pelab {

template <typename T> struct LargeArrayAllocator {
    using value_type = T;
    static constexpr std::size_t kHugeThreshold = std::size_t{4} << 20;
    static constexpr std::size_t kHugeAlignment = std::size_t{2} << 20;

    LargeArrayAllocator() noexcept = default;
    template <typename U> LargeArrayAllocator(const LargeArrayAllocator<U>&) noexcept {}

    T* allocate(std::size_t count) {
        if (count > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_alloc();
        const std::size_t bytes = count * sizeof(T);
        if (bytes < kHugeThreshold) return static_cast<T*>(::operator new(bytes));
        const std::size_t rounded = (bytes + kHugeAlignment - 1) / kHugeAlignment * kHugeAlignment;
        void* memory = std::aligned_alloc(kHugeAlignment, rounded);
        if (!memory) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        madvise(memory, rounded, MADV_HUGEPAGE); // a hint: ignoring failure is correct
#endif
        return static_cast<T*>(memory);
    }

    void deallocate(T* pointer, std::size_t count) noexcept {
        if (count * sizeof(T) < kHugeThreshold)
            ::operator delete(pointer);
        else
            std::free(pointer);
    }

    /// Default-initialise (no zeroing) when no value is given.
    template <typename U> void construct(U* pointer) noexcept {
        ::new (static_cast<void*>(pointer)) U;
    }
    template <typename U, typename... Args> void construct(U* pointer, Args&&... args) {
        ::new (static_cast<void*>(pointer)) U(std::forward<Args>(args)...);
    }

    template <typename U> bool operator==(const LargeArrayAllocator<U>&) const noexcept {
        return true;
    }
    template <typename U> bool operator!=(const LargeArrayAllocator<U>&) const noexcept {
        return false;
    }
};

using FloatArray = std::vector<float, LargeArrayAllocator<float>>;

} // namespace pelab
