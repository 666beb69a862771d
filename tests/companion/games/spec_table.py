"""Helpers for the table-driven spec audits: replay a hand-written log, compare.

A case names only the parts of the summary it is about (a *fragment*); the
comparison is strict about types, so ``0`` never passes for ``false`` nor a
count for a list.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from companion.errors import LogError
from companion.log import GameLog, loads
from companion.replay import replay


@dataclass(frozen=True)
class Case:
    """One log aimed at one ruling, with what the spec says it must print."""

    id: str
    players: list[str]
    events: list[dict[str, Any]]
    expect: dict[str, Any]
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Refusal:
    """One log the spec says must be refused, at ``event`` (0 = the header).

    ``words`` (one, or several) must all be in the refusal's message;
    ``options`` may be anything, so that a malformed header can be written.
    """

    id: str
    players: list[str]
    events: list[dict[str, Any]]
    event: int
    words: str | tuple[str, ...]
    options: Any = field(default_factory=dict)


# Log builders the suites share.


def round_event(leader: str | None = None, **fields: Any) -> dict[str, Any]:
    """A round start; without a leader when the rules name one."""
    event: dict[str, Any] = {"type": "round"}
    if leader is not None:
        event["leader"] = leader
    return {**event, **fields}


def trick(*cards: str, **fields: Any) -> dict[str, Any]:
    """A trick's cards from the leader round the table, and any choices."""
    return {"type": "trick", "cards": list(cards), **fields}


def make_log(
    game: str,
    players: list[str],
    events: list[dict[str, Any]],
    options: Any = None,
) -> GameLog:
    """The log as ``companion replay`` reads it: through its JSON text."""
    return loads(log_json(game, players, events, options))


def log_json(
    game: str,
    players: list[str],
    events: list[dict[str, Any]],
    options: Any = None,
) -> str:
    """A log as the file would hold it, unchecked, so a bad header can be written."""
    return json.dumps(
        {
            "format": "companion-log/1",
            "game": game,
            "players": players,
            "options": {} if options is None else options,
            "events": events,
        }
    )


def summary_of(game: str, case: Case) -> dict[str, Any]:
    """The summary as printed: through JSON, so only JSON types are compared."""
    log = make_log(game, case.players, case.events, case.options)
    return json.loads(json.dumps(replay(log).summary()))


def assert_fragment(actual: object, expected: object, path: str = "summary") -> None:
    """``expected`` is in ``actual``: dicts by the keys given, all else exactly."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{path}: {actual!r} is not an object"
        for key, value in expected.items():
            assert key in actual, f"{path} has no {key!r}"
            assert_fragment(actual[key], value, f"{path}.{key}")
        return
    assert type(actual) is type(expected), f"{path}: {actual!r} vs {expected!r}"
    assert actual == expected, f"{path}: {actual!r}, expected {expected!r}"


def check_case(game: str, case: Case) -> None:
    summary = summary_of(game, case)
    assert summary["game"] == game
    assert_fragment(summary, case.expect)


def check_refusal(game: str, refusal: Refusal) -> None:
    with pytest.raises(LogError) as caught:
        replay(make_log(game, refusal.players, refusal.events, refusal.options))
    assert caught.value.event == refusal.event, str(caught.value)
    words = (refusal.words,) if isinstance(refusal.words, str) else refusal.words
    for word in words:
        assert word in caught.value.message, str(caught.value)


def ids(cases: list[Case] | list[Refusal]) -> list[str]:
    return [case.id for case in cases]


def contract_tests(
    game: str, cases: list[Case], refusals: list[Refusal]
) -> tuple[Callable[[Case], None], Callable[[Refusal], None]]:
    """A suite's two tests, one run per case; bind them to test_* names."""

    @pytest.mark.parametrize("case", cases, ids=ids(cases))
    def summary_follows_the_contract(case: Case) -> None:
        check_case(game, case)

    @pytest.mark.parametrize("refusal", refusals, ids=ids(refusals))
    def refused_as_the_contract_says(refusal: Refusal) -> None:
        check_refusal(game, refusal)

    return summary_follows_the_contract, refused_as_the_contract_says


COMPANION = Path(__file__).resolve().parents[3] / ".venv" / "bin" / "companion"


def cli_refusal(folder: Path, log: GameLog) -> str:
    """``companion replay`` of a bad log: exit 2, nothing out, one error line."""
    path = folder / "bad.json"
    path.write_text(json.dumps(log.to_dict()))
    done = subprocess.run(
        [str(COMPANION), "replay", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.count("\n") == 1
    return done.stderr
