"""Which requests a web browser may have sent on a page's behalf, and which of those the gateway takes.

Reaching the port is the authority of most routes (the JSON and text call routes, ``/upgrade``,
``/cycles``, ``/actors``, the console, ``/events``, ``/metrics``), and any web page the machine's
browser opens reaches the port too. Two checks keep pages out, as Jupyter Server, Vite
(``server.allowedHosts``) and Ollama (``OLLAMA_ORIGINS``) do:

- ``Host`` must be one of moxzid's own names (``OwnNames``), on every route: a page on a domain that
  DNS rebinding points at 127.0.0.1 sends its own name, and is refused before it can read an answer.
  A request without ``Host`` (HTTP/1.0) is no browser's, and is taken.
- On the routes whose authority is ambient (all but the IC interface), a request with an ``Origin``
  must come from moxzid's own origin (the console) or one ``--allowed-origins`` names. Browsers send
  ``Origin`` with every POST, ``no-cors`` ones included (``Origin: null`` from a ``file://`` page or a
  sandboxed frame), so a page on another origin changes nothing. Requests without ``Origin`` (curl,
  agents, scripts) are not a page's and are taken.

The IC interface (``/api``) authenticates each request by its sender's signature, so, as the IC's own
gateways do, it answers pages on any origin (CORS ``*``): a dapp in a browser uses its agent as on the
IC, and a page calls as whoever it holds keys for, or as the anonymous principal any client may use.
"""

from __future__ import annotations

import ipaddress
import socket

from aiohttp import web

from moxzi_core.settings import Address

IC_PREFIX = "/api"
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
WILDCARDS = ("", "0.0.0.0", "::")
CORS_HEADERS = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
    "Access-Control-Allow-Headers": "Content-Type",
    "Access-Control-Max-Age": "600",
}


class OwnNames:
    """moxzid's names for a listen address: the ``Host`` values it answers and the origins its own
    pages have. ``allowed_hosts`` are more names (``NAME`` on any port, or ``NAME:PORT``);
    ``allowed_origins`` more origins (``http://localhost:5173``) whose pages may use every route."""

    def __init__(self, allowed_hosts: list[str], allowed_origins: list[str]):
        self._extra_hosts = {h.lower() for h in allowed_hosts}
        self._extra_origins = {o.lower().rstrip("/") for o in allowed_origins}
        self._hosts: frozenset[str] = frozenset()
        self._port: int | None = None
        self._ip_literals = False

    def bound(self, address: Address) -> None:
        """Take the names of the address the gateway bound (its port known only then)."""
        host = f"[{address.host}]" if ":" in address.host else address.host
        names = {host, *LOOPBACK_NAMES}
        if address.host in WILDCARDS:
            # Serving every interface: the machine's own names, and any IP literal (its addresses are
            # many and change; a literal cannot be rebound, which takes a name).
            names |= {socket.gethostname().lower(), socket.getfqdn().lower()}
            self._ip_literals = True
        # With its port, or without (HTTP/1.0 clients, port 80): no other server's name either way.
        self._hosts = frozenset(names) | frozenset(f"{name}:{address.port}" for name in names)
        self._port = address.port

    def host_allowed(self, host: str) -> bool:
        host = host.lower()
        if host in self._hosts or host in self._extra_hosts:
            return True
        name, port = _split(host)
        if name in self._extra_hosts:
            return True
        return self._ip_literals and port == self._port and _is_ip_literal(name)

    def origin_allowed(self, origin: str, host: str) -> bool:
        """Whether a page on ``origin`` may use the ambient routes of the gateway it reached as ``host``:
        its own page (the name and port it reached; https too, behind a proxy that ends TLS and passes
        the Host on), or an origin the flag names."""
        origin = origin.lower()
        return origin in (f"http://{host.lower()}", f"https://{host.lower()}") or origin in self._extra_origins


def _split(host: str) -> tuple[str, int | None]:
    """(name, port) of a Host value; the port None when absent or not a number."""
    if host.startswith("["):
        name, _, rest = host.partition("]")
        port = rest.removeprefix(":")
        return name + "]", int(port) if port.isdigit() else None
    name, colon, port = host.rpartition(":")
    if not colon:
        return host, None
    return name, int(port) if port.isdigit() else None


def _is_ip_literal(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


def middleware(names: OwnNames):
    """The aiohttp middleware applying the checks (module docstring) before any route runs."""

    @web.middleware
    async def check(request: web.Request, handler) -> web.StreamResponse:
        host = request.headers.get("Host")
        # No Host at all (an HTTP/1.0 client) is no browser's: they always send the page's name.
        if host is not None and not names.host_allowed(host):
            return _refused(
                f"Host {host!r} is not one of moxzid's names; a name moxzid is reached by "
                "(a proxy's, another machine's) needs --allowed-hosts NAME"
            )
        if request.path == IC_PREFIX or request.path.startswith(IC_PREFIX + "/"):
            if request.method == "OPTIONS":  # a browser's preflight before a CBOR POST
                return web.Response(status=204, headers=CORS_HEADERS)
            response = await handler(request)
            response.headers.update(CORS_HEADERS)
            return response
        origin = request.headers.get("Origin")
        if origin is not None and not names.origin_allowed(origin, host or ""):
            return _refused(
                f"a page on {origin} may not use {request.path}: only moxzid's own pages may (a page "
                "on another origin needs --allowed-origins ORIGIN; the IC interface /api is open to "
                "every origin)"
            )
        return await handler(request)

    return check


def _refused(message: str) -> web.Response:
    return web.json_response({"error": message}, status=403)
