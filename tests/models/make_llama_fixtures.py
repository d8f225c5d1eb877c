#!/usr/bin/python3
"""Write small seeded random Llama-family checkpoints and their expected outputs.

    make_llama_fixtures.py OUTDIR

One folder per fixture (config.json in the family's Hugging Face spelling plus
model.safetensors) and OUTDIR/expect.json with llama_reference.run() outputs
(logits_last, loss, states_last; no attention) for two token sequences and
eight position switches. See llama_reference.md.
"""
import json
import os
import struct
import sys
import time
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import llama_reference as ref  # noqa: E402

SEQUENCES = [[5, 17, 42, 8, 3, 60, 21], [60, 3, 8, 42, 17, 5, 21]]
SWITCHES = ["trained", "none", "pairing", "base:4", "base:0.25", "shift:1000", "scaling-off", "nope-from:1"]
NAMES = ["llama", "mistral", "qwen2", "qwen3", "olmo2", "smollm3", "llama-yarn", "llama-bf16", "qwen3-fp8"]
# Fine-grained FP8 (Qwen3-FP8's quantization_config): each projection's 8-bit values and one scale
# per block; 48 does not divide 64 or 128, so the last block of a row is partial.
FP8_BLOCK = [16, 48]
LINEARS = ("q_proj.weight", "k_proj.weight", "v_proj.weight", "o_proj.weight", "gate_proj.weight",
           "up_proj.weight", "down_proj.weight")

def _config(name):
    """config.json as the real Hub files spell it (keys in their order, transformers 4.x layout)."""
    if name in ("llama", "llama-bf16", "llama-yarn"):
        c = {"architectures": ["LlamaForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
             "bos_token_id": 1, "eos_token_id": 2, "head_dim": 16, "hidden_act": "silu", "hidden_size": 64,
             "initializer_range": 0.02, "intermediate_size": 128, "max_position_embeddings": 512,
             "mlp_bias": False, "model_type": "llama", "num_attention_heads": 4, "num_hidden_layers": 2,
             "num_key_value_heads": 2, "pretraining_tp": 1, "rms_norm_eps": 1e-05,
             "rope_scaling": {"factor": 8.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,
                              "original_max_position_embeddings": 64, "rope_type": "llama3"},
             "rope_theta": 500000.0, "tie_word_embeddings": False, "torch_dtype": "float32",
             "transformers_version": "4.47.1", "use_cache": True, "vocab_size": 97}
        if name == "llama-bf16":
            c["torch_dtype"] = "bfloat16"
        if name == "llama-yarn":
            c.update(max_position_embeddings=128, rope_theta=10000.0,
                     rope_scaling={"factor": 4.0, "original_max_position_embeddings": 32, "rope_type": "yarn"})
        return c
    if name == "mistral":  # Mistral-7B-v0.1 layout
        return {"architectures": ["MistralForCausalLM"], "bos_token_id": 1, "eos_token_id": 2, "hidden_act": "silu",
                "hidden_size": 64, "initializer_range": 0.02, "intermediate_size": 128,
                "max_position_embeddings": 32768, "model_type": "mistral", "num_attention_heads": 4,
                "num_hidden_layers": 3, "num_key_value_heads": 2, "rms_norm_eps": 1e-05, "rope_theta": 10000.0,
                "sliding_window": 4096, "tie_word_embeddings": False, "torch_dtype": "float32",
                "transformers_version": "4.34.0.dev0", "use_cache": True, "vocab_size": 97}
    if name == "qwen2":  # Qwen2.5-0.5B layout (tied, q/k/v biases implied by the family)
        return {"architectures": ["Qwen2ForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 1,
                "eos_token_id": 2, "hidden_act": "silu", "hidden_size": 64, "initializer_range": 0.02,
                "intermediate_size": 128, "max_position_embeddings": 32768, "max_window_layers": 21,
                "model_type": "qwen2", "num_attention_heads": 4, "num_hidden_layers": 2, "num_key_value_heads": 2,
                "rms_norm_eps": 1e-06, "rope_scaling": None, "rope_theta": 1000000.0, "sliding_window": 32768,
                "tie_word_embeddings": True, "torch_dtype": "float32", "transformers_version": "4.49.0",
                "use_cache": True, "use_sliding_window": False, "vocab_size": 97}
    if name == "qwen3":  # Qwen3-8B layout (explicit head_dim, untied)
        return {"architectures": ["Qwen3ForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
                "bos_token_id": 1, "eos_token_id": 2, "head_dim": 16, "hidden_act": "silu", "hidden_size": 64,
                "initializer_range": 0.02, "intermediate_size": 128, "max_position_embeddings": 40960,
                "max_window_layers": 28, "model_type": "qwen3", "num_attention_heads": 4, "num_hidden_layers": 3,
                "num_key_value_heads": 2, "rms_norm_eps": 1e-06, "rope_scaling": None, "rope_theta": 1000000,
                "sliding_window": None, "tie_word_embeddings": False, "torch_dtype": "float32",
                "transformers_version": "4.51.0", "use_cache": True, "use_sliding_window": False, "vocab_size": 97}
    if name == "olmo2":  # OLMo-2-1124 layout
        return {"architectures": ["Olmo2ForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
                "eos_token_id": 2, "hidden_act": "silu", "hidden_size": 64, "initializer_range": 0.02,
                "intermediate_size": 128, "max_position_embeddings": 4096, "model_type": "olmo2",
                "num_attention_heads": 4, "num_hidden_layers": 2, "num_key_value_heads": 2, "pad_token_id": 1,
                "rms_norm_eps": 1e-06, "rope_scaling": None, "rope_theta": 500000, "tie_word_embeddings": False,
                "torch_dtype": "float32", "transformers_version": "4.47.0.dev0", "use_cache": True, "vocab_size": 97}
    if name == "smollm3":  # SmolLM3-3B layout (no tie_word_embeddings key: the family default, true)
        return {"architectures": ["SmolLM3ForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
                "bos_token_id": 1, "eos_token_id": 2, "hidden_act": "silu", "hidden_size": 64,
                "initializer_range": 0.02, "intermediate_size": 128, "layer_types": ["full_attention"] * 4,
                "max_position_embeddings": 65536, "max_window_layers": 28, "mlp_bias": False,
                "model_type": "smollm3", "no_rope_layer_interval": 4, "no_rope_layers": [1, 1, 1, 0],
                "num_attention_heads": 4, "num_hidden_layers": 4, "num_key_value_heads": 2, "pad_token_id": 3,
                "pretraining_tp": 2, "rms_norm_eps": 1e-06, "rope_scaling": None, "rope_theta": 5000000.0,
                "sliding_window": None, "torch_dtype": "float32", "transformers_version": "4.54.0.dev0",
                "use_cache": False, "use_sliding_window": False, "vocab_size": 97}
    raise KeyError(name)


def _weights(cfg, seed):
    """Seeded random weights, scaled so activations stay O(1): linear ~ N(0, 1/fan_in), embeddings N(0, 1)
    (N(0, 0.35^2) when tied, so the tied logits stay O(1) too), norm weights 1 + 0.1 N(0, 1), biases N(0, 0.3^2)."""
    rng = np.random.default_rng(seed)
    fam = cfg["model_type"]
    Hd, I, V = cfg["hidden_size"], cfg["intermediate_size"], cfg["vocab_size"]
    H, KV = cfg["num_attention_heads"], cfg["num_key_value_heads"]
    d = cfg.get("head_dim") or Hd // H

    def lin(o, i):
        return (rng.standard_normal((o, i)) / np.sqrt(i)).astype(np.float32)

    def norm(n):
        return (1.0 + 0.1 * rng.standard_normal(n)).astype(np.float32)

    def bias(n):
        return (0.3 * rng.standard_normal(n)).astype(np.float32)

    tied = cfg.get("tie_word_embeddings", fam == "smollm3")  # smollm3's family default is true
    t = {"model.embed_tokens.weight": ((0.35 if tied else 1.0) * rng.standard_normal((V, Hd))).astype(np.float32)}
    for i in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{i}."
        if fam != "olmo2":
            t[p + "input_layernorm.weight"] = norm(Hd)
        t[p + "self_attn.q_proj.weight"] = lin(H * d, Hd)
        t[p + "self_attn.k_proj.weight"] = lin(KV * d, Hd)
        t[p + "self_attn.v_proj.weight"] = lin(KV * d, Hd)
        t[p + "self_attn.o_proj.weight"] = lin(Hd, H * d)
        if fam == "qwen2":
            for k, n in (("q", H * d), ("k", KV * d), ("v", KV * d)):
                t[p + f"self_attn.{k}_proj.bias"] = bias(n)
        if fam == "qwen3":
            t[p + "self_attn.q_norm.weight"] = norm(d)
            t[p + "self_attn.k_norm.weight"] = norm(d)
        if fam == "olmo2":
            t[p + "self_attn.q_norm.weight"] = norm(H * d)
            t[p + "self_attn.k_norm.weight"] = norm(KV * d)
            t[p + "post_feedforward_layernorm.weight"] = norm(Hd)
        t[p + "post_attention_layernorm.weight"] = norm(Hd)
        t[p + "mlp.gate_proj.weight"] = lin(I, Hd)
        t[p + "mlp.up_proj.weight"] = lin(I, Hd)
        t[p + "mlp.down_proj.weight"] = lin(Hd, I)
    t["model.norm.weight"] = norm(Hd)
    if not tied:
        t["lm_head.weight"] = lin(V, Hd)
    return t


def e4m3_table():
    """The value of each non-negative E4M3FN code 0 … 126, from the OFP8 format (2023): sign, 4
    exponent bits of bias 7, 3 mantissa bits; exponent 0 subnormal (m/8 · 2^-6); no infinities,
    S.1111.111 is NaN (code 127, left out); the largest value 448."""
    values = []
    for code in range(127):
        e, m = code >> 3, code & 7
        values.append(m / 8 * 2.0 ** -6 if e == 0 else (1 + m / 8) * 2.0 ** (e - 7))
    return np.array(values)


def quantize_fp8(w, block):
    """w (rows × cols float32) → (codes uint8, scales float32 per block, w as the codes say):
    s = max|w| / 448 over each block, code = the E4M3 value nearest |w| / s with w's sign."""
    table = e4m3_table()
    rows, cols = w.shape
    sr, sc = -(-rows // block[0]), -(-cols // block[1])
    scales = np.zeros((sr, sc), dtype=np.float32)
    codes = np.zeros(w.shape, dtype=np.uint8)
    back = np.zeros(w.shape, dtype=np.float32)
    for i in range(sr):
        for j in range(sc):
            part = w[i * block[0]:(i + 1) * block[0], j * block[1]:(j + 1) * block[1]]
            s = np.float32(max(float(np.max(np.abs(part))), 1e-30) / 448.0)
            scales[i, j] = s
            x = np.abs(part) / s
            nearest = np.argmin(np.abs(x[..., None] - table[None, None, :]), axis=-1)
            sign = (part < 0).astype(np.uint8)
            codes[i * block[0]:(i + 1) * block[0], j * block[1]:(j + 1) * block[1]] = nearest | (sign << 7)
            back[i * block[0]:(i + 1) * block[0], j * block[1]:(j + 1) * block[1]] = (
                np.where(sign, -1.0, 1.0) * table[nearest]).astype(np.float32) * s
    return codes, scales, back


def write_fp8_fixture(folder, cfg, tensors):
    """The qwen3 fixture with its projections fine-grained FP8 (F8_E4M3 + F32 weight_scale_inv);
    returns the tensors as the 8-bit values and scales give them back (what the reference runs)."""
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)
        f.write("\n")
    back, raw = dict(tensors), {}
    for name in tensors:
        if name.endswith(LINEARS):
            codes, scales, back[name] = quantize_fp8(tensors[name], FP8_BLOCK)
            raw[name] = ("F8_E4M3", codes.shape, codes.tobytes())
            raw[name + "_scale_inv"] = ("F32", scales.shape, scales.astype("<f4").tobytes())
        else:
            raw[name] = ("F32", tensors[name].shape, np.ascontiguousarray(tensors[name], dtype="<f4").tobytes())
    header, chunks, off = {"__metadata__": {"format": "pt"}}, [], 0
    for name in sorted(raw):
        dtype, shape, data = raw[name]
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [off, off + len(data)]}
        chunks.append(data)
        off += len(data)
    hb = json.dumps(header, separators=(",", ":")).encode("utf-8")
    hb += b" " * (-len(hb) % 8)
    with open(os.path.join(folder, "model.safetensors"), "wb") as f:
        f.write(struct.pack("<Q", len(hb)) + hb + b"".join(chunks))
    return back


def fixture(name):
    """(config dict, tensors name -> float32 numpy, safetensors dtype); fresh copies on every call."""
    if name == "qwen3-fp8":  # Qwen3-FP8's layout: the qwen3 fixture, its projections in FP8
        cfg, tensors, _ = fixture("qwen3")
        cfg["quantization_config"] = {"activation_scheme": "dynamic", "fmt": "e4m3",
                                      "quant_method": "fp8", "weight_block_size": FP8_BLOCK}
        return cfg, tensors, "FP8"
    cfg = _config(name)
    seed_name = "llama" if name == "llama-bf16" else name  # the bf16 fixture is the llama one, rounded
    tensors = _weights(cfg, zlib.crc32(seed_name.encode()))
    return cfg, tensors, ("BF16" if name == "llama-bf16" else "F32")


def write_safetensors(path, tensors, dtype="F32"):
    """tensors: name -> float32 numpy array; dtype F32, F16 or BF16 (round to nearest even)."""
    header, chunks, off = {"__metadata__": {"format": "pt"}}, [], 0
    for name in sorted(tensors):
        a = np.ascontiguousarray(tensors[name], dtype=np.float32)
        if dtype == "BF16":
            u = a.view(np.uint32).astype(np.uint64)
            data = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype("<u2").tobytes()
        elif dtype == "F16":
            data = a.astype("<f2").tobytes()
        else:
            data = a.astype("<f4").tobytes()
        header[name] = {"dtype": dtype, "shape": list(a.shape), "data_offsets": [off, off + len(data)]}
        chunks.append(data)
        off += len(data)
    hb = json.dumps(header, separators=(",", ":")).encode("utf-8")
    hb += b" " * (-len(hb) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(hb)) + hb + b"".join(chunks))


def write_fixture(folder, cfg, tensors, dtype="F32"):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)
        f.write("\n")
    write_safetensors(os.path.join(folder, "model.safetensors"), tensors, dtype)


# ---- edits used by llama_reference.py --self-test (variants of a fixture with a known relation to it)
def head_dim_of(cfg):
    return cfg.get("head_dim") or cfg["hidden_size"] // cfg["num_attention_heads"]


def permute_half_to_pairs(cfg, t):
    """Reorder q/k output rows (and biases, q_norm/k_norm weights) of every head so that HF's half-split
    pair (i, i + d/2) becomes the adjacent pair (2i, 2i+1): new[2i] = old[i], new[2i+1] = old[i + d/2]."""
    d = head_dim_of(cfg)
    order = np.array([j for i in range(d // 2) for j in (i, i + d // 2)])
    for key, nh in (("q", cfg["num_attention_heads"]), ("k", cfg["num_key_value_heads"])):
        idx = np.concatenate([h * d + order for h in range(nh)])
        for nm in list(t):
            if f".self_attn.{key}_proj." in nm:
                t[nm] = t[nm][idx]
            if f".self_attn.{key}_norm." in nm:  # qwen3: per head (d); olmo2: whole projection
                t[nm] = t[nm][order] if t[nm].shape[0] == d else t[nm][idx]


def gqa_to_mha(cfg, t):
    """Duplicate each kv head for its query heads (head h reads kv head h // group): same model, no GQA."""
    d, H, KV = head_dim_of(cfg), cfg["num_attention_heads"], cfg["num_key_value_heads"]
    for nm in list(t):
        if ".k_proj." in nm or ".v_proj." in nm:
            t[nm] = np.concatenate([t[nm][(h // (H // KV)) * d:(h // (H // KV) + 1) * d] for h in range(H)])
    cfg["num_key_value_heads"] = H


def to_rope_parameters(cfg):
    """transformers v5 spelling: rope_theta and the scaling keys together in rope_parameters."""
    rs = dict(cfg.pop("rope_scaling") or {"rope_type": "default"})
    rs["rope_theta"] = cfg.pop("rope_theta")
    cfg["rope_parameters"] = rs


def variant(folder, name, edit=None):
    """Write fixture `name` to `folder` after edit(cfg, tensors) and return the folder."""
    cfg, tensors, dt = fixture(name)
    if edit:
        edit(cfg, tensors)
    write_fixture(folder, cfg, tensors, dt)
    return folder


def _f(x):
    return float("%.9g" % x)  # 9 significant digits round-trip a float32


def main(argv):
    if len(argv) != 2:
        print(__doc__)
        return 2
    out, t0 = argv[1], time.time()
    import torch
    torch.set_num_threads(1)
    expect = {"format": 1, "generator": "tests/models/make_llama_fixtures.py (oracle llama_reference.py)",
              "sequences": SEQUENCES, "switches": SWITCHES, "fixtures": NAMES,
              "notes": "states_last[0] = embedding, states_last[i] = after decoder layer i, before the final norm; "
                       "loss = mean next-token cross-entropy (nats) over t < n-1",
              "cases": []}
    for name in NAMES:
        cfg, tensors, dt = fixture(name)
        runs_on = os.path.join(out, name)
        if dt == "FP8":
            # The reference runs the float32 weights the 8-bit values and scales make.
            back = write_fp8_fixture(os.path.join(out, name), cfg, tensors)
            runs_on = os.path.join(out, "_" + name + "-as-float32")
            plain = {k: v for k, v in cfg.items() if k != "quantization_config"}
            write_fixture(runs_on, plain, back, "F32")
        else:
            write_fixture(os.path.join(out, name), cfg, tensors, dt)
        for seq in SEQUENCES:
            for sw in SWITCHES:
                r = ref.run(runs_on, seq, sw, attention=False)
                expect["cases"].append({"fixture": name, "tokens": seq, "switch": sw,
                                        "loss": _f(r["loss"]),
                                        "logits_last": [_f(v) for v in r["logits_last"]],
                                        "states_last": [[_f(v) for v in s] for s in r["states_last"]]})
    with open(os.path.join(out, "expect.json"), "w") as f:
        json.dump(expect, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {len(NAMES)} fixtures and {len(expect['cases'])} cases to {out} in {time.time() - t0:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
