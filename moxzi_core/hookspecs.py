"""The extension points of moxzi: every hook a plugin may implement.

Each hook hands the plugin a ``register`` callable; the plugin calls it with the objects it contributes
and never reaches into the core. moxzi's own plugins (``http``, ``ic``, ``lmdb``, ``torch``, ``triton``) use
exactly these hooks, through the same entry-point group (``moxzi``) as a third party's would.
"""

import pluggy

hookspec = pluggy.HookspecMarker("moxzi")
hookimpl = pluggy.HookimplMarker("moxzi")


@hookspec
def register_ops(register):
    """Register device ops: ``register(op)`` with an object describing one op (its name, Candid payload
    type, shape rule, and an implementation per backend). A later registration of the same name from
    another plugin is a start-up error, so two plugins never silently fight over an op."""


@hookspec
def register_backends(register):
    """Register device backends: ``register(name, factory)``, where ``factory(spec)`` builds the backend
    for a ``--device`` value such as ``torch:cpu`` (``name`` is the part before the colon)."""


@hookspec
def register_stores(register):
    """Register state stores: ``register(name, opener)``, where ``opener(directory)`` opens (creating if
    needed) the store that keeps everything moxzid must not lose under ``-s DIRECTORY``."""


@hookspec
def register_gateways(register):
    """Register gateways that serve the host to the outside: ``register(name, factory)``, where
    ``factory(host, config, http_apps)`` returns an object with ``async start()`` and ``async stop()``;
    ``http_apps`` is what ``register_http_apps`` collected, for a gateway that serves HTTP to mount."""


@hookspec
def register_http_apps(register):
    """Register more HTTP routes on the HTTP gateway's address: ``register(prefix, factory)``, where
    ``factory(host, config)`` returns an ``aiohttp.web.Application`` the gateway mounts at ``prefix``
    (``/api``: the IC HTTP interface of the ``ic`` plugin). Two plugins cannot claim one prefix."""


@hookspec
def register_billing(register):
    """Register a price list: ``register(name, billing)``, where ``billing`` prices work (device time,
    wasm instructions) in cycles. The last registered price list wins, so a third-party plugin can
    replace the default one without touching the core."""
