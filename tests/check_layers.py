#!/usr/bin/env python3
"""The layers point one way (docs/architecture.md): no file includes a header of a layer above
its own. Checked from the sources, by folder:

    core  <-  widgets, io  <-  panels/<id>  <-  registry  <-  shell  <-  cli  <-  gl  <-  main, web

core includes only core; widgets (what panels draw with) and io (the readers of files) include
core and their own folder, not each other; a panel's folder includes widgets, io, the panels'
shared headers (panels/panel.h, panels/explanation.h) and its own files, never another panel's
folder, the registry or anything above (the panels' shared files: panels/panel.h,
panels/explanation.h, panels/methods.h); the registry (panels/panel_registry, panels/sentences)
includes the panels. Also: only RunFrame (app/shell/app_ui.cpp) starts an ImGui frame.
Usage: check_layers.py REPOSITORY"""
import os
import re
import sys

from source_files import cpp_files

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
include = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
RANK = {"widgets": 1, "io": 1, "panels": 2, "registry": 3, "shell": 4, "cli": 5, "gl": 6,
        "main": 7, "web": 7}
REGISTRY = ("panels/panel_registry.h", "panels/panel_registry.cpp", "panels/sentences.h",
            "panels/sentences.cpp")
SHARED_PANEL_HEADERS = ("panels/panel.h", "panels/explanation.h", "panels/methods.h",
                        "panels/scene_controls.h")


def files(folder):
    return cpp_files(root, folder)


def layer(app_path):
    """The layer of a path relative to app/ ("widgets/plot.h")."""
    if app_path in REGISTRY:
        return "registry"
    if "/" not in app_path:
        return "main"
    return app_path.split("/")[0]


def read(path):
    with open(os.path.join(root, path), encoding="utf-8") as f:
        return f.read()


problems = []
for path in files("core"):
    for name in include.findall(read(path)):
        # Public headers (pelab/), or core's own: beside the file or from core/src (the
        # trainer's internals, transformer/ and positional/).
        if not name.startswith("pelab/") and not os.path.exists(
                os.path.join(root, os.path.dirname(path), name)) and not os.path.exists(
                os.path.join(root, "core/src", name)) and not os.path.exists(
                os.path.join(root, "core/src/training", name)):
            problems.append(f"{path} includes \"{name}\": core includes only core headers")
for path in files("app"):
    own_path = path[len("app/"):]
    own = layer(own_path)
    if own not in RANK:
        problems.append(f"{path}: a folder with no layer (add it to tests/check_layers.py)")
        continue
    text = read(path)
    for name in include.findall(text):
        if name.startswith("pelab/"):
            continue  # core: below everything
        if not os.path.exists(os.path.join(root, "app", name)):
            continue  # generated or a test's own header
        other = layer(name)
        why = None
        if RANK.get(other, 99) > RANK[own]:
            why = f"{own} is below {other}"
        elif RANK[other] == RANK[own] and other != own:
            why = f"{own} and {other} are side by side: neither includes the other"
        elif own == "panels" and other == "panels" and name not in SHARED_PANEL_HEADERS:
            if name.split("/")[1] != own_path.split("/")[1]:
                why = "one panel does not include another"
        if why:
            problems.append(f"{path} includes \"{name}\": {why}")
    # One frame: ImGui::NewFrame is called in RunFrame alone, which every session draws
    # through (gl/runner.cpp), the picture export's second context included.
    code = "\n".join(line.split("//")[0] for line in text.splitlines())
    if "ImGui::NewFrame()" in code and own_path != "shell/app_ui.cpp":
        problems.append(f"{path} calls ImGui::NewFrame(): frames are drawn by RunFrame only")
    # No method's maths in a panel: exp, log and powers other than of ten (an axis's decades)
    # belong to core, where the trainer's hook and the tab call the same function.
    if own == "panels":
        for number, line in enumerate(code.splitlines(), 1):
            if re.search(r"std::(exp|log|log1p|log2|expm1)\(", line) or re.search(
                    r"std::pow\((?!10\.0,)", line):
                problems.append(f"{path}:{number}: a formula in a panel ({line.strip()}): "
                                "compute it in core")
for problem in problems:
    print("FAIL", problem)
checked = len(files("core")) + len(files("app"))
print(f"{checked} files checked, {len(problems)} problems")
sys.exit(1 if problems else 0)
