#!/usr/bin/env python3
"""The layers point one way (docs/architecture.md): no file includes a header of a layer above
its own. Checked from the sources: core includes nothing of the app; the readers of files
(app/io: scenes, lessons, quizzes, JSON, PNG, settings) include no panel and no shell header; a
panel includes no shell header and no other panel (the registry alone includes them all).
Usage: check_layers.py REPOSITORY"""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
include = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def includes(path, whole=False):
    with open(os.path.join(root, path), encoding="utf-8") as f:
        names = include.findall(f.read())
    return names if whole else [os.path.basename(name) for name in names]


def files(folder, keep=lambda name: True):
    out = []
    for base, _, names in os.walk(os.path.join(root, folder)):
        for name in names:
            if name.endswith((".h", ".cpp")) and keep(name):
                out.append(os.path.relpath(os.path.join(base, name), root))
    return sorted(out)


panel_headers = {n for n in os.listdir(os.path.join(root, "app/panels")) if n.endswith(".h")}
shell_headers = {"app.h", "app_ui.h", "lesson_player.h", "file_menu.h", "file_dialog.h",
                 "glossary.h", "keyboard_help.h", "session.h", "cli.h", "cli_lesson.h",
                 "cli_render.h", "cli_checks.h", "platform.h"}
readers = ["app/io/" + n for n in ("json_input", "scene", "lesson", "quiz", "png_scene",
                                    "settings_file", "suggest")]
problems = []
for path in files("core"):
    for name in includes(path, whole=True):
        if not name.startswith("pelab/") and not os.path.exists(
                os.path.join(root, os.path.dirname(path), name)):
            problems.append(f"{path} includes \"{name}\": core includes only core headers")
for stem in readers:
    for path in (stem + ".h", stem + ".cpp"):
        if not os.path.exists(os.path.join(root, path)):
            continue
        for name in includes(path):
            if name in panel_headers or name in shell_headers:
                problems.append(f"{path} includes \"{name}\": a reader is below the panels "
                                "(use panel_catalog.h)")
# The registry and the sentence list (every panel's sentence builders, for their test) sit
# above the panels; a panel's own files (candidates_drawing.cpp) include its header.
above = ("panel_registry", "sentences")
for path in files("app/panels", lambda n: not n.startswith(above)):
    own = os.path.basename(path).split(".")[0]
    for name in includes(path):
        other = name[len("panel_"):-len(".h")] if name.startswith("panel_") else None
        if name in shell_headers:
            problems.append(f"{path} includes \"{name}\": a panel is below the shell")
        elif name == "panel_registry.h":
            problems.append(f"{path} includes \"panel_registry.h\": the registry is above")
        elif (name in panel_headers and other and name not in ("panel.h", "panel_catalog.h")
              and other not in own):
            problems.append(f"{path} includes \"{name}\": one panel does not include another")
for problem in problems:
    print("FAIL", problem)
checked = len(files("core")) + len(files("app/panels"))
print(f"{checked} files checked, {len(problems)} upward includes")
sys.exit(1 if problems else 0)
