#!/usr/bin/env python3
"""quiz_numbers.py: checks the built-in quiz (assets/quiz/positional-encoding.json) against
independent computations. Run by CTest as quiz.numbers.

Plain Python 3 (math, struct, random): no numpy, nothing from PE Lab's code. Every number a
question, choice, explanation or card states, and every number a number-question expects, is
either computed here and compared, or declared as a given input of that item (a position, a
d_model, a k the question sets). At the end every digit run in every student-facing text is
required to be accounted for, so an edited number without a check fails.

Sinusoidal PE (the paper's interleaved layout):
    PE(pos, 2i) = sin(pos / base^(2i/d)),  PE(pos, 2i+1) = cos(pos / base^(2i/d)),  base 10000.

Also checked: the file's structure (counts, topics, choices, show panels / scene fields /
widget names against the repository's sources), the teach-back rubric (7 ideas, 4-10 lower-case
keywords, the sentences tests/quiz_test.cpp uses), and that no 8-word run is copied from the
reference documents.

Optional (when $PELAB names the built binary; PELAB_CHECK_APP=0 turns it off):
`pelab readouts --scene` is run on each show's scene, writing only into a fresh /tmp directory,
and the app's numbers are compared with the ones computed here.

Usage: PELAB=build/bin/pelab python3 tests/quiz_numbers.py [quiz.json]   (exit 0: all passed)
The reference documents are read from $PELAB_REFERENCE (default ../shared/reference beside the
repository); without them the copied-words check is skipped, saying so.
"""
import collections
import json
import math
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
QUIZ_PATH = sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, "assets/quiz/positional-encoding.json")
REFERENCE = os.environ.get("PELAB_REFERENCE", os.path.join(os.path.dirname(REPO), "shared/reference"))

passed = 0


def check(label, ok, detail=""):
    global passed
    print(("PASS " if ok else "FAIL ") + label + (": " + detail if detail else ""))
    assert ok, label + (": " + detail if detail else "")
    passed += 1


def close(label, got, want, tol):
    check(label, abs(got - want) <= tol, "computed %.10g, expected %.10g (tolerance %g)" % (got, want, tol))


# ---------------------------------------------------------------------------------------------
# Independent maths
# ---------------------------------------------------------------------------------------------
BASE = 10000.0


def omega(i, d, base=BASE):
    return base ** (-2.0 * i / d)


def denominator(i, d, base=BASE):
    return base ** (2.0 * i / d)


def wavelength(i, d, base=BASE):
    return 2 * math.pi * denominator(i, d, base)


def pe(pos, d, base=BASE):
    v = []
    for i in range(d // 2):
        a = pos / denominator(i, d, base)
        v += [math.sin(a), math.cos(a)]
    return v


def dot(x, y):
    return sum(a * b for a, b in zip(x, y))


def f32(x):
    """Round a double to the nearest float32."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def f32_spacing(x):
    """Gap between x (a float32) and the next float32 up."""
    bits = struct.unpack("<I", struct.pack("<f", x))[0]
    return struct.unpack("<f", struct.pack("<I", bits + 1))[0] - x


def pe_float32_code(pos, d, base=BASE):
    """The widely copied float32 code: div = exp(2i · −ln(base)/d), angle = pos·div, all float32
    (each operation rounded to float32, the way a float32 tensor library evaluates it)."""
    factor = f32(-math.log(base) / d)
    out = []
    for i in range(d // 2):
        div = f32(math.exp(f32(f32(2 * i) * factor)))
        angle = f32(f32(pos) * div)
        out += [f32(math.sin(angle)), f32(math.cos(angle))]
    return out


def scores(x):
    return [[dot(a, b) for b in x] for a in x]


def order_demo(sentence_a, sentence_b, d, pe_on, pe_scale=1.0, embedding="one-hot", seed=1):
    """Attention scores X·Xᵀ (W_Q = W_K = I) of two sentences, X = E + pe_scale·PE; returns the
    largest difference after moving B's scores into A's word order (words matched by identity)."""
    ta, tb = sentence_a.lower().split(), sentence_b.lower().split()
    vocab = []
    for t in ta + tb:
        if t not in vocab:
            vocab.append(t)
    rng = random.Random(seed)
    if embedding == "one-hot":
        emb = {w: [1.0 if j == k else 0.0 for j in range(d)] for k, w in enumerate(vocab)}
    else:
        emb = {w: [rng.uniform(-1, 1) for _ in range(d)] for w in vocab}

    def rows(tokens):
        out = []
        for p, t in enumerate(tokens):
            pv = pe(p, d) if pe_on else [0.0] * d
            out.append([e + pe_scale * q for e, q in zip(emb[t], pv)])
        return out

    sa, sb = scores(rows(ta)), scores(rows(tb))
    # Where each of A's words stands in B (each word once in these sentences).
    where = [tb.index(t) for t in ta]
    n = len(ta)
    return max(abs(sb[where[i]][where[j]] - sa[i][j]) for i in range(n) for j in range(n))


def rope_rotate(x, pos, base=BASE):
    d = len(x)
    out = list(x)
    for i in range(d // 2):
        a = pos * omega(i, d, base)
        c, s = math.cos(a), math.sin(a)
        out[2 * i] = c * x[2 * i] - s * x[2 * i + 1]
        out[2 * i + 1] = s * x[2 * i] + c * x[2 * i + 1]
    return out


def rotation_residual(pos, k, i, d, base=BASE):
    """max |PE_pair(pos + k) − R_k · PE_pair(pos)| with R_k built from ω_i·k alone."""
    w = omega(i, d, base)
    c, s = math.cos(w * k), math.sin(w * k)
    sp, cp = math.sin(w * pos), math.cos(w * pos)
    # (sin, cos) order: sin(a+b) = sin a cos b + cos a sin b; cos(a+b) = cos a cos b − sin a sin b
    rs = c * sp + s * cp
    rc = -s * sp + c * cp
    return max(abs(rs - math.sin(w * (pos + k))), abs(rc - math.cos(w * (pos + k))))


# ---------------------------------------------------------------------------------------------
# Bookkeeping: which numbers of which item are accounted for
# ---------------------------------------------------------------------------------------------
quiz = json.load(open(QUIZ_PATH, encoding="utf-8"))
Q = quiz["questions"]
C = quiz["cards"]
accounted = collections.defaultdict(set)


def item(key):
    kind, n = key[0], int(key[1:]) - 1
    return Q[n] if kind == "q" else C[n]


def texts(key):
    it = item(key)
    if key[0] == "q":
        return [it["question"], it["explanation"]] + it.get("choices", [])
    return [it["front"], it["back"]]


def alltext(key):
    return "\n".join(texts(key))


NUM = re.compile(r"(?<![\w.])\d+(?:[ ,]\d{3})*(?:\.\d+)?")


def norm(tok):
    return tok.replace(" ", "").replace(",", "")


def given(key, *toks):
    """Numbers the item sets itself (inputs), not results."""
    for t in toks:
        check("%s: states the given %s" % (key, t), t in alltext(key))
        accounted[key].add(norm(t))


def stated(key, tok, value, tol, why):
    """The item's text shows tok; it must agree with the independently computed value."""
    check("%s: text shows %s" % (key, tok), tok in alltext(key))
    close("%s: %s = %s" % (key, tok, why), value, float(norm(tok).lstrip("+")), tol)
    accounted[key].add(norm(tok))


def expects(key, value, why):
    """A number question's expected answer: the computed value must be accepted, and the file's
    answer must be within its own tolerance of it."""
    num = item(key)["number"]
    close("%s: answer %g accepted for the computed %s" % (key, num["answer"], why),
          value, num["answer"], num["tolerance"])


def rejects(key, wrong, why):
    num = item(key)["number"]
    check("%s: a typical wrong answer %g (%s) is not accepted" % (key, wrong, why),
          abs(wrong - num["answer"]) > num["tolerance"])


def scene(key):
    return item(key)["show"].get("scene", {})


def find_q(fragment):
    hits = [k for k, q in enumerate(Q) if fragment in q["question"]]
    assert len(hits) == 1, fragment
    return "q%d" % (hits[0] + 1)


def find_c(fragment):
    hits = [k for k, c in enumerate(C) if fragment in c["front"]]
    assert len(hits) == 1, fragment
    return "c%d" % (hits[0] + 1)


print("== structure")
check("format", quiz.get("format") == "pelab-quiz" and quiz.get("version") == 1)
check("title", quiz.get("title") == "Positional encodings: check your understanding")
TOPICS = {"order", "failed-ideas", "sinusoids", "frequencies", "relative-position", "rotation",
          "later-methods"}
check("at least 10 questions", len(Q) >= 10, str(len(Q)))
numbers = [q for q in Q if "number" in q]
check("at least 3 number questions", len(numbers) >= 3, str(len(numbers)))
check("at least 10 cards", len(C) >= 10, str(len(C)))
for k, q in enumerate(Q):
    key = "q%d" % (k + 1)
    check("%s: topic %s is one of the seven" % (key, q.get("topic")), q.get("topic") in TOPICS)
    check("%s: choices xor number" % key, ("choices" in q) != ("number" in q))
    if "choices" in q:
        check("%s: 3-4 choices, answer in range" % key,
              3 <= len(q["choices"]) <= 4 and 0 <= q["answer"] < len(q["choices"]))
    else:
        n = q["number"]
        check("%s: number has answer and tolerance >= 0" % key,
              isinstance(n["answer"], (int, float)) and n.get("tolerance", 0) >= 0 and
              set(n) <= {"answer", "tolerance", "unit"} and n.get("unit", "x") != "")
    sentences = [s for s in re.split(r"(?<=[.?!])\s+", q["explanation"]) if s]
    check("%s: explanation has 2-4 sentences" % key, 2 <= len(sentences) <= 4, str(len(sentences)))
    check("%s: has a show with present" % key, "present" in q.get("show", {}))
for k, c in enumerate(C):
    check("c%d: has front, back, show with present" % (k + 1),
          c["front"] and c["back"] and "present" in c.get("show", {}))
topic_count = collections.Counter(q["topic"] for q in Q)
check("every topic has a question", set(topic_count) == TOPICS, str(dict(topic_count)))

print("== show: panels, scene fields, widget names (from the repository's sources)")
registry = open(os.path.join(REPO, "app/panels/panel_registry.cpp"), encoding="utf-8").read()
panel_ids = set(re.findall(r'^\s*\{"([a-z]+)", "', registry, re.M))
formats = open(os.path.join(REPO, "docs/file-formats.md"), encoding="utf-8").read()
table = formats.split("<!-- scene-fields")[1].split("<!-- /scene-fields -->")[0]
scene_fields = set(re.findall(r"^\| `([a-z0-9_]+)` \|", table, re.M))
sources = ""
panels_dir = os.path.join(REPO, "app/panels")
for folder, _, names in os.walk(panels_dir):  # app/panels/<id>/: one folder per panel
    for name in sorted(names):
        if name.endswith(".cpp"):
            sources += open(os.path.join(folder, name), encoding="utf-8").read()
widget_literals = set(re.findall(r'"((?:%s)\.[a-z0-9_]+)"' % "|".join(sorted(panel_ids)), sources))
record_calls = set(re.findall(r'Record(?:LastItem)?\("([a-z_]+\.[a-z0-9_]+)"', sources))
check("panel ids found", {"waves", "compare", "rotation", "alternatives"} <= panel_ids,
      ", ".join(sorted(panel_ids)))
check("scene fields found", {"pos_a", "pe_enabled", "candidates_plot"} <= scene_fields,
      "%d fields" % len(scene_fields))
shows = [("q%d" % (k + 1), q["show"]) for k, q in enumerate(Q)] + \
        [("c%d" % (k + 1), c["show"]) for k, c in enumerate(C)]
for key, show in shows:
    check("%s: panel %s exists" % (key, show["present"]),
          show["present"] in panel_ids and show["present"] != "quiz")
    for field, value in show.get("scene", {}).items():
        check("%s: scene field %s exists" % (key, field), field in scene_fields)
    sc = show.get("scene", {})
    if "pair" in sc:
        check("%s: pair < d_model/2 (d_model set in the same show)" % key,
              "d_model" in sc and 0 <= sc["pair"] < sc["d_model"] // 2 or sc["pair"] == 0)
    if "d_model" in sc:
        check("%s: d_model even in [2, 4096]" % key, sc["d_model"] % 2 == 0 and 2 <= sc["d_model"] <= 4096)
    for w in show.get("highlight", []):
        how = "Record(\"…\")" if w in record_calls else "a record-name argument of a helper"
        check("%s: widget %s is recorded in app/panels (%s)" % (key, w, how), w in widget_literals)

# ---------------------------------------------------------------------------------------------
print("== order")
key = find_q("Switch the positional encoding off")
given(key, "0")  # "position 0" / "largest difference … 0" also appears as the answer itself
d_order = 16  # the order demo's default width (order_d_model)
diff_off_onehot = order_demo("dog bites man", "man bites dog", d_order, pe_on=False)
diff_off_random = max(order_demo("dog bites man", "man bites dog", d_order, pe_on=False,
                                 embedding="random", seed=s) for s in range(20))
expects(key, diff_off_onehot, "PE-off largest difference after matching (one-hot)")
check(key + ": also 0 for 20 random embeddings", diff_off_random < 1e-12, "%.3g" % diff_off_random)
check(key + ": show turns PE off", scene(key)["pe_enabled"] is False)

key = find_q("Now switch the positional encoding on")
given(key, "0", "2")  # "dog" at position 0 and at position 2
diff_on = order_demo("dog bites man", "man bites dog", d_order, pe_on=True)
check(key + ": with PE on the tables differ after matching", diff_on > 0.1, "%.6f" % diff_on)
check(key + ": PE(0) != PE(2) (dog's two places)", max(abs(a - b) for a, b in zip(pe(0, d_order), pe(2, d_order))) > 0.5)
check(key + ": show turns PE on", scene(key)["pe_enabled"] is True)

# ---------------------------------------------------------------------------------------------
print("== failed ideas")
key = find_q("raw position number")
given(key, "0.1", "100")
check(key + ": a word moves 100 + 0.1 by a thousandth of it", abs(0.1 / 100 - 0.001) < 1e-15,
      "0.1 / 100 = %g" % (0.1 / 100))
check(key + ": show is raw index at position 100, embedding 0.1",
      scene(key)["candidates_plot"] == "raw_index" and scene(key)["pos_a"] == 100 and
      scene(key)["candidates_embedding"] == 0.1)

key = find_q("Dividing by the length")
given(key, "5", "10", "100")
stated(key, "0.5", 5 / 10, 1e-12, "5/10")
expects(key, 5 / 100, "5/100")
accounted[key].add("0.05")
rejects(key, 0.5, "the short-sentence value")
stated(key, "0.1", 1 / 10, 1e-12, "neighbour gap at length 10")
stated(key, "0.01", 1 / 100, 1e-12, "neighbour gap at length 100")
accounted[key].add("100")

key = find_q("In binary, position 7")
given(key, "7", "8")
check(key + ": 7 = 0111 and 8 = 1000", format(7, "04b") == "0111" and format(8, "04b") == "1000")
accounted[key].update({"0111", "1000"})
expects(key, bin(7 ^ 8).count("1"), "popcount(7 xor 8)")
rejects(key, 1, "one step, one bit")
check(key + ": 'all four bits'", bin(7 ^ 8).count("1") == 4)

# ---------------------------------------------------------------------------------------------
print("== sinusoids")
key = find_q("Pair 0 at position 3")
given(key, "0", "3")
theta = 3 * omega(0, 512)
close(key + ": pair 0 angle at pos 3 is 3 rad (ω_0 = 1 for any base)", theta, 3.0, 1e-15)
for b in (10.0, 500.0, 1e4, 1e6):
    close(key + ": ω_0 = 1 at base %g" % b, omega(0, 512, b), 1.0, 0)
stated(key, "0.14", math.pi - theta, 0.005, "π − 3")
close(key + ": sin(π − θ) = sin θ", math.sin(math.pi - theta), math.sin(theta), 1e-12)
stated(key, "0.99", -math.cos(theta), 0.005, "−cos 3 (the text says −0.99 vs +0.99)")
close(key + ": cos(π − θ) = −cos θ", math.cos(math.pi - theta), -math.cos(theta), 1e-12)
sc = scene(key)
check(key + ": show is sin only, pair 0, pos 3", sc["candidates_plot"] == "sin_only" and sc["pair"] == 0 and sc["pos_a"] == 3)

key = find_q("In the worked example")
given(key, "4", "0.7", "0", "1", "10000")
stated(key, "0.841", math.sin(1.0 / BASE ** 0), 0.0005, "sin(1/10000^0)")
expects(key, 0.7 + pe(1, 4)[0], "0.7 + PE(1)[0]")
stated(key, "1.541", 0.7 + pe(1, 4)[0], 0.0005, "0.7 + sin 1")
stated(key, "0.7", 0.7 + pe(0, 4)[0], 1e-15, "0.7 + sin 0 (same word at position 0)")
rejects(key, 0.7 + 0.540, "adding dim 1 (cos) by mistake")
check(key + ": show is the default worked example", scene(key)["worked_d_model"] == 4 and
      scene(key)["worked_sentence"] == "The cat sat" and scene(key)["worked_embeddings"] == {})

key = find_q("PE(7)·PE(7)")
given(key, "128", "7")
expects(key, dot(pe(7, 128), pe(7, 128)), "PE(7)·PE(7) at d 128")
stated(key, "64", 128 / 2, 0, "number of pairs")
stated(key, "8", math.sqrt(dot(pe(7, 128), pe(7, 128))), 1e-9, "‖PE(7)‖")
accounted[key].update({"2", "1"})  # "sin² + cos² = 1", "128/2"
close(key + ": sin² + cos² = 1 for every pair", max(abs(math.sin(a) ** 2 + math.cos(a) ** 2 - 1) for a in (0.3, 7, 123.4)), 0, 1e-15)
check(key + ": show compares 7 with 7 at d 128", scene(key)["pos_a"] == 7 and scene(key)["pos_b"] == 7 and scene(key)["d_model"] == 128)

key = find_q("last dims (504 to 511)")
given(key, "504", "511", "3", "512", "1")
v = pe(3, 512)
sins, coss = v[504:512:2], v[505:512:2]
check(key + ": the sin dims are close to 0", max(abs(x) for x in sins) < 0.001, str([round(x, 6) for x in sins]))
check(key + ": the cos dims are close to 1", min(coss) > 0.9999, str([round(x, 9) for x in coss]))
accounted[key].update({"0", "1"})  # "close to 0", "close to 1": the two checks above
angles = [3 / denominator(i, 512) for i in range(252, 256)]
check(key + ": the angle is 'about 0.0003' (0.0003 to 0.00035)", all(0.0003 <= a <= 0.00035 for a in angles),
      str([round(a, 7) for a in angles]))
accounted[key].add("0.0003")
check(key + ": denominators of pairs 252-255 'in the thousands'",
      all(1000 <= denominator(i, 512) < 10000 for i in range(252, 256)),
      str([round(denominator(i, 512), 1) for i in range(252, 256)]))
check(key + ": the first dims do swing (so choice 3 is wrong)", max(abs(x) for x in v[0:8]) > 0.9)
check(key + ": show: dims 504-511 at pos 3, d 512",
      scene(key)["calculator_dim_from"] == 504 and scene(key)["calculator_dim_to"] == 511 and scene(key)["pos_a"] == 3)

# ---------------------------------------------------------------------------------------------
print("== frequencies")
key = find_q("drag the pair slider")
given(key, "512", "0", "255", "2", "1")
stated(key, "1", denominator(0, 512), 0, "denominator of pair 0")
stated(key, "9 647", denominator(255, 512), 0.5, "denominator of pair 255")
stated(key, "6.28", wavelength(0, 512), 0.005, "wavelength of pair 0")
stated(key, "60 600", wavelength(255, 512), 100, "wavelength of pair 255 ('60 600 or so')")
check(key + ": wavelength grows with i", all(wavelength(i + 1, 512) > wavelength(i, 512) for i in range(255)))
check(key + ": pair 255 moves < 0.05 rad over 500 positions ('hardly moves over hundreds')",
      500 * omega(255, 512) < 0.06, "%.4f rad" % (500 * omega(255, 512)))

key = find_q("slowest pair (255)")
given(key, "512", "10000", "255")
expects(key, wavelength(255, 512), "2π·10000^(510/512)")
stated(key, "60 611", wavelength(255, 512), 0.5, "2π·10000^(510/512)")
stated(key, "9 646.6", denominator(255, 512), 0.05, "10000^(510/512)")
stated(key, "62 832", 2 * math.pi * 10000, 0.5, "2π·10000")
rejects(key, 2 * math.pi * 10000, "2π·10000, forgetting that the exponent stops at 510/512")
rejects(key, 10000, "the base itself")
accounted[key].update({"10000", "510", "512", "1", "2"})  # the formula's own constants, 2π
check(key + ": exponent of pair 255 is 510/512", abs(2 * 255 / 512 - 510 / 512) < 1e-15)

key = find_q("positions 3 and 5 are 2 apart")
given(key, "128", "3", "5", "2", "0", "63", "1")
contrib = [math.cos(2 * omega(i, 128)) for i in range(64)]
check(key + ": pair 0 has the smallest contribution", min(range(64), key=lambda i: contrib[i]) == 0)
close(key + ": contribution cos(ω_i·2) equals the pair's own dot product",
      sum(contrib), dot(pe(3, 128), pe(5, 128)), 1e-9)
stated(key, "0.42", -math.cos(2), 0.005, "−cos 2 (the text says cos 2 ≈ −0.42)")
check(key + ": no ω_i is above 1 (any d, any base > 1)",
      all(omega(i, d, b) <= 1 for d in (2, 4, 128, 512, 4096) for b in (10, 1e4, 1e6) for i in range(d // 2)))
check(key + ": so every turn 2·ω_i is under half a circle", 2 * 1.0 < math.pi)
ok = True
for d in (4, 16, 128, 512, 4096):
    for b in (10.0, 1e4, 1e6):
        c2 = [math.cos(2 * omega(i, d, b)) for i in range(d // 2)]
        ok &= min(range(d // 2), key=lambda i: c2[i]) == 0
check(key + ": pair 0 differs most at a gap of 2 for every d and base tried", ok)
check(key + ": the slowest pairs add almost exactly 1 (> 0.9999 for the last 20)",
      min(contrib[44:]) > 0.9999, "%.9f" % min(contrib[44:]))
check(key + ": show compares 3 and 5 at d 128", scene(key)["pos_a"] == 3 and scene(key)["pos_b"] == 5 and scene(key)["d_model"] == 128)

key = find_q("Positions 3 and 150")
given(key, "3", "150", "128", "147", "0")
close(key + ": 150 − 3 = 147", 150 - 3, 147, 0)
turns0 = 147 * omega(0, 128) / (2 * math.pi)
check(key + ": pair 0 goes round more than 23 times", 23 < turns0 < 24, "%.3f turns" % turns0)
accounted[key].add("23")
under = [i for i in range(64) if omega(i, 128) * 147 < math.pi]
check(key + ": from pair 27 up the turn is under half a circle", under == list(range(27, 64)),
      "first such pair %d" % under[0])
accounted[key].add("27")
check(key + ": show has both hands at 3 and 150", scene(key)["pos_a"] == 3 and scene(key)["pos_b"] == 150 and scene(key)["clock_show_b"] is True)

# ---------------------------------------------------------------------------------------------
print("== relative position")
key = find_q("PE(3)·PE(8)")
given(key, "128", "3", "8", "103", "108", "5")
d38 = dot(pe(3, 128), pe(8, 128))
stated(key, "47.19", d38, 0.005, "PE(3)·PE(8) at d 128")
close(key + ": PE(103)·PE(108) equals PE(3)·PE(8)", dot(pe(103, 128), pe(108, 128)), d38, 1e-9)
close(key + ": and equals Σ cos(ω_i·5)", sum(math.cos(5 * omega(i, 128)) for i in range(64)), d38, 1e-9)
check(key + ": the show's shift_k 100 moves 3, 8 to 103, 108", scene(key)["shift_k"] == 100 and scene(key)["pos_a"] == 3 and scene(key)["pos_b"] == 8)

key = find_q("With d_model 2 there is one pair")
given(key, "2", "1", "10", "13", "3")
accounted[key].update({"10", "13"})
check(key + ": ω = 1 at d 2", omega(0, 2) == 1.0)
expects(key, dot(pe(10, 2), pe(13, 2)), "PE(10)·PE(13) at d 2")
close(key + ": equals cos 3", dot(pe(10, 2), pe(13, 2)), math.cos(3), 1e-12)
stated(key, "0.99", -math.cos(3), 0.005, "−cos 3 (the text says ≈ −0.99)")
rejects(key, 0.99, "the sign dropped")

# ---------------------------------------------------------------------------------------------
print("== rotation")
key = find_q("pair 1 turns")
given(key, "512", "1", "10000", "2", "5")
stated(key, "0.9647", omega(1, 512), 0.00005, "10000^(−2/512)")
expects(key, 5 * omega(1, 512), "5·ω_1")
stated(key, "4.82", 5 * omega(1, 512), 0.005, "0.9647 × 5")
accounted[key].add("2")  # "2×2"
check(key + ": max residual of R_5 at pair 1 over 200 start positions < 1e-12",
      max(rotation_residual(p, 5, 1, 512) for p in range(200)) < 1e-12)
check(key + ": show is pair 1, k 5, d 512", scene(key)["pair"] == 1 and scene(key)["shift_k"] == 5 and scene(key)["d_model"] == 512)

key = find_q("Does the matrix R₅ change")
given(key, "5", "3", "1000")
res = max(rotation_residual(p, 5, i, 512) for p in (3, 1000, 12345) for i in range(0, 256, 5))
check(key + ": one R_5 (built from k alone) maps PE(p) to PE(p+5) at p = 3, 1000, 12345", res < 1e-9, "%.2e" % res)
check(key + ": show starts at pos 1000 with k 5", scene(key)["pos_a"] == 1000 and scene(key)["shift_k"] == 5)

# ---------------------------------------------------------------------------------------------
print("== later methods")
key = find_q("trained with 512 rows")
given(key, "512", "0", "511")
rows = list(range(512))
check(key + ": 512 rows are positions 0 to 511, none for 512", rows[0] == 0 and rows[-1] == 511 and 512 not in rows)
check(key + ": the sinusoid is defined at 512", all(math.isfinite(x) for x in pe(512, 768)))
check(key + ": show looks up 512 in a 512-row table", scene(key)["learned_rows"] == 512 and scene(key)["learned_lookup"] == 512)

key = find_q("how many numbers does training")
given(key, "512", "768")
expects(key, 512 * 768, "512 × 768")
stated(key, "393 216", 512 * 768, 0, "512 × 768")
check(key + ": show is 512 × 768", scene(key)["learned_rows"] == 512 and scene(key)["learned_d"] == 768)

key = find_q("RoPE turns the query")
rng = random.Random(7)
worst = 0.0
for trial in range(20):
    dim = 2 * rng.randint(1, 16)
    q = [rng.uniform(-1, 1) for _ in range(dim)]
    k = [rng.uniform(-1, 1) for _ in range(dim)]
    m, n = rng.randint(0, 5000), rng.randint(0, 5000)
    s0 = dot(rope_rotate(q, m), rope_rotate(k, n))
    for shift in (1, 17, 1000):
        worst = max(worst, abs(dot(rope_rotate(q, m + shift), rope_rotate(k, n + shift)) - s0))
    # and it equals q · R(n − m) k: only m − n enters
    worst = max(worst, abs(dot(q, rope_rotate(k, n - m)) - s0))
check(key + ": RoPE score unchanged when m and n move together (20 random q, k)", worst < 1e-9, "%.2e" % worst)
q2 = [1.0, 0.0]
check(key + ": but it does change with m − n",
      abs(dot(rope_rotate(q2, 3), rope_rotate(q2, 50)) - dot(rope_rotate(q2, 3), rope_rotate(q2, 4))) > 0.1)

# ---------------------------------------------------------------------------------------------
print("== cards")
key = find_c("Why does a transformer need positions")
check(key + ": PE off, scores equal up to re-ordering", diff_off_onehot == 0.0)

key = find_c("The sinusoidal formula")
given(key, "2", "1", "10000")
accounted[key].add("2")
v = pe(3, 512)
close(key + ": dim 2i is sin(pos/base^(2i/d)) (pos 3, i 7)", v[14], math.sin(3 / 10000 ** (14 / 512)), 0)
close(key + ": dim 2i+1 is cos(pos/base^(2i/d)) (pos 3, i 7)", v[15], math.cos(3 / 10000 ** (14 / 512)), 0)

key = find_c("ω_i and the wavelength")
given(key, "2", "512", "0", "1", "50", "255")
close(key + ": 2π/ω_i = 2π·base^(2i/d)", 2 * math.pi / omega(50, 512), wavelength(50, 512), 1e-9)
stated(key, "6.28", wavelength(0, 512), 0.005, "pair 0")
stated(key, "6.51", wavelength(1, 512), 0.005, "pair 1")
stated(key, "38.0", wavelength(50, 512), 0.05, "pair 50")
stated(key, "60 611", wavelength(255, 512), 0.5, "pair 255")

key = find_c("Why sin and cos, not sin alone")
ok = True
for k in range(1000):
    a = 2 * math.pi * k / 1000
    ok &= abs(math.sin(a) - math.sin(math.pi - a)) < 1e-12
pts = [(round(math.sin(2 * math.pi * k / 997), 9), round(math.cos(2 * math.pi * k / 997), 9)) for k in range(997)]
check(key + ": sin θ = sin(π − θ) everywhere", ok)
check(key + ": (sin, cos) gives 997 distinct points for 997 angles within a turn", len(set(pts)) == 997)

key = find_c("Fast pairs and slow pairs")
check(key + ": ω decreases with i (fast → slow)", all(omega(i + 1, 512) < omega(i, 512) for i in range(255)))

key = find_c("A shift by k")
given(key, "2")
check(key + ": R_k from k alone works at any pos (pairs 0..255 step 15)",
      max(rotation_residual(p, 7, i, 512) for p in (0, 50, 9999) for i in range(0, 256, 15)) < 1e-9)

key = find_c("PE(p)·PE(p + k)")
given(key, "2", "0")
spread = max(abs(dot(pe(p, 128), pe(p + 9, 128)) - dot(pe(0, 128), pe(9, 128))) for p in (1, 77, 1000, 54321))
check(key + ": PE(p)·PE(p+9) the same for p = 0, 1, 77, 1000, 54321", spread < 1e-8, "%.2e" % spread)
close(key + ": largest value d/2 at k = 0", dot(pe(5, 128), pe(5, 128)), 64, 1e-9)
check(key + ": below d/2 for every k in 1..2000", max(dot(pe(0, 128), pe(k, 128)) for k in range(1, 2001)) < 64 - 1e-6)

key = find_c("PE(3)·PE(50) at d_model 128")
given(key, "3", "50", "128", "1")
stated(key, "30.59", dot(pe(3, 128), pe(50, 128)), 0.005, "PE(3)·PE(50)")
stated(key, "64", 128 / 2, 0, "the most possible")
c47 = [math.cos(47 * omega(i, 128)) for i in range(64)]
check(key + ": the slow pairs (40-63) each add nearly 1 (> 0.98)", min(c47[40:]) > 0.98, "%.4f" % min(c47[40:]))
check(key + ": the fast pairs (0-15) add values of both signs", min(c47[:16]) < -0.5 and max(c47[:16]) > 0.5)

key = find_c("Learned position table")
given(key, "512", "768")
stated(key, "393 216", 512 * 768, 0, "512 × 768")

key = find_c("RoPE")
given(key, "2")
check(key + ": (see the RoPE question) shift invariance", worst < 1e-9)

key = find_c("ALiBi")
given(key, "8", "1", "2", "4", "256")
slopes = [2 ** (-8 * (h + 1) / 8) for h in range(8)]  # geometric, start 2^(−8/n), ratio 2^(−8/n)
check(key + ": slopes for 8 heads are 1/2, 1/4, ..., 1/256", slopes == [1 / 2 ** k for k in range(1, 9)], str(slopes))

key = find_c("Why base 10000")
given(key, "10000", "512", "255")
stated(key, "60 611", wavelength(255, 512), 0.5, "slowest wavelength")
angles = [p * omega(255, 512) for p in (0, 30000, 60611)]
check(key + ": within 60 611 positions the slowest hand stays within one turn", angles[-1] <= 2 * math.pi + 1e-6)

key = find_c("Scaling the embedding")
given(key, "512", "1")
stated(key, "22.6", math.sqrt(512), 0.05, "√512")
check(key + ": PE values stay in [−1, 1]", max(abs(x) for p in (0, 7, 1e5) for x in pe(p, 512)) <= 1.0)

key = find_c("float32 at large positions")
given(key, "32", "10", "1", "16")
digits = 24 * math.log10(2)
stated(key, "7", digits, 0.3, "significand digits of float32 (24 bits → 7.2)")
close(key + ": float32 spacing at 10^6 is 1/16", f32_spacing(1e6), 1 / 16, 0)
close(key + ": 10^6 is exactly a float32", f32(1e6), 1e6, 0)
err = max(abs(a - b) for a, b in zip(pe_float32_code(1e6, 512), pe(1e6, 512)))
check(key + ": the float32 code's PE error at 10^6 is 'hundredths' (0.01 to 0.1)", 0.01 <= err < 0.1, "%.4f" % err)
factor = f32(-math.log(BASE) / 512)
angle_err = max(abs(f32(f32(1e6) * f32(math.exp(f32(f32(2 * i) * factor)))) - 1e6 * omega(i, 512))
                for i in range(256))
check(key + ": the float32 code's angle error at 10^6 is 'hundredths' (0.01 to 0.1 rad)",
      0.01 <= angle_err < 0.1, "%.4f rad" % angle_err)
err_small = max(abs(a - b) for a, b in zip(pe_float32_code(100, 512), pe(100, 512)))
check(key + ": and much smaller at pos 100 (error grows with position)", err_small < 1e-4, "%.2e" % err_small)

key = find_c("Add or concatenate")
check(key + ": adding keeps the width: len(E + PE) = d", len([a + b for a, b in zip([0.0] * 4, pe(1, 4))]) == 4)

key = find_c("Interleaved or concatenated")
given(key, "2", "1")
d = 8
inter = pe(5, d)
concat = inter[0::2] + inter[1::2]
check(key + ": concatenated = all sins then all cosines, the same numbers",
      sorted(inter) == sorted(concat) and concat[: d // 2] == [math.sin(5 * omega(i, d)) for i in range(d // 2)])

# Every digit run in every student-facing text is accounted for.
print("== every number in the texts is checked or declared given")
for k in range(len(Q)):
    key = "q%d" % (k + 1)
    if "number" in Q[k]:
        accounted[key].add(norm(("%r" % Q[k]["number"]["answer"]).rstrip("0").rstrip(".")))
for key in ["q%d" % (k + 1) for k in range(len(Q))] + ["c%d" % (k + 1) for k in range(len(C))]:
    found = {norm(t) for t in NUM.findall(alltext(key))}
    missing = sorted(found - accounted[key])
    check("%s: all numbers accounted for %s" % (key, sorted(found)), not missing, "unchecked: %s" % missing)

# ---------------------------------------------------------------------------------------------
print("== teach-back rubric")
tb = quiz["teach_back"]
check("prompt is 1-2 sentences", 1 <= len(re.findall(r"[.?!](\s|$)", tb["prompt"])) <= 2)
R = tb["rubric"]
check("exactly 7 ideas", len(R) == 7)
for k, idea in enumerate(R):
    kw = idea["keywords"]
    check("idea %d: 4-10 keywords, lower case, 2-60 bytes" % (k + 1),
          4 <= len(kw) <= 10 and all(w == w.lower() and 2 <= len(w.encode()) <= 60 for w in kw), str(len(kw)))


def mentioned(text):
    low = re.sub(r"\s+", " ", text.lower())
    return [any(w in low for w in idea["keywords"]) for idea in R]


for k, sentence in enumerate([
        "Adding is commutative, so the model loses the word order.",
        "If you add the raw index, the big number drowns the word embedding.",
        "Dividing by the length to get 0 to 1 depends on how long the sentence is.",
        "Binary bits jump around, they are not smooth.",
        "Each position gets a unique point from its sin and cos pair.",
        "Many frequencies: fast ones for fine detail and slow ones for coarse position.",
        "Shifting by k is the same rotation for every position."]):
    check("idea %d found in the test sentence %r" % (k + 1, sentence), mentioned(sentence)[k])
check("'I like turtles.' mentions nothing", not any(mentioned("I like turtles.")))
for k, s in enumerate([
        "Without positions, a sum of word vectors is the same in any order, so a + b = b + a hides who did what.",
        "The index itself grows without limit and would dominate the small embedding numbers.",
        "If you normalise to [0, 1] the step between words depends on the sentence length.",
        "Binary codes are discrete: from 7 to 8 every bit flips.",
        "sine and cosine together put each position on a circle, so nothing aliases.",
        "Different wavelengths, like a clock's hour hand and second hand.",
        "Moving by k positions is a rotation matrix, the same for every start, so relative offsets are linear."]):
    check("idea %d found in a second wording" % (k + 1), mentioned(s)[k])

# ---------------------------------------------------------------------------------------------
print("== own words: no 8-word run shared with the reference documents")


def words(text):
    return re.findall(r"[a-z0-9]+", text.lower())


ref_grams = set()
if not os.path.isdir(REFERENCE):
    print("   (no reference documents at %s: the copied-words check is skipped)" % REFERENCE)
for name in (os.listdir(REFERENCE) if os.path.isdir(REFERENCE) else []):
    if name.endswith(".txt") and name[0].isdigit():
        w = words(open(os.path.join(REFERENCE, name), encoding="utf-8").read())
        ref_grams.update(tuple(w[i:i + 8]) for i in range(len(w) - 7))
student_texts = [alltext("q%d" % (k + 1)) for k in range(len(Q))] + \
                [alltext("c%d" % (k + 1)) for k in range(len(C))] + \
                [tb["prompt"]] + [i["idea"] for i in R]
shared = set()
for t in student_texts:
    w = words(t)
    shared.update(" ".join(w[i:i + 8]) for i in range(len(w) - 7) if tuple(w[i:i + 8]) in ref_grams)
check("no 8-word run copied", not shared, "; ".join(sorted(shared)))

# ---------------------------------------------------------------------------------------------
PELAB = os.environ.get("PELAB", os.path.join(REPO, "build/bin/pelab"))
if os.environ.get("PELAB_CHECK_APP", "1") != "0" and os.access(PELAB, os.X_OK):
    print("== optional: the app's own readouts for each show's scene (pelab readouts, /tmp only)")
    tmp = tempfile.mkdtemp(prefix="quiz-check-")
    env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(tmp, "xdg"))

    def readouts(key):
        show = item(key)["show"]
        sc = dict(show.get("scene", {}))
        sc["open_panels"] = ["quiz", show["present"]]
        sc["presented_panel"] = ""
        path = os.path.join(tmp, key + ".json")
        out = os.path.join(tmp, key + ".out.json")
        json.dump(sc, open(path, "w"))
        r = subprocess.run([PELAB, "readouts", "--scene", path, "--out", out], env=env,
                           capture_output=True, text=True, timeout=60)
        check("app accepts the scene of %s" % key, r.returncode == 0, r.stderr.strip())
        return json.load(open(out))["readouts"]

    try:
        for k in range(len(Q)):
            readouts("q%d" % (k + 1))
        for k in range(len(C)):
            readouts("c%d" % (k + 1))
        r = readouts(find_q("Switch the positional encoding off"))["order"]
        close("app: PE off, largest difference after matching", r["max_reorder_diff"], 0.0, 0)
        r = readouts(find_q("Now switch the positional encoding on"))["order"]
        close("app: PE on, one-hot, d 16 (this script computed %.6f)" % diff_on, r["max_reorder_diff"], diff_on, 1e-9)
        r = readouts(find_q("Dividing by the length"))["candidates"]
        row = [p for p in r["properties"] if p["candidate"] == "index_over_length"][0]
        close("app: [0,1] scaling, position 5 at L 10 vs L 100", row["length_change"], 0.5 - 0.05, 1e-12)
        r = readouts(find_q("In the worked example"))["worked"]
        close("app: worked example cat@1 dim 0", r["x_final"][1][0], 0.7 + math.sin(1), 1e-12)
        r = readouts(find_q("PE(7)·PE(7)"))["compare"]
        close("app: PE(7)·PE(7) at d 128", r["dot_product"], 64, 1e-9)
        r = readouts(find_q("slowest pair (255)"))["waves"]
        close("app: wavelength of pair 255", r["wavelength"], wavelength(255, 512), 1e-6)
        r = readouts(find_q("PE(3)·PE(8)"))["compare"]
        close("app: PE(3)·PE(8) at d 128", r["dot_product"], d38, 1e-9)
        close("app: shifted by k = 100", r["dot_product_shifted_by_k"], d38, 1e-9)
        r = readouts(find_q("With d_model 2 there is one pair"))["compare"]
        close("app: PE(10)·PE(13) at d 2", r["dot_product"], math.cos(3), 1e-12)
        r = readouts(find_q("pair 1 turns"))["rotation"]
        a = 5 * omega(1, 512)
        close("app: R_5 of pair 1 has cos(5·ω_1) on its diagonal", r["r_k"][0][0], math.cos(a), 1e-12)
        close("app: R_5 of pair 1 has ±sin(5·ω_1) off the diagonal", abs(r["r_k"][1][0]), abs(math.sin(a)), 1e-12)
        r = readouts(find_q("Does the matrix R₅ change"))["rotation"]
        check("app: residual at pos 1000 below 1e-12", r["residual_double"] < 1e-12, "%.2e" % r["residual_double"])
        r = readouts(find_q("how many numbers does training"))["alternatives"]["learned"]
        close("app: learned parameters", r["parameters"], 512 * 768, 0)
        check("app: no entry for position 512", r["has_entry"] is False)
        r = readouts(find_q("RoPE turns the query"))["alternatives"]["rope"]
        close("app: RoPE score from the distance", r["score_from_distance"], r["score"], 1e-9)
        r = readouts(find_c("PE(3)·PE(50) at d_model 128"))["compare"]
        close("app: PE(3)·PE(50) at d 128", r["dot_product"], dot(pe(3, 128), pe(50, 128)), 1e-9)
        r = readouts(find_c("ALiBi"))["alternatives"]["alibi"]
        check("app: ALiBi slopes for 8 heads", [abs(s - t) < 1e-15 for s, t in zip(r["slopes"], slopes)] == [True] * 8, str(r["slopes"]))
        r = readouts(find_c("float32 at large positions"))["precision"]
        e6 = [e for e in r["errors"] if e["position"] == 1e6][0]["float32_code"]
        close("app: float32 code error at 10^6 (this script's float32 emulation: %.4f)" % err, e6, err, 0.005)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
else:
    print("== optional app readouts skipped")

print("\nALL %d CHECKS PASSED" % passed)
