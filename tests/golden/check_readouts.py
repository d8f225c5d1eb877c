#!/usr/bin/env python3
"""Golden readouts: `pelab readouts --scene S` for each scene in tests/golden/scenes/ must give
the numbers and words recorded in tests/golden/readouts/ (numbers within a relative 1e-12, words
exactly). The structure work changes how panels compute, never what they compute: this is the
proof, run after each step. --record rewrites the goldens (only when a change is meant to change
a readout: say so in the commit).
Usage: check_readouts.py PELAB [--record]"""
import json
import math
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
pelab = sys.argv[1]
record = "--record" in sys.argv[2:]
scenes = sorted(f for f in os.listdir(os.path.join(here, "scenes")) if f.endswith(".json"))
problems = []
# The candidates' shift residual is a least-squares fit over random (seeded) or learned-looking
# features, ill-conditioned enough that libm's last bits move it by ~1e-8 relative: glibc picks
# its sin/exp code by CPU at run time (FMA and AVX2 or not), and on one machine turning those off
# (GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA) moved 0.19772705244 to 0.19772705087. It is shown
# to 4 digits; the goldens hold it to 1e-6.
LOOSE = {"shift_residual": 1e-6}


def compare(where, got, want, rel_tol=1e-12):
    if isinstance(want, dict):
        if not isinstance(got, dict) or set(got) != set(want):
            extra = sorted(set(got) - set(want)) if isinstance(got, dict) else "not an object"
            missing = sorted(set(want) - set(got)) if isinstance(got, dict) else ""
            problems.append(f"{where}: keys differ (new {extra}, gone {missing})")
            return
        for key in want:
            compare(f"{where}.{key}", got[key], want[key], LOOSE.get(key, rel_tol))
    elif isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            problems.append(f"{where}: a list of {len(want)} became "
                            f"{len(got) if isinstance(got, list) else type(got).__name__}")
            return
        for k, (g, w) in enumerate(zip(got, want)):
            compare(f"{where}[{k}]", g, w, rel_tol)
    elif isinstance(want, float) or (isinstance(want, int) and not isinstance(want, bool)
                                     and isinstance(got, float)):
        if not isinstance(got, (int, float)) or isinstance(got, bool) or not math.isclose(
                got, want, rel_tol=rel_tol, abs_tol=1e-15):
            problems.append(f"{where}: {want!r} became {got!r}")
    elif got != want:
        problems.append(f"{where}: {want!r} became {got!r}")


for scene in scenes:
    out = subprocess.run([pelab, "readouts", "--scene", os.path.join(here, "scenes", scene)],
                         capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        problems.append(f"{scene}: pelab readouts exited {out.returncode}: {out.stderr.strip()}")
        continue
    got = json.loads(out.stdout)
    golden = os.path.join(here, "readouts", scene)
    if record:
        os.makedirs(os.path.dirname(golden), exist_ok=True)
        with open(golden, "w", encoding="utf-8") as f:
            json.dump(got, f, indent=1, ensure_ascii=False, sort_keys=True)
            f.write("\n")
        continue
    if not os.path.exists(golden):
        problems.append(f"{scene}: no golden readouts (run with --record)")
        continue
    with open(golden, encoding="utf-8") as f:
        compare(scene, got, json.load(f))

for problem in problems[:40]:
    print("FAIL", problem)
if len(problems) > 40:
    print(f"… and {len(problems) - 40} more")
print(f"{len(scenes)} scenes {'recorded' if record else 'checked'}, {len(problems)} differences")
sys.exit(1 if problems else 0)
