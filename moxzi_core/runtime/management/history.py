"""A canister's history as the IC keeps it and ``canister_info`` tells it: its creation, every code
deployment (install, reinstall, upgrade) and uninstall, every snapshot loaded and every change of its controllers, each with the canister's
version after it, who made it and when. The changes lie in the canister record (``Canister.history``,
the last ``MAX_HISTORY`` of them, and ``Canister.changes`` counting all), so they survive restarts and
crashes with it; this module turns what a management call says into a change and the changes into
``canister_info``'s answer."""

from __future__ import annotations

import time

from ...candid import Principal, Some
from ..canister import Canister


def change_origin(caller: bytes, from_canister: bool, sender_canister_version) -> list:
    """Who made a change: a canister (with the version it says it had, the call's
    ``sender_canister_version``, None when it says none) or a user."""
    if not from_canister:
        return ["user", caller]
    version = sender_canister_version.value if isinstance(sender_canister_version, Some) else sender_canister_version
    return ["canister", caller, version]


def record_creation(canister: Canister, by: list) -> None:
    canister.change(time.time_ns(), by, ["creation", list(canister.controllers)])


def record_deployment(canister: Canister, by: list, mode: str, module: bytes) -> None:
    canister.change(time.time_ns(), by, ["code_deployment", mode, module])


def record_uninstall(canister: Canister, by: list) -> None:
    canister.change(time.time_ns(), by, ["code_uninstall"])


def record_snapshot_load(canister: Canister, by: list, version: int, snapshot_id: bytes, taken_at: int) -> None:
    """A snapshot loaded: the canister's version when it was taken, its id and when."""
    canister.change(time.time_ns(), by, ["load_snapshot", version, snapshot_id, taken_at])


def record_controllers_change(canister: Canister, by: list) -> None:
    canister.change(time.time_ns(), by, ["controllers_change", list(canister.controllers)])


def info_record(canister: Canister, module_hash: bytes | None, requested) -> dict:
    """canister_info's answer (``canister_info_result``): the ``requested`` most recent changes (an
    ``opt nat64``; none when null, at most what the history keeps)."""
    count = requested.value if isinstance(requested, Some) else requested or 0
    recent = canister.history[len(canister.history) - min(count, len(canister.history)) :]
    return {
        "total_num_changes": canister.changes,
        "recent_changes": [_change(entry) for entry in recent],
        "module_hash": None if module_hash is None else Some(module_hash),
        "controllers": [Principal(p) for p in canister.controllers],
    }


def _change(entry: list) -> dict:
    timestamp, version, by, details = entry
    made_by: dict[str, object]
    what: dict[str, object]
    if by[0] == "user":
        made_by = {"from_user": {"user_id": Principal(by[1])}}
    else:
        version_then = None if by[2] is None else Some(by[2])
        made_by = {"from_canister": {"canister_id": Principal(by[1]), "canister_version": version_then}}
    kind, *fields = details
    if kind == "creation":
        what = {"creation": {"controllers": [Principal(p) for p in fields[0]], "environment_variables_hash": None}}
    elif kind == "code_deployment":
        what = {"code_deployment": {"mode": {fields[0]: None}, "module_hash": fields[1]}}
    elif kind == "code_uninstall":
        what = {"code_uninstall": None}
    elif kind == "load_snapshot":
        version_taken, snapshot_id, taken_at = fields
        what = {
            "load_snapshot": {
                "canister_version": version_taken,
                "snapshot_id": snapshot_id,
                "taken_at_timestamp": taken_at,
            }
        }
    else:
        what = {"controllers_change": {"controllers": [Principal(p) for p in fields[0]]}}
    return {"timestamp_nanos": timestamp, "canister_version": version, "origin": made_by, "details": what}
