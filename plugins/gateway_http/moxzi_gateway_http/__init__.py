"""moxzid's HTTP gateway, a plugin like any other: it registers the gateway ``http``.

Routes (all answers JSON unless stated):

- ``POST /call-json/ACTOR/METHOD``: body a JSON array of the arguments; runs an update call (a query
  method runs as a query and leaves no trace) and answers the JSON array of its results.
- ``POST /query-json/ACTOR/METHOD``: the same as a query; an update method here is a 400.
- ``POST /upgrade/ACTOR``: body the new wasm; answers the text ``upgraded``.
- ``GET /actors``: each actor's name, principal, persistence mode and methods with their Candid types.

Errors answer ``{"error": MESSAGE}`` with the status ``moxzi_gateway_http.routes`` documents.
"""

from moxzi_core.hookspecs import hookimpl

from .server import HttpGateway


@hookimpl
def register_gateways(register):
    register("http", HttpGateway)
