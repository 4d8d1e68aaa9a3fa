import pytest
from kit.actorbuild import build_actor


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
