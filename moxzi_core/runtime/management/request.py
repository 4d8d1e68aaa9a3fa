"""What a management method works with: the call as the host took it (`Request`) and the parts of the
host it may use (`Manager`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ...billing import Ledger
from ...store import Batch
from ..actor import Actor
from ..messages import Manage, Origin, Outcome
from .ids import Randomness
from .threshold_keys import MasterKeys
from .web import Web


@dataclass(frozen=True)
class Request:
    method: str
    caller: bytes
    origin: Origin
    arg: bytes  # as it came: its bytes count against the target's inbox (`inbox_bounds`)
    argument: dict[str, Any]  # the method's argument record, decoded ({} for raw_rand, which takes none)
    batch: Batch  # what the call changes is written in it
    cycles: int  # what a calling actor attached

    def message(self, detail: dict, size: int | None = None) -> Manage:
        """The Manage message the target runs: ``detail`` for its function, ``size`` the bytes it
        holds from outside (its argument by default)."""
        return Manage(self.method, detail, self.caller, self.origin, len(self.arg) if size is None else size)


@dataclass(frozen=True)
class Manager:
    """What the management methods use of the host (`host.Host` makes it)."""

    ledger: Ledger | None
    randomness: Randomness
    # A new actor without code, written into the batch, controlled by the settings' controllers or else
    # the caller, starting with the cycles given (None: as every actor), its history begun by whom
    # (`history.change_origin`); its principal. Raises canisters.CreationRefused when moxzid holds as many
    # created actors as it may.
    create: Callable[[Batch, bytes, Mapping[str, object], int | None, list], bytes]
    actor_with: Callable[[bytes], Actor | None]  # the actor with a principal
    chunk: Callable[[str, bytes], bytes | None]  # a chunk of an actor's chunk store, by its sha256
    compile: Callable[[bytes, bytes, str], None]  # prepare and compile a module once (raises UnsupportedModule)
    # For a call from outside (its origin), the reject if the named actor's inbox has no room for it of
    # these bytes (`InboxBounds.room_for_call`).
    room_for: Callable[[Origin, str, int], Outcome | None]
    threshold_keys: MasterKeys  # the master secrets of the threshold keys (`threshold_keys`)
    web: Web  # makes http_request's outcalls
    # A query of an actor, as a caller (a principal's bytes) asks it: http_request's transform.
    ask: Callable[[Actor, str, bytes, bytes], Awaitable[Outcome]]
