#!/usr/bin/env python3
"""docs/architecture.md matches the tree: every folder of core (core/src/<subject>/ and
core/include/pelab/<subject>/) is a row of its table of core's folders, and every repository
path the page names in backticks (`core/...`, `app/...`, `tests/...`, `scripts/...`) exists;
tests/core/ mirrors core's folders (no test of core outside it, no folder core lacks).
Usage: check_architecture.py REPOSITORY"""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
with open(os.path.join(root, "docs/architecture.md"), encoding="utf-8") as f:
    page = f.read()
rows = set(re.findall(r"^\| `([a-z_]+)` \|", page, re.M))
problems = []
folders = set()
for base in ("core/src", "core/include/pelab"):
    for name in sorted(os.listdir(os.path.join(root, base))):
        if os.path.isdir(os.path.join(root, base, name)):
            folders.add(name)
            if name not in rows:
                problems.append(f"{base}/{name}/ is not a row of the page's table of core folders")
for row in sorted(rows - folders):
    problems.append(f"the page's table names core folder {row}, which does not exist")
for path in sorted(set(re.findall(r"`((?:core|app|tests|scripts|docs|shaders|assets)/[^`\s*<>]+)`",
                                  page))):
    if not os.path.exists(os.path.join(root, path.rstrip("/"))):
        problems.append(f"the page names {path}, which does not exist")
# tests/core/ mirrors core's folders: each test of core sits in the folder of what it tests.
tests_core = os.path.join(root, "tests/core")
test_folders = set(n for n in os.listdir(tests_core) if os.path.isdir(os.path.join(tests_core, n)))
for name in sorted(test_folders - folders):
    problems.append(f"tests/core/{name}/ mirrors no core folder")
for name in sorted(os.listdir(os.path.join(root, "tests"))):
    if name.startswith("core_") and name.endswith("_test.cpp"):
        problems.append(f"tests/{name}: a test of core goes in tests/core/<its folder>/")
for problem in problems:
    print(problem)
print(f"{len(folders)} core folders, {len(problems)} problems")
sys.exit(1 if problems else 0)
