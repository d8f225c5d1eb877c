#!/usr/bin/python3
"""`pelab rope check` on 1 GiB dumps: cos and sin of 2 097 152 positions × 128 dimensions in
float32 (Llama 3.1's layer 0, written by `pelab rope table`), compared while no more than one
block of rows is held: the check's peak resident memory must stay under 100 MiB, and a
transformers dump of that length must agree.

Usage: check_rope_big.py PELAB
"""
import os
import resource
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
config = os.path.join(here, "configs", "llama-3.1-8b", "config.json")
ROWS = 1 << 21


def main():
    pelab = sys.argv[1]
    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR")) as scratch:
        paths = {}
        for what in ("cos", "sin"):
            paths[what] = os.path.join(scratch, what + ".npy")
            subprocess.run([pelab, "rope", "table", config, "--positions", "0:%d" % ROWS,
                            "--what", what, "--reference", "transformers", "--dtype", "f32",
                            "--out", paths[what]], check=True)
        size = os.path.getsize(paths["cos"])
        start = time.monotonic()
        run = subprocess.run([pelab, "rope", "check", config, "--cos", paths["cos"], "--sin",
                              paths["sin"]], capture_output=True, text=True)
        seconds = time.monotonic() - start
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # MiB (Linux: KiB)
        print(run.stdout.strip())
        print("each dump %.2f GiB; check %.1f s; peak resident memory of any child %.1f MiB" %
              (size / 2**30, seconds, peak))
        ok = run.returncode == 0 and size >= 2**30 and peak < 100 and "agrees" in run.stdout
        print("all passed" if ok else "FAIL")
        sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
