#!/usr/bin/env bash
# The Your model panel's usage view on an 8B model: Llama-3.1-8B's config and every tensor name
# and shape (32 layers, BF16, 4 shards and their index, 16 GB). The q and k projections hold
# seeded random numbers (1.3 GB written for real, so they come from the page cache, warm after
# the first run); every other tensor is a hole of the sparse files, never read. Prints each
# run's seconds (open, analyse: the usage view's reading of 64 projections) and peak memory.
# A benchmark, not a test (docs/performance.md records its output).
# Usage: scripts/usage_bench.sh [PELAB] [RUNS]   (needs python3-numpy: scripts/deps.sh test)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pelab=${1:-$root/build/bin/pelab}
runs=${2:-5}
folder=$(mktemp -d)
trap 'rm -rf "$folder"' EXIT
/usr/bin/python3 - "$folder" <<'PY'
import json, struct, sys
import numpy as np
folder = sys.argv[1]
hidden, layers, heads, kv, hd, inter, vocab = 4096, 32, 32, 8, 128, 14336, 128256
config = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": hidden,
          "num_hidden_layers": layers, "num_attention_heads": heads,
          "num_key_value_heads": kv, "head_dim": hd, "intermediate_size": inter,
          "vocab_size": vocab, "max_position_embeddings": 131072, "rope_theta": 500000.0,
          "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                           "original_max_position_embeddings": 8192, "rope_type": "llama3"},
          "torch_dtype": "bfloat16"}
json.dump(config, open(folder + "/config.json", "w"))
tensors = [("model.embed_tokens.weight", (vocab, hidden))]
for i in range(layers):
    p = "model.layers.%d." % i
    tensors += [(p + "self_attn.q_proj.weight", (heads * hd, hidden)),
                (p + "self_attn.k_proj.weight", (kv * hd, hidden)),
                (p + "self_attn.v_proj.weight", (kv * hd, hidden)),
                (p + "self_attn.o_proj.weight", (hidden, heads * hd)),
                (p + "mlp.gate_proj.weight", (inter, hidden)),
                (p + "mlp.up_proj.weight", (inter, hidden)),
                (p + "mlp.down_proj.weight", (hidden, inter)),
                (p + "input_layernorm.weight", (hidden,)),
                (p + "post_attention_layernorm.weight", (hidden,))]
tensors += [("model.norm.weight", (hidden,)), ("lm_head.weight", (vocab, hidden))]
rng = np.random.default_rng(8)
shards, per = 4, (len(tensors) + 3) // 4
weight_map = {}
for s in range(shards):
    part = tensors[s * per:(s + 1) * per]
    name = "model-%05d-of-%05d.safetensors" % (s + 1, shards)
    header, offset = {}, 0
    for tensor, shape in part:
        size = int(np.prod(shape)) * 2
        header[tensor] = {"dtype": "BF16", "shape": list(shape),
                          "data_offsets": [offset, offset + size]}
        offset += size
        weight_map[tensor] = name
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(folder + "/" + name, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text)
        start = f.tell()
        for tensor, shape in part:
            begin = header[tensor]["data_offsets"][0]
            if "q_proj" in tensor or "k_proj" in tensor:
                f.seek(start + begin)
                values = rng.standard_normal(shape, dtype=np.float32) * 0.02
                f.write((values.view(np.uint32) >> 16).astype("<u2").tobytes())
        f.truncate(start + offset)
json.dump({"metadata": {}, "weight_map": weight_map},
          open(folder + "/model.safetensors.index.json", "w"))
PY
echo "files: $(du -sh --apparent-size "$folder" | cut -f1) apparent, $(du -sh "$folder" | cut -f1) on disk"
for ((run = 1; run <= runs; run++)); do
    /usr/bin/time -f "%M %e" -o "$folder/rss" "$pelab" model inspect "$folder" --json >"$folder/out.json"
    /usr/bin/python3 -c "
import json
s = json.load(open('$folder/out.json'))['seconds']
rss, wall = open('$folder/rss').read().split()
print('run $run: open %.3f s, analyse %.3f s, whole command %s s, peak memory %.1f MB' %
      (s['open'], s['analyse'], wall, int(rss) / 1024))"
done
