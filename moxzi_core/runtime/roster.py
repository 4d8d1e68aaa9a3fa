"""The actors a host runs, by name and by principal; while it starts, which ones are not back yet."""

from __future__ import annotations

from collections.abc import Iterator

from .. import errors
from ..candid import Principal
from .actor import Actor
from .restoration import Restoration


class Roster:
    def __init__(self, restoration: Restoration) -> None:
        self._by_name: dict[str, Actor] = {}
        self.by_principal: dict[bytes, Actor] = {}  # (read by create_canister: the principals taken)
        self.restoration = restoration

    def add(self, actor: Actor) -> None:
        self._by_name[actor.name] = actor
        self.by_principal[actor.principal] = actor

    def remove(self, actor: Actor) -> None:
        del self._by_name[actor.name], self.by_principal[actor.principal]

    def __iter__(self) -> Iterator[Actor]:
        return iter(list(self._by_name.values()))

    def names(self) -> list[str]:
        return list(self._by_name)

    def named(self, name: str) -> Actor:
        """Actor ``name``; raises UnknownActor, or Restoring for one start-up has not brought back yet."""
        try:
            return self._by_name[name]
        except KeyError:
            if self.restoration.pending(name):
                raise self.restoration.refusal(f"actor {name}") from None
            raise errors.UnknownActor(f"no actor named {name!r}{errors.did_you_mean(name, self._by_name)}") from None

    def started(self, name: str, what: str) -> Actor:
        """Actor ``name`` (`named`), once start-up is done: until then ``what`` it is asked for raises
        Restoring (`restore`: only plain queries are served earlier)."""
        actor = self.named(name)
        self.check_started(what)
        return actor

    def check_started(self, what: str) -> None:
        """Raise Restoring for ``what`` until start-up is done."""
        if not self.restoration.done:
            raise self.restoration.refusal(what)

    def name_of(self, principal: bytes) -> str | None:
        """The name of the actor with this principal (None: none); raises Restoring for one start-up has
        not brought back yet."""
        actor = self.by_principal.get(principal)
        if actor is None and self.restoration.pending_principal(principal):
            raise self.restoration.refusal(f"canister {Principal(principal)}")
        return actor.name if actor else None

    def with_principal(self, principal: bytes) -> Actor | None:
        return self.by_principal.get(principal)
