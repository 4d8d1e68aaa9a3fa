"""The core's public modules: what a plugin may import. The rest of moxzi_core may change inside without a
plugin noticing. tests/test_plugins.py checks every plugin against this list, and the docs point here
rather than copy it."""

PUBLIC_MODULES = frozenset(
    {
        "moxzi_core.hookspecs",  # the extension points and what each register takes
        "moxzi_core.host_api",  # what a gateway may use of the host
        "moxzi_core.readouts",  # what the device says of itself (the console, /metrics)
        "moxzi_core.settings",  # Setting, Settings, SettingsError
        "moxzi_core.errors",  # the errors gateways turn into HTTP statuses
        "moxzi_core.store",  # the Store a store plugin provides
        "moxzi_core.candid",  # Candid values, types and codecs
        "moxzi_core.device",  # Op, Kernel, Backend and the device's public face
        "moxzi_core.device.transfer",  # Transport: moving publications between machines
        "moxzi_core.device.weights",  # safetensors in and out
        "moxzi_core.runtime.inbox_bounds",  # CallsPerClient: a client's calls in flight
        "moxzi_core.runtime.messages",  # Outcome, Reject, the principals every caller knows
        "moxzi_core.events",  # the event stream
        "moxzi_core.signatures",  # senders' signatures
        "moxzi_core.signed_http",  # controllers' signed HTTP requests
        "moxzi_core.received",  # management calls received, so none runs twice
        "moxzi_core.ledger_accounts",  # the cycles ledger's accounts
        "moxzi_core.backup",  # a copy of the state directory while moxzid runs
    }
)
