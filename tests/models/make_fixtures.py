#!/usr/bin/python3
"""Writes small checkpoints in the real tensor names, layouts and config.json keys of the model
families PE Lab recognises, with seeded weights, for tests/models/check_inspect.py and the panel's
tests. No real weights are needed: the numbers are checked against NumPy from the same files.

Usage: make_fixtures.py OUT_FOLDER   (one sub-folder per fixture)

Each learned table that is "sinusoidal" holds pair i as a_i·sin(p·ω_i), a_i·cos(p·ω_i) with
ω_i = 10000^(−2i/d) and a_i = 1/(i + 1): a sinusoidal table whose pairs are told apart by their
amplitude, so its principal components come in known pairs whose wavelength is 2π/ω_i.

The safetensors files are written here byte by byte (the `safetensors` package is not in Debian):
8 bytes of header length (little-endian), the JSON header, the raw little-endian data.
"""
import json
import os
import sys

import numpy as np

RNG = np.random.default_rng(20261128)


def sinusoid_table(rows, cols):
    table = np.zeros((rows, cols), dtype=np.float64)
    positions = np.arange(rows, dtype=np.float64)
    for i in range(cols // 2):
        omega = 10000.0 ** (-2.0 * i / cols)
        amplitude = 1.0 / (i + 1)
        table[:, 2 * i] = amplitude * np.sin(positions * omega)
        table[:, 2 * i + 1] = amplitude * np.cos(positions * omega)
    return table


def bf16_bits(array):
    """float32 → bfloat16 bits by rounding to nearest even (as torch does)."""
    bits = np.ascontiguousarray(array, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def encode(array, dtype):
    if dtype == "F32":
        return np.ascontiguousarray(array, dtype="<f4").tobytes()
    if dtype == "F16":
        return np.ascontiguousarray(array, dtype="<f2").tobytes()
    if dtype == "F64":
        return np.ascontiguousarray(array, dtype="<f8").tobytes()
    if dtype == "BF16":
        return bf16_bits(array).astype("<u2").tobytes()
    if dtype == "I64":
        return np.ascontiguousarray(array, dtype="<i8").tobytes()
    if dtype in ("F8_E4M3", "F8_E8M0"):  # the codes themselves (uint8)
        return np.ascontiguousarray(array, dtype=np.uint8).tobytes()
    raise ValueError(dtype)


def e4m3_value(codes):
    """OCP OFP8 E4M3 (E4M3FN): bias 7, subnormals m/8 · 2^-6, no infinities."""
    codes = np.asarray(codes, dtype=np.int64)
    sign = np.where(codes & 0x80, -1.0, 1.0)
    exponent, mantissa = (codes >> 3) & 15, codes & 7
    normal = (1 + mantissa / 8.0) * np.exp2(exponent - 7.0)
    return sign * np.where(exponent == 0, mantissa / 8.0 * 2.0 ** -6, normal)


def e4m3_codes(rng, shape):
    """Random E4M3 codes of magnitude up to 2 (never NaN), and their values."""
    codes = rng.integers(0, 0x40, size=shape) | (rng.integers(0, 2, size=shape) << 7)
    return codes.astype(np.uint8), e4m3_value(codes)


def write_safetensors(path, tensors, metadata=None):
    """tensors: list of (name, array, dtype)."""
    header = {}
    blobs = []
    offset = 0
    for name, array, dtype in tensors:
        blob = encode(array, dtype)
        header[name] = {"dtype": dtype, "shape": list(np.shape(array)),
                        "data_offsets": [offset, offset + len(blob)]}
        blobs.append(blob)
        offset += len(blob)
    if metadata:
        header["__metadata__"] = metadata
    text = json.dumps(header).encode()
    text += b" " * ((8 - len(text) % 8) % 8)  # the format pads the header to 8 bytes
    with open(path, "wb") as f:
        f.write(len(text).to_bytes(8, "little"))
        f.write(text)
        for blob in blobs:
            f.write(blob)


def write_config(folder, config):
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(config, f, indent=1)


def normal(*shape, scale=0.02):
    return RNG.normal(0.0, scale, size=shape)


def gpt2(out, table_dtype="F32", name="gpt2"):
    folder = os.path.join(out, name)
    os.makedirs(folder, exist_ok=True)
    n, d, layers = 256, 32, 2
    tensors = [("wte.weight", normal(50, d), "F32"),
               ("wpe.weight", sinusoid_table(n, d), table_dtype)]
    for layer in range(layers):
        # GPT-2's saved causal masks (1 × 1 × n × n), not weights.
        tensors.append((f"h.{layer}.attn.bias", np.tril(np.ones((n, n)))[None, None], "F32"))
        tensors.append((f"h.{layer}.attn.c_attn.weight", normal(d, 3 * d), "F32"))
        tensors.append((f"h.{layer}.attn.c_attn.bias", normal(3 * d), "F32"))
    tensors.append(("ln_f.weight", np.ones(d), "F32"))
    write_safetensors(os.path.join(folder, "model.safetensors"), tensors, {"format": "pt"})
    write_config(folder, {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"],
                          "n_positions": n, "n_ctx": n, "n_embd": d, "n_head": 4,
                          "n_layer": layers, "vocab_size": 50})


def bert(out):
    folder = os.path.join(out, "bert")
    os.makedirs(folder, exist_ok=True)
    n, d = 64, 32
    write_safetensors(os.path.join(folder, "model.safetensors"), [
        ("bert.embeddings.position_embeddings.weight", normal(n, d), "F32"),
        ("bert.embeddings.position_ids", np.arange(n)[None], "I64"),
        ("bert.embeddings.word_embeddings.weight", normal(40, d), "F32")])
    write_config(folder, {"model_type": "bert", "max_position_embeddings": n, "hidden_size": d,
                          "num_attention_heads": 4, "num_hidden_layers": 2})


def roberta(out):
    folder = os.path.join(out, "roberta")
    os.makedirs(folder, exist_ok=True)
    n, d = 256, 32
    table = np.vstack([normal(1, d), np.zeros((1, d)), sinusoid_table(n, d)])  # row 1: padding
    write_safetensors(os.path.join(folder, "model.safetensors"), [
        ("roberta.embeddings.position_embeddings.weight", table, "F32"),
        ("roberta.embeddings.word_embeddings.weight", normal(40, d), "F32")])
    write_config(folder, {"model_type": "roberta", "max_position_embeddings": n + 2,
                          "hidden_size": d, "num_attention_heads": 4, "pad_token_id": 1})


def opt(out):
    folder = os.path.join(out, "opt")
    os.makedirs(folder, exist_ok=True)
    n, d = 64, 32
    table = np.vstack([normal(2, d), normal(n, d, scale=0.1)])
    write_safetensors(os.path.join(folder, "model.safetensors"), [
        ("model.decoder.embed_positions.weight", table, "F32"),
        ("model.decoder.embed_tokens.weight", normal(40, d), "F32")])
    write_config(folder, {"model_type": "opt", "max_position_embeddings": n, "hidden_size": d,
                          "num_attention_heads": 4, "num_hidden_layers": 2})


def t5(out):
    folder = os.path.join(out, "t5")
    os.makedirs(folder, exist_ok=True)
    buckets, heads, d = 32, 4, 32
    write_safetensors(os.path.join(folder, "model.safetensors"), [
        ("encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight",
         normal(buckets, heads, scale=1.0), "F32"),
        ("decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight",
         normal(buckets, heads, scale=1.0), "F32"),
        ("shared.weight", normal(40, d), "F32")])
    write_config(folder, {"model_type": "t5", "d_model": d, "d_kv": 8, "num_heads": heads,
                          "relative_attention_num_buckets": buckets,
                          "relative_attention_max_distance": 128, "n_positions": 512})


def bloom(out):
    folder = os.path.join(out, "bloom")
    os.makedirs(folder, exist_ok=True)
    d, heads = 48, 6
    write_safetensors(os.path.join(folder, "model.safetensors"), [
        ("word_embeddings.weight", normal(40, d), "F32"),
        ("h.0.self_attention.query_key_value.weight", normal(3 * d, d), "F32")])
    write_config(folder, {"model_type": "bloom", "hidden_size": d, "n_head": heads,
                          "n_layer": 1})


def llama_like(out, name, model_type, heads, kv_heads, head_dim, extra, dtype="F32",
               shards=1):
    folder = os.path.join(out, name)
    os.makedirs(folder, exist_ok=True)
    hidden, layers = 64, 2
    tensors = [("model.embed_tokens.weight", normal(40, hidden), dtype)]
    for layer in range(layers):
        prefix = f"model.layers.{layer}.self_attn."
        # Rows scaled per dimension so that the pairs differ in how much they can carry.
        scale_q = np.linspace(0.5, 2.0, heads * head_dim)[:, None]
        scale_k = np.linspace(2.0, 0.5, kv_heads * head_dim)[:, None]
        tensors += [(prefix + "q_proj.weight", normal(heads * head_dim, hidden) * scale_q, dtype),
                    (prefix + "k_proj.weight", normal(kv_heads * head_dim, hidden) * scale_k, dtype),
                    (prefix + "v_proj.weight", normal(kv_heads * head_dim, hidden), dtype),
                    (prefix + "o_proj.weight", normal(hidden, heads * head_dim), dtype)]
    config = {"model_type": model_type, "hidden_size": hidden, "num_attention_heads": heads,
              "num_key_value_heads": kv_heads, "num_hidden_layers": layers,
              "max_position_embeddings": 128, "rope_theta": 10000.0}
    if head_dim != hidden // heads:
        config["head_dim"] = head_dim
    config.update(extra)
    config = {key: value for key, value in config.items() if value is not None}  # None: left out
    write_config(folder, config)
    if shards == 1:
        write_safetensors(os.path.join(folder, "model.safetensors"), tensors)
        return
    weight_map = {}
    per_shard = (len(tensors) + shards - 1) // shards
    for s in range(shards):
        file_name = f"model-{s + 1:05d}-of-{shards:05d}.safetensors"
        part = tensors[s * per_shard:(s + 1) * per_shard]
        write_safetensors(os.path.join(folder, file_name), part)
        for tensor_name, _, _ in part:
            weight_map[tensor_name] = file_name
    with open(os.path.join(folder, "model.safetensors.index.json"), "w") as f:
        json.dump({"metadata": {"total_size": 0}, "weight_map": weight_map}, f, indent=1)


def deepseek_fp8(out):
    """DeepSeek V3's multi-head latent attention in fine-grained FP8 (weight_scale_inv per
    10 × 16 block, partial edge blocks): q_b_proj gives each head nope rows then rope rows; the
    key's rotating part is kv_a_proj_with_mqa's last rope rows. Returns nothing: the values are
    recomputed from the file by check_inspect.py."""
    folder = os.path.join(out, "deepseek-fp8")
    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(3)
    hidden, heads, nope, rope, v_dim, rank, q_rank, layers = 64, 4, 8, 8, 8, 16, 12, 2
    block = (10, 16)
    tensors = [("model.embed_tokens.weight", normal(40, hidden), "BF16")]

    def fp8(name, rows, cols):
        codes, _ = e4m3_codes(rng, (rows, cols))
        grid = (-(-rows // block[0]), -(-cols // block[1]))
        scale = rng.uniform(0.25, 4.0, size=grid).astype(np.float32)
        return [(name, codes, "F8_E4M3"), (name + "_scale_inv", scale, "F32")]

    for layer in range(layers):
        p = f"model.layers.{layer}.self_attn."
        tensors += fp8(p + "q_a_proj.weight", q_rank, hidden)
        tensors += [(p + "q_a_layernorm.weight", np.ones(q_rank), "BF16")]
        tensors += fp8(p + "q_b_proj.weight", heads * (nope + rope), q_rank)
        tensors += fp8(p + "kv_a_proj_with_mqa.weight", rank + rope, hidden)
        tensors += [(p + "kv_a_layernorm.weight", np.ones(rank), "BF16")]
        tensors += fp8(p + "kv_b_proj.weight", heads * (nope + v_dim), rank)
        tensors += fp8(p + "o_proj.weight", hidden, heads * v_dim)
    write_safetensors(os.path.join(folder, "model.safetensors"), tensors)
    write_config(folder, {"model_type": "deepseek_v3", "hidden_size": hidden,
                          "num_attention_heads": heads, "num_key_value_heads": heads,
                          "num_hidden_layers": layers, "max_position_embeddings": 256,
                          "rope_theta": 10000.0, "qk_nope_head_dim": nope,
                          "qk_rope_head_dim": rope, "v_head_dim": v_dim, "kv_lora_rank": rank,
                          "q_lora_rank": q_rank, "head_dim": rope, "rope_interleave": True,
                          "quantization_config": {"quant_method": "fp8", "fmt": "e4m3",
                                                  "activation_scheme": "dynamic",
                                                  "weight_block_size": list(block)}})


def qwen3_next_gated(out):
    """Qwen3-Next: three linear-attention layers, then one attention layer whose q_proj holds
    per head [q | gate]; partial rotary 0.25 (the family's default, left out)."""
    folder = os.path.join(out, "qwen3-next")
    os.makedirs(folder, exist_ok=True)
    hidden, heads, kv, hd, layers = 64, 4, 2, 16, 4
    tensors = [("model.embed_tokens.weight", normal(40, hidden), "BF16")]
    for layer in range(layers):
        if (layer + 1) % 4:
            tensors.append((f"model.layers.{layer}.linear_attn.in_proj_qkvz.weight",
                            normal(96, hidden), "BF16"))
            continue
        p = f"model.layers.{layer}.self_attn."
        scale_q = np.linspace(0.5, 2.0, 2 * heads * hd)[:, None]
        tensors += [(p + "q_proj.weight", normal(2 * heads * hd, hidden) * scale_q, "BF16"),
                    (p + "k_proj.weight", normal(kv * hd, hidden), "BF16"),
                    (p + "v_proj.weight", normal(kv * hd, hidden), "BF16"),
                    (p + "o_proj.weight", normal(hidden, heads * hd), "BF16")]
    write_safetensors(os.path.join(folder, "model.safetensors"), tensors)
    write_config(folder, {"model_type": "qwen3_next", "hidden_size": hidden,
                          "num_attention_heads": heads, "num_key_value_heads": kv,
                          "head_dim": hd, "num_hidden_layers": layers,
                          "max_position_embeddings": 256, "rope_theta": 10000000.0})


def neox(out):
    folder = os.path.join(out, "neox")
    os.makedirs(folder, exist_ok=True)
    hidden, heads, layers = 64, 4, 2
    tensors = [("gpt_neox.embed_in.weight", normal(40, hidden), "F32")]
    for layer in range(layers):
        scale = np.linspace(0.5, 2.0, 3 * hidden)[:, None]
        tensors.append((f"gpt_neox.layers.{layer}.attention.query_key_value.weight",
                        normal(3 * hidden, hidden) * scale, "F32"))
        tensors.append((f"gpt_neox.layers.{layer}.attention.bias",
                        np.tril(np.ones((16, 16)))[None, None], "F32"))
    write_safetensors(os.path.join(folder, "model.safetensors"), tensors)
    write_config(folder, {"model_type": "gpt_neox", "hidden_size": hidden,
                          "num_attention_heads": heads, "num_hidden_layers": layers,
                          "max_position_embeddings": 2048, "rotary_pct": 0.25,
                          "rotary_emb_base": 10000})


def npy(out):
    folder = os.path.join(out, "npy")
    os.makedirs(folder, exist_ok=True)
    table = sinusoid_table(48, 16).astype(np.float32)
    np.save(os.path.join(folder, "table.npy"), table)
    np.save(os.path.join(folder, "fortran.npy"), np.asfortranarray(table))


def make_all(out):
    os.makedirs(out, exist_ok=True)
    gpt2(out)
    gpt2(out, "F16", "gpt2-f16")
    gpt2(out, "BF16", "gpt2-bf16")
    bert(out)
    roberta(out)
    opt(out)
    t5(out)
    bloom(out)
    llama_like(out, "llama", "llama", 4, 2, 16, {})
    llama_like(out, "llama-sharded", "llama", 4, 2, 16, {}, shards=3)
    llama_like(out, "qwen2", "qwen2", 4, 2, 16,
               {"rope_theta": 1000000.0, "max_position_embeddings": 128,
                "rope_scaling": {"type": "yarn", "factor": 4.0,
                                 "original_max_position_embeddings": 32}}, dtype="BF16")
    llama_like(out, "gemma", "gemma", 4, 1, 24, {"head_dim": 24}, dtype="F16")
    # transformers v5's form (rope_parameters): the qwen2 fixture's RoPE written flat, and a
    # Gemma-3-like model with one RoPE per layer type (its global layer scaled).
    llama_like(out, "qwen2-v5", "qwen2", 4, 2, 16,
               {"rope_theta": None, "max_position_embeddings": 128,
                "rope_parameters": {"rope_type": "yarn", "rope_theta": 1000000.0, "factor": 4.0,
                                    "original_max_position_embeddings": 32}}, dtype="BF16")
    llama_like(out, "gemma3-v5", "gemma3_text", 4, 1, 24,
               {"head_dim": 24, "rope_theta": None, "max_position_embeddings": 128,
                "layer_types": ["sliding_attention", "full_attention"],
                "rope_parameters": {
                    "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
                    "full_attention": {"rope_type": "yarn", "rope_theta": 1000000.0,
                                       "factor": 8.0, "original_max_position_embeddings": 16}}},
               dtype="F16")
    neox(out)
    deepseek_fp8(out)
    qwen3_next_gated(out)
    npy(out)


if __name__ == "__main__":
    make_all(sys.argv[1])
