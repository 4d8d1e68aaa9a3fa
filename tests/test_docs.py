"""Every name the docs give exists. In README.md, CONTRIBUTING.md and docs/*.md: every `--flag` written in code
is one the command it is written with accepts (moxzid, a `moxzi` command, an example script, a dev script);
every `moxzi` and `moxzid` command they run is one the CLI has; every route of the HTTP gateway they show
is one it serves (its own, an app a plugin registers for it to mount, the device's export server); every
file path in code or a link is in the repository (a link's `#anchor` a heading of its target); and every
`module.symbol` or `Class.member` of moxzi's own Python they name is defined there."""

import ast
import functools
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]*\*?")  # `--http-*`: a family of flags
SCRIPT = re.compile(r"\b(run_\w+|moxzid_child|search_port)\.py\b")
MOXZI_COMMANDS = (
    "moxzi build",
    "moxzi call",
    "moxzi query",
    "moxzi upgrade",
    "moxzi dev",
    "moxzi logs",
    "moxzi weights export",
    "moxzi weights import",
    "moxzi backup",
)
OTHER_TOOLS = (
    "python -m pytest",
    "curl",
    "icp ",
    "cp ",
    "pip ",
    "npm ",
    "jq ",
    "python bench/",
    "python3 bench/",
    "scripts/install ",
    "moc ",
    "git ",
)
DEV_SCRIPTS = ("scripts/drun_sweep.py",)  # their flags are their own
pytestmark = pytest.mark.slow  # runs --help of moxzid, moxzi build and every example script


def code_pieces(text: str) -> list[str]:
    """Each line of a fenced block, and each inline code span outside them."""
    pieces, fenced = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif fenced:
            pieces.append(line)
        else:
            pieces += re.findall(r"`([^`]+)`", line)
    return pieces


@functools.cache
def accepted(command: str) -> frozenset[str]:
    """The long flags ``command``'s --help lists: "moxzid", "moxzi build", "moxzi call", an example
    script's path, or "any" of those."""
    if command == "any":
        scripts = [str(path.relative_to(ROOT)) for path in ROOT.glob("examples/*/run_*.py")]
        return frozenset().union(*map(accepted, ["moxzid", *MOXZI_COMMANDS, *scripts]))
    if command == "moxzid":
        argv = [sys.executable, "-m", "moxzi_core.daemon", "--help-all"]
    elif command in MOXZI_COMMANDS:
        argv = [sys.executable, "-m", "moxzi_core.cli", *command.split()[1:], "--help"]
    else:
        argv = [sys.executable, str(ROOT / command), "--help"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return frozenset(FLAG.findall(done.stdout))


def script_path(name: str) -> str:
    [path] = ROOT.glob(f"examples/*/{name}")
    return str(path.relative_to(ROOT))


def flags_in_docs() -> list[tuple[str, str, str]]:
    """(doc, code piece, the command its flags belong to) for every piece with a flag."""
    found = []
    for doc in DOCS:
        for piece in code_pieces(doc.read_text()):
            if not FLAG.search(piece) or piece.lstrip().startswith(OTHER_TOOLS):
                continue
            if piece.startswith("--"):  # a flag named in prose
                command = "any"
            elif script := SCRIPT.search(piece):
                command = script_path(script.group(0))
            elif dev := next((s for s in DEV_SCRIPTS if s in piece), None):
                command = dev
            elif moxzi := next((c for c in MOXZI_COMMANDS if c in piece), None):
                command = moxzi
            else:  # moxzid, or scripts/demo, whose arguments go to moxzid
                command = "moxzid"
            found.append((doc.name, piece, command))
    return found


@pytest.mark.parametrize("doc, piece, command", flags_in_docs())
def test_every_flag_in_the_docs_exists(doc, piece, command):
    [path] = [d for d in DOCS if d.name == doc]
    # and the flags of a plugin the doc writes itself (CONTRIBUTING's `Setting("my-flag", ...)`)
    flags = accepted(command) | {f"--{name}" for name in re.findall(r'Setting\("([a-z-]+)"', path.read_text())}
    unknown = {
        flag
        for flag in FLAG.findall(piece)
        if not (any(f.startswith(flag[:-1]) for f in flags) if flag.endswith("*") else flag in flags)
    }
    assert not unknown, f"{doc}: `{piece}`: {command} has no {', '.join(sorted(unknown))}"


def test_every_gateway_route_in_the_docs_exists():
    from moxzi_core import plugins
    from moxzi_gateway_http.routes import build_app

    served = {resource.canonical.split("/")[1] for resource in build_app(None, 1, 1.0).router.resources()}
    registry = plugins.load(None)[0]
    served |= {prefix.split("/")[1] for prefix in registry.added["register_http_apps"]}  # mounted by the gateway
    served |= {path.split("/")[1] for path in registry.added["register_http_redirects"]}
    transport = (ROOT / "plugins/gateway_http/moxzi_gateway_http/transport.py").read_text()
    served |= set(re.findall(r'router\.add_get\("/([\w-]+)', transport))  # the device's exports
    shown = set()
    for doc in DOCS:
        text = doc.read_text()
        mounted_by_the_doc = set(re.findall(r'register\("/([\w-]+)"', text))  # CONTRIBUTING's example plugin
        routes = re.findall(rf"(?:GET|POST|PUT) `?/({SEGMENT})", text)
        routes += re.findall(rf"http://(?:127\.0\.0\.1|localhost):7000/({SEGMENT})", text)
        routes += [span for span in re.findall(rf"`/([a-z]{SEGMENT})", text) if span not in FILESYSTEM]
        shown |= {(doc.name, route) for route in routes if route not in mounted_by_the_doc}
    assert {route for _, route in shown} >= {"call-json", "query-json", "upgrade", "actors", "cycles", "api"}
    assert [(doc, route) for doc, route in shown if route not in served] == []


SEGMENT = r"[\w-]*(?:\.\w+)?"  # a route's first segment: `/call-json`, `/favicon.ico`
FILESYSTEM = {"tmp", "proc", "dev", "etc", "usr"}  # `/tmp` is a directory, not a route


def test_every_command_in_the_docs_exists():
    """`moxzi COMMAND` and `moxzid COMMAND` at the start of a line of code: a command the CLI lists."""
    commands = {
        "moxzi": _commands([sys.executable, "-m", "moxzi_core.cli", "--help"]),
        "moxzid": _commands([sys.executable, "-m", "moxzi_core.daemon", "--help"]),
    }
    unknown = []
    for doc in DOCS:
        for piece in code_pieces(doc.read_text()):
            for line in piece.split("|"):  # `icp identity export me | moxzi weights ...`
                found = re.match(r"\s*(moxzid?) ([a-z][a-z-]+)\b", line)
                if found and found[2] not in commands[found[1]]:
                    unknown.append((doc.name, line.strip()))
    assert unknown == []


def _commands(argv: list[str]) -> set[str]:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=ROOT)
    # moxzi's argparse lists its subcommands after "COMMAND"; moxzid's own help under "commands:"
    listed = done.stdout.split("commands:", 1)[1] if "commands:" in done.stdout else done.stdout.split("COMMAND", 2)[-1]
    return set(re.findall(r"^ {2,4}([a-z][a-z-]*)(?:\s|$)", listed, re.M))


# Code spans that are paths in this repository: their first segment is one of its top-level entries.
TOP = sorted(path.name for path in ROOT.iterdir() if not path.name.startswith(".") or path.name == ".ci")
PATH = re.compile(rf"(?<![\w./~-])((?:{'|'.join(map(re.escape, TOP))})/[\w./*-]*)")
PLACEHOLDER = re.compile(r"(^|/)[A-Z][A-Z_]+(\.|/|$)")  # tests/drun/NAME.mo
BUILT = {".wasm": ".mo", ".did": ".mo"}  # outputs of `moxzi build`, beside their source
LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_every_path_in_the_docs_exists():
    missing = []
    for doc in DOCS:
        text = doc.read_text()
        for piece in code_pieces(text):
            paths = [p.rstrip(".,;:") for p in PATH.findall(piece) if not PLACEHOLDER.search(p)]
            missing += [(doc.name, p) for p in paths if not _in_repository(p)]
            if re.search(r"(?<![\w.])/(work|home|root)/", piece):  # a file outside the repository
                missing.append((doc.name, piece))
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target):  # https:, mailto:
                continue
            path, _, anchor = target.partition("#")
            file = (doc.parent / path).resolve() if path else doc
            if not file.exists():
                missing.append((doc.name, target))
            elif anchor and file.suffix == ".md" and anchor not in _anchors(file):
                missing.append((doc.name, target))
    assert missing == []


def _in_repository(path: str) -> bool:
    path = path.split("::")[0]
    if "*" in path:
        return any(ROOT.glob(path))
    file = ROOT / path
    return file.exists() or (file.suffix in BUILT and file.with_suffix(BUILT[file.suffix]).exists())


def _anchors(doc: Path) -> set[str]:
    """The anchors GitHub gives the headings of ``doc``."""
    headings = re.findall(r"^#+ (.*)$", doc.read_text(), re.M)
    return {re.sub(r"[^\w -]", "", h.lower()).replace(" ", "-") for h in headings}


# moxzi's own Python: every module's top-level names and every class's members, read from the source.
SOURCES = [ROOT / "moxzi_core", *ROOT.glob("plugins/*/moxzi_*"), ROOT / "tests" / "kit"]
FILE_SUFFIXES = {"py", "md", "did", "mo", "json", "toml", "wasm", "mjs", "cbor", "mdb", "txt", "yaml", "js", "sh"}


@functools.cache
def python_names() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """({dotted module: its top-level names}, {class name: its members, over every class so named})."""
    modules: dict[str, set[str]] = {}
    classes: dict[str, set[str]] = {}
    for source in SOURCES:
        for file in source.rglob("*.py"):
            parts = file.relative_to(source.parent).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            tree = ast.parse(file.read_text())
            names = modules.setdefault(name, set())
            for node in tree.body:
                names |= _defined(node)
                if isinstance(node, ast.ClassDef):
                    members = classes.setdefault(node.name, set())
                    for item in ast.walk(node):
                        members |= _defined(item) if item in node.body else _assigned_to_self(item)
            if parts[-1] == "__init__":  # its submodules
                names |= {path.stem for path in file.parent.iterdir() if path.suffix == ".py" or path.is_dir()}
    return modules, classes


def _defined(node: ast.AST) -> set[str]:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {node.name}
    if isinstance(node, ast.Assign):
        names = {t.id for t in node.targets if isinstance(t, ast.Name)}
        if names == {"__all__"} and isinstance(node.value, ast.List):  # names a module gives lazily too
            names |= {e.value for e in node.value.elts if isinstance(e, ast.Constant)}
        return names
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return {node.target.id}
    if isinstance(node, ast.ImportFrom | ast.Import):
        return {(a.asname or a.name).split(".")[0] for a in node.names}
    if isinstance(node, ast.If | ast.Try):  # TYPE_CHECKING imports, fallbacks
        return set().union(*(_defined(n) for n in ast.iter_child_nodes(node)))
    return set()


def _assigned_to_self(node: ast.AST) -> set[str]:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
    return {t.attr for t in targets if isinstance(t, ast.Attribute) and getattr(t.value, "id", "") == "self"}


SYMBOL = re.compile(r"^([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?:\(.*\))?$")


def symbols_in_docs() -> list[tuple[str, str]]:
    """(doc, dotted name) for every inline code span of prose that is a dotted name (``a.b``, ``a.b()``)."""
    found = []
    for doc in DOCS:
        fenced = False
        for line in doc.read_text().splitlines():
            if line.startswith("```"):
                fenced = not fenced
            elif not fenced:
                for span in re.findall(r"`([^`]+)`", line):
                    named = SYMBOL.match(span)
                    if named and named[1].rsplit(".", 1)[-1] not in FILE_SUFFIXES:
                        found.append((doc.name, named[1]))
    return found


def unknown_symbol(dotted: str) -> str | None:
    """Why ``dotted`` names nothing of moxzi's, or None: it exists, or it is not moxzi's to check
    (Motoko's `Debug.print`, torch's `torch.optim.AdamW`)."""
    modules, classes = python_names()
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        head = ".".join(parts[:cut])
        rest = parts[cut:]
        # A module by its last part (`schedule.Spare`) only before a class or constant: `host.clock`,
        # `actor.update` are variables.
        by_part = cut == 1 and rest[0][:1].isupper()
        matches = [m for m in modules if m == head or (by_part and m.rsplit(".", 1)[-1] == head)]
        if not matches:
            continue
        if not rest:
            return None
        for module in matches:
            if rest[0] in modules[module] and (len(rest) == 1 or rest[1] in classes.get(rest[0], {rest[1]})):
                return None
            if f"{module}.{rest[0]}" in modules:
                return None
        return f"{head} has no {'.'.join(rest[:2])}"
    if parts[0] in classes and len(parts) == 2 and parts[1] not in classes[parts[0]]:
        return f"class {parts[0]} has no {parts[1]}"
    if parts[0].startswith("_") and parts[0] not in classes:  # private: Python's, and so moxzi's
        return f"no class {parts[0]}"
    return None


@pytest.mark.parametrize("doc, dotted", symbols_in_docs())
def test_every_python_name_in_the_docs_exists(doc, dotted):
    assert unknown_symbol(dotted) is None, f"{doc}: `{dotted}`: {unknown_symbol(dotted)}"


def test_the_name_check_finds_a_name_that_is_gone():
    assert unknown_symbol("moxzi_core.public.PUBLIC_MODULES") is None
    assert unknown_symbol("Delivery.settle") is None
    assert unknown_symbol("Host.settle") == "class Host has no settle"
    assert unknown_symbol("_Gone.member") == "no class _Gone"
    assert unknown_symbol("Debug.print") is None  # Motoko's
    assert unknown_symbol("moxzi_core.device.NoSuchOp") == "moxzi_core.device has no NoSuchOp"
    assert unknown_symbol("schedule.NoSuchThing") == "schedule has no NoSuchThing"
    assert not _in_repository("moxzi_core/no_such_module.py")
    assert _in_repository("examples/migration/tasks_v2.wasm")  # built beside its source


def test_a_count_of_the_public_modules_is_the_list_s():
    from moxzi_core.public import PUBLIC_MODULES

    counts = [(doc.name, int(n)) for doc in DOCS for n in re.findall(r"(\d+) public modules", doc.read_text())]
    assert [(doc, n) for doc, n in counts if n != len(PUBLIC_MODULES)] == []
