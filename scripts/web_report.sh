#!/usr/bin/env bash
# The browser edition measured beside the desktop (docs/web.md records the output): builds both,
# then tests/web/web_report.py compares every panel's picture and widget rectangles at 1024×768
# (text ×1 and ×2), the CPU time per frame, the download's size and the first frame's time,
# and a training step natively and as WebAssembly.
# Pictures go to build-web/report/. About ten minutes on two cores; not part of scripts/test.sh.
# Usage: scripts/web_report.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/deps.sh test
scripts/build.sh "$root/build"
scripts/web.sh
/usr/bin/python3 tests/web/web_report.py build-web/site build/bin/pelab build-web/report
# A training step, pelab_core alone: natively and as WebAssembly in Node.js, side by side.
step=build-web/train_step_time
g++ -O2 -std=c++17 -Icore/include tests/web/train_step_time.cpp build/core/libpelab_core.a \
    -lpthread -o "$step"
NODE_PATH=/usr/share/nodejs em++ -O2 -std=c++17 -fwasm-exceptions -msimd128 -Icore/include \
    tests/web/train_step_time.cpp build-web/page/core/libpelab_core.a -sALLOW_MEMORY_GROWTH=1 \
    -sENVIRONMENT=node -o "$step.js"
echo "native: $("$step")"
# (Node.js 18 and later have fetch(), which this Emscripten would use for a file path.)
echo "WebAssembly (Node.js $(node --version)): $(node --no-experimental-fetch "$step.js")"
