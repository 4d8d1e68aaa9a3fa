"""icp-cli's own `icp deploy` against moxzid (npm @icp-sdk/icp-cli-linux-x64, pinned in tests/ic_js),
offline, from a fresh project whose icp.yaml names moxzid as its `local` network: the canisters are
created through the cycles ledger after the cycles minting canister named moxzid's subnet, built by a
script step that runs `moxzi build`, installed (a module over 2 MiB in chunks), called with
`icp canister call`, kept across a kill -9, upgraded by a second deploy keeping their state, and a
deploy by an identity that does not control them is refused; the deployer's identity, exported by
icp-cli, exports a deployed actor's weights with `moxzi weights export --identity`; `icp canister logs`
prints a canister's log; `icp canister snapshot download|upload` moves a canister's state to another."""

import hashlib
import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from kit.daemon import moxzi, running_moxzid

pytest.importorskip("moxzi_store_lmdb")
pytestmark = pytest.mark.slow

ICP = Path(__file__).parent / "ic_js" / "node_modules" / "@icp-sdk" / "icp-cli-linux-x64" / "bin" / "icp"
PADDING = 2_500_000  # bytes of custom section that push the big canister's module past icp-cli's 2 MiB

COUNTER = """
persistent actor {
  var count : Nat = 0;
  public func inc() : async Nat { count += 1; count };
  public query func get() : async Nat { count };
};
"""
COUNTER_V2 = COUNTER.rstrip()[:-2] + "  public query func doubled() : async Nat { count * 2 };\n};\n"

# The big canister's build step, after `moxzi build`: the module with a custom section of PADDING
# zero bytes appended (a section is id 0, its size, then its name and bytes).
PAD = f"""
import sys
import urllib.request
from moxzi_core.leb128 import unsigned
name = b"moxzi:padding"
body = unsigned(len(name)) + name + bytes({PADDING})
padded = open(sys.argv[1], "rb").read() + b"\\x00" + unsigned(len(body)) + body
open(sys.argv[2], "wb").write(padded)
open("out/big.wasm", "wb").write(padded)  # to compare with what was installed
"""


def icp_yaml(url: str, *canisters: str) -> str:
    """An icp.yaml for moxzid at ``url`` with ``canisters`` (default counter and big), each built from
    main.mo by `moxzi build`; big's module padded past 2 MiB."""
    build = f"{sys.executable} -m moxzi_core.cli build main.mo -o out"
    last = {"big": f'{sys.executable} pad.py out/main.wasm "$ICP_WASM_OUTPUT_PATH"'}
    steps = "".join(
        f"""
  - name: {name}
    build:
      steps:
        - type: script
          commands:
            - {build}
            - {last.get(name, 'cp out/main.wasm "$ICP_WASM_OUTPUT_PATH"')}"""
        for name in canisters or ("counter", "big")
    )
    return f"""
canisters:{steps}
networks:
  - name: local
    mode: connected
    url: {url}
    root-key: fetch
"""


@pytest.fixture
def icp(tmp_path):
    """``icp(*args)``: icp-cli run in a fresh project directory, with its own HOME (identities)."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "main.mo").write_text(COUNTER)
    (project / "pad.py").write_text(PAD)
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("XDG_")},
        "HOME": str(tmp_path / "home"),
        "DO_NOT_TRACK": "1",
    }

    def run(*args, check: bool = True) -> subprocess.CompletedProcess:
        done = subprocess.run(
            [str(ICP), *args], cwd=project, env=env, capture_output=True, text=True, timeout=300, check=False
        )
        if check:
            assert done.returncode == 0, f"icp {' '.join(args)}:\n{done.stdout}\n{done.stderr}"
        return done

    run.project = project
    return run


def call(icp, canister: str, method: str, *flags: str) -> str:
    return icp("canister", "call", canister, method, "()", *flags).stdout.strip()


def test_icp_deploy_creates_installs_upgrades_and_refuses_strangers(tmp_path, icp):
    icp("identity", "new", "tester", "--storage", "plaintext")
    icp("identity", "new", "stranger", "--storage", "plaintext")
    icp("identity", "default", "tester")
    tester = icp("identity", "principal").stdout.strip()
    home = tmp_path / "moxzid"
    home.mkdir()
    (home / "actors.json").write_text('{"actors": []}')  # every actor comes from icp deploy
    flags = ("-m", "actors.json", "-s", "state")
    with running_moxzid(*flags, cwd=home, plugins="http,ic,lmdb") as daemon:
        (icp.project / "icp.yaml").write_text(icp_yaml(daemon.url))
        icp("deploy")
        ids = {name: icp("canister", "status", name, "--id-only").stdout.strip() for name in ("counter", "big")}
        assert call(icp, "counter", "inc") == "(1 : nat)" and call(icp, "big", "inc") == "(1 : nat)"
        assert call(icp, "counter", "inc") == "(2 : nat)"
        assert daemon.call(ids["counter"], "get", query=True) == [2]  # the JSON routes reach it too
        status = icp("canister", "status", "counter").stdout
        assert tester in status and "Running" in status
        # The big module is over 2 MiB, which icp-cli installs through the chunk store.
        big = (icp.project / "out" / "big.wasm").read_bytes()
        assert len(big) > 2 * 1024 * 1024
        assert f"Module hash: 0x{hashlib.sha256(big).hexdigest()}" in icp("canister", "status", "big").stdout
        daemon.process.kill()  # kill -9: the created actors, their code and state come back
    with running_moxzid(*flags, cwd=home, plugins="http,ic,lmdb") as daemon:
        (icp.project / "icp.yaml").write_text(icp_yaml(daemon.url))
        assert call(icp, "counter", "get", "--query") == "(2 : nat)"
        (icp.project / "main.mo").write_text(COUNTER_V2)
        refused = icp("deploy", "--identity", "stranger", check=False)
        assert refused.returncode != 0 and "only the controllers of canister" in refused.stderr, refused.stderr
        icp("deploy")  # an upgrade of both, keeping their state (enhanced orthogonal persistence)
        assert call(icp, "counter", "doubled", "--query") == "(4 : nat)"
        assert call(icp, "big", "doubled", "--query") == "(2 : nat)"
        assert call(icp, "counter", "inc") == "(3 : nat)"
        upgrade = icp("canister", "install", "counter", "--mode", "upgrade", "--identity", "stranger", check=False)
        assert upgrade.returncode != 0 and "only the controllers of canister" in upgrade.stderr, upgrade.stderr
        assert call(icp, "counter", "get", "--query") == "(3 : nat)"
        assert {name: icp("canister", "status", name, "--id-only").stdout.strip() for name in ids} == ids


def test_an_icp_cli_identity_exports_the_weights_of_the_canister_it_deployed(tmp_path, icp):
    """`moxzi weights export --identity`, with the PEM `icp identity export` prints: the deployer (its
    controller) gets the weights letters.mo learnt, read from stdin too; another identity gets a 403."""
    from safetensors.torch import load_file

    icp("identity", "new", "tester", "--storage", "plaintext")
    icp("identity", "new", "stranger", "--storage", "plaintext")
    icp("identity", "default", "tester")
    for name in ("tester", "stranger"):
        (tmp_path / f"{name}.pem").write_text(icp("identity", "export", name).stdout)
    (icp.project / "main.mo").write_text(
        (Path(__file__).parents[1] / "examples" / "letters" / "letters.mo").read_text()
    )
    home = tmp_path / "moxzid"
    home.mkdir()
    (home / "actors.json").write_text('{"actors": []}')
    with running_moxzid("-m", "actors.json", "--device", "torch:cpu", cwd=home, plugins="http,ic,torch") as daemon:
        (icp.project / "icp.yaml").write_text(icp_yaml(daemon.url, "letters"))
        icp("deploy")
        letters = icp("canister", "status", "letters", "--id-only").stdout.strip()
        assert "last =" in icp("canister", "call", "letters", "learn", "(20 : nat)").stdout

        def export(*flags: str, input: str | None = None) -> subprocess.CompletedProcess:
            out = ("-o", str(tmp_path / "letters.safetensors"), "--url", daemon.url)
            return moxzi("weights", "export", letters, *out, *flags, input=input)

        done = export("--identity", str(tmp_path / "tester.pem"))
        assert done.returncode == 0, done.stderr
        tensors = load_file(tmp_path / "letters.safetensors")
        assert sorted(tensors) == ["embed", "head"] and tensors["embed"].shape == (256, 16)
        done = export("--identity", "-", input=(tmp_path / "tester.pem").read_text())
        assert done.returncode == 0, done.stderr
        assert load_file(tmp_path / "letters.safetensors")["head"].equal(tensors["head"])
        stranger = icp("identity", "principal", "--identity", "stranger").stdout.strip()
        done = export("--identity", str(tmp_path / "stranger.pem"))
        assert done.returncode == 1 and f"{stranger} is not a controller of {letters}" in done.stderr, done.stderr
        assert not (tmp_path / "letters.safetensors").exists()


def test_icp_deploy_under_cycles_creates_from_the_account_the_admin_funded(tmp_path, icp):
    """While moxzid charges (--cycles N), `icp deploy` (which asks the cycles ledger for 2T cycles a
    canister) is refused while the deployer's cycles-ledger account is empty; once the admin funds it
    (POST /cycles-ledger/PRINCIPAL), the deploy creates the canister with the 2T taken from it, and
    icp-cli reads the balance left (icrc1_balance_of)."""
    icp("identity", "new", "tester", "--storage", "plaintext")
    icp("identity", "default", "tester")
    tester = icp("identity", "principal").stdout.strip()
    home = tmp_path / "moxzid"
    home.mkdir()
    (home / "actors.json").write_text('{"actors": []}')
    flags = ("-m", "actors.json", "--cycles", "1000")
    with running_moxzid(*flags, cwd=home, plugins="http,ic,cycles") as daemon:
        (icp.project / "icp.yaml").write_text(icp_yaml(daemon.url, "counter"))
        refused = icp("deploy", check=False)
        assert refused.returncode != 0 and "nsufficient" in refused.stdout + refused.stderr, refused.stderr
        assert json.loads(_post(f"{daemon.url}/cycles-ledger/{tester}", {"add": 3 * 10**12})) == {"balance": 3 * 10**12}
        icp("deploy")
        counter = icp("canister", "status", "counter", "--id-only").stdout.strip()
        assert call(icp, "counter", "inc") == "(1 : nat)"
        cycles = json.loads(urllib.request.urlopen(f"{daemon.url}/cycles").read())
        assert cycles[counter]["balance"] == 2 * 10**12
        left = 10**12 - 100_000_000  # the cycles ledger's fee
        balance = icp("cycles", "balance", check=False)
        assert f"{left:_}" in balance.stdout.replace(",", "_") or str(left) in balance.stdout, balance


def _post(url: str, body: dict) -> str:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    return urllib.request.urlopen(request).read().decode()


LOGGING = """
import Debug "mo:core/Debug";
import Runtime "mo:core/Runtime";

persistent actor {
  var count : Nat = 0;
  public func inc() : async Nat { count += 1; Debug.print("count is " # debug_show count); count };
  public func fail() : async () { Debug.print("about to fail"); Runtime.trap("failed on purpose") };
};
"""


def test_icp_canister_logs_prints_the_canisters_log_kept_across_a_kill_9(tmp_path, icp):
    """`icp canister logs` reads fetch_canister_logs (a query to the management canister): the
    canister's prints and its trap, for its controller and not for a stranger, the same after kill -9
    (LMDB store); with --since-index, from that record on."""
    icp("identity", "new", "tester", "--storage", "plaintext")
    icp("identity", "new", "stranger", "--storage", "plaintext")
    icp("identity", "default", "tester")
    (icp.project / "main.mo").write_text(LOGGING)
    home = tmp_path / "moxzid"
    home.mkdir()
    (home / "actors.json").write_text('{"actors": []}')
    flags = ("-m", "actors.json", "-s", "state")
    with running_moxzid(*flags, cwd=home, plugins="http,ic,lmdb") as daemon:
        (icp.project / "icp.yaml").write_text(icp_yaml(daemon.url, "counter"))
        icp("deploy")
        assert call(icp, "counter", "inc") == "(1 : nat)" and call(icp, "counter", "inc") == "(2 : nat)"
        failed = icp("canister", "call", "counter", "fail", "()", check=False)
        assert failed.returncode != 0 and "failed on purpose" in failed.stdout + failed.stderr
        printed = icp("canister", "logs", "counter").stdout
        lines = printed.strip().splitlines()
        assert [line.split("]: ", 1)[1] for line in lines] == [
            "count is 1",
            "count is 2",
            "about to fail",
            "[TRAP]: failed on purpose",
        ], printed
        assert lines[0].startswith("[0. ") and lines[3].startswith("[3. ")
        refused = icp("canister", "logs", "counter", "--identity", "stranger", check=False)
        assert refused.returncode != 0 and "do not let this caller see it" in refused.stderr, refused.stderr
        daemon.process.kill()
    with running_moxzid(*flags, cwd=home, plugins="http,ic,lmdb") as daemon:
        (icp.project / "icp.yaml").write_text(icp_yaml(daemon.url, "counter"))
        assert icp("canister", "logs", "counter").stdout == printed
        assert call(icp, "counter", "inc") == "(3 : nat)"
        since = icp("canister", "logs", "counter", "--since-index", "3").stdout.strip().splitlines()
        assert [line.split("]: ", 1)[1] for line in since] == ["[TRAP]: failed on purpose", "count is 3"]


def test_icp_canister_snapshot_download_and_upload_move_a_canisters_state_to_another(tmp_path, icp):
    """`icp canister snapshot create`, `download`, `upload` to another canister and `restore` there
    (read_canister_snapshot_metadata/_data, upload_canister_snapshot_metadata/_data, load_canister_snapshot):
    the other canister answers the first one's count, the upload kept across a kill -9 (LMDB store)."""
    icp("identity", "new", "tester", "--storage", "plaintext")
    icp("identity", "default", "tester")
    home = tmp_path / "moxzid"
    home.mkdir()
    (home / "actors.json").write_text('{"actors": []}')
    flags = ("-m", "actors.json", "-s", "state")
    with running_moxzid(*flags, cwd=home, plugins="http,ic,lmdb") as daemon:
        (icp.project / "icp.yaml").write_text(icp_yaml(daemon.url, "counter", "other"))
        icp("deploy")
        assert call(icp, "counter", "inc") == "(1 : nat)" and call(icp, "counter", "inc") == "(2 : nat)"
        icp("canister", "stop", "counter")  # (icp-cli snapshots stopped canisters only)
        created = icp("canister", "snapshot", "create", "counter").stdout
        taken = created.split("Created snapshot ")[1].split()[0]
        icp("canister", "snapshot", "download", "counter", taken, "-o", str(tmp_path / "snapshot"))
        metadata = json.loads((tmp_path / "snapshot" / "metadata.json").read_text())
        wasm = (tmp_path / "snapshot" / "wasm_module.bin").read_bytes()
        assert metadata["wasm_module_size"] == len(wasm) and wasm.startswith(b"\0asm") and metadata["globals"]
        uploaded = icp("canister", "snapshot", "upload", "other", "-i", str(tmp_path / "snapshot"), "--quiet")
        snapshot = uploaded.stdout.strip().split()[-1]
        assert snapshot in icp("canister", "snapshot", "list", "other").stdout
        daemon.process.kill()
    with running_moxzid(*flags, cwd=home, plugins="http,ic,lmdb") as daemon:
        (icp.project / "icp.yaml").write_text(icp_yaml(daemon.url, "counter", "other"))
        assert call(icp, "other", "get", "--query") == "(0 : nat)"
        icp("canister", "stop", "other")
        icp("canister", "snapshot", "restore", "other", snapshot)
        icp("canister", "start", "other")
        assert call(icp, "other", "get", "--query") == "(2 : nat)"
        assert call(icp, "other", "inc") == "(3 : nat)"
