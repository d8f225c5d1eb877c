#!/usr/bin/env bash
# Rewrites the scene-field lists of docs/file-formats.md and of the scene fuzzer's dictionary
# (tests/fuzz/fuzz_scene.dict) from the scene table, and the lessons' step counts in the docs from
# assets/lessons/: the blocks the registry tests print when a
# list is out of date. Usage: scripts/update_scene_fields.sh [build]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
rewrite() { # TEST FILE OPENING CLOSING: replaces FILE's block with the one TEST prints
    PELAB_SOURCE_DIR=$root "$build/bin/pelab_frame_tests" --gtest_filter="$1" >"$log" 2>&1 || true
    python3 - "$2" "$log" "$3" "$4" <<'PY'
import sys
path, log_path, opening, closing = sys.argv[1:]
log = open(log_path, encoding="utf-8").read()
if "replace it with:" not in log:
    print("%s: up to date" % path)
    sys.exit(0)
block = log[log.index("replace it with:"):]
start, end = block.index(opening), block.index(closing) + len(closing)
text = open(path, encoding="utf-8").read()
a, b = text.index(opening), text.index(closing) + len(closing)
open(path, "w", encoding="utf-8").write(text[:a] + block[start:end] + text[b:])
print("%s: rewritten" % path)
PY
}
rewrite SceneFields.DocsListEveryFieldOfTheTable "$root/docs/file-formats.md" "<!-- scene-fields:" \
    "<!-- /scene-fields -->"
rewrite SceneFields.FuzzDictionaryNamesEveryFieldOfTheTable "$root/tests/fuzz/fuzz_scene.dict" \
    "# scene-fields:" "# /scene-fields"
# The lessons' counts and step lists (docs/teaching.md, README.md, docs/lessons.md).
rewrite LessonDocs.CountWhatTheFilesHold "$root/docs/teaching.md" "<!-- lessons:" "<!-- /lessons -->"
rewrite LessonDocs.CountWhatTheFilesHold "$root/README.md" "# lessons:" "# /lessons"
rewrite LessonDocs.CountWhatTheFilesHold "$root/docs/lessons.md" "# lessons:" "# /lessons"
# The key table (docs/teaching.md).
rewrite Shortcuts.DocsListEveryKeyOfTheTable "$root/docs/teaching.md" "<!-- keys:" "<!-- /keys -->"
# The positional methods' table (docs/train.md).
rewrite MethodLooks.DocsListEveryMethodOfTheTable "$root/docs/train.md" "<!-- methods:" \
    "<!-- /methods -->"
