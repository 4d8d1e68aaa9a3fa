"""docs/device-reference.md is what moxzi_core.device.reference renders from interface.did and the op
registry: a change to either that leaves the file as it was fails here until the file is generated
again (`python3 -m moxzi_core.device.reference`)."""

import pytest

from moxzi_core.device import reference


def test_the_reference_is_generated_from_the_interface_and_the_registry():
    assert reference.DOC.read_text() == reference.render(), "run python3 -m moxzi_core.device.reference"


def test_every_method_and_op_of_the_interface_is_in_the_reference():
    did, doc = reference.DID.read_text(), reference.render()
    for line in did.splitlines():
        if line.startswith("  moxzi_device_"):
            assert f"### `{line.split()[0]}`" in doc
    for op in reference.BUILTIN:
        assert f"| `{op}` |" in doc


def test_an_op_the_registry_lacks_is_refused():
    did = reference.DID.read_text().replace("  relu : Reg;", "  relu : Reg;\n  swish : Reg; // x * sigmoid(x)")
    with pytest.raises(AssertionError, match="swish"):
        reference.render(did)
