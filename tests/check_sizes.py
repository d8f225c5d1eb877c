#!/usr/bin/env python3
"""No file or function outgrows what one reader holds in mind (docs/architecture.md): a core
file at most 450 lines, an app file at most 600, a function at most 120 (its signature to its
closing brace, as Universal Ctags finds it). PENDING names what is still over and not yet split:
each entry must still be over (so the list only shrinks), and nothing else may be.
Usage: check_sizes.py REPOSITORY"""
import json
import os
import subprocess
import sys

from source_files import cpp_files

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
FILE_LIMIT = {"core": 450, "app": 600}
FUNCTION_LIMIT = 120
# Still over, to be split (issue 57).
PENDING = {
}


def sources(folder):
    return cpp_files(root, folder)


over = {}
paths = sources("core") + sources("app")
for path in paths:
    with open(os.path.join(root, path), encoding="utf-8") as f:
        lines = sum(1 for _ in f)
    if lines > FILE_LIMIT[path.split("/")[0]]:
        over[path] = f"{lines} lines (at most {FILE_LIMIT[path.split('/')[0]]})"
tags = subprocess.run(["ctags", "--output-format=json", "--fields=+ne", "--c++-kinds=f",
                       "--languages=C++", "--langmap=C++:+.h", "-o", "-"] + paths,
                      cwd=root, capture_output=True, text=True, check=True).stdout
for line in tags.splitlines():
    tag = json.loads(line)
    if "end" not in tag:
        continue
    length = tag["end"] - tag["line"] + 1
    if length > FUNCTION_LIMIT:
        over[f"{tag['path']}:{tag['name']}"] = f"{length} lines (at most {FUNCTION_LIMIT})"
problems = [f"{name}: {size}" for name, size in sorted(over.items()) if name not in PENDING]
problems += [f"{name}: within its limit now; take it off PENDING" for name in sorted(PENDING)
             if name not in over]
for problem in problems:
    print(problem)
print(f"{len(paths)} files checked, {len(over)} over ({len(PENDING)} pending), "
      f"{len(problems)} problems")
sys.exit(1 if problems else 0)
