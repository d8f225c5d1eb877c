#!/usr/bin/python3
"""The real config.json files of tests/models/configs/ (each with a SOURCE line naming the public
file it was copied from, byte for byte) opened alone with `pelab model inspect --json`, and every
number it prints checked against hf_rope_reference.py: a NumPy port of transformers'
modeling_rope_utils.py and its families' configuration and modeling files (transformers main at
c49429e, written from that source, not from PE Lab's; hf_rope_reference.md says where each rule
comes from), evaluated in float64.

Checked for each config: the layer-by-layer plan (which layers rotate, global / sliding /
chunked / linear attention, the window or chunk, each rotating layer's base and rope type), the
shown layer's rotating width and pairing, its wavelengths unscaled and under the config's
scaling (longrope: short_factor's up to the original context, long_factor's past it), and the
attention factor. Frequencies to 1e-9 relative.

Usage: check_configs.py PELAB [CONFIG_FOLDER ...]
"""
import json
import math
import os
import subprocess
import sys

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import hf_rope_reference as ref  # noqa: E402

failures = []
ATTENTION = {"full": "global", "sliding": "sliding window", "chunked": "chunked",
             "linear": "linear attention"}


def check(what, ok, detail=""):
    print(("ok    " if ok else "FAIL  ") + what + ("" if ok else ": " + detail))
    if not ok:
        failures.append(what)


def close(what, got, want, rtol=1e-9):
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    if got.shape != want.shape:
        check(what, False, "shape %s, expected %s" % (got.shape, want.shape))
        return
    error = float(np.max(np.abs(got - want) / np.maximum(np.abs(want), 1e-300))) if want.size else 0
    check(what, error <= rtol, "largest relative difference %.3g" % error)


def inspect(pelab, path):
    run = subprocess.run([pelab, "model", "inspect", path, "--json"], capture_output=True,
                         text=True)
    if run.returncode != 0:
        return None, run.stderr.strip()
    return json.loads(run.stdout), ""


def check_config(pelab, name, path):
    with open(path) as f:
        config = json.load(f)
    report, error = inspect(pelab, path)
    check(name + ": opens alone", report is not None, error)
    if report is None:
        return
    text = config.get("text_config") or config
    model_type = text.get("model_type", config.get("model_type"))
    if ref._family_of(model_type) is None or getattr(ref.load_config(config), "unknown_family",
                                                     False):
        # A family the reference does not port: PE Lab must say it read it as a generic one.
        print("skip  %s: model_type %s is not one the reference ports" % (name, model_type))
        family = report["schedule"]["family_id"]
        if not family:
            check(name + ": a note says the family is not one PE Lab knows",
                  any("is not a family PE Lab knows" in note
                      for note in report["schedule"]["notes"]), json.dumps(report["schedule"]))
        return
    want = ref.layer_schedule(config)
    got = report.get("layers", [])
    check(name + ": one plan per layer", len(got) == len(want),
          "%d layers, expected %d" % (len(got), len(want)))
    if len(got) != len(want):
        return
    for g, w in zip(got, want):
        where = "%s layer %d" % (name, w["index"])
        check(where + ": rotates or not", g["rope"] == w["rope"],
              "rope %s, expected %s" % (g["rope"], w["rope"]))
        check(where + ": attention", g["attention"] == ATTENTION[w["attention"]],
              "%s, expected %s" % (g["attention"], w["attention"]))
        span = w["window"] if w["attention"] == "sliding" else w["chunk"]
        check(where + ": window or chunk", g["span"] == span, "%s, expected %s" % (g["span"], span))
        if w["rope"] and g["rope"]:
            check(where + ": base", math.isclose(g["rope_theta"], w["rope_theta"], rel_tol=1e-12),
                  "%s, expected %s" % (g["rope_theta"], w["rope_theta"]))
            check(where + ": rope type", g["rope_type"] == w["rope_type"],
                  "%s, expected %s" % (g["rope_type"], w["rope_type"]))
    rope = report.get("rope")
    if rope is None:
        check(name + ": no RoPE, as the reference says", not any(w["rope"] for w in want))
        return
    shown = report["schedule"]["shown_layer"]
    layer_type = want[shown]["layer_type"] if shown >= 0 else None
    check(name + ": rotating width", rope["rotary_dims"] == ref.rotary_dims(config, layer_type),
          "%s, expected %s" % (rope["rotary_dims"], ref.rotary_dims(config, layer_type)))
    check(name + ": pairing", rope["pairing"] == ref.pairing(config),
          "%s, expected %s" % (rope["pairing"], ref.pairing(config)))
    params = ref.standardize(config)
    entry = params.get(layer_type) if layer_type in params else params.get("all")
    rope_type = (entry or {}).get("rope_type", "default")
    base = float((entry or {}).get("rope_theta", rope["base"]))
    dims = rope["rotary_dims"]
    if rope_type == "proportional":
        # p-RoPE: the turning pairs are the reference's non-zero frequencies.
        inv, factor = ref.inv_freq(config, layer_type)
        close(name + ": p-RoPE's wavelengths", rope["scaled_wavelengths"],
              2 * math.pi / inv[inv > 0])
        return
    close(name + ": wavelengths", rope["wavelengths"],
          2 * math.pi * base ** (np.arange(0, dims, 2) / dims))
    if rope_type == "default":
        return
    if rope_type == "longrope":
        original = entry["original_max_position_embeddings"]
        short, factor = ref.inv_freq(config, layer_type, seq_len=original)
        long, _ = ref.inv_freq(config, layer_type, seq_len=original + 1)
        close(name + ": longrope short_factor's wavelengths", rope["short_wavelengths"],
              2 * math.pi / short)
        close(name + ": longrope long_factor's wavelengths", rope["scaled_wavelengths"],
              2 * math.pi / long)
    elif rope_type == "dynamic":
        return  # PE Lab shows it at s × the original context; pelab rope checks every length
    else:
        inv, factor = ref.inv_freq(config, layer_type)
        close(name + ": " + rope_type + "'s wavelengths", rope["scaled_wavelengths"],
              2 * math.pi / inv)
    check(name + ": attention factor", math.isclose(rope["attention_factor"], factor,
                                                    rel_tol=1e-12),
          "%s, expected %s" % (rope["attention_factor"], factor))


def main():
    pelab = sys.argv[1]
    folders = sys.argv[2:] or sorted(
        os.path.join(here, "configs", name) for name in os.listdir(os.path.join(here, "configs"))
        if os.path.isdir(os.path.join(here, "configs", name)))
    for folder in folders:
        name = os.path.basename(folder)
        with open(os.path.join(folder, "SOURCE")) as f:
            check(name + ": has a SOURCE line", len(f.readline().split()) >= 3)
        check_config(pelab, name, os.path.join(folder, "config.json"))
    print("%d configs, %d failures" % (len(folders), len(failures)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
