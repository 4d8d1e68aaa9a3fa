"""mo:moxzi, the Motoko library moxzi ships for the device (moxzi_core/compiler/moxzi/): Device is the
interface's types, generated; F32 converts exactly; Program's builder and Gpt's model make the programs
the seeds' actors write by hand (bench/device_step.py's copy of them); the cached model gives the
uncached one's logits."""

import math
import struct
import sys
from pathlib import Path

import numpy as np
import pytest
from kit.device import learner_host

from moxzi_core.candid import BLOB, FLOAT64, NAT, NAT32, TEXT, Record, Vec, decode_args, encode_args
from moxzi_core.candid.types import resolve
from moxzi_core.device import motoko
from moxzi_core.device.interface import interface
from moxzi_core.runtime.host import actor_principal
from moxzi_core.store import MemoryStore

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import device_step  # noqa: E402  (the Shakespeare model as a program)

PROGRAM = resolve(interface().methods["moxzi_device_run"].args[0]).by_key["program"].type  # vec Op
CONFIG = Record({"nLayer": NAT, "nHead": NAT, "nEmbd": NAT, "vocab": NAT})
SMALL = {"nLayer": 2, "nHead": 2, "nEmbd": 16, "vocab": 11}


def test_device_mo_is_the_interface_as_generated():
    assert motoko.DEVICE_MO.read_text() == motoko.device_mo(motoko.interface_text()), (
        "mo:moxzi/Device.mo and moxzi_core/device/interface.did differ: run `python3 -m moxzi_core.device.motoko`"
    )


def test_every_method_and_op_of_the_interface_is_in_device_mo():
    text = motoko.device_mo(motoko.interface_text())
    for method in interface().methods:
        assert f"    {method} : (" in text
    tags = {f.name for f in resolve(PROGRAM.type).fields}
    assert "rms_norm" in tags and all(f"    #{motoko.motoko_name(tag)}" in text for tag in tags)
    assert "#shared_ : { name : Text; owner : Principal }" in text  # a Motoko keyword takes a `_`


def test_a_changed_interface_changes_device_mo():
    did = motoko.interface_text().replace("  relu : Reg;", "  relu : Reg;\n  tanh : Reg;")
    assert "    #tanh : Reg;" in motoko.device_mo(did)


@pytest.fixture
def library(registry):
    """An async context: (host, device) with tests/actors/library.mo as `library`."""
    return learner_host(registry, MemoryStore(), actor="library")


async def call(host, method, types, values, rets, *, query=False):
    outcome = await host.call("library", method, encode_args(list(types), list(values)), query=query)
    assert outcome.reply is not None, outcome.reject_message
    return decode_args(outcome.reply, list(rets))


def f32_bits(x: float) -> int:
    return struct.unpack("<I", np.float32(x).tobytes())[0]


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:overflow encountered in cast")  # 1e39 is inf as a float32
async def test_f32_converts_exactly(library):
    rng = np.random.default_rng(0)
    values = [0.0, -0.0, 1.0, -2.5, 1e-40, -1e-45, 3.4e38, 1e39, -math.inf, math.inf, 0.1, 1 / 3]
    values += list(rng.standard_normal(200) * 10.0 ** rng.integers(-30, 30, 200))
    async with library as (host, _):
        [bits] = await call(host, "toBits", [Vec(FLOAT64)], [values], [Vec(NAT32)], query=True)
        assert bits == [f32_bits(x) for x in values]  # round to nearest even, subnormals, overflow to inf
        [back] = await call(host, "fromBits", [Vec(NAT32)], [bits], [Vec(FLOAT64)], query=True)
        assert back == [float(np.float32(x)) for x in values]
        [nan] = await call(host, "fromBits", [Vec(NAT32)], [[0x7FC00000]], [Vec(FLOAT64)], query=True)
        assert math.isnan(nan[0])

        [blob] = await call(host, "toBlob", [Vec(FLOAT64)], [values], [BLOB], query=True)
        assert blob == np.array(values, "<f4").tobytes()
        [floats] = await call(host, "fromBlob", [BLOB], [blob], [Vec(FLOAT64)], query=True)
        assert floats == back
        [empty] = await call(host, "fromBlob", [BLOB], [b""], [Vec(FLOAT64)], query=True)
        assert empty == []
        outcome = await host.call("library", "fromBlob", encode_args([BLOB], [b"abcde"]), query=True)
        assert "F32.fromBlob: 5 bytes are not float32 values" in outcome.reject_message


@pytest.mark.slow
async def test_f32_tabulates_in_parts_a_message_each(library):
    async with library as (host, _):
        for n, part, messages in [(10, 3, 4), (9, 3, 3), (5, 8, 1), (0, 4, 0)]:
            parts, whole, counted = await call(host, "tabulateInParts", [NAT, NAT], [n, part], [BLOB, BLOB, NAT])
            assert parts == whole == np.array([i / 3 for i in range(n)], "<f4").tobytes()
            assert counted == messages
        outcome = await host.call("library", "tabulateInParts", encode_args([NAT, NAT], [4, 0]), query=False)
        assert "F32.tabulateInParts: a part of 0 values" in outcome.reject_message


@pytest.mark.slow
async def test_program_and_gpt_build_the_seeds_programs(library):
    async with library as (host, _):
        [ops] = await call(host, "nanoGpt", [], [], [PROGRAM], query=True)
        assert ops == [{"input": 0}, {"rms_norm": 0}, {"param": "head"}, {"linear": {"x": 1, "w": 2, "b": None}}]

        cfg = device_step.Config(vocab=65, batch=3, block=8)
        c = {"nLayer": cfg.n_layer, "nHead": cfg.n_head, "nEmbd": cfg.n_embd, "vocab": cfg.vocab}
        program, loss = await call(
            host, "lossProgram", [CONFIG, NAT, NAT], [c, cfg.batch, cfg.block], [PROGRAM, NAT32], query=True
        )
        assert (program, loss) == device_step.loss_program(cfg)  # op for op, in the seeds' order
        [names] = await call(host, "paramNames", [CONFIG], [c], [Vec(TEXT)], query=True)
        assert names == list(device_step.weights(cfg))


@pytest.mark.slow
async def test_cached_logits_are_the_uncached_ones(library):
    tokens = bytes([3, 1, 4, 1, 5, 9, 2, 6, 5, 3])
    async with library as (host, _):
        await call(host, "createModel", [CONFIG], [SMALL], [])
        [whole] = await call(host, "logits", [CONFIG, BLOB], [SMALL, tokens], [BLOB])
        whole = np.frombuffer(whole, "<f4").reshape(len(tokens), SMALL["vocab"])
        assert whole.std() > 0.1  # the model is not degenerate
        [pieces] = await call(host, "cachedLogits", [CONFIG, BLOB, NAT], [SMALL, tokens, 4], [Vec(BLOB)])
        assert len(pieces) == 1 + len(tokens) - 4  # the prefill, then a run per token
        cached = np.concatenate([np.frombuffer(p, "<f4").reshape(-1, SMALL["vocab"]) for p in pieces])
        np.testing.assert_allclose(cached, whole, rtol=1e-4, atol=1e-5)

        [ids] = await call(host, "generate", [CONFIG, NAT, NAT], [SMALL, 3, 6], [Vec(NAT)])
        assert len(ids) == 6 and all(0 <= i < SMALL["vocab"] for i in ids)


@pytest.mark.slow
async def test_generation_from_the_sliding_cache_costs_the_same_each_token(library):
    """The cached generation's first tokens are generate's (a context of 4); from the 5th on each token
    is the same program on the same shapes, so a longer text adds no plans (nor larger tensors)."""
    async with library as (host, dev):
        await call(host, "createModel", [CONFIG], [SMALL], [])
        [plain] = await call(host, "generate", [CONFIG, NAT, NAT], [SMALL, 3, 4], [Vec(NAT)])
        before = dev.plans.misses
        [cached] = await call(host, "generateCached", [CONFIG, NAT, NAT], [SMALL, 3, 40], [Vec(NAT)])
        assert cached[:4] == plain and len(cached) == 40 and all(0 <= i < SMALL["vocab"] for i in cached)
        assert dev.plans.misses - before == 5  # positions 0, 1, 2, 3 (growing), then one for every later token
        held = dev.request("list", actor_principal("library"))
        kept = {e["name"]: e["shape"] for e in held if e["name"].startswith("window/")}
        assert kept == {f"window/h{i}.{kv}": [1, 2, 4, 8] for i in range(2) for kv in "kv"}


@pytest.mark.slow
async def test_sample_draws_by_the_softmax(library):
    scores = [0.0, math.log(3.0)]  # probabilities 1/4, 3/4
    async with library as (host, _):
        for u, expected in [(0.0, 0), (0.24, 0), (0.26, 1), (0.99, 1)]:
            [pick] = await call(host, "sample", [Vec(FLOAT64), FLOAT64, FLOAT64], [scores, 1.0, u], [NAT], query=True)
            assert pick == expected
        # a high temperature flattens: 3/4 -> about 1/2
        [pick] = await call(host, "sample", [Vec(FLOAT64), FLOAT64, FLOAT64], [scores, 100.0, 0.45], [NAT], query=True)
        assert pick == 0
