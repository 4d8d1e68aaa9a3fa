"""Characters per second of the Shakespeare GPT's generation: the seeds' ``generate`` (the whole window
again for every character), ``generateCached`` (a key/value cache on the device: one character in per
call) and plain PyTorch's sampling loop with the same sliding key/value cache.

    python bench/generation.py [--counts 64,500] [--rounds 3] [--device torch:cpu] [--device-threads 1]

moxzid runs examples/shakespeare/gpt.mo (tiny Shakespeare loaded, the weights untrained: speed does not
depend on them). For each count: characters per second of the call at the client, and the device's
time per character (``moxzi_device_seconds_total`` in ``/metrics``), which the cache keeps flat while
the seeds' ``generate`` grows with the context up to its 64 characters. PyTorch runs the same model
(bench/device_step.py's weights) with ``--device-threads`` threads, cached as generateCached is
(``mo:moxzi/Gpt.windowLogits``: keys kept unrotated, the window's positions 0..t-1 every step), and
draws with ``torch.multinomial``. Medians of ``--rounds``; rounds alternate between the three.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
import urllib.request
from pathlib import Path

import device_step
from actor_path import TEXT, device_counters
from moxzid import serving

from moxzi_core.build import build

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "shakespeare" / "gpt.mo"
CONTEXT = 64
TEMPERATURE = 0.8


def call(url: str, method: str, *args) -> object:
    request = urllib.request.Request(f"{url}/call-json/gpt/{method}", json.dumps(list(args)).encode())
    with urllib.request.urlopen(request, timeout=1200) as answer:
        return json.loads(answer.read())[0]


def through_moxzid(url: str, method: str, count: int) -> tuple[float, float]:
    """(characters per second, device ms per character) of ``method(count, 0.8)``."""
    seconds, _ = device_counters(url, "gpt")
    started = time.perf_counter()
    text = call(url, method, count, TEMPERATURE)
    wall = time.perf_counter() - started
    assert isinstance(text, str)
    return count / wall, (device_counters(url, "gpt")[0] - seconds) / count * 1e3


class TorchSampler:
    """The model in plain PyTorch, generating with a sliding key/value cache of ``CONTEXT`` positions."""

    def __init__(self, cfg: device_step.Config, threads: int):
        import torch

        torch.set_num_threads(threads)
        self.torch, self.cfg = torch, cfg
        self.p = {n: torch.tensor(w) for n, w in device_step.weights(cfg).items()}
        hd = cfg.n_embd // cfg.n_head
        angles = torch.arange(CONTEXT, dtype=torch.float64)[:, None] * 10000.0 ** (
            -torch.arange(0, hd, 2, dtype=torch.float64) / hd
        )
        self.cos, self.sin = angles.cos().float(), angles.sin().float()  # [CONTEXT, hd / 2]

    def rope(self, x, start: int):  # x [1, h, t, hd] at positions start..start+t-1
        t, half = x.shape[2], x.shape[3] // 2
        cos, sin = self.cos[start : start + t], self.sin[start : start + t]
        x1, x2 = x[..., :half], x[..., half:]
        return self.torch.cat((x1 * cos - x2 * sin, x1 * sin + x2 * cos), -1)

    def generate(self, count: int, first: int = 0, seed: int = 0) -> list[int]:
        torch, cfg, p = self.torch, self.cfg, self.p
        F = torch.nn.functional
        d, h = cfg.n_embd, cfg.n_head
        hd = d // h
        cache: list[list] = [[None, None] for _ in range(cfg.n_layer)]
        draws = torch.Generator().manual_seed(seed)
        out, token = [], first
        with torch.inference_mode():
            for i in range(count):
                t = min(i + 1, CONTEXT)
                x = F.embedding(torch.tensor([[token]]), p["wte"])  # [1, 1, d]
                for layer in range(cfg.n_layer):
                    qkv = F.linear(F.rms_norm(x, (d,), eps=1e-5), p[f"h{layer}.qkv"])
                    q, k, v = (z.reshape(1, 1, h, hd).transpose(1, 2) for z in qkv.split(d, dim=2))  # [1, h, 1, hd]
                    for j, z in enumerate((k, v)):
                        kept = cache[layer][j]
                        cache[layer][j] = z if kept is None else torch.cat((kept[:, :, -(CONTEXT - 1) :], z), 2)
                    keys, values = self.rope(cache[layer][0], 0), cache[layer][1]
                    att = F.scaled_dot_product_attention(self.rope(q, t - 1), keys, values)  # [1, h, 1, hd]
                    x = x + F.linear(att.transpose(1, 2).reshape(1, 1, d), p[f"h{layer}.proj"])
                    hidden = F.relu(F.linear(F.rms_norm(x, (d,), eps=1e-5), p[f"h{layer}.fc"]))
                    x = x + F.linear(hidden, p[f"h{layer}.out"])
                logits = F.linear(F.rms_norm(x, (d,), eps=1e-5), p["head"])[0, -1]  # [vocab]
                token = int(torch.multinomial(torch.softmax(logits / TEMPERATURE, -1), 1, generator=draws))
                out.append(token)
        return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", default="64,500", help="characters per call (default 64,500)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; medians count (default 3)")
    parser.add_argument("--device", default="torch:cpu", help="torch:cpu (default) or torch:cuda")
    parser.add_argument("--device-threads", type=int, default=1, help="torch threads, both sides (default 1)")
    parser.add_argument("--text", type=Path, default=TEXT, help=f"tiny Shakespeare (default {TEXT})")
    args = parser.parse_args()
    counts = [int(c) for c in args.counts.split(",")]
    sampler = TorchSampler(device_step.Config(), args.device_threads)
    rows: dict[tuple[str, int], list[tuple[float, float | None]]] = {}
    with tempfile.TemporaryDirectory() as built, tempfile.TemporaryDirectory() as folder:
        gpt = build(EXAMPLE, out_dir=Path(built))
        flags = ["--device", args.device, "--device-threads", str(args.device_threads)]
        with serving(Path(folder), *flags, plugins="http,torch,console", gpt=gpt) as daemon:
            call(daemon.url, "load", args.text.read_text())
            for round_number in range(args.rounds):
                for count in counts:
                    for method in ("generate", "generateCached"):
                        rows.setdefault((method, count), []).append(through_moxzid(daemon.url, method, count))
                    started = time.perf_counter()
                    sampler.generate(count, seed=round_number)
                    rows.setdefault(("PyTorch, cached", count), []).append(
                        (count / (time.perf_counter() - started), None)
                    )
                print(f"round {round_number + 1} of {args.rounds} done", flush=True)
    load = os.getloadavg()
    print(
        f"\n{args.device}, {args.device_threads} thread(s); medians of {args.rounds} rounds; load average at "
        f"the end {load[0]:.1f} / {load[1]:.1f} (1 / 5 min), {os.cpu_count()} cores"
    )
    print(f"{'generation':28}{'chars':>7}{'chars/s':>10}{'device ms/char':>16}")
    for (what, count), samples in rows.items():
        rate = statistics.median(s[0] for s in samples)
        device = [s[1] for s in samples if s[1] is not None]
        per_char = f"{statistics.median(device):16.2f}" if device else f"{'':16}"
        print(f"{what:28}{count:7d}{rate:10.0f}{per_char}")


if __name__ == "__main__":
    main()
