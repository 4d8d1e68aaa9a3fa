"""The actors a host runs, by name and by principal."""

from __future__ import annotations

from collections.abc import Iterator

from .. import errors
from .actor import Actor


class Roster:
    def __init__(self) -> None:
        self._by_name: dict[str, Actor] = {}
        self.by_principal: dict[bytes, Actor] = {}  # (read by create_canister: the principals taken)

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
        try:
            return self._by_name[name]
        except KeyError:
            raise errors.UnknownActor(f"no actor named {name!r}{errors.did_you_mean(name, self._by_name)}") from None

    def with_principal(self, principal: bytes) -> Actor | None:
        return self.by_principal.get(principal)
