"""The IC HTTP interface's routes, mounted by the HTTP gateway at ``/api``.

- ``GET /api/v2/status``: CBOR ``{root_key, replica_health_status, ic_api_version, impl_version}``.
- ``POST /api/v4|v3/canister/ID/call``: runs the update call and answers ``200 {status: "replied",
  certificate}`` holding its ``request_status``, or 202 when it takes longer than SYNC_WAIT_SECONDS
  (the client then polls ``read_state``). ``/api/v2/.../call`` answers 202 at once.
- Calls to the management canister (``canister_id`` aaaaa-aa in the content, the target canister in
  the URL) go to the host's management methods (create_canister, install_code, canister_status, ...)
  as the signed sender, who must be a controller of the canister it acts on.
- Calls and queries to the cycles minting canister and the cycles ledger go to ``system_canisters``,
  which answers for them (icp deploy creates canisters through them).
- ``POST /api/v3|v2/canister/ID/query``: ``{status, reply | reject fields, signatures}``, signed by
  moxzid's node key.
- ``POST /api/v3|v2/canister/ID/read_state`` and ``/subnet/ID/read_state``: ``{certificate}`` with the
  requested paths (``time``, ``request_status/<id>``, ``canister/<id>/module_hash``,
  ``canister/<id>/controllers``, ``canister/<id>/metadata/<name>`` (an ``icp:private`` section for
  the actor's controllers only), ``subnet``).

Refusals: a well-formed call or query refused before it runs (bad signature, wrong sender, unknown
canister, a request id already used by another sender, a sender with ``--ic-max-calls-per-sender``
calls and queries in flight) answers 200 with CBOR ``{status: "non_replicated_rejection", reject_code,
reject_message, error_code}``, as agents retry other statuses (a query to an unknown canister, or past
the sender's bound, gets a signed ``rejected`` answer instead, as agents accept no other). A call the
actor's full inbox refuses (``--max-queued-calls``, ``--max-queued-mb``, ``--total-queued-mb``) is
rejected SYS_TRANSIENT, IC0201, as the IC rejects a call to a full queue.
While moxzid starts (``GatewayHost.starting``), a call, and a query that needs an actor not restored
yet (or every actor: a composite query), answers 503 with ``Retry-After`` and what moxzid restores, as
text; nothing ran, and agents retry it. ``/api/v2/status`` says ``replica_health_status: starting``.
A body that is not a well-formed request, an expired or far-future one (the text starts ``Invalid
request expiry: ``, on which the JS agent re-syncs its clock) and a refused read_state answer 400 (403
for reading another sender's request or, not being a controller, private metadata, or through
delegations whose targets leave out the URL's canister or the request's) with the reason as text,
as the IC does. Every answer allows any origin (CORS: moxzi_gateway_http's origins.py). A body over ``--max-message-bytes`` is the HTTP gateway's 413, one slower than
``--http-body-secs`` its 408. Nothing refused reaches an actor.
"""

from __future__ import annotations

import asyncio
import logging
import time

import cbor2
from aiohttp import web

from moxzi_core.candid import CandidError, Principal, decode_args, idl_hash
from moxzi_core.errors import MoxziError, Restoring, UnknownMethod
from moxzi_core.received import NotReceived, Received
from moxzi_core.runtime.inbox_bounds import CallsPerClient
from moxzi_core.runtime.messages import ANONYMOUS, MANAGEMENT, Reject
from moxzi_core.settings import STATE, Setting, Settings

from . import cbor
from .certificates import Identity, Keys
from .requests import Refused, Request, hash_of_map, read_envelope
from .statuses import Status, Statuses
from .system_canisters import SystemCanisters

log = logging.getLogger("moxzi.ic")

SYNC_WAIT_SECONDS = 10.0  # as the IC's synchronous call endpoint, then 202 and the client polls
MAX_PATHS = 100
MAX_PATH_LABELS = 10
CBOR = "application/cbor"
METHOD_NOT_FOUND = "IC0536"  # CanisterMethodNotFound: how clients tell a missing method (icp-cli's probes)
# Calls and queries one sender may have in flight by default: far more than an agent making calls one after
# another, or a handful at once, needs.
CALLS_PER_SENDER = 128
MAX_CALLS_PER_SENDER = Setting(
    "ic-max-calls-per-sender",
    "count",
    "update calls and queries one sender (a principal; the anonymous one per remote address) may "
    "have in flight over the IC interface; one more is rejected SYS_TRANSIENT (a call's "
    f"non_replicated_rejection, a query's signed reject) (default {CALLS_PER_SENDER})",
    default=CALLS_PER_SENDER,
    metavar="N",
)
# The ids of management and system canisters' calls received (moxzi_core.received), in two tables. A call
# its sender makes to a canister it controls counts against that canister, as the signed HTTP routes'
# requests do: canisters are bounded in number (--max-created-actors), so each keeps a fair share however
# many keys flood. The rest (create_canister, the cycles ledger's calls, a stranger's call naming a
# canister) counts against its sender in a smaller pool of their own: fresh keys cost nothing, so a flood
# of them can fill the pool, but not refuse a controller's call to its canister.
RECEIVED = b"ic/received/"  # the pool (and every id the previous main kept)
RECEIVED_BY_CANISTER = b"ic/received-by-canister/"
POOL_CAPACITY = 20_000  # 60 a second in an expiry window: creations are bounded far lower anyway


def build_ic_app(host, settings: Settings) -> web.Application:
    """The sub-application serving ``host`` over the IC interface; keys from ``settings[STATE]``. (The
    body's time is the HTTP plugin's setting, read by name: this plugin does not depend on that one.)"""
    app = web.Application()
    gateway = IcInterface(
        host,
        Identity(Keys.load_or_create(settings[STATE])),
        settings.http_body_secs,
        settings[MAX_CALLS_PER_SENDER],
    )
    host.certifier = gateway.identity  # actors' data certificates are signed with the same root key
    app.router.add_get("/v2/status", gateway.status)
    app.router.add_post(r"/{version:v[234]}/canister/{canister}/call", gateway.call)
    app.router.add_post(r"/{version:v[23]}/canister/{canister}/query", gateway.query)
    app.router.add_post(r"/{version:v[23]}/canister/{canister}/read_state", gateway.read_state)
    app.router.add_post(r"/{version:v[23]}/subnet/{subnet}/read_state", gateway.read_state)
    app.on_shutdown.append(gateway.shutdown)
    log.info("IC interface at /api: root key %s", gateway.identity.root_key_der[-96:].hex())
    return app


def _cbor(value, status: int = 200) -> web.Response:
    return web.Response(body=cbor2.dumps(value), status=status, content_type=CBOR)


def _rejection(code: Reject, message: str) -> web.Response:
    return _cbor(
        {
            "status": "non_replicated_rejection",
            "reject_code": code,
            "reject_message": message,
            "error_code": code.error_code,
        }
    )


def _rejected(code: int, error_code: str, message: str) -> dict:
    """A query's reject, before its signature."""
    return {"status": "rejected", "reject_code": code, "reject_message": message, "error_code": error_code}


def _sender(sender: bytes, request: web.Request) -> bytes:
    """Whom a call counts against: its sender, or for the anonymous principal, which anyone may use,
    the anonymous principal at the request's remote address."""
    if sender != ANONYMOUS:
        return sender
    return ANONYMOUS + (request.remote or "").encode()


def _refusal(error: MoxziError) -> tuple[Reject, str]:
    """The reject code and IC error code of a call the host refused: an unknown method is the
    canister's error IC0536 as on the IC, anything else an invalid destination."""
    if isinstance(error, UnknownMethod):
        return Reject.CANISTER_ERROR, METHOD_NOT_FOUND
    return Reject.DESTINATION_INVALID, Reject.DESTINATION_INVALID.error_code


def _text(message: str, status: int = 400) -> web.Response:
    return web.Response(text=message, status=status)


def _restoring(error: Restoring) -> web.Response:
    """moxzid is starting and the call or query needs what it has not restored yet: nothing ran."""
    return web.Response(text=str(error), status=error.status, headers={"Retry-After": str(error.retry_after)})


class IcInterface:
    def __init__(self, host, identity: Identity, body_secs: float, calls_per_sender: int = CALLS_PER_SENDER):
        self.host = host
        self.identity = identity
        self.body_secs = body_secs
        self.statuses = Statuses()
        self.received = Received(
            host.store,
            RECEIVED,
            "management and cycles-ledger calls naming no canister their sender controls",
            capacity=POOL_CAPACITY,
        )
        self.received_by_canister = Received(
            host.store, RECEIVED_BY_CANISTER, "management calls from canisters' controllers", key_name="canister"
        )
        self.system = SystemCanisters(host, identity.subnet_id)
        self._running: set[asyncio.Task] = set()
        # Calls and queries in flight by sender (`_sender`), only those with any: a v2 call is answered
        # 202 at once and runs on, and a query's handler runs on after its client hangs up, so without
        # this bound one sender could start any number of them.
        self._in_flight = CallsPerClient(calls_per_sender)

    async def shutdown(self, app) -> None:
        for task in self._running:
            task.cancel()

    def _actor(self, canister_id: bytes) -> str | None:
        """The name of the actor with this canister id."""
        return self.host.name_of(canister_id)

    async def status(self, request: web.Request) -> web.Response:
        return _cbor(
            {
                "root_key": self.identity.root_key_der,
                "replica_health_status": "healthy" if self.host.starting() is None else "starting",
                "ic_api_version": "0.18.0",
                "impl_version": "moxzid",
                "certified_height": 0,
            }
        )

    async def _envelope(self, request: web.Request, kind: str) -> Request:
        try:
            async with asyncio.timeout(self.body_secs):
                data = await request.read()
        except TimeoutError:
            raise web.HTTPRequestTimeout(
                text=f"the body did not arrive within {self.body_secs:g} s (--http-body-secs)"
            ) from None
        try:
            body = cbor.decode(data)
        except cbor.CborError as error:
            raise Refused(f"the body is not a CBOR request envelope: {error}", malformed=True) from None
        envelope = read_envelope(body, root_key_der=self.identity.root_key_der)
        if envelope.kind != kind:
            raise Refused(f"this route takes request_type {kind!r}, not {envelope.kind!r}", malformed=True)
        return envelope

    def _target(self, request: web.Request, envelope: Request) -> str:
        """The actor a call or query is for; its id must be the URL's (the effective canister id)."""
        effective = _effective(request)
        canister = envelope.content["canister_id"]
        if canister == MANAGEMENT:
            # The host finds the target of a management call in its argument and checks the caller is
            # one of its controllers; as on the IC, the URL must name that target.
            named = _argument_target(envelope.content["arg"])
            if named is not None and named != effective:
                raise Refused(
                    f"the management call's argument names canister {Principal(named)}, not the URL's "
                    f"effective canister id {Principal(effective)}",
                    malformed=True,
                )
            return str(Principal(MANAGEMENT))
        if canister != effective:
            raise Refused(f"content.canister_id {Principal(canister)} is not the URL's {Principal(effective)}")
        if self.system.serves(canister):
            return Principal(canister).to_text()
        name = self._actor(canister)
        if name is None:
            raise _Reject(Reject.DESTINATION_INVALID, f"no actor with canister id {Principal(canister)}")
        return name

    # --- update calls ------------------------------------------------------------------------
    async def call(self, request: web.Request) -> web.Response:
        try:
            envelope = await self._envelope(request, "call")
            name = self._target(request, envelope)
            starting = self.host.starting()  # an update call waits for every actor (`GatewayHost.starting`)
            if starting is not None:
                raise starting
        except Refused as refused:
            return _text(str(refused)) if refused.malformed else _rejection(Reject.CANISTER_REJECT, str(refused))
        except _Reject as reject:
            return _rejection(reject.code, reject.message)
        except Restoring as restoring:
            return _restoring(restoring)
        status = self.statuses.get(envelope.id)
        # Calls that change what is not an actor's own state are kept until they expire, so a captured
        # one resent never runs twice: management calls, and the system canisters' (a cycles-ledger
        # create_canister spends its sender's account).
        kept = envelope.content["canister_id"] == MANAGEMENT or self.system.serves(envelope.content["canister_id"])
        expiry = envelope.content["ingress_expiry"]
        if status is None and kept and self._known(envelope.id):
            # Received before moxzid restarted, or before the statuses forgot it: it ran (or runs), once.
            status = self.statuses.add(envelope.id, envelope.sender, expiry, _effective(request))
            if status is None:
                return _rejection(
                    Reject.SYS_TRANSIENT, "moxzid has too many recent update calls in memory; retry shortly"
                )
            status.status = "done"
            task = None
        elif status is None:
            sender = _sender(envelope.sender, request)
            if not self._in_flight.take(sender):
                return _rejection(Reject.SYS_TRANSIENT, self._too_many(envelope))
            status = self.statuses.add(envelope.id, envelope.sender, expiry, _effective(request))
            if status is None:
                self._in_flight.release(sender)
                return _rejection(
                    Reject.SYS_TRANSIENT, "moxzid has too many recent update calls in memory; retry shortly"
                )
            try:
                if kept:
                    table, key = self._received_in(envelope, _effective(request), sender)
                    table.receive(envelope.id, expiry, key)
            except NotReceived as refusal:
                self.statuses.forget(envelope.id)
                self._in_flight.release(sender)
                return _rejection(Reject.SYS_TRANSIENT, f"{refusal}; retry once some expire")
            task = asyncio.create_task(self._run(name, envelope, status))
            self._running.add(task)
            task.add_done_callback(self._running.discard)
            task.add_done_callback(lambda _: self._in_flight.release(sender))
        elif status.sender != envelope.sender:
            return _rejection(Reject.CANISTER_REJECT, "this request id was already used by another sender")
        else:
            task = None  # a resent request: answer with what became of the first one
        if request.match_info["version"] == "v2":
            return web.Response(status=202)
        if task is not None:
            await asyncio.wait([task], timeout=SYNC_WAIT_SECONDS)
        if status.status == "processing":
            return web.Response(status=202)
        return _cbor(
            {
                "status": "replied",
                "certificate": self.identity.certificate({b"request_status": {envelope.id: status.tree()}}),
            }
        )

    def _known(self, request_id: bytes) -> bool:
        return self.received.known(request_id) or self.received_by_canister.known(request_id)

    def _received_in(self, envelope: Request, effective: bytes, sender: bytes) -> tuple[Received, bytes]:
        """The table a kept call's id goes in and the key it counts against (see ``RECEIVED``): the
        canister a management call acts on (the URL's, which ``_target`` checked its argument names)
        when its sender controls it, else the sender (``_sender``) in the pool."""
        if envelope.content["canister_id"] == MANAGEMENT:
            name = self._actor(effective)
            if name is not None and envelope.sender in self.host.info(name).controllers:
                return self.received_by_canister, effective
        return self.received, sender

    def _too_many(self, envelope: Request) -> str:
        return (
            f"sender {Principal(envelope.sender)} has {self._in_flight.limit} calls and queries in flight, the "
            f"most a sender may (moxzid --ic-max-calls-per-sender {self._in_flight.limit}); retry once some "
            "are answered"
        )

    async def _outcome(self, name: str, envelope: Request, *, query: bool):
        """What actor ``name``, or the system canister the envelope names (``system_canisters``),
        answered its call or query. A call is keyed by its request id, so a request resent after a
        restart (when ``statuses`` are gone) gets the first run's outcome instead of running again."""
        content = envelope.content
        if self.system.serves(content["canister_id"]):
            return self.system.call(
                content["canister_id"], content["method_name"], content["arg"], query=query, caller=envelope.sender
            )
        return await self.host.call(
            name,
            content["method_name"],
            content["arg"],
            query=query,
            caller=envelope.sender,
            key=None if query else envelope.id,
        )

    async def _run(self, name: str, envelope: Request, status: Status) -> None:
        content = envelope.content
        try:
            outcome = await self._outcome(name, envelope, query=False)
        except MoxziError as error:
            status.status, status.reject_message = "rejected", str(error)
            status.reject_code, status.error_code = _refusal(error)
            return
        except Exception as error:  # a failure here must still answer, or the caller polls until expiry
            log.exception("%s.%s failed", name, content["method_name"])
            status.status, status.reject_code = "rejected", Reject.SYS_FATAL
            status.reject_message = f"internal error: {type(error).__name__}: {error}"
        else:
            if outcome.reply is not None:
                self.statuses.replied(status, outcome.reply)
                return
            status.status = "rejected"
            status.reject_code, status.reject_message = outcome.reject_code, outcome.reject_message
        status.error_code = Reject.error_code_of(status.reject_code)

    # --- queries -----------------------------------------------------------------------------
    async def query(self, request: web.Request) -> web.Response:
        try:
            envelope = await self._envelope(request, "query")
            name = self._target(request, envelope)
        except Refused as refused:
            return _text(str(refused)) if refused.malformed else _rejection(Reject.CANISTER_REJECT, str(refused))
        except _Reject as reject:  # a query's reject is signed like its reply: agents accept no other
            answer = _rejected(reject.code, reject.code.error_code, reject.message)
        except Restoring as restoring:
            return _restoring(restoring)
        else:
            sender = _sender(envelope.sender, request)
            if self._in_flight.take(sender):
                try:
                    answer = await self._query_answer(name, envelope)
                except Restoring as restoring:
                    return _restoring(restoring)
                finally:
                    self._in_flight.release(sender)
            else:
                answer = _rejected(Reject.SYS_TRANSIENT, Reject.SYS_TRANSIENT.error_code, self._too_many(envelope))
        timestamp = time.time_ns()
        signed = hash_of_map({**answer, "timestamp": timestamp, "request_id": envelope.id})
        signature = {"timestamp": timestamp, **self.identity.sign_response(signed)}
        return _cbor({**answer, "signatures": [signature]})

    async def _query_answer(self, name: str, envelope: Request) -> dict:
        """A query's answer, before its signature."""
        try:
            outcome = await self._outcome(name, envelope, query=True)
        except Restoring:
            raise  # (answered 503: nothing ran)
        except MoxziError as error:
            return _rejected(*_refusal(error), str(error))
        if outcome.reply is not None:
            return {"status": "replied", "reply": {"arg": outcome.reply}}
        code = outcome.reject_code
        return _rejected(code, Reject.error_code_of(code), outcome.reject_message)

    # --- read_state --------------------------------------------------------------------------
    async def read_state(self, request: web.Request) -> web.Response:
        try:
            envelope = await self._envelope(request, "read_state")
            tree = self._state(envelope, request.match_info.get("canister"))
        except Refused as refused:
            return _text(str(refused))
        except _Forbidden as forbidden:
            return _text(str(forbidden), 403)
        return _cbor({"certificate": self.identity.certificate(tree)})

    def _state(self, envelope: Request, canister_text: str | None) -> dict:
        """The tree holding every requested path (``time`` is added by the certificate). A sender whose
        delegations name targets reads through those canisters only, and the requests made to them."""
        if canister_text is not None and not envelope.allows(_canister_id(canister_text)):
            raise _Forbidden(f"the sender's delegations do not allow canister {canister_text}")
        paths = envelope.content["paths"]
        if len(paths) > MAX_PATHS:
            raise Refused(f"at most {MAX_PATHS} paths in one read_state")
        tree: dict = {}
        for path in paths:
            if (
                not isinstance(path, list)
                or not path
                or len(path) > MAX_PATH_LABELS
                or not all(isinstance(label, bytes) for label in path)
            ):
                raise Refused(f"a path is a list of 1 to {MAX_PATH_LABELS} byte strings, got {path!r:.80}")
            _merge(tree, self._path(path, envelope, canister_text))
        return tree

    def _path(self, path: list[bytes], envelope: Request, canister_text: str | None) -> dict:
        head, sender = path[0], envelope.sender
        if head == b"time":
            return {}
        if head == b"subnet":
            return self.identity.subnet_tree()
        if head == b"request_status" and len(path) >= 2:
            status = self.statuses.get(path[1])
            if status is None:
                return {}  # unknown: absent from the tree, which clients read as "not yet received"
            if status.sender != sender:
                raise _Forbidden("request_status of a request another sender made")
            if not envelope.allows(status.canister):
                raise _Forbidden(
                    f"request_status of a request to canister {Principal(status.canister)}, which the sender's "
                    "delegations do not allow"
                )
            return {b"request_status": {path[1]: status.tree()}}
        if head == b"canister" and len(path) >= 3:
            if canister_text is None or _canister_id(canister_text) != path[1]:
                raise Refused("canister paths must name the URL's canister")
            name = self._actor(path[1])
            if name is None:
                return {}
            info = self.host.info(name)
            if path[2] == b"module_hash":
                return {} if info.module_hash is None else {b"canister": {path[1]: {b"module_hash": info.module_hash}}}
            if path[2] == b"controllers":
                return {b"canister": {path[1]: {b"controllers": cbor2.dumps(list(info.controllers))}}}
            if path[2] == b"metadata" and len(path) == 4:
                metadata_name = path[3].decode(errors="replace")
                if metadata_name in info.private_metadata and sender not in info.controllers:
                    raise _Forbidden(f"metadata {metadata_name!r} is private: only the actor's controllers may read it")
                value = info.metadata.get(metadata_name)
                return {} if value is None else {b"canister": {path[1]: {b"metadata": {path[3]: value}}}}
        raise Refused(
            f"unsupported path {'/'.join(label.decode(errors='replace') for label in path)}: "
            "moxzid serves time, subnet, request_status/ID, canister/ID/module_hash, "
            "canister/ID/controllers and canister/ID/metadata/NAME"
        )


# Where a management method's argument names the canister it acts on (install_chunked_code's target).
TARGET_FIELDS = (idl_hash("target_canister"), idl_hash("canister_id"))


def _argument_target(arg: bytes) -> bytes | None:
    """The canister a management call's argument names, or None when it names none (create_canister)
    or does not decode (the host then refuses it, saying why)."""
    try:
        values = decode_args(arg)
    except CandidError:
        return None
    if len(values) != 1 or not isinstance(values[0], dict):
        return None
    for field in TARGET_FIELDS:
        if isinstance(values[0].get(field), Principal):
            return values[0][field].bytes
    return None


def _canister_id(text: str) -> bytes:
    """A canister id in a URL; raises Refused for one that is not a principal."""
    try:
        return Principal.from_text(text).bytes
    except CandidError as error:
        raise Refused(f"the URL's canister id: {error}") from None


def _effective(request: web.Request) -> bytes:
    """The effective canister id of a call (its URL's), once ``_target`` has checked it."""
    return _canister_id(request.match_info["canister"])


def _merge(into: dict, tree: dict) -> None:
    for label, value in tree.items():
        if isinstance(value, dict) and isinstance(into.get(label), dict):
            _merge(into[label], value)
        else:
            into[label] = value


class _Reject(Exception):
    def __init__(self, code: Reject, message: str):
        super().__init__(message)
        self.code, self.message = code, message


class _Forbidden(Exception):
    pass
