"""The network side of HTTPS outcalls (the management canister's ``http_request``, `outcalls`): real
requests with aiohttp, bounded in number (per actor and in all), in time and in the bytes they read,
and kept off the machine's own and its network's services.

A request's host name is resolved here and every address it resolves to is checked: a loopback,
link-local, private or otherwise non-global address is refused unless the host or that address is
named in ``--http-outcalls-allow``. The connection then goes to the checked addresses only (aiohttp is
given a resolver that answers with them), so a DNS answer that changes between the check and the
connection (DNS rebinding) cannot send it elsewhere. Redirects are not followed, as on the IC.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult
from yarl import URL

from ..messages import Reject

TIMEOUT_SECS = 30  # the IC's HTTPS outcalls give up after about 30 s
MAX_IN_FLIGHT = 50
MAX_IN_FLIGHT_PER_ACTOR = 10
# The IC's bounds on a request's headers and a response's, each
MAX_HEADERS = 64
MAX_HEADER_PART_BYTES = 8 * 1024  # a header's name, and its value
MAX_HEADERS_BYTES = 48 * 1024  # all names and values together
USER_AGENT = "ic/1.0"  # what the IC's adapter sends when the canister names none


@dataclass(frozen=True)
class OutcallConfig:
    """How moxzid makes HTTPS outcalls (`outcalls_settings.outcall_config` makes one from its settings)."""

    enabled: bool = True  # --http-outcalls on|off
    allow: frozenset[str] = field(default_factory=frozenset)  # hosts and addresses reachable though not global
    timeout_secs: float = TIMEOUT_SECS
    max_in_flight: int = MAX_IN_FLIGHT  # outcalls of all actors at once
    max_in_flight_per_actor: int = MAX_IN_FLIGHT_PER_ACTOR


class OutcallFailed(Exception):
    """An outcall got no response the canister may see: the IC's reject code and message for it."""

    def __init__(self, code: Reject, message: str):
        super().__init__(message)
        self.code, self.message = code, message


@dataclass(frozen=True)
class Fetched:
    status: int
    headers: list[tuple[str, str]]
    body: bytes


class Web:
    """Makes outcalls for the management canister, on the host's event loop."""

    def __init__(self, config: OutcallConfig):
        self.config = config
        self._allow = {_bare(host) for host in config.allow}
        self._in_flight: dict[str, int] = {}
        self._running: set[asyncio.Task] = set()

    @contextmanager
    def slot(self, actor: str) -> Iterator[None]:
        """Hold one of the outcalls ``actor`` and all actors may make at once; raises OutcallFailed
        (SYS_TRANSIENT: a retry may find room) when none is free."""
        total, mine = sum(self._in_flight.values()), self._in_flight.get(actor, 0)
        if total >= self.config.max_in_flight or mine >= self.config.max_in_flight_per_actor:
            raise OutcallFailed(
                Reject.SYS_TRANSIENT,
                f"too many HTTPS outcalls in flight ({mine} of actor {actor}, {total} in all; moxzid "
                f"--max-http-outcalls-per-actor {self.config.max_in_flight_per_actor}, --max-http-outcalls "
                f"{self.config.max_in_flight}): try again later",
            )
        self._in_flight[actor] = mine + 1
        task = asyncio.current_task()
        if task is not None:
            self._running.add(task)
        try:
            yield
        finally:
            if task is not None:
                self._running.discard(task)
            left = self._in_flight[actor] - 1
            if left:
                self._in_flight[actor] = left
            else:
                del self._in_flight[actor]

    def close(self) -> None:
        """Cut short the outcalls in flight (the host stops): their calls stay pending, and a restart
        makes them again, as after a crash."""
        for task in self._running:
            task.cancel()

    async def fetch(self, method: str, url: str, headers: list[tuple[str, str]], body: bytes, limit: int) -> Fetched:
        """One request; its response, whose headers and body are at most ``limit`` bytes together.
        Raises OutcallFailed with the IC's reject for what went wrong."""
        try:
            target = URL(url)
        except (ValueError, TypeError) as error:
            raise OutcallFailed(Reject.SYS_FATAL, f"Failed to parse URL: {error}") from None
        if target.scheme not in ("http", "https") or not target.host:
            raise OutcallFailed(Reject.SYS_FATAL, f"the URL must be http:// or https:// with a host, got {url[:200]!r}")
        addresses = await self._addresses(target.host, target.port or 443)
        if not any(name.lower() == "user-agent" for name, _ in headers):
            headers = [*headers, ("User-Agent", USER_AGENT)]
        connector = aiohttp.TCPConnector(resolver=_Pinned(addresses), use_dns_cache=False, force_close=True)
        timeout = aiohttp.ClientTimeout(total=self.config.timeout_secs)
        try:
            async with aiohttp.ClientSession(connector=connector, timeout=timeout, auto_decompress=False) as session:
                async with session.request(
                    method, target, headers=headers, data=body or None, allow_redirects=False
                ) as response:
                    return await _read(response, limit)
        except TimeoutError:
            raise OutcallFailed(Reject.SYS_TRANSIENT, f"Timeout expired ({self.config.timeout_secs} s)") from None
        except aiohttp.ClientResponseError as error:  # a response HTTP cannot read (a header line too long)
            raise OutcallFailed(Reject.SYS_FATAL, f"Http response from {target.host} is malformed: {error}") from None
        except (aiohttp.ClientError, OSError) as error:
            raise OutcallFailed(Reject.SYS_TRANSIENT, f"Connecting to {target.host} failed: {error}") from None

    async def _addresses(self, host: str, port: int) -> list[tuple[int, str]]:
        """Every address ``host`` resolves to (family, address), each allowed; else OutcallFailed."""
        try:
            infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except OSError as error:
            raise OutcallFailed(Reject.SYS_TRANSIENT, f"Connecting to {host} failed: DNS error: {error}") from None
        addresses = list(dict.fromkeys((int(family), str(sockaddr[0])) for family, _, _, _, sockaddr in infos))
        if _bare(host) in self._allow:
            return addresses
        for _, address in addresses:
            ip = ipaddress.ip_address(address.split("%")[0])
            if not _global(ip) and str(ip) not in self._allow:
                raise OutcallFailed(
                    Reject.SYS_FATAL,
                    f"{host} resolves to {ip}, an address of this machine or a private network, which "
                    f"HTTPS outcalls may not reach (moxzid --http-outcalls-allow {host} allows it)",
                )
        return addresses


async def _read(response: aiohttp.ClientResponse, limit: int) -> Fetched:
    """The response, or the IC's SYS_FATAL reject when its headers and body pass ``limit`` bytes, or its
    headers the IC's bounds (a header line longer than aiohttp's 8190 bytes fails as it is read)."""
    headers = [(name.decode("latin-1"), value.decode("latin-1")) for name, value in response.raw_headers]
    header_bytes = sum(len(name) + len(value) for name, value in headers)
    if len(headers) > MAX_HEADERS or header_bytes > MAX_HEADERS_BYTES:
        raise OutcallFailed(
            Reject.SYS_FATAL,
            f"the response has {len(headers)} headers of {header_bytes} bytes; the limits are {MAX_HEADERS} "
            f"headers and {MAX_HEADERS_BYTES} bytes",
        )
    if header_bytes > limit:
        raise OutcallFailed(Reject.SYS_FATAL, f"Header size exceeds specified response size limit {limit}")
    room, body = limit - header_bytes, bytearray()
    async for chunk in response.content.iter_chunked(64 * 1024):
        body += chunk
        if len(body) > room:
            raise OutcallFailed(Reject.SYS_FATAL, f"Http body exceeds size limit of {limit} bytes.")
    return Fetched(response.status, headers, bytes(body))


def _global(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether ``ip`` is on the public internet (an IPv4 address written as IPv6 is judged as IPv4)."""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def _bare(host: str) -> str:
    """A host as the allow list compares it: lower case, an IPv6 literal without its brackets."""
    return host.strip().strip("[]").lower()


class _Pinned(AbstractResolver):
    """Answers every lookup with the addresses already checked: the connection goes there only."""

    def __init__(self, addresses: list[tuple[int, str]]):
        self._addresses = addresses

    async def resolve(self, host: str, port: int = 0, family: Any = socket.AF_INET) -> list[ResolveResult]:
        return [
            ResolveResult(hostname=host, host=address, port=port, family=fam, proto=0, flags=socket.AI_NUMERICHOST)
            for fam, address in self._addresses
        ]

    async def close(self) -> None:
        return None
