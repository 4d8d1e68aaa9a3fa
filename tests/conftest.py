import pytest

from actorbuild import build_actor


@pytest.fixture(scope="session")
def actor_build():
    """`actor_build(name, classic=False) -> BuiltActor`: tests/actors/NAME.mo compiled (cached)."""
    return build_actor
