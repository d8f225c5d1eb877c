#!/usr/bin/env bash
# Configures and builds PE Lab.
# Usage: scripts/build.sh [--sanitize] [--unity] [--target NAME]… [BUILD_DIR] [extra cmake args…]
#   --sanitize     the sanitizer build (build-sanitize/ by default): AddressSanitizer and
#                  UndefinedBehaviorSanitizer at -O1 -g; with clang (scripts/deps.sh test) also
#                  the libFuzzer targets, so one build serves the sanitizer tests, the fuzzers
#                  (scripts/fuzz.sh) and the sanitizer soak (scripts/soak.sh)
#   --unity        compile the sources in batches of eight (cmake/UnityBatches.cmake): a whole
#                  build from nothing takes about half the time; scripts/test.sh uses it
#   --target NAME  build only that target (repeatable); everything by default
# Uses ccache when it is installed (scripts/ccache.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
sanitize=0
cmake_args=()
targets=()
while (($#)); do
    case "$1" in
        --sanitize) sanitize=1 ;;
        --unity) cmake_args+=(-DPELAB_UNITY=ON) ;;
        --target) targets+=(--target "$2"); shift ;;
        *) break ;;
    esac
    shift
done
if ((sanitize)); then
    build_dir=${1:-$root/build-sanitize}
    if command -v clang++ >/dev/null; then
        cmake_args+=(-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DPELAB_FUZZ=ON)
    else
        cmake_args+=(-DPELAB_SANITIZE=ON)
    fi
else
    build_dir=${1:-$root/build}
fi
shift || true
# shellcheck source=ccache.sh
source "$root/scripts/ccache.sh"
# CMAKE_UNITY_BUILD off: a build folder configured before the batches were our own keeps CMake's
# in its cache, and would batch our batches again (by absolute path).
cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=OFF \
    "${PELAB_LAUNCHER[@]}" "${cmake_args[@]}" "$@" >/dev/null
cmake --build "$build_dir" -j"$(nproc)" "${targets[@]}"
