"""The ``companion`` command: serve the app, or work with logs from a shell."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from companion.errors import LogError, StoreError, one_line
from companion.log import MAX_LOG_BYTES
from companion.rules import slugs

if TYPE_CHECKING:
    from companion.replay import Replay
    from companion.store import Store

EXIT_BAD_INPUT = 2
LOCAL_ONLY = "127.0.0.1"


def _read_source(path: str) -> str:
    # One character past the limit is enough for loads() to refuse the rest.
    if path == "-":
        return sys.stdin.read(MAX_LOG_BYTES + 1)
    with open(path, encoding="utf-8") as handle:
        return handle.read(MAX_LOG_BYTES + 1)


def load_and_replay(path: str) -> Replay:
    from companion.log import loads
    from companion.replay import replay

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


def replay_or_say_why(path: str) -> Replay | None:
    """The replayed log, or None after one line on standard error saying why not."""
    try:
        return load_and_replay(path)
    except OSError as error:
        problem = f"event 0: cannot read {path}: {error.strerror}"
    except UnicodeDecodeError:
        problem = f"event 0: {path} is not a text file (UTF-8)"
    except LogError as error:
        problem = str(error)
    say_error(problem)
    return None


def say_error(problem: object) -> None:
    print(f"error: {one_line(str(problem))}", file=sys.stderr)


def cmd_replay(args: argparse.Namespace) -> int:
    result = replay_or_say_why(args.file)
    if result is None:
        return EXIT_BAD_INPUT
    if args.explain:
        explain(result, sys.stdout)
    else:
        print(json.dumps(result.summary(), indent=2, ensure_ascii=False))
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """With no subcommand: serve the table app (Flet is imported only here).

    One server per data folder: a second one says which process serves it and
    exits 2, before it loads anything.
    """
    from companion.paths import data_dir
    from companion.server_lock import FolderInUse, serving

    host = args.host
    if host is None:
        # Shared, every interface answers so devices on the network reach it.
        host = "0.0.0.0" if args.lan else LOCAL_ONLY
    try:
        with serving(data_dir(args.data)):
            from screens.served import serve

            serve(
                host=host,
                port=args.port,
                data=args.data,
                desktop=args.desktop,
                lan=args.lan,
            )
    except FolderInUse as error:
        say_error(error)
        return EXIT_BAD_INPUT
    return 0


def open_store(args: argparse.Namespace) -> Store:
    # Imported here so ``companion rules`` starts without the store.
    from companion.paths import data_dir
    from companion.store import Store

    store = Store(data_dir(getattr(args, "data", None)))
    for warning in store.warnings():
        print(f"warning: {one_line(warning)}", file=sys.stderr)
    return store


def cmd_games(args: argparse.Namespace) -> int:
    try:
        games = open_store(args).list_games(include_deleted=args.all)
    except StoreError as error:
        say_error(error)
        return EXIT_BAD_INPUT
    for info in games:
        # A tab or a newline in a name must not forge a column or a line.
        players = ", ".join(one_line(name) for name in info.players)
        print(f"{info.id}\t{info.game}\t{players}\t{info.started}\t{info.state}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    try:
        store = open_store(args)
        if args.csv:
            from companion.export import write_csv

            write_csv(store.load(args.id).log, sys.stdout, args.lang)
        else:
            from companion.log import dumps

            print(dumps(store.load(args.id).log))
    except (StoreError, LogError) as error:
        say_error(error)
        return EXIT_BAD_INPUT
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    # The file is checked before the store is even opened: a bad one changes
    # nothing at all.
    result = replay_or_say_why(args.file)
    if result is None:
        return EXIT_BAD_INPUT
    try:
        game_id = open_store(args).import_log(result.log)
    except (StoreError, LogError) as error:
        say_error(error)
        return EXIT_BAD_INPUT
    print(game_id)
    return 0


def add_data_option(parser: argparse.ArgumentParser, default: object) -> None:
    parser.add_argument(
        "--data",
        metavar="DIR",
        default=default,
        help="the folder with the saved games (default: $COMPANION_DATA, "
        "then the app's usual data folder)",
    )


def cmd_rules(args: argparse.Namespace) -> int:
    # Imported here so the other commands do not pay for loading the reference.
    from companion.rules import print_matches

    return print_matches(
        " ".join(args.query),
        args.lang,
        args.game,
        sys.stdout,
        sys.stderr,
        as_json=args.json,
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Score keeper for curse-themed trick-taking card games.",
    )
    parser.add_argument(
        "--host",
        default=None,
        help=f"address to serve the app on (default {LOCAL_ONLY}; 0.0.0.0 with --lan)",
    )
    parser.add_argument("--port", type=int, default=8550, help="port to serve on")
    parser.add_argument(
        "--lan",
        action="store_true",
        help="share the table on the local network, behind a table code",
    )
    parser.add_argument(
        "--desktop", action="store_true", help="open the desktop window instead"
    )
    add_data_option(parser, None)
    parser.set_defaults(run=cmd_serve)
    sub = parser.add_subparsers(dest="command")

    p = sub.add_parser("replay", help="replay a game log and print its summary")
    p.add_argument("file", help="the log's path, or - for standard input")
    p.add_argument(
        "--explain", action="store_true", help="print the reasons event by event"
    )
    p.set_defaults(run=cmd_replay)

    # The store commands also take --data after their name; SUPPRESS keeps an
    # absent one from hiding the global option.
    p = sub.add_parser("games", help="list the saved games")
    p.add_argument("--all", action="store_true", help="include deleted games")
    add_data_option(p, argparse.SUPPRESS)
    p.set_defaults(run=cmd_games)

    p = sub.add_parser("export", help="print a saved game's log")
    p.add_argument("id", help="the game's id (see: companion games)")
    p.add_argument(
        "--csv",
        action="store_true",
        help="print the game as CSV instead: its rounds, piles or spells, "
        "with each player's figures",
    )
    p.add_argument(
        "--lang",
        choices=("en", "ja"),
        default="en",
        help="the language of the CSV's headings",
    )
    add_data_option(p, argparse.SUPPRESS)
    p.set_defaults(run=cmd_export)

    p = sub.add_parser("import", help="save a game log (checked by replaying it)")
    p.add_argument("file", help="the log's path, or - for standard input")
    add_data_option(p, argparse.SUPPRESS)
    p.set_defaults(run=cmd_import)

    p = sub.add_parser("rules", help="search the rules reference")
    p.add_argument("query", nargs="+", help="words to look for, e.g. second suit")
    p.add_argument("--lang", choices=("en", "ja"), default="en", help="language")
    p.add_argument("--game", choices=slugs(), help="search one game only (its slug)")
    p.add_argument(
        "--json", action="store_true", help="print the matches as a JSON list"
    )
    p.set_defaults(run=cmd_rules)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "run", None) is None:
        parser.print_help()
        return 0
    try:
        return args.run(args)
    except BrokenPipeError:
        # The reader went away (``companion replay --explain x | head``): not
        # an error of ours. Point stdout at nothing so the exit flush is quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
