"""What transformers' own GGUF loader makes of a GGUF file's metadata, beside PE Lab's reading.

transformers reads GGUF files itself (`from_pretrained(..., gguf_file=...)`):
load_gguf_checkpoint in src/transformers/modeling_gguf_pytorch_utils.py turns the metadata into
a config with the table GGUF_CONFIG_MAPPING of src/transformers/integrations/ggml.py. The two
tables are data (transformers_gguf_mapping.json, extracted by extract_transformers_mapping.py at
commit c49429e); the steps around them are written here from that function:
  - the architecture renamed (llama with "mistral" in general.name → mistral; qwen2moe →
    qwen2_moe, gpt-oss → gpt_oss, qwen3moe → qwen3_moe, minimax-m2 → minimax_m2), and the
    file refused when neither name is a key of the table;
  - every metadata key "<prefix>.<rest>" whose prefix and rest the table names set the config
    key it names (None: read and dropped); arrays stay lists;
  - the defaults table fills what is absent; gemma3 becomes gemma3_text;
  - lfm2: num_key_value_heads the largest of the per-layer list, full_attn_idxs the layers with
    a non-zero entry;
  - gpt-oss: rope_scaling rebuilt from the rope.scaling.* keys (type → rope_type,
    original_context_length → original_max_position_embeddings, the others by their own name).
No other key is read: rope_freqs.weight (Llama 3's scaling), rope_factors_long/short (longrope),
rope.freq_base_swa and rope.scaling.* outside gpt-oss are not.

The check: for each fixture whose architecture transformers reads, every position key of the
original config.json is compared with transformers' config and with the config PE Lab read the
file as (`model inspect --json`: gguf.config). PE Lab must agree with the original wherever
transformers does; where transformers does not, the difference is printed as what its loader
loses.
"""
import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))

# The keys that shape positions, and the names the originals give them.
POSITION_KEYS = {
    "max_position_embeddings": ("max_position_embeddings", "n_positions", "n_ctx"),
    "n_ctx": ("n_ctx", "n_positions", "max_position_embeddings"),
    "hidden_size": ("hidden_size", "n_embd"),
    "n_embd": ("n_embd", "hidden_size"),
    "num_hidden_layers": ("num_hidden_layers", "n_layer"),
    "n_layer": ("n_layer", "num_hidden_layers"),
    "num_attention_heads": ("num_attention_heads", "n_head"),
    "n_head": ("n_head", "num_attention_heads"),
    "num_key_value_heads": ("num_key_value_heads", "num_kv_heads"),
    "head_dim": ("head_dim",),
    "rope_theta": ("rope_theta",),
    "rope_local_base_freq": ("rope_local_base_freq",),
    "sliding_window": ("sliding_window",),
    "partial_rotary_factor": ("partial_rotary_factor",),
    "rope_scaling": ("rope_scaling",),
    "full_attn_idxs": ("full_attn_idxs",),
}


def tables():
    with open(os.path.join(HERE, "transformers_gguf_mapping.json")) as f:
        return json.load(f)


def transformers_config(kv, tensor_names=()):
    """The config load_gguf_checkpoint builds from the metadata kv (key → value), or None when
    it refuses the architecture."""
    t = tables()
    mapping, defaults = t["GGUF_CONFIG_MAPPING"], t["GGUF_CONFIG_DEFAULTS_MAPPING"]
    arch = kv["general.architecture"]
    name = kv.get("general.name", "") or ""
    updated = "mistral" if "llama" in arch and "mistral" in name else arch
    for part, renamed in (("qwen2moe", "qwen2_moe"), ("gpt-oss", "gpt_oss"),
                          ("gpt_oss", "gpt_oss"), ("qwen3moe", "qwen3_moe"),
                          ("minimax-m2", "minimax_m2")):
        if part in arch:
            updated = renamed
            break
    if arch not in mapping and updated not in mapping:
        return None
    config = {"tie_word_embeddings": "output.weight" not in tensor_names or
              arch in ("falcon", "bloom")}
    for key, value in (defaults.get(updated) or defaults.get(arch) or {}).items():
        config.setdefault(key, value)
    for key, value in kv.items():
        key = key.replace(arch, updated)
        prefix, _, rest = key.partition(".")
        if isinstance(value, str) and arch in value:
            value = value.replace(arch, updated)
        target = mapping.get(prefix, {}).get(rest, -1)
        if target is not None and target != -1:
            config[target] = value
    if config.get("model_type") == "gemma3":
        config["model_type"] = "gemma3_text"
    if config.get("model_type") == "lfm2":
        heads = config["num_key_value_heads"]
        config["num_key_value_heads"] = max(heads)
        config["full_attn_idxs"] = [i for i, n in enumerate(heads) if n > 0]
    if updated == "gpt_oss" and "gpt-oss.rope.scaling.type" in kv:
        scaling = {"rope_type": kv["gpt-oss.rope.scaling.type"]}
        for key, value in kv.items():
            if key.startswith("gpt-oss.rope.scaling.") and key != "gpt-oss.rope.scaling.type":
                suffix = key[len("gpt-oss.rope.scaling."):]
                if suffix in ("original_context_length", "original_max_position_embeddings"):
                    suffix, value = "original_max_position_embeddings", int(value)
                scaling[suffix] = value
        config["rope_scaling"] = scaling
    return config


def same(a, b):
    """Equal as config values: numbers to 1e-6 relative (the file keeps float32), lists and
    dicts item by item (a scaling's keys both sides give), absent only with absent."""
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return math.isclose(a, b, rel_tol=1e-6)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        type_a = a.get("rope_type", a.get("type"))
        type_b = b.get("rope_type", b.get("type"))
        shared = (set(a) & set(b)) - {"type", "rope_type"}
        return type_a == type_b and all(same(a[k], b[k]) for k in shared)
    return a == b


# The metadata key (after "<arch>.") that carries each position key, where the file has one.
FILE_KEYS = {
    "max_position_embeddings": "context_length", "n_ctx": "context_length",
    "hidden_size": "embedding_length", "n_embd": "embedding_length",
    "num_hidden_layers": "block_count", "n_layer": "block_count",
    "num_attention_heads": "attention.head_count", "n_head": "attention.head_count",
    "num_key_value_heads": "attention.head_count_kv", "head_dim": "attention.key_length",
    "rope_theta": "rope.freq_base", "rope_local_base_freq": "rope.freq_base_swa",
    "sliding_window": "attention.sliding_window",
    "partial_rotary_factor": "rope.dimension_count", "rope_scaling": "rope.scaling.type",
}


def first_of(config, key):
    for name in POSITION_KEYS[key]:
        if config.get(name) is not None:
            return config[name]
    return None


def file_value(kv, key, tensor_names):
    """What the file itself says of key: its metadata value, True for what only a tensor or a
    width carries (Llama 3's rope_freqs, a partial rotary width), None when it holds nothing."""
    if key == "rope_scaling" and ({"rope_freqs.weight", "rope_factors_long.weight"} &
                                  set(tensor_names)):
        return True
    arch = kv["general.architecture"]
    value = kv.get(arch + "." + FILE_KEYS[key])
    if isinstance(value, list):
        value = max(value)
    return True if value is not None and key in ("rope_scaling", "partial_rotary_factor") \
        else value


def compare(where, original, kv, tensor_names, theirs, mine, check, losses):
    """Each position key of the original against transformers' config and PE Lab's: PE Lab
    agrees with the original wherever transformers does, and wherever the file carries the
    value transformers' loader drops; what a converted file itself lacks is only said."""
    for key in POSITION_KEYS:
        want = first_of(original, key)
        if want is None or key.startswith("n_") and key not in theirs:
            continue
        if key == "partial_rotary_factor" and want == 1.0:
            continue  # the whole head: nothing to carry
        got_theirs, got_mine = first_of(theirs, key), first_of(mine, key)
        if key == "rope_scaling" and isinstance(want, dict) and \
                want.get("rope_type", want.get("type")) == "llama3" and isinstance(got_mine, dict):
            # The converter writes Llama 3's factors with the top level's original context
            # (8192 by default, EXPECT.json's rope_freqs_note): PE Lab finds the parameters
            # that give the file's factors, not those of rope_scaling.
            want = dict(want, original_max_position_embeddings=got_mine.get(
                "original_max_position_embeddings"))
        in_file = file_value(kv, key, tensor_names)
        if same(got_theirs, want):
            check("%s: %s as transformers' GGUF loader and the original read it" % (where, key),
                  same(got_mine, want), "PE Lab %r, transformers and the original %r" %
                  (got_mine, want))
        elif in_file is True or (in_file is not None and same(in_file, want)):
            losses.append("%s: %s is %r in the original and in the file; transformers' GGUF "
                          "loader gives %r" % (where, key, want, got_theirs))
            check("%s: %s read from the file, which transformers' loader drops" % (where, key),
                  same(got_mine, want), "PE Lab %r, the original %r" % (got_mine, want))
        else:
            print("info  %s: %s is %r in the original, %r in the converted file (PE Lab %r, "
                  "transformers %r)" % (where, key, want, in_file, got_mine, got_theirs))
