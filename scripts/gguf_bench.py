#!/usr/bin/python3
"""GGUF speed: a synthetic Llama-3.1-8B Q4_K_M file opened by `pelab model inspect`.

Usage: scripts/gguf_bench.py PELAB [FILE] [--runs N]

Writes (once; FILE defaults to /tmp/pelab-bench-llama-3.1-8b-q4_k_m.gguf) a GGUF v3 file of
Llama-3.1-8B's shapes and Q4_K_M's type mix (llama-quantize's: Q4_K, with attn_v and ffn_down
Q6_K, output Q6_K, norms F32), 4.9 GB, sparse (its weights are zero blocks, read from the page
cache like a warm file), with a real metadata load: a 128 256-token vocabulary, their token
types and 280 147 merges in tokenizer.ggml.*, and the converter's rope_freqs.weight. Then runs
`pelab model inspect FILE --json` N times and prints the medians of the open (metadata, tensor
table, schedule: ModelReport's seconds.open), of the usage view (32 layers of q and k
dequantized: seconds.read + seconds.analyse) and of the whole command, and its peak resident
memory. The issue's targets: open <= 0.5 s and <= 100 MB, usage <= 3 s on 2 cores.
"""
import json
import math
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "gguf"))
from gguf_writer import F32, GGUFWriter, I32, STR, U32, ARR  # noqa: E402
from ggml_dequant import TYPES  # noqa: E402

LAYERS, HIDDEN, HEADS, KV, FFN, VOCAB, MERGES = 32, 4096, 32, 8, 14336, 128256, 280147


def size_of(type_name, ne):
    block, nbytes = TYPES[type_name][1], TYPES[type_name][2]
    return math.prod(ne) // block * nbytes


def write(path):
    w = GGUFWriter()
    w.add_arch("llama")
    w.add("general.name", STR, "synthetic Llama-3.1-8B Q4_K_M")
    w.add("general.file_type", U32, 15)
    for key, vtype, value in (("context_length", U32, 131072), ("embedding_length", U32, HIDDEN),
                              ("block_count", U32, LAYERS), ("feed_forward_length", U32, FFN),
                              ("attention.head_count", U32, HEADS),
                              ("attention.head_count_kv", U32, KV),
                              ("rope.freq_base", F32, 500000.0),
                              ("attention.layer_norm_rms_epsilon", F32, 1e-5),
                              ("rope.dimension_count", U32, 128), ("vocab_size", U32, VOCAB)):
        w.add("llama." + key, vtype, value)
    w.add("tokenizer.ggml.model", STR, "gpt2")
    w.add("tokenizer.ggml.pre", STR, "llama-bpe")
    w.add("tokenizer.ggml.tokens", ARR, ["tok%06d" % i for i in range(VOCAB)], elem=STR)
    w.add("tokenizer.ggml.token_type", ARR, [1] * VOCAB, elem=I32)
    w.add("tokenizer.ggml.merges", ARR, ["t%d t%d" % (i % 977, i // 977) for i in range(MERGES)],
          elem=STR)
    tensors = [("rope_freqs.weight", [64], "F32"), ("token_embd.weight", [HIDDEN, VOCAB], "Q4_K")]
    for layer in range(LAYERS):
        blk = "blk.%d." % layer
        tensors += [(blk + "attn_norm.weight", [HIDDEN], "F32"),
                    (blk + "attn_q.weight", [HIDDEN, HIDDEN], "Q4_K"),
                    (blk + "attn_k.weight", [HIDDEN, KV * 128], "Q4_K"),
                    (blk + "attn_v.weight", [HIDDEN, KV * 128], "Q6_K"),
                    (blk + "attn_output.weight", [HIDDEN, HIDDEN], "Q4_K"),
                    (blk + "ffn_norm.weight", [HIDDEN], "F32"),
                    (blk + "ffn_gate.weight", [HIDDEN, FFN], "Q4_K"),
                    (blk + "ffn_up.weight", [HIDDEN, FFN], "Q4_K"),
                    (blk + "ffn_down.weight", [FFN, HIDDEN], "Q6_K")]
    tensors += [("output_norm.weight", [HIDDEN], "F32"), ("output.weight", [HIDDEN, VOCAB], "Q6_K")]
    offset = 0
    for name, ne, type_name in tensors:
        w.add_tensor(name, ne, type_name, b"", offset=offset)
        offset += (size_of(type_name, ne) + 31) // 32 * 32
    head, _ = w.header_and_infos()
    data_start = (len(head) + 31) // 32 * 32
    # Llama 3.1's rope_freqs as the converter computes them (factor 8, 1 and 4, 8192).
    factors = []
    for i in range(64):
        wavelength = 2 * math.pi * 500000.0 ** (2 * i / 128)
        if wavelength < 8192 / 4:
            factors.append(1.0)
        elif wavelength > 8192 / 1:
            factors.append(8.0)
        else:
            smooth = (8192 / wavelength - 1) / (4 - 1)
            factors.append(1 / ((1 - smooth) / 8 + smooth))
    import struct
    with open(path, "wb") as f:
        f.write(head + b"\0" * (data_start - len(head)))
        f.write(struct.pack("<64f", *factors))
        f.truncate(data_start + offset)
    return data_start + offset, len(head)


def main():
    pelab = sys.argv[1]
    args = sys.argv[2:]
    runs = 5
    if "--runs" in args:
        at = args.index("--runs")
        runs = int(args[at + 1])
        del args[at:at + 2]
    path = args[0] if args else "/tmp/pelab-bench-llama-3.1-8b-q4_k_m.gguf"
    if not os.path.exists(path):
        size, header = write(path)
        print("wrote %s: %.2f GB, header %.1f MB" % (path, size / 1e9, header / 1e6))
    subprocess.run(["cat", path], stdout=subprocess.DEVNULL)  # warm the page cache
    opens, usages, walls, peaks = [], [], [], []
    for _ in range(runs):
        start = time.perf_counter()
        # GNU time's %M: this run's own peak resident set (the warm-up cat is not counted).
        run = subprocess.run(["/usr/bin/time", "-f", "%M", pelab, "model", "inspect", path,
                              "--json"], capture_output=True, text=True, check=True)
        walls.append(time.perf_counter() - start)
        peaks.append(int(run.stderr.strip().splitlines()[-1]) / 1024)
        seconds = json.loads(run.stdout)["seconds"]
        opens.append(seconds["open"])
        usages.append(seconds["read"] + seconds["analyse"])
    report = json.loads(run.stdout)
    print("layers read for the usage view: %d; notes: %s" % (
        len(report["rope"]["usage_layers"]), report["notes"]))
    print("median of %d runs: open %.3f s, usage view %.3f s, whole command %.3f s; "
          "peak resident %.0f MB" % (runs, statistics.median(opens), statistics.median(usages),
                                     statistics.median(walls), max(peaks)))


if __name__ == "__main__":
    main()
