#!/usr/bin/env python3
"""Every control declared once (docs/architecture.md): a panel draws each slider, drag and
number field from its NumberControl row (io/scene.h) through panels/scene_controls.h, which
takes the bounds, label, format, tooltip and recorded name from the row; SceneTable::Number
registers the scene field from the same row. So no panel file calls ImGui's number widgets
itself, with bounds or without. ALLOWED names the calls that have no row to take (a 64-bit
seed: every value is valid). Usage: check_controls.py REPOSITORY"""
import os
import re
import sys

from source_files import cpp_files

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
CALL = re.compile(r"ImGui::(Slider\w*|Drag\w*|InputInt\w*|InputDouble|InputFloat\w*|InputScalar\w*)\(")
# The one file that draws number widgets for the panels.
DRAWER = "app/panels/scene_controls.cpp"
# path -> calls that need no row (each must still be there).
ALLOWED = {
    "app/panels/train/train_controls.cpp": ["InputScalar"],  # the seed: any 64-bit value
}


offending = {}
for path in cpp_files(root, "app/panels", (".cpp", ".h")):
    if path == DRAWER:
        continue
    with open(os.path.join(root, path), encoding="utf-8") as f:
        text = f.read()
    allowed = list(ALLOWED.get(path, []))
    for match in CALL.finditer(text):
        if match.group(1) in allowed:
            allowed.remove(match.group(1))
            continue
        line = text.count("\n", 0, match.start()) + 1
        offending.setdefault(path, []).append(
            f"{path}:{line}: ImGui::{match.group(1)} drawn by hand (declare a NumberControl and "
            f"draw it with panels/scene_controls.h)")
    for call in allowed:
        offending.setdefault(path, []).append(f"{path}: no ImGui::{call} left; take it off ALLOWED")
problems = [call for calls in offending.values() for call in calls]
for problem in sorted(problems):
    print(problem)
print(f"{len(problems)} number widgets drawn outside {DRAWER}")
sys.exit(1 if problems else 0)
