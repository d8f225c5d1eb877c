#!/usr/bin/env bash
# Configures and builds PE Lab. Usage: scripts/build.sh [BUILD_DIR] [extra cmake args…]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${1:-$root/build}
shift || true
cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$build_dir" -j"$(nproc)"
