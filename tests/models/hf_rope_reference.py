#!/usr/bin/env python3
"""Independent float64 reference for Hugging Face transformers' RoPE handling.

Written from reading huggingface/transformers at upstream main commit
    c49429ed1f8b89749de77c0ec930ef19685c9ae5  (2026-08-16, version 5.16.0.dev0)
abbreviated below as "@c49429e".  The commit was read from a fork snapshot
(8b-is/transformers) that merges upstream main; that commit object is an
upstream one (author/PR "#46658", committed by GitHub).  No PE Lab code was read.

Files read (all @c49429e):
  src/transformers/modeling_rope_utils.py            (init functions, RotaryEmbeddingConfigMixin)
  src/transformers/configuration_utils.py            (__post_init__ order, get_text_config)
  src/transformers/models/<family>/configuration_<family>.py and modeling_<family>.py
  tests/utils/test_modeling_rope_utils.py            (numeric snapshots used in the self-test)
  tests/models/deepseek_v2/test_modeling_deepseek_v2.py (attention-scaling expectations)
Second pass (see hf_rope_reference.md section 6): qwen3_moe, qwen2_vl, qwen2_5_vl, qwen3_vl, qwen3_5_moe,
ministral3/mistral3, deepseek_v2, deepseek_v32, glm_moe_dsa, falcon, lfm2, mimo_v2_flash, minimax_m2, nemotron_h,
olmo3, phi, mpt; plus Microsoft's mixformer-sequential remote code (gmadiyar00/tapssp-project phi-2/ @4df723a).
kimi_k2 is not ported (no transformers class, remote code not found).

Only numpy is used; everything is float64 (transformers computes in float32, so
expect ~1e-7 relative differences against real transformers output).

Public API
  standardize(config)                       -> {layer_type or "all": params dict or None}
  inv_freq(config, layer_type=None, seq_len=None, include_nope=False) -> (np.ndarray, attention_factor)
  layer_schedule(config)                    -> list of per-layer dicts
  pairing(config)                           -> "half-split" | "interleaved"
  rotary_dims(config, layer_type=None)      -> int
"""
from __future__ import annotations

import copy
import math
from typing import Any

import numpy as np

HF_COMMIT = "c49429ed1f8b89749de77c0ec930ef19685c9ae5"
HF_VERSION = "5.16.0.dev0"

# --------------------------------------------------------------------------------------
# A tiny attribute bag standing in for PreTrainedConfig
# --------------------------------------------------------------------------------------


class _Cfg:
    default_theta: Any = 10_000.0  # RotaryEmbeddingConfigMixin.default_theta (modeling_rope_utils.py @c49429e)

    def __init__(self):
        self._per_layer = {}  # gemma4 per_layer_config overrides {layer_idx: {attr: value}}

    def get(self, k, d=None):
        return getattr(self, k, d)


_SENTINEL = object()

# --------------------------------------------------------------------------------------
# Family table: the dataclass fields that matter for RoPE / layer schedule, with their
# defaults as declared in each configuration_<family>.py @c49429e.  Keys from config.json
# that are NOT fields go to **kwargs and are set as attributes only at the very end of
# PreTrainedConfig.__post_init__ (configuration_utils.py @c49429e, "Additional attributes
# without default values"), i.e. AFTER convert_rope_params_to_dict has run.
# --------------------------------------------------------------------------------------

_FAMILIES: dict[str, dict[str, Any]] = {
    "llama": dict(hidden_size=4096, num_attention_heads=32, num_hidden_layers=32, max_position_embeddings=2048,
                  head_dim=None),
    "llama4_text": dict(hidden_size=5120, num_attention_heads=40, num_hidden_layers=48, head_dim=128,
                        max_position_embeddings=4096 * 32, no_rope_layers=None, no_rope_layer_interval=4,
                        attention_chunk_size=8192, layer_types=None, attn_temperature_tuning=True,
                        floor_scale=8192, attn_scale=0.1, use_qk_norm=True),
    "smollm3": dict(hidden_size=2048, num_attention_heads=16, num_hidden_layers=36, max_position_embeddings=32768,
                    use_sliding_window=False, sliding_window=None, no_rope_layers=None, no_rope_layer_interval=4,
                    layer_types=None),
    "gemma2": dict(hidden_size=2304, num_attention_heads=8, num_hidden_layers=26, head_dim=256,
                   max_position_embeddings=8192, query_pre_attn_scalar=256, sliding_window=4096, layer_types=None),
    # num_key_value_heads=4: Gemma3TextConfig's default (the head count shapes k_proj; the
    # Hub's Gemma 3 4B text_config leaves every head key out).
    "gemma3_text": dict(hidden_size=2304, num_attention_heads=8, num_key_value_heads=4,
                        num_hidden_layers=26, head_dim=256,
                        max_position_embeddings=131_072, query_pre_attn_scalar=256, sliding_window=4096,
                        layer_types=None, use_bidirectional_attention=False),
    "gemma4_text": dict(hidden_size=2304, num_attention_heads=8, num_hidden_layers=30, head_dim=256,
                        max_position_embeddings=131_072, sliding_window=512, layer_types=None,
                        use_bidirectional_attention=None, attention_k_eq_v=False),
    "cohere2": dict(hidden_size=8192, num_attention_heads=64, num_hidden_layers=40, max_position_embeddings=8192,
                    sliding_window=4096, layer_types=None),
    "modernbert": dict(hidden_size=768, num_attention_heads=12, num_hidden_layers=22, max_position_embeddings=8192,
                       layer_types=None, local_attention=128),
    "qwen3_next": dict(hidden_size=2048, num_attention_heads=16, num_hidden_layers=48, max_position_embeddings=32768,
                       head_dim=256, layer_types=None),
    "qwen3_5_text": dict(hidden_size=4096, num_attention_heads=16, num_hidden_layers=32, max_position_embeddings=32768,
                         head_dim=256, layer_types=None),
    "gpt_oss": dict(num_hidden_layers=36, hidden_size=2880, head_dim=64, num_attention_heads=64, sliding_window=128,
                    max_position_embeddings=131072, layer_types=None),
    "mistral": dict(hidden_size=4096, num_attention_heads=32, num_hidden_layers=32, head_dim=None,
                    max_position_embeddings=4096 * 32, sliding_window=4096),
    "ministral": dict(hidden_size=4096, num_attention_heads=32, num_hidden_layers=32, head_dim=None,
                      max_position_embeddings=4096 * 32, sliding_window=4096, layer_types=None),
    "deepseek_v3": dict(hidden_size=7168, num_attention_heads=128, num_hidden_layers=61, max_position_embeddings=4096,
                        qk_rope_head_dim=64, qk_nope_head_dim=128, v_head_dim=128, kv_lora_rank=512,
                        rope_interleave=True),
    "phi3": dict(hidden_size=3072, num_attention_heads=32, num_hidden_layers=32, max_position_embeddings=4096,
                 original_max_position_embeddings=4096, sliding_window=None),
    "olmo2": dict(hidden_size=4096, num_attention_heads=32, num_hidden_layers=32, max_position_embeddings=2048),
    "glm4": dict(hidden_size=4096, num_attention_heads=32, num_hidden_layers=40, head_dim=128,
                 max_position_embeddings=131072),
    "qwen2": dict(hidden_size=4096, num_attention_heads=32, num_hidden_layers=32, max_position_embeddings=32768,
                  use_sliding_window=False, sliding_window=4096, max_window_layers=28, layer_types=None),
    "qwen3": dict(hidden_size=4096, num_attention_heads=32, num_hidden_layers=32, max_position_embeddings=32768,
                  head_dim=128, use_sliding_window=False, sliding_window=4096, max_window_layers=28,
                  layer_types=None),
    # ---- families added in the second pass (see hf_rope_reference.md section 6) ----
    "qwen3_moe": dict(hidden_size=2048, num_attention_heads=32, num_key_value_heads=4, num_hidden_layers=24,
                      max_position_embeddings=32768, use_sliding_window=False, sliding_window=4096),
    "qwen2_vl_text": dict(hidden_size=8192, num_attention_heads=64, num_key_value_heads=8, num_hidden_layers=80,
                          max_position_embeddings=32768, use_sliding_window=False, sliding_window=4096,
                          max_window_layers=80, layer_types=None),
    "qwen2_5_vl_text": dict(hidden_size=8192, num_attention_heads=64, num_key_value_heads=8, num_hidden_layers=80,
                            max_position_embeddings=32768, use_sliding_window=False, sliding_window=4096,
                            max_window_layers=80, layer_types=None),
    "qwen3_vl_text": dict(hidden_size=4096, num_attention_heads=32, num_key_value_heads=32, num_hidden_layers=32,
                          head_dim=128, max_position_embeddings=128000),
    "qwen3_5_moe_text": dict(hidden_size=2048, num_attention_heads=16, num_key_value_heads=2, num_hidden_layers=40,
                             max_position_embeddings=32768, head_dim=256, layer_types=None),
    "ministral3": dict(hidden_size=4096, num_attention_heads=32, num_key_value_heads=8, num_hidden_layers=34,
                       head_dim=128, max_position_embeddings=262144, sliding_window=None),
    "deepseek_v2": dict(hidden_size=4096, num_attention_heads=32, num_key_value_heads=None, num_hidden_layers=32,
                        max_position_embeddings=2048, head_dim=None, qk_rope_head_dim=64, qk_nope_head_dim=128,
                        v_head_dim=128, kv_lora_rank=512, q_lora_rank=1536),
    "deepseek_v32": dict(hidden_size=7168, num_attention_heads=128, num_key_value_heads=128, num_hidden_layers=61,
                         max_position_embeddings=163840, head_dim=64, qk_rope_head_dim=64, qk_nope_head_dim=128,
                         v_head_dim=128, kv_lora_rank=512, q_lora_rank=1536, layer_types=None, index_topk=2048,
                         index_head_dim=128, index_n_heads=64),
    "glm_moe_dsa": dict(hidden_size=6144, num_attention_heads=64, num_key_value_heads=64, num_hidden_layers=78,
                        max_position_embeddings=202752, head_dim=64, qk_rope_head_dim=64, qk_nope_head_dim=192,
                        v_head_dim=256, kv_lora_rank=512, q_lora_rank=2048, layer_types=None, index_topk=2048,
                        index_head_dim=128, index_n_heads=32, indexer_types=None),
    "falcon": dict(hidden_size=4544, num_attention_heads=71, num_hidden_layers=32, max_position_embeddings=2048,
                   num_kv_heads=None, alibi=False, new_decoder_architecture=False, multi_query=True),
    "lfm2": dict(hidden_size=2560, num_attention_heads=32, num_key_value_heads=8, num_hidden_layers=32,
                 max_position_embeddings=128_000, full_attn_idxs=None, layer_types=None),
    "mimo_v2_flash": dict(hidden_size=4096, num_attention_heads=64, num_key_value_heads=4, num_hidden_layers=48,
                          max_position_embeddings=131072, head_dim=192, v_head_dim=128, sliding_window=128,
                          layer_types=None, attention_value_scale=0.707),
    "minimax_m2": dict(hidden_size=3072, num_attention_heads=48, num_key_value_heads=8, num_hidden_layers=62,
                       head_dim=128, max_position_embeddings=196608),
    # NemotronHConfig has NO rope_parameters field (configuration_nemotron_h.py); num_hidden_layers is a
    # property = len(layers_block_type); attribute_map layer_types -> layers_block_type.
    "nemotron_h": dict(hidden_size=4096, num_attention_heads=32, num_key_value_heads=8, head_dim=128,
                       max_position_embeddings=4096, sliding_window=None, layer_types=None),
    "olmo3": dict(hidden_size=4096, num_attention_heads=32, num_key_value_heads=None, num_hidden_layers=32,
                  max_position_embeddings=2048, sliding_window=4096, layer_types=None),
    "phi": dict(hidden_size=2048, num_attention_heads=32, num_key_value_heads=None, num_hidden_layers=24,
                max_position_embeddings=2048),
    # MptConfig: no rope_parameters field; ALiBi only (configuration_mpt.py / modeling_mpt.py)
    "mpt": dict(d_model=2048, n_heads=16, n_layers=24, max_seq_len=2048, attn_config=None),
    # Microsoft remote code (not transformers): configuration_mixformer_sequential.py (see .md section 6)
    "mixformer-sequential": dict(n_embd=1024, n_head=16, n_layer=20, n_positions=2048, n_head_kv=None,
                                 rotary_dim=32, flash_rotary=False),
}
_NO_ROPE_FIELD = {"nemotron_h", "mpt", "mixformer-sequential"}  # config classes without a rope_parameters field
for _fam, _f in _FAMILIES.items():
    if _fam not in _NO_ROPE_FIELD:
        _f.setdefault("rope_parameters", None)

# PreTrainedConfig.attribute_map: config.json key -> field (configuration_<family>.py @c49429e)
_ATTRIBUTE_MAP = {
    "mpt": {"num_attention_heads": "n_heads", "hidden_size": "d_model", "num_hidden_layers": "n_layers"},
    "nemotron_h": {"layers_block_type": "layer_types"},  # field is layers_block_type; same list either way
    "mixformer-sequential": {"max_position_embeddings": "n_positions", "hidden_size": "n_embd",
                             "num_attention_heads": "n_head", "num_hidden_layers": "n_layer"},
}

# class-level default_theta overrides (configuration_<family>.py @c49429e)
_DEFAULT_THETA = {
    "llama4_text": 500000.0,
    "smollm3": 2000000.0,
    "gpt_oss": 150000.0,
    "gemma3_text": {"global": 1_000_000.0, "local": 10_000.0},
    "modernbert": {"global": 160_000.0, "local": 10_000.0},
    "qwen2_vl_text": 1000000.0,
    "qwen2_5_vl_text": 1000000.0,
    "qwen3_vl_text": 500000.0,
    "lfm2": 1000000.0,
    "minimax_m2": 5000000.0,
    "olmo3": 500000.0,
}

# multimodal wrapper model_type -> text sub-config model_type (sub_configs in configuration_*.py @c49429e)
_TEXT_SUBCONFIG = {"llama4": "llama4_text", "gemma3": "gemma3_text", "gemma4": "gemma4_text",
                   "qwen3_5": "qwen3_5_text", "qwen2_vl": "qwen2_vl_text", "qwen2_5_vl": "qwen2_5_vl_text",
                   "qwen3_vl": "qwen3_vl_text", "qwen3_5_moe": "qwen3_5_moe_text",
                   "mistral3": "mistral"}  # Mistral3Config: text_config model_type defaults to "mistral"
# wrappers whose Hub config.json is flat (no text_config): only the text config's dataclass fields plus
# rope_parameters / rope_scaling / rope_theta are handed to the text config (Qwen2VLConfig.__post_init__,
# configuration_qwen2_vl.py:171-181; Qwen2_5_VLConfig likewise, configuration_qwen2_5_vl.py)
_FLAT_TEXT_WRAPPERS = {"qwen2_vl", "qwen2_5_vl"}
# aliases that share a config class / behaviour
_ALIASES = {"llama4_text": "llama4_text", "gemma3_text": "gemma3_text", "gemma4_text": "gemma4_text",
            "qwen3_5_text": "qwen3_5_text"}


def _family_of(model_type):
    mt = model_type or "llama"
    if mt in _FAMILIES:
        return mt
    if mt in _TEXT_SUBCONFIG:
        return _TEXT_SUBCONFIG[mt]
    return None


# --------------------------------------------------------------------------------------
# RotaryEmbeddingConfigMixin (modeling_rope_utils.py @c49429e)
# --------------------------------------------------------------------------------------


def _standardize_rope_params(cfg: _Cfg) -> None:
    """Port of RotaryEmbeddingConfigMixin.standardize_rope_params (modeling_rope_utils.py:765 @c49429e)."""
    rope_theta = getattr(cfg, "rope_theta", None)
    partial_rotary_factor = getattr(cfg, "partial_rotary_factor", None)
    rope_parameters = getattr(cfg, "rope_parameters", None) or {}
    layer_types = getattr(cfg, "_rope_type_labels", getattr(cfg, "layer_types", None))
    if not (rope_parameters or rope_theta):  # Case 0
        return
    elif layer_types is None or rope_parameters == {} or not set(rope_parameters.keys()).issubset(layer_types):
        # Case 1: one global dict
        rope_parameters.setdefault("rope_type", rope_parameters.get("type", "default"))
        rope_parameters.setdefault("rope_theta", rope_theta)
        if partial_rotary_factor is not None:
            rope_parameters["partial_rotary_factor"] = partial_rotary_factor  # NB: overwrite, not setdefault
        if rope_parameters["rope_type"] in ["llama3", "yarn", "longrope"]:
            if hasattr(cfg, "original_max_position_embeddings"):
                # top-level attribute wins (Phi-3 exception) -- overwrite
                rope_parameters["original_max_position_embeddings"] = cfg.original_max_position_embeddings
            else:
                rope_parameters.setdefault("original_max_position_embeddings", cfg.max_position_embeddings)
    else:
        # Case 2: nested per layer type
        for lt in set(layer_types):
            p = rope_parameters[lt]  # KeyError in transformers too if a layer type is missing
            p.setdefault("rope_type", p.get("type", "default"))
            p.setdefault("rope_theta", rope_theta)
            if partial_rotary_factor is not None:
                p["partial_rotary_factor"] = partial_rotary_factor
            if p["rope_type"] in ["llama3", "yarn", "longrope"]:
                p.setdefault("original_max_position_embeddings", cfg.max_position_embeddings)
    cfg.rope_parameters = rope_parameters


def _convert_base(cfg: _Cfg, kwargs: dict) -> dict:
    """RotaryEmbeddingConfigMixin.convert_rope_params_to_dict (modeling_rope_utils.py:742 @c49429e)."""
    rope_scaling = kwargs.pop("rope_scaling", None)
    cfg.rope_parameters = rope_scaling or cfg.rope_parameters  # legacy rope_scaling wins over rope_parameters
    cfg.rope_parameters = cfg.rope_parameters if cfg.rope_parameters is not None else {}
    rope_theta = kwargs.pop("rope_theta", getattr(cfg, "rope_theta", cfg.default_theta))
    cfg.rope_parameters.setdefault("rope_theta", rope_theta)  # NB: top level even if the dict is nested
    prf = kwargs.get("partial_rotary_factor", getattr(cfg, "partial_rotary_factor", None))
    if prf is not None:
        cfg.rope_parameters.setdefault("partial_rotary_factor", prf)
    _standardize_rope_params(cfg)
    return kwargs


def _convert_gemma3(cfg, kwargs):
    """Gemma3TextConfig.convert_rope_params_to_dict (configuration_gemma3.py @c49429e)."""
    rope_scaling = kwargs.pop("rope_scaling", None)
    default = {"sliding_attention": {"rope_type": "default"}, "full_attention": {"rope_type": "default"}}
    cfg.rope_parameters = cfg.rope_parameters if cfg.rope_parameters is not None else default
    if rope_scaling is not None:
        cfg.rope_parameters["full_attention"].update(rope_scaling)  # legacy scaling -> full layers only
    if cfg.rope_parameters.get("full_attention") is None:
        cfg.rope_parameters["full_attention"] = {"rope_type": "default"}
    cfg.rope_parameters["full_attention"].setdefault("rope_theta", kwargs.pop("rope_theta", cfg.default_theta["global"]))
    if cfg.rope_parameters.get("sliding_attention") is None:
        cfg.rope_parameters["sliding_attention"] = {"rope_type": "default"}
    cfg.rope_parameters["sliding_attention"].setdefault(
        "rope_theta", kwargs.pop("rope_local_base_freq", cfg.default_theta["local"]))
    _standardize_rope_params(cfg)
    return kwargs


def _convert_modernbert(cfg, kwargs):
    """ModernBertConfig.convert_rope_params_to_dict (configuration_modernbert.py @c49429e)."""
    rope_scaling = kwargs.pop("rope_scaling", None)
    default = {"sliding_attention": {"rope_type": "default"}, "full_attention": {"rope_type": "default"}}
    cfg.rope_parameters = cfg.rope_parameters if cfg.rope_parameters is not None else default
    if rope_scaling is not None:  # legacy scaling -> BOTH layer types
        cfg.rope_parameters["full_attention"].update(rope_scaling)
        cfg.rope_parameters["sliding_attention"].update(rope_scaling)
    if cfg.rope_parameters.get("full_attention") is None:
        cfg.rope_parameters["full_attention"] = {"rope_type": "default"}
    cfg.rope_parameters["full_attention"].setdefault(
        "rope_theta", kwargs.pop("global_rope_theta", cfg.default_theta["global"]))
    if cfg.rope_parameters.get("sliding_attention") is None:
        cfg.rope_parameters["sliding_attention"] = {"rope_type": "default"}
    cfg.rope_parameters["sliding_attention"].setdefault(
        "rope_theta", kwargs.pop("local_rope_theta", cfg.default_theta["local"]))
    _standardize_rope_params(cfg)
    return kwargs


def _convert_phi3(cfg, kwargs):
    """Phi3Config.convert_rope_params_to_dict (configuration_phi3.py @c49429e).
    Note default_theta is the *argument* default 10_000.0; partial_rotary_factor defaults to 1.0."""
    rope_scaling = kwargs.pop("rope_scaling", None)
    cfg.rope_parameters = rope_scaling or cfg.rope_parameters
    cfg.rope_parameters = cfg.rope_parameters if cfg.rope_parameters is not None else {}
    cfg.rope_parameters.setdefault("rope_theta", kwargs.pop("rope_theta", 10_000.0))
    cfg.rope_parameters.setdefault("partial_rotary_factor", kwargs.get("partial_rotary_factor", 1.0))
    _standardize_rope_params(cfg)
    t = cfg.rope_parameters.get("rope_type", None)
    if t is not None and t in ["su", "yarn"]:  # BC: Phi-3 "su"/"yarn" mean longrope
        cfg.rope_parameters["rope_type"] = "longrope"
    return kwargs


def _convert_gemma4(cfg, kwargs):
    # Gemma4TextConfig.convert_rope_params_to_dict is a no-op (configuration_gemma4.py @c49429e)
    return kwargs


def _convert_qwen2_vl(cfg, kwargs):
    """Qwen2VLTextConfig / Qwen2_5_VLTextConfig.convert_rope_params_to_dict (configuration_qwen2_vl.py:121-131,
    configuration_qwen2_5_vl.py same body): like the base, but NO partial_rotary_factor move-in, and
    rope_type "mrope" (new or legacy "type" key) is rewritten to "default" BEFORE standardize."""
    rope_scaling = kwargs.pop("rope_scaling", None)
    cfg.rope_parameters = rope_scaling or cfg.rope_parameters
    cfg.rope_parameters = cfg.rope_parameters if cfg.rope_parameters is not None else {}
    cfg.rope_parameters.setdefault("rope_theta", kwargs.pop("rope_theta", cfg.default_theta))
    if cfg.rope_parameters.get("rope_type", cfg.rope_parameters.get("type")) == "mrope":
        cfg.rope_parameters["rope_type"] = "default"  # the stale "type": "mrope" key stays in the dict
    _standardize_rope_params(cfg)
    return kwargs


def _convert_olmo3(cfg, kwargs):
    """Olmo3Config.convert_rope_params_to_dict (configuration_olmo3.py @c49429e).
    NB: rope_theta is popped for full_attention; the second `kwargs.pop("rope_theta", default)` for
    sliding_attention therefore always yields default_theta (500000), whatever config.json says."""
    rope_scaling = kwargs.pop("rope_scaling", None)
    default = {"sliding_attention": {"rope_type": "default"}, "full_attention": {"rope_type": "default"}}
    cfg.rope_parameters = cfg.rope_parameters if cfg.rope_parameters is not None else default
    if rope_scaling is not None:
        cfg.rope_parameters["full_attention"].update(rope_scaling)  # legacy scaling -> full layers only
    if cfg.rope_parameters.get("full_attention") is None:
        cfg.rope_parameters["full_attention"] = {"rope_type": "default"}
    cfg.rope_parameters["full_attention"].setdefault("rope_theta", kwargs.pop("rope_theta", cfg.default_theta))
    if cfg.rope_parameters.get("sliding_attention") is None:
        cfg.rope_parameters["sliding_attention"] = {"rope_type": "default"}
    cfg.rope_parameters["sliding_attention"].setdefault("rope_theta", kwargs.pop("rope_theta", cfg.default_theta))
    _standardize_rope_params(cfg)
    return kwargs


def _convert_noop(cfg, kwargs):
    # MiMoV2FlashConfig.convert_rope_params_to_dict returns kwargs unchanged (configuration_mimo_v2_flash.py):
    # rope_theta / swa_rope_theta / partial_rotary_factor / rope_scaling in config.json are ignored attributes
    return kwargs


def _convert_no_field(cfg, kwargs):
    """Config classes with no rope_parameters field (nemotron_h, mpt; mixformer remote code).
    PreTrainedConfig.__post_init__ (configuration_utils.py:312-319) calls convert_rope_params_to_dict only
    `if hasattr(self, "rope_parameters")`, or when kwargs has BOTH a truthy rope_scaling and rope_theta.
    The port keeps an internal cfg.rope_parameters attribute (None = no RoPE) either way."""
    if not hasattr(cfg, "rope_parameters"):
        cfg.rope_parameters = None
    if cfg.family_used != "mixformer-sequential" and kwargs.get("rope_scaling") and kwargs.get("rope_theta"):
        return _convert_base(cfg, kwargs)  # sets an attribute nothing in the modeling file reads
    return kwargs


_CONVERT = {"gemma3_text": _convert_gemma3, "modernbert": _convert_modernbert, "phi3": _convert_phi3,
            "gemma4_text": _convert_gemma4, "qwen2_vl_text": _convert_qwen2_vl,
            "qwen2_5_vl_text": _convert_qwen2_vl, "olmo3": _convert_olmo3, "mimo_v2_flash": _convert_noop,
            "nemotron_h": _convert_no_field, "mpt": _convert_no_field,
            "mixformer-sequential": _convert_no_field}

# --------------------------------------------------------------------------------------
# family __post_init__ ports (configuration_<family>.py @c49429e); each returns kwargs
# --------------------------------------------------------------------------------------


def _post_llama(cfg, kw):
    if cfg.head_dim is None:
        cfg.head_dim = cfg.hidden_size // cfg.num_attention_heads
    return kw


def _post_llama4(cfg, kw):
    default = [int((i + 1) % cfg.no_rope_layer_interval != 0) for i in range(cfg.num_hidden_layers)]
    cfg.no_rope_layers = cfg.no_rope_layers if cfg.no_rope_layers else default  # falsy ([] too) -> default
    cfg.head_dim = cfg.head_dim if cfg.head_dim is not None else cfg.hidden_size // cfg.num_attention_heads
    if cfg.layer_types is None:  # NB: value 1 == "uses RoPE" -> chunked attention
        cfg.layer_types = ["chunked_attention" if nr else "full_attention" for nr in cfg.no_rope_layers]
    return kw


def _post_smollm3(cfg, kw):
    if cfg.no_rope_layers is None:
        cfg.no_rope_layers = [int((i + 1) % cfg.no_rope_layer_interval != 0) for i in range(cfg.num_hidden_layers)]
    if cfg.layer_types is None:
        cfg.layer_types = []
        for i in range(cfg.num_hidden_layers):
            has_rope = cfg.no_rope_layers[i]
            if cfg.use_sliding_window and cfg.sliding_window is not None and not has_rope:
                cfg.layer_types.append("sliding_attention")
            else:
                cfg.layer_types.append("full_attention")
    return kw


def _post_alternate2(cfg, kw):  # gemma2, gpt_oss
    if cfg.layer_types is None:
        cfg.layer_types = ["sliding_attention" if bool((i + 1) % 2) else "full_attention"
                           for i in range(cfg.num_hidden_layers)]
    return kw


def _post_gpt_oss(cfg, kw):
    cfg.head_dim = cfg.head_dim if cfg.head_dim is not None else cfg.hidden_size // cfg.num_attention_heads
    _post_alternate2(cfg, kw)
    if cfg.rope_parameters is None:
        cfg.rope_parameters = {"rope_type": "yarn", "factor": 32.0, "beta_fast": 32.0, "beta_slow": 1.0,
                               "truncate": False, "original_max_position_embeddings": 4096}
    return kw


def _post_gemma3(cfg, kw):
    if cfg.use_bidirectional_attention:
        cfg.sliding_window = (cfg.sliding_window // 2) + 1
    pattern = kw.get("sliding_window_pattern", 6)  # kwargs.get: stays in kwargs
    if cfg.layer_types is None:
        cfg.layer_types = ["sliding_attention" if bool((i + 1) % pattern) else "full_attention"
                           for i in range(cfg.num_hidden_layers)]
    return kw


def _post_gemma4(cfg, kw):
    if cfg.use_bidirectional_attention == "all":
        cfg.sliding_window = (cfg.sliding_window // 2) + 1
    if cfg.layer_types is None:
        cfg.layer_types = ["sliding_attention" if bool((i + 1) % 6) else "full_attention"
                           for i in range(cfg.num_hidden_layers)]
    if cfg.layer_types and cfg.layer_types[-1] != "full_attention":
        cfg.layer_types[-1] = "full_attention"  # forced
    if cfg.rope_parameters is None:
        cfg.rope_parameters = {
            "sliding_attention": {"rope_type": "default", "rope_theta": 10_000.0},
            "full_attention": {"rope_type": "proportional", "partial_rotary_factor": 0.25, "rope_theta": 1_000_000.0},
        }
    global_head_dim = kw.pop("global_head_dim", 512)
    n_global_kv = kw.pop("num_global_key_value_heads", None)
    if "per_layer_config" not in kw:
        ov = {"head_dim": global_head_dim}
        if n_global_kv is not None and getattr(cfg, "attention_k_eq_v", True):
            ov["num_key_value_heads"] = n_global_kv
        kw["per_layer_config"] = {i: dict(ov) for i, lt in enumerate(cfg.layer_types) if lt == "full_attention"}
    return kw


def _post_cohere2(cfg, kw):
    cfg.head_dim = cfg.hidden_size // cfg.num_attention_heads  # forced, overrides config.json
    if cfg.layer_types is None:
        pattern = kw.pop("sliding_window_pattern", 4)
        cfg.layer_types = ["sliding_attention" if bool((i + 1) % pattern) else "full_attention"
                           for i in range(cfg.num_hidden_layers)]
    return kw


def _post_modernbert(cfg, kw):
    n = kw.get("global_attn_every_n_layers", 3)
    if cfg.layer_types is None:
        cfg.layer_types = ["sliding_attention" if bool(i % n) else "full_attention"
                           for i in range(cfg.num_hidden_layers)]
    return kw


def _post_qwen3_linear(cfg, kw):  # qwen3_next, qwen3_5_text
    kw.setdefault("partial_rotary_factor", 0.25)
    if cfg.layer_types is None:
        interval = kw.pop("full_attention_interval", 4)
        cfg.layer_types = ["linear_attention" if bool((i + 1) % interval) else "full_attention"
                           for i in range(cfg.num_hidden_layers)]
    else:
        remap = {"conv": "linear_attention", "mamba": "linear_attention", "attention": "full_attention"}
        cfg.layer_types = [remap.get(t, t) for t in cfg.layer_types]
    return kw


def _post_mistral(cfg, kw):
    cfg.head_dim = cfg.head_dim if cfg.head_dim is not None else cfg.hidden_size // cfg.num_attention_heads
    return kw


def _post_ministral(cfg, kw):  # NB: head_dim is NOT filled in here
    if cfg.layer_types is None:
        cfg.layer_types = ["sliding_attention" if cfg.sliding_window is not None else "full_attention"
                           ] * cfg.num_hidden_layers
    return kw


def _post_deepseek_v3(cfg, kw):
    cfg.qk_head_dim = cfg.qk_nope_head_dim + cfg.qk_rope_head_dim
    cfg.head_dim = cfg.qk_rope_head_dim  # forced: RoPE dim is qk_rope_head_dim
    return kw


def _post_glm4(cfg, kw):
    kw.setdefault("partial_rotary_factor", 0.5)
    return kw


def _post_qwen2(cfg, kw):  # qwen2, qwen3
    cfg.sliding_window = cfg.sliding_window if cfg.use_sliding_window else None
    if cfg.layer_types is None:
        cfg.layer_types = ["sliding_attention" if cfg.sliding_window is not None and i >= cfg.max_window_layers
                           else "full_attention" for i in range(cfg.num_hidden_layers)]
    return kw


def _post_qwen3_moe(cfg, kw):  # Qwen3MoeConfig.__post_init__: no head_dim / layer_types fields
    cfg.sliding_window = cfg.sliding_window if cfg.use_sliding_window else None
    return kw


def _post_ministral3(cfg, kw):
    if cfg.rope_parameters is None:  # configuration_ministral3.py __post_init__ default
        cfg.rope_parameters = {"type": "yarn", "rope_theta": 1000000.0, "factor": 16.0,
                               "original_max_position_embeddings": 16384,
                               "max_position_embeddings": cfg.max_position_embeddings, "beta_fast": 32.0,
                               "beta_slow": 1.0, "mscale_all_dim": 1.0, "mscale": 1.0,
                               "llama_4_scaling_beta": 0.1}
    cfg.head_dim = cfg.head_dim if cfg.head_dim is not None else cfg.hidden_size // cfg.num_attention_heads
    return kw


def _post_deepseek_v2(cfg, kw):  # configuration_deepseek_v2.py __post_init__
    cfg.qk_head_dim = cfg.qk_nope_head_dim + cfg.qk_rope_head_dim
    cfg.head_dim = cfg.qk_rope_head_dim
    if cfg.head_dim is None:
        cfg.head_dim = cfg.hidden_size // cfg.num_attention_heads
    return kw


def _post_dsa(cfg, kw):  # deepseek_v32, glm_moe_dsa __post_init__ (RoPE-relevant part)
    if cfg.family_used == "glm_moe_dsa" and cfg.indexer_types is None:
        pattern = kw.get("index_topk_pattern")
        if pattern is not None:
            cfg.indexer_types = ([{"F": "full", "S": "shared"}[c] for c in pattern] if isinstance(pattern, str)
                                 else list(pattern))
        else:
            freq = max(kw.get("index_topk_freq", 1), 1)
            offset = kw.get("index_skip_topk_offset", 2)
            cfg.indexer_types = ["full" if (max(i - offset + 1, 0) % freq) == 0 else "shared"
                                 for i in range(cfg.num_hidden_layers)]
    cfg.qk_head_dim = cfg.qk_nope_head_dim + cfg.qk_rope_head_dim
    cfg.head_dim = cfg.qk_rope_head_dim  # forced
    if cfg.layer_types is None:
        cfg.layer_types = ["deepseek_sparse_attention"] * cfg.num_hidden_layers
    return kw


def _post_falcon(cfg, kw):  # configuration_falcon.py __post_init__ + properties head_dim / rotary
    n_embed = kw.pop("n_embed", None)
    cfg.hidden_size = cfg.hidden_size if n_embed is None else n_embed
    cfg.num_kv_heads = cfg.num_attention_heads if cfg.num_kv_heads is None else cfg.num_kv_heads
    if "head_dim" in kw:  # head_dim is a read-only property: the final setattr raises in transformers
        raise AttributeError("FalconConfig.head_dim is a property without setter (configuration_falcon.py)")
    cfg.head_dim = cfg.hidden_size // cfg.num_attention_heads
    # port convenience: the K/V head count FalconAttention really uses (modeling_falcon.py:252)
    cfg.num_key_value_heads = (cfg.num_kv_heads if (cfg.new_decoder_architecture or not cfg.multi_query) else 1)
    return kw


def _post_lfm2(cfg, kw):  # configuration_lfm2.py __post_init__
    if cfg.layer_types is None:
        cfg.full_attn_idxs = (cfg.full_attn_idxs if cfg.full_attn_idxs is not None
                              else list(range(cfg.num_hidden_layers)))
        cfg.layer_types = ["full_attention" if i in cfg.full_attn_idxs else "conv"
                           for i in range(cfg.num_hidden_layers)]
    return kw


def _post_mimo_v2_flash(cfg, kw):  # configuration_mimo_v2_flash.py __post_init__
    if cfg.layer_types is None:  # NB: config.json's hybrid_layer_pattern is NOT read (stays an attribute)
        cfg.layer_types = ["full_attention" if (i == 0 or not ((i + 1) % 6)) else "sliding_attention"
                           for i in range(cfg.num_hidden_layers)]
    if cfg.rope_parameters is None:
        cfg.rope_parameters = {
            "full_attention": {"rope_type": "default", "rope_theta": 5_000_000.0, "partial_rotary_factor": 0.334},
            "sliding_attention": {"rope_type": "default", "rope_theta": 10_000.0, "partial_rotary_factor": 0.334},
        }
    return kw


def _post_nemotron_h(cfg, kw):  # configuration_nemotron_h.py __post_init__ (RoPE/schedule-relevant part)
    pmap = {"M": "linear_attention", "E": "moe", "*": "full_attention", "-": "mlp"}
    if "hybrid_override_pattern" in kw:
        pattern = kw.pop("hybrid_override_pattern")
        if cfg.layer_types is None:
            cfg.layer_types = [pmap[c] for c in pattern]
    elif cfg.layer_types is None:
        cfg.layer_types = ["linear_attention", "moe", "full_attention", "mlp"]
    else:
        remap = {"conv": "linear_attention", "mamba": "linear_attention", "attention": "full_attention"}
        cfg.layer_types = [remap.get(t, t) for t in cfg.layer_types]
    kw.pop("num_hidden_layers", None)  # property setter ignores the value
    cfg.num_hidden_layers = len(cfg.layer_types)
    return kw


def _post_olmo3(cfg, kw):
    if cfg.layer_types is None:
        cfg.layer_types = ["sliding_attention" if (i + 1) % 4 != 0 else "full_attention"
                           for i in range(cfg.num_hidden_layers)]
    return kw


def _post_phi(cfg, kw):
    kw.setdefault("partial_rotary_factor", 0.5)  # configuration_phi.py __post_init__
    return kw


def _post_mpt(cfg, kw):  # configuration_mpt.py; attribute_map aliases filled in for the port's generic code
    cfg.hidden_size, cfg.num_attention_heads, cfg.num_hidden_layers = cfg.d_model, cfg.n_heads, cfg.n_layers
    cfg.max_position_embeddings = cfg.max_seq_len  # port convenience (MptConfig has no such attribute)
    cfg.head_dim = cfg.d_model // cfg.n_heads
    cfg.num_key_value_heads = cfg.n_heads  # MptAttention projects 3 * hidden (modeling_mpt.py:75)
    return kw


def _post_mixformer(cfg, kw):
    """MixFormerSequentialConfig.__init__ (remote code, gmadiyar00/tapssp-project
    phi-2/configuration_mixformer_sequential.py @4df723a): rotary_dim = min(rotary_dim, n_embd // n_head).
    RotaryEmbedding base is the constructor default 10000 (no config key); no scaling."""
    cfg.rotary_dim = min(cfg.rotary_dim, cfg.n_embd // cfg.n_head)
    cfg.hidden_size, cfg.num_attention_heads, cfg.num_hidden_layers = cfg.n_embd, cfg.n_head, cfg.n_layer
    cfg.max_position_embeddings = cfg.n_positions
    cfg.head_dim = cfg.n_embd // cfg.n_head
    cfg.num_key_value_heads = cfg.n_head_kv or cfg.n_head
    cfg.rope_parameters = {"rope_type": "default", "rope_theta": 10000.0}  # port-internal representation
    return kw


_POST = {"llama": _post_llama, "llama4_text": _post_llama4, "smollm3": _post_smollm3, "gemma2": _post_alternate2,
         "gemma3_text": _post_gemma3, "gemma4_text": _post_gemma4, "cohere2": _post_cohere2,
         "modernbert": _post_modernbert, "qwen3_next": _post_qwen3_linear, "qwen3_5_text": _post_qwen3_linear,
         "gpt_oss": _post_gpt_oss, "mistral": _post_mistral, "ministral": _post_ministral,
         "deepseek_v3": _post_deepseek_v3, "phi3": lambda c, k: k, "olmo2": lambda c, k: k, "glm4": _post_glm4,
         "qwen2": _post_qwen2, "qwen3": _post_qwen2,
         "qwen3_moe": _post_qwen3_moe, "qwen2_vl_text": _post_qwen2, "qwen2_5_vl_text": _post_qwen2,
         "qwen3_vl_text": lambda c, k: k, "qwen3_5_moe_text": _post_qwen3_linear, "ministral3": _post_ministral3,
         "deepseek_v2": _post_deepseek_v2, "deepseek_v32": _post_dsa, "glm_moe_dsa": _post_dsa,
         "falcon": _post_falcon, "lfm2": _post_lfm2, "mimo_v2_flash": _post_mimo_v2_flash,
         "minimax_m2": lambda c, k: k, "nemotron_h": _post_nemotron_h, "olmo3": _post_olmo3, "phi": _post_phi,
         "mpt": _post_mpt, "mixformer-sequential": _post_mixformer}


def load_config(config: dict) -> _Cfg:
    """Emulate `XConfig(**config_json)` for the RoPE-relevant part.

    Multimodal configs: the text sub-config under "text_config" is used (get_text_config(decoder=True),
    configuration_utils.py @c49429e looks for "decoder", "generator", "text_config")."""
    d = copy.deepcopy(config)
    top_mt = d.get("model_type")
    nested_text = False
    for name in ("text_config", "decoder", "generator"):
        if isinstance(d.get(name), dict):
            sub = d[name]
            mt = sub.get("model_type") or _TEXT_SUBCONFIG.get(top_mt, top_mt)
            d = sub
            d["model_type"] = mt
            nested_text = True
            break
    mt = d.get("model_type", top_mt)
    if not nested_text and top_mt in _FLAT_TEXT_WRAPPERS:
        # flat Hub config: only text-config fields (+ rope keys) reach the text sub-config
        tf = _FAMILIES[_TEXT_SUBCONFIG[top_mt]]
        d = {k: v for k, v in d.items()
             if k in tf or k in ("rope_parameters", "rope_scaling", "rope_theta", "model_type")}
    fam = _family_of(mt)
    cfg = _Cfg()
    cfg.model_type = mt
    cfg.family = fam
    cfg.unknown_family = fam is None
    if fam is None:
        fam = "llama"  # generic fallback: llama-like config/modeling
    cfg.family_used = fam
    fields = _FAMILIES[fam]
    if fam in _DEFAULT_THETA:
        cfg.default_theta = _DEFAULT_THETA[fam]
    kwargs = {}
    amap = _ATTRIBUTE_MAP.get(fam, {})
    d = {amap.get(k, k): v for k, v in d.items()}
    for k, v in d.items():
        if k in fields:
            setattr(cfg, k, v)
        elif k != "model_type":
            kwargs[k] = v
    for k, dv in fields.items():
        if not hasattr(cfg, k):
            setattr(cfg, k, copy.deepcopy(dv))
    if getattr(cfg, "num_key_value_heads", None) is None and hasattr(cfg, "num_attention_heads"):
        cfg.num_key_value_heads = cfg.num_attention_heads
    kwargs = _POST[fam](cfg, kwargs)
    # PreTrainedConfig.__post_init__: rope BC conversion, then leftover kwargs become attributes
    kwargs = _CONVERT.get(fam, _convert_base)(cfg, kwargs)
    per_layer = kwargs.pop("per_layer_config", None)
    for k, v in kwargs.items():
        setattr(cfg, k, v)
    if per_layer is not None:
        cfg._per_layer = {int(k): dict(v) for k, v in per_layer.items()}
    return cfg


def _as_cfg(config) -> _Cfg:
    return config if isinstance(config, _Cfg) else load_config(config)


def _layer_cfg(cfg: _Cfg, layer_type: str | None):
    """config.per_layer_config[layer_type] (HeterogeneousConfigMixin, configuration_utils.py @c49429e)."""
    if layer_type is None or not cfg._per_layer or not getattr(cfg, "layer_types", None):
        return cfg
    idx = [i for i, lt in enumerate(cfg.layer_types) if lt == layer_type]
    if not idx:
        return cfg
    ov = cfg._per_layer.get(idx[0], {})
    c = copy.copy(cfg)
    for k, v in ov.items():
        setattr(c, k, v)
    return c


def _is_nested(cfg: _Cfg) -> bool:
    rp = getattr(cfg, "rope_parameters", None) or {}
    lts = getattr(cfg, "_rope_type_labels", getattr(cfg, "layer_types", None))
    return bool(rp) and lts is not None and set(rp.keys()).issubset(lts)


def _effective(cfg: _Cfg) -> _Cfg:
    """Each ROPE_INIT_FUNCTIONS entry calls config.standardize_rope_params() again at model-init time, when
    the leftover kwargs ARE attributes: a top-level partial_rotary_factor / original_max_position_embeddings then
    overwrites the dict value.  Apply that second pass on a copy."""
    c = copy.copy(cfg)
    c.rope_parameters = copy.deepcopy(cfg.rope_parameters)
    _standardize_rope_params(c)
    return c


def standardize(config) -> dict:
    """{layer_type or "all": params dict or None} -- the effective rope parameters (after the model-init
    standardize pass for non-default rope types)."""
    cfg = _as_cfg(config)
    rp = cfg.rope_parameters
    if not rp:
        return {"all": None}
    eff = _effective(cfg)
    if _is_nested(cfg):
        out = {}
        for lt, p in cfg.rope_parameters.items():
            if p is None:
                out[lt] = None
            elif p.get("rope_type", "default") != "default":
                out[lt] = copy.deepcopy(eff.rope_parameters.get(lt, p))
            else:
                out[lt] = copy.deepcopy(p)
        return out
    p = cfg.rope_parameters
    if p.get("rope_type", "default") != "default":
        p = eff.rope_parameters
    return {"all": copy.deepcopy(p)}


# --------------------------------------------------------------------------------------
# inverse frequencies
# --------------------------------------------------------------------------------------

# families whose modeling_*.py compute_default_rope_parameters applies partial_rotary_factor
# (phi3, glm4, qwen3_next, qwen3_5 @c49429e; llama-like families use the full head_dim)
_DEFAULT_USES_PARTIAL = {"phi3", "glm4", "qwen3_next", "qwen3_5_text", "glm", "gpt_neox", "phi", "stablelm",
                         "qwen3_5_moe_text", "minimax_m2", "mimo_v2_flash"}
# families whose compute_default reads rope_parameters[layer_type]
_DEFAULT_PER_LAYER = {"gemma3_text", "gemma4_text", "modernbert", "olmo3", "mimo_v2_flash"}


def _head_dim_or(cfg):  # `getattr(config, "head_dim", None) or hidden // heads`
    return getattr(cfg, "head_dim", None) or cfg.hidden_size // cfg.num_attention_heads


def _head_dim_getattr(cfg):  # `getattr(config, "head_dim", hidden // heads)` (dynamic, yarn, longrope)
    hd = getattr(cfg, "head_dim", _SENTINEL)
    if hd is _SENTINEL:
        return cfg.hidden_size // cfg.num_attention_heads
    if hd is None:
        raise TypeError("transformers @%s would fail here: head_dim attribute is None "
                        "(int(None * partial_rotary_factor))" % HF_COMMIT[:7])
    return hd


def _default_freqs(base, dim):
    return 1.0 / (float(base) ** (np.arange(0, dim, 2, dtype=np.float64) / dim))


def _params_for(cfg, layer_type):
    rp = cfg.rope_parameters
    if layer_type is not None and _is_nested(cfg):
        return rp[layer_type]
    return rp


def _default_base_dim(cfg, layer_type):
    """(base, rotating dim) of the default rope init for this family and layer type."""
    fam = cfg.family_used
    if fam == "mimo_v2_flash":
        # MiMoV2FlashRotaryEmbedding.compute_default_rope_parameters (modeling_mimo_v2_flash.py:108-111):
        # per-layer-type theta AND per-layer-type partial_rotary_factor, default 0.334
        p = cfg.rope_parameters[layer_type]
        return p["rope_theta"], int(_head_dim_or(cfg) * p.get("partial_rotary_factor", 0.334))
    if fam == "mixformer-sequential":
        # remote RotaryEmbedding(dim=rotary_dim, base=10000) (modeling_mixformer_sequential.py, MHA.__init__)
        if cfg.flash_rotary:
            raise NotImplementedError("flash_rotary=True uses flash_attn's RotaryEmbedding, which was not read")
        return cfg.rope_parameters["rope_theta"], cfg.rotary_dim
    if fam in _DEFAULT_PER_LAYER:
        base = cfg.rope_parameters[layer_type]["rope_theta"]
    else:
        base = cfg.rope_parameters["rope_theta"]
    if fam in _DEFAULT_USES_PARTIAL:
        p = cfg.rope_parameters
        dim = int(_head_dim_or(cfg) * p.get("partial_rotary_factor", 1.0))
    else:
        dim = _head_dim_or(cfg)
    return base, dim


def _init_default_model(cfg, layer_type):
    base, dim = _default_base_dim(cfg, layer_type)
    return _default_freqs(base, dim), 1.0


def _init_linear(cfg, p, seq_len, layer_type):
    dim = int(_head_dim_or(cfg) * p.get("partial_rotary_factor", 1.0))
    return _default_freqs(p["rope_theta"], dim) / p["factor"], 1.0


def _init_proportional(cfg, p, seq_len, layer_type):
    head_dim = _head_dim_or(cfg)
    base = p["rope_theta"]
    factor = p.get("factor", 1.0)
    prop = p.get("partial_rotary_factor", 1.0)
    rope_angles = int(prop * head_dim // 2)
    rot = 1.0 / (float(base) ** (np.arange(0, 2 * rope_angles, 2, dtype=np.float64) / head_dim))
    nope = head_dim // 2 - rope_angles
    inv = np.concatenate([rot, np.zeros(nope)]) if nope > 0 else rot
    return inv / factor, 1.0


def _init_dynamic(cfg, p, seq_len, layer_type):
    base = p["rope_theta"]
    dim = int(_head_dim_getattr(cfg) * p.get("partial_rotary_factor", 1.0))
    factor = p["factor"]
    mpe = cfg.max_position_embeddings
    seq_len = mpe if seq_len is None else max(seq_len, mpe)
    base = base * ((factor * seq_len / mpe) - (factor - 1)) ** (dim / (dim - 2))
    return _default_freqs(base, dim), 1.0


def _get_mscale(scale, mscale=1):
    if scale <= 1:
        return 1.0
    return 0.1 * mscale * math.log(scale) + 1.0


def _init_yarn(cfg, p, seq_len, layer_type):
    base = p["rope_theta"]
    dim = int(_head_dim_getattr(cfg) * p.get("partial_rotary_factor", 1.0))
    factor = p["factor"]
    attention_factor = p.get("attention_factor")
    mscale = p.get("mscale")
    mscale_all_dim = p.get("mscale_all_dim")
    omax = p["original_max_position_embeddings"]
    if factor is None:
        factor = cfg.max_position_embeddings / omax
    if attention_factor is None:
        if mscale and mscale_all_dim:
            attention_factor = float(_get_mscale(factor, mscale) / _get_mscale(factor, mscale_all_dim))
        else:
            attention_factor = _get_mscale(factor)
    beta_fast = p.get("beta_fast") or 32
    beta_slow = p.get("beta_slow") or 1

    def corr_dim(n_rot):
        return (dim * math.log(omax / (n_rot * 2 * math.pi))) / (2 * math.log(base))

    # NB: transformers reads `truncate` from the TOP-LEVEL config.rope_parameters, not the per-layer dict
    truncate = cfg.rope_parameters.get("truncate", True)
    low, high = corr_dim(beta_fast), corr_dim(beta_slow)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, dim - 1)
    if low == high:
        high += 0.001
    ramp = np.clip((np.arange(dim // 2, dtype=np.float64) - low) / (high - low), 0.0, 1.0)
    pos_freqs = float(base) ** (np.arange(0, dim, 2, dtype=np.float64) / dim)
    extra = 1.0 / pos_freqs
    inter = 1.0 / (factor * pos_freqs)
    extra_factor = 1.0 - ramp
    return inter * (1.0 - extra_factor) + extra * extra_factor, attention_factor


def _init_longrope(cfg, p, seq_len, layer_type):
    base = p["rope_theta"]
    dim = int(_head_dim_getattr(cfg) * p.get("partial_rotary_factor", 1.0))
    factor = p.get("factor")
    attention_factor = p.get("attention_factor")
    omax = p["original_max_position_embeddings"]
    if factor is None:
        factor = cfg.max_position_embeddings / omax
    if attention_factor is None:
        attention_factor = 1.0 if factor <= 1.0 else math.sqrt(1 + math.log(factor) / math.log(omax))
    ext = np.asarray(p["long_factor"] if (seq_len and seq_len > omax) else p["short_factor"], dtype=np.float64)
    shape = np.arange(0, dim, 2, dtype=np.float64) / dim
    return 1.0 / (ext * float(base) ** shape), attention_factor


def _init_llama3(cfg, p, seq_len, layer_type):
    dim = int(_head_dim_or(cfg) * p.get("partial_rotary_factor", 1.0))
    inv = _default_freqs(p["rope_theta"], dim)
    factor, lo, hi = p["factor"], p["low_freq_factor"], p["high_freq_factor"]
    old = p["original_max_position_embeddings"]
    low_wl, high_wl = old / lo, old / hi
    wl = 2 * math.pi / inv
    out = np.where(wl > low_wl, inv / factor, inv)
    with np.errstate(divide="ignore", invalid="ignore"):  # lo == hi (Llama 4) divides by zero; masked below
        smooth = (old / wl - lo) / (hi - lo)
        smoothed = (1 - smooth) * out / factor + smooth * out
    medium = (~(wl < high_wl)) & (~(wl > low_wl))
    return np.where(medium, smoothed, out), 1.0


ROPE_INIT_FUNCTIONS = {"linear": _init_linear, "dynamic": _init_dynamic, "yarn": _init_yarn,
                       "longrope": _init_longrope, "llama3": _init_llama3, "proportional": _init_proportional}


def _layer_types_with_rope(cfg):
    lts = getattr(cfg, "layer_types", None)
    return lts


def inv_freq(config, layer_type=None, seq_len=None, include_nope=False):
    """(inv_freq, attention_factor) for one layer type.

    layer_type: needed for nested configs (gemma3/gemma4/modernbert); ignored for flat ones.
    seq_len: current sequence length (max position id + 1); matters for dynamic and longrope only.
             None == model init (dynamic: max_position_embeddings; longrope: short_factor).
             Note the runtime wrapper (dynamic_rope_update) recomputes longrope with
             seq_len = original_max_position_embeddings + 1 once seq_len > original.
    include_nope: proportional RoPE returns head_dim//2 entries with trailing zeros (non-rotating);
                  by default only the rotating (non-zero) pairs are returned.
    """
    cfg = _as_cfg(config)
    if cfg.rope_parameters is None:
        raise ValueError("%s has no RoPE in transformers @%s (no rope_parameters)" % (cfg.family_used,
                                                                                    HF_COMMIT[:7]))
    nested = _is_nested(cfg)
    if nested and layer_type is None:
        lts = cfg.layer_types
        layer_type = "full_attention" if "full_attention" in lts else lts[0]
    if not nested and cfg.family_used in _DEFAULT_PER_LAYER and layer_type is None:
        layer_type = "full_attention"
    lt_arg = layer_type if nested else None
    p = _params_for(cfg, layer_type)
    if p is None:
        raise ValueError("no RoPE parameters for layer type %r" % layer_type)
    rope_type = p.get("rope_type", p.get("type", "default"))
    if rope_type == "default":
        lcfg = _layer_cfg(cfg, layer_type)
        inv, att = _init_default_model(lcfg, layer_type)
    else:
        if rope_type not in ROPE_INIT_FUNCTIONS:
            raise KeyError("rope_type %r is not in ROPE_INIT_FUNCTIONS @%s" % (rope_type, HF_COMMIT[:7]))
        eff = _effective(cfg)
        lcfg = _layer_cfg(eff, layer_type)
        lcfg.rope_parameters = eff.rope_parameters
        inv, att = ROPE_INIT_FUNCTIONS[rope_type](lcfg, _params_for(eff, lt_arg), seq_len, lt_arg)
    if rope_type == "proportional" and not include_nope:
        inv = inv[inv != 0.0]
    return np.asarray(inv, dtype=np.float64), float(att)


# --------------------------------------------------------------------------------------
# pairing / rotary dims / layer schedule
# --------------------------------------------------------------------------------------


def pairing(config) -> str:
    """How the rotated dims are paired (modeling_<family>.py @c49429e):
    half-split  : rotate_half, emb = cat(freqs, freqs): pair i = (x[i], x[i + d/2])
    interleaved : pair i = (x[2i], x[2i+1]) (cohere/cohere2 repeat_interleave; glm4 interleaved partial;
                  llama4 view_as_complex; deepseek_v3 when rope_interleave)."""
    cfg = _as_cfg(config)
    fam = cfg.family if cfg.family else cfg.model_type
    if not _has_rope(cfg):
        return "none"  # nemotron_h (NoPE attention), mpt and alibi falcon (ALiBi)
    if fam in ("llama4_text", "cohere", "cohere2", "glm", "glm4"):
        return "interleaved"
    if fam == "deepseek_v3":
        return "interleaved" if cfg.rope_interleave else "half-split"
    if fam in ("deepseek_v2", "deepseek_v32", "glm_moe_dsa"):
        # deepseek_v2: view_as_complex(x.reshape(..., -1, 2)) (modeling_deepseek_v2.py:267-280, output stays
        # interleaved); deepseek_v32 / glm_moe_dsa: apply_rotary_pos_emb_interleave, always (rope_interleave
        # in config.json is not read), output written back de-interleaved (evens-rotated then odds-rotated)
        return "interleaved"
    return "half-split"  # incl. gpt_oss (torch.chunk halves), gemma*, qwen*, phi3, mistral, olmo2, modernbert,
    # falcon, phi, mixformer (x_rot.chunk(2)), minimax_m2 / mimo / qwen3_5 (partial, first rotary_dim dims)


def _has_rope(cfg) -> bool:
    """False when no layer is ever rotated: no rope_parameters (nemotron_h, mpt), Falcon with alibi=True
    (modeling_falcon.py:334 applies RoPE only `if alibi is None`), Nemotron-H (attention never calls RoPE)."""
    if cfg.family_used == "nemotron_h" or cfg.rope_parameters is None:
        return False
    if cfg.family_used == "falcon" and cfg.alibi:
        return False
    return True


def rotary_dims(config, layer_type=None) -> int:
    """Number of head dims that rotate (2 x number of non-zero frequencies)."""
    cfg = _as_cfg(config)
    if not _has_rope(cfg):
        return 0
    inv, _ = inv_freq(cfg, layer_type=layer_type)
    return int(2 * np.count_nonzero(inv))


_ATTN = {"full_attention": "full", "sliding_attention": "sliding", "chunked_attention": "chunked",
         "linear_attention": "linear",
         # second pass: DSA layers are causal attention + a top-k token selection (extra key dsa_index_topk);
         # lfm2 "conv" = gated short causal convolution; nemotron_h "moe"/"mlp" blocks have no token mixer
         "deepseek_sparse_attention": "full", "conv": "conv", "moe": "none", "mlp": "none"}
_DEEPSEEK_MLA = ("deepseek_v3", "deepseek_v2", "deepseek_v32", "glm_moe_dsa")


def layer_schedule(config) -> list[dict]:
    cfg = _as_cfg(config)
    fam = cfg.family_used
    n = cfg.num_hidden_layers
    lts = getattr(cfg, "layer_types", None)
    std = standardize(cfg)
    nested = _is_nested(cfg)
    out = []
    for i in range(n):
        lt = lts[i] if lts else None
        attention = _ATTN.get(lt, "full") if lt else "full"
        window = None
        chunk = None
        rope = True
        query_scale = None
        softmax_scale = None
        if fam in ("mistral", "phi3", "ministral3", "qwen3_moe") or (
                lts is None and getattr(cfg, "sliding_window", None) is not None
                and fam not in ("llama", "olmo2", "glm4", "deepseek_v3", "deepseek_v2", "phi", "falcon",
                                "minimax_m2", "qwen3_vl_text", "mpt", "mixformer-sequential")):
            # mistral/phi3/ministral3/qwen3_moe pass getattr(config, "sliding_window") to EVERY layer
            sw = getattr(cfg, "sliding_window", None)
            attention, window = ("sliding", sw) if sw is not None else ("full", None)
        elif attention == "sliding":
            if fam == "modernbert":
                window = cfg.local_attention  # symmetric: +-local_attention//2 (passes sliding_window+1)
            elif fam == "smollm3":
                window = cfg.sliding_window if cfg.use_sliding_window else None
            else:
                window = getattr(cfg, "sliding_window", None)
        elif attention == "chunked":
            chunk = getattr(cfg, "attention_chunk_size", None)
        if fam in ("llama4_text", "smollm3"):
            rope = bool(cfg.no_rope_layers[i])
        elif fam == "cohere2":
            rope = lt == "sliding_attention"
        elif fam in ("nemotron_h", "mpt") or (fam == "falcon" and cfg.alibi):
            rope = False  # nemotron_h: NemotronHAttention never applies RoPE; mpt / alibi falcon: ALiBi
        elif attention in ("linear", "conv", "none"):
            rope = False
        if fam == "llama4_text" and not rope and cfg.attn_temperature_tuning:
            query_scale = "1 + %r * log1p(floor((pos + 1) / %r))" % (cfg.attn_scale, cfg.floor_scale)
        if fam == "ministral3":
            # modeling_ministral3.py:105-107, :146-150: after RoPE, q *= 1 + beta*log(1 + floor(pos / orig));
            # beta = rope_parameters["llama_4_scaling_beta"], orig = rope_parameters["original_max_position_
            # embeddings"]; a missing beta (None) makes transformers raise TypeError in forward
            rp = cfg.rope_parameters
            beta, orig = rp.get("llama_4_scaling_beta"), rp.get("original_max_position_embeddings")
            if beta is not None and orig is not None:
                query_scale = "1 + %r * log(1 + floor(pos / %r))" % (beta, orig)
        if fam in ("gemma2", "gemma3_text"):
            softmax_scale = float(cfg.query_pre_attn_scalar) ** -0.5
        elif fam == "gemma4_text":
            softmax_scale = 1.0
        elif fam in _DEEPSEEK_MLA:  # yarn_apply_mscale (modeling_deepseek_v2.py:289-296, v3/v32/glm_moe_dsa same)
            s = cfg.qk_head_dim ** -0.5
            rp = cfg.rope_parameters
            if rp.get("rope_type", "default") != "default":
                mad = rp.get("mscale_all_dim", 0)
                if mad:
                    m = _get_mscale(rp["factor"], mad)
                    s = s * m * m
            softmax_scale = s
        if rope:
            key = lt if nested else "all"
            p = std.get(key) if key in std else std.get("all")
            rope_theta = float(p["rope_theta"]) if p and p.get("rope_theta") is not None else None
            rope_type = p.get("rope_type", "default") if p else "none"
        else:
            rope_theta, rope_type = None, "none"
        d = {"index": i, "attention": attention, "window": window, "chunk": chunk, "rope": rope,
             "layer_type": lt, "rope_theta": rope_theta, "rope_type": rope_type, "query_scale": query_scale}
        if softmax_scale is not None:
            d["softmax_scale"] = softmax_scale  # extra: non-default attention scaling constant
        if lt == "deepseek_sparse_attention":
            d["dsa_index_topk"] = cfg.index_topk  # extra: each query attends to <= index_topk selected keys
            if fam == "glm_moe_dsa":
                d["dsa_indexer"] = cfg.indexer_types[i]  # "full" runs the indexer, "shared" reuses the mask
        if fam == "mpt" or (fam == "falcon" and cfg.alibi):
            d["alibi"] = True  # extra: position information comes from an ALiBi bias
        out.append(d)
    return out


def ministral3_query_scale(pos, beta=0.1, original_max_position_embeddings=16384):
    """Ministral 3 query multiplier, every layer (get_llama_4_attn_scale, modeling_ministral3.py:105-107 @c49429e):
    1 + beta * log(1 + floor(pos / original_max_position_embeddings)); pos is the 0-based position id."""
    pos = np.asarray(pos, dtype=np.float64)
    return 1.0 + beta * np.log(1.0 + np.floor(pos / original_max_position_embeddings))


def llama4_query_scale(pos, floor_scale=8192, attn_scale=0.1):
    """Llama 4 NoPE-layer query multiplier (modeling_llama4.py @c49429e): pos is the 0-based absolute position."""
    pos = np.asarray(pos, dtype=np.float64)
    return np.log1p(np.floor((pos + 1.0) / floor_scale)) * attn_scale + 1.0


# --------------------------------------------------------------------------------------
# self-test
# --------------------------------------------------------------------------------------


def _selftest():
    import json
    import os

    np.set_printoptions(precision=6, linewidth=110)
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "hf_test_expected.json")) as f:
        exp = json.load(f)["expected_inv_freq"]
    fails = 0

    def check(name, got, ref, rtol=1e-4, atol=1e-5):
        nonlocal fails
        ref = np.asarray(ref)
        ok = got.shape == ref.shape and np.all(np.abs(got - ref) <= atol + rtol * np.abs(ref))
        # snapshot literals are float32 printed to 5 significant digits (torch assert_close-like tolerance)
        if not ok:
            fails += 1
        err = float(np.max(np.abs(got - ref) / np.maximum(np.abs(ref), 1e-30))) if got.shape == ref.shape else -1
        print("%-46s %s  (n=%d, max rel err %.2e)" % (name, "OK  " if ok else "FAIL", ref.size, err))

    # ---- checks against tests/utils/test_modeling_rope_utils.py @c49429e -----------------
    # LlamaConfig defaults: hidden 4096, heads 32 -> head_dim 128, max_position_embeddings 2048
    L = {"model_type": "llama"}
    check("test_default_rope_numerically", inv_freq({**L, "rope_parameters": {"rope_type": "default",
          "rope_theta": 10000.0}})[0], exp["test_default_rope_numerically"])
    check("test_dynamic_rope_numerically (seq 16384)", inv_freq({**L, "rope_parameters": {"rope_type": "dynamic",
          "rope_theta": 10000.0, "factor": 10.0}}, seq_len=16384)[0], exp["test_dynamic_rope_numerically"])
    yc = {**L, "rope_parameters": {"rope_type": "yarn", "rope_theta": 10000.0, "factor": 10.0, "beta_fast": 32,
                                   "beta_slow": 1}}
    check("test_yarn_rope_numerically", inv_freq(yc)[0], exp["test_yarn_rope_numerically"])
    l3 = {**L, "rope_parameters": {"rope_type": "llama3", "rope_theta": 10000.0, "factor": 10.0,
                                   "original_max_position_embeddings": 2048, "low_freq_factor": 1,
                                   "high_freq_factor": 4}}
    check("test_llama3_rope_numerically", inv_freq(l3)[0], exp["test_llama3_rope_numerically"])
    pc = {**L, "rope_parameters": {"rope_type": "proportional", "rope_theta": 10000.0, "partial_rotary_factor": 0.25}}
    check("test_proportional_rope_numerically", inv_freq(pc, include_nope=True)[0],
          exp["test_proportional_rope_numerically"])
    # Gemma3TextConfig defaults (head_dim 256, max_position_embeddings 131072), layer_types [full, sliding]
    def g3(params):
        return {"model_type": "gemma3_text", "layer_types": ["full_attention", "sliding_attention"],
                "num_hidden_layers": 2,
                "rope_parameters": {"full_attention": params,
                                    "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0}}}
    check("test_default_rope_numerically_nested", inv_freq(g3({"rope_type": "default", "rope_theta": 10000.0}),
          "full_attention")[0], exp["test_default_rope_numerically_nested"])
    check("test_dynamic_rope_numerically_nested", inv_freq(g3({"rope_type": "dynamic", "rope_theta": 10000.0,
          "factor": 10.0}), "full_attention", seq_len=200000)[0], exp["test_dynamic_rope_numerically_nested"])
    check("test_yarn_rope_numerically_nested", inv_freq(g3({"rope_type": "yarn", "rope_theta": 10000.0,
          "factor": 10.0, "beta_fast": 32, "beta_slow": 1}), "full_attention")[0],
          exp["test_yarn_rope_numerically_nested"])
    check("test_llama3_rope_numerically_nested", inv_freq(g3({"rope_type": "llama3", "rope_theta": 10000.0,
          "factor": 10.0, "original_max_position_embeddings": 2048, "low_freq_factor": 1, "high_freq_factor": 4}),
          "full_attention")[0], exp["test_llama3_rope_numerically_nested"])
    check("test_proportional_rope_numerically_nested", inv_freq(g3({"rope_type": "proportional",
          "rope_theta": 10000.0, "partial_rotary_factor": 0.25}), "full_attention", include_nope=True)[0],
          exp["test_proportional_rope_numerically_nested"], rtol=1e-4, atol=1e-4)  # test's own atol/rtol
    # attention factors asserted in those tests
    for f in (2.0, 10.0, 20.0):
        a = inv_freq({**L, "rope_parameters": {"rope_type": "yarn", "rope_theta": 1e4, "factor": f}})[1]
        assert abs(a - (0.1 * math.log(f) + 1.0)) < 1e-15
        lr = {**L, "rope_parameters": {"rope_type": "longrope", "rope_theta": 1e4, "factor": f,
                                       "short_factor": [2.0] * 64, "long_factor": list(range(1, 65))}}
        a = inv_freq(lr)[1]
        assert abs(a - math.sqrt(1 + math.log(f) / math.log(2048))) < 1e-15
    lr = {**L, "rope_parameters": {"rope_type": "longrope", "rope_theta": 1e4, "factor": 1.0,
                                   "short_factor": [2.0] * 64, "long_factor": [float(i) for i in range(1, 65)]}}
    d0 = _default_freqs(1e4, 128)
    assert np.allclose(inv_freq(lr, seq_len=0)[0], d0 / 2.0)
    assert np.allclose(inv_freq(lr, seq_len=2049)[0], d0 / np.arange(1, 65))
    print("attention-factor / longrope short-long checks OK")

    # ---- tests/models/deepseek_v2/test_modeling_deepseek_v2.py @c49429e (DeepseekV2AttentionScalingTest) ---
    # test_yarn_mscale_is_folded_into_attention_scale: DeepseekV2Config(rope_parameters={yarn, factor 40,
    # mscale_all_dim 1.0, original_max_position_embeddings 4096}); expects (assertAlmostEqual, places=5)
    # attn.scaling == (qk_nope + qk_rope)**-0.5 * m * m with m = 0.1 * mscale_all_dim * ln(factor) + 1
    dv2 = {"model_type": "deepseek_v2", "num_hidden_layers": 1,
           "rope_parameters": {"rope_type": "yarn", "factor": 40.0, "mscale_all_dim": 1.0,
                               "original_max_position_embeddings": 4096}}
    m = 0.1 * 1.0 * math.log(40.0) + 1.0
    got = layer_schedule(dv2)[0]["softmax_scale"]
    assert round(got - (128 + 64) ** -0.5 * m * m, 5) == 0, got
    # test_scale_untouched_without_yarn_mscale: default rope -> (qk_nope + qk_rope)**-0.5 (places=6)
    got = layer_schedule({"model_type": "deepseek_v2", "num_hidden_layers": 1,
                          "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0}})[0]["softmax_scale"]
    assert round(got - (128 + 64) ** -0.5, 6) == 0, got
    print("deepseek_v2 attention-scaling checks OK")

    # ---- example configs (constructed here, not a corpus) --------------------------------
    print("\n== Llama 3.1 8B style (llama3 factor 8, low 1, high 4, orig 8192, theta 5e5, head 128)")
    llama31 = {"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "num_hidden_layers": 32,
               "max_position_embeddings": 131072, "rope_theta": 500000.0,
               "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                                "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}}
    print("standardize:", standardize(llama31))
    inv, att = inv_freq(llama31)
    print("inv_freq[:4]", inv[:4], "inv_freq[-4:]", inv[-4:], "attention_factor", att)
    print("pairing", pairing(llama31), "rotary_dims", rotary_dims(llama31))

    print("\n== Phi-3 mini 128k style (longrope, top-level original_max_position_embeddings wins)")
    phi3 = {"model_type": "phi3", "hidden_size": 3072, "num_attention_heads": 32, "num_hidden_layers": 32,
            "max_position_embeddings": 131072, "original_max_position_embeddings": 4096, "rope_theta": 10000.0,
            "rope_scaling": {"type": "longrope", "short_factor": [1.0] * 48, "long_factor": [4.0] * 48,
                             "original_max_position_embeddings": 9999}, "partial_rotary_factor": 1.0}
    print("standardize:", {k: {kk: vv for kk, vv in v.items() if not kk.endswith("_factor") or kk ==
          "partial_rotary_factor"} for k, v in standardize(phi3).items()})
    print("short attention_factor", inv_freq(phi3)[1], "long inv[:2]", inv_freq(phi3, seq_len=5000)[0][:2])

    print("\n== DeepSeek-V3 style yarn (factor 40, mscale 1, mscale_all_dim 1, orig 4096)")
    ds = {"model_type": "deepseek_v3", "rope_theta": 10000, "max_position_embeddings": 163840,
          "rope_scaling": {"type": "yarn", "factor": 40, "beta_fast": 32, "beta_slow": 1, "mscale": 1.0,
                           "mscale_all_dim": 1.0, "original_max_position_embeddings": 4096}}
    inv, att = inv_freq(ds)
    print("n pairs", inv.size, "attention_factor", att, "softmax_scale", layer_schedule(ds)[0]["softmax_scale"],
          "pairing", pairing(ds))

    print("\n== gpt-oss style defaults (yarn factor 32, truncate False, theta 150000)")
    go = {"model_type": "gpt_oss", "num_hidden_layers": 4}
    inv, att = inv_freq(go)
    print("inv[:3]", inv[:3], "attention_factor", att)
    for r in layer_schedule(go):
        print("  ", r)

    print("\n== Gemma 3 (v4-style config.json inside text_config)")
    gm3 = {"model_type": "gemma3", "text_config": {"num_hidden_layers": 8, "rope_theta": 1000000.0,
           "rope_local_base_freq": 10000.0, "rope_scaling": {"rope_type": "linear", "factor": 8.0},
           "sliding_window": 1024, "sliding_window_pattern": 6}}
    print("standardize:", standardize(gm3))
    for r in layer_schedule(gm3):
        print("  ", r)
    print("full inv[:2]", inv_freq(gm3, "full_attention")[0][:2], "sliding inv[:2]",
          inv_freq(gm3, "sliding_attention")[0][:2])

    print("\n== Gemma 4 defaults (proportional p-RoPE on full layers, global_head_dim 512)")
    g4 = {"model_type": "gemma4", "text_config": {"num_hidden_layers": 6}}
    print("standardize:", standardize(g4))
    print("full rotating pairs", inv_freq(g4, "full_attention")[0].size, "of",
          inv_freq(g4, "full_attention", include_nope=True)[0].size, "; rotary_dims(full)",
          rotary_dims(g4, "full_attention"), "rotary_dims(sliding)", rotary_dims(g4, "sliding_attention"))

    print("\n== Llama 4 Scout style")
    l4 = {"model_type": "llama4", "text_config": {"num_hidden_layers": 8, "rope_theta": 500000.0,
          "rope_scaling": {"rope_type": "llama3", "factor": 16.0, "low_freq_factor": 1.0, "high_freq_factor": 1.0,
                           "original_max_position_embeddings": 8192}, "attention_chunk_size": 8192}}
    for r in layer_schedule(l4):
        print("  ", r)
    print("query scale at pos 0, 8191, 8192*4-1:", llama4_query_scale([0, 8191, 8192 * 4 - 1]))

    print("\n== ModernBERT (legacy keys)")
    mb = {"model_type": "modernbert", "num_hidden_layers": 6, "global_rope_theta": 160000.0,
          "local_rope_theta": 10000.0, "global_attn_every_n_layers": 3, "local_attention": 128}
    for r in layer_schedule(mb):
        print("  ", r)

    print("\n== Cohere2, SmolLM3, Qwen3-Next, Qwen2 (use_sliding_window), Mistral, GLM-4")
    for c in ({"model_type": "cohere2", "num_hidden_layers": 4, "rope_theta": 50000.0},
              {"model_type": "smollm3", "num_hidden_layers": 4},
              {"model_type": "qwen3_next", "num_hidden_layers": 4, "rope_theta": 10000000.0},
              {"model_type": "qwen2", "num_hidden_layers": 4, "use_sliding_window": True, "max_window_layers": 2},
              {"model_type": "mistral", "num_hidden_layers": 2},
              {"model_type": "glm4", "num_hidden_layers": 2, "rope_theta": 10000.0}):
        print(c["model_type"], "pairing", pairing(c), "rotary_dims", rotary_dims(c))
        for r in layer_schedule(c):
            print("  ", r)

    print("\n== second-pass families (constructed configs; class defaults @c49429e)")
    for c in ({"model_type": "qwen2_vl", "num_hidden_layers": 2, "rope_scaling": {"type": "mrope",
               "mrope_section": [16, 24, 24]}, "head_dim": 999},  # head_dim: not a text field -> dropped
              {"model_type": "olmo3", "num_hidden_layers": 4, "rope_theta": 10000.0},  # sliding stays 500000
              {"model_type": "mimo_v2_flash", "num_hidden_layers": 6},
              {"model_type": "lfm2", "num_hidden_layers": 4, "full_attn_idxs": [1, 3]},
              {"model_type": "nemotron_h", "hybrid_override_pattern": "M*E-"},
              {"model_type": "falcon", "num_hidden_layers": 2, "alibi": True},
              {"model_type": "glm_moe_dsa", "num_hidden_layers": 4, "index_topk_freq": 2},
              {"model_type": "phi", "num_hidden_layers": 1}):
        print(c["model_type"], "pairing", pairing(c), "rotary_dims", rotary_dims(c), "standardize", standardize(c))
        for r in layer_schedule(c):
            print("  ", r)
    print("ministral3 query scale at pos 0, 16383, 16384, 16384*3:",
          ministral3_query_scale([0, 16383, 16384, 16384 * 3]))

    print("\n%d snapshot check(s) failed" % fails)
    return fails


if __name__ == "__main__":
    raise SystemExit(1 if _selftest() else 0)
