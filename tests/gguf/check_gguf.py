#!/usr/bin/python3
"""PE Lab's GGUF reader against the independent oracle of this folder (written from the GGUF
specification and ggml/llama.cpp's source, not from PE Lab's; README.md names the commits).

Usage: check_gguf.py PELAB CORE_TESTS [OUTDIR]

1. Every quant type: PE Lab's float values of quant_<T>.gguf equal ggml_dequant.py's, bit for
   bit (pelab_core_tests' GgufFixtures.* reads them, given PELAB_GGUF_QUANT_DIR); the IQ, ternary
   and MXFP4 files are listed, their tensor named as not read.
2. Every architecture fixture (make_arch_fixtures.py), as F32, Q8_0 and Q4_K GGUF files: `pelab
   model inspect --json` gives the architecture's heads, key heads, rotating width, base and
   layer count; the usage view (‖q rows of pair i‖ · ‖k rows of pair i‖) equals the one computed
   from the Hugging Face float32 weights in EXPECT.json (F32) or from the dequantized GGUF weights
   (Q8_0, Q4_K), pair for pair; and the F32 file's usage equals PE Lab's own reading of the
   safetensors original, pair for pair.
3. The header PE Lab prints (metadata keys and values, tensor names, ggml types, extents,
   offsets) equals what the npm package @huggingface/gguf reads, on every valid fixture.
4. Every hostile file (make_hostile.py): a clear one-line refusal (exit 1 or 2, never a signal)
   where the file is invalid, a normal open where it is valid.
"""
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import make_arch_fixtures  # noqa: E402
import make_hostile  # noqa: E402
import make_quant_fixtures  # noqa: E402
import transformers_gguf  # noqa: E402

failures = []
NPM = os.environ.get("PELAB_NPM_DIR", os.path.expanduser("~/.cache/pelab/npm"))


def check(what, ok, detail=""):
    print(("ok    " if ok else "FAIL  ") + what + ("" if ok else ": " + detail))
    if not ok:
        failures.append(what)


def inspect(pelab, path):
    run = subprocess.run([pelab, "model", "inspect", path, "--json"], capture_output=True,
                         text=True, timeout=120)
    if run.returncode != 0:
        return None, run
    return json.loads(run.stdout), run


def generate(outdir):
    for module, folder in ((make_quant_fixtures, "quant"), (make_arch_fixtures, "arch"),
                           (make_hostile, "hostile")):
        target = os.path.join(outdir, folder)
        subprocess.run([sys.executable, module.__file__, target], check=True,
                       stdout=subprocess.DEVNULL)
    return [os.path.join(outdir, f) for f in ("quant", "arch", "hostile")]


def check_quant(pelab, core_tests, folder):
    env = dict(os.environ, PELAB_GGUF_QUANT_DIR=folder)
    run = subprocess.run([core_tests, "--gtest_filter=GgufFixtures.*"], capture_output=True,
                         text=True, env=env, timeout=300)
    passed = run.returncode == 0 and "[  PASSED  ]" in run.stdout and "SKIPPED" not in run.stdout
    check("every quant type dequantized bit for bit as ggml_dequant.py (GgufFixtures.*)", passed,
          run.stdout[-1500:])
    for name in ("IQ2_XS", "TQ1_0", "MXFP4"):
        path = os.path.join(folder, "quant_%s.gguf" % name)
        report, run = inspect(pelab, path)
        ok = report is not None and any(t["name"] == "t" and t["type"] == name
                                        for t in report["gguf"]["tensors"])
        check("quant_%s.gguf opens and lists tensor t as %s" % (name, name), ok,
              run.stderr.strip())


def usage_from_sums(q, k, heads, kv_heads):
    group = heads // kv_heads
    return [[[math.sqrt(q[h][p] * k[h // group][p]) for p in range(len(q[h]))]
             for h in range(heads)] for _ in [0]][0]


def close(what, got, want, rtol):
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    if got.shape != want.shape:
        check(what, False, "shape %s, expected %s" % (got.shape, want.shape))
        return
    worst = float(np.max(np.abs(got - want) / np.maximum(np.abs(want), 1e-300))) if want.size \
        else 0.0
    check(what, worst <= rtol, "largest relative difference %.3g" % worst)


def check_arch(pelab, folder):
    for arch in sorted(os.listdir(folder)):
        base = os.path.join(folder, arch)
        if not os.path.isdir(base):
            continue
        with open(os.path.join(base, "EXPECT.json")) as f:
            expect = json.load(f)
        hf, run = inspect(pelab, os.path.join(base, "hf"))
        check(arch + ": the safetensors original opens", hf is not None,
              run.stderr.strip() if run else "")
        for gguf_name, facts in sorted(expect["files"].items()):
            where = "%s/%s" % (arch, gguf_name)
            report, run = inspect(pelab, os.path.join(base, gguf_name))
            check(where + ": opens", report is not None, run.stderr.strip())
            if report is None:
                continue
            check(where + ": architecture", report["gguf"]["metadata"].get(
                "general.architecture") == expect["architecture"])
            layers = report.get("layers", [])
            check(where + ": layer count", len(layers) == expect["layers"],
                  "%d, expected %d" % (len(layers), expect["layers"]))
            rope = report.get("rope")
            if expect["rope_type"] == "NONE":
                check(where + ": no RoPE (llama.cpp's NONE)", rope is None,
                      "family %s" % report["family"])
                continue
            if rope is None:
                check(where + ": RoPE found", False, report["family"])
                continue
            check(where + ": heads", rope["heads"] == expect["heads"],
                  "%s, expected %s" % (rope["heads"], expect["heads"]))
            check(where + ": rotating width", rope["rotary_dims"] == expect["rotary_dims"],
                  "%s, expected %s" % (rope["rotary_dims"], expect["rotary_dims"]))
            # The shown layer's base: a sliding layer's is rope.freq_base_swa where the file
            # gives one (Gemma 3's local layers).
            shown = report["schedule"]["shown_layer"]
            sliding = shown >= 0 and layers[shown]["attention"] == "sliding window"
            swa = expect["gguf_kv"].get(expect["architecture"] + ".rope.freq_base_swa")
            want_base = (swa if sliding and swa else expect["rope_base_gguf"]) or 10000.0
            check(where + ": base", math.isclose(rope["base"], want_base, rel_tol=1e-6),
                  "%s, expected %s" % (rope["base"], want_base))
            sums = facts["pair_sumsq_from_dequantized"] if gguf_name != "model-F32.gguf" \
                else expect["pair_sumsq"]
            kv = expect.get("kv_heads_rope") or expect["kv_heads"]
            want = [usage_from_sums(sums[layer]["q"], sums[layer]["k"], expect["heads"], kv)
                    for layer in rope["usage_layers"]]
            got = np.asarray(rope["usage"], dtype=np.float64)
            close(where + ": usage pair for pair, as computed from %s" %
                  ("the HF float32 weights" if gguf_name == "model-F32.gguf"
                   else "the dequantized GGUF weights"), got, want, 1e-6)
            if gguf_name == "model-F32.gguf" and hf is not None and hf.get("rope"):
                close(where + ": usage equals the safetensors original's, pair for pair", got,
                      hf["rope"]["usage"], 1e-6)


def check_transformers(pelab, folder):
    """Each fixture beside the config transformers' own GGUF loader would build from its
    metadata (transformers_gguf.py): PE Lab agrees with the original wherever transformers does,
    and what transformers loses is listed."""
    losses, compared = [], 0
    for arch in sorted(os.listdir(folder)):
        base = os.path.join(folder, arch)
        if not os.path.isdir(base):
            continue
        with open(os.path.join(base, "EXPECT.json")) as f:
            expect = json.load(f)
        with open(os.path.join(base, "hf", "config.json")) as f:
            original = json.load(f)
        facts = expect["files"]["model-F32.gguf"]
        kv = dict(expect["gguf_kv"], **{"general.architecture": expect["architecture"],
                                        "general.name": "tiny-" + arch})
        theirs = transformers_gguf.transformers_config(kv, list(facts["tensor_types"]))
        if theirs is None:
            print("skip  %s: transformers' GGUF loader refuses architecture %s" %
                  (arch, expect["architecture"]))
            continue
        report, run = inspect(pelab, os.path.join(base, "model-F32.gguf"))
        if report is None:
            check(arch + ": opens for the transformers comparison", False, run.stderr.strip())
            continue
        compared += 1
        # Whose q and k rows come back from llama.cpp's interleaved order: transformers permutes
        # back the architectures of its LlamaTensorProcessor; PE Lab's note says it read them
        # back for the same ones.
        back = expect["architecture"] in transformers_gguf.tables()["q_k_permuted_back"]
        said = any("permuted the q and k rows" in note for note in report.get("notes", []) +
                   report["schedule"]["notes"])
        check("%s: q and k rows permuted back as transformers' loader does (%s)" %
              (arch, "yes" if back else "no"), said == back,
              "PE Lab's notes: %s" % json.dumps(report.get("notes", [])))
        transformers_gguf.compare(arch, original, kv, list(facts["tensor_types"]), theirs,
                                  report["gguf"]["config"], check, losses)
    for loss in losses:
        print("transformers' loader loses " + loss)
    check("transformers' GGUF loader reads at least 10 of the fixtures' architectures",
          compared >= 10, "%d" % compared)


def npm_dump(path):
    run = subprocess.run(["node", os.path.join(HERE, "hf_gguf_dump.mjs"), path],
                         capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, NODE_PATH=os.path.join(NPM, "node_modules")))
    try:
        return json.loads(run.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return {"ok": False, "error": (run.stderr or run.stdout)[-400:]}


TYPE_NAMES = {"u8": "UINT8", "i8": "INT8", "u16": "UINT16", "i16": "INT16", "u32": "UINT32",
              "i32": "INT32", "f32": "FLOAT32", "bool": "BOOL", "string": "STRING",
              "array": "ARRAY", "u64": "UINT64", "i64": "INT64", "f64": "FLOAT64"}


def same_scalar(mine, theirs):
    if isinstance(mine, bool) or isinstance(theirs, bool):
        return bool(mine) == bool(theirs)
    if isinstance(mine, (int, float)):
        try:
            a, b = float(mine), float(theirs)
        except (TypeError, ValueError):
            return False
        return a == b or (math.isnan(a) and math.isnan(b))
    return mine == theirs


def same_value(mine, theirs):
    """PE Lab's value (a scalar, or {array, count, first}) against the npm dump's entry
    ({type, value} or {type: ARRAY, elem, len, first})."""
    if isinstance(mine, dict):
        if theirs.get("type") != "ARRAY" or TYPE_NAMES[mine["array"]] != theirs.get("elem"):
            return False
        if int(theirs.get("len", -1)) != mine["count"]:
            return False
        return all(not isinstance(b, (int, float, str, bool)) or same_scalar(a, b)
                   for a, b in zip(mine["first"], theirs.get("first") or []))
    return theirs.get("type") != "ARRAY" and same_scalar(mine, theirs.get("value"))


def check_against_npm(pelab, files):
    if not os.path.isdir(os.path.join(NPM, "node_modules", "@huggingface", "gguf")):
        check("@huggingface/gguf installed (scripts/deps.sh test)", False, NPM)
        return
    agreed = 0
    for path in files:
        report, run = inspect(pelab, path)
        if report is None:
            continue  # a fixture PE Lab refuses is checked in the hostile part
        theirs = npm_dump(path)
        where = os.path.relpath(path, os.path.dirname(os.path.dirname(path)))
        if not theirs.get("ok"):
            check(where + ": @huggingface/gguf reads it", False, theirs.get("error", ""))
            continue
        mine = report["gguf"]
        problems = []
        meta = theirs["kv"]
        for key, value in mine["metadata"].items():
            if key not in meta:
                problems.append("key %s missing there" % key)
            elif not same_value(value, meta[key]):
                problems.append("key %s: %r vs %r" % (key, value, meta[key]))
        if set(meta) - set(mine["metadata"]):
            problems.append("keys only there: %s" % sorted(set(meta) - set(mine["metadata"])))
        tensors = {t["name"]: t for t in theirs["tensors"]}
        for t in mine["tensors"]:
            other = tensors.get(t["name"])
            if other is None:
                problems.append("tensor %s missing there" % t["name"])
                continue
            if [int(n) for n in other["shape"]] != t["ne"] or int(other["offset"]) != t["offset"]:
                problems.append("tensor %s: ne %s offset %s vs %s %s" % (
                    t["name"], t["ne"], t["offset"], other["shape"], other["offset"]))
            if str(other.get("dtype")) not in (t["type"], t["type"].replace("type ", "")):
                problems.append("tensor %s: type %s vs %s" % (t["name"], t["type"],
                                                              other.get("dtype")))
        check(where + ": PE Lab's header equals @huggingface/gguf's", not problems,
              "; ".join(problems[:4]))
        agreed += not problems
    print("%d files agree with @huggingface/gguf" % agreed)


def check_hostile(pelab, folder):
    with open(os.path.join(folder, "hostile.json")) as f:
        cases = json.load(f)
    # An unknown ggml type id is listed as "type N" and never read, never a reason to refuse the
    # file (the GGUF issue's rule; the oracle allows it).
    listed = {"tensor_unknown_type_200.gguf": "type 200", "tensor_removed_type_4.gguf": "type 4"}
    for name, words in listed.items():
        report, run = inspect(pelab, os.path.join(folder, name))
        check(name + ": opens, the tensor listed as " + words,
              report is not None and any(t["type"] == words for t in report["gguf"]["tensors"]),
              run.stderr.strip())
    for name, case in sorted(cases.items()):
        if name in listed:
            continue
        run = subprocess.run([pelab, "model", "inspect", os.path.join(folder, name)],
                             capture_output=True, text=True, timeout=60)
        message = run.stderr.strip()
        clear = run.returncode in (1, 2) and len(message.splitlines()) == 1 and message
        if run.returncode < 0:
            check(name + ": no signal", False, "killed by signal %d" % -run.returncode)
        elif case["valid"] is True:
            check(name + ": opens (valid)", run.returncode == 0, message)
        elif case["valid"] is False:
            check(name + ": refused with one line (" + case["why"][:60] + ")", bool(clear),
                  "exit %d: %s" % (run.returncode, message or run.stdout[:200]))
        else:
            check(name + ": opened or refused with one line", run.returncode == 0 or bool(clear),
                  "exit %d: %s" % (run.returncode, message))


def check_ollama(pelab, arch, scratch):
    """A test store as Ollama lays it out: manifests/registry.ollama.ai/NAMESPACE/NAME/TAG (JSON
    whose layer of media type application/vnd.ollama.image.model names the blob by digest) and
    blobs/sha256-<hex>."""
    import hashlib
    import shutil
    store = os.path.join(scratch, "ollama-store")
    source = os.path.join(arch, "llama", "model-Q8_0.gguf")
    with open(source, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    os.makedirs(os.path.join(store, "blobs"), exist_ok=True)
    blob = os.path.join(store, "blobs", "sha256-" + digest)
    shutil.copy(source, blob)

    def manifest(space, name, tag, layers):
        folder = os.path.join(store, "manifests", "registry.ollama.ai", space, name)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, tag), "w") as f:
            json.dump({"schemaVersion": 2, "layers": layers}, f)

    model = {"mediaType": "application/vnd.ollama.image.model", "digest": "sha256:" + digest,
             "size": os.path.getsize(blob)}
    template = {"mediaType": "application/vnd.ollama.image.template",
                "digest": "sha256:" + "0" * 64, "size": 10}
    manifest("library", "tiny", "latest", [template, model])
    manifest("library", "tiny", "q8", [model])
    manifest("someone", "tiny", "latest", [model])
    manifest("library", "split", "latest",
             [{"mediaType": "application/vnd.ollama.image.tensor",
               "digest": "sha256:" + "1" * 64, "size": 4}] * 3)
    env = dict(os.environ, OLLAMA_MODELS=store)
    for name in ("ollama:tiny", "ollama:tiny:q8", "ollama:someone/tiny"):
        run = subprocess.run([pelab, "model", "inspect", name, "--json"], capture_output=True,
                             text=True, env=env)
        ok = run.returncode == 0 and json.loads(run.stdout)["file"] == blob
        check(name + " finds the model's blob in the store", ok, run.stderr.strip())
    for name, words in (("ollama:split", "separate tensor layers"),
                        ("ollama:nothing", "no such model"), ("ollama:../x", "ollama:NAME")):
        run = subprocess.run([pelab, "model", "inspect", name], capture_output=True, text=True,
                             env=env)
        check(name + " is refused: " + words, run.returncode == 2 and words in run.stderr,
              "exit %d: %s" % (run.returncode, run.stderr.strip()))


def main():
    pelab, core_tests = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as scratch:
        outdir = sys.argv[3] if len(sys.argv) > 3 else scratch
        quant, arch, hostile = generate(outdir)
        check_quant(pelab, core_tests, quant)
        check_arch(pelab, arch)
        check_transformers(pelab, arch)
        files = sorted(os.path.join(quant, f) for f in os.listdir(quant) if f.endswith(".gguf"))
        for a in sorted(os.listdir(arch)):
            if os.path.isdir(os.path.join(arch, a)):
                files += sorted(os.path.join(arch, a, f) for f in os.listdir(os.path.join(arch, a))
                                if f.endswith(".gguf"))
        with open(os.path.join(hostile, "hostile.json")) as f:
            files += [os.path.join(hostile, n) for n, c in sorted(json.load(f).items())
                      if c["valid"] is True]
        check_against_npm(pelab, files)
        check_ollama(pelab, arch, outdir)
        check_hostile(pelab, hostile)
    print("%d failures" % len(failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
