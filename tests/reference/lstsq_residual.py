#!/usr/bin/env python3
"""Independent least-squares residuals for tests/core/encodings/candidates_test.cpp.

Reads a JSON list of cases {"x": [[...]], "y": [[...]]} from the file named on the command line
and prints, one per line, min_M ||X M - Y||_F / ||Y||_F as numpy.linalg.lstsq finds it (its
default rcond: eps * max(m, n) relative to the largest singular value).
"""
import json
import sys

import numpy as np


def main():
    with open(sys.argv[1]) as f:
        cases = json.load(f)
    for case in cases:
        x = np.array(case["x"], dtype=np.float64)
        y = np.array(case["y"], dtype=np.float64)
        y_norm = np.linalg.norm(y)
        if y_norm == 0:
            print("0")
            continue
        m, _, _, _ = np.linalg.lstsq(x, y, rcond=None)
        print(repr(float(np.linalg.norm(x @ m - y) / y_norm)))


if __name__ == "__main__":
    main()
