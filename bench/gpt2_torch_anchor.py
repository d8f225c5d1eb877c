#!/usr/bin/python3
"""The anchor beside bench/gpt2_bench.sh: GPT-2's forward pass in PyTorch as people run it
(Hugging Face's GPT2LMHeadModel computes the same: Conv1D as addmm, the heads batched, layer_norm
and tanh GELU from torch.nn.functional; eager, no_grad), on the same checkpoint and tokens, the
last token's logits only. Prints each pass's seconds and the warm median as JSON.

Usage: gpt2_torch_anchor.py FOLDER TOKENS PASSES THREADS"""
import json
import math
import statistics
import struct
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F


def read_safetensors(path):
    with open(path, "rb") as f:
        length = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(length))
    data = np.memmap(path, dtype=np.uint8, mode="r", offset=8 + length)
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__" or info["dtype"] != "F32":
            continue
        begin, end = info["data_offsets"]
        tensors[name] = torch.from_numpy(
            np.frombuffer(data[begin:end], dtype=np.float32).reshape(info["shape"]).copy())
    return tensors


def main():
    folder, tokens, passes, threads = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    torch.set_num_threads(threads)
    config = json.load(open(folder + "/config.json"))
    layers, heads, d = config["n_layer"], config["n_head"], config["n_embd"]
    start = time.perf_counter()
    w = read_safetensors(folder + "/model.safetensors")
    load = time.perf_counter() - start
    ids = torch.tensor([int(t) for t in tokens.split(",")])
    n, dh = len(ids), d // heads

    def forward():
        x = w["wte.weight"][ids] + w["wpe.weight"][:n]
        mask = torch.tril(torch.ones(n, n, dtype=torch.bool))
        for layer in range(layers):
            p = "h.%d." % layer
            a = F.layer_norm(x, (d,), w[p + "ln_1.weight"], w[p + "ln_1.bias"], 1e-5)
            q, k, v = torch.addmm(w[p + "attn.c_attn.bias"], a, w[p + "attn.c_attn.weight"]).split(d, 1)
            q, k, v = (t.view(n, heads, dh).transpose(0, 1) for t in (q, k, v))
            scores = (q @ k.transpose(1, 2)) / math.sqrt(dh)
            weights = torch.softmax(scores.masked_fill(~mask, float("-inf")), dim=-1)
            merged = (weights @ v).transpose(0, 1).reshape(n, d)
            x = x + torch.addmm(w[p + "attn.c_proj.bias"], merged, w[p + "attn.c_proj.weight"])
            m = F.layer_norm(x, (d,), w[p + "ln_2.weight"], w[p + "ln_2.bias"], 1e-5)
            h = F.gelu(torch.addmm(w[p + "mlp.c_fc.bias"], m, w[p + "mlp.c_fc.weight"]),
                       approximate="tanh")
            x = x + torch.addmm(w[p + "mlp.c_proj.bias"], h, w[p + "mlp.c_proj.weight"])
        last = F.layer_norm(x[-1:], (d,), w["ln_f.weight"], w["ln_f.bias"], 1e-5)
        return last @ w["wte.weight"].T

    seconds = []
    with torch.no_grad():
        for _ in range(passes):
            start = time.perf_counter()
            forward()
            seconds.append(time.perf_counter() - start)
    print(json.dumps({"seconds_load": load, "seconds": seconds,
                      "median_warm": statistics.median(seconds[1:] or seconds)}))


if __name__ == "__main__":
    main()
