# Checks a `pelab render pe-heatmap|similarity --colormap grey` picture pixel by pixel against
# values computed here, independently, in double precision:
#   PE matrix (LAYOUT interleaved or concat): column x shows dimension floor(x*D/W), row y (from
#   the top) position floor(y*L/H); grey level round((v + 1)/2 * 255),
#   v = sin or cos(pos * base^(-2i/D)).
#   Similarity (LAYOUT similarity): column x shows q = floor(x*L/W), row y p = floor(y*L/H);
#   grey level round((s/(D/2) + 1)/2 * 255), s = sum_i cos(base^(-2i/D) * (p - q)).
# Usage: check_pe_pixels.py RAW_GREY W H L D BASE LAYOUT   (RAW_GREY: one byte per pixel)
# Prints the largest level difference and how many pixels are one level or more off.
import math, sys

raw_path, W, H, L, D, base, layout = sys.argv[1], *map(int, sys.argv[2:6]), float(sys.argv[6]), sys.argv[7]
with open(raw_path, "rb") as f:
    grey = f.read()
if len(grey) != W * H:
    sys.exit(f"expected {W * H} grey bytes, got {len(grey)}")
pairs = D // 2
worst, bad, off_by_one = 0, 0, 0
if layout == "similarity":
    omegas = [base ** (-(2.0 * i) / D) for i in range(pairs)]
    levels = []
    for k in range(L):
        s = sum(math.cos(w * k) for w in omegas) / pairs
        levels.append(math.floor((s + 1.0) / 2.0 * 255.0 + 0.5))
    qs = [x * L // W for x in range(W)]
    for y in range(H):
        p = y * L // H
        row = grey[y * W:(y + 1) * W]
        for x, q in enumerate(qs):
            diff = abs(row[x] - levels[abs(p - q)])
            worst = max(worst, diff)
            bad += diff > 1
            off_by_one += diff == 1
    print(f"{W}x{H} L={L} D={D} base={base:g} similarity: largest difference {worst} level(s), "
          f"{off_by_one} pixels off by one, {bad} by more")
    sys.exit(1 if bad or off_by_one > 0.0005 * W * H else 0)
columns = []
for x in range(W):
    dim = x * D // W
    if layout == "interleaved":
        pair, is_cos = dim // 2, dim % 2 == 1
    else:
        pair, is_cos = dim % pairs, dim >= pairs
    columns.append((base ** (-(2.0 * pair) / D), is_cos))
for y in range(H):
    pos = y * L // H
    row = grey[y * W:(y + 1) * W]
    for x, (omega, is_cos) in enumerate(columns):
        angle = pos * omega
        v = math.cos(angle) if is_cos else math.sin(angle)
        expected = math.floor((v + 1.0) / 2.0 * 255.0 + 0.5)
        diff = abs(row[x] - expected)
        if diff > worst:
            worst = diff
        if diff > 1:
            bad += 1
        elif diff == 1:
            off_by_one += 1
print(f"{W}x{H} L={L} D={D} base={base:g} {layout}: largest difference {worst} level(s), {off_by_one} pixels off by one ({100.0 * off_by_one / (W * H):.3f}%), {bad} by more")
# One level is the limit for every pixel. An exact angle leaves only values within ~1e-4 of a
# rounding boundary off by one (~0.003% of the pixels); a float32 angle pos*w (no exact
# reduction) puts ~1.2% there even on a GPU whose sin is accurate: more than 0.05% fails.
sys.exit(1 if bad or off_by_one > 0.0005 * W * H else 0)
