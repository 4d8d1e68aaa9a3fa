"""The torch device's optimizers: AdamW and SGD, with their state kept by parameter name, and clipping
gradients by their global norm."""

from __future__ import annotations

import numpy as np
import torch


def grads_of(params: list[torch.Tensor]) -> list[torch.Tensor]:
    """The gradients the parameters have, in their order."""
    return [g for p in params if (g := p.grad) is not None]


def clip_grads(grads: list[torch.Tensor], clip: float) -> None:
    """Scale ``grads`` together to global L2 norm at most ``clip``: torch.nn.utils.clip_grad_norm_'s
    arithmetic (foreach=False), on the gradients themselves, and without reading anything back to the
    host (so a CUDA graph can hold it)."""
    if grads:
        total = torch.nn.utils.get_total_norm(grads, 2.0, foreach=False)
        scale = torch.clamp(clip / (total + 1e-6), max=1.0)
        for g in grads:
            g.mul_(scale)


class AdamW:
    """torch.optim.AdamW's update (single-tensor form), with state kept by parameter name."""

    def __init__(self, device: torch.device, beta1: float, beta2: float, eps: float, weight_decay: float):
        self.device = device
        self.beta1, self.beta2, self.eps, self.weight_decay = beta1, beta2, eps, weight_decay
        self.state: dict[str, list] = {}  # name -> [step, exp_avg, exp_avg_sq]

    @torch.no_grad()
    def step(self, params: list[tuple[str, torch.Tensor]], lr: float, clip: float | None = None) -> None:
        with_grads = [(name, p) for name, p in params if p.grad is not None]
        if clip is not None:
            clip_grads(grads_of([p for _, p in with_grads]), clip)
        for name, p in with_grads:
            state = self.moments(name, p)
            state[0] += 1
            self.update(p, p.grad, state[1], state[2], *self.factors(lr, state[0]))

    def moments(self, name: str, p: torch.Tensor) -> list:
        """Parameter ``name``'s [step, exp_avg, exp_avg_sq], made (zeros, step 0) if it has none yet."""
        state = self.state.get(name)
        if state is None:
            state = self.state[name] = [0, torch.zeros_like(p), torch.zeros_like(p)]
        return state

    def factors(self, lr: float, step: int) -> tuple[float, float, float]:
        """What changes from one step to the next: (weight decay's factor, the second moment's bias
        correction's square root, the step size), in Python's float64 as torch.optim.AdamW has them."""
        return 1 - lr * self.weight_decay, (1 - self.beta2**step) ** 0.5, -lr / (1 - self.beta1**step)

    def update(self, p, g, m, v, decay, bias2, size) -> None:
        """One parameter's update from its ``factors``: Python floats, or 0-d tensors on the device (the
        static form, ``static.py``, whose CUDA graph reads them where the host wrote them). Either way
        torch casts each to float32 as it reads it, so both give the same bits."""
        p.mul_(decay)
        m.lerp_(g, 1 - self.beta1)
        v.mul_(self.beta2).addcmul_(g, g, value=1 - self.beta2)
        denom = (v.sqrt() / bias2).add_(self.eps)
        if isinstance(size, torch.Tensor):  # addcdiv takes a number; (m * size) / denom is what it computes
            p.addcdiv_(m * size, denom)
        else:
            p.addcdiv_(m, denom, value=size)

    def forget(self, name: str) -> None:
        self.state.pop(name, None)

    def held_bytes(self) -> int:
        return sum(_bytes(m) + _bytes(v) for _, m, v in list(self.state.values()))

    def export(self):
        for name, (step, m, v) in self.state.items():
            yield name, [step, list(m.shape), _save(m), _save(v)]

    def restore(self, state) -> None:
        self.state = {
            name: [step, _load(m, shape, self.device), _load(v, shape, self.device)]
            for name, (step, shape, m, v) in state
        }


class SGD:
    """torch.optim.SGD's update with momentum ``beta1`` and L2 ``weight_decay``."""

    def __init__(self, device: torch.device, beta1: float, beta2: float, eps: float, weight_decay: float):
        self.device = device
        self.momentum, self.weight_decay = beta1, weight_decay
        self.state: dict[str, torch.Tensor] = {}

    @torch.no_grad()
    def step(self, params: list[tuple[str, torch.Tensor]], lr: float, clip: float | None = None) -> None:
        if clip is not None:
            clip_grads(grads_of([p for _, p in params]), clip)
        for name, p in params:
            g = p.grad
            if g is None:
                continue
            if self.weight_decay:
                g = g.add(p, alpha=self.weight_decay)
            if self.momentum:
                buf = self.state.get(name)
                if buf is None:
                    buf = self.state[name] = g.clone()
                else:
                    buf.mul_(self.momentum).add_(g)
                g = buf
            p.add_(g, alpha=-lr)

    def forget(self, name: str) -> None:
        self.state.pop(name, None)

    def held_bytes(self) -> int:
        return sum(_bytes(buf) for buf in list(self.state.values()))

    def export(self):
        for name, buf in self.state.items():
            yield name, [list(buf.shape), _save(buf)]

    def restore(self, state) -> None:
        self.state = {name: _load(buf, shape, self.device) for name, (shape, buf) in state}


def _bytes(t: torch.Tensor) -> int:
    return t.numel() * t.element_size()


def _save(t: torch.Tensor) -> bytes:
    return t.detach().cpu().contiguous().numpy().astype("<f4", copy=False).tobytes()


def _load(raw: bytes, shape, device: torch.device) -> torch.Tensor:
    return torch.from_numpy(np.frombuffer(raw, dtype="<f4").reshape(shape).copy()).to(device)
