"""HTTPS outcalls: the management canister's ``http_request``, as the IC specifies it.

A canister (never a caller outside) asks for one request: GET, HEAD, POST (PUT, DELETE and PATCH too,
as the current interface has them), with its headers and body. The management canister checks it as
the IC does (the URL's length, the headers', the request's and ``max_response_bytes``, at most 2 MB and
2 MB when not given; a transform of the caller's own), takes the IC's fee from the cycles the call
attached when moxzid charges cycles (the rest goes back with the answer), and makes the request
(`web.Web`: bounded, kept off private addresses). The response, at most ``max_response_bytes`` of
headers and body, goes through the caller's transform, a query it exports, called with
``{response; context}`` as the management canister; its answer is the reply.

The answer is recorded as every management call's is: the call is pending in the store until its
answer is written, in one batch, to the caller's inbox. A restart after that replays the canister's
messages against the answer it got and never asks the network again; a restart before it makes the
request again, as an answer never given.
"""

from __future__ import annotations

from ...candid import FuncType, Opt, Record, encode_args
from ..messages import MANAGEMENT, FromActor, Outcome, Reject
from .interface import SERVICE, reply
from .request import Manager, Request
from .web import MAX_HEADER_PART_BYTES, MAX_HEADERS, MAX_HEADERS_BYTES, OutcallFailed

MAX_RESPONSE_BYTES = 2_000_000  # max_response_bytes' ceiling and default
MAX_REQUEST_BYTES = 2_000_000  # the request's headers and body together
MAX_URL_BYTES = 8192
SUBNET_SIZE = 13  # the fee is an application subnet's: every one of its 13 replicas makes the request
_METHODS = {"get": "GET", "head": "HEAD", "post": "POST", "put": "PUT", "delete": "DELETE", "patch": "PATCH"}


def _transform_args_type():
    """``record { response : http_request_result; context : blob }``, as http_request_args spells it."""
    args = SERVICE.methods["http_request"]
    assert isinstance(args, FuncType)
    record = args.args[0].type  # the named http_request_args
    transform = record.by_key["transform"].type
    assert isinstance(transform, Opt) and isinstance(transform.type, Record)
    function = transform.type.by_key["function"].type
    assert isinstance(function, FuncType)
    return function.args[0]


TRANSFORM_ARGS = _transform_args_type()


def fee(request_bytes: int, response_bytes: int, subnet_size: int = SUBNET_SIZE) -> int:
    """The cycles the IC charges for an outcall: a base fee, and one per byte of the request and of the
    response it may get (``max_response_bytes``), for each replica of the subnet."""
    n = subnet_size
    return (3_000_000 + 60_000 * n) * n + 400 * n * request_bytes + 800 * n * response_bytes


def request_bytes(argument: dict) -> int:
    """What the fee counts of a request: its URL, headers, body, transform's method name and context."""
    transform = argument["transform"]
    transform = transform.value if transform is not None else None
    return (
        len(argument["url"].encode())
        + sum(len(h["name"].encode()) + len(h["value"].encode()) for h in argument["headers"])
        + len(_body(argument))
        + (len(transform["function"].method.encode()) + len(transform["context"]) if transform else 0)
    )


async def http_request(manager: Manager, request: Request, target: None) -> Outcome:
    """The outcall a canister asks for, answered with its (transformed) response or the IC's reject;
    the cycles attached come back (``Outcome.refund``) less the fee once the request is made."""
    attached = request.cycles
    if not isinstance(request.origin, FromActor):
        return Outcome.reject(Reject.CANISTER_REJECT, "http_request can be called by canisters only")
    if not manager.web.config.enabled:
        return Outcome.reject(
            Reject.CANISTER_REJECT, "HTTPS outcalls are off on this moxzid (moxzid --http-outcalls off)", attached
        )
    argument = request.argument
    try:
        _check(argument, request.caller)
    except InvalidRequest as problem:
        return Outcome.reject(Reject.CANISTER_REJECT, str(problem), attached)
    caller = manager.actor_with(request.caller)
    if caller is None:
        return Outcome.reject(Reject.CANISTER_REJECT, "the calling canister is gone", attached)
    limit = _limit(argument)
    charging = manager.ledger is not None and manager.ledger.charging
    cost = fee(request_bytes(argument), limit) if charging else 0
    if attached < cost:
        why = f"http_request request sent with {attached} cycles, but {cost} cycles are required."
        return Outcome.reject(Reject.CANISTER_REJECT, why, attached)
    refund = attached  # all of them, until the request is made
    try:
        with manager.web.slot(caller.name):
            if manager.ledger is not None and cost:  # kept: the cycles attached paid it (spent, not moved)
                manager.ledger.transfer(request.batch, caller.name, 0, cost)
            refund = attached - cost
            method = _METHODS[next(iter(argument["method"]))]
            headers = [(h["name"], h["value"]) for h in argument["headers"]]
            fetched = await manager.web.fetch(method, argument["url"], headers, _body(argument), limit)
    except OutcallFailed as failure:
        return Outcome.reject(failure.code, failure.message, refund)
    result = {
        "status": fetched.status,
        "headers": [{"name": name, "value": value} for name, value in fetched.headers],
        "body": fetched.body,
    }
    transform = argument["transform"]
    if transform is None:
        return Outcome(reply("http_request", result), refund=refund)
    function, context = transform.value["function"], transform.value["context"]
    transformed = await manager.ask(
        caller, function.method, encode_args([TRANSFORM_ARGS], [{"response": result, "context": context}]), MANAGEMENT
    )
    if transformed.reply is None:
        return Outcome(None, transformed.reject_code, transformed.reject_message, refund=refund)
    if len(transformed.reply) > limit:
        return Outcome.reject(Reject.SYS_FATAL, f"Transformed http response exceeds limit: {limit}", refund)
    return Outcome(transformed.reply, refund=refund)


def _body(argument: dict) -> bytes:
    body = argument["body"]
    return bytes(body.value) if body is not None else b""


def _limit(argument: dict) -> int:
    given = argument["max_response_bytes"]
    return MAX_RESPONSE_BYTES if given is None else given.value


class InvalidRequest(ValueError):
    """Why the management canister refuses an http_request before making it."""


def _check(argument: dict, caller: bytes) -> None:
    """Raise InvalidRequest, saying why as the IC words it, if the management canister refuses this request
    before making it."""
    url = argument["url"]
    if len(url.encode()) > MAX_URL_BYTES:
        raise InvalidRequest(f"url is too long: {len(url.encode())} bytes, the limit is {MAX_URL_BYTES}")
    if _limit(argument) > MAX_RESPONSE_BYTES:
        raise InvalidRequest(
            f"max_response_bytes expected to be in the range [0..{MAX_RESPONSE_BYTES}], got {_limit(argument)}"
        )
    headers = argument["headers"]
    if len(headers) > MAX_HEADERS:
        raise InvalidRequest(f"number of http headers exceeds the limit of {MAX_HEADERS}: {len(headers)}")
    for header in headers:
        for part in ("name", "value"):
            if len(header[part].encode()) > MAX_HEADER_PART_BYTES:
                raise InvalidRequest(
                    f"http header {part} exceeds size limit of {MAX_HEADER_PART_BYTES}: {header['name'][:40]!r}"
                )
    header_bytes = sum(len(h["name"].encode()) + len(h["value"].encode()) for h in headers)
    if header_bytes > MAX_HEADERS_BYTES:
        raise InvalidRequest(
            f"total size of http headers exceeds the limit of {MAX_HEADERS_BYTES} bytes: {header_bytes}"
        )
    if header_bytes + len(_body(argument)) > MAX_REQUEST_BYTES:
        raise InvalidRequest(
            f"http request size exceeds the limit of {MAX_REQUEST_BYTES} bytes: {header_bytes + len(_body(argument))}"
        )
    transform = argument["transform"]
    if transform is not None and bytes(transform.value["function"].service.bytes) != caller:
        raise InvalidRequest("http_request transform function must be exported by the calling canister")
