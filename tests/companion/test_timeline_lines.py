"""The history's story: tricks numbered within their round, each naming whom it
took or hurt; piles counted in order."""

from __future__ import annotations

from pathlib import Path

from companion.log import loads
from companion.replay import replay
from companion.timeline import lines

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def story(name: str) -> list:
    return lines(replay(loads((EXAMPLES / name).read_text(encoding="utf-8"))).steps)


def test_tricks_restart_at_one_each_round_and_name_their_winner() -> None:
    told = story("cursed-tricks.json")
    tricks = [line.mark for line in told if line.mark.trick is not None]
    assert all(mark.winner for mark in tricks)
    for before, after in zip(tricks, tricks[1:], strict=False):
        if after.round == before.round:
            assert after.trick == before.trick + 1
        else:
            assert after.trick == 1


def test_a_trick_nobody_takes_names_who_it_cursed_and_damaged() -> None:
    told = story("trick-runaway.json")
    tricks = [line for line in told if line.mark.trick is not None]
    assert all(line.mark.winner is None for line in tricks)
    assert all(line.cursed for line in tricks)
    assert any(line.damaged for line in tricks)


def test_piles_are_counted_in_order() -> None:
    told = story("wolf-x-trick-piles.json")
    piles = [line.pile for line in told if line.pile is not None]
    assert piles == list(range(1, len(piles) + 1))
