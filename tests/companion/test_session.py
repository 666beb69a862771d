"""A game played through GameSession, on real TinyDB files."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from companion.games.base import Event
from companion.log import GameLog, loads
from companion.replay import replay
from companion.session import MOVED_ON, PER_PLAYER_CHOICES, REFUSED, GameSession
from companion.store import Store
from companion.timeline import mark_of, marks

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = {
    path.stem: loads(path.read_text()) for path in (ROOT / "examples").glob("*.json")
}
TRICK_EXAMPLES = sorted(name for name, log in EXAMPLES.items() if log.game != "cursed")


def open_game(folder: Path, name: str, events: int = 0) -> tuple[Store, str]:
    """A store holding the example's header and its first ``events`` events."""
    example = EXAMPLES[name]
    store = Store(folder, fsync=False)
    game_id = store.create_game(example.with_events(example.events[:events]))
    return store, game_id


def play(session: GameSession, event: Event) -> None:
    """Enter one event of a log the way the table does: a trick card by card."""
    if event["type"] != "trick":
        assert session.record(event) is None
        return
    for code in event["cards"]:
        assert session.tap(code) is None
    while session.pending is not None:
        answer(session, event)


def answer(session: GameSession, event: Event) -> None:
    """Answer the choice the session asks for as ``event`` did."""
    need = session.choice
    assert need is not None
    value = event[need.field]
    option = value[need.player] if need.field in PER_PLAYER_CHOICES else value
    assert session.choose(option) is None


def state(session: GameSession) -> tuple[Any, ...]:
    """Everything the table shows, and what the store holds."""
    stored = session.store.load(session.game_id)
    return (
        stored.log.events,
        session.events,
        session.summary(),
        session.seats(),
        session.pending,
        session.editing,
        session.layout(),
        session.spent(),
    )


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_every_example_plays_through_the_session(tmp_path: Path, name: str) -> None:
    store, game_id = open_game(tmp_path, name)
    session = GameSession(store, game_id)
    example = EXAMPLES[name]
    for event in example.events:
        play(session, event)
    assert store.load(game_id).log.events == example.events
    assert session.summary() == replay(example).summary()
    assert session.can_undo


@pytest.mark.parametrize("name", TRICK_EXAMPLES)
def test_undo_then_redo_walk_every_earlier_state(tmp_path: Path, name: str) -> None:
    store, game_id = open_game(tmp_path, name)
    session = GameSession(store, game_id)
    seen = [state(session)]
    for event in EXAMPLES[name].events[:12]:
        if event["type"] != "trick":
            session.record(event)
            seen.append(state(session))
            continue
        for code in event["cards"]:
            session.tap(code)
            seen.append(state(session))
        while session.pending is not None:
            answer(session, event)
            seen.append(state(session))
    for earlier in reversed(seen[:-1]):
        assert session.undo() is None
        assert state(session) == earlier
    for later in seen[1:]:
        assert session.redo() is None
        assert state(session) == later
    assert not session.can_redo


def test_one_undo_brings_back_a_trick_with_its_last_card_removed(
    tmp_path: Path,
) -> None:
    store, game_id = open_game(tmp_path, "black-hearts", events=1)
    session = GameSession(store, game_id)
    trick = EXAMPLES["black-hearts"].events[1]
    play(session, trick)
    assert len(store.load(game_id).log.events) == 2
    assert all(seat.card is None for seat in session.seats())
    session.undo()
    assert len(store.load(game_id).log.events) == 1
    cards = [seat.card for seat in session.seats()]
    assert cards == [*trick["cards"][:-1], None]
    assert session.next_seat() == session.seats()[-1].player
    session.undo()
    assert [seat.card for seat in session.seats()] == [*trick["cards"][:-2], None, None]


def test_a_new_action_after_undo_forgets_the_redo(tmp_path: Path) -> None:
    store, game_id = open_game(tmp_path, "black-hearts", events=1)
    session = GameSession(store, game_id)
    cards = EXAMPLES["black-hearts"].events[1]["cards"]
    session.tap(cards[0])
    session.tap(cards[1])
    session.undo()
    assert session.can_redo
    session.tap(cards[2])
    assert not session.can_redo
    assert session.redo() is not None
    assert [seat.card for seat in session.seats()][:2] == [cards[0], cards[2]]


def test_a_double_tap_records_nothing_more(tmp_path: Path) -> None:
    store, game_id = open_game(tmp_path, "trick-runaway", events=1)
    session = GameSession(store, game_id)
    cards = EXAMPLES["trick-runaway"].events[1]["cards"]
    assert session.tap(cards[0], 1) is None
    assert session.seats()[0].slot == (cards[0], 1)
    before = state(session)
    notice = session.tap(cards[0], 1)
    assert notice is not None
    assert (notice.kind, notice.key) == (REFUSED, "table.already-tapped")
    assert cards[0] in notice.text
    assert state(session) == before
    # The deck holds this card twice: its other copy may still come.
    assert (cards[0], 0) not in session.spent()
    # The tap that ends a trick, twice: the second is not the next trick's card.
    for code in cards[1:-1]:
        session.tap(code)
    assert session.tap(cards[-1], 0) is None
    assert session.choice is not None
    session.choose(EXAMPLES["trick-runaway"].events[1]["lower"][session.choice.player])
    assert len(store.load(game_id).log.events) == 2
    after = state(session)
    notice = session.tap(cards[-1], 0)
    assert notice is not None and notice.key == "table.already-played"
    assert state(session) == after
    assert {(cards[0], 1), (cards[-1], 0)} <= session.spent()


def test_a_card_already_played_this_round_is_refused(tmp_path: Path) -> None:
    store, game_id = open_game(tmp_path, "black-hearts", events=2)
    session = GameSession(store, game_id)
    played = EXAMPLES["black-hearts"].events[1]["cards"][0]
    before = state(session)
    notice = session.tap(played)
    assert notice is not None and notice.key == "table.already-played"
    assert notice.text == f"{played} was already played this round."
    assert state(session) == before
    assert session.tap("Q99") is not None
    assert state(session) == before


def test_a_refused_trick_keeps_its_other_cards(tmp_path: Path) -> None:
    """Re-entering trick 2 with a card a later trick played: the store refuses."""
    store, game_id = open_game(tmp_path, "black-hearts", events=3)
    session = GameSession(store, game_id)
    events = EXAMPLES["black-hearts"].events
    session.start_edit(2)
    wanted = [*events[1]["cards"][:-1], events[2]["cards"][-1]]
    for code in wanted[:-1]:
        assert session.tap(code) is None
    notice = session.tap(wanted[-1])
    assert notice is not None and notice.kind == REFUSED
    assert notice.params["reason"]
    assert store.load(game_id).log.events == events[:3]
    assert [seat.card for seat in session.seats()] == [*wanted[:-1], None]
    assert session.editing == 2


def test_an_edit_replaces_the_trick_and_undo_restores_it(tmp_path: Path) -> None:
    store, game_id = open_game(tmp_path, "black-hearts", events=3)
    session = GameSession(store, game_id)
    events = EXAMPLES["black-hearts"].events
    original = store.load(game_id).log.events
    session.tap(events[3]["cards"][0])  # a trick in progress waits meanwhile
    session.start_edit(3)
    edited = list(reversed(events[2]["cards"]))
    # The same cards, seat by seat in another order: a different trick.
    for code in edited:
        assert session.tap(code) is None
    assert session.editing is None
    assert store.load(game_id).log.events[2]["cards"] == edited
    assert session.seats()[0].card == events[3]["cards"][0]
    session.undo()
    assert store.load(game_id).log.events == original
    assert session.editing == 3
    assert session.seats()[-1].card is None
    session.redo()
    assert store.load(game_id).log.events[2]["cards"] == edited


def test_taking_back_any_seat_keeps_the_others_in_place(tmp_path: Path) -> None:
    store, game_id = open_game(tmp_path, "trick-runaway", events=1)
    session = GameSession(store, game_id)
    cards = EXAMPLES["trick-runaway"].events[1]["cards"]
    for code in cards[:3]:
        session.tap(code)
    players = [seat.player for seat in session.seats()]
    assert session.take_back(players[1]) is None
    assert [seat.card for seat in session.seats()] == [cards[0], None, cards[2], None]
    assert session.next_seat() == players[1]
    assert session.take_back(1) is not None  # already empty
    session.tap(cards[1])
    assert [seat.card for seat in session.seats()][:3] == cards[:3]
    session.undo()
    session.undo()
    assert [seat.card for seat in session.seats()][:3] == cards[:3]


def test_a_choice_is_one_step_of_the_history(tmp_path: Path) -> None:
    store, game_id = open_game(tmp_path, "trick-runaway", events=1)
    session = GameSession(store, game_id)
    trick = EXAMPLES["trick-runaway"].events[1]
    for code in trick["cards"]:
        session.tap(code)
    need = session.choice
    assert need is not None and need.field == "lower"
    assert session.tap(trick["cards"][0]) is not None  # choose first
    assert session.next_seat() is None
    session.choose(trick["lower"][need.player])
    assert store.load(game_id).log.events[-1] == trick
    session.undo()
    assert session.choice is not None
    assert len(store.load(game_id).log.events) == 1
    session.undo()
    assert session.choice is None
    assert session.seats()[-1].card is None


def test_two_devices_never_overwrite_each_other(tmp_path: Path) -> None:
    store, game_id = open_game(tmp_path, "black-hearts", events=1)
    here = GameSession(store, game_id)
    there = GameSession(Store(tmp_path, fsync=False), game_id)
    events = EXAMPLES["black-hearts"].events
    for code in events[1]["cards"][:-1]:
        here.tap(code)
    play(there, events[1])
    notice = here.tap(events[1]["cards"][-1])
    assert notice is not None and notice.kind == MOVED_ON
    assert "another screen" in notice.text
    assert store.load(game_id).log.events == events[:2]
    assert here.events == events[:2]
    assert all(seat.card is None for seat in here.seats())
    # The reloaded device goes on from where the other left.
    play(here, events[2])
    assert there.tap(events[3]["cards"][0]) is None
    assert there.undo() is None  # a tap: no write, nothing to compare
    assert there.undo().kind == MOVED_ON  # the trick it recorded is not last now
    assert store.load(game_id).log.events == events[:3]


def test_refresh_reads_what_another_device_wrote(tmp_path: Path) -> None:
    store, game_id = open_game(tmp_path, "black-hearts", events=1)
    told: list[str] = []
    here = GameSession(store, game_id, on_change=lambda: told.append("here"))
    there = GameSession(
        Store(tmp_path, fsync=False), game_id, on_change=lambda: told.append("there")
    )
    assert not here.refresh()
    cards = EXAMPLES["black-hearts"].events[1]["cards"]
    there.tap(cards[0])
    assert told == ["there"]
    assert here.refresh()
    assert here.seats()[0].card == cards[0]
    play(there, {"type": "trick", "cards": cards[1:]})
    assert here.refresh()
    assert here.events == there.events
    assert not here.refresh()


def test_taps_survive_a_restart(tmp_path: Path) -> None:
    store, game_id = open_game(tmp_path, "wolf-x-trick", events=1)
    session = GameSession(store, game_id)
    cards = EXAMPLES["wolf-x-trick"].events[1]["cards"]
    session.tap(cards[0])
    session.tap(cards[1])
    again = GameSession(Store(tmp_path, fsync=False), game_id)
    assert [seat.card for seat in again.seats()][:3] == [cards[0], cards[1], None]
    # With no history in memory, undo takes back the taps, then the events.
    assert again.undo() is None
    assert again.undo() is None
    assert all(seat.card is None for seat in again.seats())
    assert again.undo() is None
    assert store.load(game_id).log.events == []
    assert again.redo() is None
    assert store.load(game_id).log.events == EXAMPLES["wolf-x-trick"].events[:1]


def test_taps_kept_later_are_kept_once_the_screen_says_so(tmp_path: Path) -> None:
    store, game_id = open_game(tmp_path, "wolf-x-trick", events=1)
    told: list[None] = []
    session = GameSession(
        store, game_id, on_change=lambda: told.append(None), keep_taps_later=True
    )
    card = EXAMPLES["wolf-x-trick"].events[1]["cards"][0]
    assert session.tap(card) is None
    restarted = GameSession(Store(tmp_path, fsync=False), game_id)
    assert all(seat.card is None for seat in restarted.seats())
    assert told == []
    session.keep_taps()
    restarted = GameSession(Store(tmp_path, fsync=False), game_id)
    assert restarted.seats()[0].card == card
    assert told == [None]
    session.keep_taps()  # nothing new: no write, no word to the others
    assert told == [None]


def test_after_a_restart_redo_uses_the_stores_redo(tmp_path: Path) -> None:
    store, game_id = open_game(tmp_path, "cursed", events=4)
    store.undo(game_id)
    store.undo(game_id)
    session = GameSession(store, game_id)
    assert session.can_redo
    assert session.redo() is None
    assert session.redo() is None
    assert not session.can_redo
    assert store.load(game_id).log.events == EXAMPLES["cursed"].events[:4]
    assert session.undo() is None
    assert session.redo() is None
    assert store.load(game_id).log.events == EXAMPLES["cursed"].events[:4]


def test_taps_that_no_longer_fit_the_log_are_not_restored(tmp_path: Path) -> None:
    store, game_id = open_game(tmp_path, "black-hearts", events=1)
    session = GameSession(store, game_id)
    trick = EXAMPLES["black-hearts"].events[1]
    session.tap(trick["cards"][0])
    store.append(game_id, trick)
    assert all(seat.card is None for seat in GameSession(store, game_id).seats())


def test_the_layout_keeps_every_card_of_the_round_in_place(tmp_path: Path) -> None:
    store, game_id = open_game(tmp_path, "cursed-tricks", events=1)
    session = GameSession(store, game_id)
    layout = session.layout()
    assert layout and not session.spent()
    tricks = EXAMPLES["cursed-tricks"].events[1:4]
    for trick in tricks:
        play(session, trick)
        assert session.layout() == layout
    session.tap(EXAMPLES["cursed-tricks"].events[4]["cards"][0])
    spent = session.spent()
    assert len(spent) == sum(len(t["cards"]) for t in tricks) + 1
    assert spent <= set(layout)
    # A fresh session works the layout out from the log alone.
    assert GameSession(store, game_id).layout() == layout


def test_every_write_is_told(tmp_path: Path) -> None:
    store, game_id = open_game(tmp_path, "cursed")
    told: list[int] = []
    session = GameSession(store, game_id, on_change=lambda: told.append(1))
    for event in EXAMPLES["cursed"].events[:3]:
        session.record(event)
    session.undo()
    session.redo()
    assert len(told) == 5
    refused = session.record({"type": "spell", "caster": "Nobody"})
    assert refused is not None and refused.kind == REFUSED
    assert len(told) == 5


def test_timeline_numbers_tricks_within_rounds() -> None:
    log = EXAMPLES["black-hearts"]
    result = replay(log)
    found = marks(log.events, result.steps)
    assert [mark.number for mark in found] == list(range(1, len(log.events) + 1))
    rounds = [mark for mark in found if mark.type == "round"]
    assert [mark.round for mark in rounds] == list(range(1, len(rounds) + 1))
    first = found[1]
    assert (first.round, first.trick) == (1, 1)
    assert first.winner in log.players
    assert all(mark.winner for mark in found if mark.trick is not None)
    assert mark_of(log.events, 3) == marks(log.events)[2]
    runaway = EXAMPLES["trick-runaway"]
    assert all(mark.winner is None for mark in marks(runaway.events))


# Random sequences of what a table may do, on a game of Trick Runaway.

ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(
            ["tap", "fill", "fill", "take-back", "choose", "edit", "cancel", "undo"]
        ),
        st.integers(min_value=0, max_value=60),
    ),
    max_size=16,
)


def act(session: GameSession, action: str, pick: int) -> None:
    if action in ("tap", "fill"):
        # "fill" taps every seat left, so that tricks get recorded.
        for step in range(len(session.seats()) if action == "fill" else 1):
            prompt = session.prompt()
            if "round" in prompt.expects:
                session.record({"type": "round", "leader": session.players[0]})
            elif prompt.cards and session.next_seat() is not None:
                session.tap(str(prompt.cards[(pick + step * 7) % len(prompt.cards)]))
    elif action == "take-back":
        session.take_back(pick % max(len(session.seats()), 1))
    elif action == "choose" and session.choice is not None:
        session.choose(session.choice.options[pick % len(session.choice.options)])
    elif action == "edit" and session.events:
        session.start_edit(1 + pick % len(session.events))
    elif action == "cancel":
        session.cancel_edit()
    elif action == "undo" and session.undo_steps:
        before = state(session)
        assert session.undo() is None
        if pick % 2:
            assert session.redo() is None
            assert state(session) == before


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(ACTIONS, st.integers(min_value=2, max_value=9))
# A refused choice drops it: Undo brings the choice back, Redo drops it again.
@example([("edit", 1), ("fill", 0), ("choose", 0)], 3)
def test_undo_takes_back_everything_and_redo_does_it_again(
    actions: list[tuple[str, int]], prefix: int
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store, game_id = open_game(Path(folder), "trick-runaway", events=prefix)
        session = GameSession(store, game_id)
        states = [state(session)]
        for action, pick in actions:
            act(session, action, pick)
            states.append(state(session))
        while session.redo_steps:  # what undo took back during the actions
            assert session.redo() is None
        furthest = state(session)
        while session.undo_steps:
            assert session.undo() is None
        assert state(session) == states[0]
        redone = [state(session)]
        while session.redo_steps:
            assert session.redo() is None
            redone.append(state(session))
        assert redone[-1] == furthest
        if all(action != "undo" for action, _ in actions):
            # Redo passes through every state the actions left, in order.
            walk = iter(redone)
            changed = [one for at, one in enumerate(states) if one != states[at - 1]]
            assert all(any(one == other for other in walk) for one in changed)


def test_a_log_through_the_session_matches_the_same_log_replayed(
    tmp_path: Path,
) -> None:
    store, game_id = open_game(tmp_path, "trick-runaway-5p")
    session = GameSession(store, game_id)
    for event in EXAMPLES["trick-runaway-5p"].events[:20]:
        play(session, event)
    log = GameLog.from_dict(store.load(game_id).log.to_dict())
    assert replay(log).summary() == session.summary()


def test_a_restart_asks_again_for_the_card_that_needed_a_choice(
    tmp_path: Path,
) -> None:
    store, game_id = open_game(tmp_path, "trick-runaway", events=1)
    session = GameSession(store, game_id)
    trick = EXAMPLES["trick-runaway"].events[1]
    for code in trick["cards"]:
        session.tap(code)
    assert session.choice is not None
    again = GameSession(Store(tmp_path, fsync=False), game_id)
    assert [seat.card for seat in again.seats()] == [*trick["cards"][:-1], None]
    play(again, {**trick, "cards": trick["cards"][-1:]})
    assert store.load(game_id).log.events[-1] == trick


def test_a_wrong_lead_is_refused_at_its_tap(tmp_path: Path) -> None:
    """Black Hearts: a round's first trick is led with Two o'clock; any other
    lead is refused at the first tap, not once the whole trick is in."""
    store, game_id = open_game(tmp_path, "black-hearts", events=1)
    session = GameSession(store, game_id)
    lead = EXAMPLES["black-hearts"].events[1]["cards"][0]
    assert [str(card) for card in session.prompt().leads] == [lead]
    other = next(str(c) for c in session.prompt().cards if str(c) != lead)
    before = state(session)
    notice = session.tap(other)
    assert notice is not None
    assert (notice.kind, notice.key) == (REFUSED, "table.must-lead")
    assert lead in notice.text and other in notice.text
    assert state(session) == before
    assert session.tap(lead) is None
    # The second seat follows as it likes; only the lead is named.
    assert session.tap(other) is None
