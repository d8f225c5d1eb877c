#!/usr/bin/env node
// hf_gguf_dump.mjs FILE.gguf -> JSON on stdout: metadata (key -> {type, value} with arrays
// as {type:"ARRAY", elem, len, first}), tensor infos (name, shape innermost first, dtype,
// offset relative to the data section), tensorDataOffset. Uses the npm package
// @huggingface/gguf (installed by scripts/deps.sh into ~/.cache/pelab/npm or PELAB_NPM_DIR).
import { createRequire } from "node:module";
import path from "node:path";
import os from "node:os";

const folder = process.env.PELAB_NPM_DIR || path.join(os.homedir(), ".cache", "pelab", "npm");
const require = createRequire(path.join(folder, "node_modules", "x.js"));
const { gguf, GGUFValueType, GGMLQuantizationType } = require("@huggingface/gguf");

const VT = Object.fromEntries(Object.entries(GGUFValueType).filter(([k, v]) => typeof v === "number").map(([k, v]) => [v, k]));
const QT = Object.fromEntries(Object.entries(GGMLQuantizationType).filter(([k, v]) => typeof v === "number").map(([k, v]) => [v, k]));

function plain(v) {
  if (typeof v === "bigint") return v.toString();   // exact; the Python side parses ints
  if (Array.isArray(v)) return v.map(plain);
  return v;
}

const file = process.argv[2];
if (!file) { console.error("usage: hf_gguf_dump.mjs FILE.gguf"); process.exit(2); }
try {
  const { metadata, typedMetadata, tensorInfos, tensorDataOffset } = await gguf(path.resolve(file), { allowLocalFile: true, typedMetadata: true });
  const kv = {};
  for (const [k, tv] of Object.entries(typedMetadata)) {
    if (k === "version" || k === "tensor_count" || k === "kv_count") continue;
    const e = { type: VT[tv.type] ?? String(tv.type) };
    if (tv.type === GGUFValueType.ARRAY) {
      e.elem = VT[tv.subType] ?? String(tv.subType);
      e.len = tv.value.length;
      e.first = plain(tv.value.slice(0, 8));
    } else {
      e.value = plain(tv.value);
    }
    kv[k] = e;
  }
  const out = {
    ok: true,
    version: Number(metadata.version),
    tensor_count: plain(metadata.tensor_count),
    kv_count: plain(metadata.kv_count),
    tensorDataOffset: plain(tensorDataOffset),
    kv,
    tensors: tensorInfos.map((t) => ({ name: t.name, shape: t.shape.map(plain), dtype: QT[t.dtype] ?? String(t.dtype), dtype_id: t.dtype, offset: plain(t.offset) })),
  };
  process.stdout.write(JSON.stringify(out) + "\n");
} catch (e) {
  process.stdout.write(JSON.stringify({ ok: false, error: String(e && e.message || e) }) + "\n");
  process.exit(1);
}
