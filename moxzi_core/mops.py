"""A project's ``mops.toml``, as ``moxzi build`` reads it: which packages its imports may name.

mops (the Motoko package manager, https://mops.one) lists a project's packages under
``[dependencies]``. moxzi builds offline with the ``core`` library its compiler bundles, so of those it
serves: ``core`` (a pin of another version is named in a note, and the bundled one is used), and local
packages (``name = "./path"`` or ``"../path"``: that directory's ``src/`` if it has one, as mops reads
it, else the directory). Any other package (a version on mops's registry, a GitHub URL) is a
``BuildError`` that says what moxzi bundles.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

FILE_NAME = "mops.toml"
MIGRATION_NOTES = "https://internetcomputer.org/docs/motoko/base-core-migration"


class MopsError(Exception):
    """The mops.toml cannot be served; the message names the file and the package."""


@dataclass(frozen=True)
class Packages:
    manifest: Path | None  # the mops.toml read, None where there is none
    local: dict[str, Path] = field(default_factory=dict)  # name -> the directory its files are in
    notes: tuple[str, ...] = ()  # what differs from what the mops.toml asks, one line each


def find(source_dir: Path) -> Path | None:
    """The mops.toml in ``source_dir`` or the nearest directory above it, as mops finds it."""
    for directory in (source_dir.resolve(), *source_dir.resolve().parents):
        if (directory / FILE_NAME).is_file():
            return directory / FILE_NAME
    return None


def packages(source_dir: Path, core_version: str) -> Packages:
    """The packages a build of a file in ``source_dir`` gets; ``core_version`` is the bundled core's
    (``2.5.0``)."""
    manifest = find(source_dir)
    if manifest is None:
        return Packages(None)
    try:
        dependencies = tomllib.loads(manifest.read_text()).get("dependencies", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise MopsError(f"{manifest}: cannot read it: {error}") from None
    if not isinstance(dependencies, dict):
        raise MopsError(f'{manifest}: [dependencies] must be a table of name = "version" or "./path"')
    local: dict[str, Path] = {}
    notes: list[str] = []
    for name, value in dependencies.items():
        if not isinstance(value, str):
            raise MopsError(f"{manifest}: dependency {name!r} must be a version or a path in a string")
        pin = f'{name} = "{value}"'
        if value.startswith((".", "/")):
            local[name] = _local_package(manifest, pin, value)
        elif name == "core":
            if value.removeprefix("v") != core_version:
                notes.append(f"{manifest}: {pin}; moxzi builds with the core it bundles, {core_version}")
        else:
            raise MopsError(
                f"{manifest}: dependency {pin}: moxzi build serves only the core library it "
                f'bundles ({core_version}), mo:moxzi and local packages (name = "./path"); '
                f"copy {name}'s sources into the project and name their directory"
            )
    return Packages(manifest, local, tuple(notes))


def _local_package(manifest: Path, pin: str, value: str) -> Path:
    directory = (manifest.parent / value).resolve()
    if not directory.is_dir():
        raise MopsError(f"{manifest}: dependency {pin}: no such directory ({directory})")
    return directory / "src" if (directory / "src").is_dir() else directory
