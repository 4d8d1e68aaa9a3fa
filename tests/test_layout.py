"""The code's layout as docs/ARCHITECTURE.md promises it: the core's modules import each other without
circles, and no class or module grows past what a reader can hold (a class that does so is rooms waiting
to be cut out, as `Actor`, `Host` and `Device` were)."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "moxzi_core"
MAX_CLASS_LINES = 450
MAX_MODULE_LINES = 600


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _core_modules() -> dict[str, Path]:
    return {_module_name(path): path for path in CORE.rglob("*.py") if "node_modules" not in path.parts}


def _imported(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The core's modules ``name`` (at ``path``) imports: every import statement, those under
    ``if TYPE_CHECKING:`` and inside functions included. ``from P import N`` imports P, and P.N too
    where that is a module."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            found.add(source)
            found.update(f"{source}.{alias.name}" for alias in node.names)
    return {module for module in found if module in modules and module != name}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _core_graph() -> dict[str, set[str]]:
    modules = _core_modules()
    return {name: _imported(name, path, modules) for name, path in modules.items()}


def test_the_core_modules_import_each_other_without_circles():
    circles = _circles(_core_graph())
    assert not circles, "import circles among the core's modules:\n" + "\n".join(" <-> ".join(c) for c in circles)


def test_the_circle_finder_sees_type_checking_and_function_level_imports(tmp_path):
    """The check above can fail: a circle closed only by an ``if TYPE_CHECKING:`` import, or by one
    inside a function, is a circle."""
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    (tmp_path / "a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\ndef f():\n    from . import c\n"
    )
    modules = {
        "p": tmp_path / "__init__.py",
        "p.a": tmp_path / "a.py",
        "p.b": tmp_path / "b.py",
        "p.c": tmp_path / "c.py",
    }
    assert _imported("p.a", tmp_path / "a.py", modules) == {"p", "p.b", "p.c"}


def _sources() -> list[Path]:
    return [
        path
        for folder in (CORE, ROOT / "plugins")
        for path in folder.rglob("*.py")
        if "node_modules" not in path.parts and "tests" not in path.parts and ".egg-info" not in str(path)
    ]


def test_no_module_and_no_class_is_too_long():
    too_long = []
    for path in _sources():
        where = str(path.relative_to(ROOT))
        text = path.read_text()
        lines = len(text.splitlines())
        if lines > MAX_MODULE_LINES:
            too_long.append(f"{where}: {lines} lines (a module: at most {MAX_MODULE_LINES})")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_CLASS_LINES:
                    too_long.append(f"{where}: class {node.name}: {length} lines (at most {MAX_CLASS_LINES})")
    assert not too_long, "cut these along their seams:\n" + "\n".join(too_long)


def test_the_settings_module_loads_no_subsystem():
    """A plugin that declares a Setting imports moxzi_core.settings: that must not load the runtime (and
    wasmtime) or the device; each subsystem declares its own settings where it lives."""
    modules = _core_modules()
    imported = _imported("moxzi_core.settings", CORE / "settings.py", modules)
    assert not [m for m in imported if m.startswith(("moxzi_core.runtime", "moxzi_core.device"))], imported


ENGINE = "moxzi_core.runtime.engine"
# What the engine shares with the host: the ic0 functions it links into each instance, the controllers
# and status those read, the trap they raise, and the clock a message's time is read from.
ENGINE_SEAMS = {
    "moxzi_core.runtime.ic0",
    "moxzi_core.runtime.canister",
    "moxzi_core.runtime.traps",
    "moxzi_core.runtime.clock",
}


def _importers_of_parts(room: str) -> list[str]:
    """Modules outside ``room`` (a package of the core: the core, the plugins, the tests but the room's
    own, in tests/ under the room's name) that import one of its modules rather than its face (its ``__init__``'s ``__all__``, which may
    name a module: the engine's `memory_image`, the packed form of memories that the journal stores)."""
    modules = _core_modules()
    folder = ROOT.joinpath(*room.split("."))
    init = ast.parse((folder / "__init__.py").read_text())
    (face,) = [
        ast.literal_eval(n.value) for n in init.body if isinstance(n, ast.Assign) and n.targets[0].id == "__all__"
    ]
    tests = [p for p in (ROOT / "tests").rglob("*.py")] + list((ROOT / "plugins").glob("*/tests/*.py"))
    own_tests = ROOT / "tests" / folder.name
    outside = [p for p in _sources() + tests if not p.is_relative_to(folder) and not p.is_relative_to(own_tests)]
    found = []
    for path in outside:
        for module in _imported(_module_name(path), path, modules):
            if module.startswith(room + ".") and module.removeprefix(room + ".") not in face:
                found.append(f"{path.relative_to(ROOT)} imports {module}")
    return found


# The rooms of the runtime that the rest reaches only through their face: the wasm engine, and the
# device calls (running, recording, copying and rebuilding what the plugins' system methods change).
ROOMS = [ENGINE, "moxzi_core.runtime.device_calls"]


@pytest.mark.parametrize("room", ROOMS)
def test_a_room_is_reached_only_through_its_face(room):
    found = _importers_of_parts(room)
    assert not found, f"import what you need from {room} (add it to its __all__):\n" + "\n".join(found)


def test_the_engine_imports_of_the_host_only_its_seams():
    graph = _core_graph()
    reaching_out = {
        f"{name} imports {other}"
        for name, imported in graph.items()
        if name.startswith(ENGINE)
        for other in imported
        if not other.startswith(ENGINE) and other.startswith("moxzi_core.runtime") and other not in ENGINE_SEAMS
    }
    assert not reaching_out, "the engine knows nothing of actors, messages or calls:\n" + "\n".join(
        sorted(reaching_out)
    )


def test_the_engine_rule_sees_an_import_of_a_part(tmp_path):
    """The check above can fail: ``from moxzi_core.runtime.engine.memory import PAGE`` is a part."""
    path = tmp_path / "user.py"
    path.write_text("from moxzi_core.runtime.engine.memory import PAGE\nfrom moxzi_core.runtime.engine import Limits\n")
    imported = _imported("user", path, _core_modules())
    assert {m for m in imported if m.startswith(ENGINE + ".")} == {f"{ENGINE}.memory"}


# Which way imports go between the rooms (docs/ARCHITECTURE.md): what each room's modules never import.
# The host knows the device only as the system methods it provides (runtime.device_calls); the device
# reaches the host's side only through the device calls' face, the journal and messages.
NEVER_IMPORTS = {
    "moxzi_core.runtime": ("moxzi_core.device",),
    "moxzi_core.candid": ("moxzi_core.runtime", "moxzi_core.device"),
    "moxzi_core.device": ("moxzi_core.runtime",),
}
DEVICE_REACHES = {
    "moxzi_core.runtime.attachments",
    "moxzi_core.runtime.device_calls",
    "moxzi_core.runtime.journal",
    "moxzi_core.runtime.messages",
}


def _wrong_way(graph: dict[str, set[str]]) -> list[str]:
    found = []
    for name, imported in graph.items():
        for room, never in NEVER_IMPORTS.items():
            if name != room and not name.startswith(room + "."):
                continue
            for other in imported:
                allowed = room == "moxzi_core.device" and other in DEVICE_REACHES
                if other.startswith(never) and not allowed:
                    found.append(f"{name} imports {other}")
    return sorted(found)


def test_imports_go_the_way_the_map_says():
    found = _wrong_way(_core_graph())
    assert not found, "see docs/ARCHITECTURE.md, which way imports go:\n" + "\n".join(found)


def test_the_direction_rule_sees_an_import_the_wrong_way():
    """The check above can fail: the host importing the device, the device the host's delivery."""
    graph = {
        "moxzi_core.runtime.host": {"moxzi_core.device.service"},
        "moxzi_core.device.service": {"moxzi_core.runtime.delivery", "moxzi_core.runtime.journal"},
    }
    assert _wrong_way(graph) == [
        "moxzi_core.device.service imports moxzi_core.runtime.delivery",
        "moxzi_core.runtime.host imports moxzi_core.device.service",
    ]


def test_every_room_is_on_the_map():
    """Each package of the core (and of its runtime) and each plugin is named on docs/ARCHITECTURE.md's map,
    and each folder the map names exists."""
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
    packages = [p.parent for p in [*CORE.glob("*/__init__.py"), *(CORE / "runtime").glob("*/__init__.py")]]
    plugins = [p.parent for p in (ROOT / "plugins").glob("*/pyproject.toml")]
    folders = [f"{p.relative_to(ROOT)}/" for p in packages + plugins if p != CORE / "runtime"] + ["moxzi_core/runtime/"]
    missing = [folder for folder in folders if f"`{folder}`" not in text]
    assert not missing, "add these folders to docs/ARCHITECTURE.md's rooms: " + ", ".join(missing)
    named = re.findall(r"`((?:moxzi_core|plugins)/[a-z_/]*/)`", text)  # (not plugins/NAME/tests/)
    assert named and all((ROOT / folder).is_dir() for folder in named), named
