#!/usr/bin/env bash
# The whole layout contact-sheet matrix (every panel at 1024×768, 1280×720, 1920×1080 and
# 3840×2160, text scales 1, 1.5 and 2) in build/screenshots/layout/; the test run renders five
# corners of it. Usage: scripts/layout_sheets.sh   (about 3 minutes on 2 cores)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/build.sh "$root/build" >/dev/null
PELAB_LAYOUT_SHEETS=full bash tests/e2e/test_layout_sheets.sh build/bin/pelab build/screenshots
