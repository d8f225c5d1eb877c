#!/usr/bin/python3
"""make_arch_fixtures.py OUTDIR [ARCH ...]

For each architecture writes OUTDIR/<arch>/:
  hf/config.json, hf/model.safetensors   tiny Hugging Face checkpoint (float32)
  model-F32.gguf                         converted by convert_hf_to_gguf.py's rules (re-implemented
                                         here from its source; see README.md for the commits)
  model-Q8_0.gguf                        same, 2-D/3-D weights quantized with quantize_row_q8_0_ref
                                         (as `convert_hf_to_gguf.py --outtype q8_0`)
  model-Q4_K.gguf                        same, weights whose ne0 % 256 == 0 in Q4_K (a simple
                                         Q4_K quantizer, not llama.cpp's), the others in Q5_0
                                         (llama.cpp's fallback for Q4_K when ne0 % 256 != 0)
  EXPECT.json                            what a correct reader must conclude
Plus OUTDIR/MANIFEST.json (what every GGUF was meant to contain).

Deterministic (seed derived from the architecture name).
"""
import json
import math
import os
import struct
import sys
import zlib

import numpy as np
import torch

from ggml_dequant import dequantize, quantize, TYPES
from gguf_writer import GGUFWriter, STR, U32, I32, F32 as VF32, ARR, BOOL

HIDDEN, NH, NKV, HD, FFN, VOCAB, NCTX = 64, 4, 2, 16, 256, 32, 128
LLAMA_MODEL_CPP_COMMIT = "00342301d01add50835550e8a916f12097d94517"

# --------------------------------------------------------------------------- safetensors

def write_safetensors(path, tensors):
    """tensors: list of (name, np.float32 array). Format (safetensors spec): u64 LE header
    length N, N bytes of JSON {name: {dtype, shape, data_offsets:[begin,end]}}, data."""
    header, blobs, off = {}, [], 0
    for name, a in tensors:
        a = np.ascontiguousarray(a, dtype="<f4")
        b = a.tobytes()
        header[name] = {"dtype": "F32", "shape": list(a.shape), "data_offsets": [off, off + len(b)]}
        blobs.append(b)
        off += len(b)
    header["__metadata__"] = {"format": "pt"}
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)


def read_safetensors(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        hdr = json.loads(f.read(n))
        data = f.read()
    out = {}
    for k, v in hdr.items():
        if k == "__metadata__":
            continue
        b, e = v["data_offsets"]
        out[k] = np.frombuffer(data[b:e], dtype="<f4").reshape(v["shape"]).astype(np.float32)
    return out


# --------------------------------------------------------------------------- random weights

class Gen:
    def __init__(self, arch):
        self.rng = np.random.default_rng(zlib.crc32(arch.encode()))
        self.items = []

    def w(self, name, shape, row_structure=True):
        """random float32 with a per-row scale (row r scaled by 0.5 + 1.5*r/rows, rows
        shuffled) so every row, hence every rotary pair, has a different norm."""
        a = self.rng.standard_normal(shape).astype(np.float32) * np.float32(0.05)
        if row_structure and len(shape) >= 2:
            rows = shape[-2]
            scale = (0.5 + 1.5 * self.rng.permutation(rows) / max(rows - 1, 1)).astype(np.float32)
            a = (a * scale[:, None]).astype(np.float32)
        self.items.append((name, a))
        return a

    def norm(self, name, n, center=1.0):
        a = (center + 0.1 * self.rng.standard_normal(n)).astype(np.float32)
        self.items.append((name, a))
        return a

    def bias(self, name, n):
        a = (0.02 * self.rng.standard_normal(n)).astype(np.float32)
        self.items.append((name, a))
        return a


def permute(w, n_head, n_head_kv):
    """LlamaModel.permute (conversion/llama.py)."""
    if n_head_kv is not None and n_head != n_head_kv:
        n_head = n_head_kv
    return (w.reshape(n_head, 2, w.shape[0] // n_head // 2, *w.shape[1:])
            .swapaxes(1, 2).reshape(w.shape))


# --------------------------------------------------------------------------- per-arch specs
# Each builder returns dict(config=..., hf=[(name, array)], gguf_kv=[(key, vtype, value)],
# gguf_tensors=[(gguf_name, array in numpy (HF) orientation)], expect={...}, qk=callable)


def llama_like(arch, g, *, model_type, hf_arch, gguf_arch, rope_theta, permute_qk=True,
               rope_scaling=None, tie=False, head_dim_in_cfg=True, extra_cfg=None,
               qkv_bias=False, qk_norm=False, write_rope_dim=True, write_vocab=True, gemma=None):
    L = 2
    cfg = {"architectures": [hf_arch], "model_type": model_type, "hidden_size": HIDDEN,
           "intermediate_size": FFN, "num_attention_heads": NH, "num_key_value_heads": NKV,
           "num_hidden_layers": L, "max_position_embeddings": NCTX, "rms_norm_eps": 1e-5,
           "rope_theta": rope_theta, "rope_scaling": rope_scaling, "vocab_size": VOCAB,
           "tie_word_embeddings": tie, "torch_dtype": "float32", "hidden_act": "silu",
           "attention_bias": qkv_bias, "bos_token_id": 1, "eos_token_id": 2}
    if head_dim_in_cfg:
        cfg["head_dim"] = HD
    cfg.update(extra_cfg or {})
    hf, gt = [], []
    emb = g.w("model.embed_tokens.weight", (VOCAB, HIDDEN))
    gt.append(("token_embd.weight", emb))
    shift = 1.0 if gemma else 0.0
    qs, ks = [], []
    for i in range(L):
        p = f"model.layers.{i}."
        n_in = g.norm(p + "input_layernorm.weight", HIDDEN, 0.0 if gemma else 1.0)
        q = g.w(p + "self_attn.q_proj.weight", (NH * HD, HIDDEN))
        k = g.w(p + "self_attn.k_proj.weight", (NKV * HD, HIDDEN))
        v = g.w(p + "self_attn.v_proj.weight", (NKV * HD, HIDDEN))
        qs.append(q); ks.append(k)
        gt.append((f"blk.{i}.attn_norm.weight", n_in + np.float32(shift)))
        gt.append((f"blk.{i}.attn_q.weight", permute(q, NH, NH) if permute_qk else q))
        if qkv_bias:
            qb = g.bias(p + "self_attn.q_proj.bias", NH * HD)
            kb = g.bias(p + "self_attn.k_proj.bias", NKV * HD)
            vb = g.bias(p + "self_attn.v_proj.bias", NKV * HD)
            gt.append((f"blk.{i}.attn_q.bias", permute(qb, NH, NH) if permute_qk else qb))
        gt.append((f"blk.{i}.attn_k.weight", permute(k, NH, NKV) if permute_qk else k))
        if qkv_bias:
            gt.append((f"blk.{i}.attn_k.bias", permute(kb, NH, NKV) if permute_qk else kb))
        gt.append((f"blk.{i}.attn_v.weight", v))
        if qkv_bias:
            gt.append((f"blk.{i}.attn_v.bias", vb))
        if qk_norm:
            qn = g.norm(p + "self_attn.q_norm.weight", HD, 0.0 if gemma else 1.0)
            kn = g.norm(p + "self_attn.k_norm.weight", HD, 0.0 if gemma else 1.0)
            gt.append((f"blk.{i}.attn_q_norm.weight", qn + np.float32(shift)))
            gt.append((f"blk.{i}.attn_k_norm.weight", kn + np.float32(shift)))
        o = g.w(p + "self_attn.o_proj.weight", (HIDDEN, NH * HD))
        gt.append((f"blk.{i}.attn_output.weight", o))
        if gemma:
            pa = g.norm(p + "post_attention_layernorm.weight", HIDDEN, 0.0)
            pf = g.norm(p + "pre_feedforward_layernorm.weight", HIDDEN, 0.0)
            po = g.norm(p + "post_feedforward_layernorm.weight", HIDDEN, 0.0)
            gt.append((f"blk.{i}.post_attention_norm.weight", pa + np.float32(1)))
            gt.append((f"blk.{i}.ffn_norm.weight", pf + np.float32(1)))
            gt.append((f"blk.{i}.post_ffw_norm.weight", po + np.float32(1)))
        else:
            pa = g.norm(p + "post_attention_layernorm.weight", HIDDEN)
            gt.append((f"blk.{i}.ffn_norm.weight", pa))
        gate = g.w(p + "mlp.gate_proj.weight", (FFN, HIDDEN))
        up = g.w(p + "mlp.up_proj.weight", (FFN, HIDDEN))
        down = g.w(p + "mlp.down_proj.weight", (HIDDEN, FFN))
        gt += [(f"blk.{i}.ffn_gate.weight", gate), (f"blk.{i}.ffn_up.weight", up), (f"blk.{i}.ffn_down.weight", down)]
    nrm = g.norm("model.norm.weight", HIDDEN, 0.0 if gemma else 1.0)
    gt.append(("output_norm.weight", nrm + np.float32(shift)))
    if not tie:
        lm = g.w("lm_head.weight", (VOCAB, HIDDEN))
        gt.append(("output.weight", lm))
    A = gguf_arch
    kv = [(f"{A}.block_count", U32, L), (f"{A}.context_length", U32, NCTX),
          (f"{A}.embedding_length", U32, HIDDEN), (f"{A}.feed_forward_length", U32, FFN),
          (f"{A}.attention.head_count", U32, NH), (f"{A}.attention.head_count_kv", U32, NKV),
          (f"{A}.rope.freq_base", VF32, rope_theta), (f"{A}.attention.layer_norm_rms_epsilon", VF32, 1e-5)]
    if head_dim_in_cfg:
        kv += [(f"{A}.attention.key_length", U32, HD), (f"{A}.attention.value_length", U32, HD)]
    if write_vocab:
        kv.append((f"{A}.vocab_size", U32, VOCAB))
    if write_rope_dim:
        kv.append((f"{A}.rope.dimension_count", U32, HD))
    return dict(config=cfg, hf=g.items, gt=gt, kv=kv, q=qs, k=ks, L=L)


def b_llama(g):
    rs = {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
          "original_max_position_embeddings": 64, "rope_type": "llama3"}
    d = llama_like("llama", g, model_type="llama", hf_arch="LlamaForCausalLM", gguf_arch="llama",
                   rope_theta=50000.0, rope_scaling=rs, extra_cfg={"mlp_bias": False, "pretraining_tp": 1})
    # LlamaModel.generate_extra_tensors (conversion/llama.py), in torch float32 like the converter.
    # NOTE: old_context_len comes from hparams.get("original_max_position_embeddings", 8192) at the
    # TOP level of the config, not from rope_scaling -> 8192 here although rope_scaling says 64.
    base = rs.get("rope_theta", 50000.0) if "rope_theta" in rs else 50000.0
    dim = HD
    freqs = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.float32) / dim))
    factor, lff, hff = rs["factor"], rs["low_freq_factor"], rs["high_freq_factor"]
    rope_factors_by = {}
    for old_context_len in (d["config"].get("original_max_position_embeddings", 8192), rs["original_max_position_embeddings"]):
        low_wl, high_wl = old_context_len / lff, old_context_len / hff
        rf = []
        for freq in freqs:
            wavelen = 2 * math.pi / freq
            if wavelen < high_wl:
                rf.append(1)
            elif wavelen > low_wl:
                rf.append(factor)
            else:
                smooth = (old_context_len / wavelen - lff) / (hff - lff)
                rf.append(1 / ((1 - smooth) / factor + smooth))
        rope_factors_by[old_context_len] = torch.tensor(rf, dtype=torch.float32).numpy()
    d["gt"].insert(0, ("rope_freqs.weight", rope_factors_by[8192]))
    d["expect_extra"] = {
        "rope_freqs": [float(x) for x in rope_factors_by[8192]],
        "rope_freqs_note": "converter (conversion/llama.py generate_extra_tensors) reads "
                           "original_max_position_embeddings from the top level of config.json with default 8192; "
                           "this config has it only inside rope_scaling (64), so the file's rope_freqs use 8192. "
                           "With 64 the factors would be " + json.dumps([float(x) for x in rope_factors_by[64]]),
        "rope_scaling_keys_written": "none: rope_type llama3 writes no rope.scaling.* keys, only rope_freqs.weight",
    }
    d.update(permuted=True, pairs="half", rope_type="NORM")
    return d


def b_mistral(g):
    d = llama_like("mistral", g, model_type="mistral", hf_arch="MistralForCausalLM", gguf_arch="llama",
                   rope_theta=1000000.0, extra_cfg={"sliding_window": None})
    d.update(permuted=True, pairs="half", rope_type="NORM")
    d["expect_extra"] = {"note": "MistralForCausalLM is converted by LlamaModel: general.architecture = llama"}
    return d


def b_qwen2(g):
    d = llama_like("qwen2", g, model_type="qwen2", hf_arch="Qwen2ForCausalLM", gguf_arch="qwen2",
                   rope_theta=50000.0, permute_qk=False, tie=True, head_dim_in_cfg=False, qkv_bias=True,
                   write_rope_dim=False, write_vocab=False,
                   extra_cfg={"use_sliding_window": False, "sliding_window": 4096, "max_window_layers": 2})
    d.update(permuted=False, pairs="half", rope_type="NEOX")
    d["expect_extra"] = {"note": "Qwen2Model writes no rope.dimension_count and no key_length (config has no head_dim); "
                                 "tied embeddings: no output.weight"}
    return d


def b_qwen3(g):
    d = llama_like("qwen3", g, model_type="qwen3", hf_arch="Qwen3ForCausalLM", gguf_arch="qwen3",
                   rope_theta=50000.0, permute_qk=False, tie=False, qk_norm=True,
                   write_rope_dim=False, write_vocab=False,
                   extra_cfg={"use_sliding_window": False, "sliding_window": None, "max_window_layers": 2})
    d.update(permuted=False, pairs="half", rope_type="NEOX")
    return d


def b_gemma2(g):
    d = llama_like("gemma2", g, model_type="gemma2", hf_arch="Gemma2ForCausalLM", gguf_arch="gemma2",
                   rope_theta=50000.0, permute_qk=False, tie=True, gemma=True, write_rope_dim=False,
                   write_vocab=False,
                   extra_cfg={"attn_logit_softcapping": 50.0, "final_logit_softcapping": 30.0,
                              "sliding_window": 32, "query_pre_attn_scalar": HD, "hidden_activation": "gelu_pytorch_tanh"})
    A = "gemma2"
    # Gemma2Model.set_gguf_parameters does not call the base: exactly these keys (no rope.freq_base!)
    d["kv"] = [(f"{A}.context_length", U32, NCTX), (f"{A}.embedding_length", U32, HIDDEN),
               (f"{A}.block_count", U32, 2), (f"{A}.feed_forward_length", U32, FFN),
               (f"{A}.attention.head_count", U32, NH), (f"{A}.attention.head_count_kv", U32, NKV),
               (f"{A}.attention.layer_norm_rms_epsilon", VF32, 1e-5),
               (f"{A}.attention.key_length", U32, HD), (f"{A}.attention.value_length", U32, HD),
               (f"{A}.attn_logit_softcapping", VF32, 50.0), (f"{A}.final_logit_softcapping", VF32, 30.0),
               (f"{A}.attention.sliding_window", U32, 32)]
    d.update(permuted=False, pairs="half", rope_type="NEOX")
    d["expect_extra"] = {"note": "Gemma2 converter writes no rope.freq_base: the GGUF carries no base (llama.cpp "
                                 "default 10000) although config.json says rope_theta 50000; norms are stored +1"}
    d["rope_base_gguf"] = None
    return d


def b_gemma3(g):
    d = llama_like("gemma3", g, model_type="gemma3_text", hf_arch="Gemma3ForCausalLM", gguf_arch="gemma3",
                   rope_theta=50000.0, permute_qk=False, tie=True, gemma=True, qk_norm=True,
                   write_rope_dim=False, write_vocab=False,
                   extra_cfg={"rope_local_base_freq": 10000.0, "sliding_window": 32, "sliding_window_pattern": 6,
                              "query_pre_attn_scalar": HD, "final_logit_softcapping": None,
                              "attn_logit_softcapping": None, "hidden_activation": "gelu_pytorch_tanh"})
    A = "gemma3"
    d["kv"] += [(f"{A}.rope.freq_base_swa", VF32, 10000.0), (f"{A}.attention.sliding_window", U32, 32)]
    d.update(permuted=False, pairs="half", rope_type="NEOX")
    d["expect_extra"] = {"note": "Gemma3: all *norm.weight (incl. q_norm/k_norm) stored +1; rope.freq_base_swa from "
                                 "rope_local_base_freq; embed rows would be trimmed to the tokenizer's size (none here)"}
    return d


def b_smollm3(g):
    d = llama_like("smollm3", g, model_type="smollm3", hf_arch="SmolLM3ForCausalLM", gguf_arch="smollm3",
                   rope_theta=50000.0, tie=True, head_dim_in_cfg=False,
                   extra_cfg={"no_rope_layers": [1, 1], "no_rope_layer_interval": 4, "use_sliding_window": False,
                              "sliding_window": None, "mlp_bias": False})
    d.update(permuted=True, pairs="half", rope_type="NORM")
    d["expect_extra"] = {"note": "SmolLM3Model is a LlamaModel subclass: q/k permuted; no_rope_layers not written by the converter read"}
    return d


def b_phi3(g):
    L = 2
    cfg = {"architectures": ["Phi3ForCausalLM"], "model_type": "phi3", "hidden_size": HIDDEN,
           "intermediate_size": FFN, "num_attention_heads": NH, "num_key_value_heads": NKV,
           "num_hidden_layers": L, "max_position_embeddings": NCTX, "original_max_position_embeddings": 64,
           "rms_norm_eps": 1e-5, "rope_theta": 50000.0, "rope_scaling": None, "partial_rotary_factor": 1.0,
           "sliding_window": 64, "vocab_size": VOCAB, "tie_word_embeddings": False, "torch_dtype": "float32",
           "hidden_act": "silu", "bos_token_id": 1, "eos_token_id": 2}
    gt, qs, ks = [], [], []
    emb = g.w("model.embed_tokens.weight", (VOCAB, HIDDEN))
    gt.append(("token_embd.weight", emb))
    for i in range(L):
        p = f"model.layers.{i}."
        n1 = g.norm(p + "input_layernorm.weight", HIDDEN)
        qkv = g.w(p + "self_attn.qkv_proj.weight", (NH * HD + 2 * NKV * HD, HIDDEN))
        o = g.w(p + "self_attn.o_proj.weight", (HIDDEN, NH * HD))
        n2 = g.norm(p + "post_attention_layernorm.weight", HIDDEN)
        gu = g.w(p + "mlp.gate_up_proj.weight", (2 * FFN, HIDDEN))
        dn = g.w(p + "mlp.down_proj.weight", (HIDDEN, FFN))
        qs.append(qkv[:NH * HD]); ks.append(qkv[NH * HD:NH * HD + NKV * HD])
        gt += [(f"blk.{i}.attn_norm.weight", n1), (f"blk.{i}.attn_qkv.weight", qkv),
               (f"blk.{i}.attn_output.weight", o), (f"blk.{i}.ffn_norm.weight", n2),
               (f"blk.{i}.ffn_up.weight", gu), (f"blk.{i}.ffn_down.weight", dn)]
    gt.append(("output_norm.weight", g.norm("model.norm.weight", HIDDEN)))
    gt.append(("output.weight", g.w("lm_head.weight", (VOCAB, HIDDEN))))
    A = "phi3"
    kv = [(f"{A}.context_length", U32, NCTX), (f"{A}.rope.scaling.original_context_length", U32, 64),
          (f"{A}.embedding_length", U32, HIDDEN), (f"{A}.feed_forward_length", U32, FFN),
          (f"{A}.block_count", U32, L), (f"{A}.attention.head_count", U32, NH),
          (f"{A}.attention.head_count_kv", U32, NKV), (f"{A}.attention.layer_norm_rms_epsilon", VF32, 1e-5),
          (f"{A}.rope.dimension_count", U32, HD), (f"{A}.rope.freq_base", VF32, 50000.0),
          (f"{A}.attention.sliding_window", U32, 64)]
    return dict(config=cfg, hf=g.items, gt=gt, kv=kv, q=qs, k=ks, L=L, permuted=False, pairs="half",
                rope_type="NEOX", fused="qkv_proj -> attn_qkv rows [q(64) | k(32) | v(32)], not permuted; "
                "gate_up_proj -> ffn_up rows [gate(256) | up(256)]",
                expect_extra={"note": "Phi3MiniModel reads original_max_position_embeddings via rope_parameters "
                              "(transformers >= 5 moves it there; here it is top-level in config.json)"})


def b_deepseek2(g):
    L, KVR, NOPE, ROPE, VD, NE, MOE_FF = 2, 32, 16, 8, 16, 4, 32
    rs = {"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32, "beta_fast": 32,
          "beta_slow": 1, "mscale": 0.707, "mscale_all_dim": 0.707}
    cfg = {"architectures": ["DeepseekV2ForCausalLM"], "model_type": "deepseek_v2", "hidden_size": HIDDEN,
           "intermediate_size": FFN, "moe_intermediate_size": MOE_FF, "num_attention_heads": NH,
           "num_key_value_heads": NH, "num_hidden_layers": L, "max_position_embeddings": NCTX,
           "rms_norm_eps": 1e-6, "rope_theta": 50000.0, "rope_scaling": rs, "q_lora_rank": None,
           "kv_lora_rank": KVR, "qk_nope_head_dim": NOPE, "qk_rope_head_dim": ROPE, "v_head_dim": VD,
           "n_routed_experts": NE, "n_shared_experts": 1, "num_experts_per_tok": 2, "first_k_dense_replace": 1,
           "moe_layer_freq": 1, "n_group": 1, "topk_group": 1, "topk_method": "greedy", "routed_scaling_factor": 1.0,
           "scoring_func": "softmax", "norm_topk_prob": False, "aux_loss_alpha": 0.001, "seq_aux": True,
           "vocab_size": VOCAB, "tie_word_embeddings": False, "torch_dtype": "float32", "hidden_act": "silu",
           "attention_bias": False, "bos_token_id": 1, "eos_token_id": 2}
    gt, qs, ks = [], [], []
    gt.append(("token_embd.weight", g.w("model.embed_tokens.weight", (VOCAB, HIDDEN))))
    for i in range(L):
        p = f"model.layers.{i}."
        gt.append((f"blk.{i}.attn_norm.weight", g.norm(p + "input_layernorm.weight", HIDDEN)))
        q = g.w(p + "self_attn.q_proj.weight", (NH * (NOPE + ROPE), HIDDEN))
        kva = g.w(p + "self_attn.kv_a_proj_with_mqa.weight", (KVR + ROPE, HIDDEN))
        kvn = g.norm(p + "self_attn.kv_a_layernorm.weight", KVR)
        kvb = g.w(p + "self_attn.kv_b_proj.weight", (NH * (NOPE + VD), KVR))
        o = g.w(p + "self_attn.o_proj.weight", (HIDDEN, NH * VD))
        # q rope rows of head h: h*(NOPE+ROPE) + NOPE + [0..ROPE); k rope rows (shared): KVR + [0..ROPE)
        qs.append(np.concatenate([q[h * (NOPE + ROPE) + NOPE: (h + 1) * (NOPE + ROPE)] for h in range(NH)]))
        ks.append(kva[KVR:KVR + ROPE])
        kb = kvb.reshape(NH, NOPE + VD, KVR)
        k_b = np.ascontiguousarray(kb[:, :NOPE, :].transpose(0, 2, 1))      # (NH, KVR, NOPE)
        v_b = np.ascontiguousarray(kb[:, NOPE:, :])                         # (NH, VD, KVR)
        gt += [(f"blk.{i}.attn_q.weight", q), (f"blk.{i}.attn_kv_a_mqa.weight", kva),
               (f"blk.{i}.attn_kv_a_norm.weight", kvn), (f"blk.{i}.attn_k_b.weight", k_b),
               (f"blk.{i}.attn_v_b.weight", v_b), (f"blk.{i}.attn_output.weight", o)]
        gt.append((f"blk.{i}.ffn_norm.weight", g.norm(p + "post_attention_layernorm.weight", HIDDEN)))
        if i < cfg["first_k_dense_replace"]:
            gt += [(f"blk.{i}.ffn_gate.weight", g.w(p + "mlp.gate_proj.weight", (FFN, HIDDEN))),
                   (f"blk.{i}.ffn_up.weight", g.w(p + "mlp.up_proj.weight", (FFN, HIDDEN))),
                   (f"blk.{i}.ffn_down.weight", g.w(p + "mlp.down_proj.weight", (HIDDEN, FFN)))]
        else:
            gt.append((f"blk.{i}.ffn_gate_inp.weight", g.w(p + "mlp.gate.weight", (NE, HIDDEN))))
            ex = {w: [] for w in ("gate_proj", "up_proj", "down_proj")}
            for e in range(NE):
                for w, shp in (("gate_proj", (MOE_FF, HIDDEN)), ("up_proj", (MOE_FF, HIDDEN)), ("down_proj", (HIDDEN, MOE_FF))):
                    ex[w].append(g.w(p + f"mlp.experts.{e}.{w}.weight", shp))
            gt += [(f"blk.{i}.ffn_down_exps.weight", np.stack(ex["down_proj"])),
                   (f"blk.{i}.ffn_gate_exps.weight", np.stack(ex["gate_proj"])),
                   (f"blk.{i}.ffn_up_exps.weight", np.stack(ex["up_proj"]))]
            gt += [(f"blk.{i}.ffn_gate_shexp.weight", g.w(p + "mlp.shared_experts.gate_proj.weight", (MOE_FF, HIDDEN))),
                   (f"blk.{i}.ffn_up_shexp.weight", g.w(p + "mlp.shared_experts.up_proj.weight", (MOE_FF, HIDDEN))),
                   (f"blk.{i}.ffn_down_shexp.weight", g.w(p + "mlp.shared_experts.down_proj.weight", (HIDDEN, MOE_FF)))]
    gt.append(("output_norm.weight", g.norm("model.norm.weight", HIDDEN)))
    gt.append(("output.weight", g.w("lm_head.weight", (VOCAB, HIDDEN))))
    A = "deepseek2"
    kv = [(f"{A}.block_count", U32, L), (f"{A}.context_length", U32, NCTX), (f"{A}.embedding_length", U32, HIDDEN),
          (f"{A}.feed_forward_length", U32, FFN), (f"{A}.attention.head_count", U32, NH),
          (f"{A}.attention.head_count_kv", U32, 1),
          (f"{A}.rope.scaling.type", STR, "yarn"), (f"{A}.rope.scaling.factor", VF32, 4.0),
          (f"{A}.rope.scaling.original_context_length", U32, 32),
          (f"{A}.rope.scaling.yarn_beta_fast", VF32, 32.0), (f"{A}.rope.scaling.yarn_beta_slow", VF32, 1.0),
          (f"{A}.rope.freq_base", VF32, 50000.0), (f"{A}.attention.layer_norm_rms_epsilon", VF32, 1e-6),
          (f"{A}.expert_used_count", U32, 2), (f"{A}.expert_group_count", U32, 1),
          (f"{A}.expert_group_used_count", U32, 1), (f"{A}.expert_gating_func", U32, 1),
          (f"{A}.leading_dense_block_count", U32, 1), (f"{A}.vocab_size", U32, VOCAB),
          (f"{A}.attention.kv_lora_rank", U32, KVR), (f"{A}.attention.key_length", U32, KVR + ROPE),
          (f"{A}.attention.value_length", U32, KVR), (f"{A}.attention.key_length_mla", U32, NOPE + ROPE),
          (f"{A}.attention.value_length_mla", U32, VD), (f"{A}.expert_feed_forward_length", U32, MOE_FF),
          (f"{A}.expert_count", U32, NE), (f"{A}.expert_shared_count", U32, 1),
          (f"{A}.expert_weights_scale", VF32, 1.0), (f"{A}.rope.dimension_count", U32, ROPE),
          (f"{A}.rope.scaling.yarn_log_multiplier", VF32, 0.1 * 0.707)]
    return dict(config=cfg, hf=g.items, gt=gt, kv=kv, q=qs, k=ks, L=L, permuted=False, pairs="interleaved",
                rope_type="NORM", head_dim_rope=ROPE, n_head_kv_rope=1,
                expect_extra={"note": "MLA: head_count_kv written as 1 (MQA form); only the rope part of q "
                              "(last 8 of each 24-row head) and the shared k rope rows (kv_a_proj_with_mqa rows "
                              "32..39) rotate; pairs are interleaved (2i, 2i+1) in HF and in GGUF (no permutation); "
                              "kv_b_proj is split into attn_k_b (transposed) and attn_v_b; rope type in the converter "
                              "config is 'type: yarn' -> rope.scaling.* keys"})


def b_falcon(g):
    L, qpk = 2, NH // NKV
    cfg = {"architectures": ["FalconForCausalLM"], "model_type": "falcon", "hidden_size": HIDDEN,
           "num_attention_heads": NH, "num_kv_heads": NKV, "num_hidden_layers": L, "new_decoder_architecture": True,
           "parallel_attn": True, "bias": False, "alibi": False, "multi_query": True, "layer_norm_epsilon": 1e-5,
           "max_position_embeddings": NCTX, "rope_theta": 50000.0, "rope_scaling": None, "vocab_size": VOCAB,
           "num_ln_in_parallel_attn": 2, "ffn_hidden_size": 4 * HIDDEN, "torch_dtype": "float32",
           "bos_token_id": 1, "eos_token_id": 2, "tie_word_embeddings": False}
    gt, qs, ks = [], [], []
    gt.append(("token_embd.weight", g.w("transformer.word_embeddings.weight", (VOCAB, HIDDEN))))
    for i in range(L):
        p = f"transformer.h.{i}."
        # tensor_mapping.py: ATTN_NORM <- transformer.h.{bid}.ln_mlp, ATTN_NORM_2 <- transformer.h.{bid}.ln_attn (falcon40b)
        gt.append((f"blk.{i}.attn_norm_2.weight", g.norm(p + "ln_attn.weight", HIDDEN)))
        gt.append((f"blk.{i}.attn_norm_2.bias", g.bias(p + "ln_attn.bias", HIDDEN)))
        gt.append((f"blk.{i}.attn_norm.weight", g.norm(p + "ln_mlp.weight", HIDDEN)))
        gt.append((f"blk.{i}.attn_norm.bias", g.bias(p + "ln_mlp.bias", HIDDEN)))
        qkv = g.w(p + "self_attention.query_key_value.weight", ((NH + 2 * NKV) * HD, HIDDEN))
        v4 = qkv.reshape(NKV, qpk + 2, HD, HD * NH)
        q = v4[:, :-2].reshape(NH * HD, HD * NH)
        k = v4[:, [-2]].reshape(NKV * HD, HD * NH)
        v = v4[:, [-1]].reshape(NKV * HD, HD * NH)
        qs.append(q); ks.append(k)
        gt.append((f"blk.{i}.attn_qkv.weight", np.concatenate([q, k, v]).reshape(qkv.shape)))
        gt.append((f"blk.{i}.attn_output.weight", g.w(p + "self_attention.dense.weight", (HIDDEN, HIDDEN))))
        gt.append((f"blk.{i}.ffn_up.weight", g.w(p + "mlp.dense_h_to_4h.weight", (4 * HIDDEN, HIDDEN))))
        gt.append((f"blk.{i}.ffn_down.weight", g.w(p + "mlp.dense_4h_to_h.weight", (HIDDEN, 4 * HIDDEN))))
    gt.append(("output_norm.weight", g.norm("transformer.ln_f.weight", HIDDEN)))
    gt.append(("output_norm.bias", g.bias("transformer.ln_f.bias", HIDDEN)))
    gt.append(("output.weight", g.w("lm_head.weight", (VOCAB, HIDDEN))))
    A = "falcon"
    kv = [(f"{A}.context_length", U32, 2048), (f"{A}.tensor_data_layout", STR, "jploski"),
          (f"{A}.embedding_length", U32, HIDDEN), (f"{A}.feed_forward_length", U32, 4 * HIDDEN),
          (f"{A}.block_count", U32, L), (f"{A}.attention.head_count", U32, NH),
          (f"{A}.attention.head_count_kv", U32, NKV), (f"{A}.attention.layer_norm_epsilon", VF32, 1e-5)]
    return dict(config=cfg, hf=g.items, gt=gt, kv=kv, q=qs, k=ks, L=L, permuted=False, pairs="half",
                rope_type="NEOX", rope_base_gguf=None, context_gguf=2048,
                fused="HF query_key_value rows grouped per kv group [q_a q_b k v] (view(n_kv, n_head/n_kv+2, hd, hidden)); "
                      "converter reorders to [all q | all k | all v] (tensor_data_layout jploski)",
                expect_extra={"note": "FalconModel writes context_length 2048 (hard-coded, 'not in config.json'), "
                              "feed_forward_length 4*hidden, and NO rope.freq_base (config rope_theta 50000 is lost; "
                              "llama.cpp default 10000)"})


def b_bloom(g):
    L = 2
    cfg = {"architectures": ["BloomForCausalLM"], "model_type": "bloom", "hidden_size": HIDDEN, "n_head": NH,
           "n_layer": L, "layer_norm_epsilon": 1e-5, "vocab_size": VOCAB, "apply_residual_connection_post_layernorm": False,
           "torch_dtype": "float32", "bos_token_id": 1, "eos_token_id": 2, "tie_word_embeddings": True}
    gt, qs, ks = [], [], []
    gt.append(("token_embd.weight", g.w("transformer.word_embeddings.weight", (VOCAB, HIDDEN))))
    gt.append(("token_embd_norm.weight", g.norm("transformer.word_embeddings_layernorm.weight", HIDDEN)))
    gt.append(("token_embd_norm.bias", g.bias("transformer.word_embeddings_layernorm.bias", HIDDEN)))
    for i in range(L):
        p = f"transformer.h.{i}."
        gt.append((f"blk.{i}.attn_norm.weight", g.norm(p + "input_layernorm.weight", HIDDEN)))
        gt.append((f"blk.{i}.attn_norm.bias", g.bias(p + "input_layernorm.bias", HIDDEN)))
        w = g.w(p + "self_attention.query_key_value.weight", (3 * HIDDEN, HIDDEN))
        b = g.bias(p + "self_attention.query_key_value.bias", 3 * HIDDEN)
        qw = w.reshape(NH, 3, HD, HIDDEN)
        qs.append(qw[:, 0].reshape(-1, HIDDEN)); ks.append(qw[:, 1].reshape(-1, HIDDEN))
        gt.append((f"blk.{i}.attn_qkv.weight", np.concatenate([qw[:, j].reshape(-1, HIDDEN) for j in range(3)])))
        qb = b.reshape(NH, 3, HD)
        gt.append((f"blk.{i}.attn_qkv.bias", np.concatenate([qb[:, j].reshape(HIDDEN) for j in range(3)])))
        gt.append((f"blk.{i}.attn_output.weight", g.w(p + "self_attention.dense.weight", (HIDDEN, HIDDEN))))
        gt.append((f"blk.{i}.attn_output.bias", g.bias(p + "self_attention.dense.bias", HIDDEN)))
        gt.append((f"blk.{i}.ffn_norm.weight", g.norm(p + "post_attention_layernorm.weight", HIDDEN)))
        gt.append((f"blk.{i}.ffn_norm.bias", g.bias(p + "post_attention_layernorm.bias", HIDDEN)))
        gt.append((f"blk.{i}.ffn_up.weight", g.w(p + "mlp.dense_h_to_4h.weight", (4 * HIDDEN, HIDDEN))))
        gt.append((f"blk.{i}.ffn_up.bias", g.bias(p + "mlp.dense_h_to_4h.bias", 4 * HIDDEN)))
        gt.append((f"blk.{i}.ffn_down.weight", g.w(p + "mlp.dense_4h_to_h.weight", (HIDDEN, 4 * HIDDEN))))
        gt.append((f"blk.{i}.ffn_down.bias", g.bias(p + "mlp.dense_4h_to_h.bias", HIDDEN)))
    gt.append(("output_norm.weight", g.norm("transformer.ln_f.weight", HIDDEN)))
    gt.append(("output_norm.bias", g.bias("transformer.ln_f.bias", HIDDEN)))
    A = "bloom"
    kv = [(f"{A}.context_length", U32, HIDDEN), (f"{A}.embedding_length", U32, HIDDEN),
          (f"{A}.feed_forward_length", U32, 4 * HIDDEN), (f"{A}.block_count", U32, L),
          (f"{A}.attention.head_count", U32, NH), (f"{A}.attention.head_count_kv", U32, NH),
          (f"{A}.attention.layer_norm_epsilon", VF32, 1e-5)]
    return dict(config=cfg, hf=g.items, gt=gt, kv=kv, q=qs, k=ks, L=L, permuted=False, pairs=None,
                rope_type="NONE", n_head_kv_rope=NH, context_gguf=HIDDEN,
                fused="HF query_key_value rows per head [q_h k_h v_h] (reshape(n_head, 3, hd, hidden)); "
                      "converter reorders to [all q | all k | all v]",
                expect_extra={"note": "BloomModel writes context_length = seq_length if present else hidden_size "
                              "(64 here: config has no seq_length); ALiBi, no RoPE"})


def b_gpt2(g):
    L = 2
    cfg = {"architectures": ["GPT2LMHeadModel"], "model_type": "gpt2", "n_embd": HIDDEN, "n_head": NH, "n_layer": L,
           "n_ctx": NCTX, "n_positions": NCTX, "n_inner": None, "layer_norm_epsilon": 1e-5, "vocab_size": VOCAB,
           "activation_function": "gelu_new", "torch_dtype": "float32", "bos_token_id": 1, "eos_token_id": 2,
           "tie_word_embeddings": True}
    gt, qs, ks = [], [], []
    gt.append(("token_embd.weight", g.w("transformer.wte.weight", (VOCAB, HIDDEN))))
    gt.append(("position_embd.weight", g.w("transformer.wpe.weight", (NCTX, HIDDEN))))
    for i in range(L):
        p = f"transformer.h.{i}."
        gt.append((f"blk.{i}.attn_norm.weight", g.norm(p + "ln_1.weight", HIDDEN)))
        gt.append((f"blk.{i}.attn_norm.bias", g.bias(p + "ln_1.bias", HIDDEN)))
        # Conv1D: weight shape (in, out); converter transposes c_attn / c_proj / c_fc
        ca = g.w(p + "attn.c_attn.weight", (3 * HIDDEN, HIDDEN)).T.copy()    # stored (in, out)
        g.items[-1] = (p + "attn.c_attn.weight", ca)
        cab = g.bias(p + "attn.c_attn.bias", 3 * HIDDEN)
        qs.append(ca.T[:HIDDEN]); ks.append(ca.T[HIDDEN:2 * HIDDEN])
        gt.append((f"blk.{i}.attn_qkv.weight", ca.T.copy()))
        gt.append((f"blk.{i}.attn_qkv.bias", cab))
        cp = g.w(p + "attn.c_proj.weight", (HIDDEN, HIDDEN)).T.copy(); g.items[-1] = (p + "attn.c_proj.weight", cp)
        gt.append((f"blk.{i}.attn_output.weight", cp.T.copy()))
        gt.append((f"blk.{i}.attn_output.bias", g.bias(p + "attn.c_proj.bias", HIDDEN)))
        gt.append((f"blk.{i}.ffn_norm.weight", g.norm(p + "ln_2.weight", HIDDEN)))
        gt.append((f"blk.{i}.ffn_norm.bias", g.bias(p + "ln_2.bias", HIDDEN)))
        fc = g.w(p + "mlp.c_fc.weight", (4 * HIDDEN, HIDDEN)).T.copy(); g.items[-1] = (p + "mlp.c_fc.weight", fc)
        gt.append((f"blk.{i}.ffn_up.weight", fc.T.copy()))
        gt.append((f"blk.{i}.ffn_up.bias", g.bias(p + "mlp.c_fc.bias", 4 * HIDDEN)))
        fp = g.w(p + "mlp.c_proj.weight", (HIDDEN, 4 * HIDDEN)).T.copy(); g.items[-1] = (p + "mlp.c_proj.weight", fp)
        gt.append((f"blk.{i}.ffn_down.weight", fp.T.copy()))
        gt.append((f"blk.{i}.ffn_down.bias", g.bias(p + "mlp.c_proj.bias", HIDDEN)))
    gt.append(("output_norm.weight", g.norm("transformer.ln_f.weight", HIDDEN)))
    gt.append(("output_norm.bias", g.bias("transformer.ln_f.bias", HIDDEN)))
    A = "gpt2"
    kv = [(f"{A}.block_count", U32, L), (f"{A}.context_length", U32, NCTX), (f"{A}.embedding_length", U32, HIDDEN),
          (f"{A}.feed_forward_length", U32, 4 * HIDDEN), (f"{A}.attention.head_count", U32, NH),
          (f"{A}.attention.layer_norm_epsilon", VF32, 1e-5)]
    return dict(config=cfg, hf=g.items, gt=gt, kv=kv, q=qs, k=ks, L=L, permuted=False, pairs=None,
                rope_type="NONE", n_head_kv_rope=NH,
                fused="HF Conv1D c_attn weight is (in=64, out=192) = [q|k|v] columns; converter transposes to "
                      "(192, 64) -> attn_qkv rows [q | k | v]",
                expect_extra={"note": "GPT2Model writes no head_count_kv and feed_forward_length = 4*n_embd; "
                              "learned positions (position_embd, kept F32), no RoPE"})


def b_gpt_oss(g):
    """GptOssModel (conversion/gpt_oss.py) on TextModel.set_gguf_parameters (conversion/base.py).
    Experts are given as plain float32 tensors (the converter's non-MXFP4 path), not MXFP4 blocks."""
    L, NE, NUSED = 2, 4, 2
    rs = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32, "beta_fast": 32.0,
          "beta_slow": 1.0, "truncate": False}
    cfg = {"architectures": ["GptOssForCausalLM"], "model_type": "gpt_oss", "hidden_size": HIDDEN,
           "intermediate_size": FFN, "num_attention_heads": NH, "num_key_value_heads": NKV, "head_dim": HD,
           "num_hidden_layers": L, "max_position_embeddings": NCTX, "initial_context_length": 32,
           "rms_norm_eps": 1e-5, "rope_theta": 150000.0, "rope_scaling": rs, "sliding_window": 32,
           "layer_types": ["sliding_attention", "full_attention"], "num_local_experts": NE,
           "num_experts_per_tok": NUSED, "attention_bias": True, "swiglu_limit": 7.0, "vocab_size": VOCAB,
           "tie_word_embeddings": False, "torch_dtype": "float32", "hidden_act": "silu",
           "router_aux_loss_coef": 0.9, "output_router_logits": False, "bos_token_id": 1, "eos_token_id": 2}
    gt, qs, ks = [], [], []
    gt.append(("token_embd.weight", g.w("model.embed_tokens.weight", (VOCAB, HIDDEN))))
    for i in range(L):
        p = f"model.layers.{i}."
        gt.append((f"blk.{i}.attn_norm.weight", g.norm(p + "input_layernorm.weight", HIDDEN)))
        q = g.w(p + "self_attn.q_proj.weight", (NH * HD, HIDDEN))
        qb = g.bias(p + "self_attn.q_proj.bias", NH * HD)
        k = g.w(p + "self_attn.k_proj.weight", (NKV * HD, HIDDEN))
        kb = g.bias(p + "self_attn.k_proj.bias", NKV * HD)
        v = g.w(p + "self_attn.v_proj.weight", (NKV * HD, HIDDEN))
        vb = g.bias(p + "self_attn.v_proj.bias", NKV * HD)
        o = g.w(p + "self_attn.o_proj.weight", (HIDDEN, NH * HD))
        ob = g.bias(p + "self_attn.o_proj.bias", HIDDEN)
        sinks = g.bias(p + "self_attn.sinks", NH)
        qs.append(q); ks.append(k)
        gt += [(f"blk.{i}.attn_q.weight", q), (f"blk.{i}.attn_q.bias", qb),
               (f"blk.{i}.attn_k.weight", k), (f"blk.{i}.attn_k.bias", kb),
               (f"blk.{i}.attn_v.weight", v), (f"blk.{i}.attn_v.bias", vb),
               (f"blk.{i}.attn_output.weight", o), (f"blk.{i}.attn_output.bias", ob),
               (f"blk.{i}.attn_sinks.weight", sinks)]
        # GPT_OSS has ATTN_POST_NORM (not FFN_NORM): post_attention_layernorm -> post_attention_norm
        gt.append((f"blk.{i}.post_attention_norm.weight", g.norm(p + "post_attention_layernorm.weight", HIDDEN)))
        gt.append((f"blk.{i}.ffn_gate_inp.weight", g.w(p + "mlp.router.weight", (NE, HIDDEN))))
        gt.append((f"blk.{i}.ffn_gate_inp.bias", g.bias(p + "mlp.router.bias", NE)))
        # HF GptOssExperts: gate_up_proj (E, hidden, 2*ff) with gate/up INTERLEAVED on the last axis,
        # down_proj (E, ff, hidden). Converter: transpose(-1,-2), gate = [:, ::2, :], up = [:, 1::2, :].
        gu = g.w(p + "mlp.experts.gate_up_proj", (NE, HIDDEN, 2 * FFN))
        gub = (0.02 * g.rng.standard_normal((NE, 2 * FFN))).astype(np.float32)
        g.items.append((p + "mlp.experts.gate_up_proj_bias", gub))
        dn = g.w(p + "mlp.experts.down_proj", (NE, FFN, HIDDEN))
        dnb = (0.02 * g.rng.standard_normal((NE, HIDDEN))).astype(np.float32)
        g.items.append((p + "mlp.experts.down_proj_bias", dnb))
        gut = np.ascontiguousarray(gu.transpose(0, 2, 1))
        gt += [(f"blk.{i}.ffn_gate_exps.weight", np.ascontiguousarray(gut[:, ::2, :])),
               (f"blk.{i}.ffn_up_exps.weight", np.ascontiguousarray(gut[:, 1::2, :])),
               (f"blk.{i}.ffn_gate_exps.bias", np.ascontiguousarray(gub[..., ::2])),
               (f"blk.{i}.ffn_up_exps.bias", np.ascontiguousarray(gub[..., 1::2])),
               (f"blk.{i}.ffn_down_exps.weight", np.ascontiguousarray(dn.transpose(0, 2, 1))),
               (f"blk.{i}.ffn_down_exps.bias", dnb)]
    gt.append(("output_norm.weight", g.norm("model.norm.weight", HIDDEN)))
    gt.append(("output.weight", g.w("lm_head.weight", (VOCAB, HIDDEN))))
    A = "gpt-oss"
    # base.py order, then GptOssModel's additions; its second add_expert_count/add_expert_used_count
    # re-set the same keys with the same values (gguf-py keeps one entry per key).
    kv = [(f"{A}.block_count", U32, L), (f"{A}.context_length", U32, NCTX), (f"{A}.embedding_length", U32, HIDDEN),
          (f"{A}.feed_forward_length", U32, FFN), (f"{A}.attention.head_count", U32, NH),
          (f"{A}.attention.head_count_kv", U32, NKV),
          (f"{A}.rope.scaling.type", STR, "yarn"), (f"{A}.rope.scaling.factor", VF32, 4.0),
          (f"{A}.rope.scaling.original_context_length", U32, 32),
          (f"{A}.rope.scaling.yarn_beta_fast", VF32, 32.0), (f"{A}.rope.scaling.yarn_beta_slow", VF32, 1.0),
          (f"{A}.rope.freq_base", VF32, 150000.0), (f"{A}.attention.layer_norm_rms_epsilon", VF32, 1e-5),
          (f"{A}.expert_count", U32, NE), (f"{A}.expert_used_count", U32, NUSED),
          (f"{A}.attention.key_length", U32, HD), (f"{A}.attention.value_length", U32, HD),
          (f"{A}.attention.sliding_window", U32, 32), (f"{A}.expert_feed_forward_length", U32, FFN)]
    return dict(config=cfg, hf=g.items, gt=gt, kv=kv, q=qs, k=ks, L=L, permuted=False, pairs="half",
                rope_type="NEOX",
                expect_extra={"note": "GptOssModel: q/k/v/o (with biases) copied unchanged (no permutation); "
                              "self_attn.sinks -> attn_sinks.weight (F32, one per head); post_attention_layernorm -> "
                              "post_attention_norm (GPT_OSS has ATTN_POST_NORM, no FFN_NORM); experts given as float32 "
                              "(the converter's non-MXFP4 path): gate_up_proj (E, hidden, 2ff) is transposed and split "
                              "INTERLEAVED (gate = rows 0,2,4.., up = rows 1,3,5..), down_proj transposed; yarn "
                              "rope_scaling -> rope.scaling.type/factor/original_context_length/yarn_beta_fast/"
                              "yarn_beta_slow (no yarn_log_multiplier, no attn_factor: config has none); layer_types "
                              "is NOT written (only attention.sliding_window); feed_forward_length = "
                              "expert_feed_forward_length = intermediate_size",
                              "hf_layer_types": cfg["layer_types"]})


def b_olmo2(g):
    """Olmo2Model (conversion/olmo.py): TextModel.set_gguf_parameters only (config has no sliding_window
    and no rope_scaling), no tensor changes."""
    L = 2
    cfg = {"architectures": ["Olmo2ForCausalLM"], "model_type": "olmo2", "hidden_size": HIDDEN,
           "intermediate_size": FFN, "num_attention_heads": NH, "num_key_value_heads": NKV,
           "num_hidden_layers": L, "max_position_embeddings": NCTX, "rms_norm_eps": 1e-6,
           "rope_theta": 500000.0, "rope_scaling": None, "attention_bias": False, "attention_dropout": 0.0,
           "vocab_size": VOCAB, "tie_word_embeddings": False, "torch_dtype": "float32", "hidden_act": "silu",
           "pad_token_id": 0, "bos_token_id": 1, "eos_token_id": 2}
    gt, qs, ks = [], [], []
    gt.append(("token_embd.weight", g.w("model.embed_tokens.weight", (VOCAB, HIDDEN))))
    for i in range(L):
        p = f"model.layers.{i}."
        q = g.w(p + "self_attn.q_proj.weight", (NH * HD, HIDDEN))
        k = g.w(p + "self_attn.k_proj.weight", (NKV * HD, HIDDEN))
        v = g.w(p + "self_attn.v_proj.weight", (NKV * HD, HIDDEN))
        o = g.w(p + "self_attn.o_proj.weight", (HIDDEN, NH * HD))
        # OLMo2's q_norm / k_norm are RMSNorms over the WHOLE projection (NH*HD = 64, NKV*HD = 32), not per head
        qn = g.norm(p + "self_attn.q_norm.weight", NH * HD)
        kn = g.norm(p + "self_attn.k_norm.weight", NKV * HD)
        qs.append(q); ks.append(k)
        gt += [(f"blk.{i}.attn_q.weight", q), (f"blk.{i}.attn_k.weight", k), (f"blk.{i}.attn_v.weight", v),
               (f"blk.{i}.attn_output.weight", o), (f"blk.{i}.attn_q_norm.weight", qn),
               (f"blk.{i}.attn_k_norm.weight", kn)]
        gt.append((f"blk.{i}.post_attention_norm.weight", g.norm(p + "post_attention_layernorm.weight", HIDDEN)))
        gt += [(f"blk.{i}.ffn_gate.weight", g.w(p + "mlp.gate_proj.weight", (FFN, HIDDEN))),
               (f"blk.{i}.ffn_up.weight", g.w(p + "mlp.up_proj.weight", (FFN, HIDDEN))),
               (f"blk.{i}.ffn_down.weight", g.w(p + "mlp.down_proj.weight", (HIDDEN, FFN)))]
        gt.append((f"blk.{i}.post_ffw_norm.weight", g.norm(p + "post_feedforward_layernorm.weight", HIDDEN)))
    gt.append(("output_norm.weight", g.norm("model.norm.weight", HIDDEN)))
    gt.append(("output.weight", g.w("lm_head.weight", (VOCAB, HIDDEN))))
    A = "olmo2"
    kv = [(f"{A}.block_count", U32, L), (f"{A}.context_length", U32, NCTX), (f"{A}.embedding_length", U32, HIDDEN),
          (f"{A}.feed_forward_length", U32, FFN), (f"{A}.attention.head_count", U32, NH),
          (f"{A}.attention.head_count_kv", U32, NKV), (f"{A}.rope.freq_base", VF32, 500000.0),
          (f"{A}.attention.layer_norm_rms_epsilon", VF32, 1e-6)]
    return dict(config=cfg, hf=g.items, gt=gt, kv=kv, q=qs, k=ks, L=L, permuted=False, pairs="half",
                rope_type="NEOX",
                expect_extra={"note": "Olmo2Model: q/k NOT permuted (unlike OlmoModel for OLMo 1, which permutes); "
                              "no attn_norm / ffn_norm: the norms come after the blocks (post_attention_norm, "
                              "post_ffw_norm); attn_q_norm / attn_k_norm have NH*HD = 64 / NKV*HD = 32 elements "
                              "(whole projection, not per head); no key_length (config has no head_dim), no "
                              "rope.dimension_count, no sliding_window keys (config has no sliding_window)"})


def b_mpt(g):
    """MPTModel (conversion/mpt.py): own set_gguf_parameters (does not call the base)."""
    L = 2
    cfg = {"architectures": ["MPTForCausalLM"], "model_type": "mpt", "d_model": HIDDEN, "n_heads": NH,
           "n_layers": L, "max_seq_len": NCTX, "expansion_ratio": 4, "vocab_size": VOCAB, "no_bias": True,
           "learned_pos_emb": True, "norm_type": "low_precision_layernorm", "layer_norm_epsilon": 1e-5,
           "emb_pdrop": 0.0, "resid_pdrop": 0.0, "embedding_fraction": 1.0, "logit_scale": None,
           "attn_config": {"alibi": True, "alibi_bias_max": 8, "attn_impl": "torch", "attn_pdrop": 0.0,
                           "attn_type": "multihead_attention", "attn_uses_sequence_id": False, "clip_qkv": None,
                           "prefix_lm": False, "qk_ln": False, "softmax_scale": None},
           "torch_dtype": "float32", "use_cache": False, "bos_token_id": 1, "eos_token_id": 2}
    gt, qs, ks = [], [], []
    gt.append(("token_embd.weight", g.w("transformer.wte.weight", (VOCAB, HIDDEN))))
    for i in range(L):
        p = f"transformer.blocks.{i}."
        gt.append((f"blk.{i}.attn_norm.weight", g.norm(p + "norm_1.weight", HIDDEN)))
        qkv = g.w(p + "attn.Wqkv.weight", (3 * HIDDEN, HIDDEN))
        qs.append(qkv[:HIDDEN]); ks.append(qkv[HIDDEN:2 * HIDDEN])
        gt.append((f"blk.{i}.attn_qkv.weight", qkv))
        gt.append((f"blk.{i}.attn_output.weight", g.w(p + "attn.out_proj.weight", (HIDDEN, HIDDEN))))
        gt.append((f"blk.{i}.ffn_norm.weight", g.norm(p + "norm_2.weight", HIDDEN)))
        gt.append((f"blk.{i}.ffn_up.weight", g.w(p + "ffn.up_proj.weight", (4 * HIDDEN, HIDDEN))))
        gt.append((f"blk.{i}.ffn_down.weight", g.w(p + "ffn.down_proj.weight", (HIDDEN, 4 * HIDDEN))))
    gt.append(("output_norm.weight", g.norm("transformer.norm_f.weight", HIDDEN)))
    A = "mpt"
    kv = [(f"{A}.context_length", U32, NCTX), (f"{A}.embedding_length", U32, HIDDEN), (f"{A}.block_count", U32, L),
          (f"{A}.feed_forward_length", U32, 4 * HIDDEN), (f"{A}.attention.head_count", U32, NH),
          (f"{A}.attention.layer_norm_epsilon", VF32, 1e-5), (f"{A}.attention.max_alibi_bias", VF32, 8.0)]
    return dict(config=cfg, hf=g.items, gt=gt, kv=kv, q=qs, k=ks, L=L, permuted=False, pairs=None,
                rope_type="NONE", n_head_kv_rope=NH, context_hf=NCTX, no_file_type=True,
                fused="HF attn.Wqkv rows [q(64) | k(64) | v(64)]; copied unchanged to attn_qkv",
                expect_extra={"note": "MPTModel.set_gguf_parameters does not call the base and never calls "
                              "add_file_type: the GGUF has NO general.file_type; no head_count_kv (attn_config "
                              "has no kv_n_heads); feed_forward_length = 4*d_model and layer_norm_epsilon = 1e-5 are "
                              "hard-coded; max_alibi_bias = attn_config.alibi_bias_max; no lm_head and no "
                              "output.weight (tied to wte); ALiBi, no RoPE",
                              "general_file_type_written": False})


def b_starcoder2(g):
    """StarCoder2Model (conversion/starcoder.py): only model_arch; TextModel defaults throughout."""
    L = 2
    cfg = {"architectures": ["Starcoder2ForCausalLM"], "model_type": "starcoder2", "hidden_size": HIDDEN,
           "intermediate_size": FFN, "num_attention_heads": NH, "num_key_value_heads": NKV,
           "num_hidden_layers": L, "max_position_embeddings": NCTX, "norm_epsilon": 1e-5, "rope_theta": 100000.0,
           "rope_scaling": None, "sliding_window": 64, "use_bias": True, "hidden_act": "gelu_pytorch_tanh",
           "attention_dropout": 0.0, "residual_dropout": 0.0, "embedding_dropout": 0.0, "vocab_size": VOCAB,
           "tie_word_embeddings": True, "torch_dtype": "float32", "bos_token_id": 1, "eos_token_id": 2}
    gt, qs, ks = [], [], []
    gt.append(("token_embd.weight", g.w("model.embed_tokens.weight", (VOCAB, HIDDEN))))
    for i in range(L):
        p = f"model.layers.{i}."
        gt.append((f"blk.{i}.attn_norm.weight", g.norm(p + "input_layernorm.weight", HIDDEN)))
        gt.append((f"blk.{i}.attn_norm.bias", g.bias(p + "input_layernorm.bias", HIDDEN)))
        for nm, gn, rows in (("q_proj", "attn_q", NH * HD), ("k_proj", "attn_k", NKV * HD), ("v_proj", "attn_v", NKV * HD)):
            w = g.w(p + f"self_attn.{nm}.weight", (rows, HIDDEN))
            b = g.bias(p + f"self_attn.{nm}.bias", rows)
            if nm == "q_proj":
                qs.append(w)
            elif nm == "k_proj":
                ks.append(w)
            gt += [(f"blk.{i}.{gn}.weight", w), (f"blk.{i}.{gn}.bias", b)]
        gt.append((f"blk.{i}.attn_output.weight", g.w(p + "self_attn.o_proj.weight", (HIDDEN, NH * HD))))
        gt.append((f"blk.{i}.attn_output.bias", g.bias(p + "self_attn.o_proj.bias", HIDDEN)))
        gt.append((f"blk.{i}.ffn_norm.weight", g.norm(p + "post_attention_layernorm.weight", HIDDEN)))
        gt.append((f"blk.{i}.ffn_norm.bias", g.bias(p + "post_attention_layernorm.bias", HIDDEN)))
        gt.append((f"blk.{i}.ffn_up.weight", g.w(p + "mlp.c_fc.weight", (FFN, HIDDEN))))
        gt.append((f"blk.{i}.ffn_up.bias", g.bias(p + "mlp.c_fc.bias", FFN)))
        gt.append((f"blk.{i}.ffn_down.weight", g.w(p + "mlp.c_proj.weight", (HIDDEN, FFN))))
        gt.append((f"blk.{i}.ffn_down.bias", g.bias(p + "mlp.c_proj.bias", HIDDEN)))
    gt.append(("output_norm.weight", g.norm("model.norm.weight", HIDDEN)))
    gt.append(("output_norm.bias", g.bias("model.norm.bias", HIDDEN)))
    A = "starcoder2"
    kv = [(f"{A}.block_count", U32, L), (f"{A}.context_length", U32, NCTX), (f"{A}.embedding_length", U32, HIDDEN),
          (f"{A}.feed_forward_length", U32, FFN), (f"{A}.attention.head_count", U32, NH),
          (f"{A}.attention.head_count_kv", U32, NKV), (f"{A}.rope.freq_base", VF32, 100000.0),
          (f"{A}.attention.layer_norm_epsilon", VF32, 1e-5)]
    return dict(config=cfg, hf=g.items, gt=gt, kv=kv, q=qs, k=ks, L=L, permuted=False, pairs="half",
                rope_type="NEOX",
                expect_extra={"note": "StarCoder2Model has no code of its own: TextModel defaults. q/k not "
                              "permuted; LayerNorm (weight+bias) eps from norm_epsilon -> attention.layer_norm_epsilon; "
                              "sliding_window (64) is NOT written; tied embeddings: no output.weight; no key_length, "
                              "no rope.dimension_count"})


BUILDERS = {"llama": b_llama, "mistral": b_mistral, "qwen2": b_qwen2, "qwen3": b_qwen3, "gemma2": b_gemma2,
            "gemma3": b_gemma3, "phi3": b_phi3, "deepseek2": b_deepseek2, "smollm3": b_smollm3,
            "falcon": b_falcon, "bloom": b_bloom, "gpt2": b_gpt2, "gpt-oss": b_gpt_oss, "olmo2": b_olmo2,
            "mpt": b_mpt, "starcoder2": b_starcoder2}
GGUF_ARCH = {"llama": "llama", "mistral": "llama", "qwen2": "qwen2", "qwen3": "qwen3", "gemma2": "gemma2",
             "gemma3": "gemma3", "phi3": "phi3", "deepseek2": "deepseek2", "smollm3": "smollm3",
             "falcon": "falcon", "bloom": "bloom", "gpt2": "gpt2", "gpt-oss": "gpt-oss", "olmo2": "olmo2",
             "mpt": "mpt", "starcoder2": "starcoder2"}
NOT_DONE = []

# --------------------------------------------------------------------------- conversion

F32_ALWAYS = ("ffn_gate_inp.weight", "position_embd.weight")


def out_type(name, arr, ftype):
    """base.py prepare_tensors: n_dims <= 1 or *_norm.weight -> F32; FFN_GATE_INP, POS_EMBD ... -> F32;
    names not ending in .weight -> F32; else the file type."""
    if arr.ndim <= 1 or name.endswith("_norm.weight") or name.endswith(F32_ALWAYS) or not name.endswith(".weight"):
        return "F32"
    if ftype == "F32":
        return "F32"
    if ftype == "Q8_0":
        return "Q8_0" if arr.shape[-1] % 32 == 0 else "F16"      # QuantError -> F16 fallback
    if ftype == "Q4_K":
        if arr.shape[-1] % 256 == 0:
            return "Q4_K"
        return "Q5_0" if arr.shape[-1] % 32 == 0 else "F16"
    raise ValueError(ftype)


FILE_TYPE = {"F32": 0, "Q8_0": 7, "Q4_K": 15}


def build_gguf(arch, d, ftype):
    A = GGUF_ARCH[arch]
    w = GGUFWriter(version=3)
    w.add("general.architecture", STR, A)
    w.add("general.type", STR, "model")
    w.add("general.name", STR, f"tiny-{arch}")
    for k, t, v in d["kv"]:
        w.add(k, t, v)
    if not d.get("no_file_type"):      # MPTModel never calls add_file_type
        w.add(f"general.file_type", U32, FILE_TYPE[ftype])
    w.add("general.quantization_version", U32, 2)
    w.add("tokenizer.ggml.model", STR, "gpt2")
    w.add("tokenizer.ggml.tokens", ARR, [f"<t{i}>" for i in range(VOCAB)], elem=STR)
    w.add("tokenizer.ggml.token_type", ARR, [1] * VOCAB, elem=I32)
    vals = {}
    for name, arr in d["gt"]:
        arr = np.ascontiguousarray(arr, np.float32)
        t = out_type(name, arr, ftype)
        raw = quantize(t, arr)
        ne = tuple(reversed(arr.shape))
        w.add_tensor(name, ne, t, raw)
        vals[name] = dequantize(t, raw, arr.size).reshape(arr.shape)
    return w, vals


# --------------------------------------------------------------------------- expectations

def pair_sums(rows, n_heads, hd, pairs):
    """rows: (n_heads*hd, in) float32 -> [[sum of squares of pair i of head h]]"""
    r = rows.astype(np.float64)
    ss = (r * r).sum(axis=1)
    out = []
    for h in range(n_heads):
        s = ss[h * hd:(h + 1) * hd]
        if pairs == "half":
            out.append([float(s[i] + s[i + hd // 2]) for i in range(hd // 2)])
        elif pairs == "interleaved":
            out.append([float(s[2 * i] + s[2 * i + 1]) for i in range(hd // 2)])
        else:
            out.append([float(s.sum())])
    return out


def gguf_qk_rows(arch, d, vals, layer):
    """the q and k rows as stored in the GGUF (HF head order, GGUF row order within a head)"""
    p = f"blk.{layer}."
    if arch == "phi3":
        qkv = vals[p + "attn_qkv.weight"]
        return qkv[:NH * HD], qkv[NH * HD:NH * HD + NKV * HD]
    if arch in ("falcon", "bloom", "gpt2", "mpt"):
        qkv = vals[p + "attn_qkv.weight"]
        nkv = NKV if arch == "falcon" else NH
        return qkv[:NH * HD], qkv[NH * HD:NH * HD + nkv * HD]
    if arch == "deepseek2":
        q = vals[p + "attn_q.weight"]
        qr = np.concatenate([q[h * 24 + 16:(h + 1) * 24] for h in range(NH)])
        return qr, vals[p + "attn_kv_a_mqa.weight"][32:40]
    return vals[p + "attn_q.weight"], vals[p + "attn_k.weight"]


def expectations(arch, d):
    hd = d.get("head_dim_rope", HD)
    nkv = d.get("n_head_kv_rope", NKV)
    pairs = d["pairs"]
    layers = []
    for i in range(d["L"]):
        layers.append({"layer": i, "q": pair_sums(d["q"][i], NH, hd, pairs), "k": pair_sums(d["k"][i], nkv, hd, pairs)})
    cfg = d["config"]
    kvd = {k: v for k, t, v in d["kv"]}
    A = GGUF_ARCH[arch]
    e = {
        "hf_model_type": cfg["model_type"], "hf_architecture": cfg["architectures"][0],
        "architecture": A, "layers": d["L"], "heads": NH,
        "kv_heads": kvd.get(f"{A}.attention.head_count_kv", NH),
        "kv_heads_rope": nkv,
        "head_dim": HD if arch != "deepseek2" else 24,
        "rotary_dims": hd if d["rope_type"] != "NONE" else 0,
        "rope_base_gguf": kvd.get(f"{A}.rope.freq_base"),
        "rope_base_hf": cfg.get("rope_theta"),
        "context_length_gguf": kvd.get(f"{A}.context_length"),
        "context_length_hf": d["context_hf"] if "context_hf" in d else cfg.get("max_position_embeddings", cfg.get("n_ctx")),
        "converter_permuted_qk": d["permuted"],
        "rope_type": d["rope_type"],
        "rope_type_source": f"llama_model_rope_type() in src/llama-model.cpp of ggml-org/llama.cpp @ {LLAMA_MODEL_CPP_COMMIT}",
        "hf_pair_convention": pairs,
        "gguf_pair_convention": None if pairs is None else ("interleaved" if d["rope_type"] == "NORM" else "half"),
        "fused": d.get("fused"),
        "pair_sumsq": layers,
        "pair_sumsq_doc": ("for each layer, head and rotary pair i: sum over input columns of q (k) weight^2 of the two rows of "
                           "the pair, HF order (pair i = HF rows i, i+d/2 for 'half'; 2i, 2i+1 for 'interleaved'); computed "
                           "in float64 from the HF float32 values. Rope-less archs (pairs null): one number per head = "
                           "sum of squares of all its rows."),
        "gguf_kv": {k: (float(np.float32(v)) if t == VF32 else v) for k, t, v in d["kv"]},
    }
    e.update(d.get("expect_extra", {}))
    return e


def check_gguf_against_hf(arch, d, vals, exp, tol):
    """Self-check: the sums computed from the GGUF side (undoing nothing but using the GGUF pair
    convention) equal the HF-side numbers. tol 0 for F32."""
    gp = exp["gguf_pair_convention"]
    hd = d.get("head_dim_rope", HD)
    nkv = d.get("n_head_kv_rope", NKV)
    worst = 0.0
    per = []
    for i in range(d["L"]):
        q, k = gguf_qk_rows(arch, d, vals, i)
        qs, ks = pair_sums(q, NH, hd, gp), pair_sums(k, nkv, hd, gp)
        per.append({"layer": i, "q": qs, "k": ks})
        for a, b in ((qs, exp["pair_sumsq"][i]["q"]), (ks, exp["pair_sumsq"][i]["k"])):
            for x, y in zip(np.ravel(a), np.ravel(b)):
                worst = max(worst, abs(x - y) / max(abs(y), 1e-30))
    assert worst <= tol, (arch, worst, tol)
    return per, worst


def make(outdir, archs):
    manifest = {}
    for arch in archs:
        g = Gen(arch)
        d = BUILDERS[arch](g)
        ad = os.path.join(outdir, arch)
        os.makedirs(os.path.join(ad, "hf"), exist_ok=True)
        cfg = dict(d["config"])
        cfg["transformers_version"] = "4.46.0"
        with open(os.path.join(ad, "hf", "config.json"), "w") as f:
            json.dump(cfg, f, indent=2)
        write_safetensors(os.path.join(ad, "hf", "model.safetensors"), d["hf"])
        # round-trip check of our safetensors writer
        back = read_safetensors(os.path.join(ad, "hf", "model.safetensors"))
        assert all(np.array_equal(back[n], a) for n, a in d["hf"])
        exp = expectations(arch, d)
        exp["files"] = {}
        for ftype in ("F32", "Q8_0", "Q4_K"):
            w, vals = build_gguf(arch, d, ftype)
            fn = f"model-{ftype}.gguf"
            w.write(os.path.join(ad, fn))
            per, worst = check_gguf_against_hf(arch, d, vals, exp, 1e-12 if ftype == "F32" else (0.02 if ftype == "Q8_0" else 0.3))
            exp["files"][fn] = {
                "tensor_types": {t.name: t.type_name for t in w.tensors},
                "pair_sumsq_from_dequantized": per,
                "max_rel_diff_vs_hf": worst,
            }
            manifest[f"{arch}/{fn}"] = w.describe()
        with open(os.path.join(ad, "EXPECT.json"), "w") as f:
            json.dump(exp, f, indent=1)
    with open(os.path.join(outdir, "MANIFEST.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    return manifest


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__)
        sys.exit(2)
    archs = sys.argv[2:] or list(BUILDERS)
    m = make(sys.argv[1], archs)
    print(f"wrote {len(m)} GGUF files for {len(archs)} architectures to {sys.argv[1]}"
          + (f" (not covered: {', '.join(NOT_DONE)})" if NOT_DONE else ""))
