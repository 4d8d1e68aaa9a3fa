"""`Readouts`: what the device says of itself to those who show it (the console, ``/metrics``), read
without waiting for a call under way. The device's system state is one (`runtime.device_calls`); gateways
see it as `host_api.GatewayHost.system_state`."""

from __future__ import annotations

from typing import Protocol


class ByteBudget(Protocol):
    """The bytes each caller may hold in a system state, and all callers together."""

    @property
    def actor_bytes(self) -> int: ...

    @property
    def total_bytes(self) -> int: ...


class Readouts(Protocol):
    """What the device says of itself, read without waiting for a call under way."""

    @property
    def runs_on(self) -> str:
        """What it runs on, in words (the device's backend: ``torch:cpu``)."""

    @property
    def budget(self) -> ByteBudget:
        """The bytes each caller, and all together, may hold."""

    def usage(self) -> dict[str, dict]:
        """What each caller holds, by actor name (the device: ``Device.usage``)."""

    def transfers(self) -> dict[str, list[dict]]:
        """What is moving between machines now: ``exports`` and ``fetches`` (``Device.transfers``)."""

    def op_seconds(self) -> dict[str, tuple[int, float]]:
        """By op: (kernel calls, seconds in them) since it opened (``Device.op_seconds``)."""
