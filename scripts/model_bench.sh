#!/usr/bin/env bash
# Opening a GPT-2-small-sized checkpoint (548 MB: every tensor name and shape of GPT-2 small,
# seeded position table, zeros elsewhere): seconds to open the files and find the position parts,
# to read the position table, to compute the panel's numbers, and the process's peak memory.
# A benchmark, not a test (docs/models.md records its output).
# Usage: scripts/model_bench.sh [PELAB] [RUNS]   (needs python3-numpy: scripts/deps.sh test)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pelab=${1:-$root/build/bin/pelab}
runs=${2:-5}
folder=$(mktemp -d)
trap 'rm -rf "$folder"' EXIT
/usr/bin/python3 - "$folder" "$root/tests/models" <<'PY'
import json, sys
import numpy as np
sys.path.insert(0, sys.argv[2])
import make_fixtures as m
folder = sys.argv[1]
tensors = [("wte.weight", np.zeros((50257, 768), np.float32), "F32"),
           ("wpe.weight", m.normal(1024, 768).astype(np.float32), "F32")]
for layer in range(12):
    p = "h.%d." % layer
    tensors += [(p + "attn.bias", np.zeros((1, 1, 1024, 1024), np.float32), "F32"),
                (p + "attn.c_attn.weight", np.zeros((768, 2304), np.float32), "F32"),
                (p + "attn.c_proj.weight", np.zeros((768, 768), np.float32), "F32"),
                (p + "mlp.c_fc.weight", np.zeros((768, 3072), np.float32), "F32"),
                (p + "mlp.c_proj.weight", np.zeros((3072, 768), np.float32), "F32")]
m.write_safetensors(folder + "/model.safetensors", tensors)
json.dump({"model_type": "gpt2", "n_positions": 1024, "n_embd": 768, "n_head": 12,
           "n_layer": 12}, open(folder + "/config.json", "w"))
PY
echo "file: $(stat -c %s "$folder/model.safetensors") bytes"
for ((run = 1; run <= runs; run++)); do
    /usr/bin/time -f "%M" -o "$folder/rss" "$pelab" model inspect "$folder" --json >"$folder/out.json"
    /usr/bin/python3 -c "
import json, sys
s = json.load(open('$folder/out.json'))['seconds']
print('run $run: open %.4f s, read the table %.4f s, analyse %.3f s, peak memory %.1f MB' %
      (s['open'], s['read'], s['analyse'], int(open('$folder/rss').read()) / 1024))"
done
