"""Runs that split their batch's rows (``Run.split``), checked on one rank: which programs the row rules
prove safe to run on slices, the rejects for those that mix rows, and that splitting changes nothing
on a single rank. Two ranks: tests/test_device_world.py."""

import sys
from pathlib import Path

import numpy as np
import pytest
from kit.device import plain_sgd, training

from moxzi_core import device, plugins
from moxzi_core.candid import Some

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import device_step  # noqa: E402  (the Shakespeare model as a program)

pytestmark = pytest.mark.usefixtures("one_torch_thread")

A = b"actor-a\x01"
X = np.arange(24, dtype=np.float32).reshape(4, 6) / 24


def run(dev, program, *, split=(0,), inputs=(X,), scalars=(), tensors=(), loss=None):
    train = None if loss is None else training(loss, "sgd")
    return dev.request(
        "run",
        A,
        {
            "inputs": [{"data": x.tobytes(), "elem": {"f32": None}, "shape": list(x.shape)} for x in inputs],
            "program": program,
            "train": train,
            "scalars": list(scalars),
            "tensors": list(tensors),
            "split": Some(list(split)) if split is not None else None,
        },
    )


def refused(dev, program, **options) -> str:
    with pytest.raises(device.DeviceError) as e:
        run(dev, program, **options)
    return str(e.value)


@pytest.fixture
def dev(registry):
    d = device.open_device(registry, "torch:cpu")
    d.request("params", A, [{"name": "w", "shape": [6, 6], "init": {"normal": 0.5}}])
    d.request("optimizer", A, plain_sgd(["w"], 0.1))
    yield d
    d.close()


def test_programs_that_mix_rows_are_refused_naming_the_op(dev):
    x = {"input": 0}
    cases = {
        "op 1 (sum): it sums over the split rows (use mean: the ranks average their gradients)": [
            x,
            {"sum": {"x": 0, "dim": None}},
        ],
        "op 2 (matmul): it sums over the split rows": [
            x,
            {"transpose": {"x": 0, "a": 0, "b": 1}},
            {"matmul": {"a": 1, "b": 0}},
        ],
        "op 2 (softmax): it works along the split dim": [x, {"transpose": {"x": 0, "a": 0, "b": 1}}, {"softmax": 1}],
        "op 1 (reshape): x is [4, 6] with its rows in dim 0; [6, 4] keeps no dim whose entries are whole rows": [
            x,
            {"reshape": {"x": 0, "shape": [6, 4]}},
        ],
        "op 1 (narrow): it narrows dim 0, the split rows": [x, {"narrow": {"x": 0, "dim": 0, "start": 1, "len": 2}}],
        "op 2 (mul): it multiplies means over the split rows": [
            x,
            {"mean": {"x": 0, "dim": None}},
            {"mul": {"a": 1, "b": 1}},
        ],
    }
    for message, program in cases.items():
        reject = refused(
            dev,
            program,
            scalars=[len(program) - 1] if program[-1].get("mul") else [],
            tensors=[] if program[-1].get("mul") else [len(program) - 1],
        )
        assert (
            reject
            == f"moxzi_device_run: {message}; the run splits its inputs' rows across ranks, so no op may mix rows"
        )
        run(dev, program, split=None, tensors=[len(program) - 1])  # the same program, unsplit, runs


def test_split_and_unsplit_operands_must_line_up(dev):
    both = [{"input": 0}, {"input": 1}, {"add": {"a": 0, "b": 1}}]
    assert "op 2 (add): an unsplit operand, [4, 6], lines up with the split rows" in refused(
        dev, both, inputs=(X, X), tensors=[2]
    )
    row = [{"input": 0}, {"input": 1}, {"add": {"a": 0, "b": 1}}]  # a [6] row broadcasts over every row
    out = run(dev, row, inputs=(X, X[0]), tensors=[2])
    assert np.allclose(np.frombuffer(out["tensors"][0], "<f4").reshape(4, 6), X + X[0])


def test_bad_splits_are_refused(dev):
    x = [{"input": 0}]
    assert (
        refused(dev, x, split=[1], tensors=[0])
        == "moxzi_device_run: split: input 1 does not exist; the run has 1 input(s)"
    )
    assert refused(dev, x, split=[0, 0], tensors=[0]) == "moxzi_device_run: split: an input is named twice"
    assert "split: the program reads none of the split inputs" in refused(
        dev, [{"input": 1}], inputs=(X, X), tensors=[0]
    )
    assert "split: input 1 has 3 rows but another split input has 4" in refused(
        dev, [{"input": 0}, {"input": 1}], split=[0, 1], inputs=(X, X[:3]), tensors=[0, 1]
    )


def test_a_loss_must_be_a_mean_over_the_rows(dev):
    w, x = {"param": "w"}, {"input": 0}
    mean_loss = [x, w, {"linear": {"x": 0, "w": 1, "b": None}}, {"mean": {"x": 2, "dim": None}}]
    run(dev, mean_loss, loss=3, scalars=[3])
    one_row = np.ones((1, 6), np.float32)
    per_row = [x, w, {"linear": {"x": 0, "w": 1, "b": None}}, {"sum": {"x": 2, "dim": Some(1)}}]  # [1]: one value a row
    assert "train.loss: register 3 is split by rows; a split run's loss must be a mean over them" in refused(
        dev, per_row, inputs=(one_row,), loss=3
    )


def test_an_op_without_a_row_rule_refuses_split_operands(registry):
    pytest.importorskip("moxzi_square")
    d = device.open_device(plugins.load(["torch", "square"])[0], "torch:cpu")
    try:
        assert "op 1 (square): this op has no rule for split rows" in refused(
            d, [{"input": 0}, {"square": 0}], tensors=[1]
        )
        run(d, [{"input": 0}, {"square": 0}], split=None, tensors=[1])
    finally:
        d.close()


def test_splitting_on_one_rank_changes_nothing(registry):
    cfg = device_step.Config(n_layer=2, n_head=2, n_embd=32, block=16, batch=4)
    start, data = device_step.weights(cfg), device_step.batches(cfg, 4)
    whole, split = device_step.DeviceGPT(cfg, start), device_step.DeviceGPT(cfg, start)
    try:
        assert [whole.step(whole.arg(s, 3e-3)) for s in data] == [
            split.step(split.arg(s, 3e-3, split=True)) for s in data
        ]
    finally:
        whole.device.close()
        split.device.close()
