#!/usr/bin/env bash
# One command to install what is missing, build, and start PE Lab.
# Usage: scripts/run.sh [pelab arguments…]     e.g. scripts/run.sh --font-scale 1.5
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/deps.sh" build
"$root/scripts/build.sh" "$root/build"
exec "$root/build/bin/pelab" "$@"
