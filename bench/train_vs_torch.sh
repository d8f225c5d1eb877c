#!/usr/bin/env bash
# bench/train_vs_torch.sh [PELAB] [ROUNDS] — training throughput side by side in one run: the
# reference model of ../shared/anchors/torch_tiny_transformer.py (PyTorch, one thread) and
# `pelab train` on the same shape (reverse, length 16, batch 64, 300 steps, one thread), for
# sinusoidal and none, alternating ROUNDS times (3 by default); prints each run's tokens per
# second and the median ratio. docs/performance.md records its output.
set -euo pipefail
cd "$(dirname "$0")/.."
pelab=${1:-build/bin/pelab}
rounds=${2:-3}
anchor=../shared/anchors/torch_tiny_transformer.py
[[ -f "$anchor" ]] || { echo "bench: $anchor is missing (../shared beside the repo)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# One thread for the anchor's BLAS too (OpenBLAS starts one per core otherwise), and the BLAS
# it really loads, said: PyTorch as Debian ships it takes whatever libblas.so.3 the system
# provides (netlib's reference BLAS unless OpenBLAS is installed: scripts/deps.sh bench).
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
/usr/bin/python3 bench/torch_blas.py
for pe in sinusoidal none; do
    : >"$tmp/ratios"
    for round in $(seq "$rounds"); do
        torch=$(/usr/bin/python3 "$anchor" --pe "$pe" --threads 1 --json |
            /usr/bin/python3 -c 'import json,sys; print(round(json.load(sys.stdin)["tokens_per_second"]))')
        "$pelab" train --task reverse --pe "$pe" --threads 1 --test-len 16 --out "$tmp/run.json" 2>/dev/null
        ours=$(/usr/bin/python3 -c 'import json,sys; print(round(json.load(open(sys.argv[1]))["tokens_per_second_per_thread"]))' "$tmp/run.json")
        ratio=$(/usr/bin/python3 -c "print(f'{$ours / $torch:.2f}')")
        echo "$pe round $round: PyTorch $torch tokens/s, PE Lab $ours tokens/s: ${ratio}x"
        echo "$ratio" >>"$tmp/ratios"
    done
    echo "$pe: median ratio $(sort -n "$tmp/ratios" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')x"
done
