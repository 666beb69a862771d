"""The ``companion`` command: serve the app, or work with logs from a shell."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TextIO

from companion.errors import LogError
from companion.games import SLUGS
from companion.log import loads
from companion.replay import Replay, replay

EXIT_BAD_INPUT = 2


def _read_source(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def load_and_replay(path: str) -> Replay:
    return replay(loads(_read_source(path)))


def explain(result: Replay, out: TextIO) -> None:
    for step in result.steps:
        event = step.event
        label = event["type"]
        if label == "trick":
            label += " " + " ".join(str(code) for code in event.get("cards", []))
        out.write(f"{step.number}. {label}\n")
        for reason in step.outcome.reasons:
            out.write(f"   {reason.text}\n")
        for warning in step.outcome.warnings:
            out.write(f"   warning: {warning.text}\n")


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        result = load_and_replay(args.file)
    except OSError as error:
        print(f"error: event 0: cannot read {args.file}: {error.strerror}",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    except LogError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.explain:
        explain(result, sys.stdout)
    else:
        print(json.dumps(result.summary(), indent=2, ensure_ascii=False))
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    # Imported here so the other commands do not pay for loading the reference.
    from companion.rules import print_matches

    return print_matches(
        " ".join(args.query), args.lang, args.game, sys.stdout, sys.stderr
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Score keeper for curse-themed trick-taking card games.",
    )
    sub = parser.add_subparsers(dest="command")

    p = sub.add_parser("replay", help="replay a game log and print its summary")
    p.add_argument("file", help="the log's path, or - for standard input")
    p.add_argument(
        "--explain", action="store_true", help="print the reasons event by event"
    )
    p.set_defaults(run=cmd_replay)

    p = sub.add_parser("rules", help="search the rules reference")
    p.add_argument("query", nargs="+", help="words to look for, e.g. second suit")
    p.add_argument("--lang", choices=("en", "ja"), default="en", help="language")
    p.add_argument("--game", choices=SLUGS, help="search one game only (its slug)")
    p.set_defaults(run=cmd_rules)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "run", None) is None:
        parser.print_help()
        return 0
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
