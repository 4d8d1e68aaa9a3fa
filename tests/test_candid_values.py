"""Random typed values: they survive the binary codec and the JSON mapping, and damaged messages
fail only with CandidError (random cases from ``kit.candid_random``)."""

import json
import random

from kit.candid_random import canonical, random_cases

from moxzi_core.candid import CandidError, args_from_json, decode_args, encode_args, results_to_json


def test_random_values_survive_the_binary_codec():
    for types, values in random_cases(seed=1, count=300):
        data = encode_args(types, values)
        assert canonical(decode_args(data, types)) == canonical(values), [str(t) for t in types]
        assert len(decode_args(data)) == len(types)


def test_random_values_survive_the_json_mapping():
    for types, values in random_cases(seed=2, count=300):
        shown = json.dumps(results_to_json(types, encode_args(types, values)), allow_nan=False)
        again = decode_args(args_from_json(types, json.loads(shown)), types)
        assert canonical(again) == canonical(values), [str(t) for t in types]


def test_json_that_does_not_fit_fails_only_with_candid_errors():
    rng = random.Random(4)
    odd = [None, True, 1, -1, 1.5, "x", "", [], {}, [1], {"a": 1}, "AAEC", "2vxsx-fae", 10**30, "NaN"]

    def damage(value, depth=0):
        if depth > 3 or rng.random() < 0.2:
            return rng.choice(odd)
        if isinstance(value, list):
            return [damage(item, depth + 1) for item in value]
        if isinstance(value, dict):
            return {key if rng.random() < 0.9 else key + "?": damage(item, depth + 1) for key, item in value.items()}
        return value

    refused = 0
    for types, values in random_cases(seed=4, count=300):
        shown = results_to_json(types, encode_args(types, values))
        for _ in range(3):
            try:
                args_from_json(types, damage(shown))
            except CandidError:
                refused += 1
    assert refused > 300


def test_damaged_messages_fail_only_with_candid_errors():
    rng = random.Random(3)
    outcomes = {"decoded": 0, "refused": 0}
    for types, values in random_cases(seed=3, count=150):
        data = encode_args(types, values)
        for _ in range(12):
            damaged = bytearray(data)
            how = rng.random()
            if how < 0.3:
                del damaged[rng.randrange(len(damaged)) :]
            elif how < 0.6:
                damaged[rng.randrange(len(damaged))] = rng.randrange(256)
            elif how < 0.8:
                damaged.insert(rng.randrange(len(damaged) + 1), rng.randrange(256))
            else:
                damaged[rng.randrange(4, len(damaged)) : rng.randrange(4, len(damaged) + 1)] = b""
            try:
                decode_args(bytes(damaged), rng.choice([types, None]))
                outcomes["decoded"] += 1
            except CandidError:
                outcomes["refused"] += 1
    assert min(outcomes.values()) > 100, outcomes
