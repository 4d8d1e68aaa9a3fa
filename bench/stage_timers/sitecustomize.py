"""Stage timers for bench/call_stages.py: a moxzid started with this folder first on PYTHONPATH times
each stage of an actor's device calls (perf_counter_ns around the functions below, and the two thread
hand-offs from where a call or answer is queued to where it is taken) and writes, as it exits, each
stage's samples to the JSON file $MOXZI_STAGES_OUT. Python imports this file at start-up
(``sitecustomize``); without that variable it does nothing. With $MOXZI_STAGES_SPARE set, ``Spare``
always finds a core spare (short calls run on the actor's thread, as on an idle machine)."""

import atexit
import json
import os
import time
from collections import defaultdict

OUT = os.environ.get("MOXZI_STAGES_OUT")
samples: dict[str, list[int]] = defaultdict(list)
now = time.perf_counter_ns


def timed(owner, name: str, stage: str) -> None:
    inner = getattr(owner, name)

    def timer(*args, **kwargs):
        began = now()
        try:
            return inner(*args, **kwargs)
        finally:
            samples[stage].append(now() - began)

    setattr(owner, name, timer)


class TimedCodec:
    """A device method's Candid decoder or encoder, timed."""

    def __init__(self, inner, stage: str):
        self.inner, self.stage = inner, stage

    def decode(self, *args, **kwargs):
        began = now()
        value = self.inner.decode(*args, **kwargs)
        samples[self.stage].append(now() - began)
        return value

    def encode(self, *args, **kwargs):
        began = now()
        data = self.inner.encode(*args, **kwargs)
        samples[self.stage].append(now() - began)
        return data


def install() -> None:
    from moxzi_core.device import schedule, service
    from moxzi_core.runtime import actor, turn
    from moxzi_core.runtime.device_calls import record, run
    from moxzi_core.runtime.engine import instance

    timed(instance.Instance, "invoke", "actor: the callback's wasm, ic0 included")
    timed(instance.Instance, "commit", "actor: heap commit")
    timed(actor.Actor, "_dispatch", "actor: the whole message")
    timed(actor.Actor, "_settle", "actor: settle (a device call run here included)")
    timed(turn.Turn, "call", "actor: start_early (and let_run's wait)")
    timed(run.DeviceCalls, "_start", "device_calls: _start (a call run here included)")
    timed(service.Device, "call", "device: Device.call (decode, turn, encode)")
    timed(record.Record, "answer", "device_calls: Record.answer (record, events, deliver)")
    if hasattr(schedule.Schedule, "run_here"):  # (a checkout before it ran such calls through submit)
        run_here = schedule.Schedule.run_here

        def ran_here(self, caller, work):
            began = now()
            result = run_here(self, caller, work)
            if result is not schedule.NOT_HERE:
                samples["device: Schedule.run_here (a call run on the actor's thread)"].append(now() - began)
            return result

        schedule.Schedule.run_here = ran_here

    if os.environ.get("MOXZI_STAGES_SPARE"):
        schedule.Spare.__call__ = lambda self: True

    call = service.Device.call

    def device_call(self, *args, **kwargs):
        if not isinstance(next(iter(self.decoders.values())), TimedCodec):
            self.decoders = {m: TimedCodec(d, "device: Candid decode") for m, d in self.decoders.items()}
            self.encoders = {m: TimedCodec(e, "device: Candid encode") for m, e in self.encoders.items()}
        return call(self, *args, **kwargs)

    service.Device.call = device_call

    queued: dict[object, int] = {}  # hand-offs: when a call or answer was queued, by who takes it
    post, on_response = actor.Actor.post, actor.Actor._on_response
    submit, run_first = schedule.Schedule.submit, schedule.Schedule._run_first

    def posted(self, seq, message):
        queued[id(self)] = now()
        post(self, seq, message)

    def responded(self, response):
        began = queued.pop(id(self), None)
        if began is not None:
            samples["hand-off: answer queued -> actor thread runs it"].append(now() - began)
        return on_response(self, response)

    def submitted(self, caller, work, *here):  # (``here``: a checkout before Schedule.run_here)
        queued[caller] = now()
        return submit(self, caller, work, *here)

    def first(self, caller):
        began = queued.pop(caller, None)
        if began is not None:
            samples["hand-off: call submitted -> device runs it"].append(now() - began)
        return run_first(self, caller)

    actor.Actor.post, actor.Actor._on_response = posted, responded
    schedule.Schedule.submit, schedule.Schedule._run_first = submitted, first

    @atexit.register
    def write() -> None:
        with open(OUT, "w") as out:
            json.dump(samples, out)


if OUT:
    install()
