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

With --zero-weights, each config is instead put beside zero-filled sparse weights of the real
shapes (the q and k projections as transformers' modeling files build them: MLA's q_b_proj and
kv_a_proj_with_mqa, the gated q_proj of Qwen3-Next / 3.5, Gemma 4's wider global heads, FP8
with block scales where quantization_config says so) and the usage view checked to read every
rotating layer of the shown kind.

Usage: check_configs.py PELAB [--zero-weights] [CONFIG_FOLDER ...]
"""
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import hf_rope_reference as ref  # noqa: E402

failures = []
ATTENTION = {"full": "global", "sliding": "sliding window", "chunked": "chunked",
             "linear": "linear attention", "conv": "short convolution", "none": "no attention"}


# Set per config: why PE Lab's reading may differ from transformers' (a family PE Lab says it
# does not know, or a divergence its note names); "" when they must agree.
tolerated = {"why": ""}
# Where PE Lab knowingly reads a config otherwise than transformers' own class, and the words its
# note must hold (hf_rope_reference.md says what transformers does).
DIVERGES = {"minimax_m2": "rotary_dim"}


def check(what, ok, detail=""):
    if not ok and tolerated["why"]:
        print("known %s: %s (%s)" % (what, detail, tolerated["why"]))
        return
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
    tolerated["why"] = ""
    notes = report["schedule"]["notes"] + report.get("notes", [])
    if any("is not a family PE Lab knows" in note for note in notes):
        tolerated["why"] = "PE Lab says it reads model_type %s as a generic one" % model_type
    elif model_type in DIVERGES:
        check(name + ": a note names the divergence",
              any(DIVERGES[model_type] in note for note in notes), json.dumps(notes))
        tolerated["why"] = "PE Lab follows the model's own code: " + DIVERGES[model_type]
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


def projection_shapes(config, want):
    """The q and k projections of every attending layer, named and shaped as transformers'
    modeling files build them (from the reference's reading of the config, not PE Lab's), and
    the dtype the checkpoint would hold; None when the family's attention is one PE Lab does not
    read from the weights (said by the caller)."""
    cfg = ref.load_config(config)
    fam = cfg.family_used
    heads, hidden = cfg.num_attention_heads, getattr(cfg, "hidden_size", None)
    if heads is None or hidden is None or cfg.unknown_family:
        return None
    kv = cfg.num_key_value_heads or heads
    per_layer = getattr(cfg, "_per_layer", {})
    tensors = []
    for w in want:
        i = w["index"]
        hd = per_layer.get(i, {}).get("head_dim") or getattr(cfg, "head_dim", None) or \
            hidden // heads
        layer_kv = per_layer.get(i, {}).get("num_key_value_heads") or kv
        p = "model.layers.%d." % i
        if w["attention"] == "linear":
            tensors.append((p + "linear_attn.in_proj_qkvz.weight", (16, hidden)))
        elif getattr(cfg, "kv_lora_rank", None):
            nope, rope = cfg.qk_nope_head_dim, cfg.qk_rope_head_dim
            q_rank = getattr(cfg, "q_lora_rank", None)
            tensors += [(p + ("self_attn.q_b_proj.weight" if q_rank else "self_attn.q_proj.weight"),
                         (heads * (nope + rope), q_rank or hidden)),
                        (p + "self_attn.kv_a_proj_with_mqa.weight",
                         (cfg.kv_lora_rank + rope, hidden))]
        elif fam == "modernbert":
            tensors.append((p + "attn.Wqkv.weight", (3 * hidden, hidden)))
        elif fam in ("qwen3_next", "qwen3_5_text", "qwen3_5", "qwen3_5_moe_text", "qwen3_5_moe"):
            tensors += [(p + "self_attn.q_proj.weight", (2 * heads * hd, hidden)),
                        (p + "self_attn.k_proj.weight", (layer_kv * hd, hidden))]
        else:
            tensors += [(p + "self_attn.q_proj.weight", (heads * hd, hidden)),
                        (p + "self_attn.k_proj.weight", (layer_kv * hd, hidden))]
    quantization = config.get("quantization_config") or {}
    block = quantization.get("weight_block_size")
    return tensors, block


def write_zero_weights(folder, tensors, block):
    """A sparse model.safetensors of zeros: the header, then holes of the tensors' sizes (FP8
    with 128 x 128 block scales of zeros when the config quantizes so)."""
    header, offset = {}, 0
    entries = []
    for name, shape in tensors:
        fp8 = block is not None and "linear_attn" not in name
        entries.append((name, "F8_E4M3" if fp8 else "BF16", shape))
        if fp8:
            grid = (-(-shape[0] // block[0]), -(-shape[1] // block[1]))
            entries.append((name + "_scale_inv", "F32", grid))
    for name, dtype, shape in entries:
        size = int(np.prod(shape)) * {"F8_E4M3": 1, "BF16": 2, "F32": 4}[dtype]
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [offset, offset + size]}
        offset += size
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(os.path.join(folder, "model.safetensors"), "wb") as f:
        f.write(len(text).to_bytes(8, "little") + text)
        f.truncate(8 + len(text) + offset)


def check_weights(pelab, name, path, scratch):
    """The config beside zero-filled weights of the real shapes: the usage view reads every
    rotating layer of the shown kind (all zeros), and nothing else of the report changes."""
    with open(path) as f:
        config = json.load(f)
    alone, _ = inspect(pelab, path)
    if alone is None or alone.get("rope") is None:
        return
    tolerated["why"] = ""
    notes = alone["schedule"]["notes"] + alone.get("notes", [])
    if any("is not a family PE Lab knows" in note for note in notes):
        tolerated["why"] = "PE Lab says it reads model_type %s as a generic one" % (
            (config.get("text_config") or config).get("model_type"))
    want = ref.layer_schedule(config)
    shapes = projection_shapes(config, want)
    if shapes is None:
        print("skip  %s: a family the reference does not port (its shapes unknown)" % name)
        return
    folder = os.path.join(scratch, name)
    os.makedirs(folder)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(config, f)
    write_zero_weights(folder, *shapes)
    report, error = inspect(pelab, folder)
    check(name + " with zero weights of the real shapes: opens", report is not None, error)
    if report is None:
        return
    rope = report.get("rope") or {}
    shown = want[report["schedule"]["shown_layer"]]
    same = lambda w: (w["rope"], w["layer_type"], w["attention"], w.get("rope_theta"),
                      w.get("rope_type"), w["window"], w["chunk"])
    layers = [w["index"] for w in want if w["rope"] and same(w) == same(shown)]
    check(name + " with zero weights: the usage's layers are the shown kind's",
          rope.get("usage_layers") == layers, "%s, expected %s" % (rope.get("usage_layers"), layers))
    usage = np.asarray(rope.get("usage", []), dtype=np.float64)
    check(name + " with zero weights: layers × heads × pairs of zeros",
          usage.shape == (len(layers), rope.get("heads", 0), rope.get("pairs", 0)) and
          not usage.any(), "shape %s" % (usage.shape,))
    for key in ("wavelengths", "scaled_wavelengths", "attention_factor", "rotary_dims", "base"):
        check(name + " with zero weights: " + key + " as from config.json alone",
              rope.get(key) == alone["rope"].get(key))


def main():
    pelab = sys.argv[1]
    weights = "--zero-weights" in sys.argv
    sys.argv = [a for a in sys.argv if a != "--zero-weights"]
    folders = sys.argv[2:] or sorted(
        os.path.join(here, "configs", name) for name in os.listdir(os.path.join(here, "configs"))
        if os.path.isdir(os.path.join(here, "configs", name)))
    for folder in folders:
        name = os.path.basename(folder)
        with open(os.path.join(folder, "SOURCE")) as f:
            check(name + ": has a SOURCE line", len(f.readline().split()) >= 3)
        if weights:
            with tempfile.TemporaryDirectory() as scratch:
                check_weights(pelab, name, os.path.join(folder, "config.json"), scratch)
        else:
            check_config(pelab, name, os.path.join(folder, "config.json"))
    print("%d configs, %d failures" % (len(folders), len(failures)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
