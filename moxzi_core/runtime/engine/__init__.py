"""The engine: how a wasm module is prepared for hosting, instantiated on wasmtime, called through its C
API, its dirty pages tracked and its memories packed for the store (and where a Motoko heap is free,
which compaction stores as zeros). The rest of moxzid reaches it only
through the names below (tests/test_layout.py keeps it so); what an actor, a message or a call context
is, the engine does not know. It links the ``ic0`` functions (`runtime.ic0`) into each instance,
reads the canister record they read (`runtime.canister`) and the time from the host's clock
(`runtime.clock`), and raises `runtime.traps.ActorTrap`: the seams it shares with the host."""

from . import memory_image, motoko_heap
from .instance import EMPTY_ARGS, Instance, Interrupted, Limits, UnsupportedModule, new_engine, new_store
from .memory import PAGE
from .rewrite import PreparedModule, prepare
from .stable import FUNCTION_TYPES as STABLE_FUNCTIONS

__all__ = [
    "EMPTY_ARGS",
    "PAGE",
    "Instance",
    "Interrupted",
    "Limits",
    "PreparedModule",
    "STABLE_FUNCTIONS",
    "UnsupportedModule",
    "memory_image",
    "motoko_heap",
    "new_engine",
    "new_store",
    "prepare",
]
