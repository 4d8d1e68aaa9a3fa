"""The `moxzi` command: build Motoko actors for moxzid, call them, upgrade them (at every save: `moxzi dev`),
print their logs, and move their weights in and out."""

import argparse
import os
import re
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from moxzi_core import __version__
from moxzi_core.backup import print_progress
from moxzi_core.build import COLLECTORS, BuildError, Diagnostic, build
from moxzi_core.client import DEFAULT_URL, CallError, Client
from moxzi_core.dev import Reloader, Watcher, watch
from moxzi_core.signatures import Identity, IdentityError

URL_VARIABLE = "MOXZI_URL"
TOKEN_VARIABLE = "MOXZI_TOKEN"
WHERE = re.compile(r"\b(\d+):(\d+): ")  # a Candid text error's line:column


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="moxzi", description="Build Motoko actors for moxzid, and call them.")
    parser.add_argument("--version", action="version", version=f"moxzi {__version__}")
    commands = parser.add_subparsers(metavar="COMMAND", required=True)

    build_command = commands.add_parser(
        "build",
        help="compile a Motoko actor to NAME.wasm + NAME.did",
        description=(
            "Compile one Motoko actor (a `persistent actor`, with any local files it imports and the "
            "bundled mo:core library) to NAME.wasm and its Candid interface NAME.did. Works offline, with "
            "the compiler moxzi ships; an unchanged build is answered from ~/.cache/moxzi/builds. Warnings "
            "are printed; errors are "
            "printed as FILE:LINE:COL: error [CODE] MESSAGE and exit with status 1."
        ),
    )
    build_command.add_argument("source", metavar="FILE.mo", type=Path, help="the actor's main file")
    build_command.add_argument(
        "--classic",
        action="store_true",
        help="classic persistence: 32-bit memory, upgrades through stable memory "
        "(default: enhanced orthogonal persistence, 64-bit memory kept across upgrades)",
    )
    # moc's flags, by moc's names; the default is moc's: incremental (copying with --classic)
    collectors = build_command.add_mutually_exclusive_group()
    for collector in COLLECTORS:
        collectors.add_argument(
            f"--{collector}-gc",
            dest="gc",
            action="store_const",
            const=collector,
            help=f"use moc's {collector} garbage collector"
            + (" (the default; with --classic the default is copying)" if collector == "incremental" else "")
            + ("" if collector == "incremental" else " (only with --classic)"),
        )
    build_command.add_argument(
        "--force-gc",
        action="store_true",
        help="collect garbage after every update message instead of on the collector's schedule (for "
        "tests: a weak reference dies at the next message)",
    )
    build_command.add_argument(
        "--actor-idl",
        type=Path,
        metavar="DIR",
        help='where `import X "ic:ID"` finds the actor\'s Candid interface, DIR/ID.did',
    )
    build_command.add_argument(
        "--actor-alias",
        nargs=2,
        action="append",
        default=[],
        metavar=("NAME", "ID"),
        help='`import X "canister:NAME"` is the actor ID (its interface from --actor-idl); may be repeated',
    )
    build_command.add_argument(
        "-o",
        "--out-dir",
        type=Path,
        metavar="DIR",
        help="write NAME.wasm and NAME.did to DIR (default: beside FILE.mo)",
    )
    build_command.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="print compiler messages in full (a syntax error lists every alternative the parser expected)",
    )
    build_command.set_defaults(run=_build)

    for kind in ("call", "query"):
        command = commands.add_parser(
            kind,
            help=f"{'call' if kind == 'call' else 'query'} an actor's method with Candid text, as dfx canister call",
            description=(
                f"Run METHOD of ACTOR on a running moxzid as {'an update' if kind == 'call' else 'a query'} "
                "call. ARGS and the reply are Candid textual values, as `dfx canister call` takes and "
                "prints them, e.g. moxzi call letters learn '(200)'. Arguments that do not match the "
                "method's type are shown with the offending column. Exit status: 0 when the call replied, "
                "1 when it was rejected or moxzid did not answer, 2 for bad arguments, an unknown actor "
                "or method."
            ),
        )
        _add_url(command)
        command.add_argument("actor", metavar="ACTOR")
        command.add_argument("method", metavar="METHOD")
        command.add_argument(
            "args",
            metavar="(ARGS)",
            nargs="?",
            default="()",
            help="the arguments in Candid text, e.g. '(42, \"x\")' (default: none)",
        )
        command.set_defaults(run=_call, query=kind == "query")

    _add_upgrade_command(commands)
    _add_dev_command(commands)
    _add_weights_commands(commands)
    _add_logs_command(commands)
    _add_backup_command(commands)
    args = parser.parse_args(argv)
    return args.run(args)


def _add_upgrade_command(commands) -> None:
    upgrade = commands.add_parser(
        "upgrade",
        help="replace a running actor's code with a built module, keeping its state",
        description=(
            "Upgrade ACTOR on a running moxzid to MODULE.wasm (from `moxzi build`), keeping its state: "
            "moxzid checks the module's interface and stable variables first and refuses an upgrade "
            "that would lose state, leaving the old code. Only the actor's controllers or moxzid's "
            "admin token may: a controller signs the request with --identity (the PEM of an icp-cli or "
            "dfx identity); off a loopback address anyone else needs --token. Exit status: 0 when "
            "upgraded, 1 when refused or moxzid did not answer, 2 for a missing module or a bad key."
        ),
    )
    upgrade.add_argument("actor", metavar="ACTOR")
    upgrade.add_argument("wasm", type=Path, metavar="MODULE.wasm")
    upgrade.set_defaults(run=_upgrade)
    _add_access_options(upgrade)


def _add_dev_command(commands) -> None:
    dev = commands.add_parser(
        "dev",
        help="upgrade a running actor at every save of its sources, keeping its state",
        description=(
            "Build FILE.mo (NAME.wasm + NAME.did beside it, as moxzi build) and upgrade actor NAME on a "
            "running moxzid to it, then watch the .mo files of the entry's directory and of its local "
            "packages (a mops.toml's), the mops.toml, and every local file the build read: once a burst "
            "of saves is over (0.3 s without one), build again and upgrade, keeping the actor's state "
            "(every `let` and `var` of a `persistent actor` but the `transient` ones). One line per "
            "change: built in N s, upgraded; or refused: the compiler's errors, or moxzid's reason for "
            "refusing the upgrade (an incompatible stable variable is named), the actor keeping its old "
            "code and state. A build that gives the module already running is not sent. The actor must "
            "be running already (from moxzid's manifest, or icp deploy). It is upgraded as moxzi upgrade "
            "does: signed by a controller with --identity, or with the admin token. Ctrl-C stops. Exit "
            "status: 0 when stopped, 1 when moxzid did not take the first upgrade (no such actor, no "
            "right to upgrade it, not answering), 2 for a missing file or a bad key."
        ),
    )
    dev.add_argument("source", metavar="FILE.mo", type=Path, help="the actor's main file")
    dev.add_argument("--name", help="the actor's name on moxzid (default: FILE's name without .mo)")
    dev.add_argument(
        "--classic",
        action="store_true",
        help="build with classic persistence, as the running actor was (see moxzi build --help)",
    )
    dev.set_defaults(run=_dev)
    _add_access_options(dev)


def _add_weights_commands(commands) -> None:
    weights = commands.add_parser(
        "weights",
        help="an actor's parameters out of moxzid and in, as a safetensors file",
        description=(
            "Export an actor's parameters (with --publications, its publications too) from moxzid's device "
            "as a safetensors file, or import one: existing parameters are set (a shape that differs is "
            "an error naming the tensor, and nothing changes), missing ones created, and the optimizer "
            "state of each one set starts over. The import is recorded as the actor's device calls are. "
            "Only the actor's controllers or moxzid's admin token may do either: a controller signs each "
            "request with --identity (the PEM of an icp-cli or dfx identity); off a loopback address "
            "anyone else needs --token."
        ),
    )
    actions = weights.add_subparsers(metavar="ACTION", required=True)
    export = actions.add_parser("export", help="write ACTOR's parameters to a safetensors file")
    export.add_argument("actor", metavar="ACTOR")
    export.add_argument("-o", "--out", type=Path, required=True, metavar="FILE.safetensors")
    export.add_argument("--prefix", default="", help="only the parameters named PREFIX..., written without it")
    export.add_argument("--publications", action="store_true", help="the actor's publications as well")
    export.set_defaults(run=_export_weights)
    load = actions.add_parser("import", help="set ACTOR's parameters from a safetensors file")
    load.add_argument("actor", metavar="ACTOR")
    load.add_argument("file", type=Path, metavar="FILE.safetensors")
    load.add_argument("--prefix", default="", help="import each tensor NAME as parameter PREFIX + NAME")
    load.set_defaults(run=_import_weights)
    for command in (export, load):
        _add_access_options(command)


def _add_logs_command(commands) -> None:
    logs = commands.add_parser(
        "logs",
        help="print what an actor printed (Debug.print) and how it trapped, as icp canister logs",
        description=(
            "Print ACTOR's log on a running moxzid, a line per record: [INDEX. TIME]: CONTENT, its "
            "Debug.print lines and its traps ([TRAP]: ...) in updates, timers and installs (not in "
            "queries), the most recent 4 KiB, as the IC keeps them (fetch_canister_logs). The actor's "
            "log_visibility says who may read it: its controllers by default, who sign the request "
            "with --identity; with --token, or on a loopback address, every log. Exit status: 0, 1 "
            "when refused or moxzid did not answer, 2 for a bad key."
        ),
    )
    logs.add_argument("actor", metavar="ACTOR")
    logs.add_argument("-f", "--follow", action="store_true", help="keep printing new records until interrupted")
    logs.add_argument(
        "--interval", type=float, default=1.0, metavar="SECONDS", help="how often --follow asks (default 1)"
    )
    logs.set_defaults(run=_logs)
    _add_access_options(logs)


def _add_backup_command(commands) -> None:
    command = commands.add_parser(
        "backup",
        help="copy a running moxzid's state directory into DEST, without stopping it",
        description=(
            "Ask the running moxzid for a copy of its state directory (-s DIR) as of one moment: its "
            "store (every actor, the device's copy and record) and the keys beside it, private as they "
            "are there. DEST is a path on moxzid's machine, new or an empty directory. moxzid goes on "
            "serving meanwhile. Restoring is starting moxzid with -s DEST. An admin route: moxzid's admin "
            "token, unless it listens on loopback. Offline, `moxzid backup -s DIR DEST` does the same."
        ),
    )
    _add_url(command)
    _add_token(command)
    command.add_argument("destination", metavar="DEST", type=Path)
    command.set_defaults(run=_backup)


def _add_url(command) -> None:
    """--url: the moxzid a command talks to."""
    command.add_argument(
        "--url",
        default=os.environ.get(URL_VARIABLE, DEFAULT_URL),
        help=f"moxzid's HTTP gateway (default ${URL_VARIABLE}, else {DEFAULT_URL})",
    )


def _add_token(command) -> None:
    """--token: moxzid's admin token, for its admin routes."""
    command.add_argument(
        "--token",
        default=os.environ.get(TOKEN_VARIABLE),
        help=f"moxzid's admin token (default ${TOKEN_VARIABLE}; in STATE_DIR/admin-token)",
    )


def _add_access_options(command) -> None:
    """--url, and --token or --identity: how a command that uses a controller's or the admin's route
    reaches moxzid and says who it is."""
    _add_url(command)
    who = command.add_mutually_exclusive_group()
    _add_token(who)
    who.add_argument(
        "--identity",
        type=Path,
        metavar="PEM_FILE",
        help=(
            "sign the request with this key, one of the actor's controllers: an Ed25519 or secp256k1 "
            "PEM as icp-cli and dfx write them (`icp identity export NAME > key.pem`; - reads it "
            "from stdin)"
        ),
    )


def _build(args: argparse.Namespace) -> int:
    try:
        result = build(
            args.source,
            classic=args.classic,
            out_dir=args.out_dir,
            gc=args.gc,
            force_gc=args.force_gc,
            actor_idl=args.actor_idl,
            actor_aliases=args.actor_alias,
        )
    except BuildError as error:
        if error.diagnostics:
            _print_diagnostics(error.diagnostics, args.verbose)
        else:
            print(f"moxzi build: {error}", file=sys.stderr)
        return 1
    _print_diagnostics(result.diagnostics, args.verbose)
    for note in result.notes:
        print(f"note: {note}", file=sys.stderr)
    print(
        f"{args.source} -> {result.wasm_path} + {result.did_path} "
        f"({result.wasm_size} bytes, {result.file_count} file(s), {result.seconds:.2f}s"
        f"{', cached' if result.cached else ''})"
    )
    print(f"compiled by {result.compiler}, moxzi {__version__}")
    return 0


def _call(args: argparse.Namespace) -> int:
    client = Client(args.url)
    send = client.query_text if args.query else client.call_text
    try:
        print(send(args.actor, args.method, args.args))
    except CallError as error:
        print(f"moxzi {'query' if args.query else 'call'}: {error}", file=sys.stderr)
        where = WHERE.search(str(error)) if error.status == 400 else None
        if where is not None:  # show the offending token under its line of the arguments
            line, column = int(where.group(1)), int(where.group(2))
            lines = args.args.splitlines() or [""]
            if 1 <= line <= len(lines):
                print(f"  {lines[line - 1]}\n  {' ' * (column - 1)}^", file=sys.stderr)
        return 2 if error.status in (400, 404) and error.reject_code is None else 1
    return 0


def _access_client(args: argparse.Namespace) -> Client:
    """The client a command with _add_access_options uses: signing with ``--identity``, else with the
    admin token. Raises IdentityError for a key that cannot be read."""
    if args.identity is None:
        return Client(args.url, token=args.token)
    where = "stdin" if str(args.identity) == "-" else str(args.identity)
    try:
        pem = sys.stdin.buffer.read() if where == "stdin" else args.identity.read_bytes()
        return Client(args.url, identity=Identity.from_pem(pem))
    except (OSError, IdentityError) as error:
        raise IdentityError(f"--identity {where}: {getattr(error, 'strerror', None) or error}") from None


def _upgrade(args: argparse.Namespace) -> int:
    if not args.wasm.is_file():
        print(f"moxzi upgrade: {args.wasm}: no such file", file=sys.stderr)
        return 2
    return _with_access("moxzi upgrade", args, lambda client: f"{args.actor}: {client.upgrade(args.actor, args.wasm)}")


def _dev(args: argparse.Namespace) -> int:
    if not args.source.is_file():
        print(f"moxzi dev: {args.source}: no such file", file=sys.stderr)
        return 2
    name = args.name or args.source.stem

    def develop(client: Client) -> str:
        watcher = Watcher(args.source)
        where = ", ".join(os.path.relpath(root) for root in watcher.roots())
        print(f"{args.source} -> {name} on {args.url}; watching {where} (Ctrl-C stops)", flush=True)
        try:
            watch(
                Reloader(args.source, name, client, classic=args.classic), watcher, lambda line: print(line, flush=True)
            )
        except KeyboardInterrupt:
            pass
        return ""

    return _with_access("moxzi dev", args, develop)


def _export_weights(args: argparse.Namespace) -> int:
    def export(client: Client) -> str:
        size = client.export_weights(args.actor, args.out, prefix=args.prefix, publications=args.publications)
        return f"{args.actor} -> {args.out} ({size} bytes)"

    return _with_access("moxzi weights export", args, export, failed=lambda: args.out.unlink(missing_ok=True))


def _import_weights(args: argparse.Namespace) -> int:
    if not args.file.is_file():
        print(f"moxzi weights import: {args.file}: no such file", file=sys.stderr)
        return 2

    def import_(client: Client) -> str:
        names = client.import_weights(args.actor, args.file, prefix=args.prefix)
        return f"{args.file} -> {args.actor}: {len(names)} parameter(s) set"

    return _with_access("moxzi weights import", args, import_)


def _logs(args: argparse.Namespace) -> int:
    def show(client: Client) -> str:
        since = 0
        while True:
            for record in client.logs(args.actor, since):
                stamp = datetime.fromtimestamp(record["timestamp_nanos"] / 1e9, UTC).isoformat(timespec="microseconds")
                print(f"[{record['idx']}. {stamp}]: {record['content']}", flush=True)
                since = record["idx"] + 1
            if not args.follow:
                return ""
            time.sleep(args.interval)

    try:
        return _with_access("moxzi logs", args, show)
    except KeyboardInterrupt:  # how --follow ends
        return 0


def _with_access(
    command: str, args: argparse.Namespace, act: Callable[[Client], str], failed: Callable[[], None] = lambda: None
) -> int:
    """``act`` with the client ``args`` give (token or identity), its line (if any) printed: 0; an
    identity that cannot be read: 2; a refused call (``failed`` runs first): 1."""
    try:
        line = act(_access_client(args))
    except IdentityError as error:
        print(f"{command}: {error}", file=sys.stderr)
        return 2
    except CallError as error:
        failed()
        print(f"{command}: {error}", file=sys.stderr)
        return 1
    if line:
        print(line)
    return 0


def _backup(args: argparse.Namespace) -> int:
    try:
        done = Client(args.url, token=args.token).backup(args.destination, print_progress)
    except CallError as error:
        print(f"moxzi backup: {error}", file=sys.stderr)
        return 1
    where = f"{done['destination']}: {done['bytes'] / 1e6:.1f} MB in {done['seconds']:.1f} s"
    print(f"{where} ({', '.join(done['files'])}), as of device call {done['device_calls']}")
    return 0


def _print_diagnostics(diagnostics: tuple[Diagnostic, ...], verbose: bool) -> None:
    """Each diagnostic on stderr, then each distinct hint once (a plain actor has one per declaration)."""
    for diagnostic in diagnostics:
        print(diagnostic if verbose else diagnostic.brief(), file=sys.stderr)
    for hint in dict.fromkeys(d.hint for d in diagnostics if d.hint):
        print(f"hint: {hint}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
