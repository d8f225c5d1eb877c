#!/usr/bin/python3
"""NumPy reference dequantization of ggml tensor types (the test oracle).

Written from ggml's reference C code, not from any project code:
  block layouts : ggml/src/ggml-common.h   (block_q4_0 ... block_q8_K)
  dequantization: ggml/src/ggml-quants.c   (dequantize_row_q4_0 ... dequantize_row_q8_K,
                                            get_scale_min_k4)
  type ids/sizes: ggml/include/ggml.h (enum ggml_type), gguf-py/gguf/constants.py (GGML_QUANT_SIZES)
(commits are listed in README.md).

Every product/sum is evaluated in float32, one operation at a time and in the
same order as the C expression (e.g. Q4_K: `d1 = d * sc` then `d1 * q - m1`;
Q6_K: `d * sc[is] * q` = `(d * sc) * q`), so a float32 implementation that does
not fuse multiply-add (no FMA contraction) must agree bit for bit.

Public API
  TYPES                       name -> (type id, block size, bytes per block)
  dequantize(name, raw, n)    raw bytes (numpy uint8 or bytes) -> float32[n]
  random_blocks(name, n_blocks, rng) -> bytes of n_blocks valid random blocks
  quantize_q8_0(x)            faithful port of quantize_row_q8_0_ref
  quantize_q5_0(x)            faithful port of quantize_row_q5_0_ref
  quantize_q4_k_simple(x)     a simple (NOT llama.cpp's) Q4_K quantizer producing valid blocks

Run this file to execute its self-test.
"""
import struct
import sys

import numpy as np

QK_K = 256

# name: (ggml_type id, elements per block, bytes per block)   -- GGML_QUANT_SIZES
TYPES = {
    "F32": (0, 1, 4),
    "F16": (1, 1, 2),
    "Q4_0": (2, 32, 18),
    "Q4_1": (3, 32, 20),
    "Q5_0": (6, 32, 22),
    "Q5_1": (7, 32, 24),
    "Q8_0": (8, 32, 34),
    "Q8_1": (9, 32, 36),
    "Q2_K": (10, 256, 84),
    "Q3_K": (11, 256, 110),
    "Q4_K": (12, 256, 144),
    "Q5_K": (13, 256, 176),
    "Q6_K": (14, 256, 210),
    "Q8_K": (15, 256, 292),
    "IQ2_XXS": (16, 256, 66),
    "IQ2_XS": (17, 256, 74),
    "IQ3_XXS": (18, 256, 98),
    "IQ1_S": (19, 256, 50),
    "IQ4_NL": (20, 32, 18),
    "IQ3_S": (21, 256, 110),
    "IQ2_S": (22, 256, 82),
    "IQ4_XS": (23, 256, 136),
    "I8": (24, 1, 1),
    "I16": (25, 1, 2),
    "I32": (26, 1, 4),
    "I64": (27, 1, 8),
    "F64": (28, 1, 8),
    "IQ1_M": (29, 256, 56),
    "BF16": (30, 1, 2),
    "TQ1_0": (34, 256, 54),
    "TQ2_0": (35, 256, 66),
    "MXFP4": (39, 32, 17),
    "NVFP4": (40, 64, 36),
    "Q1_0": (41, 128, 18),
}
TYPE_BY_ID = {v[0]: k for k, v in TYPES.items()}

# types this module can dequantize
DEQUANT_TYPES = ["F32", "F16", "BF16", "F64", "Q8_0", "Q4_0", "Q4_1", "Q5_0", "Q5_1",
                 "Q2_K", "Q3_K", "Q4_K", "Q5_K", "Q6_K", "Q8_K"]

F32 = np.float32


def _f16(b):
    """little-endian ggml_half bytes (..., 2) uint8 -> float32 (exact: GGML_FP16_TO_FP32)."""
    return np.ascontiguousarray(b).view("<f2").astype(F32)[..., 0]


def _blocks(name, raw, n):
    _, bs, sz = TYPES[name]
    raw = np.frombuffer(bytes(raw), dtype=np.uint8) if not isinstance(raw, np.ndarray) else raw.astype(np.uint8, copy=False)
    if n % bs:
        raise ValueError(f"{name}: {n} elements is not a multiple of block size {bs}")
    nb = n // bs
    if raw.size < nb * sz:
        raise ValueError(f"{name}: need {nb * sz} bytes, got {raw.size}")
    return raw[: nb * sz].reshape(nb, sz), nb


def _mul(a, b):
    return (np.asarray(a, F32) * np.asarray(b, F32)).astype(F32)


def _sub(a, b):
    return (np.asarray(a, F32) - np.asarray(b, F32)).astype(F32)


def _add(a, b):
    return (np.asarray(a, F32) + np.asarray(b, F32)).astype(F32)


def deq_q4_0(raw, n):
    b, nb = _blocks("Q4_0", raw, n)
    d = _f16(b[:, 0:2])[:, None]
    qs = b[:, 2:18].astype(np.int32)
    x0 = (qs & 0x0F) - 8
    x1 = (qs >> 4) - 8
    return np.concatenate([_mul(x0, d), _mul(x1, d)], axis=1).reshape(-1)


def deq_q4_1(raw, n):
    b, nb = _blocks("Q4_1", raw, n)
    d = _f16(b[:, 0:2])[:, None]
    m = _f16(b[:, 2:4])[:, None]
    qs = b[:, 4:20].astype(np.int32)
    x0 = qs & 0x0F
    x1 = qs >> 4
    return np.concatenate([_add(_mul(x0, d), m), _add(_mul(x1, d), m)], axis=1).reshape(-1)


def _q5_bits(qh_bytes):
    qh = qh_bytes.copy().view("<u4")[:, 0].astype(np.int64)  # memcpy(&qh, x[i].qh, 4)
    j = np.arange(16)
    xh0 = ((qh[:, None] >> j) << 4) & 0x10          # ((qh >> (j + 0)) << 4) & 0x10
    xh1 = (qh[:, None] >> (j + 12)) & 0x10          # ((qh >> (j + 12))     ) & 0x10
    return xh0, xh1


def deq_q5_0(raw, n):
    b, nb = _blocks("Q5_0", raw, n)
    d = _f16(b[:, 0:2])[:, None]
    xh0, xh1 = _q5_bits(b[:, 2:6])
    qs = b[:, 6:22].astype(np.int64)
    x0 = ((qs & 0x0F) | xh0) - 16
    x1 = ((qs >> 4) | xh1) - 16
    return np.concatenate([_mul(x0, d), _mul(x1, d)], axis=1).reshape(-1)


def deq_q5_1(raw, n):
    b, nb = _blocks("Q5_1", raw, n)
    d = _f16(b[:, 0:2])[:, None]
    m = _f16(b[:, 2:4])[:, None]
    xh0, xh1 = _q5_bits(b[:, 4:8])
    qs = b[:, 8:24].astype(np.int64)
    x0 = (qs & 0x0F) | xh0
    x1 = (qs >> 4) | xh1
    return np.concatenate([_add(_mul(x0, d), m), _add(_mul(x1, d), m)], axis=1).reshape(-1)


def deq_q8_0(raw, n):
    b, nb = _blocks("Q8_0", raw, n)
    d = _f16(b[:, 0:2])[:, None]
    qs = b[:, 2:34].view(np.int8)
    return _mul(qs, d).reshape(-1)


def deq_q2_k(raw, n):
    b, nb = _blocks("Q2_K", raw, n)
    scales = b[:, 0:16].astype(np.int32)
    qs = b[:, 16:80].astype(np.int32)
    d = _f16(b[:, 80:82])
    dmin = _f16(b[:, 82:84])
    out = np.empty((nb, 256), F32)
    for h in range(2):              # n = 0, 128
        for j in range(4):          # shift = 2*j
            for s in range(2):      # q[l] / q[l+16]
                is_ = h * 8 + j * 2 + s
                sc = scales[:, is_]
                dl = _mul(d, sc & 0xF)[:, None]      # dl = d * (sc & 0xF)
                ml = _mul(dmin, sc >> 4)[:, None]    # ml = min * (sc >> 4)
                q = (qs[:, h * 32 + s * 16: h * 32 + s * 16 + 16] >> (2 * j)) & 3
                o = h * 128 + j * 32 + s * 16
                out[:, o:o + 16] = _sub(_mul(dl, q), ml)   # dl * q - ml
    return out.reshape(-1)


def q3_k_scales(sc12):
    """the 16 six-bit scales of block_q3_K.scales (values 0..63, before the -32), as in
    dequantize_row_q3_K's kmask1/kmask2 shuffle of aux[0..3]."""
    b = sc12.astype(np.int32)
    out = np.empty(b.shape[:-1] + (16,), np.int32)
    for j in range(4):
        out[..., j] = (b[..., j] & 0xF) | (((b[..., 8 + j] >> 0) & 3) << 4)
        out[..., 4 + j] = (b[..., 4 + j] & 0xF) | (((b[..., 8 + j] >> 2) & 3) << 4)
        out[..., 8 + j] = (b[..., j] >> 4) | (((b[..., 8 + j] >> 4) & 3) << 4)
        out[..., 12 + j] = (b[..., 4 + j] >> 4) | (((b[..., 8 + j] >> 6) & 3) << 4)
    return out


def deq_q3_k(raw, n):
    b, nb = _blocks("Q3_K", raw, n)
    hm = b[:, 0:32].astype(np.int32)
    qs = b[:, 32:96].astype(np.int32)
    scales = q3_k_scales(b[:, 96:108]) - 32
    d_all = _f16(b[:, 108:110])
    out = np.empty((nb, 256), F32)
    for h in range(2):
        for j in range(4):
            m = 1 << (h * 4 + j)
            for s in range(2):
                is_ = h * 8 + j * 2 + s
                dl = _mul(d_all, scales[:, is_])[:, None]        # dl = d_all * (scales[is] - 32)
                q = (qs[:, h * 32 + s * 16: h * 32 + s * 16 + 16] >> (2 * j)) & 3
                hbit = (hm[:, s * 16: s * 16 + 16] & m) != 0
                qv = q - np.where(hbit, 0, 4)
                o = h * 128 + j * 32 + s * 16
                out[:, o:o + 16] = _mul(dl, qv)
    return out.reshape(-1)


def get_scale_min_k4(j, q):
    """q: (..., 12) uint8 scales -> (sc, m) for sub-block j (0..7), as in ggml-quants.c."""
    q = q.astype(np.int32)
    if j < 4:
        return q[..., j] & 63, q[..., j + 4] & 63
    d = (q[..., j + 4] & 0xF) | ((q[..., j - 4] >> 6) << 4)
    m = (q[..., j + 4] >> 4) | ((q[..., j - 0] >> 6) << 4)
    return d, m


def deq_q4_k(raw, n):
    b, nb = _blocks("Q4_K", raw, n)
    d = _f16(b[:, 0:2])
    dmin = _f16(b[:, 2:4])
    sc12 = b[:, 4:16]
    qs = b[:, 16:144].astype(np.int32)
    out = np.empty((nb, 256), F32)
    for c in range(4):
        sc, m = get_scale_min_k4(2 * c, sc12)
        d1 = _mul(d, sc)[:, None]
        m1 = _mul(dmin, m)[:, None]
        sc, m = get_scale_min_k4(2 * c + 1, sc12)
        d2 = _mul(d, sc)[:, None]
        m2 = _mul(dmin, m)[:, None]
        q = qs[:, 32 * c: 32 * c + 32]
        out[:, 64 * c: 64 * c + 32] = _sub(_mul(d1, q & 0xF), m1)
        out[:, 64 * c + 32: 64 * c + 64] = _sub(_mul(d2, q >> 4), m2)
    return out.reshape(-1)


def deq_q5_k(raw, n):
    b, nb = _blocks("Q5_K", raw, n)
    d = _f16(b[:, 0:2])
    dmin = _f16(b[:, 2:4])
    sc12 = b[:, 4:16]
    qh = b[:, 16:48].astype(np.int32)
    ql = b[:, 48:176].astype(np.int32)
    out = np.empty((nb, 256), F32)
    for c in range(4):
        u1, u2 = 1 << (2 * c), 2 << (2 * c)
        sc, m = get_scale_min_k4(2 * c, sc12)
        d1 = _mul(d, sc)[:, None]
        m1 = _mul(dmin, m)[:, None]
        sc, m = get_scale_min_k4(2 * c + 1, sc12)
        d2 = _mul(d, sc)[:, None]
        m2 = _mul(dmin, m)[:, None]
        q = ql[:, 32 * c: 32 * c + 32]
        lo = (q & 0xF) + np.where(qh & u1, 16, 0)
        hi = (q >> 4) + np.where(qh & u2, 16, 0)
        out[:, 64 * c: 64 * c + 32] = _sub(_mul(d1, lo), m1)
        out[:, 64 * c + 32: 64 * c + 64] = _sub(_mul(d2, hi), m2)
    return out.reshape(-1)


def deq_q6_k(raw, n):
    b, nb = _blocks("Q6_K", raw, n)
    ql_all = b[:, 0:128].astype(np.int32)
    qh_all = b[:, 128:192].astype(np.int32)
    sc_all = b[:, 192:208].view(np.int8).astype(np.int32)
    d = _f16(b[:, 208:210])[:, None]
    out = np.empty((nb, 256), F32)
    for h in range(2):
        ql = ql_all[:, 64 * h: 64 * h + 64]
        qh = qh_all[:, 32 * h: 32 * h + 32]
        sc = sc_all[:, 8 * h: 8 * h + 8]
        l = np.arange(32)
        is_ = l // 16
        q1 = ((ql[:, 0:32] & 0xF) | (((qh >> 0) & 3) << 4)) - 32
        q2 = ((ql[:, 32:64] & 0xF) | (((qh >> 2) & 3) << 4)) - 32
        q3 = ((ql[:, 0:32] >> 4) | (((qh >> 4) & 3) << 4)) - 32
        q4 = ((ql[:, 32:64] >> 4) | (((qh >> 6) & 3) << 4)) - 32
        base = 128 * h
        # y = d * sc[is + k] * q  ==  (d * sc) * q
        out[:, base + 0: base + 32] = _mul(_mul(d, sc[:, is_ + 0]), q1)
        out[:, base + 32: base + 64] = _mul(_mul(d, sc[:, is_ + 2]), q2)
        out[:, base + 64: base + 96] = _mul(_mul(d, sc[:, is_ + 4]), q3)
        out[:, base + 96: base + 128] = _mul(_mul(d, sc[:, is_ + 6]), q4)
    return out.reshape(-1)


def deq_q8_k(raw, n):
    b, nb = _blocks("Q8_K", raw, n)
    d = b[:, 0:4].copy().view("<f4")[:, 0].astype(F32)[:, None]
    qs = b[:, 4:260].view(np.int8)
    return _mul(d, qs).reshape(-1)     # bsums are not used by dequantize_row_q8_K


def deq_f32(raw, n):
    return np.frombuffer(bytes(raw), dtype="<f4", count=n).astype(F32)


def deq_f16(raw, n):
    return np.frombuffer(bytes(raw), dtype="<f2", count=n).astype(F32)


def deq_bf16(raw, n):
    u = np.frombuffer(bytes(raw), dtype="<u2", count=n).astype(np.uint32) << 16   # ggml_compute_bf16_to_fp32
    return u.view(F32).copy()


def deq_f64(raw, n):
    # the float64 values rounded to nearest float32
    return np.frombuffer(bytes(raw), dtype="<f8", count=n).astype(F32)


_DEQ = {
    "F32": deq_f32, "F16": deq_f16, "BF16": deq_bf16, "F64": deq_f64,
    "Q4_0": deq_q4_0, "Q4_1": deq_q4_1, "Q5_0": deq_q5_0, "Q5_1": deq_q5_1, "Q8_0": deq_q8_0,
    "Q2_K": deq_q2_k, "Q3_K": deq_q3_k, "Q4_K": deq_q4_k, "Q5_K": deq_q5_k, "Q6_K": deq_q6_k,
    "Q8_K": deq_q8_k,
}


def dequantize(name, raw, n):
    """raw bytes of a tensor of type `name` with n elements -> float32 array of n values."""
    return _DEQ[name](raw, n)


def nbytes(name, n):
    _, bs, sz = TYPES[name]
    if n % bs:
        raise ValueError(f"{n} not a multiple of {bs} for {name}")
    return n // bs * sz


# ----------------------------------------------------------------------------- random blocks

def _rand_f16_scale(rng, k, lo=1e-3, hi=1e-1, signed=True):
    mag = np.exp(rng.uniform(np.log(lo), np.log(hi), k))
    if signed:
        mag = mag * rng.choice([-1.0, 1.0], k)
    return mag.astype(np.float16).view(np.uint8).reshape(k, 2)


def random_blocks(name, n_blocks, rng):
    """n_blocks valid random blocks of type `name` as bytes: finite f16 scales with
    |d| in [1e-3, 1e-1], random quant bytes; for float types n_blocks finite values."""
    _, bs, sz = TYPES[name]
    k = n_blocks
    if name == "F32":
        return rng.standard_normal(k).astype("<f4").tobytes()
    if name == "F16":
        return rng.standard_normal(k).astype("<f2").tobytes()
    if name == "BF16":
        f = rng.standard_normal(k).astype(F32).view(np.uint32)
        return (f >> 16).astype("<u2").tobytes()            # truncation: always finite
    if name == "F64":
        return rng.standard_normal(k).astype("<f8").tobytes()
    if name == "Q8_K":
        d = np.exp(rng.uniform(np.log(1e-3), np.log(1e-1), k)).astype("<f4") * rng.choice([-1, 1], k).astype("<f4")
        qs = rng.integers(-128, 128, (k, 256)).astype(np.int8)
        bsums = qs.astype(np.int32).reshape(k, 16, 16).sum(axis=2).astype("<i2")   # valid: group sums
        out = np.concatenate([d.astype("<f4").view(np.uint8).reshape(k, 4), qs.view(np.uint8),
                              bsums.view(np.uint8).reshape(k, 32)], axis=1)
        return out.tobytes()
    raw = rng.integers(0, 256, (k, sz), dtype=np.uint16).astype(np.uint8)
    # place the f16 scale fields
    fields = {
        "Q4_0": [0], "Q4_1": [0, 2], "Q5_0": [0], "Q5_1": [0, 2], "Q8_0": [0], "Q8_1": [0, 2],
        "Q2_K": [80, 82], "Q3_K": [108], "Q4_K": [0, 2], "Q5_K": [0, 2], "Q6_K": [208],
        "IQ2_XXS": [0], "IQ2_XS": [0], "IQ2_S": [0], "IQ3_XXS": [0], "IQ3_S": [0], "IQ1_S": [0],
        "IQ4_NL": [0], "IQ4_XS": [0], "TQ1_0": [52], "TQ2_0": [64], "Q1_0": [0],
    }.get(name)
    if fields is None and name in ("MXFP4",):
        raw[:, 0] = rng.integers(110, 135, k)          # E8M0 exponent around 2^0
        return raw.tobytes()
    if fields is None and name == "NVFP4":
        raw[:, 0:4] = rng.integers(0x20, 0x40, (k, 4))  # UE4M3 scales, finite
        return raw.tobytes()
    for off in fields or []:
        raw[:, off:off + 2] = _rand_f16_scale(rng, k)
    return raw.tobytes()


# ----------------------------------------------------------------------------- quantizers

def _roundf(v):
    """C roundf (half away from zero) of float32 values, exactly (done in float64)."""
    v = np.asarray(v, np.float64)
    return np.sign(v) * np.floor(np.abs(v) + 0.5)


def quantize_q8_0(x):
    """port of quantize_row_q8_0_ref: x float32 (k,) with k % 32 == 0 -> bytes."""
    x = np.asarray(x, F32).reshape(-1, 32)
    amax = np.abs(x).max(axis=1)
    d = (amax / F32(127)).astype(F32)
    with np.errstate(divide="ignore"):
        idv = np.where(d != 0, (F32(1) / d).astype(F32), F32(0)).astype(F32)
    q = _roundf((x * idv[:, None]).astype(F32)).astype(np.int8)
    out = np.concatenate([d.astype("<f2").view(np.uint8).reshape(-1, 2), q.view(np.uint8)], axis=1)
    return out.tobytes()


def quantize_q5_0(x):
    """port of quantize_row_q5_0_ref."""
    x = np.asarray(x, F32).reshape(-1, 32)
    nb = x.shape[0]
    out = np.zeros((nb, 22), np.uint8)
    for i in range(nb):
        amax = F32(0)
        mx = F32(0)
        for j in range(32):
            v = x[i, j]
            if amax < abs(v):
                amax = F32(abs(v))
                mx = v
        d = F32(mx / F32(-16))
        idv = F32(F32(1) / d) if d != 0 else F32(0)
        out[i, 0:2] = np.array([d], "<f2").view(np.uint8)
        qh = 0
        for j in range(16):
            x0 = F32(x[i, j] * idv)
            x1 = F32(x[i, 16 + j] * idv)
            # (int8_t)(x0 + 16.5f): C truncation toward zero; MIN(31, .)
            xi0 = min(31, int(np.trunc(F32(x0 + F32(16.5))))) & 0xFF
            xi1 = min(31, int(np.trunc(F32(x1 + F32(16.5))))) & 0xFF
            out[i, 6 + j] = (xi0 & 0x0F) | ((xi1 & 0x0F) << 4)
            qh |= ((xi0 & 0x10) >> 4) << (j + 0)
            qh |= ((xi1 & 0x10) >> 4) << (j + 16)
        out[i, 2:6] = np.array([qh], "<u4").view(np.uint8)
    return out.tobytes()


def quantize_q4_k_simple(x):
    """A simple Q4_K quantizer (per 32-element sub-block: min/max -> 6-bit scale and min,
    4-bit quants). It is NOT llama.cpp's quantize_row_q4_K_ref (which searches scales with
    make_qkx2_quants), but the blocks are valid Q4_K and dequantize with deq_q4_k."""
    x = np.asarray(x, np.float64).reshape(-1, 256)
    nb = x.shape[0]
    out = np.zeros((nb, 144), np.uint8)
    for i in range(nb):
        sub = x[i].reshape(8, 32)
        mins = np.minimum(sub.min(axis=1), 0.0)           # x = d*sc*q - dmin*m  with m >= 0
        scales = (sub.max(axis=1) - mins) / 15.0
        max_scale = scales.max()
        max_min = (-mins).max()
        d = np.float16(max_scale / 63.0 if max_scale > 0 else 0.0)
        dmin = np.float16(max_min / 63.0 if max_min > 0 else 0.0)
        ls = np.clip(np.rint(scales / float(d)) if d else np.zeros(8), 0, 63).astype(int)
        lm = np.clip(np.rint(-mins / float(dmin)) if dmin else np.zeros(8), 0, 63).astype(int)
        sc12 = np.zeros(12, np.int64)
        for j in range(8):
            if j < 4:
                sc12[j] = ls[j]
                sc12[j + 4] = lm[j]
            else:
                sc12[j + 4] = (ls[j] & 0xF) | ((lm[j] & 0xF) << 4)
                sc12[j - 4] |= (ls[j] >> 4) << 6
                sc12[j] |= (lm[j] >> 4) << 6
        L = np.zeros(256, int)
        for j in range(8):
            dd = float(d) * ls[j]
            mm = float(dmin) * lm[j]
            if dd == 0:
                continue
            L[32 * j: 32 * j + 32] = np.clip(np.rint((sub[j] + mm) / dd), 0, 15)
        qs = np.zeros(128, np.int64)
        for c in range(4):
            for l in range(32):
                qs[32 * c + l] = L[64 * c + l] | (L[64 * c + 32 + l] << 4)
        out[i, 0:2] = np.array([d], "<f2").view(np.uint8)
        out[i, 2:4] = np.array([dmin], "<f2").view(np.uint8)
        out[i, 4:16] = sc12.astype(np.uint8)
        out[i, 16:144] = qs.astype(np.uint8)
    return out.tobytes()


def encode_f32(x):
    return np.asarray(x, "<f4").tobytes()


def quantize(name, x):
    x = np.asarray(x, F32).reshape(-1)
    if name == "F32":
        return encode_f32(x)
    if name == "F16":
        return x.astype("<f2").tobytes()
    if name == "Q8_0":
        return quantize_q8_0(x)
    if name == "Q5_0":
        return quantize_q5_0(x)
    if name == "Q4_K":
        return quantize_q4_k_simple(x)
    raise ValueError(name)


# ----------------------------------------------------------------------------- self test

def _h(v):
    """f16 bytes of v (v must be exactly representable)."""
    b = np.array([v], "<f2")
    assert float(b[0]) == v, v
    return b.tobytes()


def _eq(name, got, want):
    got = np.asarray(got, F32)
    want = np.asarray(want, F32)
    if got.shape != want.shape or not np.array_equal(got.view(np.uint32), want.view(np.uint32)):
        bad = np.nonzero(got.view(np.uint32) != want.view(np.uint32))[0] if got.shape == want.shape else []
        raise AssertionError(f"{name}: mismatch at {bad[:10]}: got {got[bad[:5]]} want {want[bad[:5]]}")


def _scalar_reference(name, raw, n):
    """Straight element-by-element transcription of the C loops (pure Python, float32
    via numpy scalars) used to cross-check the vectorised code on random blocks."""
    f = F32
    b = np.frombuffer(bytes(raw), np.uint8)
    h2f = lambda o: f(np.frombuffer(bytes(b[o:o + 2]), "<f2")[0])
    y = []
    _, bs, sz = TYPES[name]
    for i in range(n // bs):
        o = i * sz
        if name == "Q4_0":
            d = h2f(o); qs = b[o + 2:o + 18]
            lo = [f(int(qs[j] & 0xF) - 8) * d for j in range(16)]
            hi = [f(int(qs[j] >> 4) - 8) * d for j in range(16)]
            y += lo + hi
        elif name == "Q4_1":
            d = h2f(o); m = h2f(o + 2); qs = b[o + 4:o + 20]
            y += [f(f(int(qs[j] & 0xF)) * d) + m for j in range(16)] + [f(f(int(qs[j] >> 4)) * d) + m for j in range(16)]
        elif name in ("Q5_0", "Q5_1"):
            d = h2f(o)
            if name == "Q5_1":
                m = h2f(o + 2); qo = o + 4
            else:
                m = None; qo = o + 2
            qh = int.from_bytes(bytes(b[qo:qo + 4]), "little"); qs = b[qo + 4:qo + 20]
            lo, hi = [], []
            for j in range(16):
                xh0 = ((qh >> j) << 4) & 0x10
                xh1 = (qh >> (j + 12)) & 0x10
                x0 = (int(qs[j] & 0xF) | xh0)
                x1 = (int(qs[j] >> 4) | xh1)
                if m is None:
                    lo.append(f(x0 - 16) * d); hi.append(f(x1 - 16) * d)
                else:
                    lo.append(f(f(x0) * d) + m); hi.append(f(f(x1) * d) + m)
            y += lo + hi
        elif name == "Q8_0":
            d = h2f(o)
            y += [f(int(np.int8(b[o + 2 + j]))) * d for j in range(32)]
        elif name == "Q2_K":
            sc = b[o:o + 16]; q = b[o + 16:o + 80]; d = h2f(o + 80); mn = h2f(o + 82)
            is_ = 0; qo = 0
            for nn in range(2):
                shift = 0
                for j in range(4):
                    for s in range(2):
                        c = int(sc[is_]); is_ += 1
                        dl = d * f(c & 0xF); ml = mn * f(c >> 4)
                        y += [f(dl * f((int(q[qo + s * 16 + l]) >> shift) & 3)) - ml for l in range(16)]
                    shift += 2
                qo += 32
        elif name == "Q3_K":
            hm = b[o:o + 32]; q = b[o + 32:o + 96]; scb = b[o + 96:o + 108]; d_all = h2f(o + 108)
            aux = list(np.frombuffer(bytes(scb), "<u4").astype(np.uint64))
            km1, km2 = 0x03030303, 0x0f0f0f0f
            a = [int(v) for v in aux] + [0]
            tmp = a[2]
            a[2] = ((a[0] >> 4) & km2) | (((tmp >> 4) & km1) << 4)
            a[3] = ((a[1] >> 4) & km2) | (((tmp >> 6) & km1) << 4)
            a[0] = (a[0] & km2) | (((tmp >> 0) & km1) << 4)
            a[1] = (a[1] & km2) | (((tmp >> 2) & km1) << 4)
            scales = np.frombuffer(b"".join(int(v & 0xFFFFFFFF).to_bytes(4, "little") for v in a), np.int8)
            is_ = 0; qo = 0; mm = 1
            for nn in range(2):
                shift = 0
                for j in range(4):
                    for s in range(2):
                        dl = d_all * f(int(scales[is_]) - 32); is_ += 1
                        for l in range(16):
                            qv = ((int(q[qo + s * 16 + l]) >> shift) & 3) - (0 if (int(hm[s * 16 + l]) & mm) else 4)
                            y.append(dl * f(qv))
                    shift += 2; mm <<= 1
                qo += 32
        elif name in ("Q4_K", "Q5_K"):
            d = h2f(o); mn = h2f(o + 2); sc12 = b[o + 4:o + 16]
            if name == "Q4_K":
                ql = b[o + 16:o + 144]; qh = None
            else:
                qh = b[o + 16:o + 48]; ql = b[o + 48:o + 176]
            u1, u2 = 1, 2
            for c in range(4):
                s0, m0 = get_scale_min_k4(2 * c, sc12)
                s1, m1_ = get_scale_min_k4(2 * c + 1, sc12)
                d1 = d * f(int(s0)); mm1 = mn * f(int(m0))
                d2 = d * f(int(s1)); mm2 = mn * f(int(m1_))
                for l in range(32):
                    v = int(ql[32 * c + l]) & 0xF
                    if qh is not None and (int(qh[l]) & u1):
                        v += 16
                    y.append(f(d1 * f(v)) - mm1)
                for l in range(32):
                    v = int(ql[32 * c + l]) >> 4
                    if qh is not None and (int(qh[l]) & u2):
                        v += 16
                    y.append(f(d2 * f(v)) - mm2)
                u1 <<= 2; u2 <<= 2
        elif name == "Q6_K":
            ql = b[o:o + 128]; qh = b[o + 128:o + 192]; sc = np.frombuffer(bytes(b[o + 192:o + 208]), np.int8); d = h2f(o + 208)
            yy = [None] * 256
            for nn in range(2):
                for l in range(32):
                    is_ = l // 16
                    L0 = int(ql[64 * nn + l]); L1 = int(ql[64 * nn + l + 32]); H = int(qh[32 * nn + l])
                    q1 = ((L0 & 0xF) | (((H >> 0) & 3) << 4)) - 32
                    q2 = ((L1 & 0xF) | (((H >> 2) & 3) << 4)) - 32
                    q3 = ((L0 >> 4) | (((H >> 4) & 3) << 4)) - 32
                    q4 = ((L1 >> 4) | (((H >> 6) & 3) << 4)) - 32
                    s8 = sc[8 * nn:8 * nn + 8]
                    yy[128 * nn + l] = f(d * f(int(s8[is_]))) * f(q1)
                    yy[128 * nn + l + 32] = f(d * f(int(s8[is_ + 2]))) * f(q2)
                    yy[128 * nn + l + 64] = f(d * f(int(s8[is_ + 4]))) * f(q3)
                    yy[128 * nn + l + 96] = f(d * f(int(s8[is_ + 6]))) * f(q4)
            y += yy
        elif name == "Q8_K":
            d = f(np.frombuffer(bytes(b[o:o + 4]), "<f4")[0])
            y += [d * f(int(np.int8(b[o + 4 + j]))) for j in range(256)]
        else:
            return dequantize(name, raw, n)
    return np.array(y, F32)


def hand_blocks():
    """(type, raw bytes, expected float32 values) built by hand; expected values worked
    out from the C code and written as literals (with the arithmetic in comments)."""
    cases = []

    # F32 / F16 / BF16 / F64: plain encodings
    cases.append(("F32", struct.pack("<4f", 1.5, -2.0, 0.0, 3.25), [1.5, -2.0, 0.0, 3.25]))
    cases.append(("F16", bytes.fromhex("003c00c0"), [1.0, -2.0]))        # 0x3c00 = 1.0, 0xc000 = -2.0
    # BF16 0x3fc0 -> 0x3fc00000 = 1.5 ; 0xc040 -> 0xc0400000 = -3.0
    cases.append(("BF16", bytes.fromhex("c03f40c0"), [1.5, -3.0]))
    # F64 0.1 rounds to float32 0.1f = 0.100000001490116...
    cases.append(("F64", struct.pack("<2d", 0.1, -4.0), [np.float32(0.1), -4.0]))

    # Q8_0: d = 0.5 (f16 0x3800); qs = 0, 1, -1, 2, -2, ..., y = qs * d
    qs = [0] + [v for k in range(1, 16) for v in (k, -k)] + [127]   # 32 values
    raw = _h(0.5) + bytes(np.array(qs, np.int8).view(np.uint8))
    want = [q * 0.5 for q in qs]       # e.g. qs[31]=127 -> 63.5, qs[2]=-1 -> -0.5
    cases.append(("Q8_0", raw, want))

    # Q4_0: d = 0.25; qs[j] = (hi << 4) | lo with lo = j, hi = 15 - j
    # y[j] = (lo - 8) * 0.25 ; y[j+16] = (hi - 8) * 0.25
    raw = _h(0.25) + bytes(((15 - j) << 4) | j for j in range(16))
    want = [(j - 8) * 0.25 for j in range(16)] + [((15 - j) - 8) * 0.25 for j in range(16)]
    # i.e. -2.0, -1.75, ..., 1.75 then 1.75, 1.5, ..., -2.0
    cases.append(("Q4_0", raw, want))

    # Q4_1: d = 0.5, m = -1.0; qs[j] = 0x3j?  lo = j, hi = 3  -> y = q*0.5 + (-1)
    raw = _h(0.5) + _h(-1.0) + bytes((3 << 4) | j for j in range(16))
    want = [j * 0.5 - 1.0 for j in range(16)] + [3 * 0.5 - 1.0] * 16   # -1.0 .. 6.5, then 0.5 x16
    cases.append(("Q4_1", raw, want))

    # Q5_0: d = 1.0; qh = 0x0000FFFF (bits 0..15 set -> fifth bit for the low halves only)
    # qs[j] = 0x0? lo = j, hi = 0 ; y[j] = ((j | 16) - 16) * 1 = j ; y[j+16] = (0 | 0) - 16 = -16
    raw = _h(1.0) + struct.pack("<I", 0x0000FFFF) + bytes(j for j in range(16))
    want = [float(j) for j in range(16)] + [-16.0] * 16
    cases.append(("Q5_0", raw, want))

    # Q5_1: d = 2.0, m = 0.5; qh = 0xFFFF0000 (fifth bit for the high halves only)
    # qs[j] = (1 << 4) | 0 : y[j] = 0*2 + 0.5 = 0.5 ; y[j+16] = (1 | 16)*2 + 0.5 = 34.5
    raw = _h(2.0) + _h(0.5) + struct.pack("<I", 0xFFFF0000) + bytes([0x10] * 16)
    want = [0.5] * 16 + [34.5] * 16
    cases.append(("Q5_1", raw, want))

    # Q2_K: scales[is] = (min_q << 4) | sc_q with sc_q = is % 16 ... use sc = 0x21 for all:
    #   sc&0xF = 1, sc>>4 = 2 ; d = 0.5, dmin = 0.25 -> dl = 0.5, ml = 0.5
    # qs[k] = 0b11100100 = 0xE4: (q >> 0)&3 = 0, >>2 -> 1, >>4 -> 2, >>6 -> 3
    # y for shift-group j (j = 0..3) is dl*j - ml = 0.5*j - 0.5 -> -0.5, 0.0, 0.5, 1.0
    # order: for each 128-half, j = 0..3, each j gives 32 values (16 from q[l], 16 from q[l+16])
    raw = bytes([0x21] * 16) + bytes([0xE4] * 64) + _h(0.5) + _h(0.25)
    want = []
    for h in range(2):
        for j in range(4):
            want += [0.5 * j - 0.5] * 32
    cases.append(("Q2_K", raw, want))

    # Q3_K: scales bytes: first 8 bytes 0x00, bytes 8..11 = 0xAA (=0b10101010)
    #   scale j (0..3):   (b[j]&0xF)   | ((b[8+j]>>0)&3)<<4 = 0 | 2<<4 = 32 -> 32-32 = 0
    #   scale 4+j:        (b[4+j]&0xF) | ((b[8+j]>>2)&3)<<4 = 32 -> 0
    # so instead use b[8..11] = 0x55 (0b01010101): each 2-bit field = 1 -> 16 -> 16-32 = -16
    #   and b[0..7] = 0x21: low nibble 1, high nibble 2:
    #   scale j     = 1 | 16 = 17 -> -15 ;  scale 4+j  = 1 | 16 = 17 -> -15
    #   scale 8+j   = 2 | 16 = 18 -> -14 ;  scale 12+j = 18 -> -14
    # d = 0.5 -> dl = 0.5 * -15 = -7.5 (is 0..7), 0.5 * -14 = -7.0 (is 8..15)
    # qs = 0xE4 (as Q2_K: group j gives q = j), hmask = 0xFF (all high bits set -> subtract 0)
    # y = dl * j :  first half (is 0..7): j = 0..3 -> 0, -7.5, -15, -22.5
    #               second half (is 8..15): 0, -7, -14, -21
    # hmask: make bit for j == 3 of the second half clear: hm bit index h*4+j = 7 -> use 0x7F
    #   so second-half j = 3 values become dl * (3 - 4) = -7.0 * -1 = 7.0
    raw = bytes([0x7F] * 32) + bytes([0xE4] * 64) + bytes([0x21] * 8 + [0x55] * 4) + _h(0.5)
    want = []
    for j in range(4):
        want += [-7.5 * j] * 32          # is = 2j, 2j+1 -> scale -15
    for j in range(3):
        want += [-7.0 * j] * 32          # is = 8+2j.. -> scale -14
    want += [7.0] * 32
    cases.append(("Q3_K", raw, want))

    # Q4_K: d = 0.5, dmin = 0.125; scales 12 bytes:
    #   bytes 0..3 = 0x42 -> for j<4: sc = 0x42 & 63 = 2 ; bytes 4..7 = 0x03 -> m = 3
    #   bytes 8..11 = 0x51 -> for j>=4: sc = (0x51 & 0xF) | ((b[j-4]>>6)<<4) = 1 | (1<<4) = 17
    #                                   m  = (0x51 >> 4) | ((b[j]>>6)<<4)  = 5 | (0<<4) = 5
    #   (b[j-4] = 0x42 -> >>6 = 1 ; b[j] for j = 4..7 = 0x03 -> >>6 = 0)
    # sub-blocks 0..3: d1 = 0.5*2 = 1.0, m1 = 0.125*3 = 0.375
    # sub-blocks 4..7: d = 0.5*17 = 8.5, m = 0.125*5 = 0.625
    # qs = 0x71 : low nibble 1, high nibble 7
    # chunk c (0..3) -> sub-blocks 2c (low nibbles) and 2c+1 (high nibbles)
    #   sub 0: 1.0*1 - 0.375 = 0.625 ; sub 1: 1.0*7 - 0.375 = 6.625 ; sub 2, 3 same
    #   sub 4: 8.5*1 - 0.625 = 7.875 ; sub 5: 8.5*7 - 0.625 = 58.875 ; sub 6, 7 same
    raw = _h(0.5) + _h(0.125) + bytes([0x42] * 4 + [0x03] * 4 + [0x51] * 4) + bytes([0x71] * 128)
    want = ([0.625] * 32 + [6.625] * 32) * 2 + ([7.875] * 32 + [58.875] * 32) * 2
    cases.append(("Q4_K", raw, want))

    # Q5_K: same d, dmin, scales and ql as Q4_K; qh[l] = 0b00000110 = 0x06:
    #   chunk 0: u1 = 1 (bit clear -> +0), u2 = 2 (set -> +16)
    #   chunk 1: u1 = 4 (set -> +16), u2 = 8 (clear)
    #   chunks 2, 3: u1 = 16/64, u2 = 32/128 -> clear
    # sub 0: 1*1 - 0.375 = 0.625 ; sub 1: 1*(7+16) - 0.375 = 22.625
    # sub 2: 1*(1+16) - 0.375 = 16.625 ; sub 3: 1*7 - 0.375 = 6.625
    # sub 4: 8.5*1 - 0.625 = 7.875 ; sub 5: 8.5*7 - 0.625 = 58.875 ; sub 6, 7 same
    raw = _h(0.5) + _h(0.125) + bytes([0x42] * 4 + [0x03] * 4 + [0x51] * 4) + bytes([0x06] * 32) + bytes([0x71] * 128)
    want = [0.625] * 32 + [22.625] * 32 + [16.625] * 32 + [6.625] * 32 + ([7.875] * 32 + [58.875] * 32) * 2
    cases.append(("Q5_K", raw, want))

    # Q6_K: d = 0.25 ; scales[k] = k - 8 (int8: -8 .. 7)
    # ql = 0x21 (low nibble 1, high nibble 2) ; qh = 0b11100100 = 0xE4 -> fields 0,1,2,3
    #   q1 = (1 | 0<<4) - 32 = -31 ; q2 = (1 | 1<<4) - 32 = -15
    #   q3 = (2 | 2<<4) - 32 = 2   ; q4 = (2 | 3<<4) - 32 = 18
    # y[h*128 + l + 32*k] = (d * sc[8h + l//16 + 2k]) * q_k
    sc = list(range(-8, 8))
    raw = bytes([0x21] * 128) + bytes([0xE4] * 64) + bytes(np.array(sc, np.int8).view(np.uint8)) + _h(0.25)
    want = []
    qk = [-31, -15, 2, 18]
    for h in range(2):
        for k in range(4):
            for l in range(32):
                want.append(0.25 * sc[8 * h + l // 16 + 2 * k] * qk[k])
    # e.g. h=0,k=0,l=0: 0.25 * -8 * -31 = 62.0 ; h=1,k=3,l=31: 0.25 * 7 * 18 = 31.5
    cases.append(("Q6_K", raw, want))

    # Q8_K: d = 0.5 (float32) ; qs[j] = j - 128 ; bsums = sums of 16 ; y = 0.5 * (j - 128)
    qs = np.arange(256) - 128
    raw = struct.pack("<f", 0.5) + bytes(qs.astype(np.int8).view(np.uint8)) + \
        bytes(qs.reshape(16, 16).sum(axis=1).astype("<i2").view(np.uint8))
    want = [0.5 * (j - 128) for j in range(256)]   # -64.0 ... 63.5
    cases.append(("Q8_K", raw, want))
    return cases


def self_test(verbose=True):
    n_ok = 0
    hb = hand_blocks()
    assert sorted({c[0] for c in hb}) == sorted(DEQUANT_TYPES), "a type lacks a hand-built block"
    for name, raw, want in hb:
        _, bs, sz = TYPES[name]
        n = len(want)
        assert len(raw) == nbytes(name, n), (name, len(raw), nbytes(name, n))
        _eq("hand " + name, dequantize(name, raw, n), want)
        _eq("hand-scalar " + name, _scalar_reference(name, raw, n), want)
        n_ok += 1
    rng = np.random.default_rng(1234)
    for name in DEQUANT_TYPES:
        _, bs, sz = TYPES[name]
        nblk = 8 if bs > 1 else 300
        raw = random_blocks(name, nblk, rng)
        assert len(raw) == nblk * sz
        n = nblk * bs
        v = dequantize(name, raw, n)
        assert v.dtype == F32 and v.shape == (n,)
        assert np.all(np.isfinite(v)), name
        _eq("random " + name, v, _scalar_reference(name, raw, n))
        n_ok += 1
    # quantizers round trip
    x = (np.random.default_rng(7).standard_normal(512) * 0.3).astype(F32)
    for name, tol in (("Q8_0", 0.01), ("Q5_0", 0.04), ("Q4_K", 0.1)):
        y = dequantize(name, quantize(name, x), x.size)
        err = np.abs(y - x).max()
        assert err < tol, (name, err)
        n_ok += 1
    # Q8_0 quantizer: a hand case. x = [0, 1, -2, ..., 127 * k] scaled so amax = 127 -> d = 1
    x = np.zeros(32, F32); x[0] = 127.0; x[1] = -63.5; x[2] = 0.5; x[3] = -0.5; x[4] = 2.4999
    q = np.frombuffer(quantize_q8_0(x), np.uint8)
    assert q[0:2].tobytes() == _h(1.0)
    qs = q[2:].view(np.int8)
    # roundf: -63.5 -> -64, 0.5 -> 1, -0.5 -> -1 (half away from zero), 2.4999 -> 2
    assert list(qs[:5]) == [127, -64, 1, -1, 2], list(qs[:5])
    n_ok += 1
    if verbose:
        print(f"ggml_dequant self-test: {n_ok} checks passed "
              f"({len(hb)} hand-built blocks, {len(DEQUANT_TYPES)} random-block types, 4 quantizer checks)")
    return n_ok


if __name__ == "__main__":
    self_test()
    sys.exit(0)
