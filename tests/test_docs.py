"""The docs name only flags and routes that exist: every `--flag` written in code in README.md and docs/*.md
is one the command it is written with accepts (moxzid, `moxzi build`, an example script, a dev script), and every route
of the HTTP gateway they show is one it serves (its own, or an app a plugin registers for it to mount)."""

import functools
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]*\*?")  # `--http-*`: a family of flags
SCRIPT = re.compile(r"\b(run_\w+|moxzid_child|search_port)\.py\b")
MOXZI_COMMANDS = (
    "moxzi build",
    "moxzi call",
    "moxzi query",
    "moxzi upgrade",
    "moxzi logs",
    "moxzi weights export",
    "moxzi weights import",
    "moxzi backup",
)
OTHER_TOOLS = (
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
    flags = accepted(command)
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
    served |= {
        prefix.split("/")[1] for prefix in plugins.load(None)[0].added["register_http_apps"]
    }  # mounted by the gateway
    shown = set()
    for doc in DOCS:
        text = doc.read_text()
        shown |= {(doc.name, route) for route in re.findall(r"(?:GET|POST) `?/([\w-]+)", text)}
        shown |= {(doc.name, route) for route in re.findall(r"http://127\.0\.0\.1:7000/([\w-]+)", text)}
    assert {route for _, route in shown} >= {"call-json", "query-json", "upgrade", "actors", "cycles"}
    assert [(doc, route) for doc, route in shown if route not in served] == []
