"""A third party's plugin, written against moxzi's public hooks alone (the tests use it to keep them so).

- the setting ``--line-listen HOST:PORT`` (default 127.0.0.1:0), read back by its gateway;
- the gateway ``line``: a TCP line protocol. A client sends ``ACTOR METHOD`` and a newline; the method
  is called as an update with no arguments, and the answer is one line, ``ok HEX`` (the Candid reply)
  or ``reject CODE MESSAGE``. It logs ``line gateway on HOST:PORT`` once serving;
- the store ``logfile``: every committed batch appended to ``DIR/batches.log``, replayed at open.
"""

from moxzi_core.hookspecs import hookimpl
from moxzi_core.settings import Address, Setting

from .gateway import LineGateway
from .store import LogFileStore


@hookimpl
def register_settings(register):
    register(
        Setting(
            "line-listen",
            "address",
            "address the line gateway (linegate plugin) serves on",
            default=Address("127.0.0.1", 0),
            metavar="HOST:PORT",
        )
    )


@hookimpl
def register_gateways(register):
    register("line", LineGateway)


@hookimpl
def register_stores(register):
    register("logfile", LogFileStore.open)
