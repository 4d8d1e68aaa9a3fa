"""Where this plugin's kernels run: on a CUDA GPU, or in Triton's interpreter on the CPU (for tests).

Decided once, at import, because Triton decides it when the ``@triton.jit`` functions are defined:
``TRITON_INTERPRET=1`` must be set before this package is imported. Without it and without a GPU the
package refuses to load, so ``--plugins triton`` fails at start-up with this message instead of later.
"""

from __future__ import annotations

import os

import torch

INTERPRETING = os.environ.get("TRITON_INTERPRET") == "1"


class NoGPU(RuntimeError):
    """Raised on import when neither a CUDA GPU nor Triton's interpreter is there to run the kernels."""


if not INTERPRETING and not torch.cuda.is_available():
    raise NoGPU(
        "moxzi-device-triton needs a CUDA GPU and torch sees none; load it on a GPU machine with "
        "--device torch:cuda, or set TRITON_INTERPRET=1 before starting to run its kernels in "
        "Triton's interpreter on the CPU (slow: for tests)"
    )

# The backends whose torch kernels this plugin replaces: CUDA, and the CPU when interpreting.
BACKENDS = ("torch:cuda", "torch:cpu") if INTERPRETING else ("torch:cuda",)
