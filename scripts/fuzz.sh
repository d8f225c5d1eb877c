#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs them.
# Usage: scripts/fuzz.sh [TARGET|all] [SECONDS]   e.g. scripts/fuzz.sh fuzz_scene 600
# Targets: fuzz_scene (scene parser), fuzz_png_scene (PNG text chunk → scene), fuzz_tokenize
# (order demo tokenizer / UTF-8 check), fuzz_cli (command line), fuzz_lesson (lesson reader), fuzz_quiz (quiz reader),
# fuzz_train_run (training-run reader, then the Train panel).
# Seeds: assets/scenes, assets/lessons, tests/corpus/<target>. A crash, sanitizer report, timeout or leak fails the run; its input is
# saved under build-fuzz/crashes/ — copy it to tests/corpus/<target>/ so the normal tests
# replay it (tests/corpus_test.cpp).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
which_target=${1:-all}
seconds=${2:-30}
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "usage: $0 [TARGET|all] [SECONDS]" >&2; exit 2; }
command -v clang++ >/dev/null || { echo "fuzz: clang++ is missing (scripts/deps.sh test installs it)" >&2; exit 1; }
targets=(fuzz_scene fuzz_png_scene fuzz_tokenize fuzz_cli fuzz_lesson fuzz_quiz fuzz_train_run)
[[ "$which_target" == all ]] || targets=("$which_target")
build=$root/build-fuzz
echo "fuzz: building ${targets[*]} with clang (libFuzzer + ASan + UBSan)"
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPELAB_FUZZ=ON >/dev/null
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}" >/dev/null
mkdir -p "$build/crashes"
status=0
for target in "${targets[@]}"; do
    corpus=$build/corpus/$target
    mkdir -p "$corpus"
    seeds=("$root/tests/corpus/$target")
    [[ "$target" == fuzz_scene ]] && seeds+=("$root/assets/scenes")
    [[ "$target" == fuzz_lesson ]] && seeds+=("$root/assets/lessons")
    [[ "$target" == fuzz_quiz ]] && seeds+=("$root/assets/quiz")
    [[ "$target" == fuzz_png_scene ]] && seeds+=("$root/assets/screenshots")
    existing=()
    for seed in "${seeds[@]}"; do [[ -d "$seed" ]] && existing+=("$seed"); done
    dict=()
    [[ -f "$root/tests/fuzz/$target.dict" ]] && dict=(-dict="$root/tests/fuzz/$target.dict")
    log=$build/$target.log
    # -close_fd_mask=3: the CLI target's messages would flood the log.
    if ASAN_OPTIONS=detect_leaks=1 "$build/bin/$target" "$corpus" "${existing[@]}" "${dict[@]}" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -artifact_prefix="$build/crashes/$target-" -close_fd_mask=3 -print_final_stats=1 >"$log" 2>&1; then
        runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo 0)
        echo "fuzz: $target: $runs inputs in ${seconds}s, no failure"
        if ((runs < 1000)); then
            echo "fuzz: $target ran fewer than 1000 inputs" >&2
            status=1
        fi
    else
        echo "fuzz: $target FAILED (log: $log, input: $(ls "$build"/crashes/"$target"-* 2>/dev/null | head -1))" >&2
        tail -40 "$log" >&2
        # The input itself, so that a failure on a CI machine can be replayed here.
        input=$(ls "$build"/crashes/"$target"-* 2>/dev/null | head -1)
        if [[ -n "$input" && $(stat -c %s "$input") -le 65536 ]]; then
            echo "fuzz: the input, base64 (decode with: base64 -d > input):" >&2
            base64 -w 100 "$input" >&2
        fi
        status=1
    fi
done
exit $status
