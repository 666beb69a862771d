"""The tap guard's rule, without a browser: what a second tap within half a
second may still do."""

from __future__ import annotations

from screens.ui import (
    FROM_ELSEWHERE,
    NEW_S,
    SETTLE_S,
    TRIP_S,
    TapGuard,
    drawn_from_elsewhere,
)

OLD = 1.0  # a control drawn before the taps below


def test_a_tap_after_the_half_second_is_taken() -> None:
    guard = TapGuard()
    assert guard.admits(None, OLD, 10.0)
    # The first tap on a screen just opened: no tap came before it.
    assert guard.admits(None, 9.99, 10.0)
    guard.settled(None, 10.0, 10.0)
    assert guard.admits(None, OLD, 10.01 + SETTLE_S + TRIP_S)


def test_a_hurried_second_tap_is_dropped() -> None:
    guard = TapGuard()
    guard.settled(None, 9.9, 10.0)
    assert not guard.admits(None, OLD, 10.35)
    assert not guard.admits(None, OLD, 10.8)
    assert not guard.admits("cards-1-None", OLD, 10.35)


def test_a_control_the_last_tap_drew_waits_longer() -> None:
    guard = TapGuard()
    guard.settled(None, 9.9, 10.0)
    drawn = 9.95
    assert not guard.admits(None, drawn, 10.0 + SETTLE_S + TRIP_S + 0.1)
    assert guard.admits(None, drawn, 10.01 + NEW_S)
    # A screen drawn after its tap's handler returned counts from then.
    late = 10.5
    assert not guard.admits(None, late, 10.01 + NEW_S)
    assert guard.admits(None, late, late + NEW_S + 0.01)


def test_cards_of_one_round_follow_each_other_quickly() -> None:
    guard = TapGuard()
    guard.settled("cards-1-None", 9.9, 10.0)
    assert guard.admits("cards-1-None", OLD, 10.1)
    # A card of the round drawn anew is still that card in that cell.
    assert guard.admits("cards-1-None", 9.95, 10.1)
    # A new round's cards, or any other control, wait.
    assert not guard.admits("cards-9-None", OLD, 10.1)
    assert not guard.admits("cards-9-None", 9.95, 10.1)
    assert not guard.admits(None, OLD, 10.1)


def test_a_second_tap_on_the_same_card_is_dropped() -> None:
    # Its first tap may have been refused (another phone filled the seat):
    # the second must not go on to the next seat.
    guard = TapGuard()
    guard.settled("cards-1-None", 9.9, 10.0, "card-F3")
    assert not guard.admits("cards-1-None", OLD, 10.1, "card-F3")
    assert not guard.admits("cards-1-None", 9.95, 10.1, "card-F3")
    assert guard.admits("cards-1-None", OLD, 10.1, "card-W2")
    assert guard.admits("cards-1-None", OLD, 10.01 + SETTLE_S + TRIP_S, "card-F3")


def test_a_control_redrawn_for_another_device_is_no_second_tap() -> None:
    guard = TapGuard()
    guard.settled(None, 9.9, 10.0)
    # Built during a redraw for another device's change: no build time.
    with drawn_from_elsewhere():
        assert FROM_ELSEWHERE.get()
    assert guard.admits(None, float("-inf"), 10.01 + SETTLE_S + TRIP_S)
    assert not guard.admits(None, 10.5, 10.01 + SETTLE_S + TRIP_S)
