#!/usr/bin/python3
"""`pelab rope table` for every real config.json of tests/models/configs/, against two references
no one here wrote:

  --reference ideal         the float64 NumPy port of transformers' rope functions
                            (hf_rope_reference.py): inv_freq to 1e-12 relative, cos and sin of
                            outer(positions, inv_freq) to 1e-12 absolute;
  --reference transformers  the same functions as transformers writes them (modeling_rope_utils.py
                            and the families' rotary embeddings at c49429e, hf_rope_reference.md),
                            run in PyTorch float32 on the CPU: inv_freq, cos and sin bit for bit,
                            in float32 and cast to bfloat16.

Every rotating kind of layer of every config, at two sequences: positions 192:256, and the 64
positions that end 64 past max_position_embeddings (dynamic NTK grown, longrope's long factors).

Both run on their scalar CPU kernels, which call glibc as PE Lab does (set below unless the caller
chose: ATEN_CPU_CAPABILITY=avx2 measures what PyTorch's SLEEF kernels change; the count of
numbers that differ is printed either way).

Usage: check_rope_tables.py PELAB [CONFIG_FOLDER ...]
"""
import json
import math
import os
import subprocess
import sys
import tempfile

# NumPy's AVX-512 kernels (SVML) compute float64 pow and cos to about 1 ulp of their own, and
# PyTorch's AVX2 kernels (SLEEF) float32 pow, cos and sin; the scalar kernels of both call glibc,
# as PE Lab does. The comparisons below are of the same pipeline, so they run on the scalar ones
# unless the caller chose (docs/models.md gives the differences the vector kernels make).
def _cpu_flags():
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


if "NPY_DISABLE_CPU_FEATURES" not in os.environ and {"avx512bw", "avx512dq", "avx512vl"} <= \
        _cpu_flags():
    os.environ["NPY_DISABLE_CPU_FEATURES"] = "AVX512_SKX"
os.environ.setdefault("ATEN_CPU_CAPABILITY", "default")

import numpy as np  # noqa: E402
import torch  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import hf_rope_reference as ref  # noqa: E402

failures = []
ROWS = 64


# Set per config: why PE Lab's tables may differ from transformers' (a family PE Lab says it
# does not know, or a documented divergence it says on stderr); "" when they must agree.
tolerated = {"why": ""}


def check(what, ok, detail=""):
    if not ok and tolerated["why"]:
        print("known %s: %s (%s)" % (what, detail, tolerated["why"]))
        return
    print(("ok    " if ok else "FAIL  ") + what + ("" if ok else ": " + detail))
    if not ok:
        failures.append(what)


# Where PE Lab knowingly reads a config otherwise than transformers' own class, and the words
# its note must hold (hf_rope_reference.md says what transformers does).
DIVERGES = {"minimax_m2": "rotary_dim"}


def pelab_notes(pelab, path):
    run = subprocess.run([pelab, "rope", "table", path, "--what", "inv_freq", "--format", "csv"],
                         capture_output=True, text=True)
    return run.returncode, run.stderr


# ---- transformers' rope functions in PyTorch float32, as modeling_rope_utils.py writes them ----

def _arange_float(dim):
    return torch.arange(0, dim, 2, dtype=torch.int64).to(dtype=torch.float)


def t_default(base, dim):
    return 1.0 / (base ** (_arange_float(dim) / dim))


def t_linear(cfg, p, seq_len):
    dim = int(ref._head_dim_or(cfg) * p.get("partial_rotary_factor", 1.0))
    inv_freq = t_default(p["rope_theta"], dim)
    inv_freq /= p["factor"]
    return inv_freq, 1.0


def t_proportional(cfg, p, seq_len):
    head_dim = ref._head_dim_or(cfg)
    base = p["rope_theta"]
    factor = p.get("factor", 1.0)
    rope_angles = int(p.get("partial_rotary_factor", 1.0) * head_dim // 2)
    rotated = 1.0 / (base ** (torch.arange(0, 2 * rope_angles, 2, dtype=torch.int64)
                              .to(dtype=torch.float) / head_dim))
    nope = head_dim // 2 - rope_angles
    inv_freq = torch.cat((rotated, torch.zeros(nope, dtype=torch.float32))) if nope > 0 else rotated
    inv_freq /= factor
    return inv_freq, 1.0


def t_dynamic(cfg, p, seq_len):
    base = p["rope_theta"]
    dim = int(ref._head_dim_getattr(cfg) * p.get("partial_rotary_factor", 1.0))
    factor = p["factor"]
    mpe = cfg.max_position_embeddings
    # dynamic_rope_update: recomputed, with the length as a tensor, only past the cached length
    # (max_position_embeddings at start-up); below it the start-up frequencies stay.
    if seq_len is None or seq_len <= mpe:
        seq = mpe
    else:
        seq = torch.maximum(torch.tensor(seq_len), torch.tensor(mpe, dtype=torch.int64))
    base = base * ((factor * seq / mpe) - (factor - 1)) ** (dim / (dim - 2))
    return 1.0 / (base ** (_arange_float(dim) / dim)), 1.0


def t_yarn(cfg, p, seq_len):
    base = p["rope_theta"]
    dim = int(ref._head_dim_getattr(cfg) * p.get("partial_rotary_factor", 1.0))
    factor = p["factor"]
    attention_factor = p.get("attention_factor")
    mscale = p.get("mscale")
    mscale_all_dim = p.get("mscale_all_dim")
    original = p["original_max_position_embeddings"]
    if factor is None:
        factor = cfg.max_position_embeddings / original

    def get_mscale(scale, m=1):
        return 1.0 if scale <= 1 else 0.1 * m * math.log(scale) + 1.0

    if attention_factor is None:
        if mscale and mscale_all_dim:
            attention_factor = float(get_mscale(factor, mscale) / get_mscale(factor, mscale_all_dim))
        else:
            attention_factor = get_mscale(factor)
    beta_fast = p.get("beta_fast") or 32
    beta_slow = p.get("beta_slow") or 1

    def correction_dim(turns):
        return (dim * math.log(original / (turns * 2 * math.pi))) / (2 * math.log(base))

    truncate = cfg.rope_parameters.get("truncate", True)
    low, high = correction_dim(beta_fast), correction_dim(beta_slow)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, dim - 1)
    if low == high:
        high += 0.001
    ramp = torch.clamp((torch.arange(dim // 2, dtype=torch.float32) - low) / (high - low), 0, 1)
    pos_freqs = base ** (torch.arange(0, dim, 2).to(dtype=torch.float) / dim)
    extrapolation = 1.0 / pos_freqs
    interpolation = 1.0 / (factor * pos_freqs)
    extrapolation_factor = 1 - ramp.to(dtype=torch.float)
    inv_freq = interpolation * (1 - extrapolation_factor) + extrapolation * extrapolation_factor
    return inv_freq, attention_factor


def t_longrope(cfg, p, seq_len):
    base = p["rope_theta"]
    dim = int(ref._head_dim_getattr(cfg) * p.get("partial_rotary_factor", 1.0))
    factor = p.get("factor")
    attention_factor = p.get("attention_factor")
    original = p["original_max_position_embeddings"]
    if factor is None:
        factor = cfg.max_position_embeddings / original
    if attention_factor is None:
        attention_factor = 1.0 if factor <= 1.0 else math.sqrt(
            1 + math.log(factor) / math.log(original))
    factors = p["long_factor"] if (seq_len and seq_len > original) else p["short_factor"]
    ext = torch.tensor(factors, dtype=torch.float32)
    shape = torch.arange(0, dim, 2, dtype=torch.int64).float() / dim
    return 1.0 / (ext * base ** shape), attention_factor


def t_llama3(cfg, p, seq_len):
    dim = int(ref._head_dim_or(cfg) * p.get("partial_rotary_factor", 1.0))
    inv_freq = t_default(p["rope_theta"], dim)
    factor, low, high = p["factor"], p["low_freq_factor"], p["high_freq_factor"]
    old = p["original_max_position_embeddings"]
    low_wavelen, high_wavelen = old / low, old / high
    wavelen = 2 * math.pi / inv_freq
    inv_freq_llama = torch.where(wavelen > low_wavelen, inv_freq / factor, inv_freq)
    smooth = (old / wavelen - low) / (high - low)
    smoothed = (1 - smooth) * inv_freq_llama / factor + smooth * inv_freq_llama
    medium = ~(wavelen < high_wavelen) * ~(wavelen > low_wavelen)
    return torch.where(medium, smoothed, inv_freq_llama), 1.0


TORCH_INIT = {"linear": t_linear, "dynamic": t_dynamic, "yarn": t_yarn, "longrope": t_longrope,
              "llama3": t_llama3, "proportional": t_proportional}


def torch_inv_freq(config, layer_type, seq_len):
    """(inv_freq float32, attention factor), dispatched as hf_rope_reference.inv_freq does."""
    cfg = ref._as_cfg(config)
    nested = ref._is_nested(cfg)
    lt_arg = layer_type if nested else None
    p = ref._params_for(cfg, layer_type)
    rope_type = p.get("rope_type", p.get("type", "default"))
    if rope_type == "default":
        base, dim = ref._default_base_dim(ref._layer_cfg(cfg, layer_type), layer_type)
        return t_default(base, dim), 1.0
    eff = ref._effective(cfg)
    lcfg = ref._layer_cfg(eff, layer_type)
    lcfg.rope_parameters = eff.rope_parameters
    return TORCH_INIT[rope_type](lcfg, ref._params_for(eff, lt_arg), seq_len)


def torch_cos_sin(inv_freq, attention, first, end, interleaved, dtype):
    """The rotary embedding's forward (modeling_llama.py's LlamaRotaryEmbedding and the
    interleaved families'), autocast off."""
    position_ids = torch.arange(first, end, dtype=torch.int64)[None, :]
    inv_freq_expanded = inv_freq[None, :, None].float().expand(1, -1, 1)
    freqs = (inv_freq_expanded.float() @ position_ids[:, None, :].float()).transpose(1, 2)
    emb = torch.repeat_interleave(freqs, 2, dim=-1) if interleaved else torch.cat((freqs, freqs), -1)
    cos = emb.cos() * attention
    sin = emb.sin() * attention
    return cos[0].to(dtype), sin[0].to(dtype)


# ---- PE Lab ----

def pelab_table(pelab, config_path, layer, first, end, what, reference, dtype, scratch):
    out = os.path.join(scratch, "t.npy")
    run = subprocess.run([pelab, "rope", "table", config_path, "--layer", str(layer),
                          "--positions", "%d:%d" % (first, end), "--what", what, "--reference",
                          reference, "--dtype", dtype, "--format", "npy", "--out", out],
                         capture_output=True, text=True)
    if run.returncode != 0:
        return None, run.stderr.strip()
    return np.load(out), ""


def rope_layers(config):
    """The first layer of each rotating kind: (index, layer type or None)."""
    seen, out = set(), []
    for layer in ref.layer_schedule(config):
        if not layer["rope"]:
            continue
        key = layer["layer_type"] if ref._is_nested(ref._as_cfg(config)) else "all"
        if key in seen:
            continue
        seen.add(key)
        out.append((layer["index"], layer["layer_type"]))
    return out


def same_bits(a, b):
    return a.shape == b.shape and np.array_equal(a.view(np.uint8), b.view(np.uint8))


def check_config(pelab, name, path, scratch, counts):
    with open(path) as f:
        config = json.load(f)
    text = config.get("text_config") or config
    model_type = text.get("model_type", config.get("model_type"))
    try:
        cfg = ref.load_config(config)
        if ref._family_of(model_type) is None or getattr(cfg, "unknown_family", False):
            print("skip  %s: model_type %s is not one the reference ports" % (name, model_type))
            return
        layers = rope_layers(config)
    except (TypeError, KeyError, ValueError) as error:
        print("skip  %s: the reference cannot read it (%s)" % (name, error))
        return
    code, notes = pelab_notes(pelab, path)
    tolerated["why"] = ""
    if "is not a family PE Lab knows" in notes:
        tolerated["why"] = "PE Lab says it reads model_type %s as a generic one" % model_type
    elif model_type in DIVERGES:
        check(name + ": rope table's note names the divergence", DIVERGES[model_type] in notes,
              notes.strip())
        tolerated["why"] = "PE Lab follows the model's own code: " + DIVERGES[model_type]
    if ref.pairing(config) == "none":
        check(name + ": no layer rotates, and rope table says so", code != 0 and "RoPE" in notes,
              "exit %d: %s" % (code, notes.strip().splitlines()[0] if notes.strip() else ""))
        return
    interleaved = ref.pairing(config) == "interleaved"
    mpe = ref._as_cfg(config).max_position_embeddings
    for index, layer_type in layers:
        lt = layer_type if ref._is_nested(cfg) else None
        ends = [256] + ([mpe + ROWS] if mpe and mpe + ROWS != 256 else [])
        for end in ends:
            first = end - ROWS
            where = "%s layer %d, positions %d:%d" % (name, index, first, end)
            try:
                want_inv, want_att = ref.inv_freq(config, layer_type=lt, seq_len=end,
                                                  include_nope=True)
                t_inv, t_att = torch_inv_freq(config, lt, end)
            except (TypeError, KeyError, ValueError) as error:
                print("skip  %s: the reference cannot compute it (%s)" % (where, error))
                continue
            # ideal: float64, against the NumPy port
            got, error = pelab_table(pelab, path, index, first, end, "inv_freq", "ideal", "f64",
                                     scratch)
            if got is None:
                check(where + ": rope table runs", False, error)
                continue
            rel = np.max(np.abs(got - want_inv) / np.maximum(np.abs(want_inv), 1e-300))
            check(where + ": ideal inv_freq to 1e-12", got.shape == want_inv.shape and rel <= 1e-12,
                  "shape %s vs %s, largest relative difference %.3g" % (got.shape, want_inv.shape,
                                                                        rel))
            angles = np.outer(np.arange(first, end, dtype=np.float64), want_inv)
            emb = np.repeat(angles, 2, axis=1) if interleaved else np.concatenate([angles, angles], 1)
            for what, want in (("cos", np.cos(emb) * want_att), ("sin", np.sin(emb) * want_att)):
                got, error = pelab_table(pelab, path, index, first, end, what, "ideal", "f64",
                                         scratch)
                ok = got is not None and got.shape == want.shape
                worst = float(np.max(np.abs(got - want))) if ok else float("nan")
                check(where + ": ideal %s to 1e-12" % what, ok and worst <= 1e-12,
                      error or "largest difference %.3g" % worst)
            # transformers: PyTorch float32, bit for bit
            got, error = pelab_table(pelab, path, index, first, end, "inv_freq", "transformers",
                                     "f32", scratch)
            ok = got is not None and same_bits(got, t_inv.numpy())
            check(where + ": transformers inv_freq bit for bit", ok,
                  error or "largest difference %.3g" % float(np.max(np.abs(got - t_inv.numpy()))))
            if not tolerated["why"]:
                counts["inv"] += 0 if ok else int(np.sum(got != t_inv.numpy()))
            for dtype, torch_dtype in (("f32", torch.float32), ("bf16", torch.bfloat16)):
                t_cos, t_sin = torch_cos_sin(t_inv, t_att, first, end, interleaved, torch_dtype)
                for what, want in (("cos", t_cos), ("sin", t_sin)):
                    got, error = pelab_table(pelab, path, index, first, end, what, "transformers",
                                             dtype, scratch)
                    want_bits = want.view(torch.int16).numpy().view(np.uint16) \
                        if dtype == "bf16" else want.numpy()
                    ok = got is not None and same_bits(got, want_bits)
                    differing = int(np.sum(got != want_bits)) if got is not None and \
                        got.shape == want_bits.shape else -1
                    if not tolerated["why"]:
                        counts["tables"] += 0 if ok else max(differing, 0)
                        counts["numbers"] += want_bits.size
                    check(where + ": transformers %s %s bit for bit" % (what, dtype), ok,
                          error or "%d of %d numbers differ" % (differing, want_bits.size))


def main():
    pelab = sys.argv[1]
    folders = sys.argv[2:] or sorted(
        os.path.join(here, "configs", d) for d in os.listdir(os.path.join(here, "configs"))
        if os.path.isdir(os.path.join(here, "configs", d)))
    counts = {"inv": 0, "tables": 0, "numbers": 0}
    print("torch %s, ATEN_CPU_CAPABILITY=%s; numpy %s, NPY_DISABLE_CPU_FEATURES=%s" % (
        torch.__version__, os.environ.get("ATEN_CPU_CAPABILITY"), np.__version__,
        os.environ.get("NPY_DISABLE_CPU_FEATURES", "")))
    with tempfile.TemporaryDirectory() as scratch:
        for folder in folders:
            try:
                check_config(pelab, os.path.basename(folder),
                             os.path.join(folder, "config.json"), scratch, counts)
            except (ValueError, TypeError, KeyError) as error:
                check(os.path.basename(folder) + ": checked", False, repr(error))
    print("transformers tables: %d of %d numbers differ; inv_freq: %d" %
          (counts["tables"], counts["numbers"], counts["inv"]))
    if failures:
        print("%d failed" % len(failures))
        sys.exit(1)
    print("all passed")


if __name__ == "__main__":
    main()
