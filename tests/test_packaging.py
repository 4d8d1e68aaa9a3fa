"""Each distribution (moxzi and every plugin under plugins/) builds a wheel that holds every file its
packages read at run time: a file left out of ``package-data`` works in the editable install that
scripts/install makes and breaks a plain ``pip install`` (the management canister's interface,
``runtime/management.did``, once did)."""

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
DISTRIBUTIONS = [ROOT, *sorted(p.parent for p in (ROOT / "plugins").glob("*/pyproject.toml"))]
NOT_SHIPPED = {"node_modules", "__pycache__", "build"}  # installed or made beside the sources


def packages(dist: Path) -> list[Path]:
    return [p.parent for p in dist.glob("*/__init__.py")]


def package_files(dist: Path) -> set[str]:
    """The files under the distribution's packages that are not Python, relative to the distribution."""
    files = set()
    for package in packages(dist):
        for path in package.rglob("*"):
            rel = path.relative_to(dist)
            if path.is_file() and path.suffix != ".py" and not NOT_SHIPPED & set(rel.parts):
                files.add(rel.as_posix())
    return files


@pytest.mark.slow  # one wheel build per distribution
@pytest.mark.parametrize("dist", DISTRIBUTIONS, ids=lambda d: d.name)
def test_the_wheel_holds_every_file_of_its_packages(dist, tmp_path):
    source = tmp_path / "source"  # a copy: building writes build/ and *.egg-info beside the sources
    for package in packages(dist):
        shutil.copytree(package, source / package.name, ignore=shutil.ignore_patterns(*NOT_SHIPPED))
    shutil.copy(dist / "pyproject.toml", source)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", tmp_path, source],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("*.whl")
    shipped = set(zipfile.ZipFile(wheel).namelist())
    assert package_files(dist) - shipped == set()
