#!/usr/bin/env bash
# One command to install what is missing, build, and start PE Lab.
# Usage: scripts/run.sh [pelab arguments…]     e.g. scripts/run.sh --font-scale 1.5
# Builds only the app (the tests and the benchmark are scripts/test.sh's business), and says
# what it is doing, so a first run never looks hung.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
echo "run: checking the Debian packages PE Lab needs (installing what is missing)…"
"$root/scripts/deps.sh" build
echo "run: configuring the Release build in build/…"
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
# Measured 2026-12-03: 533 s for the first build on 2 cores (no compiler cache), seconds after.
echo "run: building pelab (the first time takes about 9 minutes on 2 cores; later builds seconds)…"
cmake --build "$root/build" -j"$(nproc)" --target pelab
echo "run: starting PE Lab"
exec "$root/build/bin/pelab" "$@"
