"""tests/: the core's tests and those of more than one plugin; a plugin's own live beside it
(plugins/NAME/tests, whose conftest is plugins/conftest.py). Both take their fixtures from kit.fixtures."""

from kit.fixtures import *  # noqa: F403 (pytest finds fixtures and hooks by name in a conftest)
