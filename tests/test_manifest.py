"""Reading the actors manifest: what a good one gives, and the error each kind of bad one gets."""

import json

import pytest

from moxzi_core.manifest import ManifestError, load_manifest


@pytest.fixture
def project(tmp_path):
    """A folder with trainer.wasm (and its .did) and writer.wasm (no .did) in build/."""
    build = tmp_path / "build"
    build.mkdir()
    (build / "trainer.wasm").write_bytes(b"\0asm trainer")
    (build / "trainer.did").write_text("service : { train : (nat) -> () }")
    (build / "writer.wasm").write_bytes(b"\0asm writer")
    return tmp_path


def write(project, document) -> str:
    path = project / "actors.json"
    path.write_text(document if isinstance(document, str) else json.dumps(document))
    return str(path)


def test_reads_wasm_relative_to_the_manifest_and_the_did_beside_it(project, monkeypatch, tmp_path_factory):
    path = write(
        project,
        {
            "actors": [
                {"name": "trainer", "wasm": "build/trainer.wasm"},
                {"name": "writer", "wasm": "build/writer.wasm"},
                {"name": "island-0_b", "wasm": "build/trainer.wasm"},
            ]
        },
    )
    monkeypatch.chdir(tmp_path_factory.mktemp("elsewhere"))  # relative to the manifest, not the cwd
    specs = load_manifest(path)
    assert [(s.name, s.wasm, s.did) for s in specs] == [
        ("trainer", b"\0asm trainer", "service : { train : (nat) -> () }"),
        ("writer", b"\0asm writer", None),
        ("island-0_b", b"\0asm trainer", "service : { train : (nat) -> () }"),
    ]


@pytest.mark.parametrize(
    "document, message",
    [
        ("{not json", "is not JSON"),
        ([], 'must be an object with a list "actors"'),
        ({"actor": []}, 'must be an object with a list "actors"'),
        ({"actors": ["trainer"]}, r"actors\[0\]: expected an object"),
        ({"actors": [{"name": "trainer"}]}, r"actors\[0\]: missing 'wasm'"),
        ({"actors": [{}]}, r"actors\[0\]: missing 'name' and 'wasm'"),
        ({"actors": [{"name": "t", "wasm": "build/trainer.wasm", "wsam": "x"}]}, r"unknown key\(s\) 'wsam'"),
        ({"actors": [{"name": "my actor", "wasm": "build/trainer.wasm"}]}, 'name "my actor" must be letters'),
        ({"actors": [{"name": "a/b", "wasm": "build/trainer.wasm"}]}, 'name "a/b" must be letters'),
        ({"actors": [{"name": "", "wasm": "build/trainer.wasm"}]}, 'name "" must be letters'),
        ({"actors": [{"name": 7, "wasm": "build/trainer.wasm"}]}, "name 7 must be letters"),
        ({"actors": [{"name": "t", "wasm": 3}]}, r"\(t\): wasm must be a path, got 3"),
        ({"actors": [{"name": "t", "wasm": "build/missing.wasm"}]}, r"\(t\): cannot read .*missing.wasm: No such file"),
        (
            {"actors": [{"name": "t", "wasm": "build/trainer.wasm"}, {"name": "t", "wasm": "build/writer.wasm"}]},
            "actor name 't' appears more than once",
        ),
        (
            {"actors": [{"name": "t", "wasm": "build/trainer.wasm", "controllers": "2vxsx-fae"}]},
            r"\(t\): controllers must be a list",
        ),
        (
            {"actors": [{"name": "t", "wasm": "build/trainer.wasm", "controllers": ["2vxsx-fae"] * 11}]},
            r"\(t\): controllers must be a list of at most 10",
        ),
        (
            {"actors": [{"name": "t", "wasm": "build/trainer.wasm", "controllers": ["not-a-principal"]}]},
            r'\(t\): controller "not-a-principal" is not a principal',
        ),
    ],
)
def test_bad_manifest_is_a_clear_error(project, document, message):
    path = write(project, document)
    with pytest.raises(ManifestError, match=message) as caught:
        load_manifest(path)
    assert path in str(caught.value)  # every message names the file


def test_controllers_are_principals(project):
    path = write(
        project,
        {
            "actors": [
                {"name": "t", "wasm": "build/trainer.wasm", "controllers": ["2vxsx-fae", "aaaaa-aa"]},
                {"name": "u", "wasm": "build/writer.wasm"},
            ]
        },
    )
    assert [s.controllers for s in load_manifest(path)] == [(b"\x04", b""), ()]


def test_missing_manifest(tmp_path):
    with pytest.raises(ManifestError, match=r"cannot read manifest .*nope.json: No such file"):
        load_manifest(tmp_path / "nope.json")
