"""Every built-in op on torch:cpu against a plain PyTorch reference: values and gradients.

The device gives gradients back only through a training step, so each case trains its float operands
with SGD at lr 1 (no momentum, no decay) on loss = sum(op(...) * r) for a fixed random r: each operand
moves by exactly its gradient, and before - after is compared with the reference's autograd.
"""

import math

import numpy as np
import pytest
import torch
from kit.device import plain_sgd, run_arg, training

from moxzi_core import device
from moxzi_core.candid import Some

pytestmark = pytest.mark.usefixtures("one_torch_thread")

CALLER = b"ops\x01"


def f32(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def run_case(dev, floats: dict, ints: dict, op: str, payload, out_shape):
    """Run ``op`` on params ``floats`` and inputs ``ints`` (register numbers filled into ``payload``
    by name) and return (output, gradients by name)."""
    names = list(floats)
    dev.request(
        "params",
        CALLER,
        [{"name": n, "shape": list(v.shape), "init": {"values": v.tobytes()}} for n, v in floats.items()],
    )
    r = f32(out_shape, 99)
    dev.request("params", CALLER, [{"name": "r", "shape": list(out_shape), "init": {"values": r.tobytes()}}])
    dev.request("optimizer", CALLER, plain_sgd(names, 1.0))
    program, regs = [], {}
    for n in names:
        regs[n] = len(program)
        program.append({"param": n})
    inputs = []
    for n, v in ints.items():
        regs[n] = len(program)
        program.append({"input": len(inputs)})
        inputs.append({"data": v.astype("<i4").tobytes(), "elem": {"i32": None}, "shape": list(v.shape)})
    out = len(program)
    program.append({op: payload(regs)})
    program += [{"param": "r"}, {"mul": {"a": out, "b": out + 1}}, {"sum": {"x": out + 2, "dim": None}}]
    loss = out + 3
    result = dev.request(
        "run",
        CALLER,
        run_arg(program, inputs=inputs, train=training(loss, "sgd"), tensors=[out]),
    )
    assert result["shapes"] == [list(out_shape)]
    value = np.frombuffer(result["tensors"][0], "<f4").reshape(out_shape)
    after = dev.request(
        "run",
        CALLER,
        run_arg([{"param": n} for n in names], tensors=list(range(len(names)))),
    )
    grads = {n: floats[n] - np.frombuffer(b, "<f4").reshape(floats[n].shape) for n, b in zip(names, after["tensors"])}
    return value, grads, r


def reference(fn, floats, ints, r):
    ts = {n: torch.tensor(v, requires_grad=True) for n, v in floats.items()}
    ids = {n: torch.tensor(v, dtype=torch.int64) for n, v in ints.items()}
    out = fn(**ts, **ids)
    (out * torch.tensor(r)).sum().backward()
    return out.detach().numpy(), {n: t.grad.numpy() for n, t in ts.items()}


def rope_ref(x, start):
    # Rotation of pairs (i, i + d/2) by angle pos * 10000^(-2i/d), written with complex numbers.
    d = x.shape[-1]
    pos = torch.arange(start, start + x.shape[-2], dtype=torch.float64)
    angle = pos[:, None] * 10000.0 ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
    z = torch.complex(x[..., : d // 2].double(), x[..., d // 2 :].double()) * torch.polar(torch.ones_like(angle), angle)
    return torch.cat((z.real, z.imag), -1).float()


def attention_ref(q, k, v, causal):
    tq, tk = q.shape[2], k.shape[2]
    scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    if causal:
        allowed = torch.arange(tk)[None, :] <= torch.arange(tq)[:, None] + (tk - tq)
        scores = scores.masked_fill(~allowed, float("-inf"))
    return scores.softmax(-1) @ v


CASES = {
    # name: (floats, ints, op, payload(regs), out shape, reference)
    "narrow": (
        {"x": f32((3, 5, 4), 1)},
        {},
        "narrow",
        lambda r: {"x": r["x"], "dim": 1, "start": 1, "len": 3},
        (3, 3, 4),
        lambda x: x[:, 1:4],
    ),
    "reshape": (
        {"x": f32((3, 4), 1)},
        {},
        "reshape",
        lambda r: {"x": r["x"], "shape": [2, 6]},
        (2, 6),
        lambda x: x.reshape(2, 6),
    ),
    "transpose": (
        {"x": f32((2, 3, 4), 1)},
        {},
        "transpose",
        lambda r: {"x": r["x"], "a": 0, "b": 2},
        (4, 3, 2),
        lambda x: x.permute(2, 1, 0),
    ),
    "concat": (
        {"a": f32((2, 3), 1), "b": f32((2, 5), 2)},
        {},
        "concat",
        lambda r: {"xs": [r["a"], r["b"]], "dim": 1},
        (2, 8),
        lambda a, b: torch.cat([a, b], 1),
    ),
    "embedding": (
        {"t": f32((7, 4), 1)},
        {"ids": np.array([[1, 6, 1], [0, 2, 1]])},
        "embedding",
        lambda r: {"table": r["t"], "ids": r["ids"]},
        (2, 3, 4),
        lambda t, ids: t[ids],
    ),
    "linear": (
        {"x": f32((2, 3, 5), 1), "w": f32((4, 5), 2)},
        {},
        "linear",
        lambda r: {"x": r["x"], "w": r["w"], "b": None},
        (2, 3, 4),
        lambda x, w: x @ w.T,
    ),
    "linear_bias": (
        {"x": f32((3, 5), 1), "w": f32((4, 5), 2), "b": f32((4,), 3)},
        {},
        "linear",
        lambda r: {"x": r["x"], "w": r["w"], "b": Some(r["b"])},
        (3, 4),
        lambda x, w, b: x @ w.T + b,
    ),
    "matmul": (
        {"a": f32((2, 1, 3, 4), 1), "b": f32((5, 4, 6), 2)},
        {},
        "matmul",
        lambda r: {"a": r["a"], "b": r["b"]},
        (2, 5, 3, 6),
        lambda a, b: a @ b,
    ),
    "rms_norm": (
        {"x": f32((3, 8), 1)},
        {},
        "rms_norm",
        lambda r: r["x"],
        (3, 8),
        lambda x: x / torch.sqrt((x * x).mean(-1, keepdim=True) + 1e-5),
    ),
    "layer_norm": (
        {"x": f32((3, 8), 1)},
        {},
        "layer_norm",
        lambda r: r["x"],
        (3, 8),
        lambda x: (x - x.mean(-1, keepdim=True)) / torch.sqrt(x.var(-1, unbiased=False, keepdim=True) + 1e-5),
    ),
    "rope": ({"x": f32((2, 3, 5, 8), 1)}, {}, "rope", lambda r: r["x"], (2, 3, 5, 8), lambda x: rope_ref(x, 0)),
    "rope_from": (
        {"x": f32((1, 2, 3, 8), 1)},
        {},
        "rope_from",
        lambda r: {"x": r["x"], "start": 7},
        (1, 2, 3, 8),
        lambda x: rope_ref(x, 7),
    ),
    "causal_attention": (
        {"q": f32((2, 2, 5, 4), 1), "k": f32((2, 2, 5, 4), 2), "v": f32((2, 2, 5, 4), 3)},
        {},
        "causal_attention",
        lambda r: {"q": r["q"], "k": r["k"], "v": r["v"]},
        (2, 2, 5, 4),
        lambda q, k, v: attention_ref(q, k, v, True),
    ),
    "attention_cached": (
        {"q": f32((1, 2, 2, 4), 1), "k": f32((1, 2, 5, 4), 2), "v": f32((1, 2, 5, 3), 3)},
        {},
        "attention",
        lambda r: {"q": r["q"], "k": r["k"], "v": r["v"], "causal": None},
        (1, 2, 2, 3),
        lambda q, k, v: attention_ref(q, k, v, True),
    ),
    "attention_full": (
        {"q": f32((1, 2, 3, 4), 1), "k": f32((1, 2, 5, 4), 2), "v": f32((1, 2, 5, 4), 3)},
        {},
        "attention",
        lambda r: {"q": r["q"], "k": r["k"], "v": r["v"], "causal": Some(False)},
        (1, 2, 3, 4),
        lambda q, k, v: attention_ref(q, k, v, False),
    ),
    "add": (
        {"a": f32((3, 4), 1), "b": f32((4,), 2)},
        {},
        "add",
        lambda r: {"a": r["a"], "b": r["b"]},
        (3, 4),
        lambda a, b: a + b,
    ),
    "mul": (
        {"a": f32((3, 1), 1), "b": f32((2, 1, 4), 2)},
        {},
        "mul",
        lambda r: {"a": r["a"], "b": r["b"]},
        (2, 3, 4),
        lambda a, b: a * b,
    ),
    "scale": ({"x": f32((3, 4), 1)}, {}, "scale", lambda r: {"x": r["x"], "by": -2.5}, (3, 4), lambda x: x * -2.5),
    "relu": ({"x": f32((3, 4), 1)}, {}, "relu", lambda r: r["x"], (3, 4), lambda x: x.clamp(min=0)),
    "gelu": (
        {"x": f32((3, 4), 1)},
        {},
        "gelu",
        lambda r: r["x"],
        (3, 4),
        lambda x: 0.5 * x * (1 + torch.erf(x / math.sqrt(2))),
    ),
    "silu": ({"x": f32((3, 4), 1)}, {}, "silu", lambda r: r["x"], (3, 4), lambda x: x * torch.sigmoid(x)),
    "softmax": (
        {"x": f32((3, 4), 1)},
        {},
        "softmax",
        lambda r: r["x"],
        (3, 4),
        lambda x: x.exp() / x.exp().sum(-1, keepdim=True),
    ),
    "sum_dim": (
        {"x": f32((3, 4, 2), 1)},
        {},
        "sum",
        lambda r: {"x": r["x"], "dim": Some(1)},
        (3, 2),
        lambda x: x.sum(1),
    ),
    "mean_all": ({"x": f32((3, 4), 1)}, {}, "mean", lambda r: {"x": r["x"], "dim": None}, (), lambda x: x.mean()),
    "cross_entropy": (
        {"l": f32((4, 6), 1)},
        {"t": np.array([0, 5, 2, 2])},
        "cross_entropy",
        lambda r: {"logits": r["l"], "targets": r["t"]},
        (),
        lambda l, t: -(l.log_softmax(-1)[torch.arange(4), t]).mean(),
    ),
    "store": ({"x": f32((2, 3), 1)}, {}, "store", lambda r: {"x": r["x"], "name": "kept"}, (2, 3), lambda x: x),
}


@pytest.mark.parametrize("case", list(CASES))
def test_op_matches_torch(dev, case):
    floats, ints, op, payload, shape, ref = CASES[case]
    value, grads, r = run_case(dev, floats, ints, op, payload, shape)
    want, want_grads = reference(ref, floats, ints, r)
    np.testing.assert_allclose(value, want, rtol=1e-5, atol=1e-5)
    for n in floats:
        np.testing.assert_allclose(grads[n], want_grads[n], rtol=1e-4, atol=2e-5, err_msg=f"gradient of {n}")


def test_every_builtin_op_has_a_case(registry):
    covered = {c[2] for c in CASES.values()} | {"input", "param", "shared", "load"}  # sources: test_device.py
    assert covered == {n for n, o in registry.ops.items() if isinstance(o, device.Op)} - {"square"}


def optimizer_case(dev, kind, hyper, steps=5):
    w = f32((6, 5), 1)
    dev.request("params", CALLER, [{"name": "w", "shape": [6, 5], "init": {"values": w.tobytes()}}])
    dev.request("optimizer", CALLER, {"name": "o", "params": ["w"], "lr": 0.1, "kind": Some({kind: None}), **hyper})
    x = f32((4, 5), 2)
    program = [
        {"input": 0},
        {"param": "w"},
        {"linear": {"x": 0, "w": 1, "b": None}},
        {"mul": {"a": 2, "b": 2}},
        {"sum": {"x": 3, "dim": None}},
    ]
    for i in range(steps):
        dev.request(
            "run",
            CALLER,
            run_arg(
                program,
                inputs=[{"data": x.tobytes(), "elem": {"f32": None}, "shape": [4, 5]}],
                train=training(4, "o", clip=3.0, lr=0.1 / (i + 1)),
                scalars=[4],
            ),
        )
    got = dev.request(
        "run",
        CALLER,
        run_arg([{"param": "w"}], tensors=[0]),
    )["tensors"][0]
    tw = torch.tensor(w, requires_grad=True)
    return np.frombuffer(got, "<f4").reshape(6, 5), tw, torch.tensor(x)


def torch_steps(opt, tw, tx, steps=5):
    for i in range(steps):
        for g in opt.param_groups:
            g["lr"] = 0.1 / (i + 1)
        ((tx @ tw.T) ** 2).sum().backward()
        torch.nn.utils.clip_grad_norm_([tw], 3.0, foreach=False)
        opt.step()
        opt.zero_grad()
    return tw.detach().numpy()


def test_adamw_is_torch_adamw_bit_for_bit(dev):
    hyper = {"beta1": 0.9, "beta2": 0.99, "eps": 1e-8, "weight_decay": 0.1}
    got, tw, tx = optimizer_case(dev, "adamw", hyper)
    want = torch_steps(torch.optim.AdamW([tw], lr=0.1, betas=(0.9, 0.99), eps=1e-8, weight_decay=0.1), tw, tx)
    assert got.tobytes() == want.tobytes()


def test_sgd_is_torch_sgd(dev):
    hyper = {"beta1": 0.9, "beta2": 0.0, "eps": 0.0, "weight_decay": 0.01}
    got, tw, tx = optimizer_case(dev, "sgd", hyper)
    want = torch_steps(torch.optim.SGD([tw], lr=0.1, momentum=0.9, weight_decay=0.01), tw, tx)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
