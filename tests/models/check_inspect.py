#!/usr/bin/python3
"""Every number `pelab model inspect --json --full` prints for the fixtures of make_fixtures.py,
checked against NumPy computing the same quantities from the same files, its own way:

- the tensors read here with NumPy (float16 by NumPy, bfloat16 widened as bits << 16: NumPy has no
  bfloat16), the safetensors header parsed with json;
- singular values and components from numpy.linalg.svd of the centred table (components compared
  up to sign, and only where the gap to both neighbours is larger than 1e-3 of the value);
- wavelengths from the peak of a zero-padded FFT (a different method from PE Lab's refined
  periodogram), and for the sinusoidal fixtures against the known 2π/ω_i of their pairs;
- cosine matrices, norms, neighbour cosines; RoPE's per-pair usage from each family's layout
  (Hugging Face's rotate_half pairs dimension i with i + r/2; GPT-NeoX stores q, k, v per head;
  Qwen3-Next's q_proj is [q | gate] per head; DeepSeek V3's latent attention rotates the last
  qk_rope_head_dim rows of each q head and of kv_a_proj_with_mqa, interleaved, its FP8 weights
  dequantized as q · weight_scale_inv block by block, as transformers' fp8 integration does);
  YaRN's frequencies from the paper's formulas; T5's buckets from the T5 paper's bucketing rule;
  ALiBi's slopes from the paper's rule.
Tolerance: 1e-5 relative (of the largest value of a quantity) everywhere but the FFT peak.

Usage: check_inspect.py PELAB [FIXTURE_FOLDER]   (without a folder: fixtures made afresh in a
temporary one)
"""
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

failures = []


def check(what, ok, detail=""):
    print(("ok    " if ok else "FAIL  ") + what + ("" if ok else ": " + detail))
    if not ok:
        failures.append(what)


def close(what, got, want, rtol=1e-5):
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    if got.shape != want.shape:
        check(what, False, "shape %s, expected %s" % (got.shape, want.shape))
        return
    scale = max(float(np.max(np.abs(want))) if want.size else 0.0, 1e-30)
    error = float(np.max(np.abs(got - want))) / scale if want.size else 0.0
    check(what, error <= rtol, "largest difference %.3g of the largest value" % error)


def read_safetensors(path):
    with open(path, "rb") as f:
        data = f.read()
    length = int.from_bytes(data[:8], "little")
    header = json.loads(data[8:8 + length])
    start = 8 + length
    tensors = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        begin, end = entry["data_offsets"]
        raw = data[start + begin:start + end]
        dtype = entry["dtype"]
        if dtype == "F32":
            array = np.frombuffer(raw, dtype="<f4").astype(np.float64)
        elif dtype == "F16":
            array = np.frombuffer(raw, dtype="<f2").astype(np.float64)
        elif dtype == "BF16":
            bits = np.frombuffer(raw, dtype="<u2").astype(np.uint32) << 16
            array = bits.view(np.float32).astype(np.float64)
        elif dtype == "F64":
            array = np.frombuffer(raw, dtype="<f8").astype(np.float64)
        elif dtype == "F8_E4M3":
            # OCP OFP8 E4M3FN: bias 7, subnormals (m / 8) · 2^-6.
            codes = np.frombuffer(raw, dtype=np.uint8).astype(np.int64)
            e, m = (codes >> 3) & 15, codes & 7
            magnitude = np.where(e == 0, m / 8.0 * 2.0 ** -6, (1 + m / 8.0) * 2.0 ** (e - 7.0))
            array = np.where(codes & 0x80, -magnitude, magnitude)
        else:
            continue
        tensors[name] = array.reshape(entry["shape"])
    return tensors


def tensors_dtype(folder, name):
    """The dtype a one-file checkpoint's header gives tensor name."""
    with open(os.path.join(folder, "model.safetensors"), "rb") as f:
        length = int.from_bytes(f.read(8), "little")
        return json.loads(f.read(length))[name]["dtype"]


def read_folder(folder):
    index = os.path.join(folder, "model.safetensors.index.json")
    if os.path.exists(index):
        with open(index) as f:
            files = sorted(set(json.load(f)["weight_map"].values()))
        tensors = {}
        for name in files:
            tensors.update(read_safetensors(os.path.join(folder, name)))
        return tensors
    return read_safetensors(os.path.join(folder, "model.safetensors"))


def inspect(pelab, path, *extra):
    result = subprocess.run([pelab, "model", "inspect", path, "--json", "--full", *extra],
                            capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        check("inspect " + path, False, result.stderr.strip())
        return None
    return json.loads(result.stdout)


def fft_wavelength(values):
    x = np.asarray(values, dtype=np.float64)
    x = x - x.mean()
    n = len(x)
    padded = n * 256
    spectrum = np.abs(np.fft.rfft(x, n=padded))
    spectrum[0] = 0
    k = int(np.argmax(spectrum))
    omega = 2 * math.pi * k / padded
    return 0.0 if omega * n < 2 * math.pi else 2 * math.pi / omega


def check_table(name, report, table, known_wavelengths=None):
    rows, cols = table.shape
    check(name + ": rows and columns", report["rows"] == rows and report["cols"] == cols,
          "%s × %s, expected %d × %d" % (report["rows"], report["cols"], rows, cols))
    norms = np.linalg.norm(table, axis=1)
    close(name + ": row norms", report["norms"], norms)
    cosines = [table[p] @ table[p + 1] / (norms[p] * norms[p + 1]) if norms[p] * norms[p + 1] > 0
               else 0.0 for p in range(rows - 1)]
    close(name + ": neighbour cosines", report["neighbour_cosine"], cosines)
    close(name + ": median norm", report["median_norm"], np.median(norms))
    centred = table - table.mean(axis=0)
    u, s, _ = np.linalg.svd(centred, full_matrices=False)
    count = len(report["singular_values"])
    close(name + ": singular values", report["singular_values"], s[:count])
    close(name + ": variance explained", report["explained"], (s ** 2 / np.sum(s ** 2))[:count])
    compared = 0
    for k, component in enumerate(report["components"]):
        gap_before = s[k - 1] - s[k] if k > 0 else math.inf
        gap_after = s[k] - s[k + 1] if k + 1 < len(s) else math.inf
        if min(gap_before, gap_after) <= 1e-3 * s[k]:
            continue
        scores = u[:, k] * s[k]
        sign = 1.0 if np.dot(scores, component) >= 0 else -1.0
        close("%s: component %d (up to sign)" % (name, k + 1), component, sign * scores)
        compared += 1
    for k, wavelength in enumerate(report["wavelengths"]):
        gap_before = s[k - 1] - s[k] if k > 0 else math.inf
        gap_after = s[k] - s[k + 1] if k + 1 < len(s) else math.inf
        if min(gap_before, gap_after) <= 1e-3 * s[k]:
            continue
        want = fft_wavelength(u[:, k] * s[k])
        ok = (want == 0 and wavelength == 0) or (want > 0 and abs(wavelength - want) <= 0.01 * want)
        check("%s: component %d's wavelength against the FFT's peak" % (name, k + 1), ok,
              "%.4f, FFT %.4f" % (wavelength, want))
    if known_wavelengths:
        for k, want in enumerate(known_wavelengths):
            got = report["wavelengths"][k]
            check("%s: component %d's wavelength is the known %.4f" % (name, k + 1, want),
                  abs(got - want) <= 0.01 * want, "%.4f" % got)
    return compared


def sinusoidal(rows, cols):
    table = np.zeros((rows, cols))
    p = np.arange(rows)[:, None]
    i = np.arange(cols // 2)[None, :]
    angle = p / 10000.0 ** (2 * i / cols)
    table[:, 0::2] = np.sin(angle)
    table[:, 1::2] = np.cos(angle)
    return table


def known_sinusoid_wavelengths(cols, count=6):
    return [2 * math.pi * 10000.0 ** (2 * (k // 2) / cols) for k in range(count)]


def t5_bucket(relative, bidirectional, buckets, max_distance):
    # The bucketing rule of the T5 paper's code: relative = key − query.
    result = 0
    n = buckets
    if bidirectional:
        n //= 2
        if relative > 0:
            result += n
        relative = abs(relative)
    else:
        relative = -min(relative, 0)
    exact = n // 2
    if relative < exact:
        return result + relative
    large = exact + int(math.log(relative / exact) / math.log(max_distance / exact) * (n - exact))
    return result + min(large, n - 1)


def alibi_slopes(heads):
    def power_of_two(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        return [start * start ** i for i in range(n)]
    if math.log2(heads).is_integer():
        return power_of_two(heads)
    closest = 2 ** math.floor(math.log2(heads))
    return power_of_two(closest) + power_of_two(2 * closest)[0::2][:heads - closest]


def rope_settings(config):
    """RoPE's base and scaling as transformers 5 standardizes them (RotaryEmbeddingConfigMixin in
    its modeling_rope_utils.py): rope_scaling when it is a non-empty dict, else rope_parameters;
    keyed by layer type when layer_types names all its keys, and then the full_attention layers
    are the ones a single view shows. Returns (base, scaling or None, shown layer type or None)."""
    params = config.get("rope_scaling") or config.get("rope_parameters")
    if not params:
        return config.get("rope_theta", config.get("rotary_emb_base", 10000.0)), None, None
    shown = None
    types = config.get("layer_types")
    if types and set(params) <= set(types):
        rotating = [t for t in types if params.get(t) is not None]
        shown = "full_attention" if "full_attention" in rotating else rotating[0]
        params = params[shown]
    base = params.get("rope_theta") or config.get("rope_theta", 10000.0)
    kind = params.get("rope_type", params.get("type", "default"))
    return base, (None if kind == "default" else params), shown


def rope_usage(config, tensors, layers, layout):
    heads = config["num_attention_heads"]
    kv = config.get("num_key_value_heads", heads)
    hidden = config["hidden_size"]
    hd = config.get("head_dim", hidden // heads)
    rotary = int(hd * config.get("rotary_pct", config.get("partial_rotary_factor", 1.0)))
    rotary -= rotary % 2
    pairs = rotary // 2
    usage = np.zeros((layers, heads, pairs))
    for layer in range(layers):
        if layout == "neox":
            w = tensors["gpt_neox.layers.%d.attention.query_key_value.weight" % layer]
            w = w.reshape(heads, 3, hd, -1)
            q = lambda h: w[h, 0]
            k = lambda h: w[h, 1]
        else:
            wq = tensors["model.layers.%d.self_attn.q_proj.weight" % layer].reshape(heads, hd, -1)
            wk = tensors["model.layers.%d.self_attn.k_proj.weight" % layer].reshape(kv, hd, -1)
            q = lambda h: wq[h]
            k = lambda h: wk[h // (heads // kv)]
        for h in range(heads):
            for i in range(pairs):
                dims = [i, i + rotary // 2]  # rotate_half: dimension i turns with i + r/2
                usage[layer, h, i] = np.linalg.norm(q(h)[dims]) * np.linalg.norm(k(h)[dims])
    return usage, rotary


def dequantized(tensors, name, block):
    """transformers' FP8 dequantization: each block × block tile times its weight_scale_inv."""
    weight, scale = tensors[name], tensors[name + "_scale_inv"]
    rows = np.repeat(np.repeat(scale, block[0], axis=0), block[1], axis=1)
    return weight * rows[:weight.shape[0], :weight.shape[1]]


def check_new_layouts(pelab, folder):
    config_of = lambda name: json.load(open(os.path.join(folder, name, "config.json")))
    # Qwen3-Next: only layer 3 attends; its q_proj is [q | gate] per head, 4 of 16 dims rotate.
    report = inspect(pelab, os.path.join(folder, "qwen3-next"))
    if report:
        config = config_of("qwen3-next")
        tensors = read_folder(os.path.join(folder, "qwen3-next"))
        heads, kv, hd = 4, 2, 16
        wq = tensors["model.layers.3.self_attn.q_proj.weight"].reshape(heads, 2, hd, -1)[:, 0]
        wk = tensors["model.layers.3.self_attn.k_proj.weight"].reshape(kv, hd, -1)
        rotary = int(hd * 0.25)
        want = np.array([[np.linalg.norm(wq[h][[i, i + rotary // 2]]) *
                          np.linalg.norm(wk[h // 2][[i, i + rotary // 2]])
                          for i in range(rotary // 2)] for h in range(heads)])
        rope = report["rope"]
        check("qwen3-next: the usage is layer 3's alone", rope["usage_layers"] == [3],
              str(rope["usage_layers"]))
        close("qwen3-next: per-pair usage from the query rows, not the gate's", rope["usage"],
              want[None])
        check("qwen3-next: config's rope_theta read", rope["base"] == config["rope_theta"])
    # DeepSeek V3: latent attention, FP8 with 10 × 16 block scales, interleaved pairs.
    report = inspect(pelab, os.path.join(folder, "deepseek-fp8"))
    if report:
        config = config_of("deepseek-fp8")
        tensors = read_folder(os.path.join(folder, "deepseek-fp8"))
        block = config["quantization_config"]["weight_block_size"]
        heads, nope, rope_dims, rank = 4, 8, 8, 16
        want = np.zeros((2, heads, rope_dims // 2))
        for layer in range(2):
            p = "model.layers.%d.self_attn." % layer
            q = dequantized(tensors, p + "q_b_proj.weight", block)
            q = q.reshape(heads, nope + rope_dims, -1)[:, nope:]
            k = dequantized(tensors, p + "kv_a_proj_with_mqa.weight", block)[rank:]
            for h in range(heads):
                for i in range(rope_dims // 2):
                    dims = [2 * i, 2 * i + 1]  # rope_interleave: adjacent pairs
                    want[layer, h, i] = np.linalg.norm(q[h][dims]) * np.linalg.norm(k[dims])
        rope = report["rope"]
        check("deepseek-fp8: interleaved pairs", rope["pairing"] == "interleaved",
              rope["pairing"])
        check("deepseek-fp8: qk_rope_head_dim rotates", rope["rotary_dims"] == rope_dims,
              str(rope["rotary_dims"]))
        close("deepseek-fp8: per-pair usage (FP8 × block scales, latent layout)",
              rope["usage"], want)
        # The note names the stored type and the block of the config, as the file has them.
        dtype = tensors_dtype(os.path.join(folder, "deepseek-fp8"),
                              "model.layers.0.self_attn.q_b_proj.weight")
        check("deepseek-fp8: the usage says how the weights were read",
              ("FP8 (%s)" % dtype) in rope["weights_note"] and
              ("%d × %d block" % tuple(block)) in rope["weights_note"], rope["weights_note"])
    report = inspect(pelab, os.path.join(folder, "llama"))
    if report:
        check("llama: float weights carry no note on how they were read",
              report["rope"]["weights_note"] == "", report["rope"]["weights_note"])


def yarn_wavelengths(rotary, base, factor, original, beta_slow, beta_fast, truncate=True):
    # YaRN as Hugging Face's transformers computes it (_compute_yarn_parameters): the dimension
    # whose pair turns n times in the original context, rounded outward, bounds a linear ramp
    # over the pair index; below it the frequency is kept, above it divided by the factor.
    def correction_dim(turns):
        return rotary * math.log(original / (turns * 2 * math.pi)) / (2 * math.log(base))
    low, high = correction_dim(beta_fast), correction_dim(beta_slow)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, rotary - 1)
    if low == high:
        high += 0.001
    theta = base ** (-np.arange(0, rotary, 2) / rotary)
    ramp = np.clip((np.arange(rotary // 2) - low) / (high - low), 0, 1)
    extrapolation = 1 - ramp
    return 2 * math.pi / (theta / factor * (1 - extrapolation) + theta * extrapolation)


def main():
    pelab = sys.argv[1]
    if len(sys.argv) > 2:
        return check_all(pelab, sys.argv[2])
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import make_fixtures
    with tempfile.TemporaryDirectory() as folder:
        make_fixtures.make_all(folder)
        return check_all(pelab, folder)


def check_all(pelab, folder):
    config_of = lambda name: json.load(open(os.path.join(folder, name, "config.json")))

    for name, first_row, sinusoid in [("gpt2", 0, True), ("gpt2-f16", 0, True),
                                      ("gpt2-bf16", 0, True), ("bert", 0, False),
                                      ("roberta", 2, True), ("opt", 2, False)]:
        report = inspect(pelab, os.path.join(folder, name))
        if report is None:
            continue
        tensors = read_folder(os.path.join(folder, name))
        table = tensors[report["table"]["name"]][first_row:]
        check(name + ": first position row", report["table"]["first_row"] == first_row,
              str(report["table"]["first_row"]))
        known = known_sinusoid_wavelengths(table.shape[1]) if sinusoid else None
        compared = check_table(name, report["table"], table, known)
        check(name + ": at least one component compared", compared > 0)
        cosine = table @ table.T / np.outer(np.linalg.norm(table, axis=1),
                                            np.linalg.norm(table, axis=1))
        close(name + ": cosine matrix", report["table"]["cosine"], cosine)
        # cos(row p, row p + k) over every start p, for each offset k.
        offsets = report["table"]["offset_cosines"]
        diagonals = [np.diagonal(cosine, k) for k in range(len(offsets["mean"]))]
        check(name + ": every offset of the table measured, every start",
              len(diagonals) == table.shape[0] and not offsets["sampled"] and
              offsets["starts"] == [len(d) for d in diagonals])
        close(name + ": offset cosines' mean", offsets["mean"], [d.mean() for d in diagonals])
        close(name + ": offset cosines' least", offsets["least"], [d.min() for d in diagonals])
        close(name + ": offset cosines' greatest", offsets["greatest"],
              [d.max() for d in diagonals])
        check_table(name + " (its sinusoidal twin)", report["sinusoidal"],
                    sinusoidal(table.shape[0], table.shape[1] - table.shape[1] % 2))
    report = inspect(pelab, os.path.join(folder, "roberta"))
    check("roberta: row 1 named the padding row", report and report["table"]["padding_row"] == 1)
    # The family's own table chosen by name keeps its offset; another tensor starts at row 0.
    own = report and report["table"]["name"]
    chosen = own and inspect(pelab, os.path.join(folder, "roberta"), "--table", own)
    check("roberta: its own table chosen by name still starts at row 2",
          chosen and chosen["table"]["first_row"] == 2 and
          chosen["table"]["rows"] == report["table"]["rows"], json.dumps(chosen and chosen["table"]["first_row"]))
    report = inspect(pelab, os.path.join(folder, "gpt2"))
    check("gpt2: the 2 causal masks named, the tied lm_head said",
          report and any("causal mask" in n for n in report["notes"]) and
          any("tied" in n for n in report["notes"]), json.dumps(report and report["notes"]))

    for name in ["table.npy", "fortran.npy"]:
        report = inspect(pelab, os.path.join(folder, "npy", name))
        if report:
            table = np.load(os.path.join(folder, "npy", name)).astype(np.float64)
            check_table("npy " + name, report["table"], table,
                        known_sinusoid_wavelengths(table.shape[1], 2))

    for name, layout in [("llama", "llama"), ("llama-sharded", "llama"), ("qwen2", "llama"),
                         ("gemma", "llama"), ("neox", "neox"), ("qwen2-v5", "llama"),
                         ("gemma3-v5", "llama")]:
        report = inspect(pelab, os.path.join(folder, name))
        if report is None:
            continue
        config = config_of(name)
        tensors = read_folder(os.path.join(folder, name))
        usage, rotary = rope_usage(config, tensors, config["num_hidden_layers"], layout)
        rope = report["rope"]
        base, scaling, shown = rope_settings(config)
        check(name + ": rotating dimensions", rope["rotary_dims"] == rotary,
              "%s, expected %d" % (rope["rotary_dims"], rotary))
        # The usage shown is that of the layers of the kind shown (every layer when alike).
        layers = [i for i, t in enumerate(config.get("layer_types") or []) if t == shown] \
            if shown else list(range(config["num_hidden_layers"]))
        check(name + ": the usage's layers are the shown kind's", rope["usage_layers"] == layers,
              "%s, expected %s" % (rope["usage_layers"], layers))
        usage = usage[layers]
        close(name + ": per-pair usage (layers × heads × pairs)", rope["usage"], usage)
        close(name + ": per-layer usage (mean over heads)", rope["layer_usage_flat"],
              usage.mean(axis=1).reshape(-1))
        close(name + ": wavelengths", rope["wavelengths"],
              2 * math.pi * base ** (np.arange(0, rotary, 2) / rotary))
        # Under rope scaling the model was trained at the original length.
        context = (scaling or {}).get("original_max_position_embeddings",
                                      config["max_position_embeddings"])
        check(name + ": pairs without a turn within the context",
              rope["pairs_without_turn"] ==
              int(np.sum(2 * math.pi * base ** (np.arange(0, rotary, 2) / rotary) > context)))
        if shown:
            notes = report.get("notes", [])
            check(name + ": a note names the layer type shown and the others",
                  any("shown are the 1 " + shown + " layer" in note and
                      all(t in note for t in config["layer_types"]) for note in notes),
                  json.dumps(notes))
        if scaling:
            close(name + ": YaRN's wavelengths", rope["scaled_wavelengths"],
                  yarn_wavelengths(rotary, base, scaling["factor"],
                                   scaling["original_max_position_embeddings"], 1.0, 32.0))

    check_new_layouts(pelab, folder)

    # A wider YaRN ramp (pairs 2 to 6 of 8 between the kept and the divided ones), through
    # --config, so its middle pairs are checked too (the paper's ramp differs there).
    config = dict(config_of("qwen2"), rope_theta=10000.0, max_position_embeddings=16384)
    config["rope_scaling"] = {"rope_type": "yarn", "factor": 4.0, "beta_fast": 32.0,
                              "beta_slow": 1.0, "original_max_position_embeddings": 4096}
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "config.json")
        with open(path, "w") as out:
            json.dump(config, out)
        report = inspect(pelab, os.path.join(folder, "qwen2"), "--config", path)
        # The same with truncate: false (the ramp's ends not rounded).
        config["rope_scaling"]["truncate"] = False
        with open(path, "w") as out:
            json.dump(config, out)
        exact = inspect(pelab, os.path.join(folder, "qwen2"), "--config", path)
    if exact:
        wanted = yarn_wavelengths(16, 10000.0, 4.0, 4096, 1.0, 32.0, truncate=False)
        close("qwen2 (wide ramp, truncate false): YaRN's wavelengths",
              exact["rope"]["scaled_wavelengths"], wanted)
        check("qwen2 (wide ramp, truncate false): differs from the rounded ramp",
              np.max(np.abs(wanted / yarn_wavelengths(16, 10000.0, 4.0, 4096, 1.0, 32.0) - 1))
              > 1e-3)
    if report:
        wanted = yarn_wavelengths(16, 10000.0, 4.0, 4096, 1.0, 32.0)
        kept = 2 * math.pi * 10000.0 ** (np.arange(0, 16, 2) / 16)
        check("qwen2 (wide ramp): the ramp has middle pairs",
              np.sum((wanted > kept * 1.001) & (wanted < kept * 3.999)) >= 2)
        close("qwen2 (wide ramp): YaRN's wavelengths", report["rope"]["scaled_wavelengths"],
              wanted)
        # The note counts the pairs kept, divided and between, as the wavelengths show them.
        kept = int(np.sum(np.isclose(wanted, kept, rtol=1e-12)))
        divided = int(np.sum(np.isclose(wanted, 4.0 * (2 * math.pi * 10000.0 **
                                                        (np.arange(0, 16, 2) / 16)), rtol=1e-12)))
        note = report["rope"]["scaling_note"]
        check("qwen2 (wide ramp): the note counts the pairs",
              ("%d pair%s kept" % (kept, "" if kept == 1 else "s")) in note and
              ("%d pair%s divided" % (divided, "" if divided == 1 else "s")) in note and
              ("%d pair%s on the ramp" % (8 - kept - divided,
                                          "" if 8 - kept - divided == 1 else "s")) in note, note)

    report = inspect(pelab, os.path.join(folder, "t5"))
    if report:
        tensors = read_folder(os.path.join(folder, "t5"))
        for stack in report["buckets"]:
            table = tensors["%s.block.0.layer.0.SelfAttention.relative_attention_bias.weight" %
                            stack["stack"]]
            buckets = [t5_bucket(d, stack["bidirectional"], 32, 128) for d in stack["distances"]]
            want = np.array([[table[b, h] for b in buckets] for h in range(4)])
            close("t5 %s: bias per head and distance" % stack["stack"], stack["bias"], want)
            edges = [d for j, d in enumerate(stack["distances"]) if j > 0 and
                     buckets[j] != buckets[j - 1]]
            check("t5 %s: bucket edges" % stack["stack"], stack["edges"] == edges,
                  "%s, expected %s" % (stack["edges"][:8], edges[:8]))
    report = inspect(pelab, os.path.join(folder, "bloom"))
    if report:
        close("bloom: ALiBi slopes of 6 heads", report["alibi"]["slopes"], alibi_slopes(6))

    print("%d checks failed" % len(failures) if failures else "all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
