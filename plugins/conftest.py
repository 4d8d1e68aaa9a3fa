"""Each plugin's tests (plugins/NAME/tests: ``pytest plugins/NAME`` runs one plugin's) share the
repository's test kit (tests/kit) and its fixtures with the core's tests."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from kit.fixtures import *  # noqa: E402, F403 (pytest finds fixtures and hooks by name in a conftest)
