// Token ids of each text of a JSON array by the npm package @huggingface/tokenizers (an
// independent implementation of Hugging Face's tokenizers), for check_tokenizers.py.
// Usage: node hf_tokenize.mjs TOKENIZER_FOLDER TEXTS.json   (prints a JSON array of id lists)
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";

// The package where scripts/deps.sh test installs it (PELAB_NPM_DIR, else ~/.cache/pelab/npm).
const npm = process.env.PELAB_NPM_DIR || path.join(os.homedir(), ".cache", "pelab", "npm");
const require = createRequire(path.join(npm, "node_modules", "x.js"));
const { Tokenizer } = require("@huggingface/tokenizers");

const [folder, textsPath] = process.argv.slice(2);
const json = JSON.parse(readFileSync(`${folder}/tokenizer.json`, "utf8"));
const config = JSON.parse(readFileSync(`${folder}/tokenizer_config.json`, "utf8"));
const tokenizer = new Tokenizer(json, config);
const texts = JSON.parse(readFileSync(textsPath, "utf8"));
console.log(JSON.stringify(texts.map((text) => tokenizer.encode(text).ids)));
