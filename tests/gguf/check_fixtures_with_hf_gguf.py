#!/usr/bin/python3
"""check_fixtures_with_hf_gguf.py [OUTDIR]

Generates every fixture (make_quant_fixtures, make_arch_fixtures, make_hostile) into OUTDIR
(default: a fresh temporary folder), then reads each valid GGUF with the independent npm
parser @huggingface/gguf (hf_gguf_dump.mjs) and compares metadata (types and values; arrays:
element type, length, first elements) and tensor infos (name, shape, type, offset, data
offset) with what gguf_writer meant to write (its describe()). Exit status 0 only if all agree.
Hostile files are also fed to it, for information only (that parser is lenient)."""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import make_arch_fixtures  # noqa: E402
import make_hostile  # noqa: E402
import make_quant_fixtures  # noqa: E402
from gguf_writer import GGUFWriter  # noqa: E402


def dump(path):
    p = subprocess.run(["node", os.path.join(HERE, "hf_gguf_dump.mjs"), path], capture_output=True, text=True, timeout=60)
    try:
        return json.loads(p.stdout.strip().splitlines()[-1])
    except Exception:
        return {"ok": False, "error": (p.stderr or p.stdout)[-500:]}


def same_scalar(t, want, got):
    if t in ("UINT64", "INT64", "UINT32", "INT32", "UINT16", "INT16", "UINT8", "INT8"):
        return int(got) == int(want)
    if t in ("FLOAT32", "FLOAT64"):
        return float(got) == float(want) or (np.isnan(float(got)) and np.isnan(float(want)))
    if t == "BOOL":
        return bool(got) == bool(want)
    return got == want


def same_nested(want, got):
    if isinstance(want, list):
        return isinstance(got, list) and len(want) == len(got) and all(same_nested(a, b) for a, b in zip(want, got))
    if isinstance(want, bool):
        return got is want
    if isinstance(want, (int, float)):
        return float(got) == float(want)
    return want == got


def compare(desc, d):
    errs = []
    if not d.get("ok"):
        return [f"parser failed: {d.get('error')}"]
    if d["version"] != desc["version"]:
        errs.append(f"version {d['version']} != {desc['version']}")
    if int(d["tensorDataOffset"]) != desc["data_offset"]:
        errs.append(f"tensorDataOffset {d['tensorDataOffset']} != {desc['data_offset']}")
    if int(d["kv_count"]) != len(desc["kv"]) or int(d["tensor_count"]) != len(desc["tensors"]):
        errs.append("counts differ")
    for k, e in desc["kv"].items():
        g = d["kv"].get(k)
        if g is None:
            errs.append(f"missing key {k}")
            continue
        if g["type"] != e["type"]:
            errs.append(f"{k}: type {g['type']} != {e['type']}")
            continue
        if e["type"] == "ARRAY":
            if g["elem"] != e["elem"] or g["len"] != e["len"]:
                errs.append(f"{k}: array {g['elem']}[{g['len']}] != {e['elem']}[{e['len']}]")
            first = e["value"][: len(g["first"])]
            if e["elem"] in ("UINT64", "INT64"):
                ok = [int(x) for x in g["first"]] == [int(x) for x in first]
            else:
                ok = same_nested(first, g["first"])
            if not ok:
                errs.append(f"{k}: first elements {g['first']} != {first}")
        elif not same_scalar(e["type"], e["value"], g["value"]):
            errs.append(f"{k}: value {g['value']!r} != {e['value']!r}")
    if len(d["tensors"]) != len(desc["tensors"]):
        errs.append("tensor count differs")
    for te, tg in zip(desc["tensors"], d["tensors"]):
        if tg["name"] != te["name"] or [int(x) for x in tg["shape"]] != te["ne"] or int(tg["dtype_id"]) != te["type_id"] \
                or int(tg["offset"]) != te["offset"]:
            errs.append(f"tensor {te['name']}: got {tg}, want ne={te['ne']} type={te['type_id']} offset={te['offset']}")
    return errs


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="gguf_fixtures_")
    manifests = {}
    manifests.update({os.path.join("quant", k): v for k, v in make_quant_fixtures.make(os.path.join(outdir, "quant")).items()})
    manifests.update({os.path.join("arch", k): v for k, v in make_arch_fixtures.make(os.path.join(outdir, "arch"), list(make_arch_fixtures.BUILDERS)).items()})
    # valid hostile-set files: rebuild their descriptions
    from gguf_writer import all_types_sample
    hd = os.path.join(outdir, "hostile")
    os.makedirs(hd, exist_ok=True)
    rng = np.random.default_rng(20240607)
    hostile = make_hostile.cases(rng)
    for fn, valid, why, data in hostile:
        with open(os.path.join(hd, fn), "wb") as f:
            f.write(data)
    for fn, w in (("valid_v3.gguf", all_types_sample(3)), ("valid_v2.gguf", all_types_sample(2)),
                  ("valid_align64.gguf", all_types_sample(3, alignment=64))):
        manifests[os.path.join("hostile", fn)] = w.describe()

    n_bad = 0
    for rel, desc in sorted(manifests.items()):
        errs = compare(desc, dump(os.path.join(outdir, rel)))
        if errs:
            n_bad += 1
            print(f"DISAGREE {rel}:")
            for e in errs[:10]:
                print("   ", e)
    print(f"@huggingface/gguf agreed on {len(manifests) - n_bad}/{len(manifests)} valid fixtures (in {outdir})")
    info = []
    for fn, valid, why, data in hostile:
        if valid is True:
            continue
        d = dump(os.path.join(hd, fn))
        info.append(f"  {fn}: {'accepted' if d.get('ok') else 'rejected'}")
    print("hostile files, for information (@huggingface/gguf is not a validator):")
    print("\n".join(info))
    return 1 if n_bad else 0


if __name__ == "__main__":
    sys.exit(main())
