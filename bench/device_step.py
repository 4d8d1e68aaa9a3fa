"""One training step of nanoGPT's Shakespeare laptop config: plain eager PyTorch vs the tensor device.

    python bench/device_step.py [--steps 20] [--rounds 5] [--device-threads 1]
    python bench/device_step.py --busy [--settings 1,2,0] [--competitors 2]

Both train the same model from the same weights on the same batches (the seed's gpt.mo: RMSNorm,
rotary positions, ReLU, AdamW, clip 1.0). The device path is what an actor's call costs on the device:
decoding the Candid argument, finding the checked plan, forward, backward, clip, AdamW, encoding the
reply (encoding the argument is the actor's work and is not timed). Rounds alternate between the two so
a busy machine slows both alike. Prints wall-clock and CPU ms/step medians and the ratios (CPU time of
the process is the steadier number on a shared machine), and the first losses of both.

``--busy`` measures the device's thread policy instead: the device path alone, for each
``--device-threads`` setting (0: auto), on the machine as it is ("quiet") and with ``--competitors``
CPU-bound processes the bench starts and stops itself ("busy"; each ends by itself after
``COMPETITOR_SECS`` at most), rounds alternating. Prints median and p90 ms/step of each, one table.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "tinyshakespeare.txt"
ADAMW = dict(lr=1e-3, beta1=0.9, beta2=0.99, eps=1e-8, weight_decay=0.1)
COMPETITOR_SECS = 600  # a competing process ends by itself after this, even if the bench is killed


@dataclass(frozen=True)
class Config:
    vocab: int = 65
    n_layer: int = 4
    n_head: int = 4
    n_embd: int = 128
    block: int = 64
    batch: int = 12


def weights(cfg: Config, seed: int = 1337) -> dict[str, np.ndarray]:
    """The seed's starting weights (normal, std 0.02; residual projections scaled by 1/sqrt(2 layers))."""
    rng = np.random.default_rng(seed)
    d, std = cfg.n_embd, 0.02
    proj = std / math.sqrt(2 * cfg.n_layer)
    shapes = {"wte": ((cfg.vocab, d), std)}
    for i in range(cfg.n_layer):
        shapes |= {
            f"h{i}.qkv": ((3 * d, d), std),
            f"h{i}.proj": ((d, d), proj),
            f"h{i}.fc": ((4 * d, d), std),
            f"h{i}.out": ((d, 4 * d), proj),
        }
    shapes["head"] = ((cfg.vocab, d), std)
    return {n: (rng.standard_normal(s) * sd).astype(np.float32) for n, (s, sd) in shapes.items()}


def loss_program(cfg: Config) -> tuple[list[dict], int]:
    """The seed's lossProgram: input 0 is [batch, block + 1] token ids; returns (ops, loss register)."""
    ops: list[dict] = []

    def op(tag, payload):
        ops.append({tag: payload})
        return len(ops) - 1

    b, t, d, hd = cfg.batch, cfg.block, cfg.n_embd, cfg.n_embd // cfg.n_head

    def heads(x):  # [b, t, d] -> [b, heads, t, head size]
        return op("transpose", {"x": op("reshape", {"x": x, "shape": [b, t, cfg.n_head, hd]}), "a": 1, "b": 2})

    def linear(x, w):
        return op("linear", {"x": x, "w": op("param", w), "b": None})

    seq = op("input", 0)
    inputs = op("narrow", {"x": seq, "dim": 1, "start": 0, "len": t})
    targets = op("reshape", {"x": op("narrow", {"x": seq, "dim": 1, "start": 1, "len": t}), "shape": [b * t]})
    x = op("embedding", {"table": op("param", "wte"), "ids": inputs})
    for i in range(cfg.n_layer):
        qkv = linear(op("rms_norm", x), f"h{i}.qkv")
        q = op("rope", heads(op("narrow", {"x": qkv, "dim": 2, "start": 0, "len": d})))
        k = op("rope", heads(op("narrow", {"x": qkv, "dim": 2, "start": d, "len": d})))
        v = heads(op("narrow", {"x": qkv, "dim": 2, "start": 2 * d, "len": d}))
        att = op("causal_attention", {"q": q, "k": k, "v": v})
        merged = op("reshape", {"x": op("transpose", {"x": att, "a": 1, "b": 2}), "shape": [b, t, d]})
        x = op("add", {"a": x, "b": linear(merged, f"h{i}.proj")})
        hidden = op("relu", linear(op("rms_norm", x), f"h{i}.fc"))
        x = op("add", {"a": x, "b": linear(hidden, f"h{i}.out")})
    logits = linear(op("rms_norm", x), "head")
    flat = op("reshape", {"x": logits, "shape": [b * t, cfg.vocab]})
    return ops, op("cross_entropy", {"logits": flat, "targets": targets})


def batches(cfg: Config, steps: int, seed: int = 0) -> list[np.ndarray]:
    """``steps`` batches of [batch, block + 1] token ids from tiny Shakespeare (random ids without it)."""
    rng = np.random.default_rng(seed)
    if DATA.exists():
        text = np.frombuffer(DATA.read_bytes(), dtype=np.uint8)
        ids = np.searchsorted(np.unique(text), text).astype(np.uint8)
    else:
        ids = rng.integers(0, cfg.vocab, 100_000, dtype=np.uint8)
    starts = rng.integers(0, len(ids) - cfg.block - 1, (steps, cfg.batch))
    return [np.stack([ids[s : s + cfg.block + 1] for s in row]) for row in starts]


class EagerGPT:
    """The same model as ``loss_program``, written directly in PyTorch."""

    def __init__(self, cfg: Config, start: dict[str, np.ndarray]):
        import torch

        self.cfg = cfg
        self.p = {n: torch.tensor(w, requires_grad=True) for n, w in start.items()}
        hd = cfg.n_embd // cfg.n_head  # rotary tables for positions 0..block-1, [block, hd / 2]
        angles = torch.arange(cfg.block, dtype=torch.float64)[:, None] * 10000.0 ** (
            -torch.arange(0, hd, 2, dtype=torch.float64) / hd
        )
        self.cos, self.sin = angles.cos().float(), angles.sin().float()
        self.opt = torch.optim.AdamW(
            self.p.values(),
            lr=ADAMW["lr"],
            betas=(ADAMW["beta1"], ADAMW["beta2"]),
            eps=ADAMW["eps"],
            weight_decay=ADAMW["weight_decay"],
        )

    def loss(self, seq):
        import torch
        import torch.nn.functional as F

        cfg, p = self.cfg, self.p
        b, t, d = cfg.batch, cfg.block, cfg.n_embd
        hd = d // cfg.n_head
        half = hd // 2
        cos, sin = self.cos[:t], self.sin[:t]

        def rope(x):  # [b, h, t, hd]
            x1, x2 = x[..., :half], x[..., half:]
            return torch.cat((x1 * cos - x2 * sin, x1 * sin + x2 * cos), -1)

        def norm(x):
            return F.rms_norm(x, (d,), eps=1e-5)

        x = F.embedding(seq[:, :t], p["wte"])  # [b, t, d]
        for i in range(cfg.n_layer):
            q, k, v = F.linear(norm(x), p[f"h{i}.qkv"]).split(d, dim=2)  # each [b, t, d]
            q, k, v = (z.reshape(b, t, cfg.n_head, hd).transpose(1, 2) for z in (q, k, v))
            att = F.scaled_dot_product_attention(rope(q), rope(k), v, is_causal=True)  # [b, h, t, hd]
            x = x + F.linear(att.transpose(1, 2).reshape(b, t, d), p[f"h{i}.proj"])
            x = x + F.linear(F.relu(F.linear(norm(x), p[f"h{i}.fc"])), p[f"h{i}.out"])
        logits = F.linear(norm(x), p["head"])  # [b, t, vocab]
        return F.cross_entropy(logits.reshape(b * t, cfg.vocab), seq[:, 1:].reshape(b * t))

    def step(self, seq, lr: float) -> float:
        import torch

        loss = self.loss(seq)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(list(self.p.values()), 1.0, foreach=False)
        for g in self.opt.param_groups:
            g["lr"] = lr
        self.opt.step()
        self.opt.zero_grad(set_to_none=True)
        return loss.item()


class DeviceGPT:
    """The model on the tensor device, called as an actor would: Candid bytes in, Candid bytes out."""

    CALLER = b"bench\x01"

    def __init__(
        self,
        cfg: Config,
        start: dict[str, np.ndarray],
        spec: str = "torch:cpu",
        on=None,
        threads: int = 1,
        graphs: str = "off",
    ):
        """On a new device for ``spec`` with ``--device-threads threads`` and ``--cuda-graphs graphs``, or
        the device ``on``."""
        from moxzi_core import device, plugins, settings
        from moxzi_core.candid import Some, decode_args, encode_args

        self.cfg, self.Some, self.encode, self.decode = cfg, Some, encode_args, decode_args
        if on is None:
            registry = plugins.load(["torch"])[0]
            flags = settings.from_sources({"device_threads": str(threads), "cuda_graphs": graphs}, registry.settings)
            on = device.open_device(registry, spec, settings=flags)
        self.device = on
        for name, w in start.items():
            self.device.request(
                "params", self.CALLER, [{"name": name, "shape": list(w.shape), "init": {"values": w.tobytes()}}]
            )
        self.device.request("optimizer", self.CALLER, {"name": "adamw", "params": list(start), "kind": None, **ADAMW})
        self.program, self.loss_reg = loss_program(cfg)
        self.run_type = self.device.types["moxzi_device_run"]

    def run(self, seq: np.ndarray, lr: float | None, split: bool = False) -> dict:
        """The run record of the loss on a batch: a training step at ``lr`` (AdamW, clip 1.0), or the
        loss alone with ``lr`` None; ``split``: the batch's rows split across ranks."""
        train = {"loss": self.loss_reg, "optimizer": "adamw", "clip": self.Some(1.0), "lr": self.Some(lr), "also": None}
        return {
            "inputs": [{"data": seq.astype(np.uint8).tobytes(), "elem": {"u8": None}, "shape": list(seq.shape)}],
            "program": self.program,
            "train": None if lr is None else self.Some(train),
            "scalars": [self.loss_reg],
            "tensors": [],
            "split": self.Some([0]) if split else None,
        }

    def arg(self, seq: np.ndarray, lr: float, split: bool = False) -> bytes:
        """What the actor sends for one training step; ``split``: the batch's rows split across ranks."""
        return self.encode(self.run_type.args, [self.run(seq, lr, split)])

    def step(self, arg: bytes) -> float:
        outcome = self.device.call("moxzi_device_run", self.CALLER, arg)
        if outcome.reply is None:
            raise RuntimeError(outcome.reject_message)
        return self.decode(outcome.reply, self.run_type.rets)[0]["scalars"][0]


@contextlib.contextmanager
def competitors(count: int):
    """``count`` CPU-bound processes (each spins for at most COMPETITOR_SECS), ended on leaving."""
    spin = f"import time\nend = time.monotonic() + {COMPETITOR_SECS}\nwhile time.monotonic() < end: pass"
    procs = [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(count)]
    try:
        time.sleep(0.5)  # let the scheduler see them as busy
        yield
    finally:
        for p in procs:
            p.kill()
            p.wait()


def thread_policy(args) -> None:
    """The device's step time for each --device-threads setting, quiet and busy: median and p90."""
    from moxzi_device_torch.threads import intra_op_threads

    cfg = Config()
    start = weights(cfg)
    data = batches(cfg, args.steps)
    lr = ADAMW["lr"]
    settings = [int(v) for v in args.settings.split(",")]
    times: dict[tuple[int, str], list[float]] = {(t, load): [] for t in settings for load in ("quiet", "busy")}
    losses: dict[int, list[float]] = {}
    for _ in range(args.rounds):
        for load in ("quiet", "busy"):
            with competitors(args.competitors) if load == "busy" else contextlib.nullcontext():
                for threads in settings:
                    dev = DeviceGPT(cfg, start, threads=threads)
                    calls = [dev.arg(s, lr) for s in data]
                    first = [dev.step(a) for a in calls[:2]]  # checks and caches the program
                    losses.setdefault(threads, first)
                    assert first == losses[threads], "a device with one thread count gave other numbers"
                    for a in calls[2:]:
                        wall = time.perf_counter()
                        dev.step(a)
                        times[threads, load].append(time.perf_counter() - wall)
                    dev.device.close()
    load = os.getloadavg()
    print(
        f"device step (nanoGPT Shakespeare laptop config), {args.rounds} rounds x {args.steps - 2} steps; "
        f"busy: {args.competitors} spinning processes; {len(os.sched_getaffinity(0))} cores, "
        f"load average at the end {load[0]:.1f}"
    )
    print(
        f"{'--device-threads':<18}{'threads':>8}{'quiet med':>11}{'p90':>9}{'busy med':>10}{'p90':>9}{'busy p90/med':>14}"
    )
    for threads in settings:
        (qm, qp), (bm, bp) = (
            (statistics.median(v), statistics.quantiles(v, n=10)[-1])
            for v in (times[threads, "quiet"], times[threads, "busy"])
        )
        name = f"{threads} (auto)" if threads == 0 else str(threads)
        print(
            f"{name:<18}{intra_op_threads(threads):>8}{qm * 1e3:>11.1f}{qp * 1e3:>9.1f}{bm * 1e3:>10.1f}"
            f"{bp * 1e3:>9.1f}{bp / bm:>14.2f}"
        )
    print("first losses per setting:", {t: [round(x, 6) for x in v] for t, v in losses.items()})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20, help="steps per round and path")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--device-threads", type=int, default=1, help="torch threads of both paths")
    parser.add_argument("--busy", action="store_true", help="the thread policy table instead (see above)")
    parser.add_argument("--settings", default="1,2,0", help="with --busy: the --device-threads values")
    parser.add_argument("--competitors", type=int, default=len(os.sched_getaffinity(0)), help="with --busy")
    args = parser.parse_args()
    if args.busy:
        thread_policy(args)
        return
    import torch

    cfg = Config()
    start = weights(cfg)
    data = batches(cfg, args.steps * args.rounds + 3)
    dev = DeviceGPT(cfg, start, threads=args.device_threads)  # its calls here set this thread's count for both
    eager = EagerGPT(cfg, start)
    nparams = sum(w.size for w in start.values())
    lr = ADAMW["lr"]

    # Warm up both (the device checks and caches the program on its first step) and compare losses.
    first = [(eager.step(torch.from_numpy(s.astype(np.int64)), lr), dev.step(dev.arg(s, lr))) for s in data[:3]]
    # Wall-clock time, and CPU time of this process, which a busy machine disturbs less.
    times = {"eager PyTorch": ([], []), "device (Candid in/out)": ([], [])}

    def timed(name, fn, arg):
        wall, cpu = time.perf_counter(), time.process_time()
        fn(arg)
        times[name][0].append(time.perf_counter() - wall)
        times[name][1].append(time.process_time() - cpu)

    at = 3
    for _ in range(args.rounds):
        chunk = data[at : at + args.steps]
        at += args.steps
        for s in [torch.from_numpy(s.astype(np.int64)) for s in chunk]:
            timed("eager PyTorch", lambda x: eager.step(x, lr), s)
        for a in [dev.arg(s, lr) for s in chunk]:
            timed("device (Candid in/out)", dev.step, a)

    print(
        f"nanoGPT Shakespeare laptop config: {cfg.n_layer} layers, {cfg.n_head} heads, {cfg.n_embd} wide, "
        f"block {cfg.block}, batch {cfg.batch}, {nparams:,} params; torch {torch.__version__}, "
        f"{torch.get_num_threads()} threads, {args.rounds} x {args.steps} steps each"
    )
    print(f"first 3 losses  eager {[round(a, 6) for a, _ in first]}  device {[round(b, 6) for _, b in first]}")
    base_wall, base_cpu = (statistics.median(t) for t in times["eager PyTorch"])
    print(f"{'path':<26}{'wall ms/step':>14}{'p10':>8}{'p90':>8}{'ratio':>8}{'cpu ms/step':>13}{'ratio':>8}")
    for name, (wall, cpu) in times.items():
        q = statistics.quantiles(wall, n=10)
        w, c = statistics.median(wall), statistics.median(cpu)
        print(
            f"{name:<26}{w * 1e3:>14.2f}{q[0] * 1e3:>8.2f}{q[-1] * 1e3:>8.2f}{w / base_wall:>8.3f}"
            f"{c * 1e3:>13.2f}{c / base_cpu:>8.3f}"
        )


if __name__ == "__main__":
    main()
