#!/usr/bin/python3
"""Independent float32 reference forward pass for Llama-family checkpoints.

Families (config.json model_type): llama, mistral, qwen2, qwen3, olmo2, smollm3.
Written from the Hugging Face transformers sources at commit c49429e, in plain
PyTorch; every rule and the line it comes from is listed in llama_reference.md.
It does not import transformers and shares no code with PE Lab's C++.

    run(folder, tokens, switch) -> {"logits_last", "loss", "states_last", "attention"}
    llama_reference.py FOLDER --tokens 1,2,3 --switch S    (prints that dict as JSON)
    llama_reference.py --self-test

switch (changes positions only): trained | none | pairing | base:K | shift:K |
scaling-off | nope-from:L   (see llama_reference.md)
"""
import argparse
import json
import math
import os
import struct
import sys

import numpy as np
import torch

# ---------------------------------------------------------------- safetensors
_DTYPES = {"F32": "<f4", "F16": "<f2", "BF16": "<u2", "F64": "<f8"}


def read_safetensors(path):
    """8-byte little-endian header length, JSON header, raw little-endian data."""
    with open(path, "rb") as f:
        blob = f.read()
    (n,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8:8 + n].decode("utf-8"))
    base = 8 + n
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        dt = info["dtype"]
        if dt not in _DTYPES:
            raise ValueError(f"{name}: dtype {dt} not supported (F32, F16, BF16, F64)")
        start, end = info["data_offsets"]
        shape = [int(s) for s in info["shape"]]
        raw = np.frombuffer(blob, dtype=_DTYPES[dt], count=(end - start) // np.dtype(_DTYPES[dt]).itemsize,
                            offset=base + start)
        if raw.size != int(np.prod(shape, dtype=np.int64)):
            raise ValueError(f"{name}: {raw.size} values for shape {shape}")
        if dt == "BF16":  # bfloat16 = upper 16 bits of a float32
            arr = (raw.astype(np.uint32) << 16).view(np.float32)
        else:
            arr = raw.astype(np.float32)
        out[name] = torch.from_numpy(arr.reshape(shape).copy())
    return out


# ---------------------------------------------------------------- config
# Per-family defaults for keys a config.json may omit (configuration_<family>.py).
_DEFAULTS = {
    "llama":   dict(rms_norm_eps=1e-6, max_position_embeddings=2048, kv=None, head_dim=None, theta=10000.0),
    "mistral": dict(rms_norm_eps=1e-6, max_position_embeddings=4096 * 32, kv=8, head_dim=None, theta=10000.0),
    "qwen2":   dict(rms_norm_eps=1e-6, max_position_embeddings=32768, kv=32, head_dim=None, theta=10000.0),
    "qwen3":   dict(rms_norm_eps=1e-6, max_position_embeddings=32768, kv=32, head_dim=128, theta=10000.0),
    "olmo2":   dict(rms_norm_eps=1e-5, max_position_embeddings=2048, kv=None, head_dim=None, theta=10000.0),
    "smollm3": dict(rms_norm_eps=1e-6, max_position_embeddings=32768, kv=4, head_dim=None, theta=2000000.0),
}


def load_config(folder):
    with open(os.path.join(folder, "config.json")) as f:
        raw = json.load(f)
    fam = raw.get("model_type")
    if fam not in _DEFAULTS:
        raise ValueError(f"model_type {fam!r} not one of {sorted(_DEFAULTS)}")
    d = _DEFAULTS[fam]
    c = {"family": fam, "raw": raw}
    c["hidden"] = int(raw["hidden_size"])
    c["heads"] = int(raw["num_attention_heads"])
    c["layers"] = int(raw["num_hidden_layers"])
    kv = raw.get("num_key_value_heads", d["kv"])
    c["kv_heads"] = int(kv) if kv is not None else c["heads"]
    hd = raw.get("head_dim", d["head_dim"])
    c["head_dim"] = int(hd) if hd else c["hidden"] // c["heads"]
    c["eps"] = float(raw.get("rms_norm_eps", d["rms_norm_eps"]))
    c["max_pos"] = int(raw.get("max_position_embeddings", d["max_position_embeddings"]))
    if raw.get("hidden_act", "silu") != "silu":
        raise ValueError("only hidden_act silu is implemented")
    # RoPE parameters, standardised as RotaryEmbeddingConfigMixin does
    rp = raw.get("rope_scaling") or raw.get("rope_parameters") or {}
    rp = dict(rp)
    rp.setdefault("rope_theta", raw.get("rope_theta", d["theta"]))
    rp.setdefault("rope_type", rp.get("type", "default"))
    if rp["rope_type"] in ("llama3", "yarn", "longrope"):
        if "original_max_position_embeddings" in raw:
            rp["original_max_position_embeddings"] = raw["original_max_position_embeddings"]
        else:
            rp.setdefault("original_max_position_embeddings", c["max_pos"])
    prf = rp.get("partial_rotary_factor", raw.get("partial_rotary_factor"))
    if prf is not None and float(prf) != 1.0:
        raise NotImplementedError("partial_rotary_factor != 1 is not used by these families")
    c["rope"] = rp
    # which layers rotate as trained
    if fam == "smollm3":
        nrl = raw.get("no_rope_layers")
        if nrl is None:
            iv = int(raw.get("no_rope_layer_interval", 4))
            nrl = [int((i + 1) % iv != 0) for i in range(c["layers"])]
        c["rotates"] = [bool(nrl[i]) for i in range(c["layers"])]
    else:
        c["rotates"] = [True] * c["layers"]
    c["windows"] = _sliding_windows(fam, raw, c["rotates"])
    return c


def _sliding_windows(fam, raw, rotates):
    """Per layer: None (plain causal) or the window w (key j visible from query i iff i-w < j <= i)."""
    L = len(rotates)
    if fam == "mistral":  # every layer, whenever config.sliding_window is not None
        return [raw.get("sliding_window", 4096)] * L
    if fam not in ("qwen2", "qwen3", "smollm3"):
        return [None] * L
    use = bool(raw.get("use_sliding_window", False))
    w = raw.get("sliding_window", None if fam == "smollm3" else 4096)
    if fam != "smollm3" and not use:
        w = None  # the qwen configs null it; smollm3's mask reads config.sliding_window as is
    types = raw.get("layer_types")
    if types is None:
        if fam == "smollm3":
            types = ["sliding_attention" if use and w is not None and not rotates[i] else "full_attention" for i in range(L)]
        else:
            mwl = raw.get("max_window_layers", 28)
            types = ["sliding_attention" if w is not None and i >= mwl else "full_attention" for i in range(L)]
    return [w if types[i] == "sliding_attention" else None for i in range(L)]


# ---------------------------------------------------------------- rope init
def _exponents(dim):
    return torch.arange(0, dim, 2, dtype=torch.int64).to(torch.float32) / dim


def rope_init(rp, head_dim, max_pos, seq_len):
    """(inv_freq float32 [head_dim/2], attention_factor) as modeling_rope_utils computes them."""
    kind, base, dim = rp["rope_type"], float(rp["rope_theta"]), head_dim
    if kind == "default":
        return 1.0 / (base ** _exponents(dim)), 1.0
    if kind == "linear":
        return (1.0 / (base ** _exponents(dim))) / float(rp["factor"]), 1.0
    if "dynamic" in kind:
        factor = float(rp["factor"])
        if seq_len > max_pos:  # recomputed in forward (dynamic_frequency_update), float32 tensor maths
            s = torch.tensor(seq_len, dtype=torch.int64)
            b = base * ((factor * s / max_pos) - (factor - 1)) ** (dim / (dim - 2))
        else:  # init value: seq_len = max_position_embeddings
            b = base * ((factor * max_pos / max_pos) - (factor - 1)) ** (dim / (dim - 2))
        return 1.0 / (b ** _exponents(dim)), 1.0
    if kind == "llama3":
        inv = 1.0 / (base ** _exponents(dim))
        factor, lo, hi = float(rp["factor"]), float(rp["low_freq_factor"]), float(rp["high_freq_factor"])
        old = rp["original_max_position_embeddings"]
        lo_wl, hi_wl = old / lo, old / hi
        wl = 2 * math.pi / inv
        out = torch.where(wl > lo_wl, inv / factor, inv)
        smooth = (old / wl - lo) / (hi - lo)
        mid = (wl >= hi_wl) & (wl <= lo_wl)
        return torch.where(mid, (1 - smooth) * out / factor + smooth * out, out), 1.0
    if kind == "yarn":
        orig = rp["original_max_position_embeddings"]
        factor = rp.get("factor")
        factor = float(factor) if factor is not None else max_pos / orig
        af, ms, msa = rp.get("attention_factor"), rp.get("mscale"), rp.get("mscale_all_dim")

        def mscale(s, m=1.0):
            return 1.0 if s <= 1 else 0.1 * m * math.log(s) + 1.0
        if af is None:
            af = mscale(factor, ms) / mscale(factor, msa) if (ms and msa) else mscale(factor)
        bf, bs = rp.get("beta_fast") or 32, rp.get("beta_slow") or 1

        def corr_dim(rot):
            return (dim * math.log(orig / (rot * 2 * math.pi))) / (2 * math.log(base))
        low, high = corr_dim(bf), corr_dim(bs)
        if rp.get("truncate", True):
            low, high = math.floor(low), math.ceil(high)
        low, high = max(low, 0), min(high, dim - 1)
        if low == high:
            high += 0.001
        ramp = torch.clamp((torch.arange(dim // 2, dtype=torch.float32) - low) / (high - low), 0, 1)
        pos = base ** (torch.arange(0, dim, 2).to(torch.float32) / dim)
        keep = 1 - ramp  # share of the unscaled (extrapolated) frequency
        return (1.0 / (factor * pos)) * (1 - keep) + (1.0 / pos) * keep, float(af)
    raise NotImplementedError(f"rope_type {kind!r} not implemented (default, linear, dynamic, llama3, yarn)")


# ---------------------------------------------------------------- switches
def parse_switch(s):
    if s in ("trained", "none", "pairing", "scaling-off"):
        return s, None
    kind, _, arg = s.partition(":")
    if kind == "base" and arg:
        k = float(arg)
        if not k > 0:
            raise ValueError("base:K needs K > 0")
        return kind, k
    if kind in ("shift", "nope-from") and arg.isdigit():
        return kind, int(arg)
    raise ValueError(f"unknown switch {s!r}")


def _rotate_half_split(x, cos, sin):
    """Dimension i rotates with i + r/2 at frequency i (rotate_half)."""
    h = x.shape[-1] // 2
    x1, x2 = x[..., :h], x[..., h:]
    return torch.cat((x1 * cos - x2 * sin, x2 * cos + x1 * sin), dim=-1)


def _rotate_pairs(x, cos, sin):
    """Dimensions (2i, 2i+1) rotate together at frequency i."""
    a, b = x[..., 0::2], x[..., 1::2]
    return torch.stack((a * cos - b * sin, b * cos + a * sin), dim=-1).flatten(-2)


def _rms(x, w, eps):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * w


def _lin(x, W, b=None):
    y = x @ W.t()
    return y + b if b is not None else y


# ---------------------------------------------------------------- forward
def run(folder, tokens, switch="trained", attention=True, tables=torch.float32, last_only=False):
    """tables=torch.bfloat16: cos and sin cast to bfloat16 and back, as modeling_llama's
    LlamaRotaryEmbedding.forward returns them (cos.to(dtype=x.dtype)) to a model run in bf16;
    the rest of the pass stays float32 (added for the shift's closeness in check_llama_pass.py).
    last_only: the last token's logits only (LlamaForCausalLM's logits_to_keep=1, as generate
    asks), no loss (added for bench/llama_torch_anchor.py)."""
    c = load_config(folder)
    W = read_safetensors(os.path.join(folder, "model.safetensors"))
    kind, arg = parse_switch(switch)
    tokens = [int(t) for t in tokens]
    n, H, KV, d, eps, fam = len(tokens), c["heads"], c["kv_heads"], c["head_dim"], c["eps"], c["family"]
    if n < 1:
        raise ValueError("need at least one token")

    pos = torch.arange(n, dtype=torch.int64) + (arg if kind == "shift" else 0)
    rp = dict(c["rope"])
    if kind == "base":
        rp["rope_theta"] = float(rp["rope_theta"]) * arg
    if kind == "scaling-off":
        rp = {"rope_type": "default", "rope_theta": rp["rope_theta"]}
    inv_freq, af = rope_init(rp, d, c["max_pos"], int(pos.max()) + 1)
    freqs = pos.to(torch.float32)[:, None] * inv_freq[None, :]            # (n, d/2)
    cos, sin = freqs.cos() * af, freqs.sin() * af
    cos, sin = cos.to(tables).to(torch.float32), sin.to(tables).to(torch.float32)
    rotate = _rotate_pairs if kind == "pairing" else _rotate_half_split
    rotates = list(c["rotates"])
    if kind == "none":
        rotates = [False] * c["layers"]
    if kind == "nope-from":
        rotates = [r and i < arg for i, r in enumerate(rotates)]

    emb = W["model.embed_tokens.weight"]
    head = W.get("lm_head.weight", emb)  # absent -> tied; present -> used (HF keeps a distinct lm_head)
    x = emb[torch.tensor(tokens)]                                          # (n, hidden)
    states, attn_all = [x[-1].clone()], []
    qi = torch.arange(n)[:, None]
    kj = torch.arange(n)[None, :]
    for i in range(c["layers"]):
        p = f"model.layers.{i}."
        g = W.get
        h = x if fam == "olmo2" else _rms(x, W[p + "input_layernorm.weight"], eps)
        q = _lin(h, W[p + "self_attn.q_proj.weight"], g(p + "self_attn.q_proj.bias"))
        k = _lin(h, W[p + "self_attn.k_proj.weight"], g(p + "self_attn.k_proj.bias"))
        v = _lin(h, W[p + "self_attn.v_proj.weight"], g(p + "self_attn.v_proj.bias"))
        if fam == "olmo2":  # norm over the whole projection, before the head split
            q = _rms(q, W[p + "self_attn.q_norm.weight"], eps)
            k = _rms(k, W[p + "self_attn.k_norm.weight"], eps)
        q = q.view(n, H, d).transpose(0, 1)                                # (H, n, d)
        k = k.view(n, KV, d).transpose(0, 1)
        v = v.view(n, KV, d).transpose(0, 1)
        if fam == "qwen3":  # per-head norm over head_dim, before RoPE
            q = _rms(q, W[p + "self_attn.q_norm.weight"], eps)
            k = _rms(k, W[p + "self_attn.k_norm.weight"], eps)
        if rotates[i]:
            q, k = rotate(q, cos, sin), rotate(k, cos, sin)
        grp = torch.arange(H) // (H // KV)                                 # query head -> kv head
        k, v = k[grp], v[grp]
        s = (q @ k.transpose(1, 2)) * (d ** -0.5)
        allowed = kj <= qi
        if c["windows"][i] is not None:
            allowed = allowed & (kj > qi - int(c["windows"][i]))
        s = s.masked_fill(~allowed, float("-inf"))
        pw = torch.softmax(s, dim=-1)
        o = (pw @ v).transpose(0, 1).reshape(n, H * d)
        a = _lin(o, W[p + "self_attn.o_proj.weight"], g(p + "self_attn.o_proj.bias"))
        if fam == "olmo2":
            x = x + _rms(a, W[p + "post_attention_layernorm.weight"], eps)
            m_in = x
        else:
            x = x + a
            m_in = _rms(x, W[p + "post_attention_layernorm.weight"], eps)
        gate = _lin(m_in, W[p + "mlp.gate_proj.weight"], g(p + "mlp.gate_proj.bias"))
        up = _lin(m_in, W[p + "mlp.up_proj.weight"], g(p + "mlp.up_proj.bias"))
        m = _lin(torch.nn.functional.silu(gate) * up, W[p + "mlp.down_proj.weight"], g(p + "mlp.down_proj.bias"))
        x = x + (_rms(m, W[p + "post_feedforward_layernorm.weight"], eps) if fam == "olmo2" else m)
        states.append(x[-1].clone())
        if attention:
            attn_all.append(pw.tolist())
    if last_only:
        x = x[-1:]
    logits = _lin(_rms(x, W["model.norm.weight"], eps), head)                # (n, vocab)
    loss = None
    if n > 1 and not last_only:
        loss = float(torch.nn.functional.cross_entropy(logits[:-1], torch.tensor(tokens[1:])))
    out = {"logits_last": logits[-1].tolist(), "loss": loss, "states_last": [s.tolist() for s in states]}
    if attention:
        out["attention"] = attn_all
    return out


# ---------------------------------------------------------------- self-test
# EXPECTED_INV_FREQ literals copied from transformers c49429e tests/utils/test_modeling_rope_utils.py
_HF_LITERALS = {
    "default": (  # test_default_rope_numerically, lines 239-252
        "1.0000e+00 8.6596e-01 7.4989e-01 6.4938e-01 5.6234e-01 4.8697e-01 4.2170e-01 3.6517e-01 3.1623e-01 2.7384e-01 2.3714e-01 2.0535e-01 1.7783e-01 "
        "1.5399e-01 1.3335e-01 1.1548e-01 1.0000e-01 8.6596e-02 7.4989e-02 6.4938e-02 5.6234e-02 4.8697e-02 4.2170e-02 3.6517e-02 3.1623e-02 2.7384e-02 "
        "2.3714e-02 2.0535e-02 1.7783e-02 1.5399e-02 1.3335e-02 1.1548e-02 1.0000e-02 8.6596e-03 7.4989e-03 6.4938e-03 5.6234e-03 4.8697e-03 4.2170e-03 "
        "3.6517e-03 3.1623e-03 2.7384e-03 2.3714e-03 2.0535e-03 1.7783e-03 1.5399e-03 1.3335e-03 1.1548e-03 1.0000e-03 8.6596e-04 7.4989e-04 6.4938e-04 "
        "5.6234e-04 4.8697e-04 4.2170e-04 3.6517e-04 3.1623e-04 2.7384e-04 2.3714e-04 2.0535e-04 1.7783e-04 1.5399e-04 1.3335e-04 1.1548e-04 "
    ),
    "dynamic": (  # test_dynamic_rope_numerically, lines 390-403
        "1.0000e+00 8.0931e-01 6.5498e-01 5.3008e-01 4.2900e-01 3.4720e-01 2.8099e-01 2.2741e-01 1.8404e-01 1.4895e-01 1.2055e-01 9.7558e-02 7.8955e-02 "
        "6.3899e-02 5.1714e-02 4.1853e-02 3.3872e-02 2.7413e-02 2.2185e-02 1.7955e-02 1.4531e-02 1.1760e-02 9.5176e-03 7.7027e-03 6.2339e-03 5.0451e-03 "
        "4.0831e-03 3.3045e-03 2.6744e-03 2.1644e-03 1.7517e-03 1.4176e-03 1.1473e-03 9.2852e-04 7.5146e-04 6.0817e-04 4.9220e-04 3.9834e-04 3.2238e-04 "
        "2.6091e-04 2.1115e-04 1.7089e-04 1.3830e-04 1.1193e-04 9.0585e-05 7.3312e-05 5.9332e-05 4.8018e-05 3.8861e-05 3.1451e-05 2.5453e-05 2.0600e-05 "
        "1.6672e-05 1.3492e-05 1.0920e-05 8.8374e-06 7.1522e-06 5.7883e-06 4.6845e-06 3.7912e-06 3.0683e-06 2.4832e-06 2.0097e-06 1.6265e-06 "
    ),
    "yarn": (  # test_yarn_rope_numerically, lines 608-621
        "1.0000e+00 8.6596e-01 7.4989e-01 6.4938e-01 5.6234e-01 4.8697e-01 4.2170e-01 3.6517e-01 3.1623e-01 2.7384e-01 2.3714e-01 2.0535e-01 1.7783e-01 "
        "1.5399e-01 1.3335e-01 1.1548e-01 1.0000e-01 8.3479e-02 6.9590e-02 5.7925e-02 4.8136e-02 3.9931e-02 3.3061e-02 2.7315e-02 2.2515e-02 1.8512e-02 "
        "1.5177e-02 1.2403e-02 1.0101e-02 8.1924e-03 6.6143e-03 5.3120e-03 4.2400e-03 3.3599e-03 2.6396e-03 2.0520e-03 1.5746e-03 1.1882e-03 8.7713e-04 "
        "6.2810e-04 4.3007e-04 2.7384e-04 2.3714e-04 2.0535e-04 1.7783e-04 1.5399e-04 1.3335e-04 1.1548e-04 1.0000e-04 8.6596e-05 7.4989e-05 6.4938e-05 "
        "5.6234e-05 4.8697e-05 4.2170e-05 3.6517e-05 3.1623e-05 2.7384e-05 2.3714e-05 2.0535e-05 1.7783e-05 1.5399e-05 1.3335e-05 1.1548e-05 "
    ),
    "llama3": (  # test_llama3_rope_numerically, lines 1026-1039
        "1.0000e+00 8.6596e-01 7.4989e-01 6.4938e-01 5.6234e-01 4.8697e-01 4.2170e-01 3.6517e-01 3.1623e-01 2.7384e-01 2.3714e-01 2.0535e-01 1.7783e-01 "
        "1.5399e-01 1.3335e-01 1.1548e-01 1.0000e-01 8.6596e-02 7.4989e-02 6.4938e-02 5.6234e-02 4.8697e-02 4.2170e-02 3.6517e-02 3.1623e-02 2.7384e-02 "
        "2.3714e-02 2.0535e-02 1.7783e-02 1.5399e-02 1.3335e-02 1.0730e-02 7.7785e-03 5.6009e-03 3.9991e-03 2.8248e-03 1.9675e-03 1.3449e-03 8.9549e-04 "
        "5.7363e-04 3.4539e-04 2.7384e-04 2.3714e-04 2.0535e-04 1.7783e-04 1.5399e-04 1.3335e-04 1.1548e-04 1.0000e-04 8.6596e-05 7.4989e-05 6.4938e-05 "
        "5.6234e-05 4.8697e-05 4.2170e-05 3.6517e-05 3.1623e-05 2.7384e-05 2.3714e-05 2.0535e-05 1.7783e-05 1.5399e-05 1.3335e-05 1.1548e-05 "
    ),
}


def _close(a, b, atol, rtol=0.0):
    a, b = torch.as_tensor(a, dtype=torch.float64), torch.as_tensor(b, dtype=torch.float64)
    return bool(((a - b).abs() <= atol + rtol * b.abs()).all()), float((a - b).abs().max())


def self_test():
    import tempfile
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import make_llama_fixtures as mk
    fails, here = [], os.path.dirname(os.path.abspath(__file__))

    def check(name, ok, detail=""):
        print(("ok   " if ok else "FAIL ") + name + (f"  ({detail})" if detail else ""))
        if not ok:
            fails.append(name)

    # 1. literals from transformers tests/utils/test_modeling_rope_utils.py (LlamaConfig(): head_dim 128,
    #    max_position_embeddings 2048); tolerance = torch.testing.assert_close float32 defaults.
    lit = {k: [float(x) for x in v.split()] for k, v in _HF_LITERALS.items()}
    tol = dict(atol=1e-5, rtol=1.3e-6)
    inv, af = rope_init({"rope_type": "default", "rope_theta": 10000.0}, 128, 2048, 1)
    check("rope default = test_default_rope_numerically", _close(inv, lit["default"], **tol)[0] and af == 1.0)
    for f in (2.0, 10.0):
        li, laf = rope_init({"rope_type": "linear", "rope_theta": 10000.0, "factor": f}, 128, 2048, 1)
        check(f"rope linear x{f} = default/factor", _close(li, inv / f, **tol)[0] and laf == 1.0)
    y = {"rope_type": "yarn", "rope_theta": 10000.0, "factor": 10.0, "beta_fast": 32, "beta_slow": 1,
         "original_max_position_embeddings": 2048}
    yi, yaf = rope_init(y, 128, 2048, 1)
    check("rope yarn snapshot = test_yarn_rope_numerically", _close(yi, lit["yarn"], **tol)[0])
    check("rope yarn attention factor 0.1 ln(10)+1", yaf == 0.1 * math.log(10.0) + 1.0)
    check("rope yarn explicit attention_factor 0.5", rope_init(dict(y, attention_factor=0.5), 128, 2048, 1)[1] == 0.5)
    l3 = {"rope_type": "llama3", "rope_theta": 10000.0, "factor": 10.0, "original_max_position_embeddings": 2048,
          "low_freq_factor": 1, "high_freq_factor": 4}
    li, laf = rope_init(l3, 128, 2048, 1)
    check("rope llama3 snapshot = test_llama3_rope_numerically", _close(li, lit["llama3"], **tol)[0] and laf == 1.0)
    dy = {"rope_type": "dynamic", "rope_theta": 10000.0, "factor": 10.0}
    check("rope dynamic short = default", _close(rope_init(dy, 128, 2048, 1)[0], inv, **tol)[0])
    check("rope dynamic seq 16384 = test_dynamic_rope_numerically",
          _close(rope_init(dy, 128, 2048, 16384)[0], lit["dynamic"], **tol)[0])

    # 2. safetensors reader against hand-made bytes (not produced by make_llama_fixtures' writer)
    with tempfile.TemporaryDirectory() as tmp:
        hdr = json.dumps({"a": {"dtype": "BF16", "shape": [3], "data_offsets": [0, 6]},
                          "b": {"dtype": "F16", "shape": [2], "data_offsets": [6, 10]},
                          "c": {"dtype": "F32", "shape": [1], "data_offsets": [10, 14]}}).encode()
        body = bytes.fromhex("803f" "20c0" "4940" "003c" "00c2") + struct.pack("<f", 0.1)
        with open(os.path.join(tmp, "x.safetensors"), "wb") as fh:
            fh.write(struct.pack("<Q", len(hdr)) + hdr + body)
        t = read_safetensors(os.path.join(tmp, "x.safetensors"))
        check("safetensors BF16/F16/F32 literal bytes",
              t["a"].tolist() == [1.0, -2.5, 3.140625] and t["b"].tolist() == [1.0, -3.0]
              and t["c"].item() == np.float32(0.1))

        def build(name, edit=None, sub=None):
            return mk.variant(os.path.join(tmp, sub or name), name, edit)

        def rel(a, b):
            return _close(a["logits_last"], b["logits_last"], 1e-5)

        seq = [5, 17, 42, 8, 3, 60, 21]
        fams = ["llama", "mistral", "qwen2", "qwen3", "olmo2", "smollm3", "llama-yarn"]
        base = {f: build(f) for f in fams}

        # 3. identical embeddings + no rotation: every position is the same vector, so attention is
        #    uniform over the causal prefix in every layer and head; with RoPE it is not
        want = [[(1.0 / (r + 1) if c_ <= r else 0.0) for c_ in range(7)] for r in range(7)]
        for f in fams:
            p = build(f, lambda cfg, t: t["model.embed_tokens.weight"].__setitem__(
                slice(None), t["model.embed_tokens.weight"][7]), sub=f + "-same")
            att = run(p, seq, "none")["attention"]
            check(f"{f}: none + equal embeddings -> uniform causal attention",
                  all(_close(hh, want, 1e-6)[0] for layer in att for hh in layer))
            check(f"{f}: trained + equal embeddings -> not uniform (RoPE acts)",
                  not _close(run(p, seq, "trained")["attention"][0][0], want, 1e-3)[0])

        # 4. RoPE depends on relative position only: shift:K leaves the logits unchanged (static rope types)
        for f in fams:
            tr = run(base[f], seq, "trained", attention=False)
            for K in (3, 1000):
                ok, err = _close(run(base[f], seq, f"shift:{K}", False)["logits_last"], tr["logits_last"], 1e-4)
                check(f"{f}: shift:{K} logits = trained", ok, f"max diff {err:.2e}")

        # 5. pairing == trained on the same model with q/k rows permuted from half-split to adjacent pairs
        for f in ("llama", "qwen2", "qwen3", "olmo2"):
            p = build(f, mk.permute_half_to_pairs, sub=f + "-perm")
            ok, err = _close(run(p, seq, "pairing", False)["logits_last"],
                             run(base[f], seq, "trained", False)["logits_last"], 1e-4)
            check(f"{f}: pairing on permuted q/k = trained", ok, f"max diff {err:.2e}")

        # 6. switches = trained on an edited config.json (HF's meaning of those keys)
        def cfg_set(key, value):
            return lambda cfg, t: cfg.__setitem__(key, value)
        for f in ("llama", "mistral", "llama-yarn"):
            p = build(f, lambda cfg, t: cfg.__setitem__("rope_theta", cfg["rope_theta"] * 4), sub=f + "-th4")
            check(f"{f}: base:4 = rope_theta*4 in config.json", rel(run(base[f], seq, "base:4", False), run(p, seq))[0])
        for f in ("llama", "llama-yarn"):
            p = build(f, cfg_set("rope_scaling", None), sub=f + "-noscale")
            a = run(base[f], seq, "scaling-off", False)
            check(f"{f}: scaling-off = rope_scaling null", rel(a, run(p, seq))[0])
            check(f"{f}: scaling-off differs from trained", not rel(a, run(base[f], seq))[0])
        for sw, nrl in (("nope-from:1", [1, 0, 0, 0]), ("none", [0, 0, 0, 0]), ("trained", None)):
            edit = cfg_set("no_rope_layers", nrl) if nrl else (lambda cfg, t: cfg.pop("no_rope_layers"))
            p = build("smollm3", edit, sub="s-" + sw)
            check(f"smollm3: {sw} = trained with no_rope_layers {nrl or 'from interval 4'}",
                  rel(run(base["smollm3"], seq, sw, False), run(p, seq))[0])
        for f in ("llama", "qwen3", "llama-yarn"):
            p = build(f, lambda cfg, t: mk.to_rope_parameters(cfg), sub=f + "-v5")
            check(f"{f}: rope_parameters (v5) = rope_scaling + rope_theta (v4)", rel(run(base[f], seq), run(p, seq))[0])

        # 7. yarn attention factor multiplies cos and sin of q and k: = attention_factor 1 with q_proj * af^2
        af = 0.1 * math.log(4.0) + 1.0

        def af1(cfg, t):
            cfg["rope_scaling"]["attention_factor"] = 1.0
            for nm in t:
                t[nm] = t[nm] * af * af if ".q_proj." in nm else t[nm]
        check("llama-yarn: attention factor^2 on scores", rel(run(base["llama-yarn"], seq), run(build("llama-yarn", af1, "y-af1"), seq))[0])

        # 8. grouped-query attention = multi-head attention with the kv heads duplicated
        for f in ("llama", "qwen2"):
            check(f"{f}: GQA = MHA with duplicated kv heads", rel(run(base[f], seq), run(build(f, mk.gqa_to_mha, f + "-mha"), seq))[0])

        # 9. tied head = explicit lm_head copy of the embeddings
        p = build("qwen2", lambda cfg, t: t.__setitem__("lm_head.weight", t["model.embed_tokens.weight"].copy()), "q2-head")
        check("qwen2: tied lm_head = explicit copy", rel(run(base["qwen2"], seq), run(p, seq))[0])

        # 10. causal: the loss is the mean over t of the next-token loss of each prefix's last token
        for f in ("llama", "olmo2", "smollm3"):
            parts = []
            for t_ in range(1, 7):
                lg = torch.tensor(run(base[f], seq[:t_], "trained", False)["logits_last"])
                parts.append(float(torch.logsumexp(lg, 0) - lg[seq[t_]]))
            check(f"{f}: loss = mean of prefix next-token losses", abs(run(base[f], seq)["loss"] - sum(parts) / 6) < 1e-5)

        # 11. sliding window (mistral): window 3 -> keys j <= i - 3 get zero weight
        att = run(build("mistral", cfg_set("sliding_window", 3), "m-sw3"), seq)["attention"]
        check("mistral: sliding_window 3 masks keys j <= i-3", all(
            att[l_][hh][r][c_] == 0.0 for l_ in range(3) for hh in range(4) for r in range(7) for c_ in range(r - 2)))

        # 12. invariances that follow from where the norms sit (no oracle values needed):
        #     qwen3 norms q and k per head -> scaling each head's q/k rows by its own factor changes nothing;
        #     olmo2 norms the whole q/k projection -> one global factor changes nothing, per-head factors do;
        #     olmo2 norms the attention and MLP outputs -> scaling o_proj / down_proj changes nothing.
        def scale_rows(pattern, per_head):
            def edit(cfg, t):
                for nm in t:
                    if any(k in nm for k in pattern):
                        d = mk.head_dim_of(cfg)
                        f_ = np.repeat(1.5 + np.arange(t[nm].shape[0] // d), d) if per_head else 3.0
                        t[nm] = (t[nm].T * f_).T.astype(np.float32)
            return edit
        for f, pattern, per_head, same in (("qwen3", (".q_proj.", ".k_proj."), True, True),
                                           ("olmo2", (".q_proj.", ".k_proj."), False, True),
                                           ("olmo2", (".q_proj.", ".k_proj."), True, False),
                                           ("llama", (".q_proj.", ".k_proj."), False, False),
                                           ("olmo2", (".o_proj.", ".down_proj."), False, True),
                                           ("llama", (".o_proj.", ".down_proj."), False, False)):
            p = build(f, scale_rows(pattern, per_head), f"{f}-scale-{pattern[0][1]}-{per_head}")
            ok, err = _close(run(p, seq, "trained", False)["logits_last"], run(base[f], seq, "trained", False)["logits_last"], 1e-4)
            check(f"{f}: scaling {'/'.join(x.strip('.') for x in pattern)} {'per head' if per_head else 'globally'} "
                  f"{'leaves logits unchanged' if same else 'changes logits'}", ok == same, f"max diff {err:.2e}")
    print(f"{'FAILED ' + str(len(fails)) if fails else 'all passed'}")
    return 1 if fails else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folder", nargs="?")
    ap.add_argument("--tokens", default="")
    ap.add_argument("--switch", default="trained")
    ap.add_argument("--no-attention", action="store_true")
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args(argv)
    torch.set_num_threads(1)
    if a.self_test:
        return self_test()
    if not a.folder or not a.tokens:
        ap.error("FOLDER and --tokens are required")
    out = run(a.folder, [int(t) for t in a.tokens.split(",")], a.switch, attention=not a.no_attention)
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
