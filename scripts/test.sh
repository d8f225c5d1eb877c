#!/usr/bin/env bash
# One command to install what is missing, build, and run every test:
#  1. Release build: unit, headless-frame, CLI and end-to-end (Xvfb + xdotool) tests;
#  2. clang-tidy on the C++ files of the last change (scripts/tidy.sh);
#  3. the browser edition: scripts/web.sh builds it with Emscripten, and tests/web/test_web.py
#     checks it in headless Chromium against the Release build's `pelab readouts`;
#  4. AddressSanitizer + UndefinedBehaviorSanitizer build: unit, headless-frame and CLI tests;
#  5. libFuzzer on the scene, PNG-scene, tokenizer, command-line, lesson and quiz readers (20 s each);
#  6. a 60-second random-input soak of the sanitizer build's real window under Xvfb (crashes,
#     sanitizer reports, leaks), and one of the release build whose memory must not keep growing.
# Ends with CTest's summary; exits non-zero on any failure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
jobs=$(nproc)

scripts/deps.sh test

echo "== Release build"
scripts/build.sh "$root/build"
echo "== Release tests (unit, headless, cli, e2e)"
release_status=0
(cd build && ctest --output-on-failure -j"$jobs") | tee build/ctest.log || release_status=$?

echo "== clang-tidy on the C++ files the last change touches (scripts/tidy.sh; --all is a script)"
tidy_status=0
scripts/tidy.sh --build "$root/build" | tee build/tidy.log || tidy_status=$?

echo "== Browser edition (scripts/web.sh, then tests/web/test_web.py in headless Chromium)"
web_status=0
# The first frame's 2 s (docs/web.md) is measured by scripts/web_report.sh on a quiet machine;
# here, with the suite's load around it, the test allows twice that.
{ scripts/web.sh --single-file && /usr/bin/python3 tests/web/test_web.py build-web/site \
    build/bin/pelab --first-frame-limit 4 --single build-web/pelab.html; } 2>&1 | tee build/web.log ||
    web_status=$?

echo "== Sanitizer build (ASan + UBSan)"
scripts/build.sh "$root/build-sanitize" -DPELAB_SANITIZE=ON
echo "== Sanitizer tests (unit, headless, cli)"
sanitize_status=0
(cd build-sanitize && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --output-on-failure -j"$jobs" -LE "e2e|package|slow") | tee build-sanitize/ctest.log || sanitize_status=$?

echo "== Fuzzing (scripts/fuzz.sh all 20)"
fuzz_status=0
scripts/fuzz.sh all 20 | tee build/fuzz.log || fuzz_status=$?

echo "== Soak (scripts/soak.sh 60: the sanitizer build for crashes and reports, the release build for memory)"
soak_status=0
SOAK_MEMORY_CHECK=0 SOAK_END_WITH_SIGTERM=1 scripts/soak.sh 60 "$root/build-sanitize/bin/pelab" 1 | tee build/soak.log ||
    soak_status=$?
SOAK_STEADY_VIEW=1 scripts/soak.sh 60 "$root/build/bin/pelab" 1 | tee -a build/soak.log ||
    soak_status=$?

echo "== Summary"
echo "release tests: $([[ $release_status -eq 0 ]] && echo passed || echo FAILED)"
echo "sanitizer tests: $([[ $sanitize_status -eq 0 ]] && echo passed || echo FAILED)"
echo "fuzzing: $([[ $fuzz_status -eq 0 ]] && echo passed || echo FAILED)"
echo "soak: $([[ $soak_status -eq 0 ]] && echo passed || echo FAILED)"
echo "clang-tidy: $([[ $tidy_status -eq 0 ]] && echo passed || echo FAILED)"
echo "browser edition: $([[ $web_status -eq 0 ]] && echo passed || echo FAILED)"
echo "screenshots for a person to look at: build/screenshots/"
# CTest's own summary lines, then one plain total over both runs.
total=0
failed=0
for log in build/ctest.log build-sanitize/ctest.log; do
    line=$(grep -E 'tests passed, [0-9]+ tests failed out of [0-9]+' "$log" | tail -1 || true)
    [[ -n "$line" ]] || { echo "no CTest summary in $log"; failed=$((failed + 1)); continue; }
    echo "$log: $line"
    total=$((total + $(sed -E 's/.*out of ([0-9]+).*/\1/' <<<"$line")))
    failed=$((failed + $(sed -E 's/.* ([0-9]+) tests failed.*/\1/' <<<"$line")))
done
# Each fuzz target (the list in scripts/fuzz.sh), the soak, clang-tidy and the browser edition
# count as one test each.
fuzz_targets=$(sed -n 's/^targets=(\(.*\))$/\1/p' scripts/fuzz.sh | wc -w)
fuzz_passed=$(grep -c 'no failure' build/fuzz.log || true)
total=$((total + fuzz_targets + 3))
failed=$((failed + (fuzz_targets - fuzz_passed) + (soak_status != 0 ? 1 : 0) + (tidy_status != 0 ? 1 : 0) +
    (web_status != 0 ? 1 : 0)))
[[ $release_status -eq 0 && $sanitize_status -eq 0 && $fuzz_status -eq 0 ]] || failed=$((failed > 0 ? failed : 1))
echo "tests: $((total - failed)) passed, $failed failed"
[[ $failed -eq 0 ]]
