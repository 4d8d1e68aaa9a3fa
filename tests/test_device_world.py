"""A device on two ranks (gloo, one machine): data-parallel training equals one device on the whole
batch, and a rank that dies or stalls makes device calls reject within the timeout instead of hanging.
Every call's outcome must agree across ranks (``Group.agree``), so a parameter read back from rank 0
is also rank 1's. Through moxzid: tests/test_device_world_daemon.py."""

import dataclasses
import os
import signal
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from kit.device import read, run_arg

from moxzi_core import device
from moxzi_core.candid import Some
from moxzi_core.device.budget import entry_bytes
from moxzi_core.device.interface import IMPORTED
from moxzi_core.device.ops import Meta
from moxzi_core.runtime.attachments import Attachment

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import device_step  # noqa: E402  (the Shakespeare model as a program)

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("one_torch_thread")]

TIMEOUT = 5.0  # --device-rank-timeout of these groups
STALL_TIMEOUT = 2.0  # the stalled-rank test's, which waits it out


def two_ranks(registry, budget=device.DeviceBudget(), timeout=TIMEOUT) -> device.Device:
    """Rank 0 here, rank 1 a `moxzid device-worker` child process (with the default budget: rank 0
    admits every call for both)."""
    local = device.LocalRanks(
        ["--device", "torch:cpu", "--device-world", "2", "--plugins", "torch", "--device-rank-timeout", str(timeout)], 2
    )
    return device.open_device(
        registry,
        "torch:cpu",
        budget=budget,
        ranks=device.Ranks(2, 0, "127.0.0.1", 0, timeout, local.start),
        local=local,
    )


def params(gpt: device_step.DeviceGPT) -> list[np.ndarray]:
    names = sorted(device_step.weights(gpt.cfg))
    r = gpt.device.request(
        "run",
        gpt.CALLER,
        run_arg([{"param": n} for n in names], tensors=list(range(len(names)))),
    )
    return [np.frombuffer(b, "<f4") for b in r["tensors"]]


def logits(gpt: device_step.DeviceGPT, seq: np.ndarray, split: bool) -> np.ndarray:
    """The forward's logits for a batch, as one tensor."""
    logits_only = {"scalars": [], "tensors": [len(gpt.program) - 2]}  # the loss's program, read before the loss
    r = gpt.device.request("run", gpt.CALLER, gpt.run(seq, lr=None, split=split) | logits_only)
    return np.frombuffer(r["tensors"][0], "<f4")


def eager_on_halves(cfg: device_step.Config, start, data) -> device_step.EagerGPT:
    """Plain PyTorch trained as two ranks train: each step's gradient is the mean of the two halves'."""
    import torch

    half = device_step.EagerGPT(dataclasses.replace(cfg, batch=cfg.batch // 2), start)
    for seq in data:
        ids = torch.from_numpy(seq.astype(np.int64))
        ((half.loss(ids[: cfg.batch // 2]) + half.loss(ids[cfg.batch // 2 :])) / 2).backward()
        torch.nn.utils.clip_grad_norm_(list(half.p.values()), 1.0, foreach=False)
        half.opt.step()
        half.opt.zero_grad(set_to_none=True)
    return half


def test_twenty_shakespeare_steps_split_6_6_equal_one_device_on_12(registry):
    cfg = device_step.Config()  # nanoGPT's Shakespeare laptop config: batch 12
    start, data = device_step.weights(cfg), device_step.batches(cfg, 21)
    one = device_step.DeviceGPT(cfg, start)
    two = device_step.DeviceGPT(cfg, start, on=two_ranks(registry))
    try:
        assert two.device.world == 2 and len(two.device.group.members) == 2
        whole = [one.step(one.arg(s, 1e-3)) for s in data[:20]]
        halves = [two.step(two.arg(s, 1e-3, split=True)) for s in data[:20]]
        # Float rounding grows with the steps (the halves' sums run in another order): up to 3.7e-5
        # relative by step 19 on an AMD EPYC with AVX2 only, under 1e-5 with AVX-512.
        np.testing.assert_allclose(halves, whole, rtol=1e-4)
        assert whole[0] > 4 and whole[-1] < whole[0] - 0.5
        # The parameters are those of eager PyTorch averaging the gradients of the two halves, bit for bit;
        # one device's on the whole batch differ by float rounding, which AdamW's normalisation magnifies
        # where gradients nearly cancel (units ReLU barely lets through): 99% agree within 1e-4 with AVX-512,
        # within 3e-4 on an AMD EPYC with AVX2 only (the MLP's weights; the rest within 1e-4).
        eager = eager_on_halves(cfg, start, data[:20])
        for name, a, b in zip(sorted(start), params(two), params(one)):
            assert np.array_equal(a, eager.p[name].detach().numpy().ravel()), name
            assert np.quantile(np.abs(a - b), 0.99) < 1e-3, name
        # Returned tensors are the whole batch's: each rank's rows, gathered in order.
        np.testing.assert_allclose(logits(two, data[20], True), logits(two, data[20], False), rtol=1e-5, atol=1e-6)
        odd = {
            "inputs": [{"data": bytes(24), "elem": {"f32": None}, "shape": [3, 2]}],
            "train": None,
            "program": [{"input": 0}, {"scale": {"x": 0, "by": 2.0}}],
            "scalars": [],
            "tensors": [1],
        }
        with pytest.raises(
            device.DeviceError, match="split: the batch has 3 rows, which this device's 2 ranks cannot share evenly"
        ):
            two.device.request("run", two.CALLER, odd | {"split": Some([0])})
        assert two.device.request("run", two.CALLER, odd | {"split": None})["shapes"] == [[3, 2]]
    finally:
        one.device.close()
        two.device.close()


def test_rank_0_alone_admits_calls_and_the_others_never_see_a_refused_one(registry):
    whole = entry_bytes("w", Meta((16,)))
    dev = two_ranks(registry, device.DeviceBudget(actor_bytes=whole))  # rank 1 has the default, 8 GiB
    w = [{"name": "w", "shape": [16], "init": {"ones": None}}]
    try:
        dev.request("params", b"a\x01", w)  # the whole budget
        more = whole + entry_bytes("v", Meta((1,)))
        with pytest.raises(device.DeviceError, match=f"the actor would hold {more} bytes on the device"):
            dev.request("params", b"a\x01", [{"name": "v", "shape": [1], "init": {"ones": None}}])
        dev.request("params", b"a\x01", w)  # the ranks still agree, call by call
        assert dev.group.broken is None and [e["name"] for e in dev.request("list", b"a\x01")] == ["w"]
    finally:
        dev.close()


def test_an_import_reaches_every_rank_with_its_prefix(registry, tmp_path):
    """An attachment's head (an import's prefix) goes to the other ranks with the call: had rank 1 set
    `w` instead of `p/w`, the run reading `p/w` would break the group."""
    import torch
    from safetensors.torch import save_file

    save_file({"w": torch.arange(4.0)}, tmp_path / "w.safetensors")
    dev = two_ranks(registry)
    try:
        with open(tmp_path / "w.safetensors", "rb") as file:
            outcome = dev.call(IMPORTED, b"a\x01", Attachment.of_file(file, head=b"p/"))
        assert outcome.reply is not None, outcome.reject_message
        assert read(dev, b"a\x01", {"param": "p/w"})[0].tolist() == [0.0, 1.0, 2.0, 3.0]
        assert dev.group.broken is None
    finally:
        dev.close()


def worker(dev: device.Device):
    return dev._local.processes[0]


def test_a_killed_rank_gives_a_clear_reject_not_a_hang(registry):
    dev = two_ranks(registry)
    gpt = device_step.DeviceGPT(
        device_step.Config(n_layer=1, n_embd=32, n_head=2, block=8, batch=4),
        device_step.weights(device_step.Config(n_layer=1, n_embd=32, n_head=2, block=8)),
        on=dev,
    )
    seq = device_step.batches(gpt.cfg, 1)[0]
    try:
        gpt.step(gpt.arg(seq, 1e-3, split=True))
        worker(dev).kill()
        worker(dev).wait()
        with pytest.raises(
            RuntimeError,
            match=r"moxzi_device_run: the device's group of 2 ranks is broken \(a "
            r"rank did not answer within 5 s \(it died or stalled\)",
        ):
            gpt.step(gpt.arg(seq, 1e-3, split=True))
        later = dev.call("moxzi_device_list", gpt.CALLER, b"DIDL\x00\x00")  # at once, and says how to recover
        assert later.reply is None and "restart moxzid to form it again" in later.reject_message
        with pytest.raises(device.DeviceError, match="no copy: the device's group of 2 ranks is broken"):
            dev.snapshot(open(os.devnull, "wb"))
    finally:
        dev.close()


def test_a_stalled_rank_gives_a_reject_within_the_timeout(registry):
    dev = two_ranks(registry, timeout=STALL_TIMEOUT)
    try:
        dev.request("params", b"a\x01", [{"name": "w", "shape": [2], "init": {"zeros": None}}])
        os.kill(worker(dev).pid, signal.SIGSTOP)
        started = time.monotonic()
        with pytest.raises(device.DeviceError, match="a rank did not answer within 2 s"):
            dev.request("params", b"a\x01", [{"name": "v", "shape": [2], "init": {"zeros": None}}])
        assert time.monotonic() - started > STALL_TIMEOUT - 0.5  # it waited out the rank timeout
    finally:
        worker(dev).kill()
        dev.close()
