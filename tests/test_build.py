import hashlib
import os
import re
import shutil
import subprocess
import sys

import pytest
from kit import actorbuild
from kit.daemon import moxzi

from moxzi_core import build as build_module
from moxzi_core import mops, motoko
from moxzi_core.build import BuildError, build, stable_incompatibilities
from moxzi_core.runtime.engine import prepare
from moxzi_core.runtime.modules import STABLE_TYPES

# tests/actors/counter.mo as the npm compiler (motoko 4.10.0) built it under Node.js (compile.js, before
# moxzi ran the compiler itself): the embedded compiler must give the same bytes. A newer vendored
# compiler (scripts/vendor-motoko) changes it: check the new bytes against `moc` or the npm package first.
NODE_BUILT_COUNTER = "1aa5254b7ee6f737374a8b882f272ef8f3efe6ca199e7c3352909d5f7de23057"


@pytest.fixture
def build_cache(tmp_path, monkeypatch):
    """An empty build cache of this test's own, for `build` here and for `moxzi build` it starts."""
    monkeypatch.setenv("MOXZI_BUILD_CACHE", str(tmp_path / "build-cache"))


ACTORS = actorbuild.ACTORS_DIR


@pytest.mark.slow
def test_cli_builds_an_actor_with_local_imports(tmp_path, monkeypatch):
    monkeypatch.setenv("MOXZI_BUILD_CACHE", str(tmp_path / "cache"))  # a build, not an earlier run's answer
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "Greeting.mo").write_text('module { public func hello() : Text { "hello" } }\n')
    (tmp_path / "hello.mo").write_text(
        'import Greeting "lib/Greeting";\n'
        "persistent actor {\n"
        "  public query func greet() : async Text { let unused = 1; Greeting.hello() };\n"
        "};\n"
    )
    done = moxzi("build", "hello.mo", "-o", "out", cwd=tmp_path)

    assert done.returncode == 0, done.stderr
    assert "hello.mo:3:48: warning [M0194] unused identifier: `unused`" in done.stderr
    summary, identity = done.stdout.splitlines()
    assert summary.startswith("hello.mo -> out/hello.wasm + out/hello.did (")
    assert summary.endswith("s)") and " 2 file(s), " in summary  # hello.mo and lib/Greeting.mo
    assert identity.startswith("compiled by motoko 4.10.0 (moc ") and "sha256 " in identity
    wasm = (tmp_path / "out" / "hello.wasm").read_bytes()
    assert wasm.startswith(b"\0asm") and f"({len(wasm)} bytes," in summary
    assert "greet: () -> (text) query" in (tmp_path / "out" / "hello.did").read_text()


@pytest.mark.slow
def test_cli_reports_compile_errors_with_their_position(tmp_path):
    (tmp_path / "broken.mo").write_text('persistent actor {\n  public func f() : async Nat { "text" };\n};\n')
    done = moxzi("build", "broken.mo", cwd=tmp_path)

    assert done.returncode == 1
    assert done.stderr.startswith("broken.mo:2:33: error [M0050] literal of type")
    assert not (tmp_path / "broken.wasm").exists()


@pytest.mark.slow
def test_cli_says_to_write_persistent_actor(tmp_path):
    (tmp_path / "plain.mo").write_text(
        "actor {\n  var n = 0;\n  let m = 1;\n  public func inc() : async Nat { n += m; n };\n};\n"
    )
    done = moxzi("build", "plain.mo", cwd=tmp_path)

    assert done.returncode == 1
    errors, hint = done.stderr.splitlines()[:2], done.stderr.splitlines()[2:]
    assert [e.split(" error ")[1][:7] for e in errors] == ["[M0219]", "[M0219]"]  # one per declaration
    assert hint == [
        "hint: write `persistent actor { ... }` (or `persistent actor class`): its `let` and `var` "
        "declarations keep their values across upgrades; declare one `transient` to have it start over "
        "at each upgrade"
    ]


@pytest.mark.slow
def test_cli_shortens_a_syntax_errors_alternatives_unless_verbose(tmp_path):
    (tmp_path / "typo.mo").write_text("persistent actor {\n  public func f() : async Nat { 1 )\n};\n")
    short = moxzi("build", "typo.mo", cwd=tmp_path)
    full = moxzi("build", "typo.mo", "-v", cwd=tmp_path)

    assert short.returncode == full.returncode == 1
    alternatives = len(full.stderr.splitlines()) - 1
    assert alternatives > 10 and full.stderr.startswith(
        "typo.mo:2:35: error [M0001] unexpected token ')', expected one of token or <phrase> sequence:\n"
    )
    assert short.stderr == (
        f"typo.mo:2:35: error [M0001] unexpected token ')' (the parser expected one of "
        f"{alternatives} alternatives; -v lists them)\n"
    )


@pytest.mark.slow
def test_cli_builds_with_a_mops_toml_of_core_and_a_local_package(tmp_path):
    """The Shakespeare tutorial's mops.toml (core = "2.6.0") and a local package, one directory above."""
    (tmp_path / "shared" / "src").mkdir(parents=True)
    (tmp_path / "shared" / "src" / "Two.mo").write_text(
        'import Nat "mo:core/Nat";\nmodule { public func two() : Nat = Nat.max(1, 2) }\n'
    )
    (tmp_path / "mops.toml").write_text('[dependencies]\ncore = "2.6.0"\nshared = "./shared"\n')
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "main.mo").write_text(
        'import Two "mo:shared/Two";\npersistent actor { public query func two() : async Nat { Two.two() } };\n'
    )
    done = moxzi("build", "main.mo", cwd=tmp_path / "app")

    assert done.returncode == 0, done.stderr
    bundled = build_module.bundled_core_version()
    assert done.stderr == (
        f'note: {tmp_path}/mops.toml: core = "2.6.0"; moxzi builds with the core it bundles, {bundled}\n'
    )
    assert "two: () -> (nat) query" in (tmp_path / "app" / "main.did").read_text()


@pytest.mark.slow
def test_cli_says_mo_base_is_mo_core(tmp_path):
    (tmp_path / "old.mo").write_text(
        'import Debug "mo:base/Debug";\npersistent actor { public func f() : async () { Debug.print("x") } };\n'
    )
    done = moxzi("build", "old.mo", cwd=tmp_path)

    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        'old.mo:1:1: error [M0010] package "base" not defined',
        "hint: moxzi ships `mo:core`, the successor of `mo:base`: most modules keep their names "
        f"(`mo:base/Debug` is `mo:core/Debug`); the migration notes: {mops.MIGRATION_NOTES}",
    ]


def test_mops_toml_is_found_above_the_source_and_read(tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "vendored").mkdir()
    (tmp_path / "mops.toml").write_text(
        '[dependencies]\ncore = "v2.5.0"\nlib = "./lib"\nvend = "../' + tmp_path.name + '/vendored"\n'
    )
    (tmp_path / "lib" / "src").mkdir()
    deeper = tmp_path / "a" / "b"
    deeper.mkdir(parents=True)
    found = mops.packages(deeper, "2.5.0")
    assert found.manifest == tmp_path / "mops.toml"
    assert found.local == {"lib": (tmp_path / "lib" / "src").resolve(), "vend": (tmp_path / "vendored").resolve()}
    assert found.notes == ()  # the bundled version, with or without mops's "v"
    assert mops.packages(tmp_path, "2.4.0").notes == (
        f'{tmp_path}/mops.toml: core = "v2.5.0"; moxzi builds with the core it bundles, 2.4.0',
    )


@pytest.mark.parametrize(
    "toml, message",
    [
        (
            '[dependencies]\nmap = "9.0.1"\n',
            'dependency map = "9.0.1": moxzi build serves only the core library it bundles \\(2.5.0\\), mo:moxzi and local packages',
        ),
        (
            '[dependencies]\nbase = "https://github.com/dfinity/motoko-base#moc-0.9.1"\n',
            "dependency base = .*: moxzi build serves only",
        ),
        ('[dependencies]\nlib = "./nowhere"\n', 'dependency lib = "./nowhere": no such directory'),
        ("[dependencies]\ncore = 2\n", "dependency 'core' must be a version or a path in a string"),
        ("[dependencies\n", "cannot read it"),
    ],
)
def test_a_mops_toml_moxzi_cannot_serve_is_a_clear_error(tmp_path, toml, message):
    (tmp_path / "mops.toml").write_text(toml)
    (tmp_path / "main.mo").write_text("persistent actor {}")
    with pytest.raises(BuildError, match=f"{tmp_path}/mops.toml: {message}"):
        build(tmp_path / "main.mo")


@pytest.mark.slow
def test_cli_builds_an_actor_imported_by_alias_and_the_collector_asked(tmp_path):
    (tmp_path / "idl").mkdir()
    (tmp_path / "idl" / "aaaaa-aa.did").write_text("service : { name : () -> (text) }")
    (tmp_path / "a.mo").write_text(
        'import Other "canister:other";\n'
        "persistent actor {\n  public func f() : async Text { await Other.name() };\n};\n"
    )
    unknown = moxzi("build", "a.mo", cwd=tmp_path)
    assert unknown.returncode == 1 and 'error [M0011] canister alias "other" not defined' in unknown.stderr
    no_idl = moxzi("build", "a.mo", "--actor-alias", "other", "aaaaa-aa", cwd=tmp_path)
    assert no_idl.returncode == 1 and "hint: an actor imported as" in no_idl.stderr
    aliased = ("--actor-idl", "idl", "--actor-alias", "other", "aaaaa-aa")
    done = moxzi("build", "a.mo", *aliased, "--classic", "--compacting-gc", "--force-gc", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert " 2 file(s), " in done.stdout  # a.mo and idl/aaaaa-aa.did
    # the collector's name, as the runtime reports it (__motoko_runtime_information)
    assert b"compacting force" in (tmp_path / "a.wasm").read_bytes()


@pytest.mark.parametrize(
    "options, message",
    [
        ({"gc": "mark-sweep"}, "no collector 'mark-sweep': moc's are copying, compacting, generational, incremental"),
        ({"gc": "copying"}, "--copying-gc needs --classic: enhanced orthogonal persistence has only the incremental"),
        ({"actor_idl": "nowhere"}, "--actor-idl nowhere: no such directory"),
        ({"actor_aliases": [("self", "xyz")]}, "--actor-alias self xyz: not a principal"),
        ({"actor_aliases": [("a b", "aaaaa-aa")]}, "--actor-alias a b aaaaa-aa: an alias is a name"),
        ({"actor_aliases": [("a", "aaaaa-aa"), ("a", "aaaaa-aa")]}, "--actor-alias a: given twice"),
    ],
)
def test_bad_build_options_are_clear_errors(tmp_path, monkeypatch, options, message):
    (tmp_path / "main.mo").write_text("persistent actor {}")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(BuildError, match=re.escape(message)):
        build(tmp_path / "main.mo", **options)


def test_short_syntax_errors_keep_their_alternatives():
    few = build_module.Diagnostic(
        "a.mo", 3, 3, "error", "M0001", "unexpected token 'let', expected one of token or <phrase> sequence:\n  }"
    )
    assert few.brief() == str(few)


@pytest.mark.parametrize("classic", [False, True], ids=["enhanced", "classic"])
def test_persistence_mode_decides_memory_width(actor_build, classic):
    built = actor_build("counter", classic=classic)
    assert built.wasm.startswith(b"\0asm")
    assert built.did.startswith("service") and "inc: () -> (nat);" in built.did
    assert prepare(built.wasm).memory64 is not classic


def test_cached_actor_is_not_recompiled(actor_build, monkeypatch):
    first = actor_build("counter")
    monkeypatch.setattr(actorbuild, "build", _no_compile)
    again = actorbuild.build_actor.__wrapped__("counter")  # past the in-process memo, to the disk cache
    assert again == first


def _no_compile(*args, **kwargs):
    raise AssertionError("compiled again: the cache should have answered")


def test_cache_follows_the_files_an_actor_imports(tmp_path, monkeypatch):
    """Editing an imported file rebuilds the actor; a repeat finds the entry (no compiler here)."""
    (tmp_path / "main.mo").write_text("main v1")
    (tmp_path / "dep.mo").write_text("dep v1")
    builds = []

    def fake_build(source, *, classic, out_dir, **options):
        builds.append(source.read_text())
        out_dir.mkdir(parents=True)
        (out_dir / "main.wasm").write_bytes(b"\0asm" + source.read_bytes())
        (out_dir / "main.did").write_text("service : {}")
        return build_module.BuildResult(
            out_dir / "main.wasm",
            out_dir / "main.did",
            0,
            (str(source), str(tmp_path / "dep.mo"), "mo:core/Nat.mo"),
            0.0,
            None,
            (),
            (),
        )

    monkeypatch.setattr(actorbuild, "build", fake_build)
    monkeypatch.setenv("MOXZI_TEST_CACHE", str(tmp_path / "cache"))

    def build_uncached(name, **flags):
        return actorbuild.build_actor.__wrapped__(name, directory=tmp_path, **flags)

    first = build_uncached("main")
    assert build_uncached("main") == first and len(builds) == 1
    (tmp_path / "dep.mo").write_text("dep v2")
    assert build_uncached("main") != first and len(builds) == 2
    assert build_uncached("main", classic=True) and len(builds) == 3
    assert build_uncached("main", force_gc=True) and len(builds) == 4


def test_an_incomplete_compiler_names_the_vendoring_script(monkeypatch, tmp_path):
    source = tmp_path / "a.mo"
    source.write_text("persistent actor {}")
    monkeypatch.setattr(motoko, "MOC_JS", tmp_path / "moc.min.js")
    with pytest.raises(BuildError, match="incomplete .*moc.min.js is missing.*: run scripts/vendor-motoko"):
        build(source)


@pytest.mark.slow
def test_builds_without_node_the_bytes_node_built(tmp_path, build_cache):
    """Only Python on PATH: the compiler runs in this process, and gives what it gave under Node.js."""
    python_only = os.path.dirname(sys.executable)
    assert shutil.which("node", path=python_only) is None
    environment = {**os.environ, "PATH": python_only}
    done = subprocess.run(
        [sys.executable, "-m", "moxzi_core.cli", "build", ACTORS / "counter.mo", "-o", tmp_path],
        env=environment,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert hashlib.sha256((tmp_path / "counter.wasm").read_bytes()).hexdigest() == NODE_BUILT_COUNTER


@pytest.mark.slow
def test_an_unchanged_build_is_answered_from_the_cache(tmp_path, build_cache, monkeypatch):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "Two.mo").write_text("module { public func two() : Nat { 2 } }\n")
    (tmp_path / "main.mo").write_text(
        'import Two "lib/Two";\npersistent actor { public query func two() : async Nat { Two.two() } };\n'
    )
    first = build(tmp_path / "main.mo", out_dir=tmp_path / "first")
    with monkeypatch.context() as patched:
        patched.setattr(motoko, "Session", _no_compile)  # the compiler is not even started
        again = build(tmp_path / "main.mo", out_dir=tmp_path / "again")
    assert not first.cached and again.cached and again.sources == first.sources
    assert again.wasm_path.read_bytes() == first.wasm_path.read_bytes()
    assert again.did_path.read_text() == first.did_path.read_text()

    (tmp_path / "lib" / "Two.mo").write_text("module { public func two() : Nat { 1 + 1 } }\n")  # an import
    edited = build(tmp_path / "main.mo", out_dir=tmp_path / "edited")
    assert not edited.cached and edited.wasm_path.read_bytes() != first.wasm_path.read_bytes()
    other_options = build(tmp_path / "main.mo", out_dir=tmp_path / "classic", classic=True)
    assert not other_options.cached


def test_the_stable_compatibility_check_refuses_an_incompatible_upgrade(actor_build):
    def signature(name):
        return prepare(actor_build(name).wasm).custom_sections[STABLE_TYPES].decode()

    lab, incompatible = signature("lab"), signature("lab_incompatible")
    assert stable_incompatibilities(lab, lab) == []
    problems = stable_incompatibilities(lab, incompatible)
    assert problems and all(problem.startswith("[M0") for problem in problems)
