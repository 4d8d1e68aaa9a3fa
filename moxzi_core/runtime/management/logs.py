"""fetch_canister_logs: a canister's log (`canister_log`) as the IC's management canister answers it,
to a query from outside only (the IC answers it in non-replicated mode alone: neither canisters nor
update calls reach it), for a caller the canister's ``log_visibility`` lets see it. Its ``filter``
picks the records whose index, or whose time, lies in ``[start, end)``."""

from __future__ import annotations

from ...candid import Some
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
