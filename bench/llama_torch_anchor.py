#!/usr/bin/python3
"""The anchor of bench/llama_bench.sh: the rotary pass in PyTorch, as Hugging Face's eager
modeling code computes it (tests/models/llama_reference.py, written from those files), its
weights read once and kept (as from_pretrained keeps them), the last token's logits (as
generate asks them: logits_to_keep=1), float32, under torch.inference_mode. Prints JSON: load
seconds, each pass's seconds, the warm median.

Usage: llama_torch_anchor.py FOLDER TOKENS PASSES THREADS
"""
import json
import os
import statistics
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "models"))
import llama_reference as ref  # noqa: E402


def main():
    folder, tokens, passes, threads = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    torch.set_num_threads(threads)
    start = time.perf_counter()
    weights = ref.read_safetensors(os.path.join(folder, "model.safetensors"))
    load = time.perf_counter() - start
    ref.read_safetensors = lambda path: weights  # read once, as a loaded model holds them
    ids = [int(t) for t in tokens.split(",")]
    seconds = []
    with torch.inference_mode():
        for _ in range(passes):
            start = time.perf_counter()
            ref.run(folder, ids, "trained", attention=False, last_only=True)
            seconds.append(time.perf_counter() - start)
    print(json.dumps({"seconds_load": load, "seconds": seconds,
                      "median_warm": statistics.median(seconds[1:] or seconds)}))


if __name__ == "__main__":
    main()
