"""``--cuda-graphs``: a cached plan's static form (what torch:cuda captures as CUDA graphs), run here
without graphs (``uncaptured``) and with ``graphs.Graphed``'s bookkeeping on the CPU: the plain path's
numbers, bit for bit, over steps with changing inputs and learning rates; the plans it cannot hold, each
run on the plain path with one log line; the forms counted in their caller's byte budget; the setting.
On a machine with a GPU (skipped elsewhere), the captured step against the uncaptured one."""

import io
import logging
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
from kit.daemon import moxzid
from kit.device import LETTERS, adamw, letters_params, probe, read, run_arg, snapshot, training

from moxzi_core import device, plugins, settings
from moxzi_core.candid import Some
from moxzi_core.device.budget import entry_bytes, tensor_bytes
from moxzi_core.device.ops import Meta
from moxzi_device_torch import TorchBackend, capturable, graphs
from moxzi_device_torch.static import MAX_FORMS, StaticPlans

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import device_step  # noqa: E402  (the seeds' Shakespeare program, and its batches)

pytestmark = pytest.mark.usefixtures("one_torch_thread")

A = b"actor-a\x01"
TEXTS = [bytes((i * 7 + k) % 256 for k in range(65)) for i in range(4)]
ADAM = adamw(["embed", "head"], lr=0.05, weight_decay=0.1)
FALLBACK = "--cuda-graphs: a cached plan of"


def flags(registry, graphs: str):
    return settings.from_sources({"cuda_graphs": graphs}, registry.settings)


def opened(registry, graphs: str, ops=None, budget=device.DeviceBudget()) -> device.Device:
    """A torch:cpu device with ``--cuda-graphs graphs``, with ``ops`` beside the registry's."""
    backend = TorchBackend("torch:cpu", settings=flags(registry, graphs))
    return device.Device(backend, registry.ops | (ops or {}), [], budget=budget)


def letters(text: bytes, train, program=LETTERS) -> dict:
    """The letters run on ``text``: its loss (the last register) and logits (register 7) read back."""
    inputs = [{"data": text, "elem": {"u8": None}, "shape": [1, 65]}]
    return run_arg(program, inputs=inputs, train=train, scalars=[len(program) - 1], tensors=[7])


def letters_setup(d, optimizer=ADAM):
    letters_params(d, A, optimizer)


def kept(d) -> list:
    """The static forms the device keeps, every caller's."""
    return [form for space in d.spaces.values() for form in space.kept.values()]


def both(registry, session, forms: int) -> tuple:
    """``session(device)``'s result on the plain path and on the static form, which held ``forms``."""
    out = []
    for mode in ("off", "uncaptured"):
        d = opened(registry, mode)
        try:
            out.append(session(d))
            assert d.backend.static is None if mode == "off" else len(kept(d)) == forms
        finally:
            d.close()
    return tuple(out)


def test_the_shakespeare_step_gives_the_plain_paths_bits(registry, caplog):
    """The seeds' program (attention, rope, norms, AdamW with weight decay, clip 1.0), batches and
    learning rates changing every step, a forward-only loss between steps: the same losses, weights
    and optimizer state to the bit."""
    cfg = device_step.Config(n_layer=2, n_head=2, n_embd=32, block=16, batch=4)
    start, data = device_step.weights(cfg), device_step.batches(cfg, 6)

    def session(d):
        gpt = device_step.DeviceGPT(cfg, start, on=d)
        losses = []
        for i, seq in enumerate(data):
            losses.append(gpt.step(gpt.arg(seq, 3e-3 * (1 + i % 3))))
            losses.append(gpt.step(gpt.encode(gpt.run_type.args, [gpt.run(data[0], None)])))
        reads = [read(d, gpt.CALLER, *({"param": n} for n in start)) for _ in range(2)]
        return losses, [w.tobytes() for r in reads for w in r], snapshot(d)

    with caplog.at_level(logging.WARNING, "moxzi.torch"):
        plain, static = both(registry, session, forms=3)  # the step, the loss alone, the read (each run twice at least)
    assert plain == static
    assert len(set(plain[0][::2])) == len(data)  # each step's loss is its own
    assert FALLBACK not in caplog.text


def test_several_optimizers_clipped_together_give_the_plain_paths_bits(registry):
    def session(d):
        letters_setup(d, ADAM | {"params": ["embed"]})
        d.request("optimizer", A, ADAM | {"name": "slow", "params": ["head"], "lr": 0.01})
        out = []
        for i, text in enumerate(TEXTS * 2):
            train = {
                "loss": 9,
                "optimizer": "adam",
                "clip": Some(0.05),
                "lr": Some(0.02 * (i + 1)),
                "also": Some(["slow"]),
            }
            r = d.request("run", A, letters(text, Some(train)))
            out.append((r["scalars"], r["tensors"]))
        return out, snapshot(d)

    plain, static = both(registry, session, forms=1)
    assert plain == static


def test_a_step_whose_loss_is_not_finite_changes_nothing_there_too(registry):
    """(A plan's first run takes the plain path, so each is run twice.)"""
    infinite = {"values": np.full((256, 16), np.inf, "<f4").tobytes()}

    def session(d):
        letters_setup(d)
        for text in TEXTS[:2]:
            d.request("run", A, letters(text, training(9, "adam")))
        before = snapshot(d)
        d.request("params", A, [{"name": "embed", "shape": [256, 16], "init": infinite}])
        for text in TEXTS[2:]:
            with pytest.raises(device.DeviceError, match="the loss is nan; nothing was updated"):
                d.request("run", A, letters(text, training(9, "adam")))
        return before, [read(d, A, {"param": "head"})[0].tobytes() for _ in range(2)]

    plain, static = both(registry, session, forms=2)  # after the replacement (before's went with it); the read
    assert plain == static


def test_replaced_parameters_get_a_new_static_form(registry):
    """Each set of parameters its own form (the old one goes with the parameters it held), and a form
    for a plan only on its second run."""

    def session(d):
        letters_setup(d)
        losses = [d.request("run", A, letters(t, training(9, "adam")))["scalars"] for t in TEXTS]
        d.request("params", A, [{"name": "head", "shape": [256, 16], "init": {"zeros": None}}])
        losses += [d.request("run", A, letters(t, training(9, "adam")))["scalars"] for t in TEXTS]
        return losses, snapshot(d)

    plain, static = both(registry, session, forms=1)  # after the replacement: before's went with it
    assert plain == static
    d = opened(registry, "uncaptured")
    letters_setup(d)
    d.request("run", A, letters(TEXTS[0], training(9, "adam")))
    assert kept(d) == []
    d.close()


class Replayed:
    """What the CPU tests put in a CUDA graph's place: a replay runs the part again and writes what it
    returns into the tensors its capture returned, as a graph's replay writes into the memory it was
    captured with (the first replay, right after the capture, finds the work done: here capturing ran it)."""

    def __init__(self, fn, args, result):
        self.fn, self.args, self.result, self.replays = fn, args, result, -1

    def replay(self):
        self.replays += 1
        if self.replays:
            _write(self.result, self.fn(*self.args))


def _write(into, value):
    if isinstance(into, torch.Tensor):
        into.copy_(value)
    elif isinstance(into, (list, tuple)):
        for a, b in zip(into, value, strict=True):
            _write(a, b)
    else:
        assert into is None and value is None


class OnTheCpu(graphs.Graphed):
    """``graphs.Graphed``'s bookkeeping (warm-up, capture, replay while given the same tensors, a failed
    capture) with ``Replayed`` for its graphs; ``fail`` makes every capture fail."""

    made: list["OnTheCpu"] = []
    fail = False

    def __init__(self):
        super().__init__(stream=None)
        self.graphs: list[Replayed] = []
        OnTheCpu.made.append(self)

    def warm(self, fn, *args):
        return fn(*args)

    def capture(self, fn, *args):
        if OnTheCpu.fail:
            raise RuntimeError("operation not permitted when stream is capturing")
        result = fn(*args)
        self.graphs.append(Replayed(fn, args, result))
        return self.graphs[-1], result


def test_captured_parts_replayed_give_the_plain_paths_bits(registry, caplog, monkeypatch):
    """The static form with graphs.Graphed's bookkeeping (CUDA's own calls stood in for) over the
    Shakespeare step: each part captured once (compute and update of the step, compute of the loss
    alone), then replayed, with the plain path's losses and weights."""
    cfg = device_step.Config(n_layer=1, n_head=2, n_embd=16, block=8, batch=2)
    start, data = device_step.weights(cfg), device_step.batches(cfg, 6)
    monkeypatch.setattr(OnTheCpu, "made", [])

    def session(d):
        gpt = device_step.DeviceGPT(cfg, start, on=d)
        losses = []
        for i, seq in enumerate(data):
            losses.append(gpt.step(gpt.arg(seq, 1e-2 / (1 + i))))
            losses.append(gpt.step(gpt.encode(gpt.run_type.args, [gpt.run(seq, None)])))
        return losses, [w.tobytes() for w in read(d, gpt.CALLER, *({"param": n} for n in start))], snapshot(d)

    plain = session(opened(registry, "off"))
    d = opened(registry, "uncaptured")
    d.backend.static = StaticPlans(d.backend.device, OnTheCpu, pools=False)
    with caplog.at_level(logging.WARNING, "moxzi.torch"):
        assert session(d) == plain
    assert FALLBACK not in caplog.text
    # Two forms (the step, the loss alone; the read runs once), two parts each, the loss alone's update
    # unused; 6 runs of each: the plain path, a warm-up, the capture, 3 replays.
    assert sorted(len(part.graphs) for part in OnTheCpu.made) == [0, 1, 1, 1]
    assert sorted(sum(g.replays for g in part.graphs) for part in OnTheCpu.made) == [0, 3, 3, 3]
    d.close()


def test_a_failed_capture_runs_that_call_and_then_the_plan_plain(registry, caplog, monkeypatch):
    monkeypatch.setattr(OnTheCpu, "fail", True)

    def session(d):
        letters_setup(d)
        return [d.request("run", A, letters(t, training(9, "adam"))) for t in TEXTS], snapshot(d)

    plain = session(opened(registry, "off"))
    d = opened(registry, "uncaptured")
    d.backend.static = StaticPlans(d.backend.device, OnTheCpu, pools=False)
    with caplog.at_level(logging.WARNING, "moxzi.torch"):
        assert session(d) == plain
    assert _refusals(caplog) == [
        f"{FALLBACK} 10 ops runs uncaptured: capturing it failed: operation not permitted when stream is capturing"
    ]
    assert kept(d) == []
    d.close()


def _plain_and_static(registry, ops, program, train, setup, caplog) -> tuple[list, list]:
    """Three runs of ``program`` on each path; the static one's log."""
    out = []
    for mode in ("off", "uncaptured"):
        d = opened(registry, mode, ops)
        setup(d)
        caplog.clear()
        with caplog.at_level(logging.WARNING, "moxzi.torch"):
            out.append([d.request("run", A, letters(t, train, program)) for t in TEXTS[:3]])
        d.close()
    return out[0], out[1]


def _refusals(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.getMessage().startswith(FALLBACK)]


@pytest.mark.parametrize(
    ("kernel", "why"),
    [
        (lambda p, x: x * 2, "op 8 (probe) has a kernel not declared capturable"),
        (capturable(lambda p, x: x * float(x.detach().sum())), "op 8 (probe) reads a value back to the host"),
        (capturable(lambda p, x: x + x[x > 0].sum()), "op 8 (probe) reads a value back to the host or makes a shape"),
    ],
    ids=["undeclared", "host-read", "data-dependent-shape"],
)
def test_a_plan_the_static_form_cannot_hold_runs_plain_with_one_log_line(registry, caplog, kernel, why):
    """Its results are the plain path's; the log says why, once for the three runs."""
    tail = [{"probe": 7}, {"reshape": {"x": 8, "shape": [64, 256]}}, {"cross_entropy": {"logits": 9, "targets": 3}}]
    program = LETTERS[:8] + tail
    plain, static = _plain_and_static(
        registry, {"probe": probe(kernel)}, program, training(10, "adam"), letters_setup, caplog
    )
    assert plain == static
    (line,) = _refusals(caplog)
    assert line.startswith(f"{FALLBACK} 11 ops runs uncaptured: {why}")


def test_sgd_has_no_static_step(registry, caplog):
    sgd = ADAM | {"kind": Some({"sgd": None}), "beta1": 0.9}
    plain, static = _plain_and_static(
        registry, {}, LETTERS, training(9, "adam"), lambda d: letters_setup(d, sgd), caplog
    )
    assert plain == static
    assert _refusals(caplog) == [f"{FALLBACK} 10 ops runs uncaptured: its optimizer is a SGD, which has no static step"]


# A letters step's static form on torch:cpu, uncaptured: its input's buffer (65 bytes as int64) and the
# factors of its two parameters (three float32 each); a forward run's, the buffer alone.
STEP_FORM = 65 * 8 + 2 * 3 * 4
FORWARD_FORM = 65 * 8


def usage(d) -> dict:
    return d.usage()[d.name_of(A)]


def step_sizes(registry) -> tuple[int, int]:
    """(what letters_setup holds, counted against the budget; a letters step's peak), on a roomy device."""
    d = opened(registry, "uncaptured")
    letters_setup(d)
    held = usage(d)["counted"]
    d.request("run", A, letters(TEXTS[0], training(9, "adam")))
    (plan,) = d.plans._plans.values()
    d.close()
    return held, plan.peak_bytes


def test_a_static_form_counts_against_its_callers_budget(registry):
    """From the run that makes it; each caller keeps at most MAX_FORMS (the least recently used go),
    and replacing the parameters they hold gives their bytes back, as a restore does."""
    d = opened(registry, "uncaptured")
    letters_setup(d)
    held = usage(d)["counted"]
    for text in TEXTS[:2]:
        d.request("run", A, letters(text, training(9, "adam")))
    assert (usage(d)["kept"], usage(d)["kept_bytes"], usage(d)["counted"]) == (1, STEP_FORM, held + STEP_FORM)
    assert d.holdings.by_caller[A] == held + STEP_FORM
    forward = [run_arg(LETTERS, inputs=letters(TEXTS[0], None)["inputs"], tensors=[r]) for r in range(MAX_FORMS + 1)]
    for arg in forward * 2:  # a form each on its second run: the step's goes, and the first forward's
        d.request("run", A, arg)
    assert (usage(d)["kept"], usage(d)["kept_bytes"]) == (MAX_FORMS, MAX_FORMS * FORWARD_FORM)
    assert usage(d)["counted"] == held + MAX_FORMS * FORWARD_FORM
    data = sum(tensor_bytes(m) for _, m in d.spaces[A].params.values())
    assert usage(d)["bytes"] == 3 * data + MAX_FORMS * FORWARD_FORM  # the parameters and AdamW's moments by now
    copy = snapshot(d)
    d.request("params", A, [{"name": "embed", "shape": [256, 16], "init": {"zeros": None}}])
    assert (usage(d)["kept"], usage(d)["counted"]) == (0, held)  # every form read embed
    for arg in forward[:2] * 2:
        d.request("run", A, arg)
    assert usage(d)["kept_bytes"] == 2 * FORWARD_FORM
    d.restore(io.BytesIO(copy))
    assert (usage(d)["kept"], d.holdings.by_caller[A]) == (0, held)
    d.close()


def test_a_static_form_past_the_callers_budget_is_not_made(registry, caplog):
    """The plan runs plain, with the plain path's results, and the log says why once; a byte more of
    budget and the form is made."""
    held, peak = step_sizes(registry)
    plain = opened(registry, "off")
    letters_setup(plain)
    expected = [plain.request("run", A, letters(t, training(9, "adam"))) for t in TEXTS]
    plain.close()
    tight = held + peak + STEP_FORM - 1  # the run fits, and its form beside it does not
    d = opened(registry, "uncaptured", budget=device.DeviceBudget(tight))
    letters_setup(d)
    with caplog.at_level(logging.WARNING, "moxzi.torch"):
        assert [d.request("run", A, letters(t, training(9, "adam"))) for t in TEXTS] == expected
    assert (usage(d)["kept"], usage(d)["counted"]) == (0, held)
    assert _refusals(caplog) == [
        f"{FALLBACK} 10 ops runs uncaptured: its static form's {STEP_FORM} bytes do not fit in the actor's "
        "device budget (--device-actor-mb) or the device's (--device-total-mb) beside what they hold"
    ]
    d.close()
    d = opened(registry, "uncaptured", budget=device.DeviceBudget(tight + 1))
    letters_setup(d)
    for text in TEXTS[:2]:
        d.request("run", A, letters(text, training(9, "adam")))
    assert usage(d)["kept_bytes"] == STEP_FORM
    d.close()


@pytest.mark.parametrize("whose", ["actor", "total"])
def test_what_static_forms_hold_gives_way_to_a_call(registry, whose):
    """A call that fits the budget only without the forms drops them and goes ahead: the caller's own
    past its budget, every caller's past the device's total; more than that is refused as before."""
    held, peak = step_sizes(registry)
    room = held + peak + STEP_FORM  # for the step and its form beside what letters_setup holds
    d = opened(
        registry,
        "uncaptured",
        budget=device.DeviceBudget(room) if whose == "actor" else device.DeviceBudget(total_bytes=room),
    )
    letters_setup(d)
    for text in TEXTS[:2]:
        d.request("run", A, letters(text, training(9, "adam")))
    assert usage(d)["kept_bytes"] == STEP_FORM
    caller = A if whose == "actor" else b"actor-b\x01"
    floats = (peak - entry_bytes("bias", Meta((0,)))) // 4 + 1  # fits beside what A held, not beside its form too
    more = entry_bytes("bias", Meta((floats,)))
    d.request("params", caller, [{"name": "bias", "shape": [floats], "init": {"zeros": None}}])
    assert (usage(d)["kept"], d.holdings.by_caller[A] + d.holdings.by_caller.get(b"actor-b\x01", 0)) == (0, held + more)
    with pytest.raises(device.DeviceError, match="its budget is"):
        d.request("params", caller, [{"name": "more", "shape": [STEP_FORM], "init": {"zeros": None}}])
    d.close()


def test_the_setting(registry):
    with pytest.raises(device.DeviceError, match="--cuda-graphs on: torch:cpu has no CUDA graphs"):
        TorchBackend("torch:cpu", settings=flags(registry, "on"))
    with pytest.raises(settings.SettingsError, match="--cuda-graphs yes: expected on, off or uncaptured"):
        flags(registry, "yes")
    assert TorchBackend("torch:cpu", settings=flags(registry, "off")).static is None
    given = flags(registry, "uncaptured").every_rank_flags()
    assert given[given.index("--cuda-graphs") + 1] == "uncaptured"
    (declared,) = [s for s in plugins.load(["torch"])[0].settings if s.flag == "cuda-graphs"]
    assert "Not yet measured on a GPU by this project" in declared.help


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_on_a_gpu_the_captured_step_gives_the_uncaptured_numbers(registry, caplog):
    """On torch:cuda, --cuda-graphs on against off: the Shakespeare step captured (each part of it) and
    replayed, with the uncaptured path's losses (the tolerance of test_device.py's match with eager
    PyTorch) and weights."""
    cfg = device_step.Config(n_layer=2, n_head=2, n_embd=32, block=16, batch=4)
    start, data = device_step.weights(cfg), device_step.batches(cfg, 8)

    def session(graphs):
        d = device.open_device(registry, "torch:cuda", settings=flags(registry, graphs))
        gpt = device_step.DeviceGPT(cfg, start, on=d)
        losses = [gpt.step(gpt.arg(seq, 3e-3 * (1 + i % 3))) for i, seq in enumerate(data)]
        weights = read(d, gpt.CALLER, *({"param": n} for n in start))
        captured = [part.captured for form in kept(d) for part in (form.compute, form.update)]
        d.close()
        return losses, weights, captured

    with caplog.at_level(logging.WARNING, "moxzi.torch"):
        plain, graphed = session("off"), session("on")
    assert FALLBACK not in caplog.text
    assert graphed[2] == [True, True]
    np.testing.assert_allclose(graphed[0], plain[0], rtol=1e-5)
    for a, b in zip(graphed[1], plain[1], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-6)


@pytest.mark.slow
def test_moxzid_takes_the_flag_and_says_it_is_unmeasured():
    shown = moxzid("--plugins", "torch", "--help-all")
    assert shown.returncode == 0, shown.stderr
    assert "--cuda-graphs on|off|uncaptured" in shown.stdout
    assert "Not yet measured on a GPU by this project" in " ".join(shown.stdout.split())
    refused = moxzid("--plugins", "torch", "--device", "torch:cpu", "--cuda-graphs", "on", "plugins")
    assert refused.returncode == 2
    assert "moxzid: error: --cuda-graphs on: torch:cpu has no CUDA graphs" in refused.stderr
