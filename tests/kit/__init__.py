"""The tests' toolkit: everything more than one test module uses lives here, and test modules import
from ``kit`` only (never from each other).

- ``kit.actorbuild``: test actors from ``tests/actors`` compiled once and cached (``build_actor``).
- ``kit.http``: the one HTTP client (``request``) the tests use against moxzid.
- ``kit.daemon``: moxzid as a process (``running_moxzid``, ``moxzid``, ``Daemon``) and small projects.
- ``kit.host``: a ``Host`` in this process with compiled actors (``spec``, ``started``, ``update``, ...).
- ``kit.device``: the learner actor on a torch:cpu device (``learner_host``), a run's argument (``run_arg``,
  ``training``), reading a device's tensors and taking its snapshot.
- ``kit.crashing``: the kill -9 procedure the crash tests follow, and the device ones' workload (``Training``).
- ``kit.candid_random``: random Candid types and values, for property tests.
- ``kit.candid_suite``: the official Candid test suite's assertions (tests/data/candid-suite).
- ``kit.gateway``: the http gateway in the test process, serving a ``Host`` (``serving``, ``post``).
- ``kit.fixtures``: the fixtures and hooks (pytest's) every conftest.py takes.
- ``kit.memory``: the test process's resident memory, now and at its peak (``resident_mib``, ``reset_peak``).
"""
