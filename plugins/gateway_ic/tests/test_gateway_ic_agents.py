"""moxzid driven over the IC HTTP interface by real IC agents. The npm agents (tests/ic_js: @icp-sdk/core
and @dfinity/agent, pinned in its package-lock.json), as a front-end drives a canister: the root key
from /api/v2/status, an actor from an IDL, update and query calls with query signatures verified, a
reject, a trap, and signed identities (Ed25519, ECDSA P-256 and secp256k1, a delegation) seen as
msg.caller, and Internet Identity's canister-signature delegations built with the agents' own
DelegationChain and DelegationIdentity. PyPI's ic-py (pinned in the test extras), which calls through /api/v2 and polls. And
icp-cli (npm @icp-sdk/icp-cli-linux-x64, pinned there too): `icp canister call` as an icp identity."""

import json
import os
import subprocess
from pathlib import Path

import pytest
from kit.daemon import project, running_moxzid

from moxzi_core.candid import Principal
from moxzi_core.runtime.host import actor_principal
from moxzi_core.signatures import self_authenticating

AGENTS = Path(__file__).resolve().parents[3] / "tests" / "ic_js"
pytestmark = pytest.mark.slow


@pytest.fixture
def gate_moxzid(tmp_path):
    """moxzid with the IC interface, serving tests/actors/gate.mo and signer.mo."""
    project(tmp_path, "gate", "signer")
    with running_moxzid("-m", "actors.json", plugins="http,ic", cwd=tmp_path) as daemon:
        yield daemon


def node(script: str, *args: str) -> dict:
    """The JSON object a script of tests/ic_js printed last."""
    done = subprocess.run(
        ["node", script, *args],
        cwd=AGENTS,
        capture_output=True,
        check=False,
        text=True,
        timeout=90,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.parametrize("flavour", ["icp-sdk", "dfinity"])
def test_a_js_agent_calls_queries_and_signs(gate_moxzid, flavour):
    seen = node("drive.mjs", gate_moxzid.url, str(Principal(actor_principal("gate"))), flavour)
    assert seen["inc1"] == {"ok": 1} and seen["inc2"] == {"ok": 2}
    assert seen["get"] == {"ok": 2}
    assert seen["anonymousWhoami"] == {"ok": "2vxsx-fae"}
    assert "refused on purpose" in seen["refuse"]["error"]
    assert "deliberate trap" in seen["trap"]["error"]
    assert seen["getAfterTrap"] == {"ok": 2}  # the trap rolled its change back
    me = seen["ed25519Principal"]
    assert seen["ed25519Whoami"] == {"ok": me} and seen["ed25519WhoamiUpdate"] == {"ok": me}
    assert seen["claim"] == {"ok": me} and seen["ownerAdd"] == {"ok": 12}
    assert "only the owner may add" in seen["anonymousOwnerAdd"]["error"]
    assert seen["p256WhoamiUpdate"] == {"ok": seen["p256Principal"]}
    if flavour == "icp-sdk":
        assert seen["secp256k1WhoamiUpdate"] == {"ok": seen["secp256k1Principal"]}
    assert seen["delegatedWhoamiUpdate"] == {"ok": me}
    assert seen["delegatedOwnerAdd"] == {"ok": 17}


@pytest.mark.parametrize("flavour", ["icp-sdk", "dfinity"])
def test_a_js_agent_calls_through_a_canister_signature_delegation(gate_moxzid, flavour):
    """Internet Identity's flow (tests/ic_js/canister_sig.mjs): the caller is the canister key's principal."""
    signer, gate = (str(Principal(actor_principal(name))) for name in ("signer", "gate"))
    seen = node("canister_sig.mjs", gate_moxzid.url, signer, gate, flavour)
    principal = str(Principal(self_authenticating(bytes.fromhex(seen["canisterKey"]))))
    assert seen["principal"] == principal
    assert seen["whoamiUpdate"] == {"ok": principal} and seen["whoami"] == {"ok": principal}
    assert "no empty leaf at sig/<sha256(seed)>" in seen["otherSeed"]["error"]


def test_ic_py_calls_with_a_secp256k1_identity(gate_moxzid):
    from ic.agent import Agent
    from ic.candid import encode
    from ic.client import Client
    from ic.identity import Identity

    identity = Identity()  # a new secp256k1 key
    agent = Agent(identity, Client(url=gate_moxzid.url))
    canister = str(Principal(actor_principal("gate")))
    [caller] = agent.update_raw(canister, "whoamiUpdate", encode([]))
    assert caller["value"].to_str() == identity.sender().to_str()
    assert agent.update_raw(canister, "inc", encode([]))[0]["value"] == 1
    assert agent.query_raw(canister, "get", encode([]))[0]["value"] == 1
    with pytest.raises(Exception, match="Rejected: refused on purpose"):
        agent.update_raw(canister, "refuse", encode([]))


def test_icp_cli_calls_as_its_identity(gate_moxzid, tmp_path):
    icp_binary = AGENTS / "node_modules" / "@icp-sdk" / "icp-cli-linux-x64" / "bin" / "icp"
    home = tmp_path / "home"  # icp keeps its identities under HOME: a fresh one, not the user's
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("XDG_")}, "HOME": str(home), "DO_NOT_TRACK": "1"}
    network = ["--network", gate_moxzid.url, "--root-key", "fetch", "--identity", "tester"]
    canister = str(Principal(actor_principal("gate")))

    def icp(*args) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(icp_binary), *args], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False
        )

    assert icp("identity", "new", "tester", "--storage", "plaintext").returncode == 0
    principal = icp("identity", "principal", "--identity", "tester").stdout.strip()
    assert (
        icp("canister", "call", canister, "whoamiUpdate", "()", *network).stdout.strip() == f'(principal "{principal}")'
    )
    assert icp("canister", "call", canister, "inc", "()", *network).stdout.strip() == "(1 : nat)"
    assert icp("canister", "call", canister, "get", "()", "--query", *network).stdout.strip() == "(1 : nat)"
    refused = icp("canister", "call", canister, "refuse", "()", *network)
    assert refused.returncode != 0 and "refused on purpose" in refused.stderr
