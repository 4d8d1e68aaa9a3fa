"""Device calls: calls to the system methods plugins provide to the management canister (the tensor
device's). What such a method is (`methods`), running them (`run`), recording those that changed the
system (`record`), copying the system's state (`copies`) and rebuilding it at start-up (`rebuild`). The
rest of moxzid reaches them only through the names below (tests/test_layout.py keeps it so)."""

from .copies import SystemState
from .methods import Gate, Staged, SystemMethod, Threaded
from .record import CheckpointPolicy
from .run import DeviceCalls

__all__ = ["CheckpointPolicy", "DeviceCalls", "Gate", "Staged", "SystemMethod", "SystemState", "Threaded"]
