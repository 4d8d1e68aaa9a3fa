"""The torch plugin's settings, ``--device-threads`` (``threads.py``) and ``--cuda-graphs`` (``graphs.py``),
declared apart from what uses them so that registering them (``moxzid --help``) imports no torch."""

from __future__ import annotations

from moxzi_core.settings import Setting

AUTO = 0
MAX_AUTO = 8  # past this, a step of the models moxzid trains on CPU gets no faster
# From bench/device_step.py --busy on 2 cores with two spinning processes beside it: a step took 0.24 s
# (p90 0.90 s) with one thread, 5.2 s (p90 13.7 s) with two, each op waiting for its descheduled thread.
DEFAULT = 1

THREADS = Setting(
    "device-threads",
    "count",
    "intra-op threads torch:cpu computes with; 0: the cores this process may use less one "
    f"(1 to {MAX_AUTO}). More is faster on an idle machine and much slower whenever other processes "
    "compete for the cores; the count changes the numbers, so give every run on a state directory the "
    f"same (default {DEFAULT})",
    default=DEFAULT,
    metavar="N",
    every_rank=True,
)

OFF, ON, UNCAPTURED = "off", "on", "uncaptured"

CUDA_GRAPHS = Setting(
    "cuda-graphs",
    "text",
    f"{ON}: on torch:cuda, capture each cached plan whose shapes repeat (forward, backward, clip, AdamW) "
    f"as CUDA graphs once and replay them; a plan that cannot be captured runs as before, with one log "
    f"line. Not yet measured on a GPU by this project. {UNCAPTURED}: the same static form without "
    f"graphs, on any device (it gives the plain path's numbers: a check where no GPU is). "
    f"Default {OFF}",
    default=OFF,
    metavar="on|off|uncaptured",
    every_rank=True,
    check=lambda v: None if v in (OFF, ON, UNCAPTURED) else f"expected {ON}, {OFF} or {UNCAPTURED}",
)
