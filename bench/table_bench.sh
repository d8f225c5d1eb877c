#!/usr/bin/env bash
# Large learned position tables in `pelab model inspect` (reliability round 5: a 4096 × 4096
# table ran for minutes). Writes three seeded tables as GPT-2's wpe.weight: 131072 × 128 (tall:
# the Gram matrix whole), a learned-like 4096 × 4096 (sinusoidal pairs of decreasing amplitude
# plus noise: the iterative solver converges) and a random 4096 × 4096 (a flat spectrum, the
# solver's slowest case: stopped at its 2.5 s cap and marked approximate). Runs each RUNS times
# and prints the median wall-clock seconds, the largest peak memory of the whole process, and
# the target of the issue: ≤ 2 s (tall) or ≤ 3 s (square), peak ≤ 4 × the table's float32 size
# + 60 MB. A benchmark, not a test (docs/performance.md records its output).
# Usage: bench/table_bench.sh [PELAB] [RUNS]   (needs python3-numpy: scripts/deps.sh test)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pelab=${1:-$root/build/bin/pelab}
runs=${2:-3}
folder=$(mktemp -d)
trap 'rm -rf "$folder"' EXIT
/usr/bin/python3 - "$folder" "$root/tests/models" <<'PY'
import os, sys
import numpy as np
sys.path.insert(0, sys.argv[2])
import make_fixtures as m
folder = sys.argv[1]
rng = np.random.default_rng(3)
def learned(rows, cols):
    p = np.arange(rows)[:, None]
    i = np.arange(cols // 2)[None, :]
    omega, amplitude = 10000.0 ** (-2.0 * i / cols), 1.0 / (i + 1)
    t = np.empty((rows, cols))
    t[:, 0::2], t[:, 1::2] = amplitude * np.sin(p * omega), amplitude * np.cos(p * omega)
    return (t + rng.normal(0, 0.02, size=t.shape)).astype(np.float32)
tables = {"tall-131072x128": rng.normal(0, 0.02, size=(131072, 128)).astype(np.float32),
          "learned-4096x4096": learned(4096, 4096),
          "random-4096x4096": rng.normal(0, 0.02, size=(4096, 4096)).astype(np.float32)}
for name, table in tables.items():
    os.makedirs(os.path.join(folder, name))
    m.write_safetensors(os.path.join(folder, name, "model.safetensors"),
                        [("wpe.weight", table, "F32")])
PY
printf '%-20s %8s %10s %10s  %s\n' table seconds "peak MB" "limit MB" "what it says"
for name in tall-131072x128 learned-4096x4096 random-4096x4096; do
    times=() peak=0
    for ((run = 0; run < runs; run++)); do
        /usr/bin/time -f '%e %M' -o "$folder/time" "$pelab" model inspect "$folder/$name" \
            --out "$folder/report.txt"
        read -r seconds kilobytes <"$folder/time"
        times+=("$seconds")
        ((kilobytes > peak)) && peak=$kilobytes
    done
    median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
    said=$(grep -o 'approximate[^)]*' "$folder/report.txt" | head -1 || true)
    printf '%-20s %8s %10d %10d  %s\n' "$name" "$median" $((peak / 1024)) $((4 * 64 + 60)) \
        "${said:-exact (converged)}"
done
