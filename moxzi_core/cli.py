"""The `moxzi` command: build Motoko actors for moxzid."""

import argparse
import sys
from pathlib import Path

from moxzi_core import __version__
from moxzi_core.build import SETUP_COMMAND, BuildError, Diagnostic, build


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="moxzi", description="Build Motoko actors for moxzid.")
    parser.add_argument("--version", action="version", version=f"moxzi {__version__}")
    commands = parser.add_subparsers(metavar="COMMAND", required=True)

    build_command = commands.add_parser(
        "build",
        help="compile a Motoko actor to NAME.wasm + NAME.did",
        description=(
            "Compile one Motoko actor (a `persistent actor`, with any local files it imports and the "
            "bundled mo:core library) to NAME.wasm and its Candid interface NAME.did. Works offline; "
            f"the compiler is set up once with `{SETUP_COMMAND}`. Warnings are printed; errors are "
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
    build_command.add_argument(
        "-o", "--out-dir", type=Path, metavar="DIR", help="write NAME.wasm and NAME.did to DIR (default: beside FILE.mo)"
    )
    build_command.add_argument(
        "-v", "--verbose", action="store_true",
        help="print compiler messages in full (a syntax error lists every alternative the parser expected)",
    )
    build_command.set_defaults(run=_build)

    args = parser.parse_args(argv)
    return args.run(args)


def _build(args: argparse.Namespace) -> int:
    try:
        result = build(args.source, classic=args.classic, out_dir=args.out_dir)
    except BuildError as error:
        if error.diagnostics:
            _print_diagnostics(error.diagnostics, args.verbose)
        else:
            print(f"moxzi build: {error}", file=sys.stderr)
        return 1
    _print_diagnostics(result.diagnostics, args.verbose)
    print(
        f"{args.source} -> {result.wasm_path} + {result.did_path} "
        f"({result.wasm_size} bytes, {result.file_count} file(s), {result.seconds:.2f}s)"
    )
    print(f"compiled by {result.compiler}, moxzi {__version__}")
    return 0


def _print_diagnostics(diagnostics: tuple[Diagnostic, ...], verbose: bool) -> None:
    """Each diagnostic on stderr, then each distinct hint once (a plain actor has one per declaration)."""
    for diagnostic in diagnostics:
        print(diagnostic if verbose else diagnostic.brief(), file=sys.stderr)
    for hint in dict.fromkeys(d.hint for d in diagnostics if d.hint):
        print(f"hint: {hint}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
