"""moxzid's persistent state store, a plugin like any other: it registers the store ``lmdb``.

``moxzid -s DIR --plugins lmdb`` keeps everything in one LMDB environment in DIR (see ``LmdbStore``
for what DIR holds and the errors it gives).
"""

from moxzi_core.hookspecs import hookimpl

from .store import LmdbStore


@hookimpl
def register_stores(register):
    register("lmdb", LmdbStore)
