#!/usr/bin/env bash
# Times pelab_core's PE matrix next to NumPy float32 and the widely copied PyTorch code (one
# thread) in the same run, and prints the ratios (medians). Installs python3-numpy and
# python3-torch when missing (scripts/deps.sh bench).
# Usage: scripts/bench_compare.sh [--no-install]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
[[ "${1:-}" == "--no-install" ]] || scripts/deps.sh bench
scripts/build.sh "$root/build" >/dev/null
python=/usr/bin/python3 # Debian's interpreter, where python3-numpy / python3-torch install
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Interleave the two sides twice so that machine noise hits both alike.
for round in 1 2; do
    build/bin/pelab_bench --benchmark_filter='BM_PeMatrix(Fresh)?/(2048/512|8192/1024)$|BM_WriteOnly(Streaming)?/(2048/512|8192/1024)$|BM_Similarity(Matrix|Offsets)/4096/512$' \
        --benchmark_repetitions=9 --benchmark_report_aggregates_only=true \
        --benchmark_format=json >"$tmp/pelab_$round.json" 2>/dev/null
    "$python" scripts/bench_reference.py 2048x512 8192x1024 >"$tmp/reference_$round.txt"
    "$python" scripts/bench_reference.py --similarity 4096x512 >>"$tmp/reference_$round.txt"
done

"$python" - "$tmp" <<'PY'
import json, statistics, sys, glob, os
tmp = sys.argv[1]
ours = {}
for path in sorted(glob.glob(os.path.join(tmp, "pelab_*.json"))):
    for b in json.load(open(path))["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        name = b["run_name"]
        seconds = b["real_time"] * {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b["time_unit"]]
        ours.setdefault(name, []).append((seconds, b.get("max_abs_error")))
ref = {}
for path in sorted(glob.glob(os.path.join(tmp, "reference_*.txt"))):
    for line in open(path):
        if line.startswith("#"):
            continue
        name, n, d, seconds, error = line.split()
        ref.setdefault((name, n, d), []).append((float(seconds), float(error)))

def med(entries):
    return statistics.median(e[0] for e in entries)

print(f"{'size':>10} {'implementation':<36} {'median ms':>10} {'max |error|':>12} {'numpy/x':>8} {'torch/x':>8}")
for n, d in (("2048", "512"), ("8192", "1024")):
    numpy_t = med(ref[("numpy_float32", n, d)]) if ("numpy_float32", n, d) in ref else None
    torch_t = med(ref[("torch_reference", n, d)]) if ("torch_reference", n, d) in ref else None
    rows = []
    for label, key in (("pelab_core, reused buffer", f"BM_PeMatrix/{n}/{d}"),
                       ("pelab_core, fresh array", f"BM_PeMatrixFresh/{n}/{d}"),
                       ("floor: plain stores, one thread", f"BM_WriteOnly/{n}/{d}"),
                       ("floor: streaming stores, one thread", f"BM_WriteOnlyStreaming/{n}/{d}")):
        if key in ours:
            errors = [e[1] for e in ours[key] if e[1] is not None]
            rows.append((label, med(ours[key]), max(errors) if errors else None))
    for impl in ("numpy_float32", "torch_reference"):
        if (impl, n, d) in ref:
            rows.append((impl, med(ref[(impl, n, d)]), max(e[1] for e in ref[(impl, n, d)])))
    for label, t, err in rows:
        ratio_numpy = f"{numpy_t / t:8.1f}" if numpy_t else "       -"
        ratio_torch = f"{torch_t / t:8.1f}" if torch_t else "       -"
        err_text = f"{err:12.1e}" if err is not None else "           -"
        print(f"{n + 'x' + d:>10} {label:<36} {t * 1e3:10.3f} {err_text} {ratio_numpy} {ratio_torch}")
# The similarity matrix PE(p).PE(q) at L = 4096, d = 512: NumPy's pe @ pe.T against the core's
# full matrix from the offset function, and against the offset function alone (all the GPU
# heatmap needs).
print()
print(f"{'size':>10} {'similarity matrix':<34} {'median ms':>10} {'max |error|':>12} {'numpy/x':>8}")
key = ("numpy_similarity", "4096", "512")
if key in ref:
    numpy_t = med(ref[key])
    for label, name in (("pelab_core, full 4096x4096 matrix", "BM_SimilarityMatrix/4096/512"),
                        ("pelab_core, offset function only", "BM_SimilarityOffsets/4096/512")):
        if name in ours:
            t = med(ours[name])
            print(f"{'4096x512':>10} {label:<34} {t * 1e3:10.3f} {'-':>12} {numpy_t / t:8.1f}")
    print(f"{'4096x512':>10} {'NumPy pe @ pe.T (float32)':<34} {numpy_t * 1e3:10.3f} "
          f"{max(e[1] for e in ref[key]):12.1e} {1.0:8.1f}")
PY
