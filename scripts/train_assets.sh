#!/usr/bin/env bash
# scripts/train_assets.sh [PELAB] — regenerates the training runs built into PE Lab
# (assets/train/*.json, compiled in by app/CMakeLists.txt; docs/train.md records what they
# show). Each is one `pelab train` run with the defaults of the reference model
# (../shared/anchors/torch_tiny_transformer.py) trained from three seeds (1, 2, 3: the curves
# are seed 1's, the accuracy per length each seed's), about a minute each on two cores, and
# the causal shift again at 1 500 steps (about four minutes), and RoPE's pairings crossed.
# tests/train_run_test.cpp checks that training with these settings reaches the accuracies
# the files hold.
set -euo pipefail
cd "$(dirname "$0")/.."
pelab=${1:-build/bin/pelab}
mkdir -p assets/train
"$pelab" train --task reverse --threads 2 --seeds 3 --out assets/train/reverse.json
"$pelab" train --task shift --causal --threads 2 --seeds 3 --out assets/train/shift-causal.json
# The same run trained five times as long: where causal ALiBi and the causal model without an
# encoding learn the shift after all (docs/train.md), shown instantly (about 90 s to make).
"$pelab" train --task shift --causal --steps 1500 --threads 2 --seeds 3 --out assets/train/shift-causal-1500.json
"$pelab" train --task majority --threads 2 --seeds 3 --out assets/train/majority.json
# RoPE's two pairings, and weights trained with the interleaved one measured with the other
# (rope_crossed): the causal shift, which RoPE learns (about 45 s).
"$pelab" train --task shift --causal --pe rope,rope_half,rope_crossed --threads 2 --seeds 3 --out assets/train/rope-pairings.json
