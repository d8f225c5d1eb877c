#!/usr/bin/python3
"""make_quant_fixtures.py OUTDIR

For each dequantizable type T (F32 F16 BF16 F64 Q8_0 Q4_0 Q4_1 Q5_0 Q5_1 Q2_K Q3_K Q4_K
Q5_K Q6_K Q8_K) writes
  quant_<T>.gguf : GGUF v3, one 2-D tensor "t", ne = (512, 4) (4 rows of 512), random
                   valid blocks (ggml_dequant.random_blocks)
  quant_<T>.npy  : float32 array (4, 512) = ggml_dequant.dequantize of those bytes
and for the list-only types IQ2_XS, TQ1_0, MXFP4 a quant_<T>.gguf holding random bytes
of the right size (no .npy: they are to be listed, not read).
Also writes OUTDIR/MANIFEST.json (what each file was meant to contain).
Deterministic: seed 42 + type id."""
import json
import os
import sys

import numpy as np

from ggml_dequant import DEQUANT_TYPES, TYPES, dequantize, random_blocks
from gguf_writer import GGUFWriter, STR, U32

ROWS, COLS = 4, 512
LIST_ONLY = ["IQ2_XS", "TQ1_0", "MXFP4"]


def make(outdir):
    os.makedirs(outdir, exist_ok=True)
    manifest = {}
    for name in DEQUANT_TYPES + LIST_ONLY:
        tid, bs, sz = TYPES[name]
        rng = np.random.default_rng(42 + tid)
        nblk = ROWS * COLS // bs
        raw = random_blocks(name, nblk, rng)
        assert len(raw) == nblk * sz
        w = GGUFWriter(version=3)
        w.add("general.architecture", STR, "quanttest")
        w.add("general.name", STR, f"quant_{name}")
        w.add("general.quantization_version", U32, 2)
        w.add_tensor("t", (COLS, ROWS), name, raw)
        fn = f"quant_{name}.gguf"
        w.write(os.path.join(outdir, fn))
        desc = w.describe()
        if name in DEQUANT_TYPES:
            vals = dequantize(name, raw, ROWS * COLS).reshape(ROWS, COLS)
            np.save(os.path.join(outdir, f"quant_{name}.npy"), vals)
            desc["npy"] = f"quant_{name}.npy"
            desc["sum_sq_rows"] = [float(np.sum(vals[r].astype(np.float64) ** 2)) for r in range(ROWS)]
        else:
            desc["npy"] = None
        manifest[fn] = desc
    with open(os.path.join(outdir, "MANIFEST.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    return manifest


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    m = make(sys.argv[1])
    print(f"wrote {len(m)} quant fixtures to {sys.argv[1]}")
