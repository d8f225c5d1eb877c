#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan, in the sanitizer build: scripts/build.sh
# --sanitize) and runs them.
# Usage: scripts/fuzz.sh [-j N] [TARGET|all] [SECONDS]   e.g. scripts/fuzz.sh fuzz_scene 600
#   -j N  run N targets at a time (1 by default); each still gets SECONDS and its input floor
# Targets: fuzz_scene (scene parser), fuzz_png_scene (PNG text chunk → scene), fuzz_tokenize
# (order demo tokenizer / UTF-8 check), fuzz_cli (command line), fuzz_lesson (lesson reader), fuzz_quiz (quiz reader),
# fuzz_train_run (training-run reader, then the Train panel), fuzz_model_file (a checkpoint:
# safetensors, .npy or GGUF, opened and analysed), fuzz_model_config (config.json of a
# checkpoint), fuzz_gguf (a GGUF header and its metadata read as a config).
# Seeds: assets/scenes, assets/lessons, tests/corpus/<target>. A crash, sanitizer report, timeout or leak fails the run; its input is
# saved under build-sanitize/fuzz/crashes/ — copy it to tests/corpus/<target>/ so the normal tests
# replay it (tests/corpus_test.cpp).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
parallel=1
if [[ ${1:-} == -j ]]; then parallel=${2:-}; shift 2 || true; fi
which_target=${1:-all}
seconds=${2:-30}
[[ "$seconds" =~ ^[0-9]+$ && "$parallel" =~ ^[1-9][0-9]*$ ]] ||
    { echo "usage: $0 [-j N] [TARGET|all] [SECONDS]" >&2; exit 2; }
command -v clang++ >/dev/null || { echo "fuzz: clang++ is missing (scripts/deps.sh test installs it)" >&2; exit 1; }
# One line: scripts/test.sh counts the targets by reading it.
targets=(fuzz_scene fuzz_png_scene fuzz_tokenize fuzz_cli fuzz_lesson fuzz_quiz fuzz_train_run fuzz_model_file fuzz_model_config fuzz_gguf)
[[ "$which_target" == all ]] || targets=("$which_target")
build=$root/build-sanitize
echo "fuzz: building ${targets[*]} with clang (libFuzzer + ASan + UBSan) in $build"
target_args=()
for target in "${targets[@]}"; do target_args+=(--target "$target"); done
"$root/scripts/build.sh" --sanitize "${target_args[@]}" "$build" >/dev/null
out=$build/fuzz
mkdir -p "$out/crashes"
# fuzz_one TARGET: runs it, prints one line, and leaves $out/TARGET.status (0 passed).
fuzz_one() {
    local target=$1 corpus seeds existing dict log runs input
    corpus=$out/corpus/$target
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
    log=$out/$target.log
    : >"$log"
    # Rounds of SECONDS each until the target has run its floor of 1000 inputs (one round, as a
    # rule; a second or third when a busy machine slowed it), each round going on from the
    # corpus the last one grew. -close_fd_mask=3: the CLI target's messages would flood the log.
    local round=0 total=0 status=0
    while ((round < 3 && total < 1000)); do
        round=$((round + 1))
        ASAN_OPTIONS=detect_leaks=1 "$build/bin/$target" "$corpus" "${existing[@]}" "${dict[@]}" \
            -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
            -artifact_prefix="$out/crashes/$target-" -close_fd_mask=3 -print_final_stats=1 \
            >"$log.round" 2>&1 || status=$?
        cat "$log.round" >>"$log"
        ((status == 0)) || break
        runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log.round" | grep -Eo '[0-9]+$' || echo 0)
        total=$((total + runs))
    done
    rm -f "$log.round"
    if ((status == 0)); then
        echo "fuzz: $target: $total inputs in $((round * seconds))s, no failure"
        if ((total < 1000)); then
            echo "fuzz: $target ran fewer than 1000 inputs" >&2
            echo 1 >"$out/$target.status"
            return
        fi
        echo 0 >"$out/$target.status"
    else
        {
        echo "fuzz: $target FAILED (log: $log, input: $(ls "$out"/crashes/"$target"-* 2>/dev/null | head -1))"
        tail -40 "$log"
        # The input itself, so that a failure on a CI machine can be replayed here.
        input=$(ls "$out"/crashes/"$target"-* 2>/dev/null | head -1)
        if [[ -n "$input" && $(stat -c %s "$input") -le 65536 ]]; then
            echo "fuzz: the input, base64 (decode with: base64 -d > input):"
            base64 -w 100 "$input"
        fi
        } >&2
        echo 1 >"$out/$target.status"
    fi
}
for target in "${targets[@]}"; do
    rm -f "$out/$target.status"
    fuzz_one "$target" &
    while (($(jobs -rp | wc -l) >= parallel)); do wait -n || true; done
done
wait
status=0
for target in "${targets[@]}"; do
    [[ $(cat "$out/$target.status" 2>/dev/null) == 0 ]] || status=1
done
exit $status
