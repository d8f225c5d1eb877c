#!/usr/bin/env bash
# Regenerates the README's pictures with PE Lab's own screenshot command (under xvfb-run when
# there is no display). Usage: scripts/readme_screenshots.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/build.sh "$root/build" >/dev/null
out=assets/screenshots
mkdir -p "$out"
run() { if [[ -n "${DISPLAY:-}" ]]; then "$@"; else xvfb-run -a -s "-screen 0 1920x1080x24" "$@"; fi; }
run build/bin/pelab screenshot --out "$out/pelab.png"
for panel in waves; do
    run build/bin/pelab screenshot --panel "$panel" --size 1280x760 --out "$out/$panel.png"
done
