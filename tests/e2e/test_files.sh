# The File menu through the real window, with PE Lab's own file dialog (as on a machine without
# zenity or kdialog), then with a stand-in desktop chooser run as a child process:
#  - Ctrl+S saves the scene where the dialog's path field says;
#  - File → Export "Compare…" as PNG writes the panel as on screen, with its scene in a text chunk;
#    `pelab --scene FIGURE.png` then reopens exactly that scene;
#  - File → Export … table as CSV writes rows that parse back to sin/cos computed here;
#  - Ctrl+O opens a lesson typed in the dialog;
#  - a "zenity" on PATH that prints a path: Ctrl+S saves there without PE Lab's dialog.
source "$(dirname "$0")/lib.sh"
e2e_setup files "$@"
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$E2E_TMP/out
mkdir -p "$out" "$SHOTS/files"
export PELAB_FILE_CHOOSER=builtin
e2e_start_lab --scene "$root/assets/scenes/compare-3-vs-50.json"
e2e_press Right # pos A 3 → 4: the saved scene is not the file it came from
e2e_press ctrl+s
e2e_point file.path_typing >/dev/null || e2e_fail "Ctrl+S did not open the save dialog"
e2e_shot files/save_dialog >/dev/null
e2e_save_as "$out/saved.json"
[[ -s "$out/saved.json" ]] || e2e_fail "Ctrl+S wrote nothing"
/usr/bin/python3 -c 'import json, sys; s = json.load(open(sys.argv[1])); assert s["pos_a"] == 4 and s["d_model"] == 128, s' "$out/saved.json" ||
    e2e_fail "the saved scene is not the one on screen"

# Export the compare panel: a click in it makes it the one the menu exports.
e2e_click compare.dot_product
e2e_click menu.file
e2e_shot files/file_menu >/dev/null
e2e_click file.export_png
e2e_shot files/export_options >/dev/null
e2e_click export.choose # the size as its window (the default)
e2e_point file.path_typing >/dev/null || e2e_fail "Export as PNG did not open the save dialog"
e2e_save_as "$out/compare.png"
[[ -s "$out/compare.png" ]] || e2e_fail "Export as PNG wrote nothing"
e2e_not_blank "$out/compare.png"
cp "$out/compare.png" "$SHOTS/files/exported_compare.png"
/usr/bin/python3 - "$out/compare.png" "$E2E_RECTS" <<'PY' || e2e_fail "the exported PNG is not the compare panel with its scene"
import json, struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, scene, width, height = 8, None, 0, 0
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    assert zlib.crc32(kind + body) == struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])[0]
    if kind == b"IHDR":
        width, height = struct.unpack(">II", body[:8])
    if kind == b"tEXt" and body.split(b"\0")[0] == b"pelab-scene":
        scene = json.loads(body.split(b"\0", 1)[1])
    pos += 12 + length
assert scene and scene["pos_a"] == 4 and scene["pos_b"] == 50, scene
# The picture is a panel, not the whole 1600×1000 window: about a quarter of it.
assert 300 < width < 1200 and 200 < height < 800, (width, height)
PY

e2e_click compare.dot_product
e2e_click menu.file
e2e_click file.export_csv
e2e_point file.path_typing >/dev/null || e2e_fail "Export table as CSV did not open the save dialog"
e2e_save_as "$out/compare.csv"
/usr/bin/python3 - "$out/compare.csv" <<'PY' || e2e_fail "the CSV does not parse back to PE(4) and PE(50)"
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 128, len(rows)
for row in rows:
    dim = int(row["dim"]); omega = 10000 ** (-2 * (dim // 2) / 128)
    f = math.sin if dim % 2 == 0 else math.cos
    assert abs(float(row["pe_a"]) - f(4 * omega)) < 1e-12, row
    assert abs(float(row["pe_b"]) - f(50 * omega)) < 1e-12, row
PY

# The same panel at a projector's size: drawn alone at 1024x768, not cut from the window.
e2e_click compare.dot_product
e2e_click menu.file
e2e_click file.export_png
e2e_click export.size1
e2e_click export.choose
e2e_point file.path_typing >/dev/null || e2e_fail "Export as PNG did not open the save dialog"
e2e_save_as "$out/compare_1024.png"
[[ "$(identify -format '%wx%h' "$out/compare_1024.png")" == 1024x768 ]] ||
    e2e_fail "the 1024x768 export is $(identify -format '%wx%h' "$out/compare_1024.png")"
e2e_not_blank "$out/compare_1024.png"
cp "$out/compare_1024.png" "$SHOTS/files/exported_compare_1024.png"

# Ctrl+O with a lesson: it starts.
e2e_press ctrl+o
e2e_point file.path_typing >/dev/null || e2e_fail "Ctrl+O did not open the dialog"
e2e_shot files/open_dialog >/dev/null
e2e_type "$root/assets/lessons/frequencies.json"
e2e_point lesson.next >/dev/null || e2e_fail "Ctrl+O with a lesson did not show the lesson's bar"
e2e_quit
e2e_check "s['readouts']['lesson']['title'] == 'Frequencies and wavelengths'" "Ctrl+O did not start the lesson"
grep -q "Recent=$out/compare.png" "$XDG_CONFIG_HOME/pelab/imgui.ini" || e2e_fail "the export is not in the recent files"

# The figure reopens as its scene: every field as saved (the export came after the save, with
# nothing changed in between).
e2e_start_lab --scene "$out/compare.png"
e2e_quit
/usr/bin/python3 - "$E2E_STATE" "$out/saved.json" <<'PY' || e2e_fail "the figure did not reopen as the scene it was exported from"
import json, sys
state, saved = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
state.pop("readouts")
different = {k: (state.get(k), saved[k]) for k in saved if state.get(k) != saved[k]}
assert not different, different
PY

# A desktop chooser on PATH (here a stand-in that answers with a path) is used instead.
mkdir -p "$E2E_TMP/bin"
printf '#!/bin/sh\necho "%s"\n' "$out/from_chooser.json" >"$E2E_TMP/bin/zenity"
chmod +x "$E2E_TMP/bin/zenity"
unset PELAB_FILE_CHOOSER
PATH=$E2E_TMP/bin:$PATH e2e_start_lab
e2e_press ctrl+s
e2e_wait_file "$out/from_chooser.json"
[[ -s "$out/from_chooser.json" ]] || e2e_fail "the desktop chooser's answer was not used"
e2e_quit
e2e_pass
