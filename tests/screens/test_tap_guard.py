"""The tap guard's rule, without a browser: what a second tap within half a
second may still do."""

from __future__ import annotations

from screens.ui import SETTLE_S, TRIP_S, TapGuard


def test_a_tap_after_the_half_second_is_taken() -> None:
    guard = TapGuard()
    assert guard.admits(None, 10.0)
    guard.settled(None, 10.0)
    assert guard.admits(None, 10.01 + SETTLE_S + TRIP_S)


def test_a_hurried_second_tap_is_dropped() -> None:
    guard = TapGuard()
    guard.settled(None, 10.0)
    assert not guard.admits(None, 10.35)
    assert not guard.admits(None, 10.8)
    assert not guard.admits("cards-1-None", 10.35)


def test_cards_of_one_round_follow_each_other_quickly() -> None:
    guard = TapGuard()
    guard.settled("cards-1-None", 10.0)
    assert guard.admits("cards-1-None", 10.1)
    # A new round's cards, or any other control, wait their half second.
    assert not guard.admits("cards-9-None", 10.1)
    assert not guard.admits(None, 10.1)
