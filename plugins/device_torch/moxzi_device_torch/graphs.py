"""``--cuda-graphs``: cached plans run in their static form (``static.py``), on torch:cuda captured as
CUDA graphs and replayed.

Only ``Graphed`` here needs CUDA: a part of a static plan (which a plan gets on its second run) run as it
is for its first ``WARMUP`` calls (on the side stream it is captured on, so lazy set-up such as cuBLAS's
workspace for that stream is done before capture), then captured once and replayed while it is given the
same tensors. This project has not yet measured it
on a GPU (none was lent to the work that wrote it): it is off unless asked for.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import torch

from moxzi_core.device import DeviceError

from . import kernels
from .settings import CUDA_GRAPHS, OFF, ON, UNCAPTURED

if TYPE_CHECKING:
    from moxzi_core.settings import Settings

log = logging.getLogger("moxzi.torch")

WARMUP = 1  # calls a part runs uncaptured before it is captured


def mode(settings: Settings | None, device: torch.device) -> str:
    """The ``--cuda-graphs`` setting for a backend on ``device``; DeviceError for ``on`` off CUDA."""
    chosen = OFF if settings is None else settings[CUDA_GRAPHS]
    if chosen == ON and device.type != "cuda":
        raise DeviceError(
            f"--cuda-graphs {ON}: torch:{device.type} has no CUDA graphs ({UNCAPTURED} runs their static form)"
        )
    return chosen


class Graphed:
    """One part of a static plan on torch:cuda: run on ``stream`` for ``WARMUP`` calls, then captured
    with the tensors it is given and replayed while it is given the same ones (a part given others is
    captured again). ``failed`` says why a capture failed; that call ran uncaptured."""

    def __init__(self, stream: torch.cuda.Stream):
        self.stream = stream
        self.calls = 0
        self.failed: str | None = None
        self._graph: torch.cuda.CUDAGraph | None = None
        self._args: tuple = ()
        self._result = None
        self._held: list[torch.Tensor] = []  # what the graph reads that nothing else may keep alive

    @property
    def captured(self) -> bool:
        return self._graph is not None

    def run(self, fn, *args):
        if self._graph is not None and len(args) == len(self._args) and all(map(_same, args, self._args)):
            self._graph.replay()
            return self._result
        self._graph = None
        if self.failed is not None or self.calls < WARMUP:
            self.calls += 1
            return self.warm(fn, *args)
        try:
            graph, result = self.capture(fn, *args)
        except Exception as error:  # e.g. a kernel that synchronises, which capture forbids
            self.failed = f"capturing it failed: {str(error).strip().splitlines()[0][:300]}"
            return fn(*args)  # a capture runs nothing: this call's work is still to do
        self._graph, self._args, self._result, self._held = graph, args, result, kernels.held_tensors()
        graph.replay()
        return result

    def warm(self, fn, *args):
        """``fn(*args)`` run on the capture stream, in order with the current stream's work."""
        current = torch.cuda.current_stream()
        self.stream.wait_stream(current)
        with torch.cuda.stream(self.stream):
            result = fn(*args)
        current.wait_stream(self.stream)
        return result

    def capture(self, fn, *args):
        """(a graph of ``fn(*args)``, which capturing does not run; what it returned: the tensors each
        replay writes)."""
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph, stream=self.stream):
            result = fn(*args)
        return graph, result


def _same(a, b) -> bool:
    return a is b
