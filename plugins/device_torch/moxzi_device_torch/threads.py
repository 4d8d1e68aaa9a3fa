"""How many intra-op threads torch computes with on ``torch:cpu``: the ``--device-threads`` setting.

The count changes the numbers: torch splits a large reduction (a sum, a norm, a gradient) into one part
per thread, and adding the parts in another grouping rounds differently. So it is chosen once, when the
device is made, never from the machine's load, and a device must keep it to give the same numbers
(a state directory's record is replayed with it; moxzid gives it to every rank of a device).

The count is each thread's: OpenMP keeps it per thread, and a thread starts with one per core whatever
another thread set, so a matmul (handed to MKL, which reads its thread's count) on a thread that was
never given the count computed on every core. So the backend gives it to every thread that calls it
(``compute_with``), on entry to each of its methods.
"""

from __future__ import annotations

import os

import torch

from moxzi_core.device import DeviceError

from .settings import AUTO, MAX_AUTO

MAX_THREADS = 1024


def intra_op_threads(setting: int) -> int:
    """The thread count ``--device-threads N`` means on this machine; DeviceError above the limit."""
    if setting == AUTO:
        return max(1, min(MAX_AUTO, len(os.sched_getaffinity(0)) - 1))
    if setting > MAX_THREADS:
        raise DeviceError(f"--device-threads {setting}: at most {MAX_THREADS} threads (0: as many as the cores allow)")
    return setting


def compute_with(count: int) -> None:
    """This thread's torch kernels compute with ``count`` intra-op threads from now on. Cheap once it
    holds (about 0.04 µs): ``torch.get_num_threads`` reads this thread's count, and on a thread's first
    call gives it the count torch was last set to anywhere, which is why a new thread's ATen ops
    (a sum, an exp) already had the count and its matmuls did not."""
    if torch.get_num_threads() != count:
        torch.set_num_threads(count)
