"""moxzid: hosts the actors a manifest names and serves them through the loaded gateways.

``moxzid -m actors.json`` starts the host, then every gateway a plugin registered, and runs until
SIGINT or SIGTERM, when it stops the gateways and then the host. ``moxzid plugins`` lists the
installed plugins and what each registers (exit 1 if one cannot load); ``moxzid --device SPEC plugins``
adds whose kernel runs each op on that device. Start-up errors (settings, plugins, manifest, a setting no
loaded component can honor) print one line each and exit with status 2.

With ``-s DIR`` actor state lives in the store a loaded plugin registers (the ``lmdb`` plugin), opened
on DIR; without it, in memory. With ``--device SPEC`` the actors reach a tensor device on the backend
a loaded plugin registers (``torch:cpu``) through the management canister's ``moxzi_device_*``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import logging
import math
import resource
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

from . import __version__, billing_settings, command_line, plugins
from . import settings as settings_module
from .backup import BackupError, back_up, check_destination, print_progress
from .billing import Ledger
from .billing_settings import choose_prices
from .device import (
    Device,
    DeviceError,
    GroupError,
    LocalRanks,
    Ranks,
    ReplicatedDevice,
    open_device,
)
from .device import settings as device_settings
from .device.transfer import Transport
from .events import Events, LogHandler
from .hookspecs import Gateway
from .manifest import ManifestError, load_manifest
from .progress import log_progress
from .registry import Registry
from .runtime.host import Host, actor_principal
from .runtime.journal import repack_memories
from .runtime.settings import host_config
from .settings import MANIFEST, PLUGINS, STATE, Settings, SettingsError
from .store import MemoryStore, Store, StoreError

log = logging.getLogger("moxzid")

USAGE_ERROR = 2
# How often a thread running Python hands the GIL to another that waits (Python's default is 5 ms): the
# event loop waits at most this long behind another thread's Python work (a system method's, a query's).
GIL_SWITCH_SECONDS = 0.0005


class OutOfFiles:
    """The event loop's exception handler: asyncio logs each ``accept`` that fails for want of open
    files (EMFILE) with a traceback, up to a listen backlog of them at a time, and stops accepting on
    that socket for a second; a client opening connections fast would fill the log with them. This logs
    one warning an episode (failures less than ``quiet_seconds`` apart), as it begins, and leaves every
    other exception to asyncio's handler."""

    MESSAGE = "socket.accept() out of system resource"  # asyncio's, for EMFILE, ENFILE, ENOBUFS, ENOMEM

    def __init__(self, quiet_seconds: float = 60.0):
        self._quiet, self._last = quiet_seconds, -math.inf  # the last failure's time

    def handle(self, loop: asyncio.AbstractEventLoop, context: dict) -> None:
        if context.get("message") != self.MESSAGE:
            loop.default_exception_handler(context)
            return
        now = time.monotonic()
        if now - self._last >= self._quiet:
            soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
            log.warning(
                "out of open files (the limit is %d): connections wait in the listen queue while accepts fail "
                "(%s), each failure pausing that listener a second; said once until %d s pass without one "
                "(raise `ulimit -n`, or lower the connection caps)",
                soft,
                context.get("exception"),
                self._quiet,
            )
        self._last = now


class StartupError(Exception):
    """moxzid cannot start as asked; the message says why and what would work."""


def main(argv: list[str] | None = None) -> None:
    """The ``moxzid`` console script. Exits 0 after a clean shutdown, 1 when the store, the actors or a
    gateway fail to start, 2 for a start-up error that a change of flags, config or manifest fixes."""
    sys.setswitchinterval(GIL_SWITCH_SECONDS)
    logging.basicConfig(
        stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(name)s: %(message)s", datefmt="%H:%M:%S"
    )
    argv = sys.argv[1:] if argv is None else argv
    with contextlib.ExitStack() as resources:
        try:
            # The plugins are chosen first: their settings are flags too (--help lists them).
            choice = settings_module.read_plugin_choice(_early_flags(argv))
            registry, loaded = plugins.load(choice, settings_only=command_line.wants_help(argv))
            # What the imports made (about 200,000 objects, most of them torch's) lives as long as the
            # process. Frozen, the collector never scans it again: not in each full collection while
            # serving, nor in the process's last one at exit (0.8 s with torch, on every stop).
            gc.freeze()
            args = command_line.parser(registry).parse_args(argv)
            settings = settings_module.from_sources(vars(args), registry.settings)
            if args.command == "device-worker":
                sys.exit(_device_worker(settings, registry, args.rank))
            if args.command == "compact":
                sys.exit(_compact(settings, registry, loaded))
            if args.command == "backup":
                sys.exit(_backup(settings, registry, loaded, args.destination))
            if args.command == "plugins":
                lines, all_loaded = _describe_installed()
                if settings[device_settings.DEVICE] is not None:
                    lines += _describe_device(settings)
                print("\n".join(lines))
                sys.exit(0 if all_loaded else 1)
            for name, why in registry.skipped.items():
                log.warning("plugin %s skipped: %s (name it in --plugins to make this an error)", name, why)
            manifest = settings[MANIFEST]
            if manifest is None:
                raise StartupError('no manifest: give -m FILE, or manifest = "FILE" in the --config file')
            specs = load_manifest(manifest)
            for gateway in registry.gateways.values():  # a taken port fails now, not after the device loads
                if gateway.check is not None:
                    gateway.check(settings)
            open_store = _store_opener(settings, registry, loaded)
            device = _open_device(settings, registry, resources)
            transports = [factory(settings) for factory in registry.transports.values()]
            if device is not None:
                for transport in transports:
                    device.add_transport(transport)
        except (SettingsError, plugins.PluginError, ManifestError, StartupError, DeviceError) as exc:
            _print_error(exc)
            sys.exit(USAGE_ERROR)
        log.info("moxzid %s; plugins: %s", __version__, ", ".join(loaded) or "none")
        try:
            store = open_store()
        except StoreError as exc:  # e.g. another moxzid holds DIR: not something a flag fixes
            _print_error(exc)
            sys.exit(1)
        resources.callback(store.close)
        status = asyncio.run(_serve(settings, registry, specs, store, device, transports))
    sys.exit(status)


def _store_size(store: Store) -> str:
    """``; 796.2 MiB``: how large the state is (-s DIR grows with the actors' heaps and the device)."""
    size = store.size_bytes()
    if size is None:
        return ""
    return f"; {size / 2**20:,.1f} MiB" if size >= 2**20 else f"; {size / 2**10:.1f} KiB"


def _print_error(exc: Exception) -> None:
    for line in str(exc).splitlines():
        print(f"moxzid: error: {line}", file=sys.stderr)


def _early_flags(argv: list[str]) -> dict[str, str]:
    """``--plugins`` and ``--config`` from the command line, read before the plugins' flags are known."""
    found = {}
    for at, arg in enumerate(argv):
        name, equals, value = arg.partition("=")
        if name in ("--plugins", "--config"):
            if not equals:
                value = argv[at + 1] if at + 1 < len(argv) else ""
            found[name[2:]] = value
    return found


def _compact(settings: Settings, registry: Registry, loaded) -> int:
    """``moxzid compact -s DIR``: the exit status (1 when the store refuses: in use, corrupt, no room)."""
    state = settings[STATE]
    if state is None:
        raise StartupError("compact: give -s DIR, the state directory to compact")
    if not state.is_dir():
        raise StartupError(f"compact: {state} is not a directory (-s names a moxzid's state directory)")
    open_store = _store_opener(settings, registry, loaded)
    try:
        store = open_store()
    except StoreError as exc:
        _print_error(exc)
        return 1
    try:
        packed, repacked = repack_memories(store)
        before, after = store.compact()
    except StoreError as exc:
        _print_error(exc)
        return 1
    finally:
        store.close()
    if packed:
        print(f"{settings[STATE]}: actors' memories {packed / 1e6:.1f} MB -> {repacked / 1e6:.1f} MB compressed again")
    print(f"{settings[STATE]}: {before / 1e6:.1f} MB -> {after / 1e6:.1f} MB")
    return 0


def _backup(settings: Settings, registry: Registry, loaded, destination: Path) -> int:
    """``moxzid backup -s DIR DEST``: the exit status (1 when the store or the destination refuses)."""
    if settings.state is None or not settings.state.is_dir():
        raise StartupError("backup: give -s DIR, the state directory to copy (an existing one)")
    open_store = _store_opener(settings, registry, loaded)
    try:
        check_destination(destination.absolute())
    except BackupError as exc:
        _print_error(exc)
        return 1
    try:
        store = open_store()
    except StoreError as exc:
        _print_error(exc)
        print("moxzid: to back up the directory of a moxzid that runs, ask it: moxzi backup DEST", file=sys.stderr)
        return 1
    try:
        done = back_up(store, settings.state, destination.absolute(), print_progress)
    except BackupError as exc:
        _print_error(exc)
        return 1
    finally:
        store.close()
    print(
        f"{settings.state} -> {done.destination}: {done.bytes / 1e6:.1f} MB in {done.seconds:.1f} s, "
        f"as of device call {done.device_calls}"
    )
    return 0


def _describe_installed() -> tuple[list[str], bool]:
    """One line per installed plugin, and whether every one loads. They are loaded together, so what
    one registers through another's hooks (the console's HTTP apps, through the http plugin's) is
    listed; one that cannot load is listed with the reason. Where they cannot load together (two
    register the same name), each is loaded on its own."""
    installed = plugins.installed_plugins()
    if not installed:
        return [f"no plugins installed (entry-point group {plugins.ENTRY_POINT_GROUP!r})"], True
    try:
        registry, loaded = plugins.load(None)
    except plugins.PluginError:
        return _describe_each(installed)
    described = dict(zip(loaded, plugins.describe(registry, loaded), strict=True))
    for name, why in registry.skipped.items():
        info = installed[name]
        described[name] = (
            f"{name:<8} {info.distribution} {info.version}: cannot load: plugin {name!r} failed to import: {why}"
        )
    return [described[name] for name in installed], not registry.skipped


def _describe_each(installed: dict[str, plugins.InstalledPlugin]) -> tuple[list[str], bool]:
    """``_describe_installed`` with each plugin loaded on its own."""
    lines, all_loaded = [], True
    for name, info in installed.items():
        try:
            lines += plugins.describe(*plugins.load([name]))
        except plugins.PluginError as exc:
            lines.append(f"{name:<8} {info.distribution} {info.version}: cannot load: {exc}")
            all_loaded = False
    return lines, all_loaded


def _describe_device(settings: Settings) -> list[str]:
    """One line per provider of kernels on the --device, with the plugins --plugins selects (every
    installed one by default): which implementation each op (and optimizer kind) uses there."""
    registry, _ = plugins.load(settings[PLUGINS])
    device = _device(settings, registry)
    try:
        return [
            f"{'device':<8} {device.backend.name}: {provider} kernels: {', '.join(ops)}"
            for provider, ops in _kernels_by_provider(device).items()
        ] + [f"{'device':<8} {line}" for line in _world(device)]
    finally:
        device.close()


def _world(device: Device) -> list[str]:
    """One line per rank of a device that spans ranks."""
    group = getattr(device, "group", None)
    return [] if group is None else [f"rank {r} of {group.world}: {m}" for r, m in enumerate(group.members)]


def _device(settings: Settings, registry: Registry) -> Device:
    """The device for --device: with --device-world above 1, rank 0 of its group, formed (with ranks
    1..N-1 started here unless --device-rendezvous says the others come from elsewhere)."""
    device_settings.check(settings)
    spec, world = settings[device_settings.DEVICE], settings[device_settings.DEVICE_WORLD]
    assert spec is not None, "called for --device only"
    ranks, local = None, None
    if world > 1:
        if settings[device_settings.DEVICE_RENDEZVOUS] is None:
            local = LocalRanks(settings.every_rank_flags(), world)  # its rendezvous comes once rank 0 listens
        host, port = settings[device_settings.DEVICE_RENDEZVOUS] or ("127.0.0.1", 0)
        ranks = Ranks(
            world, 0, host, port, settings[device_settings.DEVICE_RANK_TIMEOUT], None if local is None else local.start
        )
    return open_device(
        registry,
        spec,
        seed=settings[device_settings.DEVICE_SEED],
        settings=settings,
        limits=device_settings.device_limits(settings),
        budget=device_settings.device_budget(settings),
        ranks=ranks,
        local=local,
    )


def _device_worker(settings: Settings, registry: Registry, rank: int) -> int:
    """``moxzid device-worker RANK``: rank RANK of a device group until rank 0 stops; the exit status."""
    spec, where = settings[device_settings.DEVICE], settings[device_settings.DEVICE_RENDEZVOUS]
    if spec is None or where is None or not 1 <= rank < settings[device_settings.DEVICE_WORLD]:
        raise StartupError(
            f"device-worker {rank}: give --device, --device-world N and --device-rendezvous "
            "HOST:PORT, with 1 <= RANK < N"
        )
    device = open_device(
        registry,
        spec,
        seed=settings[device_settings.DEVICE_SEED],
        settings=settings,
        ranks=Ranks(
            settings[device_settings.DEVICE_WORLD],
            rank,
            where.host,
            where.port,
            settings[device_settings.DEVICE_RANK_TIMEOUT],
        ),
    )
    log.info("device rank %d of %d joined the group at %s", rank, settings[device_settings.DEVICE_WORLD], where)
    assert isinstance(device, ReplicatedDevice), "a rank above 0 of a world above 1 is a replica"
    try:
        device.follow()
        return 0
    except GroupError as error:
        log.error("device rank %d: %s", rank, error)
        return 1
    finally:
        device.close()


def _kernels_by_provider(device: Device) -> dict[str, list[str]]:
    """The ops (and ``optimizer:KIND``) of ``device`` by who provides the kernel it runs: the backend
    family for an op's own kernel, the backend for its optimizers, else the plugin that replaced it."""
    by_provider: dict[str, list[str]] = {}
    for op, provider in sorted(device.providers.items()):
        by_provider.setdefault(provider, []).append(op)
    return by_provider


def _store_opener(settings: Settings, registry: Registry, loaded) -> Callable[[], Store]:
    """What opens the store: a memory store without -s, else the one store a loaded plugin registers,
    on the -s directory."""
    state = settings[STATE]
    if state is None:
        return functools.partial(MemoryStore, read_back=False)  # nothing outlives the process
    if not registry.stores:
        raise StartupError(
            f"-s {state}: no loaded plugin registers a store (loaded: "
            f"{', '.join(loaded) or 'none'}); `moxzid plugins` shows which one does"
        )
    if len(registry.stores) > 1:
        raise StartupError(
            f"-s {state}: several stores are loaded ({', '.join(registry.stores)}); choose one with --plugins"
        )
    return functools.partial(next(iter(registry.stores.values())), state)


def _open_device(settings: Settings, registry: Registry, resources: contextlib.ExitStack) -> Device | None:
    """The device for --device (closed when ``resources`` closes), or None without it."""
    if settings[device_settings.DEVICE] is None:
        device_settings.check(settings)
        return None
    device = _device(settings, registry)
    resources.callback(device.close)
    return device


async def _serve(
    settings: Settings,
    registry: Registry,
    specs,
    store: Store,
    device: Device | None,
    transports: list[Transport],
) -> int:
    """Run the host and the gateways until a stop signal; the exit status."""
    # A signal during start-up is kept and acted on once everything started, so every stop is clean.
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    loop.set_exception_handler(OutOfFiles().handle)
    events = Events()
    log_handler = LogHandler(events)
    logging.getLogger().addHandler(log_handler)
    progress = loop.create_task(log_progress(events))
    try:
        return await _serve_with(settings, registry, specs, store, device, transports, events, stop)
    finally:
        progress.cancel()
        logging.getLogger().removeHandler(log_handler)


async def _serve_with(
    settings: Settings,
    registry: Registry,
    specs,
    store: Store,
    device: Device | None,
    transports: list[Transport],
    events: Events,
    stop: asyncio.Event,
) -> int:
    log.info("state: %s%s", store.description, _store_size(store))
    if device is not None:
        replaced = {
            provider: ops
            for provider, ops in _kernels_by_provider(device).items()
            if provider not in (device.backend.family, device.backend.name)
        }
        log.info(
            "device: %s, %d ops%s",
            device.backend.name,
            len(device.ops),
            "".join(f"; {provider} kernels: {', '.join(ops)}" for provider, ops in replaced.items()),
        )
        for line in _world(device):
            log.info("device %s", line)
    ledger = Ledger(store, choose_prices(registry, settings), settings[billing_settings.CYCLES])
    if ledger.charging:
        log.info(
            "charging cycles: each actor starts with %d; device time costs %d cycles/ms",
            settings[billing_settings.CYCLES],
            ledger.prices.price("device_ms", 1),
        )
    else:
        log.info("not charging cycles")
    if device is not None:
        device.watch(events, {actor_principal(spec.name): spec.name for spec in specs})
    host = Host(
        specs,
        host_config(settings, device_settings.checkpoint_policy(settings)),
        store=store,
        ledger=ledger,
        events=events,
        system_methods=device.system_methods() if device else None,
        system_state=device,
    )
    gateways: list[Gateway] = []
    started: list[Transport] = []
    try:
        # The gateways open first: while the host restores the actors and the device (which can take
        # a while on a large state) a client gets a 503 saying so, not a refused connection. The device's
        # exports are served once its state is back.
        for name, factory in registry.gateways.items():
            gateway = factory(host, settings)
            try:
                await gateway.start()
            except OSError as exc:  # e.g. the listen address is taken
                log.error("gateway %s cannot start: %s", name, exc)
                return 1
            gateways.append(gateway)
        restoring = time.perf_counter()
        try:
            await host.start()
        except Exception as exc:  # an actor that cannot install must say which and why, not crash
            log.error("cannot start the actors: %s", exc)
            return 1
        log.info("actors ready in %.1f s", time.perf_counter() - restoring)
        if device is not None:
            for transport in transports:
                try:
                    prefix = await transport.start(device.exports)
                except OSError as exc:
                    log.error("device exports cannot start: %s", exc)
                    return 1
                started.append(transport)
                if prefix is not None:
                    device.exports.prefix = prefix
                    log.info("device exports at %s/", prefix)
        for name in host.actor_names():
            info = host.info(name)
            log.info(
                "actor %s: principal %s, %s persistence, %d methods",
                name,
                info.principal,
                info.mode,
                len(info.interface.methods),
            )
        if not gateways:
            log.warning("no gateway loaded: nothing serves the actors (is the http plugin installed?)")
        await stop.wait()
        log.info("stopping%s", _store_size(store))
    finally:
        for gateway in reversed(gateways):
            await gateway.stop()
        for transport in reversed(started):
            await transport.stop()
        await host.stop()
    return 0


if __name__ == "__main__":
    main()
