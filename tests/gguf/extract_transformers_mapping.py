#!/usr/bin/python3
"""Writes transformers_gguf_mapping.json: the two tables of transformers' GGUF loader that say
which metadata key becomes which config.json key (GGUF_CONFIG_MAPPING) and which keys it sets
by default (GGUF_CONFIG_DEFAULTS_MAPPING), taken as data from src/transformers/integrations/
ggml.py with Python's ast (literal values only; nothing of the file is run or copied besides
those two literals); and from src/transformers/modeling_gguf_pytorch_utils.py the
architectures whose q and k rows it permutes back (TENSOR_PROCESSORS' keys whose processor is
LlamaTensorProcessor, the one class that calls _reverse_permute_weights). check_transformers_gguf.py compares PE Lab's reading of the GGUF fixtures
with the config transformers would build from them.

Usage: extract_transformers_mapping.py GGML_PY GGUF_UTILS_PY COMMIT OUT_JSON
"""
import ast
import json
import sys


def literal(tree, name):
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise SystemExit("%s: no %s" % (sys.argv[1], name))


def main():
    if len(sys.argv) != 5:
        print(__doc__)
        return 2
    with open(sys.argv[1]) as f:
        tree = ast.parse(f.read())
    with open(sys.argv[2]) as f:
        utils = ast.parse(f.read())
    permuted = []
    for node in utils.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "TENSOR_PROCESSORS" for t in node.targets):
            permuted = [k.value for k, v in zip(node.value.keys, node.value.values)
                        if isinstance(v, ast.Name) and v.id == "LlamaTensorProcessor"]
    # The copy read here: the 8b-is/transformers mirror of huggingface/transformers (the same
    # commit as tests/models/hf_rope_reference.py's).
    source = "https://github.com/8b-is/transformers/blob/%s/src/transformers/" % sys.argv[3]
    out = {
        "SOURCE": [source + "integrations/ggml.py", source + "modeling_gguf_pytorch_utils.py"],
        "GGUF_CONFIG_MAPPING": literal(tree, "GGUF_CONFIG_MAPPING"),
        "GGUF_CONFIG_DEFAULTS_MAPPING": literal(tree, "GGUF_CONFIG_DEFAULTS_MAPPING"),
        "q_k_permuted_back": permuted,
    }
    with open(sys.argv[4], "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
