"""The Triton plugin (plugins/device_triton) in Triton's interpreter on the CPU: flash attention's
forward and gradients against a float64 reference, fused AdamW against torch.optim.AdamW, short
training runs with and without the plugin (through the device, with the clip fused into the AdamW step
or not, and through moxzid), device snapshots restored onto either AdamW, what ``moxzid plugins`` shows,
and the refusal to load without a GPU.

Triton decides interpreter or GPU when the ``@triton.jit`` functions are defined (its own included, when
triton is first imported, and again in what it imports lazily at the first launch), so TRITON_INTERPRET=1
is set only while this module imports triton and the plugin, and while its tests run: other test
modules never see it. The plugin is not installed in the test environment (without a GPU it refuses to
load, which would break loading every installed plugin there); ``plugin_site`` gives it its entry point
here.

Tolerances, as the largest error relative to the largest magnitude of the reference: float32 1e-5,
float16 3e-3, bfloat16 2.5e-2 (the interpreter truncates float32 to bfloat16 where a GPU rounds).
"""

import importlib.util
import io
import math
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest
import torch
from kit.crashing import call
from kit.daemon import moxzid, project, running_moxzid
from kit.device import read, run_arg, snapshot, training

from moxzi_core import device, plugins
from moxzi_core.candid import Some

pytestmark = pytest.mark.slow  # Triton's interpreter and training through moxzid

if importlib.util.find_spec("triton") is None:
    pytest.skip("the Triton plugin's tests need triton==3.9.0 (plugins/device_triton)", allow_module_level=True)
if "triton" in sys.modules and os.environ.get("TRITON_INTERPRET") != "1":
    # triton.language defines its own @triton.jit helpers (tl.cdiv, tl.sum, ...) when first imported
    raise RuntimeError("triton was imported before tests/test_device_triton.py could set TRITON_INTERPRET=1")

ROOT = Path(__file__).resolve().parents[3]
PLUGIN = ROOT / "plugins" / "device_triton"

_before = os.environ.get("TRITON_INTERPRET")
os.environ["TRITON_INTERPRET"] = "1"  # before the plugin's @triton.jit functions are defined
sys.path.insert(0, str(PLUGIN))
try:
    import moxzi_device_triton
    from moxzi_device_triton import FusedAdamW, flash_attention
finally:
    sys.path.remove(str(PLUGIN))
    if _before is None:
        del os.environ["TRITON_INTERPRET"]
    else:
        os.environ["TRITON_INTERPRET"] = _before

sys.path.insert(0, str(ROOT / "bench"))
import device_step  # noqa: E402  (bench/ is put on sys.path just above)

TOLERANCE = {torch.float32: 1e-5, torch.float16: 3e-3, torch.bfloat16: 2.5e-2}


def _dist_info(folder: Path) -> None:
    """A .dist-info for the plugin with the entry point its pyproject.toml declares, as pip makes it."""
    project = tomllib.loads((PLUGIN / "pyproject.toml").read_text())["project"]
    info = folder / f"moxzi_device_triton-{project['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n")
    points = "".join(f"{name} = {target}\n" for name, target in project["entry-points"]["moxzi"].items())
    (info / "entry_points.txt").write_text(f"[moxzi]\n{points}")


@pytest.fixture(scope="module")
def plugin_site(tmp_path_factory):
    """A folder on sys.path that makes the plugin installed, for ``plugins.load``."""
    folder = tmp_path_factory.mktemp("site")
    _dist_info(folder)
    sys.path.insert(0, str(folder))
    yield folder
    sys.path.remove(str(folder))


@pytest.fixture
def installed_for_subprocesses(plugin_site, monkeypatch):
    """The plugin installed for the Python processes a test starts (moxzid) too."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(plugin_site), str(PLUGIN), os.environ.get("PYTHONPATH", "")]))


@pytest.fixture(scope="module")
def registries(plugin_site):
    """(torch alone, torch and triton)."""
    with_triton = plugins.load(["torch", "triton"])
    assert with_triton[1]["triton"].distribution == "moxzi-device-triton"
    return plugins.load(["torch"])[0], with_triton


@pytest.fixture(scope="module", autouse=True)
def interpreter_and_one_torch_thread():
    before = torch.get_num_threads()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TRITON_INTERPRET", "1")
        torch.set_num_threads(1)
        yield
    torch.set_num_threads(before)


# --- attention ---------------------------------------------------------------------------------------
def reference_attention(q, k, v, causal):
    """softmax(q k^T / sqrt(d) + mask) v in float64, query i at key position tk - tq + i."""
    q, k, v = (t.double() for t in (q, k, v))
    tq, tk = q.shape[2], k.shape[2]
    scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    if causal:
        scores = scores.masked_fill(~torch.ones(tq, tk, dtype=torch.bool).tril(tk - tq), float("-inf"))
    return scores.softmax(-1) @ v


def relative_error(got, want):
    return ((got.double() - want).abs().max() / want.abs().max()).item()


@pytest.mark.parametrize(
    "b, h, tq, tk, d, causal, dtype",
    [
        (2, 2, 64, 64, 64, True, torch.float32),  # exactly one tile
        (1, 2, 37, 37, 16, True, torch.float32),  # a partial tile, the smallest head size
        (1, 1, 100, 100, 24, True, torch.float32),  # two tiles, the second partial; head size padded to 32
        (1, 2, 5, 70, 32, True, torch.float32),  # a key/value cache: 5 new queries over 70 keys
        (1, 1, 1, 33, 16, True, torch.float32),  # decoding one position
        (1, 1, 70, 45, 16, False, torch.float32),  # no mask, more queries than keys
        (1, 1, 40, 40, 128, True, torch.float32),  # the largest head size
        (1, 2, 50, 50, 32, True, torch.float16),
        (1, 2, 50, 50, 32, True, torch.bfloat16),
        (1, 1, 20, 67, 48, True, torch.bfloat16),
    ],
)
def test_flash_attention_matches_the_reference_forward_and_backward(b, h, tq, tk, d, causal, dtype):
    gen = torch.Generator().manual_seed(tq * 1000 + tk)
    q, k, v = (torch.randn(b, h, t, d, generator=gen).to(dtype).requires_grad_() for t in (tq, tk, tk))
    do = torch.randn(b, h, tq, d, generator=gen).to(dtype)
    out = flash_attention(q, k, v, causal)
    out.backward(do)
    got = [out, q.grad, k.grad, v.grad]
    assert all(t.dtype == dtype for t in got)

    leaves = [t.detach().double().requires_grad_() for t in (q, k, v)]
    want = reference_attention(*leaves, causal)
    want.backward(do.double())
    for name, g, w in zip(("out", "dq", "dk", "dv"), got, [want.detach()] + [t.grad for t in leaves]):
        assert relative_error(g, w) < TOLERANCE[dtype], name


def test_strided_operands_and_the_device_kernels_fallback(registries):
    """q, k, v as views of one qkv tensor (as a model makes them); the device sends shapes flash attention
    does not support to torch's kernel (the Kernel's ``applies``)."""
    gen = torch.Generator().manual_seed(0)
    qkv = torch.randn(2, 20, 3, 2, 16, generator=gen).permute(2, 0, 3, 1, 4)  # 3 x [b, h, t, d], strided
    q, k, v = qkv.unbind(0)
    want = reference_attention(q, k, v, True)
    assert relative_error(moxzi_device_triton._causal_attention(None, q, k, v), want) < 1e-5
    cached = moxzi_device_triton._attention({"causal": None}, q[:, :, 13:], k, v)  # 7 queries, 20 keys
    assert relative_error(cached, reference_attention(q[:, :, 13:], k, v, True)) < 1e-5
    no_mask = moxzi_device_triton._attention({"causal": Some(False)}, q, k, v)
    assert relative_error(no_mask, reference_attention(q, k, v, False)) < 1e-5
    wide_v = torch.randn(2, 2, 20, 24, generator=gen)  # v's head size differs from q's: torch's kernel
    assert not moxzi_device_triton.supports(q, k, wide_v)
    dev = device.open_device(registries[1][0], "torch:cpu")
    try:
        assert dev.providers["attention"] == "triton"
        assert (
            relative_error(
                dev.kernels["attention"]({"causal": None}, q, k, wide_v), reference_attention(q, k, wide_v, True)
            )
            < 1e-5
        )
    finally:
        dev.close()


# --- AdamW -------------------------------------------------------------------------------------------
SHAPES = [(7,), (33, 17), (1000,), (9000,), (2, 3, 5)]


def _grads(step: int):
    gen = torch.Generator().manual_seed(step)
    return [torch.randn(s, generator=gen) for s in SHAPES]


@pytest.mark.parametrize("beta1, weight_decay", [(0.9, 0.1), (0.3, 0.0)])  # lerp's two forms
def test_fused_adamw_matches_torch_over_many_steps(beta1, weight_decay):
    start = [torch.randn(s, generator=torch.Generator().manual_seed(i)) for i, s in enumerate(SHAPES)]
    ref = [p.clone().requires_grad_() for p in start]
    ours = [p.clone().requires_grad_() for p in start]
    torch_adamw = torch.optim.AdamW(ref, lr=1e-3, betas=(beta1, 0.99), eps=1e-8, weight_decay=weight_decay)
    fused = FusedAdamW(torch.device("cpu"), beta1, 0.99, 1e-8, weight_decay)
    for step in range(50):
        lr = 1e-2 * (1 + math.cos(math.pi * step / 50)) / 2  # a per-step learning rate
        for group in torch_adamw.param_groups:
            group["lr"] = lr
        for r, o, g in zip(ref, ours, _grads(step)):
            r.grad, o.grad = g.clone(), g.clone()
        torch_adamw.step()
        fused.step([(f"p{i}", p) for i, p in enumerate(ours)], lr)
    for i, (r, o) in enumerate(zip(ref, ours)):
        # The same formula in the same order: mostly the same bits, else an ulp or two (torch:cpu's
        # vectorised sqrt is not correctly rounded).
        torch.testing.assert_close(o.detach(), r.detach(), rtol=2e-6, atol=1e-7)
        (steps, exp_avg, exp_avg_sq), want = fused.state[f"p{i}"], torch_adamw.state[r]
        assert steps == want["step"].item() == 50
        torch.testing.assert_close(exp_avg, want["exp_avg"], rtol=2e-6, atol=1e-9)
        torch.testing.assert_close(exp_avg_sq, want["exp_avg_sq"], rtol=2e-6, atol=1e-12)
    same = sum(int((o.detach() == r.detach()).sum()) for r, o in zip(ref, ours))
    assert same > 0.9 * sum(r.numel() for r in ref)


def test_fused_adamw_clips_a_forgotten_parameter_restarts_and_missing_grads_are_skipped():
    start = [torch.randn(s, generator=torch.Generator().manual_seed(i)) for i, s in enumerate(SHAPES)]
    ref = [p.clone().requires_grad_() for p in start]
    ours = [p.clone().requires_grad_() for p in start]
    torch_adamw = torch.optim.AdamW(ref, lr=1e-3, betas=(0.9, 0.95), eps=1e-8, weight_decay=0.1)
    fused = FusedAdamW(torch.device("cpu"), 0.9, 0.95, 1e-8, 0.1)
    for step in range(12):
        if step == 6:  # the device replaced parameter 1: its moments and step count start again
            fused.forget("p1")
            torch_adamw.state.pop(ref[1])
        grads = _grads(step)
        for i, (r, o, g) in enumerate(zip(ref, ours, grads)):
            skip = step % 4 == 3 and i == 2  # parameter 2 has no gradient this step
            r.grad, o.grad = (None, None) if skip else (g * 10, g * 10)
        torch.nn.utils.clip_grad_norm_([r for r in ref if r.grad is not None], 1.0, foreach=False)
        torch_adamw.step()
        fused.step([(f"p{i}", p) for i, p in enumerate(ours)], 1e-3, clip=1.0)
        assert all(o.grad is None or o.grad.abs().max() > 1 for o in ours)  # the gradients are not changed
    for r, o in zip(ref, ours):
        torch.testing.assert_close(o.detach(), r.detach(), rtol=1e-5, atol=1e-6)
    assert fused.state["p1"][0] == 6 and fused.state["p0"][0] == 12 and fused.state["p2"][0] == 9


# --- through the device ------------------------------------------------------------------------------
CFG = device_step.Config(n_layer=1, n_head=2, n_embd=32, block=16, batch=2)
TRAINER = b"trainer\x01"
LR = 1e-2


def shakespeare_device(registry, split: bool = False):
    """A torch:cpu device holding the small Shakespeare model and its AdamW ``adamw``. ``split``: the head
    in a second optimizer ``head`` with the same settings, which changes none of the numbers but makes the
    clip span two optimizers."""
    start = device_step.weights(CFG)
    dev = device.open_device(registry, "torch:cpu")
    dev.request(
        "params",
        TRAINER,
        [{"name": n, "shape": list(w.shape), "init": {"values": w.tobytes()}} for n, w in start.items()],
    )
    apart = ["head"] if split else []
    adamw = {"kind": None, **device_step.ADAMW, "lr": LR}
    dev.request("optimizer", TRAINER, adamw | {"name": "adamw", "params": [n for n in start if n not in apart]})
    if split:
        dev.request("optimizer", TRAINER, adamw | {"name": "head", "params": apart})
    return dev


def train(dev, batches, split: bool = False) -> list[float]:
    """A training step with clip 1 (the gradients' norm is above 1 on every step) per batch: the losses."""
    program, loss = device_step.loss_program(CFG)
    losses = []
    for seq in batches:
        run = run_arg(
            program,
            inputs=[{"data": seq.tobytes(), "elem": {"u8": None}, "shape": list(seq.shape)}],
            train=training(loss, "adamw", clip=1.0, lr=LR, also=["head"] if split else None),
            scalars=[loss],
        )
        losses.append(dev.request("run", TRAINER, run)["scalars"][0])
    return losses


def train_losses(registry, steps: int, split: bool = False) -> tuple[list[float], dict]:
    """``steps`` steps of ``train`` on a new ``shakespeare_device``: losses, and each op's provider."""
    dev = shakespeare_device(registry, split)
    losses = train(dev, device_step.batches(CFG, steps), split)
    providers = dict(dev.providers)
    dev.close()
    return losses, providers


@pytest.fixture(scope="module")
def torch_training(registries):
    """``train_losses`` of 8 steps with the torch plugin alone."""
    return train_losses(registries[0], 8)


@pytest.fixture
def clips(monkeypatch):
    """The ``clip`` each call of ``FusedAdamW.step`` is given."""
    seen = []
    step = FusedAdamW.step

    def spy(self, params, lr, clip=None):
        seen.append(clip)
        step(self, params, lr, clip)

    monkeypatch.setattr(FusedAdamW, "step", spy)
    return seen


def test_training_through_the_device_gives_the_same_losses_with_the_plugin(registries, torch_training, clips):
    _, (with_triton, _) = registries
    want, torch_providers = torch_training
    got, providers = train_losses(with_triton, 8)
    assert torch_providers["causal_attention"] == "torch" and torch_providers["optimizer:adamw"] == "torch:cpu"
    assert {providers[op] for op in ("causal_attention", "attention", "optimizer:adamw")} == {"triton"}
    assert providers["linear"] == "torch"
    assert clips == [1.0] * 8  # one optimizer: the clip goes into its fused step
    np.testing.assert_allclose(got, want, rtol=1e-5)
    assert got[-1] < got[0] - 0.5  # it learns


def test_a_clip_across_two_optimizers_covers_both(registries, torch_training, clips):
    """Clipped apart, each optimizer's gradients would be scaled by their own norm: other numbers."""
    _, (with_triton, _) = registries
    got, _ = train_losses(with_triton, 8, split=True)
    assert clips == [None] * 16  # the backend clipped before the two steps
    np.testing.assert_allclose(got, torch_training[0], rtol=1e-5)


def test_a_snapshot_with_the_fused_adamw_restores_exactly_and_on_the_torch_adamw(registries):
    """What device copies of a moxzid with the plugin need. Both AdamWs export their state in one form
    (``FusedAdamW`` inherits it), so a snapshot restores on either: on the same one it continues bit for
    bit; on the other, within the few ulps by which the two updates differ."""
    plain, (with_triton, _) = registries
    registry = {"triton": with_triton, "torch": plain}
    batches = device_step.batches(CFG, 4)
    kept = {name: shakespeare_device(r) for name, r in registry.items()}
    for dev in kept.values():
        train(dev, batches[:2])
    assert kept["triton"].providers["optimizer:adamw"] == "triton"
    snaps = {name: snapshot(dev) for name, dev in kept.items()}
    restored = {}
    for taken, onto in (("triton", "triton"), ("triton", "torch"), ("torch", "triton")):
        dev = restored[taken, onto] = device.open_device(registry[onto], "torch:cpu")
        dev.restore(io.BytesIO(snaps[taken]))
        assert snapshot(dev) == snaps[taken]  # step counts and moments, byte for byte

    def go(dev):  # the later calls: losses, then the parameters
        return train(dev, batches[2:]), read(dev, TRAINER, *({"param": n} for n in device_step.weights(CFG)))

    want = {name: go(dev) for name, dev in kept.items()}
    got = {pair: go(dev) for pair, dev in restored.items()}
    losses, params = got["triton", "triton"]
    assert losses == want["triton"][0]
    assert [p.tobytes() for p in params] == [p.tobytes() for p in want["triton"][1]]
    assert snapshot(restored["triton", "triton"]) == snapshot(kept["triton"])  # the moments too
    for taken, onto in (("triton", "torch"), ("torch", "triton")):
        # Measured: the parameters (at most 0.11, each step moving them about lr = 1e-2) part by at most
        # 8.7e-8; the losses come out equal.
        losses, params = got[taken, onto]
        np.testing.assert_allclose(losses, want[taken][0], rtol=1e-6)
        for p, w in zip(params, want[taken][1]):
            np.testing.assert_allclose(p, w, rtol=0, atol=2e-7)
    for dev in [*kept.values(), *restored.values()]:
        dev.close()


def moxzid_losses(folder: Path, plugin_names: str, steps: int) -> tuple[list[float], str]:
    """tests/actors/learner_attention.mo trained ``steps`` steps in a moxzid on torch:cpu with
    ``--plugins plugin_names``: its losses, and the daemon's log."""
    folder.mkdir()
    project(folder, learner="learner_attention")
    with running_moxzid("-m", "actors.json", "--device", "torch:cpu", "--plugins", plugin_names, cwd=folder) as daemon:
        [losses] = call(daemon, "call-json/learner/learn", [steps])
        return losses, daemon.log.read_text()


@pytest.mark.usefixtures("installed_for_subprocesses")  # and this module's TRITON_INTERPRET=1, one thread
def test_training_through_moxzid_gives_the_same_losses_with_the_plugin(tmp_path):
    want, torch_log = moxzid_losses(tmp_path / "torch", "http,torch", 6)
    got, log = moxzid_losses(tmp_path / "triton", "http,torch,triton", 6)
    assert "moxzid: device: torch:cpu, " in torch_log and "triton" not in torch_log
    assert "; triton kernels: attention, causal_attention, optimizer:adamw" in log
    # Flash attention and the fused AdamW with its clip (which binds on every step: without it the
    # losses part at the 5th digit by the 3rd step).
    np.testing.assert_allclose(got, want, rtol=1e-5)
    assert got[-1] < got[0] - 0.5  # it learns


def test_moxzid_plugins_lists_the_replaced_kernels(registries):
    _, (registry, loaded) = registries
    (line,) = [ln for ln in plugins.describe(registry, loaded) if ln.startswith("triton")]
    for what in (
        "kernel attention@torch:cuda",
        "kernel causal_attention@torch:cuda",
        "kernel optimizer:adamw@torch:cuda",
        "kernel causal_attention@torch:cpu",
    ):
        assert what in line


@pytest.mark.usefixtures("installed_for_subprocesses")
def test_moxzid_plugins_with_a_device_says_which_kernel_runs_each_op():
    done = moxzid("--device", "torch:cpu", "--plugins", "torch,triton", "plugins")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "device   torch:cpu: triton kernels: attention, causal_attention, optimizer:adamw" in lines
    (torch_line,) = [ln for ln in lines if ln.startswith("device   torch:cpu: torch kernels: ")]
    assert "linear" in torch_line and "attention" not in torch_line


@pytest.mark.usefixtures("installed_for_subprocesses")
def test_without_a_gpu_it_refuses_to_load():
    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    code = (
        "from moxzi_core import plugins\ntry:\n    plugins.load(['triton'])\nexcept plugins.PluginError as e:\n"
        "    print(e)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.stdout.startswith("plugin 'triton' failed to import: moxzi-device-triton needs a CUDA GPU"), (
        done.stdout + done.stderr
    )
    assert "TRITON_INTERPRET=1" in done.stdout
