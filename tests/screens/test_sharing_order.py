"""Two phones on one game: every tap is applied in one order, or refused aloud.

Two browsers, both let in with the table code, open the same game on one
``--lan`` server and tap at the same moment (two clicks sent back to back).
Whichever the server takes second either still means what its phone showed
and stands, or is refused on that phone in words, and both phones then show
the table as stored. A phone that showed the other's change just before its
tap (the server was quick) may have been aimed at either table: its tap
stands only if it means the same on both.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from companion.log import loads
from tests.screens.conftest import ROOT
from tests.screens.test_sharing import Device, SharedServer, device

pytestmark = pytest.mark.browser

BLACK_HEARTS = loads((ROOT / "examples" / "black-hearts.json").read_text())
FIRST = BLACK_HEARTS.events[1]["cards"]  # Ann, Ben, Cy, Dee: F2 C2 W4 C5
SECOND = BLACK_HEARTS.events[2]["cards"]  # Ben, Cy, Dee, Ann: W2 F6 W4 F1
ANOTHER = {"Ben": "F3", "Dee": "F1"}  # a card nobody tapped yet, for that seat
ROUND_ENDS = 6  # the first round's five tricks are in; the second starts next


@pytest.fixture(scope="module")
def lan(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SharedServer]:
    running = SharedServer(tmp_path_factory.mktemp("two-phones"))
    running.start()
    yield running
    running.stop()


def two_phones(browser: Any, lan: SharedServer, events: int) -> tuple[Device, ...]:
    """A stored game of Black Hearts open on two phones, each let in by the code."""
    lan.store().import_log(BLACK_HEARTS.with_events(BLACK_HEARTS.events[:events]))
    phones = []
    for _ in range(2):
        phone = device(browser, lan)
        phone.join(lan.code)
        phone.tap("resume")
        phone.wait("undo")
        phones.append(phone)
    return tuple(phones)


def at_once(*taps: tuple[Device, str]) -> None:
    """Click each node on its phone back to back, none waiting for an answer."""
    points = []
    # Each player waits for their screen to settle before tapping, as a
    # player does: the tap guard drops a tap on what the last answer drew.
    for phone in {id(phone): phone for phone, _ in taps}.values():
        phone.pace()
    for phone, identifier in taps:
        node = (
            phone.card(identifier[5:])
            if identifier.startswith("card-")
            else (phone.wait(identifier))
        )
        node.wait_for(state="attached", timeout=15_000)
        node.scroll_into_view_if_needed()
        phone.settle(node)
        box = node.bounding_box()
        assert box is not None, identifier
        points.append(
            (phone, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        )
    for phone, x, y in points:
        phone.page.mouse.click(x, y)


def agreed(phones: tuple[Device, ...], *identifiers: str) -> str:
    """What every phone shows once they all show the same, for a few moments."""
    deadline = time.monotonic() + 15
    last, steady = None, 0
    while time.monotonic() < deadline:
        shown = {phone.read(*identifiers) for phone in phones}
        if len(shown) == 1 and shown == {last}:
            steady += 1
            if steady >= 10:  # the same for half a second: nothing is on its way
                return str(last)
        else:
            steady = 0
        last = next(iter(shown)) if len(shown) == 1 else None
        time.sleep(0.05)
    raise AssertionError(f"the phones did not agree: {shown}")


def kept_taps(lan: SharedServer, game_id: str) -> list[str | None]:
    kept = lan.store().get_setting(f"trick-in-progress:{game_id}")
    events = len(lan.store().load(game_id).log.events)
    if not isinstance(kept, dict) or kept.get("events") != events:
        return [None] * 4
    return list(kept["cards"])


def error(phone: Device) -> str:
    return phone.read("error")


def newest(lan: SharedServer) -> str:
    return lan.store().unfinished()[0].id


def close(*phones: Device) -> None:
    for phone in phones:
        phone.page.context.close()


def test_simultaneous_first_cards(browser: Any, lan: SharedServer) -> None:
    # The round's second trick, which Ben may lead with any card.
    one, two = two_phones(browser, lan, events=2)
    game_id = newest(lan)
    # The second phone's player taps twice on the same spot, as a thumb may.
    mine, theirs = f"card-{SECOND[0]}", f"card-{ANOTHER['Ben']}"
    at_once((one, mine), (two, theirs), (two, theirs))
    agreed((one, two), "trick-so-far", "next-player")
    taps = kept_taps(lan, game_id)
    # Every tap was for Ben's seat: one card stands there, the other is
    # refused on its phone (both times), never moved to Cy's seat.
    assert taps[0] in (SECOND[0], ANOTHER["Ben"]) and taps[1:] == [None] * 3, taps
    winner, loser = (one, two) if taps[0] == SECOND[0] else (two, one)
    assert "Ben's card was already entered on the other phone" in error(loser)
    assert error(winner) == ""
    loser.shot("two-phones-refused-tap")
    close(one, two)


def test_simultaneous_last_cards(browser: Any, lan: SharedServer) -> None:
    one, two = two_phones(browser, lan, events=1)
    game_id = newest(lan)
    for code in FIRST[:-1]:
        one.tap_card(code)
    agreed((one, two), "trick-so-far")
    at_once((one, f"card-{FIRST[-1]}"), (two, f"card-{ANOTHER['Dee']}"))
    agreed((one, two), "trick-so-far", "reasons")
    events = lan.store().load(game_id).log.events
    # One trick is recorded with one of the two cards; the other card is not
    # carried into the next trick.
    assert len(events) == 2
    assert events[1]["cards"][:3] == FIRST[:3]
    assert events[1]["cards"][3] in (FIRST[-1], ANOTHER["Dee"])
    assert kept_taps(lan, game_id) == [None] * 4
    winner, loser = (one, two) if events[1]["cards"][3] == FIRST[-1] else (two, one)
    assert "Dee's card was already entered on the other phone" in error(loser)
    assert error(winner) == ""
    close(one, two)


def test_undo_on_one_phone_while_the_other_taps(
    browser: Any, lan: SharedServer
) -> None:
    one, two = two_phones(browser, lan, events=1)
    game_id = newest(lan)
    for code in FIRST[:2]:
        one.tap_card(code)
    agreed((one, two), "trick-so-far")
    at_once((one, "undo"), (two, f"card-{FIRST[2]}"))
    agreed((one, two), "trick-so-far")
    taps = kept_taps(lan, game_id)
    if taps == [FIRST[0], None, FIRST[2], None]:
        # The undo came first and took back Ben's card; Cy's card was still
        # for an empty seat of the same trick, so both stand.
        assert error(two) == ""
    elif taps == [FIRST[0], None, None, None]:
        # The undo came first and reached the second phone just before its
        # tap: the card was for Cy's seat before it and Ben's after, so it
        # is refused there in words rather than put in either.
        assert "The other phone changed the table first" in error(two)
        assert error(one) == ""
    else:
        # The tap came first: the undo would have taken back another card.
        assert taps == [*FIRST[:3], None], taps
        assert "Not undone" in error(one)
    # Undo is the table's: the other phone takes back the last card, whoever
    # tapped it, and both phones show it.
    before = kept_taps(lan, game_id)
    two.tap("undo")
    agreed((one, two), "trick-so-far")
    one.wait_until(lambda: "Undo on the other phone" in error(one))
    last = max(at for at, card in enumerate(before) if card is not None)
    assert kept_taps(lan, game_id) == [
        None if at == last else card for at, card in enumerate(before)
    ]
    close(one, two)


def test_an_edit_on_one_phone_while_the_other_taps(
    browser: Any, lan: SharedServer
) -> None:
    one, two = two_phones(browser, lan, events=2)
    game_id = newest(lan)
    second = BLACK_HEARTS.events[2]["cards"]
    at_once((one, "edit-2"), (two, f"card-{second[0]}"))
    agreed((one, two), "trick-so-far")
    assert one.read("edit-banner")
    assert lan.store().load(game_id).log.events == BLACK_HEARTS.events[:2]
    taps = kept_taps(lan, game_id)
    if taps[0] is None:
        # The edit came first: the tap, meant for the next trick, is refused,
        # or (the card redrawn for the edit under the finger) ignored by the
        # tap guard; either way nothing is recorded and the phone shows the edit.
        said = error(two)
        if said:
            assert "is entering" in said and "your tap was not kept" in said, said
        else:
            assert two.read("edit-banner")
    else:
        assert taps == [second[0], None, None, None]  # kept for after the edit
        two.wait_until(lambda: bool(two.read("edit-banner")))
    close(one, two)


def test_a_round_start_on_one_phone_while_the_other_undoes(
    browser: Any, lan: SharedServer
) -> None:
    one, two = two_phones(browser, lan, events=ROUND_ENDS)
    game_id = newest(lan)
    leader = BLACK_HEARTS.events[ROUND_ENDS]["leader"]
    at_once((one, f"leader-{leader}"), (two, "undo"))
    agreed((one, two), "trick-so-far", "reasons")
    events = lan.store().load(game_id).log.events
    if len(events) == ROUND_ENDS + 1:
        assert events[-1]["type"] == "round"
        assert "Not undone" in two.read("error")
    else:
        # The undo came first: the round start, made on the round's end as it
        # was, records nothing.
        assert events == BLACK_HEARTS.events[: ROUND_ENDS - 1]
        assert "nothing was recorded" in one.read("error")
    close(one, two)


def test_a_change_from_another_process_shows_on_both_phones(
    browser: Any, lan: SharedServer
) -> None:
    one, two = two_phones(browser, lan, events=1)
    game_id = newest(lan)
    before = agreed((one, two), "trick-so-far", "reasons")
    lan.store().append(game_id, {"type": "trick", "cards": FIRST})
    # Nobody tapped on either phone: each finds the change on its own.
    assert agreed((one, two), "trick-so-far", "reasons") != before
    assert one.read("reasons") != before.split("|")[1]
    close(one, two)
