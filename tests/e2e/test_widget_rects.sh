# --widget-rects is valid JSON whatever the widgets' names hold: the built-in file dialog names
# each entry after its file, and files called a"b, back\slash, a line break or invalid UTF-8
# once made the rectangles file invalid. It is rewritten (atomically) while the app runs and
# holds the last frame's rectangles at the end.
source "$(dirname "$0")/lib.sh"
e2e_setup widget_rects "$@"
export PELAB_FILE_CHOOSER=builtin
folder=$E2E_TMP/odd_names
mkdir -p "$folder"
touch "$folder/a\"b.json" "$folder/back\\slash.json" "$folder/$(printf 'line\nbreak.json')" \
    "$folder/$(printf 'bad\377utf8.json')" "$folder/tab$(printf '\t')x.json"
cd "$folder"
e2e_start_lab
e2e_press ctrl+o
e2e_point file.path_typing >/dev/null || e2e_fail "Ctrl+O did not open the dialog"
e2e_settle # the folder listed
/usr/bin/python3 - "$E2E_RECTS" <<'PY' || e2e_fail "the widget rectangles are not valid JSON while the dialog lists odd names"
import json, sys
rects = json.load(open(sys.argv[1], encoding="utf-8", errors="strict"))
names = [n for n in rects if n.startswith("file.entry.")]
assert any('a"b' in n for n in names), names
assert any("\n" in n for n in names), names
for name, rect in rects.items():
    # [x0, y0, x1, y1, visible]: the visible rectangle and the fraction of the widget it is.
    assert len(rect) == 5 and all(v is None or isinstance(v, (int, float)) for v in rect), (name, rect)
    assert rect[4] is None or 0 < rect[4] <= 1, (name, rect)
# The first entry of the list is wholly in view.
top = min(names, key=lambda n: rects[n][1])
assert rects[top][4] == 1, (top, rects[top])
PY
e2e_press Escape
e2e_quit
/usr/bin/python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$E2E_RECTS" ||
    e2e_fail "the rectangles written at the end are not valid JSON"
e2e_pass
