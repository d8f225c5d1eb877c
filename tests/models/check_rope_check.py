#!/usr/bin/python3
"""`pelab rope check` on dumps that carry each known bug, made here in NumPy from transformers'
definitions (hf_rope_reference.py, a port no one here wrote), never by PE Lab: the reference
changed by the bug's defining change, for Llama 3.1 (llama3), GPT-OSS (yarn, truncate false),
Phi-3.5 (longrope), DeepSeek V3 (yarn with mscale_all_dim), Gemma 3 (a local and a global
layer), Qwen2 (no scaling) and a dynamic NTK config, each in float64, float32, bfloat16 (as
its '<u2' bits) and float16.

Each dump must get its cause's id from `rope check --json` (cos and sin; then inv_freq and the
angles p·θ, for the causes they can carry); the unchanged tables must agree in every dtype; random tables must differ with no cause named. Then bad input: a width that fits no
layout, NaN, a dump past the model's context (allowed, said), '<u2' without --dtype bf16.

Usage: check_rope_check.py PELAB
"""
import copy
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import hf_rope_reference as ref  # noqa: E402

failures = []
ROWS = 512

# (name, config folder, layer, layer type for the reference or None, sequence end B)
MODELS = [
    ("llama-3.1", "configs/llama-3.1-8b", 0, None, 16384),
    ("gpt-oss", "configs/gpt-oss-20b", 1, None, 8192),
    ("phi-3.5", "configs/phi-3.5-mini-instruct", 0, None, 8192),
    ("deepseek-v3", "configs/deepseek-v3", 0, None, 8192),
    ("gemma-3 global", "configs/gemma-3-27b-it", 5, "full_attention", 4096),
    ("gemma-3 local", "configs/gemma-3-27b-it", 0, "sliding_attention", 4096),
    ("qwen2", "configs/qwen2.5-0.5b-instruct", 0, None, 4096),
    ("dynamic", "rope_check/dynamic-llama", 0, None, 8192),
]
DTYPES = ["f64", "f32", "bf16", "f16"]


def check(what, ok, detail=""):
    print(("ok    " if ok else "FAIL  ") + what + ("" if ok else ": " + detail))
    if not ok:
        failures.append(what)


def bf16_bits(values):
    """float64 → float32 → bfloat16 (round to nearest even), as PyTorch's cast does."""
    single = np.asarray(values, dtype=np.float32)
    bits = single.view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def bf16_round(values):
    return (bf16_bits(values).astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def round_to(values, dtype):
    if dtype == "f64":
        return np.asarray(values, dtype=np.float64)
    if dtype == "f32":
        return np.asarray(values, dtype=np.float32).astype(np.float64)
    if dtype == "f16":
        return np.asarray(values, dtype=np.float16).astype(np.float64)
    return bf16_round(values)


def save(path, values, dtype):
    if dtype == "bf16":
        np.save(path, bf16_bits(values))
    else:
        np.save(path, np.asarray(values, dtype={"f64": np.float64, "f32": np.float32,
                                                "f16": np.float16}[dtype]))


# ---- The reference's frequencies, and those with one defining change ----

def layer_params(config, layer_type):
    """The effective rope parameters of the layer and the config object, as the port reads them."""
    cfg = ref._as_cfg(config)
    eff = ref._effective(cfg)
    nested = ref._is_nested(cfg)
    lcfg = ref._layer_cfg(eff, layer_type)
    lcfg.rope_parameters = eff.rope_parameters
    p = copy.deepcopy(ref._params_for(eff, layer_type if nested else None))
    if not nested and cfg.family_used in ref._DEFAULT_PER_LAYER and layer_type:
        p = copy.deepcopy(eff.rope_parameters.get(layer_type, p)) if isinstance(
            eff.rope_parameters.get(layer_type), dict) else p
    return cfg, lcfg, p


def frequencies(config, layer_type, seq_len, change=None):
    """(inv_freq, attention factor) of the layer, with change(p) applied to its rope parameters
    (p: the dict transformers' rope function reads) before the rope function runs."""
    if change is None:
        return ref.inv_freq(config, layer_type=layer_type, seq_len=seq_len)
    cfg, lcfg, p = layer_params(config, layer_type)
    p = change(p, cfg)
    rope_type = p.get("rope_type", p.get("type", "default"))
    if rope_type == "default":
        dim = p.get("_dim") or ref.rotary_dims(config, layer_type)
        return ref._default_freqs(p["rope_theta"], dim), 1.0
    lcfg.rope_parameters = copy.deepcopy(lcfg.rope_parameters)
    nested = ref._is_nested(cfg)
    if nested:
        lcfg.rope_parameters[layer_type] = p
    else:
        lcfg.rope_parameters = p
    return ref.ROPE_INIT_FUNCTIONS[rope_type](lcfg, p, seq_len, layer_type if nested else None)


def tables(inv, attention, positions, interleaved, angle_dtype=None):
    """cos and sin (as the model's cache lays them out), angles in float64 unless angle_dtype."""
    pos = np.asarray(positions, dtype=np.float64)
    if angle_dtype is None:
        angles = np.outer(pos, inv)
    else:
        angles = round_to(np.outer(round_to(pos, angle_dtype), round_to(inv, angle_dtype)),
                          angle_dtype)
    emb = np.repeat(angles, 2, axis=1) if interleaved else np.concatenate([angles, angles], 1)
    return np.cos(emb) * attention, np.sin(emb) * attention


def swap_layout(table, interleaved):
    n = table.shape[1] // 2
    if interleaved:  # the model's are interleaved: write half-split
        return np.concatenate([table[:, 0::2], table[:, 0::2]], 1)
    return np.repeat(table[:, :n], 2, axis=1)


def causes(config, layer_type, end):
    """{cause id: (cos, sin)} for the model: each bug by its defining change."""
    cfg, _, p = layer_params(config, layer_type)
    interleaved = ref.pairing(config) == "interleaved"
    first = end - ROWS
    positions = np.arange(first, end)
    inv, att = frequencies(config, layer_type, end)
    rope_type = p.get("rope_type", p.get("type", "default"))
    out = {"none": tables(inv, att, positions, interleaved)}
    cos, sin = out["none"]
    out["pairing_swapped"] = (swap_layout(cos, interleaved), swap_layout(sin, interleaved))
    out["positions_off_by_one"] = tables(inv, att, positions + 1, interleaved)
    out["positions_offset"] = tables(inv, att, positions + 1000, interleaved)
    if att == 1:
        out["attention_factor_wrong"] = tables(inv, 1.1, positions, interleaved)
    if att != 1:
        out["attention_factor_missing"] = tables(inv, 1.0, positions, interleaved)
        out["attention_factor_squared"] = tables(inv, att * att, positions, interleaved)
    if float(p["rope_theta"]) != 10000:
        def base(q, _):
            q["rope_theta"] = 10000.0
            return q
        changed, changed_att = frequencies(config, layer_type, end, base)
        out["base_defaulted"] = tables(changed, changed_att, positions, interleaved)
    if rope_type not in ("default", "dynamic"):
        def unscaled(q, _):
            return {"rope_type": "default", "rope_theta": q["rope_theta"],
                    "_dim": ref.rotary_dims(config, layer_type)}
        changed, _ = frequencies(config, layer_type, end, unscaled)
        out["scaling_not_applied"] = tables(changed, 1.0, positions, interleaved)
    if rope_type in ("yarn", "llama3"):
        def linear(q, _):
            return {"rope_type": "linear", "rope_theta": q["rope_theta"], "factor": q["factor"],
                    "partial_rotary_factor": q.get("partial_rotary_factor", 1.0)}
        changed, changed_att = frequencies(config, layer_type, end, linear)
        out["other_scaling"] = tables(changed, changed_att, positions, interleaved)
    if rope_type == "dynamic":
        # computed once, at start-up (the length is max_position_embeddings), never again
        changed, changed_att = ref.inv_freq(config, layer_type=layer_type, seq_len=None)
        out["dynamic_frozen"] = tables(changed, changed_att, positions, interleaved)
    if rope_type == "longrope":
        changed, _ = ref.inv_freq(config, layer_type=layer_type, seq_len=None)  # short_factor
        out["longrope_other_factor"] = tables(changed, att, positions, interleaved)
    out["low_precision_frequencies"] = tables(bf16_round(inv), att, positions, interleaved)
    out["low_precision_angles"] = tables(inv, att, positions, interleaved, angle_dtype="bf16")
    # Half the rotating dimensions (partial_rotary_factor halved)
    if rope_type in ("default", "linear"):
        def half(q, _):
            dim = ref.rotary_dims(config, layer_type) // 2
            if rope_type == "linear":
                q = dict(q)
                q["partial_rotary_factor"] = q.get("partial_rotary_factor", 1.0) / 2
                return q
            return {"rope_type": "default", "rope_theta": q["rope_theta"], "_dim": dim}
        changed, changed_att = frequencies(config, layer_type, end, half)
        out["partial_rotary"] = tables(changed, changed_att, positions, interleaved)
    return out


def inv_and_angle_causes(config, layer_type, end):
    """{cause id: (inv_freq, angles)} for the causes an inv_freq or angles dump can carry."""
    cfg, _, p = layer_params(config, layer_type)
    interleaved = ref.pairing(config) == "interleaved"
    positions = np.arange(end - ROWS, end, dtype=np.float64)
    rope_type = p.get("rope_type", p.get("type", "default"))

    def laid_out(inv, shift=0, swap=False, angle_dtype=None):
        angles = np.outer(positions + shift, inv) if angle_dtype is None else round_to(
            np.outer(round_to(positions, angle_dtype), round_to(inv, angle_dtype)), angle_dtype)
        doubled = np.repeat(angles, 2, axis=1) if interleaved != swap else \
            np.concatenate([angles, angles], 1)
        return doubled

    inv, _ = frequencies(config, layer_type, end)
    out = {"none": (inv, laid_out(inv)),
           "pairing_swapped": (None, laid_out(inv, swap=True)),
           "positions_off_by_one": (None, laid_out(inv, shift=1)),
           "low_precision_frequencies": (bf16_round(inv), laid_out(bf16_round(inv))),
           "low_precision_angles": (None, laid_out(inv, angle_dtype="bf16"))}
    if float(p["rope_theta"]) != 10000:
        def base(q, _):
            q["rope_theta"] = 10000.0
            return q
        changed, _ = frequencies(config, layer_type, end, base)
        out["base_defaulted"] = (changed, laid_out(changed))
    if rope_type not in ("default", "dynamic"):
        def unscaled(q, _):
            return {"rope_type": "default", "rope_theta": q["rope_theta"],
                    "_dim": ref.rotary_dims(config, layer_type)}
        changed, _ = frequencies(config, layer_type, end, unscaled)
        out["scaling_not_applied"] = (changed, laid_out(changed))
    return out


def rope_check(pelab, config_path, layer, first, end, dtype, *dumps):
    """(exit code, the --json report or None, stderr) of `rope check` on dumps ("--cos", A, …)."""
    command = [pelab, "rope", "check", config_path, "--layer", str(layer), "--positions",
               "%d:%d" % (first, end)] + list(dumps) + ["--json"]
    if dtype == "bf16":
        command += ["--dtype", "bf16"]
    run = subprocess.run(command, capture_output=True, text=True)
    try:
        return run.returncode, json.loads(run.stdout), run.stderr
    except json.JSONDecodeError:
        return run.returncode, None, run.stderr


def check_inv_and_angles(pelab, scratch, name, folder, layer, layer_type, end):
    config_path = os.path.join(here, folder, "config.json")
    with open(config_path) as f:
        config = json.load(f)
    for cause, (inv, angles) in inv_and_angle_causes(config, layer_type, end).items():
        for dtype in ("f64", "f32", "bf16"):
            for option, table in (("--inv-freq", inv), ("--angles", angles)):
                if table is None or (option == "--angles" and dtype == "bf16"):
                    continue  # bf16 cannot hold angles of thousands of radians
                path = os.path.join(scratch, "dump.npy")
                save(path, table, dtype)
                code, report, error = rope_check(pelab, config_path, layer, end - ROWS, end,
                                                 dtype, option, path)
                what = "%s, %s %s, %s" % (name, option[2:], cause, dtype)
                if report is None:
                    check(what + ": rope check answers", False, error.strip())
                elif cause == "none" or (cause == "low_precision_frequencies" and
                                         option == "--inv-freq" and dtype == "bf16"):
                    # (bfloat16 frequencies written as bfloat16 are the right ones, rounded.)
                    check(what + ": agrees", code == 0 and report["agrees"], report["verdict"])
                else:
                    check(what + ": named", code == 1 and report["cause"] == cause,
                          "exit %d, cause %s: %s" % (code, report["cause"], report["verdict"]))


def check_model(pelab, scratch, name, folder, layer, layer_type, end):
    config_path = os.path.join(here, folder, "config.json")
    with open(config_path) as f:
        config = json.load(f)
    first = end - ROWS
    for cause, (cos, sin) in causes(config, layer_type, end).items():
        for dtype in DTYPES:
            cos_path = os.path.join(scratch, "cos.npy")
            sin_path = os.path.join(scratch, "sin.npy")
            save(cos_path, cos, dtype)
            save(sin_path, sin, dtype)
            code, report, error = rope_check(pelab, config_path, layer, first, end, dtype,
                                             "--cos", cos_path, "--sin", sin_path)
            what = "%s, %s, %s" % (name, cause, dtype)
            if report is None:
                check(what + ": rope check answers", False, error.strip())
                continue
            if cause == "none":
                check(what + ": agrees (exit 0)", code == 0 and report["agrees"],
                      report["verdict"])
                continue
            check(what + ": named (exit 1)", code == 1 and report["cause"] == cause,
                  "exit %d, cause %s: %s" % (code, report["cause"], report["verdict"]))
    # Random numbers of the right shape: differ, nothing named.
    rng = np.random.default_rng(7)
    cos, _ = causes(config, layer_type, end)["none"]
    for dtype in DTYPES:
        save(os.path.join(scratch, "cos.npy"), rng.uniform(-1, 1, cos.shape), dtype)
        save(os.path.join(scratch, "sin.npy"), rng.uniform(-1, 1, cos.shape), dtype)
        code, report, error = rope_check(pelab, config_path, layer, first, end, dtype, "--cos",
                                         os.path.join(scratch, "cos.npy"), "--sin",
                                         os.path.join(scratch, "sin.npy"))
        check("%s, random, %s: differs, no cause" % (name, dtype),
              report is not None and code == 1 and report["cause"] == "unknown",
              error.strip() if report is None else report["verdict"])


def bad_input(pelab, scratch):
    config_path = os.path.join(here, "configs/qwen2.5-0.5b-instruct/config.json")
    config = json.load(open(config_path))
    inv, att = ref.inv_freq(config, seq_len=64)
    cos, sin = tables(inv, att, np.arange(64), False)
    paths = [os.path.join(scratch, n) for n in ("c.npy", "s.npy")]

    def run(cos_table, sin_table, *extra):
        np.save(paths[0], cos_table)
        np.save(paths[1], sin_table)
        result = subprocess.run([pelab, "rope", "check", config_path, "--cos", paths[0], "--sin",
                                 paths[1]] + list(extra), capture_output=True, text=True)
        return result.returncode, result.stdout + result.stderr

    code, text = run(cos[:, :63], sin[:, :63])
    check("a width no layout explains: exit 2, said", code == 2 and "fit no layout" in text, text)
    broken = cos.copy()
    broken[5, 3] = np.nan
    code, text = run(broken, sin)
    check("NaN: exit 2, row and column named", code == 2 and "NaN at row 5, column 3" in text, text)
    code, text = run(cos.astype(np.float32)[None, None], sin.astype(np.float32)[None, None])
    check("[1, 1, n, d] as PyTorch shapes its caches: read", code == 0, text)
    code, text = run(bf16_bits(cos), bf16_bits(sin))
    check("'<u2' without --dtype bf16: exit 2, says what to add",
          code == 2 and "--dtype bf16" in text, text)
    long_end = 32768 + 64
    inv, att = ref.inv_freq(config, seq_len=long_end)
    cos, sin = tables(inv, att, np.arange(32768 - 64, long_end), False)
    code, text = run(cos, sin, "--positions", "%d:%d" % (32768 - 64, long_end))
    check("a dump past the context: compared, and said", code == 0 and "past the 32768" in text,
          text)
    code, text = run(cos, sin, "--positions", "0:10")
    check("--positions that do not match the rows: exit 2", code == 2 and "holds 128 rows" in text,
          text)
    code, text = run(cos[:, :1], sin[:, :1])
    check("a [positions, 1] column: exit 2, no layout", code == 2 and "fit no layout" in text, text)
    code, text = run(np.full_like(cos, 1.7e308), sin)
    check("numbers far past any RoPE value: exit 2", code == 2 and "far past" in text, text)
    result = subprocess.run([pelab, "rope", "check", config_path, "--cos", paths[0], "--sin",
                             paths[0]], capture_output=True, text=True)
    check("the same file as --cos and --sin: exit 2", result.returncode == 2 and
          "same file" in result.stderr, result.stderr)
    np.save(paths[0], inv[:10])
    result = subprocess.run([pelab, "rope", "check", config_path, "--inv-freq", paths[0]],
                            capture_output=True, text=True)
    check("inv_freq of the wrong length: exit 2, said", result.returncode == 2 and
          "10 frequencies" in result.stderr, result.stderr)
    fifo = os.path.join(scratch, "pipe.npy")
    os.mkfifo(fifo)
    result = subprocess.run([pelab, "rope", "check", config_path, "--inv-freq", fifo],
                            capture_output=True, text=True, timeout=20)
    check("a pipe as a dump: exit 2 at once", result.returncode == 2 and
          "not a regular file" in result.stderr, result.stderr)
    # rope table: float16 angles past 65 504, a factor below 1, --out onto the weights beside
    # the config named as a file.
    result = subprocess.run([pelab, "rope", "table", config_path, "--what", "angles", "--dtype",
                             "f16", "--format", "csv", "--positions", "70000:70001"],
                            capture_output=True, text=True)
    check("f16 angles past 65504: exit 2", result.returncode == 2 and "65504" in result.stderr,
          result.stderr)
    model = os.path.join(scratch, "model")
    os.makedirs(model)
    tiny = dict(config, rope_scaling={"rope_type": "linear", "factor": 1e-300})
    with open(os.path.join(model, "config.json"), "w") as f:
        json.dump(tiny, f)
    result = subprocess.run([pelab, "rope", "table", model, "--what", "inv_freq", "--format",
                             "csv"], capture_output=True, text=True)
    check("a factor below 1: exit 2", result.returncode == 2 and "below 1" in result.stderr,
          result.stderr)
    with open(os.path.join(model, "config.json"), "w") as f:
        json.dump(config, f)
    weights = os.path.join(model, "model.safetensors")
    with open(weights, "wb") as f:
        f.write(b"weights")
    result = subprocess.run([pelab, "rope", "table", os.path.join(model, "config.json"),
                             "--what", "inv_freq", "--out", weights], capture_output=True,
                            text=True)
    with open(weights, "rb") as f:
        kept = f.read() == b"weights"
    check("--out onto the weights beside config.json: exit 2, weights kept",
          result.returncode == 2 and kept, result.stderr)
    # Any format of weights, in the folder form too, for every command (cli_checks' rule).
    gguf = os.path.join(model, "model.gguf")
    with open(gguf, "wb") as f:
        f.write(b"GGUF")
    for command in (["rope", "table", model, "--what", "inv_freq"],
                    ["model", "inspect", model, "--json"]):
        result = subprocess.run([pelab] + command + ["--out", gguf], capture_output=True,
                                text=True)
        with open(gguf, "rb") as f:
            kept = f.read() == b"GGUF"
        check("%s --out onto model.gguf: exit 2, kept" % " ".join(command[:2]),
              result.returncode == 2 and kept, result.stderr)


def main():
    pelab = sys.argv[1]
    with tempfile.TemporaryDirectory() as scratch:
        for model in MODELS:
            check_model(pelab, scratch, *model)
            check_inv_and_angles(pelab, scratch, *model)
        bad_input(pelab, scratch)
    if failures:
        print("%d failed" % len(failures))
        sys.exit(1)
    print("all passed")


if __name__ == "__main__":
    main()
