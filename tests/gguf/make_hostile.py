#!/usr/bin/python3
"""make_hostile.py OUTDIR -- write deliberately broken (and a few valid edge-case) GGUF
files, one per case, plus OUTDIR/README.txt (one line per file: what is wrong) and
OUTDIR/hostile.json (machine-readable: file -> {"valid": bool, "why": str}).

A reader must reject every file marked INVALID (valid=false) without crashing, hanging,
reading out of bounds or allocating absurd amounts of memory; files marked VALID
(valid=true) must load; "either" files may be accepted or rejected but must not crash.
Deterministic (fixed seed)."""
import json
import os
import struct
import sys

import numpy as np

from gguf_writer import (GGUFWriter, U8, U32, I32, F32, BOOL, STR, ARR, U64, align, all_types_sample)
from ggml_dequant import random_blocks


def base(version=3, **kw):
    w = GGUFWriter(version=version, **kw)
    w.add_arch("llama")
    w.add("general.name", STR, "hostile")
    w.add("llama.block_count", U32, 1)
    return w


def two_tensors(w, rng):
    w.add_tensor("t0", (32, 2), "F32", rng.standard_normal(64).astype("<f4").tobytes())
    w.add_tensor("t1", (64,), "Q8_0", random_blocks("Q8_0", 2, rng))
    return w


def cases(rng):
    out = []  # (filename, valid, why, bytes)

    def add(fn, valid, why, data):
        out.append((fn, valid, why, data))

    # ---- valid references
    add("valid_v3.gguf", True, "VALID: v3 file, every metadata value type, nested arrays, 3 tensors", all_types_sample(3).to_bytes())
    add("valid_v2.gguf", True, "VALID: same content as valid_v3 but version 2 (same layout, 64-bit counts)", all_types_sample(2).to_bytes())
    add("valid_align64.gguf", True, "VALID: general.alignment = 64, tensor offsets multiples of 64", all_types_sample(3, alignment=64).to_bytes())
    w = base(); add("valid_no_tensors.gguf", True, "VALID: metadata only, tensor_count 0", w.to_bytes())

    # ---- byte order / version
    w = two_tensors(base(endian=">"), rng)
    add("big_endian.gguf", False, "INVALID for a little-endian reader: everything after the magic is big-endian (version reads as 0x03000000)", w.to_bytes())
    w = two_tensors(base(version=1), rng)
    add("version1.gguf", False, "INVALID: version field 1 (GGUF v1 is unsupported; the rest is v3 layout)", w.to_bytes())
    w = two_tensors(base(version=4), rng)
    add("version4.gguf", False, "INVALID: version field 4 (unknown future version)", w.to_bytes())
    b = bytearray(two_tensors(base(), rng).to_bytes()); b[0:4] = b"GGUG"
    add("bad_magic.gguf", False, "INVALID: magic is 'GGUG'", bytes(b))

    # ---- strings
    w = base()
    w.add("general.description", STR, "short")
    data = w.to_bytes()
    # patch the length of the last string value to be far past the end of the file
    key = b"general.description"
    pos = data.index(key) + len(key) + 4      # after key bytes and the uint32 value type
    b = bytearray(data); b[pos:pos + 8] = struct.pack("<Q", 1 << 40)
    add("string_len_past_end.gguf", False, "INVALID: a string value's length is 2^40, far past the end of the file", bytes(b))
    b = bytearray(data); b[pos:pos + 8] = struct.pack("<Q", len(data) - pos - 8 + 1)
    add("string_len_past_end_by_one.gguf", False, "INVALID: a string value's length runs exactly 1 byte past the end of the file", bytes(b))
    w = base(); w.add("general.bad_utf8", STR, b"\xff\xfe\x80abc")
    add("string_bad_utf8.gguf", "either", "EITHER: reject, or load and show escaped: string value bytes ff fe 80 are not UTF-8", w.to_bytes())
    w = base(); w.add("", STR, "empty key")
    add("empty_key.gguf", False, "INVALID: a metadata key of length 0", w.to_bytes())
    w = base(); w.add("general.name", STR, "duplicate")
    add("duplicate_key.gguf", False, "INVALID: key general.name appears twice", w.to_bytes())

    # ---- bool
    w = base(); w.add("test.flag", BOOL, 2)
    add("bool_byte_2.gguf", False, "INVALID: a bool value stored as byte 0x02 (only 0 and 1 are valid)", w.to_bytes())
    w = base(); w.add("test.flags", ARR, [1, 2, 0], elem=BOOL)
    add("bool_array_byte_2.gguf", False, "INVALID: a bool array element stored as byte 0x02", w.to_bytes())

    # ---- arrays
    w = base(); w.add("test.deep", ARR, [[[[1, 2]]]], elem=(ARR, (ARR, (ARR, U8))))
    add("nested_depth4.gguf", False, "INVALID for readers capping nesting at 3: array of array of array of array of uint8 (depth 4)", w.to_bytes())
    w = base(); w.add("test.deep3", ARR, [[[1, 2]]], elem=(ARR, (ARR, U8)))
    add("nested_depth3.gguf", True, "VALID: nested arrays of depth 3 (array of array of array of uint8)", w.to_bytes())
    d = [1]
    for _ in range(200):
        d = [d]
    elem = U8
    for _ in range(200):
        elem = (ARR, elem)
    w = base(); w.add("test.very_deep", ARR, d, elem=elem)
    add("nested_depth201.gguf", False, "INVALID: arrays nested 201 deep (stack exhaustion bait)", w.to_bytes())
    w = base(); data = w.to_bytes()
    w2 = base(); w2.kv_count_override = len(w2.kv) + 1
    w2.raw_kv_tail = struct.pack("<Q", 9) + b"test.huge" + struct.pack("<I", ARR) + struct.pack("<I", U64) + struct.pack("<Q", 1 << 61)
    add("array_len_huge.gguf", False, "INVALID: array of uint64 claims 2^61 elements (allocation bomb; file has none)", w2.to_bytes())
    w2 = base(); w2.kv_count_override = len(w2.kv) + 1
    w2.raw_kv_tail = struct.pack("<Q", 9) + b"test.bad_" + struct.pack("<I", ARR) + struct.pack("<I", 13) + struct.pack("<Q", 1) + b"\x00" * 8
    add("array_elem_type_13.gguf", False, "INVALID: array element type 13 (no such gguf value type)", w2.to_bytes())
    w2 = base(); w2.kv_count_override = len(w2.kv) + 1
    w2.raw_kv_tail = struct.pack("<Q", 9) + b"test.bad_" + struct.pack("<I", 77) + b"\x00" * 8
    add("value_type_77.gguf", False, "INVALID: metadata value type 77", w2.to_bytes())

    # ---- counts
    w = two_tensors(base(), rng); w.kv_count_override = 1 << 60
    add("kv_count_huge.gguf", False, "INVALID: metadata_kv_count = 2^60 (far more than the file holds)", w.to_bytes())
    w = two_tensors(base(), rng); w.tensor_count_override = 1 << 60
    add("tensor_count_huge.gguf", False, "INVALID: tensor_count = 2^60", w.to_bytes())

    # ---- alignment
    w = two_tensors(base(alignment=0), rng) if False else None
    w = base(write_alignment_key=False); w.add("general.alignment", U32, 0); two_tensors(w, rng)
    add("alignment_0.gguf", False, "INVALID: general.alignment = 0 (the data was laid out with 32)", w.to_bytes())
    w = base(write_alignment_key=False); w.add("general.alignment", U32, 48); two_tensors(w, rng)
    add("alignment_48.gguf", False, "INVALID: general.alignment = 48, not a power of two (data laid out with 32)", w.to_bytes())
    w = base(write_alignment_key=False); w.add("general.alignment", I32, 32); two_tensors(w, rng)
    add("alignment_wrong_type.gguf", False, "INVALID: general.alignment stored as INT32 instead of UINT32", w.to_bytes())

    # ---- tensors
    w = base()
    w.add_tensor("t0", (32, 2), "F32", rng.standard_normal(64).astype("<f4").tobytes())
    w.add_tensor("t1", (32, 2), "F32", rng.standard_normal(64).astype("<f4").tobytes(), offset=128)  # t0 spans 0..256
    add("tensor_overlap.gguf", False, "INVALID: tensor t1 at offset 128 overlaps t0 (bytes 0..255)", w.to_bytes())
    w = base()
    w.add_tensor("t0", (32, 2), "F32", rng.standard_normal(64).astype("<f4").tobytes())
    w.add_tensor("t1", (32, 2), "F32", rng.standard_normal(64).astype("<f4").tobytes())
    w.data_section_size_override = 256 + 128
    add("tensor_past_end.gguf", False, "INVALID: tensor t1 (offset 256, 256 bytes) runs 128 bytes past the end of the file", w.to_bytes())
    w = base()
    w.add_tensor("t0", (32,), "F32", rng.standard_normal(32).astype("<f4").tobytes())
    w.add_tensor("far", (32,), "F32", b"", offset=1 << 50)
    add("tensor_offset_huge.gguf", False, "INVALID: tensor offset 2^50 (past the end of the file)", w.to_bytes())
    w = base()
    w.add_tensor("t0", (32,), "F32", rng.standard_normal(32).astype("<f4").tobytes())
    w.add_tensor("t1", (8,), "F32", rng.standard_normal(8).astype("<f4").tobytes(), offset=136)
    add("tensor_offset_misaligned.gguf", False, "INVALID: tensor t1 offset 136 is not a multiple of the alignment 32", w.to_bytes())
    w = base()
    w.add_tensor("bad", (100, 2), "Q4_0", b"\x00" * (4 * 18 * 2))
    add("tensor_ne0_not_block_multiple.gguf", False, "INVALID: Q4_0 tensor with ne0 = 100, not a multiple of the block size 32", w.to_bytes())
    w = base()
    w.add_tensor("t0", (64,), "F32", rng.standard_normal(64).astype("<f4").tobytes())
    w.add_tensor("unknown", (64,), 200, rng.integers(0, 256, 64).astype(np.uint8).tobytes())
    w.add_tensor("t2", (64,), "F32", rng.standard_normal(64).astype("<f4").tobytes())
    add("tensor_unknown_type_200.gguf", False, "INVALID (or listed with type unknown, unreadable): middle tensor has ggml type id 200, between two F32 tensors", w.to_bytes())
    w = base()
    w.add_tensor("removed", (64,), 4, b"\x00" * 40)
    add("tensor_removed_type_4.gguf", False, "INVALID: tensor type id 4 (Q4_2, support removed)", w.to_bytes())
    w = base()
    w.add_tensor("five_d", (2, 2, 2, 2, 2), "F32", np.arange(32, dtype="<f4").tobytes())
    add("tensor_5_dims.gguf", False, "INVALID: tensor with n_dims = 5 (GGML_MAX_DIMS is 4)", w.to_bytes())
    w = base()
    w.add_tensor("zero", (0, 4), "F32", b"")
    add("tensor_zero_dim.gguf", "either", "EITHER: tensor with a 0 dimension (empty); reject or list as empty, never divide by zero", w.to_bytes())
    w = base()
    w.add_tensor("overflow", (1 << 32, 1 << 32, 1 << 2), "F32", b"")
    add("tensor_ne_overflow.gguf", False, "INVALID: ne = (2^32, 2^32, 4): element count overflows int64 byte size", w.to_bytes())
    w = base()
    w.add_tensor("same", (8,), "F32", np.zeros(8, "<f4").tobytes())
    w.add_tensor("same", (8,), "F32", np.ones(8, "<f4").tobytes())
    add("tensor_duplicate_name.gguf", False, "INVALID: two tensors named 'same'", w.to_bytes())
    w = base()
    w.add_tensor("x" * 65, (8,), "F32", np.zeros(8, "<f4").tobytes())
    add("tensor_name_65.gguf", False, "INVALID per spec: tensor name 65 bytes long (max 64; llama.cpp's GGML_MAX_NAME is 64 incl. NUL)", w.to_bytes())

    # ---- truncation
    full = two_tensors(base(), rng).to_bytes()
    add("truncated_in_data.gguf", False, "INVALID: file cut 40 bytes before the end of the tensor data", full[:-40 - 32] if len(full) > 80 else full[:-1])
    add("truncated_in_header.gguf", False, "INVALID: file cut in the middle of the metadata (after 30 bytes)", full[:30])
    add("truncated_4_bytes.gguf", False, "INVALID: only the 4-byte magic", full[:4])
    add("empty.gguf", False, "INVALID: empty file", b"")
    return out


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    rng = np.random.default_rng(20240607)
    lines, meta = [], {}
    for fn, valid, why, data in cases(rng):
        with open(os.path.join(outdir, fn), "wb") as f:
            f.write(data)
        lines.append(f"{fn}: {why}")
        meta[fn] = {"valid": valid, "why": why, "size": len(data)}
    with open(os.path.join(outdir, "README.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(outdir, "hostile.json"), "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
    print(f"wrote {len(lines)} files to {outdir}")


if __name__ == "__main__":
    main()
