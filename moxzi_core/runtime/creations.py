"""How many actors callers may create: in all (``--max-created-actors``) and each creator
(``--max-created-per-creator``), counted from the store's record of the created actors and who created
each (`journal`: ``created/`` and ``created-by/``), so a restart keeps both counts and a deletion frees a
slot in both.

A creator is the principal that called create_canister (the management canister's, the cycles
ledger's): an actor, the sender of a signed request, or the anonymous principal. Every anonymous client
counts as that one creator: the canisters it creates are controlled by the anonymous principal, so by
every anonymous client alike, and a count per remote address would be no bound (a local client may use
all of 127.0.0.0/8; actors have none). So anonymous clients, web pages among them, together hold at most
one creator's share, and the rest stays for actors and keys. A client with many keys (a key pair costs
nothing) still reaches the total less one creator's share: that last share is kept for the operator's
side, the manifest's actors and their controllers (``operator`` in ``check``), so they still create
while such a client holds the rest (it frees as its canisters are deleted). The bound per creator keeps
one actor or one key from reaching the total.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..candid import Principal
from .journal import Journal
from .management.canisters import CreationRefused

# How many actors create_canister may make (those not deleted), by default: each may grow its memory to
# its limit, so their number bounds what clients who create actors can make moxzid hold.
MAX_CREATED_ACTORS = 100
# How many of them one creator may have made: a fifth of the total, so five creators at least fit.
MAX_CREATED_PER_CREATOR = 20


@dataclass(frozen=True)
class CreationBounds:
    total: int = MAX_CREATED_ACTORS
    per_creator: int = MAX_CREATED_PER_CREATOR

    def check(self, journal: Journal, creator: bytes, *, operator: bool) -> None:
        """Raises CreationRefused when ``creator`` may not create another actor now: moxzid holds
        ``total`` created actors (``total`` less ``per_creator``, kept for them, unless ``creator`` is on
        the ``operator``'s side: a manifest's actor or one of their controllers), or ``creator`` made
        ``per_creator`` of those it holds."""
        # Counted from the store: what creations and deletions committed (each commits before the
        # event loop, where every creation runs, takes another step), so the counts cannot drift.
        created = journal.created_actors()
        kept = 0 if operator else min(self.per_creator, self.total - 1)
        if len(created) >= self.total - kept:
            held = "" if not kept else f", less the {kept} kept for the manifest's actors and their controllers"
            raise CreationRefused(
                f"moxzid holds {len(created)} created canisters, as many as it may (moxzid --max-created-actors "
                f"{self.total}{held}): delete one, or ask the operator for more"
            )
        made = journal.created_by(creator)
        if made >= self.per_creator:
            raise CreationRefused(
                f"{Principal(creator).to_text()} created {made} of the canisters moxzid holds, as many as one "
                f"creator may (moxzid --max-created-per-creator {self.per_creator}): delete one, or ask the "
                "operator for more"
            )
