#!/usr/bin/python3
"""The training lab's tiny transformer rebuilt in PyTorch from the weights PE Lab wrote, to
check PE Lab's forward and backward passes against autograd: in float64 (PE Lab's double model)
and, for cases marked "dtype": "float32", in float32 throughout (PE Lab's float model).

Input: a JSON file (written by tests/core/training/train_test.cpp) with a list of cases; each case holds
the model's settings, every parameter tensor by name (PE Lab's layout: a Linear's weight is
out x in, as torch.nn.Linear's), a batch (tokens, targets, -1 = not scored) and PE Lab's loss
and gradient by tensor. For each case this prints one line:
  <name> <loss relative error> <largest norm-wise relative error of a gradient tensor> <tensor>
The model is written here from the definitions (pre-LN blocks, exact GELU, LayerNorm eps 1e-5;
RoPE turns pairs (2i, 2i+1) by pos * base^(-2i/d_head); ALiBi adds -m_h |i - j| with the
paper's slopes; T5 adds a learned bias per head and bucket of j - i, shared by the layers).
Usage: torch_transformer.py CASES.json
"""
import json
import math
import sys

import torch
import torch.nn.functional as F


def alibi_slopes(heads):
    # The ALiBi paper: for a power of two n, 2^(-8/n), its square, ...; otherwise the slopes of
    # the nearest lower power of two, then every other slope of the next one.
    def power_of_two(n):
        start = 2.0 ** (-8.0 / n)
        return [start ** (i + 1) for i in range(n)]
    if heads & (heads - 1) == 0:
        return power_of_two(heads)
    lower = 2 ** int(math.floor(math.log2(heads)))
    return power_of_two(lower) + power_of_two(2 * lower)[0::2][: heads - lower]


def t5_bucket(relative, buckets, max_distance, bidirectional):
    # T5's relative_position_bucket, for one relative position (key - query).
    result = 0
    n = -relative
    if bidirectional:
        buckets //= 2
        if n < 0:
            result += buckets
        n = abs(n)
    else:
        n = max(n, 0)
    exact = buckets // 2
    if n < exact:
        return result + n
    large = exact + int(math.log(n / exact) / math.log(max_distance / exact) * (buckets - exact))
    return result + min(large, buckets - 1)


# The positional methods, each from its paper's definition, written independently of PE Lab's
# code: what it adds to the input (n × d), how it turns a head's queries and keys
# (b × heads × n × d_h, pairs (2i, 2i + 1)), what it adds to the scores (heads × n × n).
def sinusoidal_input(c, p, positions):
    d = c["d_model"]
    pairs = torch.arange(d, dtype=torch.get_default_dtype()).div(2, rounding_mode="floor")
    angle = positions[:, None] * c["base"] ** (-2.0 * pairs / d)[None, :]
    even = (torch.arange(d) % 2 == 0)[None, :]
    return torch.where(even, torch.sin(angle), torch.cos(angle))


def learned_input(c, p, positions):
    return p["learned.table"][:len(positions)]


def rope_turn(c, positions, t):
    dh = c["d_model"] // c["heads"]
    theta = c["base"] ** (-2.0 * torch.arange(dh // 2, dtype=torch.get_default_dtype()) / dh)
    cos = torch.cos(positions[:, None] * theta[None, :])
    sin = torch.sin(positions[:, None] * theta[None, :])
    a, z = t[..., 0::2], t[..., 1::2]
    out = torch.empty_like(t)
    out[..., 0::2] = a * cos - z * sin
    out[..., 1::2] = a * sin + z * cos
    return out


def rope_half_turn(c, positions, t):
    # GPT-NeoX's rotate_half: the first half of a head's dimensions pairs with the second.
    dh = c["d_model"] // c["heads"]
    theta = c["base"] ** (-2.0 * torch.arange(dh // 2, dtype=torch.get_default_dtype()) / dh)
    cos = torch.cos(positions[:, None] * theta[None, :]).repeat(1, 2)
    sin = torch.sin(positions[:, None] * theta[None, :]).repeat(1, 2)
    rotated_half = torch.cat((-t[..., dh // 2:], t[..., :dh // 2]), dim=-1)
    return t * cos + rotated_half * sin


def rope_partial_turn(c, positions, t):
    # GPT-NeoX's partial rotary (rotary_pct 0.25): rotate_half on the first rotary_ndims
    # dimensions, with frequencies over those dimensions; the rest pass through.
    dh = c["d_model"] // c["heads"]
    r = int(dh * 0.25) // 2 * 2
    if r == 0:
        return t
    inv_freq = 1.0 / c["base"] ** (torch.arange(0, r, 2, dtype=torch.get_default_dtype()) / r)
    cos = torch.cos(positions[:, None] * inv_freq[None, :]).repeat(1, 2)
    sin = torch.sin(positions[:, None] * inv_freq[None, :]).repeat(1, 2)
    rot, passed = t[..., :r], t[..., r:]
    rotated_half = torch.cat((-rot[..., r // 2:], rot[..., :r // 2]), dim=-1)
    return torch.cat((rot * cos + rotated_half * sin, passed), dim=-1)


def p_rope_turn(c, positions, t):
    # p-RoPE (Barbero et al. 2024), p = 0.75: the interleaved RoPE with the slowest quarter of
    # the frequencies set to zero.
    dh = c["d_model"] // c["heads"]
    theta = c["base"] ** (-2.0 * torch.arange(dh // 2, dtype=torch.get_default_dtype()) / dh)
    theta[int(0.75 * (dh // 2)):] = 0
    angle = positions[:, None] * theta[None, :]
    cos, sin = torch.cos(angle), torch.sin(angle)
    a, z = t[..., 0::2], t[..., 1::2]
    out = torch.empty_like(t)
    out[..., 0::2] = a * cos - z * sin
    out[..., 1::2] = a * sin + z * cos
    return out


def xpos_turn_qk(c, positions, q, k):
    # xPos (Sun et al. 2022): zeta_i = (2i/d + gamma)/(1 + gamma), gamma 0.4, scale base 512;
    # q at m times zeta^(m/B), k at n times zeta^(-n/B), each pair then turned as RoPE's.
    dh = c["d_model"] // c["heads"]
    i = torch.arange(dh // 2, dtype=torch.get_default_dtype())
    zeta = (2 * i / dh + 0.4) / 1.4
    power = positions[:, None] / 512.0
    up = (zeta[None, :] ** power).repeat_interleave(2, dim=-1)
    down = (zeta[None, :] ** -power).repeat_interleave(2, dim=-1)
    return rope_turn(c, positions, q * up), rope_turn(c, positions, k * down)


def cope_content(c, p, q, scores):
    # CoPE (Golovneva et al. 2024), as the paper's code: gates sigmoid(scores) (masked keys 0),
    # positions their sums from each key to the query, the table's logits q . e[pos]
    # interpolated between floor and ceil. scores: b x heads x n x n, masked with -inf.
    gates = torch.sigmoid(scores)
    pos = gates.flip(-1).cumsum(dim=-1).flip(-1)
    pos = pos.clamp(max=c["max_len"])
    pos_ceil = pos.ceil().long()
    pos_floor = pos.floor().long()
    logits_int = q @ p["cope.table"].T  # b x heads x n x (max_len + 1)
    logits_ceil = logits_int.gather(-1, pos_ceil)
    logits_floor = logits_int.gather(-1, pos_floor)
    w = pos - pos_floor
    return logits_ceil * w + logits_floor * (1 - w)


def kerple_bias(c, p, positions):
    # KERPLE's logarithmic bias (Chi et al. 2022): -r1 log(1 + r2 |i - j|), r = softplus(raw).
    r = F.softplus(p["kerple.r"])  # heads x 2
    distance = (positions[:, None] - positions[None, :]).abs()
    return -r[:, 0, None, None] * torch.log1p(r[:, 1, None, None] * distance)


def fire_bias(c, p, positions):
    # FIRE (Li et al. 2023): f(log(1 + c (i - j)) / log(1 + c max(L, i))), f an MLP with one
    # hidden ReLU layer, c and L softplus of free parameters. Keys after the query are masked.
    cc = F.softplus(p["fire.c"]).reshape(())
    threshold = F.softplus(p["fire.threshold"]).reshape(())
    i, j = positions[:, None], positions[None, :]
    u = torch.log1p(cc * (i - j).clamp(min=0)) / torch.log1p(cc * torch.maximum(threshold, i))
    hidden = torch.relu(u[..., None] * p["fire.mlp1.weight"].reshape(-1)
                        + p["fire.mlp1.bias"].reshape(-1))
    out = hidden @ p["fire.mlp2.weight"].T
    return out.permute(2, 0, 1)


def alibi_bias(c, p, positions):
    distance = (positions[:, None] - positions[None, :]).abs()
    slopes = torch.tensor(alibi_slopes(c["heads"]), dtype=torch.get_default_dtype())
    return -slopes[:, None, None] * distance


def alibi_learned_bias(c, p, positions):
    # ALiBi with each head's slope learned: m_h softplus(w_h) / ln 2, w_h = 0 at the start.
    distance = (positions[:, None] - positions[None, :]).abs()
    slopes = torch.tensor(alibi_slopes(c["heads"]), dtype=torch.get_default_dtype())
    slopes = slopes * F.softplus(p["alibi_learned.slope"].reshape(-1)) / math.log(2.0)
    return -slopes[:, None, None] * distance


def t5_bias(c, p, positions):
    n = len(positions)
    index = torch.tensor([[t5_bucket(j - i, c["t5_buckets"], c["t5_max_distance"],
                                     not c["causal"]) for j in range(n)] for i in range(n)])
    return p["t5.bias"][index].permute(2, 0, 1)


METHODS = {
    "none": {},
    "sinusoidal": {"input": sinusoidal_input},
    "learned": {"input": learned_input},
    "rope": {"turn": rope_turn},
    "rope_half": {"turn": rope_half_turn},
    # Trained (the loss and gradient checked here) as rope; measured as rope_half, which the
    # C++ test Transformer.RopeCrossedTrainsAsRopeAndMeasuresAsRopeHalf holds it to.
    "rope_crossed": {"turn": rope_turn},
    "rope_partial": {"turn": rope_partial_turn},
    "p_rope": {"turn": p_rope_turn},
    "xpos": {"turn_qk": xpos_turn_qk},
    # iRoPE (Llama 4): RoPE, but layers nope_every, 2 nope_every, ... (from 1) get no positions.
    "irope": {"turn": rope_turn, "nope_every": True},
    "cope": {"content": cope_content},
    "kerple": {"bias": kerple_bias},
    "fire": {"bias": fire_bias},
    "alibi": {"bias": alibi_bias},
    "alibi_learned": {"bias": alibi_learned_bias},
    "t5": {"bias": t5_bias},
}


def loss_of(case, params):
    c = case["config"]
    d, heads, layers, pe = c["d_model"], c["heads"], c["layers"], c["positional"]
    dh = d // heads
    tokens = torch.tensor(case["tokens"], dtype=torch.long)
    targets = torch.tensor(case["targets"], dtype=torch.long)
    b, n = tokens.shape
    p = {name: t for name, t in params.items()}
    x = p["embedding"][tokens]
    positions = torch.arange(n, dtype=torch.get_default_dtype())
    if pe not in METHODS:
        raise SystemExit(f"no reference for the positional method {pe!r}: add its definition "
                         "from its paper to METHODS in tests/reference/torch_transformer.py")
    method = METHODS[pe]
    if "input" in method:
        x = x + method["input"](c, p, positions)
    bias = method["bias"](c, p, positions) if "bias" in method else \
        torch.zeros(heads, n, n, dtype=torch.get_default_dtype())
    mask = torch.ones(n, n, dtype=torch.bool).triu(1) if c["causal"] else None
    turn = method.get("turn")
    turn_qk = method.get("turn_qk")

    def norm(t, name):
        return F.layer_norm(t, (d,), p[name + ".weight"].reshape(d), p[name + ".bias"].reshape(d),
                            eps=1e-5)

    def linear(t, name):
        return t @ p[name + ".weight"].T + p[name + ".bias"].reshape(-1)

    for layer in range(layers):
        pre = f"layer{layer}."
        qkv = linear(norm(x, pre + "ln1"), pre + "qkv")
        q, k, v = (part.reshape(b, n, heads, dh).transpose(1, 2) for part in qkv.split(d, -1))
        positioned = not (method.get("nope_every") and (layer + 1) % c["nope_every"] == 0)
        if turn is not None and positioned:
            q, k = turn(c, positions, q), turn(c, positions, k)
        if turn_qk is not None and positioned:
            q, k = turn_qk(c, positions, q, k)
        scores = q @ k.transpose(-1, -2) / math.sqrt(dh) + (bias[None] if positioned else 0)
        if mask is not None:
            scores = scores.masked_fill(mask, float("-inf"))
        if method.get("content") is not None:
            scores = scores + method["content"](c, p, q, scores)
        attended = (torch.softmax(scores, -1) @ v).transpose(1, 2).reshape(b, n, d)
        x = x + linear(attended, pre + "out")
        x = x + linear(F.gelu(linear(norm(x, pre + "ln2"), pre + "mlp1")), pre + "mlp2")
    logits = linear(norm(x, "final_ln"), "head")
    return F.cross_entropy(logits.reshape(-1, c["vocab"]), targets.reshape(-1), ignore_index=-1)


def main():
    for case in json.load(open(sys.argv[1])):
        # A float32 case is computed in float32 throughout, as PE Lab's float model is.
        dtype = torch.float32 if case.get("dtype") == "float32" else torch.float64
        torch.set_default_dtype(dtype)
        params = {name: torch.tensor(value["values"], dtype=dtype)
                  .reshape(value["rows"], value["cols"]).requires_grad_(True)
                  for name, value in case["parameters"].items()}
        loss = loss_of(case, params)
        loss.backward()
        loss_error = abs(loss.item() - case["loss"]) / abs(loss.item())
        worst, worst_name = 0.0, ""
        for name, tensor in params.items():
            ours = torch.tensor(case["gradient"][name], dtype=torch.float64).reshape(tensor.shape)
            reference = tensor.grad.to(torch.float64)
            scale = reference.norm().item()
            error = (ours - reference).norm().item() / scale if scale > 1e-300 else \
                (ours - reference).norm().item()
            if error > worst:
                worst, worst_name = error, name
        print(case["name"], f"{loss_error:.3e}", f"{worst:.3e}", worst_name or "-")


main()
