"""fetch_canister_logs: a canister's log (`canister_log`) as the IC's management canister answers it,
to a query from outside only (the IC answers it in non-replicated mode alone: neither canisters nor
update calls reach it), for a caller the canister's ``log_visibility`` lets see it. Its ``filter``
picks the records whose index, or whose time, lies in ``[start, end)``."""

from __future__ import annotations

from ... import errors
from ...candid import Principal, Some
from ..actor import Actor
from ..messages import Outcome
from .interface import reply


def fetch_canister_logs(target: Actor, argument: dict) -> Outcome:
    chosen = argument.get("filter")
    chosen = chosen.value if isinstance(chosen, Some) else chosen
    records = target.canister.log.records()
    if chosen is not None:
        ((by, bounds),) = chosen.items()
        field = 0 if by == "by_idx" else 1  # else by_timestamp_nanos
        records = [entry for entry in records if bounds["start"] <= entry[field] < bounds["end"]]
    listed = [{"idx": idx, "timestamp_nanos": timestamp, "content": content} for idx, timestamp, content in records]
    return Outcome(reply("fetch_canister_logs", {"canister_log_records": listed}))


def visible(target: Actor, viewer: bytes | None) -> list[tuple[int, int, bytes]]:
    """``target``'s log as fetch_canister_logs gives it, (idx, time ns, content) a record, oldest first,
    for ``viewer`` (None: moxzid's admin, who sees every log, `Host.canister_log`); raises
    errors.NotAllowed where its log_visibility hides it from ``viewer``."""
    if viewer is not None and not target.canister.may_see_logs(viewer):
        raise errors.NotAllowed(f"the log of {target.name}: its log_visibility does not let {Principal(viewer)} see it")
    return target.canister.log.records()
