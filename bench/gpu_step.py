"""Seed 003's training step on a GPU, side by side: plain eager PyTorch, PyTorch with
``torch.compile(mode="reduce-overhead")``, the tensor device, the device with ``--cuda-graphs on``, and
gpt.mo through moxzid (without and with graphs).

    python bench/gpu_step.py [--device torch:cuda] [--steps 30] [--configs seed,big] [--no-compile]

The ways before moxzid train the same model from the same weights on the same batches
(bench/device_step.py's: the tests' reference model, RMSNorm, rotary positions, ReLU, AdamW, clip 1.0),
one step after another, each step's loss read back (as an actor reads it); compile, and the device's
graphs, warm up before they are timed. Off CUDA the graphs rows run ``--cuda-graphs uncaptured`` (the
static form without graphs), so the script runs there too. The moxzid rows are
examples/shakespeare/gpt.mo's ``train(steps)`` over HTTP (its own weights and batches, drawn by the
actor: the same shapes and work), the big config's with the example's five size constants replaced.
Configs: ``seed`` (4 layers, 4 heads, 128 wide, block 64, batch 12) and ``big`` (12 layers, 12 heads,
768 wide, block 256, batch 16); both by default on CUDA, the seed's alone elsewhere (a big step takes
most of a minute on one CPU thread). Prints ms/step (median) and the ratio to eager per config, with
the GPU, torch and driver versions. Meant to finish in one command within 10 minutes on one GPU;
``--device torch:cpu --no-compile --steps 3`` checks it on a machine without one.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import re
import statistics
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import device_step
import numpy as np
import torch
from actor_path import TEXT, device_counters
from moxzid import serving

from moxzi_core.build import BuildResult, build

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "shakespeare" / "gpt.mo"
CONFIGS = {
    "seed": device_step.Config(),
    "big": device_step.Config(n_layer=12, n_head=12, n_embd=768, block=256, batch=16),
}
# gpt.mo's size constants, by the Config field each is.
SIZES = {"n_layer": "nLayer", "n_head": "nHead", "n_embd": "nEmbd", "block": "blockSize", "batch": "batchSize"}
WARMUP = 5  # steps before timing (compile's first steps compile and record its graphs)
LR = device_step.ADAMW["lr"]


def eager_on(cfg: device_step.Config, start: dict, where: torch.device) -> device_step.EagerGPT:
    """The tests' reference model and its AdamW, on ``where``."""
    model = device_step.EagerGPT(cfg, start)
    model.p = {n: t.detach().to(where).requires_grad_(True) for n, t in model.p.items()}
    model.cos, model.sin = model.cos.to(where), model.sin.to(where)
    a = device_step.ADAMW
    model.opt = torch.optim.AdamW(
        model.p.values(), lr=a["lr"], betas=(a["beta1"], a["beta2"]), eps=a["eps"], weight_decay=a["weight_decay"]
    )
    return model


def compiled_on(cfg: device_step.Config, start: dict, where: torch.device) -> device_step.EagerGPT:
    """The same, its loss (forward and backward) compiled with mode="reduce-overhead" (CUDA graphs)."""
    model = eager_on(cfg, start, where)
    model.loss = torch.compile(model.loss, mode="reduce-overhead")
    return model


def ms_per_step(step: Callable[[object], float], batches: list) -> tuple[float, list[float]]:
    """Median ms of ``step(batch)`` over ``batches`` after WARMUP of them; the first losses."""
    losses = [step(b) for b in batches[:WARMUP]]
    times = []
    for b in batches[WARMUP:]:
        started = time.perf_counter()
        step(b)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1e3, losses[:3]


def actor_for(cfg: device_step.Config, folder: Path) -> BuildResult:
    """gpt.mo built for ``cfg`` in ``folder``: the example with its size constants set to ``cfg``'s."""
    source = EXAMPLE.read_text()
    for field, name in SIZES.items():
        source, n = re.subn(rf"let {name} = \d+;", f"let {name} = {getattr(cfg, field)};", source)
        assert n == 1, f"gpt.mo has {n} lines `let {name} = ...;`"
    (folder / "gpt.mo").write_text(source)
    return build(folder / "gpt.mo", out_dir=folder / "built")


def through_moxzid(args, gpt: BuildResult, graphs: str) -> tuple[float, float, int]:
    """(wall ms, device ms) per step of gpt.mo (built at ``gpt``)'s train(steps) through moxzid on
    ``args.device`` with ``--cuda-graphs graphs``, and how many plans its log says ran uncaptured."""
    steps = args.steps
    with tempfile.TemporaryDirectory() as folder:
        flags = ["--device", args.device, "--device-threads", str(args.device_threads), "--cuda-graphs", graphs]
        with serving(Path(folder), *flags, plugins="http,torch,console", gpt=gpt) as daemon:

            def call(method: str, *values):
                request = urllib.request.Request(f"{daemon.url}/call-json/gpt/{method}", json.dumps(values).encode())
                with urllib.request.urlopen(request, timeout=600) as answer:
                    return json.loads(answer.read())

            call("load", args.text.read_text())
            call("train", WARMUP)
            seconds, calls = device_counters(daemon.url, "gpt")
            started = time.perf_counter()
            call("train", steps)
            wall = time.perf_counter() - started
            seconds_after, calls_after = device_counters(daemon.url, "gpt")
            uncaptured = daemon.log.read_text().count("runs uncaptured")
    assert calls_after - calls == steps, (calls, calls_after)
    return wall / steps * 1e3, (seconds_after - seconds) / steps * 1e3, uncaptured


def versions(where: torch.device) -> str:
    if where.type != "cuda":
        return f"torch {torch.__version__}, {where.type}"
    driver = "?"
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        driver = subprocess.run(
            ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"], capture_output=True, text=True
        ).stdout.strip()
    return (
        f"{torch.cuda.get_device_name(where)}, torch {torch.__version__} (CUDA {torch.version.cuda}), driver {driver}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="torch:cuda", help="the device's spec (default torch:cuda)")
    parser.add_argument("--steps", type=int, default=30, help="timed steps per way (default 30)")
    parser.add_argument("--configs", help="seed, big or seed,big (default: both on CUDA, seed elsewhere)")
    parser.add_argument("--device-threads", type=int, default=1, help="torch's CPU threads, every way (default 1)")
    parser.add_argument("--no-compile", action="store_true", help="leave torch.compile out")
    parser.add_argument("--text", type=Path, default=TEXT, help=f"tiny Shakespeare for gpt.mo (default {TEXT})")
    args = parser.parse_args()
    where = torch.device(args.device.split(":", 1)[1])
    torch.set_num_threads(args.device_threads)
    graphs = "on" if where.type == "cuda" else "uncaptured"
    print(versions(where), flush=True)
    built = tempfile.TemporaryDirectory()
    for name in (args.configs or ("seed,big" if where.type == "cuda" else "seed")).split(","):
        cfg = CONFIGS[name]
        start = device_step.weights(cfg)
        data = device_step.batches(cfg, WARMUP + args.steps)
        seqs = [torch.from_numpy(s.astype(np.int64)).to(where) for s in data]
        rows: dict[str, tuple[float, list[float] | None]] = {}
        eager = eager_on(cfg, start, where)
        rows["eager PyTorch"] = ms_per_step(functools.partial(eager.step, lr=LR), seqs)
        if not args.no_compile:
            compiled = compiled_on(cfg, start, where)
            rows['torch.compile("reduce-overhead")'] = ms_per_step(functools.partial(compiled.step, lr=LR), seqs)
        for mode, way in (("off", "device (Candid in/out)"), (graphs, f"device, --cuda-graphs {graphs}")):
            dev = device_step.DeviceGPT(cfg, start, spec=args.device, threads=args.device_threads, graphs=mode)
            calls = [dev.arg(s, LR) for s in data]
            rows[way] = ms_per_step(dev.step, calls)
            dev.device.close()
        (Path(built.name) / name).mkdir()
        gpt = actor_for(cfg, Path(built.name) / name)
        moxzid = {m: through_moxzid(args, gpt, m) for m in ("off", graphs)}
        base = rows["eager PyTorch"][0]
        print(
            f"\n{name}: {cfg.n_layer} layers, {cfg.n_head} heads, {cfg.n_embd} wide, block {cfg.block}, "
            f"batch {cfg.batch}; median of {args.steps} steps after {WARMUP}"
        )
        print(f"{'way':56}{'ms/step':>10}{'/ eager':>10}   first losses")
        for way, (ms, losses) in rows.items():
            print(f"{way:56}{ms:10.2f}{ms / base:10.2f}   {[round(x, 5) for x in losses or []]}")
        for mode, (wall, device, uncaptured) in moxzid.items():
            way = "gpt.mo train() through moxzid" + ("" if mode == "off" else f", --cuda-graphs {mode}")
            note = f"; {uncaptured} plan(s) uncaptured, see its log" if uncaptured else ""
            print(f"{way:56}{wall:10.2f}{wall / base:10.2f}   (device {device:.2f} ms/step{note})")
    built.cleanup()


if __name__ == "__main__":
    main()
