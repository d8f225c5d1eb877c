#!/usr/bin/python3
"""Independent GGUF writer for tests, written from the GGUF specification
(docs/gguf.md of ggml-org/ggml; commit in README.md).

File layout (spec "File Structure"):
  header      : magic "GGUF" (bytes 47 47 55 46), uint32 version, uint64 tensor_count,
                uint64 metadata_kv_count, then the key/value pairs
  kv          : gguf_string key, uint32 value_type, value
  string      : uint64 length + UTF-8 bytes (no NUL)
  array       : uint32 element type, uint64 count, elements (arrays may nest)
  tensor info : gguf_string name, uint32 n_dims, uint64 ne[n_dims] (innermost first),
                uint32 ggml_type, uint64 offset (relative to the tensor data start,
                a multiple of ALIGNMENT)
  padding     : 0x00 up to a multiple of ALIGNMENT (general.alignment, default 32)
  tensor data : each tensor at its offset, padded with 0x00 to ALIGNMENT

Values are little-endian unless endian=">" is asked for (then everything after the
magic is big-endian; the magic stays the 4 bytes "GGUF").

Typed values: use the helpers below, e.g. w.add("a.b", U32, 5), w.add("s", STR, "x"),
w.add("arr", ARR, [1, 2, 3], elem=I32), nested: w.add("n", ARR, [[1, 2], [3]], elem=(ARR, U8)).
"""
import json
import struct

import numpy as np

from ggml_dequant import TYPES, TYPE_BY_ID

# gguf_metadata_value_type
U8, I8, U16, I16, U32, I32, F32, BOOL, STR, ARR, U64, I64, F64 = range(13)
VT_NAMES = {U8: "UINT8", I8: "INT8", U16: "UINT16", I16: "INT16", U32: "UINT32", I32: "INT32",
            F32: "FLOAT32", BOOL: "BOOL", STR: "STRING", ARR: "ARRAY", U64: "UINT64",
            I64: "INT64", F64: "FLOAT64"}
_FMT = {U8: "B", I8: "b", U16: "H", I16: "h", U32: "I", I32: "i", F32: "f", U64: "Q", I64: "q", F64: "d"}

GGUF_MAGIC = b"GGUF"
DEFAULT_ALIGNMENT = 32


def align(x, a):
    return x + (a - (x % a)) % a


class Tensor:
    def __init__(self, name, ne, ggml_type, data, offset=None, n_dims=None):
        self.name = name
        self.ne = tuple(int(v) for v in ne)
        self.type_id = TYPES[ggml_type][0] if isinstance(ggml_type, str) else int(ggml_type)
        self.type_name = TYPE_BY_ID.get(self.type_id, f"UNKNOWN_{self.type_id}")
        self.data = bytes(data)
        self.offset = offset          # None: computed
        self.n_dims = len(self.ne) if n_dims is None else n_dims


def tensor_nbytes(type_name, ne):
    _, bs, sz = TYPES[type_name]
    n0 = ne[0]
    rest = 1
    for v in ne[1:]:
        rest *= v
    return (n0 // bs) * sz * rest


class GGUFWriter:
    def __init__(self, version=3, alignment=None, endian="<", write_alignment_key=None):
        self.version = version
        self.endian = endian
        self.alignment = DEFAULT_ALIGNMENT if alignment is None else alignment
        self.kv = []           # (key, vtype, value, elem)
        self.tensors = []
        if write_alignment_key or (write_alignment_key is None and alignment is not None):
            self.add("general.alignment", U32, self.alignment)
        # hostile knobs
        self.kv_count_override = None
        self.tensor_count_override = None
        self.truncate_at = None          # int: cut the file to this many bytes
        self.raw_kv_tail = b""           # bytes appended right after the last kv (counted by kv_count_override)
        self.data_section_size_override = None

    # ---------------------------------------------------------------- metadata
    def add(self, key, vtype, value, elem=None):
        self.kv.append((key, vtype, value, elem))
        return self

    def add_arch(self, arch):
        return self.add("general.architecture", STR, arch)

    def add_tensor(self, name, ne, ggml_type, data, offset=None, n_dims=None):
        t = Tensor(name, ne, ggml_type, data, offset, n_dims)
        self.tensors.append(t)
        return t

    # ---------------------------------------------------------------- encoding
    def _p(self, fmt, *v):
        return struct.pack(self.endian + fmt, *v)

    def _str(self, s, length=None):
        b = s.encode("utf-8") if isinstance(s, str) else bytes(s)
        return self._p("Q", len(b) if length is None else length) + b

    def _scalar(self, vtype, v):
        if vtype == BOOL:
            return bytes([v if isinstance(v, int) and not isinstance(v, bool) else (1 if v else 0)])
        if vtype == STR:
            return self._str(v)
        return self._p(_FMT[vtype], v)

    def _value(self, vtype, v, elem=None):
        if vtype != ARR:
            return self._scalar(vtype, v)
        etype, esub = (elem if isinstance(elem, tuple) else (elem, None))
        out = self._p("I", etype) + self._p("Q", len(v))
        if etype == ARR:
            for item in v:
                # nested: item is a list whose element type is esub (int or tuple)
                out += self._value(ARR, item, esub)
        elif etype in _FMT and etype not in (BOOL, STR):
            out += np.asarray(v, dtype=np.dtype(self.endian + _FMT[etype])).tobytes() if len(v) else b""
        else:
            out += b"".join(self._scalar(etype, item) for item in v)
        return out

    def header_and_infos(self):
        offsets = self.compute_offsets()
        out = GGUF_MAGIC + self._p("I", self.version)
        out += self._p("Q", len(self.tensors) if self.tensor_count_override is None else self.tensor_count_override)
        out += self._p("Q", len(self.kv) if self.kv_count_override is None else self.kv_count_override)
        for key, vtype, value, elem in self.kv:
            out += self._str(key) + self._p("I", vtype) + self._value(vtype, value, elem)
        out += self.raw_kv_tail
        for t, off in zip(self.tensors, offsets):
            out += self._str(t.name) + self._p("I", t.n_dims)
            out += b"".join(self._p("Q", v) for v in t.ne)
            out += self._p("I", t.type_id) + self._p("Q", off)
        return out, offsets

    def compute_offsets(self):
        offs = []
        cur = 0
        for t in self.tensors:
            off = cur if t.offset is None else t.offset
            offs.append(off)
            if t.data:
                cur = max(cur, align(off + len(t.data), self.alignment))
        return offs

    def to_bytes(self):
        head, offsets = self.header_and_infos()
        data_start = align(len(head), self.alignment)
        out = bytearray(head + b"\x00" * (data_start - len(head)))
        end = 0
        for t, off in zip(self.tensors, offsets):
            if t.data:          # a tensor given no data (hostile cases) occupies nothing
                end = max(end, off + len(t.data))
        data = bytearray(align(end, self.alignment))
        for t, off in zip(self.tensors, offsets):
            if t.data:
                data[off:off + len(t.data)] = t.data
        if self.data_section_size_override is not None:
            data = data[: self.data_section_size_override]
        out += data
        self._data_start = data_start
        self._offsets = offsets
        if self.truncate_at is not None:
            out = out[: self.truncate_at]
        return bytes(out)

    def write(self, path):
        b = self.to_bytes()
        with open(path, "wb") as f:
            f.write(b)
        self._size = len(b)
        return b

    # ---------------------------------------------------------------- description
    def describe(self):
        """What this writer meant to write (for comparison with other readers)."""
        if not hasattr(self, "_offsets"):
            self.to_bytes()

        def jv(vtype, v, elem):
            if vtype == ARR:
                etype, esub = (elem if isinstance(elem, tuple) else (elem, None))
                return {"type": "ARRAY", "elem": VT_NAMES[etype], "len": len(v),
                        "value": [jv(etype, x, esub)["value"] for x in v]}
            if vtype == BOOL:
                return {"type": "BOOL", "value": v if isinstance(v, bool) else int(v)}
            if vtype in (F32,):
                return {"type": "FLOAT32", "value": float(np.float32(v))}
            if vtype == STR:
                return {"type": "STRING", "value": v if isinstance(v, str) else bytes(v).decode("utf-8", "replace")}
            return {"type": VT_NAMES[vtype], "value": v}

        return {
            "version": self.version,
            "alignment": self.alignment,
            "data_offset": self._data_start,
            "kv": {k: jv(t, v, e) for k, t, v, e in self.kv},
            "tensors": [{"name": t.name, "ne": list(t.ne), "type": t.type_name, "type_id": t.type_id,
                         "offset": off, "nbytes": len(t.data)}
                        for t, off in zip(self.tensors, self._offsets)],
        }


def write_manifest(path, entries):
    with open(path, "w") as f:
        json.dump(entries, f, indent=1, sort_keys=True)


def all_types_sample(version=3, alignment=None):
    """A valid file using every metadata value type, arrays of every kind, nested arrays
    and a few tensors."""
    w = GGUFWriter(version=version, alignment=alignment)
    w.add_arch("llama")
    w.add("test.u8", U8, 250).add("test.i8", I8, -100).add("test.u16", U16, 65000)
    w.add("test.i16", I16, -32000).add("test.u32", U32, 4000000000).add("test.i32", I32, -2000000000)
    w.add("test.f32", F32, 1.5).add("test.bool_true", BOOL, True).add("test.bool_false", BOOL, False)
    w.add("test.string", STR, "héllo wörld ✓").add("test.empty_string", STR, "")
    w.add("test.u64", U64, 2 ** 63 + 5).add("test.i64", I64, -(2 ** 62)).add("test.f64", F64, 2.718281828459045)
    w.add("test.arr_u8", ARR, [1, 2, 255], elem=U8)
    w.add("test.arr_i32", ARR, [-1, 0, 7, 2 ** 31 - 1], elem=I32)
    w.add("test.arr_f32", ARR, [0.5, -1.25, 3.0], elem=F32)
    w.add("test.arr_bool", ARR, [True, False, True], elem=BOOL)
    w.add("test.arr_str", ARR, ["a", "", "gguf ✓", "tokens"], elem=STR)
    w.add("test.arr_u64", ARR, [2 ** 40, 3], elem=U64)
    w.add("test.arr_f64", ARR, [1e300, -0.0], elem=F64)
    w.add("test.arr_empty", ARR, [], elem=I32)
    w.add("test.arr_nested", ARR, [[1, 2], [3], []], elem=(ARR, I16))
    w.add("test.arr_nested3", ARR, [[[1], [2, 3]], [[4]]], elem=(ARR, (ARR, U8)))
    rng = np.random.default_rng(5)
    a = rng.standard_normal(8 * 3).astype("<f4")
    w.add_tensor("a", (8, 3), "F32", a.tobytes())
    b = rng.standard_normal(5).astype("<f2")
    w.add_tensor("b.odd_size", (5,), "F16", b.tobytes())           # 10 bytes -> padding follows
    w.add_tensor("c.4d", (2, 2, 2, 2), "F32", np.arange(16, dtype="<f4").tobytes())
    return w


if __name__ == "__main__":
    import sys
    out = sys.argv[1] if len(sys.argv) > 1 else "sample.gguf"
    all_types_sample().write(out)
    print("wrote", out)
