"""moxzid's HTTP gateway, a plugin like any other: it registers the gateway ``http``.

Routes (all answers JSON unless stated):

- ``POST /call-json/ACTOR/METHOD``: body a JSON array of the arguments; runs an update call (a query
  method runs as a query and leaves no trace) and answers the JSON array of its results.
- ``POST /query-json/ACTOR/METHOD``: the same as a query; an update method here is a 400.
- ``POST /upgrade/ACTOR``: body the new wasm; answers the text ``upgraded``.
- ``GET /actors``: each actor's name, principal, persistence mode and methods with their Candid types.
- ``GET /cycles``: each actor's cycles, ``{ACTOR: {"balance": B, "spent": S}}`` (with ``--cycles 0``
  nothing is charged: every balance and spent is 0).
- ``POST /cycles/ACTOR``: body ``{"add": N}``, N > 0; adds N cycles to the actor's balance and answers
  ``{"balance": B, "spent": S}`` after it. 409 when moxzid does not charge cycles.

Errors answer ``{"error": MESSAGE}`` with the status ``moxzi_gateway_http.routes`` documents.
"""

from moxzi_core.hookspecs import hookimpl

from .server import HttpGateway


@hookimpl
def register_gateways(register):
    register("http", HttpGateway)
