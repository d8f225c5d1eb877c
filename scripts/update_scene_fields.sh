#!/usr/bin/env bash
# Rewrites the scene-field list of docs/file-formats.md from the scene table (the block the
# registry test prints when the list is out of date). Usage: scripts/update_scene_fields.sh [build]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$build/bin/pelab_frame_tests" --gtest_filter=SceneFields.DocsListEveryFieldOfTheTable >"$log" 2>&1 || true
python3 - "$root/docs/file-formats.md" "$log" <<'PY'
import sys
readme_path, log_path = sys.argv[1:]
log = open(log_path, encoding="utf-8").read()
if "replace it with:" not in log:
    print("docs/file-formats.md: scene fields are up to date")
    sys.exit(0)
block = log[log.index("replace it with:"):]
start, end = block.index("<!-- scene-fields:"), block.index("<!-- /scene-fields -->") + len("<!-- /scene-fields -->")
readme = open(readme_path, encoding="utf-8").read()
a, b = readme.index("<!-- scene-fields:"), readme.index("<!-- /scene-fields -->") + len("<!-- /scene-fields -->")
open(readme_path, "w", encoding="utf-8").write(readme[:a] + block[start:end] + readme[b:])
print("docs/file-formats.md: scene fields rewritten")
PY
