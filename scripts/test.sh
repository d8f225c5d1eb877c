#!/usr/bin/env bash
# One command to install what is missing, build, and run every test:
#  - Release build: unit, headless-frame, CLI and end-to-end (Xvfb + xdotool) tests;
#  - clang-tidy on the C++ files of the last change (scripts/tidy.sh);
#  - the browser edition: scripts/web.sh builds it with Emscripten, and tests/web/test_web.py
#    checks it in headless Chromium against the Release build's `pelab readouts`;
#  - the sanitizer build (clang -O1 -g, AddressSanitizer + UndefinedBehaviorSanitizer, with
#    libFuzzer's coverage: scripts/build.sh --sanitize): unit, headless-frame and CLI tests;
#  - libFuzzer on the scene, PNG-scene, tokenizer, command-line, lesson, quiz and training-run
#    readers (20 s each, two at a time, each at least 1000 inputs: a second round when a busy
#    machine kept one below that), from the same build;
#  - a 60-second random-input soak of the sanitizer build's real window under Xvfb (crashes,
#    sanitizer reports, leaks), and one of the release build whose memory must not keep growing.
# Ends with a table of each stage's minutes beside its budget, then one line "tests: N passed,
# M failed"; exits non-zero on any failure. docs/testing.md has the measured times.
#
# Two lanes run side by side. The CPU lane, at a lower priority (nice), builds and runs the tests
# that keep a core busy; the wall-clock lane runs what mostly waits (the real window under Xvfb,
# the soaks, the page in Chromium) as soon as its build is there, so its timing-sensitive checks
# get the CPU when they ask. Builds go through ccache (scripts/ccache.sh): a new clone on a
# machine that has run the suite recompiles only what changed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
jobs=$(nproc)
started=$(date +%s)
export root jobs
# The NumPy and PyTorch checks of the suite on one BLAS thread each: OpenBLAS (scripts/deps.sh)
# starts one per core otherwise, beside the two test jobs already on them.
export OPENBLAS_NUM_THREADS=1

# Each stage's budget in minutes. The CPU lane's stages run one after the other and make the
# suite's length: their budgets add up to 30, the suite's budget from a clean clone on two cores
# (docs/testing.md). The wall-clock lane's stages run beside them and must fit in that time. A
# stage past its budget by more than half is named in the summary.
declare -A budget=(
    [deps]=0.5
    [release build]=5
    [sanitizer build]=8
    [browser build]=4
    [release tests]=4.5
    [clang-tidy]=1.5
    [sanitizer tests]=4
    [fuzzing]=2.5
    [end-to-end]=4
    [soak]=1.5
    [browser checks]=5
    [firefox smoke]=1
)
cpu_stages=(deps "release build" "sanitizer build" "browser build" "release tests" clang-tidy
            "sanitizer tests" fuzzing)
wall_stages=(end-to-end soak "browser checks" "firefox smoke")
stage_order=("${cpu_stages[@]}" "${wall_stages[@]}")

logs=$root/build/logs
rm -rf "$logs"
mkdir -p "$logs"
marks=$logs/marks
mkdir -p "$marks"
export logs

# stage NAME COMMAND…: runs COMMAND with its output in build/logs/NAME.log, and records its start,
# end and status (marks/NAME) for the table and for the other lane.
stage() {
    local name=$1 file begin end status=0
    shift
    file="$logs/${name// /-}.log"
    begin=$(date +%s)
    echo "== $name: started ($(date +%H:%M:%S))"
    "$@" >"$file" 2>&1 || status=$?
    end=$(date +%s)
    printf '%s\t%s\t%s\t%s\n' "$name" "$begin" "$end" "$status" >>"$logs/stages.tsv"
    echo "$status" >"$marks/${name// /-}"
    if ((status == 0)); then
        echo "== $name: passed in $(((end - begin) / 60)) min $(((end - begin) % 60)) s"
    else
        echo "== $name: FAILED (exit $status) in $(((end - begin) / 60)) min $(((end - begin) % 60)) s; the end of $file:"
        tail -80 "$file" | sed 's/^/    /'
    fi
    return "$status"
}
# skip NAME WHY: a stage that could not run because what it needs failed.
skip() {
    local now
    now=$(date +%s)
    printf '%s\t%s\t%s\t%s\n' "$1" "$now" "$now" "skipped" >>"$logs/stages.tsv"
    echo "skipped" >"$marks/${1// /-}"
    echo "== $1: SKIPPED ($2)"
}
# wait_for NAME: waits until the stage NAME has ended; true when it passed.
wait_for() {
    local mark="$marks/${1// /-}"
    while [[ ! -f "$mark" ]]; do sleep 2; done
    [[ $(cat "$mark") == 0 ]]
}

stage deps scripts/deps.sh test || true

# --- The CPU lane -------------------------------------------------------------------------------
cpu_lane() {
    if stage "release build" scripts/build.sh --unity "$root/build"; then
        stage "sanitizer build" nice -n 10 scripts/build.sh --sanitize --unity "$root/build-sanitize"
        stage "browser build" nice -n 10 scripts/web.sh --single-file
        # Everything but the real window, which the other lane runs.
        stage "release tests" nice -n 10 ctest --test-dir build --output-on-failure -j"$jobs" -LE e2e
        stage clang-tidy nice -n 10 scripts/tidy.sh --build "$root/build"
    else
        skip "sanitizer build" "the release build failed"
        skip "browser build" "the release build failed"
        skip "release tests" "the release build failed"
        skip clang-tidy "the release build failed"
    fi
    if wait_for "sanitizer build"; then
        stage "sanitizer tests" nice -n 10 env ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
            UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir build-sanitize --output-on-failure \
            -j"$jobs" -LE "e2e|package|slow"
        stage fuzzing nice -n 10 scripts/fuzz.sh -j 2 all 20
    else
        skip "sanitizer tests" "the sanitizer build failed"
        skip fuzzing "the sanitizer build failed"
    fi
}

# --- The wall-clock lane ------------------------------------------------------------------------
soaks() { # both at once: each has its own X server
    local status=0
    SOAK_STEADY_VIEW=1 scripts/soak.sh 60 "$root/build/bin/pelab" 1 >"$logs/soak-release.log" 2>&1 &
    local release=$!
    local sanitizer=0
    SOAK_MEMORY_CHECK=0 SOAK_END_WITH_SIGTERM=1 scripts/soak.sh 60 "$root/build-sanitize/bin/pelab" 1 \
        >"$logs/soak-sanitizer.log" 2>&1 || sanitizer=1
    # LeakSanitizer's own tracer can crash while it stops the threads at exit ("Tracer caught
    # signal 11 … LeakSanitizer has encountered a fatal error": a failure of the tool, which then
    # reports nothing about leaks). Then, and only then, the soak runs once more; both logs stay.
    if ((sanitizer)) && grep -q "LeakSanitizer has encountered a fatal error" "$logs/soak-sanitizer.log" &&
        ! grep -qE "ERROR: (AddressSanitizer|LeakSanitizer): |runtime error" "$logs/soak-sanitizer.log"; then
        mv "$logs/soak-sanitizer.log" "$logs/soak-sanitizer-tool-failure.log"
        echo "soak: LeakSanitizer's tracer crashed (a tool failure, no finding): once more" \
            >"$logs/soak-sanitizer.log"
        sanitizer=0
        SOAK_MEMORY_CHECK=0 SOAK_END_WITH_SIGTERM=1 scripts/soak.sh 60 "$root/build-sanitize/bin/pelab" 1 \
            >>"$logs/soak-sanitizer.log" 2>&1 || sanitizer=1
    fi
    ((sanitizer)) && status=1
    wait "$release" || status=1
    echo "-- the sanitizer build's soak (crashes, reports, leaks):"
    cat "$logs/soak-sanitizer.log"
    echo "-- the release build's soak (memory):"
    cat "$logs/soak-release.log"
    return $status
}
export -f soaks
wall_lane() {
    if ! wait_for "release build"; then
        skip end-to-end "the release build failed"
        skip soak "the release build failed"
        skip "browser checks" "the release build failed"
        skip "firefox smoke" "the release build failed"
        return
    fi
    # The real window, three scripts at a time (each has its own X server and home folder).
    stage end-to-end ctest --test-dir build --output-on-failure -j3 -L e2e
    if wait_for "sanitizer build"; then
        stage soak bash -c soaks
    else
        skip soak "the sanitizer build failed"
    fi
    if wait_for "browser build"; then
        # The first frame's 2 s (docs/web.md) is measured by scripts/web_report.sh on a quiet
        # machine; here, with the suite's load around it, the test allows twice that.
        stage "browser checks" /usr/bin/python3 tests/web/test_web.py build-web/site build/bin/pelab \
            --first-frame-limit 4 --single build-web/pelab.html
        # The same page in Firefox, with a window on its own X server (tests/web/test_firefox.py).
        stage "firefox smoke" xvfb-run -a -s "-screen 0 1280x1024x24" \
            /usr/bin/python3 tests/web/test_firefox.py build-web/site
    else
        skip "browser checks" "the browser build failed"
        skip "firefox smoke" "the browser build failed"
    fi
}

cpu_lane &
cpu_pid=$!
wall_lane &
wall_pid=$!
wait "$cpu_pid" "$wall_pid"
finished=$(date +%s)

# --- Summary ------------------------------------------------------------------------------------
echo "== Summary"
printf '%-16s %8s %8s  %s\n' stage minutes budget result
over=()
for name in "${stage_order[@]}"; do
    line=$(awk -F'\t' -v n="$name" '$1 == n' "$logs/stages.tsv" | tail -1)
    if [[ -z "$line" ]]; then
        printf '%-16s %8s %8s  %s\n' "$name" - "${budget[$name]}" "did not run"
        continue
    fi
    IFS=$'\t' read -r _ begin end status <<<"$line"
    minutes=$(awk -v b="$begin" -v e="$end" 'BEGIN { printf "%.1f", (e - b) / 60 }')
    result=$([[ $status == 0 ]] && echo passed || { [[ $status == skipped ]] && echo SKIPPED || echo FAILED; })
    if awk -v m="$minutes" -v b="${budget[$name]}" 'BEGIN { exit !(m > 1.5 * b) }'; then
        result+=", OVER BUDGET by more than half"
        over+=("$name ($minutes min, budget ${budget[$name]})")
    fi
    printf '%-16s %8s %8s  %s\n' "$name" "$minutes" "${budget[$name]}" "$result"
done
sum_budgets() { local name sum=0; for name in "$@"; do sum=$(awk -v s="$sum" -v b="${budget[$name]}" 'BEGIN { print s + b }'); done; echo "$sum"; }
printf '%-16s %8s %8s  %s\n' "whole suite" "$(awk -v s="$started" -v f="$finished" 'BEGIN { printf "%.1f", (f - s) / 60 }')" \
    "$(sum_budgets "${cpu_stages[@]}")" "wall clock; its budget is the CPU lane's (the wall-clock lane's $(sum_budgets "${wall_stages[@]}") run beside it)"
((${#over[@]})) && echo "over budget by more than half: ${over[*]}"
echo "logs: build/logs/; screenshots for a person to look at: build/screenshots/"

# CTest's own summary lines, then one plain total over every run.
total=0
failed=0
for name in "release tests" end-to-end "sanitizer tests"; do
    log="$logs/${name// /-}.log"
    line=$(grep -E 'tests passed, [0-9]+ tests failed out of [0-9]+' "$log" 2>/dev/null | tail -1 || true)
    [[ -n "$line" ]] || { echo "no CTest summary in $log"; failed=$((failed + 1)); continue; }
    echo "$name: $line"
    total=$((total + $(sed -E 's/.*out of ([0-9]+).*/\1/' <<<"$line")))
    failed=$((failed + $(sed -E 's/.* ([0-9]+) tests failed.*/\1/' <<<"$line")))
done
stage_failed() { [[ $(cat "$marks/${1// /-}" 2>/dev/null) != 0 ]]; }
# Each fuzz target (the list in scripts/fuzz.sh), the soak, clang-tidy, the browser edition and
# its Firefox smoke test count as one test each.
fuzz_targets=$(sed -n 's/^targets=(\(.*\))$/\1/p' scripts/fuzz.sh | wc -w)
fuzz_passed=$(grep -c 'no failure' "$logs/fuzzing.log" 2>/dev/null || true)
total=$((total + fuzz_targets + 4))
failed=$((failed + (fuzz_targets - fuzz_passed)))
for name in soak clang-tidy "browser checks" "firefox smoke"; do stage_failed "$name" && failed=$((failed + 1)); done
for name in deps "release build" "sanitizer build" "browser build" "release tests" end-to-end \
    "sanitizer tests" fuzzing; do
    stage_failed "$name" && failed=$((failed > 0 ? failed : 1))
done
echo "tests: $((total - failed)) passed, $failed failed"
[[ $failed -eq 0 ]]
