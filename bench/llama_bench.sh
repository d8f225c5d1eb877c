#!/usr/bin/env bash
# The rotary pass of `pelab model run` on a synthetic checkpoint of a real model's names and
# shapes: SmolLM2-135M's (30 layers, width 576, 9 query and 3 key heads of 64, MLP 1 536, 49 152
# words, tied) or Llama-3.2-1B's (16 layers, width 2 048, 32 query and 8 key heads of 64, MLP
# 8 192, 128 256 words, tied, llama3 scaling); BF16 as the Hub ships them, seeded small weights;
# a 20-token sequence, the last token's logits (--last-only, as generate asks), one switch per
# pass. Prints the seconds to load, each pass (the first cold), the warm median, GFLOP/s (2 ·
# the layers' parameters · tokens + 2 · the head's, the products' count), the weights' bytes
# read per second (PE Lab holds BF16 weights as their 16 bits and reads each once per pass) and
# the peak memory; then,
# in the same run, the same passes in PyTorch (bench/llama_torch_anchor.py: the eager pass of
# Hugging Face's modeling files, weights widened to float32 once, as PE Lab's), with two threads
# and one, and the ratio to the faster. A benchmark, not a test (docs/performance.md records it).
# Usage: bench/llama_bench.sh [PELAB] [PASSES] [smollm2-135m | llama-3.2-1b]   (needs
# python3-numpy and python3-torch: scripts/deps.sh test; the 1B run writes a 2.5 GB file and
# holds about 12 GB)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pelab=${1:-$root/build/bin/pelab}
passes=${2:-7}
shape=${3:-smollm2-135m}
# LLAMA_BENCH_KEEP=DIR keeps the checkpoint there (and reuses it when it is there already).
if [[ -n "${LLAMA_BENCH_KEEP:-}" ]]; then
    folder=$LLAMA_BENCH_KEEP
    mkdir -p "$folder"
else
    folder=$(mktemp -d)
    trap 'rm -rf "$folder"' EXIT
fi
[[ -f "$folder/flops" && -f "$folder/model.safetensors" ]] || /usr/bin/python3 - "$folder" "$root/tests/models" "$shape" <<'PY'
import json, sys
import numpy as np
sys.path.insert(0, sys.argv[2])
import make_llama_fixtures as m
folder, shape = sys.argv[1], sys.argv[3]
rng = np.random.default_rng(11)
if shape == "llama-3.2-1b":
    d, layers, heads, kv, hd, ff, vocab = 2048, 16, 32, 8, 64, 8192, 128256
elif shape == "smollm2-135m":
    d, layers, heads, kv, hd, ff, vocab = 576, 30, 9, 3, 64, 1536, 49152
else:
    sys.exit("shape: smollm2-135m or llama-3.2-1b, not " + shape)
def normal(*shape, scale=0.02):
    return rng.standard_normal(size=shape, dtype=np.float32) * scale
tensors = {"model.embed_tokens.weight": normal(vocab, d), "model.norm.weight": np.ones(d, np.float32)}
for layer in range(layers):
    p = "model.layers.%d." % layer
    tensors.update({p + "input_layernorm.weight": np.ones(d, np.float32),
                    p + "self_attn.q_proj.weight": normal(heads * hd, d),
                    p + "self_attn.k_proj.weight": normal(kv * hd, d),
                    p + "self_attn.v_proj.weight": normal(kv * hd, d),
                    p + "self_attn.o_proj.weight": normal(d, heads * hd),
                    p + "post_attention_layernorm.weight": np.ones(d, np.float32),
                    p + "mlp.gate_proj.weight": normal(ff, d),
                    p + "mlp.up_proj.weight": normal(ff, d),
                    p + "mlp.down_proj.weight": normal(d, ff)})
config = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": d,
          "num_hidden_layers": layers, "num_attention_heads": heads, "num_key_value_heads": kv,
          "head_dim": hd, "intermediate_size": ff, "vocab_size": vocab,
          "max_position_embeddings": 8192, "rope_theta": 100000, "rms_norm_eps": 1e-5,
          "tie_word_embeddings": True, "torch_dtype": "bfloat16"}
if shape == "llama-3.2-1b":
    config.update(max_position_embeddings=131072, rope_theta=500000.0,
                  rope_scaling={"factor": 32.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,
                                "original_max_position_embeddings": 8192, "rope_type": "llama3"})
m.write_fixture(folder, config, tensors, dtype="BF16")
params = sum(a.size for a in tensors.values())
head = vocab * d  # the tied head: its product runs for the last token only
print("checkpoint: %s's shapes, %d parameters (%.1f M), BF16" % (shape, params, params / 1e6))
# The products' multiply-adds of a 20-token pass: every layer for each token, the head once.
open(folder + "/flops", "w").write(str(2 * (params - head) * 20 + 2 * head))
open(folder + "/bytes", "w").write(str(2 * params))  # BF16 weights, held as their 16 bits
PY
echo "file: $(stat -c %s "$folder/model.safetensors") bytes"
switches=()
for _ in $(seq "$passes"); do switches+=(--positions trained); done
tokens=1,504,3290,31517,260,582,764,383,582,31517,260,3290,764,632,373,257,3621,1110,287,260
/usr/bin/time -f "peak memory %M KB" "$pelab" model run "$folder" --tokens "$tokens" \
    --last-only --json "${switches[@]}" 2> "$folder/time" > "$folder/out.json"
/usr/bin/python3 - "$folder/out.json" "$folder/flops" "$folder/bytes" <<'PY'
import json, statistics, sys
doc = json.load(open(sys.argv[1]))
flops, weight_bytes = int(open(sys.argv[2]).read()), int(open(sys.argv[3]).read())
seconds = [run["seconds"] for run in doc["sentences"][0]["runs"]]
median = statistics.median(seconds[1:] or seconds)
print("PE Lab: load %.3f s; passes: %s s; warm median %.1f ms (20 tokens, the last one's logits; "
      "%.1f GFLOP); %.1f GFLOP/s; the weights as held (bfloat16, %.2f GB) read at %.1f GB/s" % (
          doc["seconds_load"], " ".join("%.3f" % s for s in seconds), 1000 * median, flops / 1e9,
          flops / median / 1e9, weight_bytes / 1e9, weight_bytes / median / 1e9))
PY
cat "$folder/time"
/usr/bin/python3 "$root/bench/torch_blas.py"
for threads in 2 1; do
    OPENBLAS_NUM_THREADS=$threads OMP_NUM_THREADS=$threads /usr/bin/python3 \
        "$root/bench/llama_torch_anchor.py" "$folder" "$tokens" "$passes" "$threads" \
        > "$folder/torch$threads.json"
done
/usr/bin/python3 - "$folder/out.json" "$folder/torch2.json" "$folder/torch1.json" <<'PY'
import json, statistics, sys
runs = json.load(open(sys.argv[1]))["sentences"][0]["runs"]
ours = statistics.median([run["seconds"] for run in runs][1:] or [runs[0]["seconds"]])
best = None
for path, threads in [(sys.argv[2], 2), (sys.argv[3], 1)]:
    torch = json.load(open(path))
    print("PyTorch, %d thread%s: load %.3f s; passes: %s s; warm median %.1f ms" % (
        threads, "s" if threads > 1 else "", torch["seconds_load"],
        " ".join("%.3f" % s for s in torch["seconds"]), 1000 * torch["median_warm"]))
    best = torch["median_warm"] if best is None else min(best, torch["median_warm"])
print("PE Lab / PyTorch (the faster) time per pass: %.2f (below 1: PE Lab faster)" % (ours / best))
PY
# The machine's memory bandwidth beside it: NumPy summing 1 GiB of float32 (one core), best of 5.
/usr/bin/python3 - <<'PY'
import time
import numpy as np
a = np.ones(1 << 28, dtype=np.float32)
a.sum()
best = min((lambda t: (a.sum(), time.perf_counter() - t)[1])(time.perf_counter()) for _ in range(5))
print("memory: NumPy sums 1 GiB of float32 at %.1f GB/s (one core, best of 5)" % (a.nbytes / best / 1e9))
PY
