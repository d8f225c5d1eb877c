"""Times the PE matrix the way scripts usually compute it, for scripts/bench_compare.sh.

numpy_float32: the common NumPy recipe, float32 throughout (angles included).
torch_reference: document 003's PyTorch function, verbatim in behaviour, one thread.
Prints one line per (implementation, max_len, d_model): median seconds of N runs and the max
absolute error against a float64 NumPy reference.
"""
import math
import sys
import time

import numpy as np


def numpy_float32(max_len, d_model):
    pos = np.arange(max_len, dtype=np.float32)[:, None]
    div = np.exp(np.arange(0, d_model, 2, dtype=np.float32) * np.float32(-(math.log(10000.0) / d_model)))
    pe = np.zeros((max_len, d_model), dtype=np.float32)
    pe[:, 0::2] = np.sin(pos * div)
    pe[:, 1::2] = np.cos(pos * div)
    return pe


def float64_reference(max_len, d_model):
    pos = np.arange(max_len, dtype=np.float64)[:, None]
    w = 10000.0 ** (-np.arange(0, d_model, 2, dtype=np.float64) / d_model)
    ref = np.empty((max_len, d_model))
    ref[:, 0::2] = np.sin(pos * w)
    ref[:, 1::2] = np.cos(pos * w)
    return ref


def median_seconds(fn, repeats):
    fn()  # warm-up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    times.sort()
    return times[len(times) // 2]


def numpy_similarity(max_len, d_model):
    """The similarity matrix as a script computes it: PE times its transpose (O(L^2 d))."""
    pe = numpy_float32(max_len, d_model)
    return pe @ pe.T


def similarity_reference(max_len, d_model):
    """float64: PE(p).PE(q) = sum_i cos(w_i (p - q)), from the offset function."""
    w = 10000.0 ** (-np.arange(0, d_model, 2, dtype=np.float64) / d_model)
    f = np.cos(np.arange(max_len, dtype=np.float64)[:, None] * w).sum(axis=1)
    offsets = np.abs(np.arange(max_len)[:, None] - np.arange(max_len)[None, :])
    return f[offsets]


def main():
    args = sys.argv[1:]
    if args and args[0] == "--similarity":
        # One line per size: numpy_similarity L D median_seconds max_abs_error
        for max_len, d_model in ((int(a), int(b)) for a, b in (s.split("x") for s in args[1:])):
            seconds = median_seconds(lambda: numpy_similarity(max_len, d_model), 5)
            error = np.abs(numpy_similarity(max_len, d_model).astype(np.float64) -
                           similarity_reference(max_len, d_model)).max()
            print(f"numpy_similarity {max_len} {d_model} {seconds:.6e} {error:.3e}")
        return
    sizes = [(int(a), int(b)) for a, b in (s.split("x") for s in args)] or [(2048, 512), (8192, 1024)]
    implementations = [("numpy_float32", numpy_float32)]
    try:
        import torch

        torch.set_num_threads(1)

        def torch_reference(max_len, d_model):
            pe = torch.zeros(max_len, d_model)
            pos = torch.arange(0, max_len).unsqueeze(1).float()
            div = torch.exp(torch.arange(0, d_model, 2).float() * -(math.log(10000.0) / d_model))
            pe[:, 0::2] = torch.sin(pos * div)
            pe[:, 1::2] = torch.cos(pos * div)
            return pe

        implementations.append(("torch_reference", lambda n, d: torch_reference(n, d).numpy()))
    except ImportError:
        print("# torch not installed: PyTorch column skipped", file=sys.stderr)
    for name, fn in implementations:
        for max_len, d_model in sizes:
            repeats = 21 if max_len * d_model <= 2_000_000 else 7
            seconds = median_seconds(lambda: fn(max_len, d_model), repeats)
            error = np.abs(fn(max_len, d_model).astype(np.float64) - float64_reference(max_len, d_model)).max()
            print(f"{name} {max_len} {d_model} {seconds:.6e} {error:.3e}")


if __name__ == "__main__":
    main()
