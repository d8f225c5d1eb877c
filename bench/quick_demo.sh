#!/usr/bin/env bash
# How long a class waits for the Train panel's runs: the Quick demo (`pelab train --quick-demo`,
# the settings the button trains) on two threads, as the panel's two workers run it on a 2-core
# machine, and the default six-variant run on one and on two threads. Wall-clock seconds of
# each run, then the median of RUNS runs, as a Markdown table for docs/performance.md.
# Usage: bench/quick_demo.sh [PELAB] [RUNS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pelab=${1:-$root/build/bin/pelab}
runs=${2:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
time_runs() { # label, runs, pelab train arguments…
    local label=$1 n=$2
    shift 2
    local times=() start end
    for ((r = 0; r < n; r++)); do
        start=$(date +%s.%N)
        "$pelab" train "$@" --out "$work/run.json" 2>/dev/null
        end=$(date +%s.%N)
        times+=("$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')")
    done
    printf '| %s | %s s (%s runs: %s) |\n' "$label" \
        "$(printf '%s\n' "${times[@]}" | median | xargs printf '%.1f')" "$n" \
        "$(printf '%.1f ' "${times[@]}")"
}
echo "| run | median wall time |"
echo "|---|---|"
time_runs "Quick demo (reverse, none and sinusoidal, 150 steps), two threads" "$runs" \
    --quick-demo --threads 2
time_runs "the default six variants × 300 steps, two threads" 1 --threads 2
time_runs "the default six variants × 300 steps, one thread" 1 --threads 1
python3 - "$work/run.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
print("(the last run's tokens per second per thread: %.0f)" % run["tokens_per_second_per_thread"])
PY
