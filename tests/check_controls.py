#!/usr/bin/env python3
"""Every control declared once (docs/architecture.md): no slider or number field of a panel is
given its bounds as numbers written at the call, whether as literals in the call or as locals
set from literals just above it (`const double low = 0, high = 20;`). A control's bounds live in
its NumberControl row (io/scene.h), which SceneSlider draws and SceneTable::Number registers.
PENDING names the files not yet converted: each must still have such a call, and no other file
may. Usage: check_controls.py REPOSITORY"""
import os
import re
import sys

from source_files import cpp_files

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
CALL = re.compile(r"ImGui::(Slider\w*|Drag\w*|InputInt\w*|InputDouble|InputFloat\w*|InputScalar\w*)\(")
NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d*)?(?:[eE][-+]?\d+)?f?(?![\w.])")
ASSIGNED = re.compile(r"\b(\w+)\s*=\s*-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?f?\b")
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
# Still to convert (issue 57): their sliders write their bounds at the call.
PENDING = {
    "app/panels/calculator/panel_calculator.cpp",
    "app/panels/clocks/panel_clocks.cpp",
    "app/panels/compare/compare_table.cpp",
    "app/panels/compare/panel_compare.cpp",
    "app/panels/model/model_views.cpp",
    "app/panels/order/panel_order.cpp",
    "app/panels/precision/panel_precision.cpp",
    "app/panels/rotation/panel_rotation.cpp",
    "app/panels/train/train_controls.cpp",
    "app/panels/waves/panel_waves.cpp",
    "app/panels/worked/panel_worked.cpp",
}


def call_text(text, start):
    """The argument text of the call whose '(' ends at start."""
    depth, at = 1, start
    while at < len(text) and depth:
        depth += {"(": 1, ")": -1}.get(text[at], 0)
        at += 1
    return text[start:at - 1]


offending = {}
for path in cpp_files(root, "app/panels", (".cpp",)):
    with open(os.path.join(root, path), encoding="utf-8") as f:
        text = f.read()
    for match in CALL.finditer(text):
        args = STRING.sub('""', call_text(text, match.end()))
        before = "\n".join(text[:match.start()].splitlines()[-10:])
        literal_locals = set(ASSIGNED.findall(STRING.sub('""', before)))
        pointed = set(re.findall(r"&(\w+)", args))
        # The first argument after the label is the value; the bounds follow it.
        if NUMBER.search(args) or (pointed & literal_locals):
            line = text.count("\n", 0, match.start()) + 1
            offending.setdefault(path, []).append(f"{path}:{line}: ImGui::{match.group(1)}")
problems = [call for path, calls in sorted(offending.items()) if path not in PENDING
            for call in calls]
problems = [f"{call}: bounds written at the call (declare a NumberControl)" for call in problems]
problems += [f"{path}: no such call left; take it off PENDING" for path in sorted(PENDING)
             if path not in offending]
for problem in problems:
    print(problem)
print(f"{sum(len(c) for c in offending.values())} calls with bounds at the call in "
      f"{len(offending)} files ({len(PENDING)} pending), {len(problems)} problems")
sys.exit(1 if problems else 0)
