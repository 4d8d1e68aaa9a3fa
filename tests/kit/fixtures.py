"""The fixtures and hooks every test suite of the repository shares: tests/ and each plugin's tests
(plugins/*/tests), whose conftest.py files import them from here."""

import gc

import pytest

from kit.actorbuild import build_actor

# Longest a parameter's part of a test's id may be. pytest puts the id in the environment of every
# process a test starts (PYTEST_CURRENT_TEST), and Linux refuses to start a program with an
# environment string over 128 KiB: a 200 KB body as an id made every such start fail.
ID_CHARS = 60


def pytest_collection_finish(session):
    """What collection imported (torch, numpy, every test module: about 270,000 objects) lives until
    the session ends; frozen, the collector stops scanning it in each full collection and in the last
    one at exit. Measured on test_device.py and test_device_ops.py: 1.9-2.2 s of collections, 1.1-1.5 s
    frozen. moxzid does the same after loading its plugins (moxzi_core.daemon)."""
    gc.freeze()


def pytest_make_parametrize_id(config, val, argname):
    """A text or bytes parameter longer than ID_CHARS is named by its start and its length."""
    if isinstance(val, (str, bytes)) and len(val) > ID_CHARS:
        start = val[: ID_CHARS - 20]
        return f"{start.decode('latin-1') if isinstance(start, bytes) else start}...({len(val)})"
    return None


@pytest.fixture(scope="session")
def actor_build():
    """`actor_build(name, classic=False) -> BuiltActor`: tests/actors/NAME.mo compiled (cached)."""
    return build_actor


@pytest.fixture(scope="module")
def one_torch_thread():
    """One intra-op thread for the torch a module's tests run in this process outside a device (a device
    computes with --device-threads, default 1): their shapes are tiny, and a second thread only waits on a
    busy machine. Use with ``pytestmark = pytest.mark.usefixtures("one_torch_thread")``."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture(scope="module")
def registry():
    """What the torch plugin registers."""
    from moxzi_core import plugins

    return plugins.load(["torch"])[0]


@pytest.fixture
def dev(registry):
    """A fresh torch:cpu device."""
    from moxzi_core import device

    d = device.open_device(registry, "torch:cpu")
    yield d
    d.close()


@pytest.fixture
def third_party_plugins(monkeypatch):
    """tests/thirdparty's plugins visible to this process (see its README); moxzid processes see them
    with ``third_party=True`` (kit.daemon)."""
    from kit.daemon import THIRD_PARTY

    monkeypatch.syspath_prepend(str(THIRD_PARTY))
