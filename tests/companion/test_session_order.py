"""One table, one order: two devices acting on one shared session.

Each device passes the revision it showed. The tests play both orders of two
actions made on the same view: whichever comes second either still means what
its device meant and stands, or is refused with words and changes nothing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from companion.session import (
    CHANGED_FIRST,
    GameSession,
    Notice,
    shared_session,
)
from companion.store import Store
from tests.companion.test_session import EXAMPLES, open_game

# Black Hearts: Ann, Ben, Cy and Dee; Ann leads the first trick.
FIRST = EXAMPLES["black-hearts"].events[1]["cards"]  # F2 C2 W4 C5
SECOND = EXAMPLES["black-hearts"].events[2]["cards"]


def table(tmp_path: Path) -> tuple[Store, GameSession]:
    store, game_id = open_game(tmp_path, "black-hearts", events=1)
    return store, shared_session(store, game_id)


def cards(session: GameSession) -> list[str | None]:
    return [seat.card for seat in session.seats()]


def refused(notice: Notice | None, key: str) -> Notice:
    assert notice is not None and notice.kind == CHANGED_FIRST, notice
    assert notice.key == key
    return notice


def test_every_device_of_a_game_shares_one_session(tmp_path: Path) -> None:
    store, session = table(tmp_path)
    assert shared_session(store, session.game_id) is session
    assert shared_session(Store(tmp_path, fsync=False), session.game_id) is not session


def test_simultaneous_first_cards_one_stands_the_other_is_told(
    tmp_path: Path,
) -> None:
    store, session = table(tmp_path)
    seen = session.revision
    assert session.tap(FIRST[0], seen=seen) is None
    notice = refused(session.tap(FIRST[1], seen=seen), "table.seat-taken-elsewhere")
    assert notice.params == {"player": "Ann"}
    assert notice.text == "Ann's card was already entered on the other phone."
    assert cards(session) == [FIRST[0], None, None, None]
    # The refused device now shows the table as it is, and its next tap counts.
    assert session.tap(FIRST[1], seen=session.revision) is None
    assert cards(session) == [FIRST[0], FIRST[1], None, None]


def test_the_same_card_on_both_devices_is_told_who_has_it(tmp_path: Path) -> None:
    _, session = table(tmp_path)
    assert session.tap(FIRST[0], 0, seen=session.revision) is None
    seen = session.revision
    assert session.tap(FIRST[1], 0, seen=seen) is None
    # The other device showed Ann's card only: its tap was for Ben too.
    refused(session.tap(FIRST[1], 0, seen=seen), "table.seat-taken-elsewhere")
    assert cards(session) == [FIRST[0], FIRST[1], None, None]


def test_simultaneous_last_cards_never_start_the_next_trick(tmp_path: Path) -> None:
    store, session = table(tmp_path)
    for code in FIRST[:-1]:
        assert session.tap(code, seen=session.revision) is None
    seen = session.revision
    assert session.tap(FIRST[-1], seen=seen) is None
    notice = refused(session.tap(SECOND[0], seen=seen), "table.seat-taken-elsewhere")
    assert notice.params == {"player": "Dee"}
    assert store.load(session.game_id).log.events[-1]["cards"] == FIRST
    assert cards(session) == [None] * 4
    restarted = GameSession(Store(tmp_path, fsync=False), session.game_id)
    assert cards(restarted) == [None] * 4


def test_a_card_for_a_seat_still_empty_stands(tmp_path: Path) -> None:
    _, session = table(tmp_path)
    assert session.tap(FIRST[0], seen=session.revision) is None
    assert session.tap(FIRST[1], seen=session.revision) is None
    seen = session.revision
    # One device takes back Ben's card while the other enters Cy's.
    assert session.take_back("Ben", seen=seen) is None
    assert session.tap(FIRST[2], seen=seen) is None
    assert cards(session) == [FIRST[0], None, FIRST[2], None]
    # The next card goes to the seat left empty: nothing moved.
    assert session.tap(FIRST[1], seen=session.revision) is None
    assert cards(session) == [FIRST[0], FIRST[1], FIRST[2], None]


def test_taking_back_a_card_another_device_changed_is_refused(tmp_path: Path) -> None:
    _, session = table(tmp_path)
    assert session.tap(FIRST[0], seen=session.revision) is None
    assert session.tap(FIRST[1], seen=session.revision) is None
    seen = session.revision
    assert session.take_back("Ben", seen=seen) is None
    assert session.tap(FIRST[2], seen=session.revision) is None
    refused(session.take_back("Ben", seen=seen), "table.seat-changed-elsewhere")
    assert cards(session) == [FIRST[0], FIRST[2], None, None]


def test_undo_on_one_device_while_the_other_taps(tmp_path: Path) -> None:
    store, session = table(tmp_path)
    assert session.tap(FIRST[0], seen=session.revision) is None
    seen = session.revision
    # The tap comes first: the undo, made on a view without it, is refused.
    assert session.tap(FIRST[1], seen=seen) is None
    refused(session.undo(seen=seen), "table.undo-elsewhere")
    assert cards(session) == [FIRST[0], FIRST[1], None, None]
    # The undo comes first: it takes back Ben's card, whoever tapped it, and
    # the tap made meanwhile for Cy's seat still means the same and stands.
    seen = session.revision
    assert session.undo(seen=seen) is None
    assert session.tap(FIRST[2], seen=seen) is None
    assert cards(session) == [FIRST[0], None, FIRST[2], None]
    # Undo is the table's: the last thing done, by either device, goes first.
    assert session.undo(seen=session.revision) is None
    assert cards(session) == [FIRST[0], None, None, None]
    assert store.load(session.game_id).log.events == EXAMPLES["black-hearts"].events[:1]


def test_a_tap_made_as_a_change_arrived_must_mean_the_same_before_and_after(
    tmp_path: Path,
) -> None:
    _, session = table(tmp_path)
    assert session.tap(FIRST[0], seen=session.revision) is None
    assert session.tap(FIRST[1], seen=session.revision) is None
    before = session.revision
    # The other device takes back Ben's card, and this one shows it just as
    # a card is tapped: for Cy's seat before the change, for Ben's after it.
    assert session.undo(seen=before) is None
    after = session.revision
    refused(
        session.tap(FIRST[2], seen=(before, after)), "table.trick-changed-elsewhere"
    )
    refused(session.undo(seen=(before, after)), "table.undo-elsewhere")
    refused(
        session.take_back_last(seen=(before, after)), "table.trick-changed-elsewhere"
    )
    assert cards(session) == [FIRST[0], None, None, None]
    # A card for a seat that is the next one on both views stands.
    assert session.tap(FIRST[1], seen=after) is None
    before = session.revision
    assert session.tap(FIRST[2], seen=before) is None  # Cy's, on the other phone
    after = session.revision
    refused(session.tap(SECOND[3], seen=(before, after)), "table.seat-taken-elsewhere")
    assert session.take_back("Ben", seen=(before, after)) is None
    assert cards(session) == [FIRST[0], None, FIRST[2], None]
    # The same revision twice is simply that view.
    now = session.revision
    assert session.tap(FIRST[1], seen=(now, now)) is None
    assert cards(session) == FIRST[:3] + [None]


def test_undo_of_a_trick_while_the_other_taps_the_next(tmp_path: Path) -> None:
    store, session = table(tmp_path)
    for code in FIRST:
        assert session.tap(code, seen=session.revision) is None
    seen = session.revision
    assert session.undo(seen=seen) is None  # the trick is back, Dee's card out
    refused(session.tap(SECOND[0], seen=seen), "table.trick-changed-elsewhere")
    assert cards(session) == [*FIRST[:3], None]
    assert len(store.load(session.game_id).log.events) == 1


def test_a_round_start_on_a_stale_view_records_nothing(tmp_path: Path) -> None:
    log = EXAMPLES["black-hearts"]
    round_ends = next(
        number
        for number in range(2, len(log.events))
        if log.events[number]["type"] == "round"
    )
    store, game_id = open_game(tmp_path, "black-hearts", events=round_ends)
    session = shared_session(store, game_id)
    seen = session.revision
    assert session.undo(seen=seen) is None  # one device takes the last trick back
    before = store.load(game_id).log.events
    refused(
        session.record(log.events[round_ends], seen=seen), "table.recorded-elsewhere"
    )
    assert store.load(game_id).log.events == before
    # Done on the table as it is now, the other order stands.
    assert session.redo(seen=session.revision) is None
    seen = session.revision
    assert session.record(log.events[round_ends], seen=seen) is None
    refused(session.undo(seen=seen - 1), "table.undo-elsewhere")


def test_an_edit_on_one_device_while_the_other_taps(tmp_path: Path) -> None:
    store, game_id = open_game(tmp_path, "black-hearts", events=2)
    session = shared_session(store, game_id)
    seen = session.revision
    # The tap first: the edit still opens, and the tap waits in the live trick.
    assert session.tap(SECOND[0], seen=seen) is None
    assert session.start_edit(2, seen=seen) is None
    assert session.editing == 2
    assert session.cancel_edit(seen=session.revision) is None
    assert cards(session) == [SECOND[0], None, None, None]
    # The edit first: a tap for the live trick is not moved into the edited one.
    seen = session.revision
    assert session.start_edit(2, seen=seen) is None
    refused(session.tap(SECOND[1], seen=seen), "table.trick-changed-elsewhere")
    assert session.editing == 2
    assert all(card is None for card in cards(session))


def test_a_view_too_old_to_weigh_is_refused(tmp_path: Path) -> None:
    _, session = table(tmp_path)
    for _ in range(40):
        assert session.tap(FIRST[0], seen=session.revision) is None
        assert session.take_back("Ann", seen=session.revision) is None
    refused(session.tap(FIRST[1], seen=0), "table.trick-changed-elsewhere")
    assert cards(session) == [None] * 4


def test_nothing_changed_moves_no_revision(tmp_path: Path) -> None:
    _, session = table(tmp_path)
    seen = session.revision
    assert session.tap("Z99", seen=seen) is not None  # not a card: said, not done
    assert not session.refresh()
    assert session.revision == seen


def test_a_change_made_by_another_process_is_read_on_refresh(tmp_path: Path) -> None:
    store, session = table(tmp_path)
    trick = {"type": "trick", "cards": FIRST}
    subprocess.run(
        [
            sys.executable,
            "-c",
            "import json, sys\n"
            "from companion.store import Store\n"
            "Store(sys.argv[1]).append(sys.argv[2], json.loads(sys.argv[3]))",
            str(tmp_path),
            session.game_id,
            json.dumps(trick),
        ],
        check=True,
    )
    seen = session.revision
    assert session.refresh()
    assert session.events[-1] == trick
    assert session.revision == seen + 1
    # A tap made on the view before it is for a trick that is already in.
    refused(session.tap(SECOND[0], seen=seen), "table.seat-taken-elsewhere")


def test_two_spells_cast_on_one_view_record_one(tmp_path: Path) -> None:
    store, game_id = open_game(tmp_path, "cursed")
    session = shared_session(store, game_id)
    spells = EXAMPLES["cursed"].events[:2]
    seen = session.revision
    assert session.record(spells[0], seen=seen) is None
    refused(session.record(spells[1], seen=seen), "table.recorded-elsewhere")
    assert store.load(game_id).log.events == spells[:1]
    # Undo on either device takes back the spell, whoever cast it.
    assert session.undo(seen=session.revision) is None
    assert store.load(game_id).log.events == []
    assert session.undone_at == session.revision


def test_take_back_last_takes_the_card_last_shown(tmp_path: Path) -> None:
    _, session = table(tmp_path)
    assert session.tap(FIRST[0], seen=session.revision) is None
    assert session.tap(FIRST[1], seen=session.revision) is None
    seen = session.revision
    assert session.tap(FIRST[2], seen=seen) is None  # on the other phone
    # The last card this phone showed was Ben's: that is the one taken back.
    assert session.take_back_last(seen=seen) is None
    assert cards(session) == [FIRST[0], None, FIRST[2], None]


def test_two_answers_to_one_question_record_one(tmp_path: Path) -> None:
    log = EXAMPLES["trick-runaway"]
    store, game_id = open_game(tmp_path, "trick-runaway", events=1)
    session = shared_session(store, game_id)
    trick = log.events[1]
    for code in trick["cards"]:
        assert session.tap(code, seen=session.revision) is None
    need = session.choice
    assert need is not None and need.field == "lower"
    seen = session.revision
    assert session.choose(trick["lower"][need.player], seen=seen) is None
    other = next(o for o in need.options if o != trick["lower"][need.player])
    refused(session.choose(other, seen=seen), "table.chosen-elsewhere")
    assert store.load(game_id).log.events == log.events[:2]
