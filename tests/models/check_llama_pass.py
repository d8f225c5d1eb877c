#!/usr/bin/python3
"""`pelab model run` on rotary checkpoints against llama_reference.py: a forward pass written in
PyTorch from Hugging Face's modeling files (llama, mistral, qwen2, qwen3, olmo2, smollm3 at
transformers c49429e; llama_reference.md cites each rule) by someone who read none of PE Lab's
code. make_llama_fixtures.py writes the checkpoints (seeded; each family's real tensor names and
config.json keys: GQA, biases, QK-norm, tied embeddings, llama3 and yarn scaling, NoPE layers,
F32 and BF16 weights) and the reference's outputs for two token sequences and eight position
switches (trained, none, pairing, base:4, base:0.25, shift:1000, scaling-off, nope-from:1).

Checked per fixture, sequence and switch: the last token's logits and every layer's last-token
state to 1e-4 of their largest magnitude, and the loss to 1e-4 nats. Then what the switches
claim, measured on PE Lab's side: shift:1000 leaves the logits as trained to float32's rounding
(these fixtures' frequencies, llama3's and yarn's included, do not depend on the position, so
the scores depend on offsets only), and none, pairing and base:4 change them. And the shift's
closeness PE Lab reports (per layer, the largest change of an attention weight between positions
0.. and 1000.., with float32 cos and sin tables and with them rounded to bf16) against the same
measure on the reference's attention: float32 below 1e-4 on both sides (rounding), bf16 within
20% + 1e-4 of the reference's (the rounding of the tables dominates both).

Usage: check_llama_pass.py PELAB
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import llama_reference as ref  # noqa: E402
import torch  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
failures = []


def check(what, ok, detail=""):
    print(("ok    " if ok else "FAIL  ") + what + ("" if ok else ": " + detail))
    if not ok:
        failures.append(what)


def largest_error(got, want):
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    if got.shape != want.shape:
        return float("inf")
    return float(np.max(np.abs(got - want)) / max(1.0, float(np.max(np.abs(want)))))


def reference_closeness(folder, tokens, tables):
    """Per layer, the largest |difference| of the reference's attention weights between the
    trained run and shift:1000, cos and sin in `tables`."""
    at_zero = ref.run(folder, tokens, "trained", attention=True, tables=tables)["attention"]
    shifted = ref.run(folder, tokens, "shift:1000", attention=True, tables=tables)["attention"]
    return [float(np.max(np.abs(np.asarray(a) - np.asarray(b)))) for a, b in zip(at_zero, shifted)]


def check_closeness(pelab, folder, fixture, tokens, doc):
    where = "%s %s shift:1000" % (fixture, list(tokens))
    reported = [c for c in doc.get("shift_closeness", []) if c["positions"] == "shift:1000"]
    check(where + ": closeness reported", len(reported) == 1, str(doc.get("shift_closeness")))
    if len(reported) != 1:
        return
    mine = reported[0]
    theirs_f32 = reference_closeness(folder, tokens, torch.float32)
    theirs_bf16 = reference_closeness(folder, tokens, torch.bfloat16)
    check(where + ": float32 tables move no weight by 1e-4, here and in PyTorch",
          max(mine["f32"]) < 1e-4 and max(theirs_f32) < 1e-4,
          "PE Lab %s, PyTorch %s" % (mine["f32"], theirs_f32))
    near = all(abs(a - b) <= 0.2 * b + 1e-4 for a, b in zip(mine["bf16"], theirs_bf16))
    check(where + ": bf16 tables' change per layer as PyTorch's",
          near and len(mine["bf16"]) == len(theirs_bf16),
          "PE Lab %s, PyTorch %s" % (mine["bf16"], theirs_bf16))
    print("      %s: largest change f32 %.2g (PyTorch %.2g), bf16 %.2g (PyTorch %.2g)" %
          (where, max(mine["f32"]), max(theirs_f32), max(mine["bf16"]), max(theirs_bf16)))


def main():
    pelab = sys.argv[1]
    with tempfile.TemporaryDirectory() as scratch:
        subprocess.run([sys.executable, os.path.join(HERE, "make_llama_fixtures.py"), scratch],
                       check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(scratch, "expect.json")) as f:
            expect = json.load(f)
        cases = {}
        for case in expect["cases"]:
            cases.setdefault((case["fixture"], tuple(case["tokens"])), []).append(case)
        worst = 0.0
        trained_logits = {}
        for (fixture, tokens), group in sorted(cases.items()):
            args = [pelab, "model", "run", os.path.join(scratch, fixture), "--tokens",
                    ",".join(map(str, tokens)), "--json", "--full"]
            for case in group:
                args += ["--positions", case["switch"]]
            run = subprocess.run(args, capture_output=True, text=True)
            check("%s %s: runs" % (fixture, list(tokens)), run.returncode == 0, run.stderr.strip())
            if run.returncode != 0:
                continue
            doc = json.loads(run.stdout)
            layers, width = doc["sizes"]["layers"], doc["sizes"]["width"]
            runs = {r["positions"]: r for r in doc["sentences"][0]["runs"]}
            n = len(tokens)
            for case in group:
                where = "%s %s %s" % (fixture, list(tokens), case["switch"])
                mine = runs.get(case["switch"])
                if mine is None:
                    check(where + ": reported", False, "switches run: %s" % sorted(runs))
                    continue
                states = np.asarray(mine["states"], dtype=np.float64).reshape(layers + 1, n, width)
                errors = {"logits": largest_error(mine["logits"], case["logits_last"]),
                          "states": largest_error(states[:, -1, :], case["states_last"])}
                loss_error = abs(mine["loss"] - case["loss"])
                worst = max(worst, errors["logits"], errors["states"])
                check(where + ": logits, states and loss as PyTorch's",
                      errors["logits"] <= 1e-4 and errors["states"] <= 1e-4 and
                      loss_error <= 1e-4,
                      "logits %.3g, states %.3g, loss %.3g" % (errors["logits"], errors["states"],
                                                              loss_error))
                if case["switch"] == "trained":
                    trained_logits[(fixture, tokens)] = np.asarray(mine["logits"])
            trained = trained_logits.get((fixture, tokens))
            if trained is None:
                continue
            # What the switches claim, measured on PE Lab's own outputs.
            shifted = np.asarray(runs["shift:1000"]["logits"])
            check("%s %s: shift:1000 keeps the logits (RoPE sees offsets only)" %
                  (fixture, list(tokens)), largest_error(shifted, trained) <= 1e-3,
                  "%.3g" % largest_error(shifted, trained))
            for name in ("none", "pairing", "base:4"):
                changed = largest_error(np.asarray(runs[name]["logits"]), trained)
                check("%s %s: %s changes the logits" % (fixture, list(tokens), name),
                      changed > 1e-4, "%.3g" % changed)
            # An FP8 fixture's reference runs the float32 weights its codes and scales make.
            plain = os.path.join(scratch, "_" + fixture + "-as-float32")
            check_closeness(pelab, plain if os.path.isdir(plain) else os.path.join(scratch, fixture),
                            fixture, tokens, doc)
        print("largest difference from PyTorch: %.3g of the largest value" % worst)
    print("%d failures" % len(failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
