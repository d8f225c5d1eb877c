#!/usr/bin/env bash
# The browser edition measured beside the desktop (docs/web.md records the output): builds both,
# then tests/web/web_report.py compares every panel's picture and widget rectangles at 1024×768
# (text ×1 and ×2), the CPU time per frame, the download's size and the first frame's time.
# Pictures go to build-web/report/. About ten minutes on two cores; not part of scripts/test.sh.
# Usage: scripts/web_report.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/deps.sh test
scripts/build.sh "$root/build"
scripts/web.sh
/usr/bin/python3 tests/web/web_report.py build-web/site build/bin/pelab build-web/report
