"""One game as a table plays it: its replay, what is being entered, undo and redo.

A :class:`GameSession` is the only thing that reads and writes one game in the
store. The screens draw from its views (``summary``, ``prompt``, ``seats``,
``layout``, ``spent``) and call its actions (``tap``, ``take_back``,
``choose``, ``record``, ``start_edit``, ``cancel_edit``, ``undo``, ``redo``).
An action never raises for something the players did: a refusal comes back
as a :class:`Notice` to show next to the cards, and nothing is lost by it.

Undo and redo. The session keeps one history of everything done at the table
in the order it was done: each tap, each card taken back, each choice, each
recorded event, each edit of a past event, starting and leaving an edit. Undo
takes back exactly the last of these, Redo does again exactly what Undo took
back, and any new action forgets what could have been redone. The last tap of
a trick records the trick at once, so one Undo brings back the trick with
that card removed and the others still tapped.

That history lives in memory. A new session on the same game (after a
restart, or in another process) starts with none: Undo then first takes back
the cards tapped in the trick in progress (which are kept in the store), then
falls back on the store's own undo of the last event, and Redo on the store's
redo stack, until the session does something new.

Taps name the copy of the card tapped (a :data:`Slot`), since some decks
hold a card twice and both copies may fall in one trick: a grid showing every
copy of the round (``layout``) and which are spent (``spent``) passes the copy,
so that a second tap on the same copy is refused and never becomes a second
card. A session is not safe for two callers at once: the screens that share
one call it under one lock.

One table, one order. Every device showing a game in one process shares one
session (:func:`shared_session`), so the trick being entered, the choice asked
for and the undo history are the table's, whichever device acted. The session
counts a ``revision`` of everything it shows, one more on each change, and a
device passes the revision it showed with each action (``seen``). An action
on a view that another device changed since is weighed against what that
device showed (the views of the last :data:`KEPT_VIEWS` revisions are kept):
when it still means the same thing (a card for a seat still empty of the
same trick) it is applied; otherwise it is refused with a notice of kind
:data:`CHANGED_FIRST` that says what the other device did, and nothing moves.
Undo and Redo are only done on the view the device showed: they would take
back something else otherwise. A device that was tapped just as a change from
another reached it passes both revisions: the action is applied only if it
means the same on each, since the finger may have been aimed at either.

Other processes. Every write is checked against the revision of the game the
session last saw; when another process wrote first, the session reloads,
drops what was being entered on the old log and says that the game moved
on, rather than letting the rules refuse a trick for a reason nobody at this
table caused. Its in-memory history is dropped too, since it rested on that
old log.
"""

from __future__ import annotations

import contextlib
import copy
import threading
import weakref
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from companion.cards import Card
from companion.errors import (
    CardError,
    ChoiceNeeded,
    CompanionError,
    LogError,
    StaleGameError,
)
from companion.games.base import Event, Prompt
from companion.i18n import text, ui_keys
from companion.replay import Replay, replay
from companion.store import Store, StoredGame
from companion.timeline import round_start

# Choices that the log keeps per player ({NAME: choice}) rather than as one value.
PER_PLAYER_CHOICES = frozenset({"lower"})

# What a notice is about.
REFUSED = "refused"  # the action was refused; nothing was recorded
MOVED_ON = "moved-on"  # another device wrote first; the game shown is reloaded
# Refused because another device changed the table after this one showed it.
CHANGED_FIRST = "changed-first"
# How many revisions back an action's view can be weighed; older ones are refused.
KEPT_VIEWS = 64

# The revision a device showed when it acted, or the revisions it may have
# shown (a change from another device was arriving as it was tapped).
Seen = int | tuple[int, ...] | None

# English texts of the notices whose key the screens' texts do not hold yet.
NOTICE_TEXTS: dict[str, str] = {
    "table.already-tapped": "{card} is already in this trick.",
    "table.already-played": "{card} was already played this round.",
    "table.not-offered": "{card} cannot be played in this trick.",
    "table.not-a-card": "{card} is not a card of this game.",
    "table.must-lead": "{player} must lead {lead} in this trick, not {card}.",
    "table.no-trick": "No trick is being entered now.",
    "table.choose-first": "Choose first: {question}",
    "table.nothing-to-choose": "There is nothing to choose now.",
    "table.not-an-option": "{option} is not one of the choices.",
    "table.seat-empty": "No card was tapped for {player} yet.",
    "table.no-such-event": "There is no event {n} to re-enter.",
    "table.not-editing": "No event is being re-entered.",
    "table.nothing-to-undo": "There is nothing to undo.",
    "table.nothing-to-redo": "There is nothing to redo.",
    "table.refused": "{reason}",
    "table.changed-elsewhere": (
        "This game was changed on another screen: here it is as it stands now. "
        "Please tap the trick again."
    ),
}

# One copy of a card in a round's deck: its code and which copy (0, 1, ...).
# Some decks hold a card twice, and both copies may fall in the same trick.
Slot = tuple[str, int]
Taps = tuple[Slot | None, ...]


@dataclass(frozen=True)
class Notice:
    """Something to tell the table after an action: ``key`` and ``params`` name
    the message for a screen's own texts, ``text`` is it in English."""

    kind: str
    key: str
    params: dict[str, str] = field(default_factory=dict)

    @property
    def text(self) -> str:
        if self.key in ui_keys("en"):
            return text(self.key, "en", **self.params)
        return NOTICE_TEXTS.get(self.key, self.key).format(**self.params)


def _refused(key: str, **params: object) -> Notice:
    return Notice(REFUSED, key, {name: str(value) for name, value in params.items()})


def _moved_on() -> Notice:
    return Notice(MOVED_ON, "table.changed-elsewhere")


def _changed_first(key: str, **params: object) -> Notice:
    return Notice(
        CHANGED_FIRST, key, {name: str(value) for name, value in params.items()}
    )


@dataclass(frozen=True)
class Seat:
    """One seat of the trick being entered, and the card copy tapped for it."""

    player: str
    slot: Slot | None

    @property
    def card(self) -> str | None:
        return self.slot[0] if self.slot is not None else None


@dataclass(frozen=True)
class Entry:
    """What the table has entered that is not (yet) in the log.

    ``live`` are the card copies tapped, seat by seat, in the trick at the end of
    the log; ``editing`` the number of a past event being re-entered and
    ``taps`` that trick's cards. ``pending`` is an event the rules need a
    choice for (``choice``), in whichever trick is being entered, and
    ``last`` the seat of that trick tapped most recently.
    """

    live: Taps = ()
    editing: int | None = None
    taps: Taps = ()
    pending: Event | None = None
    choice: ChoiceNeeded | None = field(default=None, compare=False)
    last: int | None = None

    @property
    def active(self) -> Taps:
        return self.taps if self.editing is not None else self.live

    def with_active(self, taps: Taps, last: int | None) -> Entry:
        taps = taps if any(card is not None for card in taps) else ()
        if self.editing is not None:
            return replace(self, taps=taps, last=last, pending=None, choice=None)
        return replace(self, live=taps, last=last, pending=None, choice=None)

    def without_pending(self) -> Entry:
        """The entry with its pending event dropped and the last card back."""
        taps = list(self.active)
        if self.pending is not None and self.last is not None and taps:
            taps[self.last] = None
        return self.with_active(tuple(taps), None)


# The store changes a history item makes, done again by redo, reverted by undo.


@dataclass(frozen=True)
class _Append:
    event: Event


@dataclass(frozen=True)
class _Replace:
    number: int
    old: Event
    new: Event


@dataclass(frozen=True)
class _Done:
    before: Entry
    after: Entry
    change: _Append | _Replace | None = None


@dataclass(frozen=True)
class TableView:
    """What a device shows of the table at one revision: the log and the entry."""

    replay: Replay = field(compare=False)
    events: int
    last: Event | None
    entry: Entry

    @property
    def trick(self) -> tuple[int, Event | None, int | None]:
        """Which trick is being entered: where the log ends and what is edited."""
        return (self.events, self.last, self.entry.editing)

    def next_seat(self) -> int:
        """The seat a tap on this view fills: its first empty one."""
        taps = self.entry.active
        return taps.index(None) if None in taps else 0


class _MovedOn(Exception):
    """The stored game is not the one this session last saw."""

    def __init__(self, stored: StoredGame) -> None:
        super().__init__("the game moved on")
        self.stored = stored


class GameSession:
    """One game at the table: see the module's description."""

    def __init__(
        self,
        store: Store,
        game_id: str,
        *,
        on_change: Callable[[], None] | None = None,
        keep_taps_later: bool = False,
    ) -> None:
        self.store = store
        self.game_id = game_id
        self.on_change = on_change
        # A screen that shows a tap before keeping it calls keep_taps() after
        # drawing: the tap is on screen without waiting for the disk.
        self.keep_taps_later = keep_taps_later
        self._taps_unkept = False
        self._history: list[_Done] = []
        self._redo: list[_Done] = []
        self._store_redo = 0  # redo entries older than this session
        self._entry = Entry()
        self._saved_taps: Any = None
        self._replay: Replay
        self._seen_rev = 0
        self._generation = store.generation
        self._base: tuple[Replay, int, Replay] | None = None
        self._layout: tuple[list[Event], tuple[Slot, ...]] | None = None
        # Which copy each card of a trick entered here was: event number -> slots.
        self._copies: dict[int, tuple[Slot, ...]] = {}
        self._adopt_stored(self._read())
        # One more on every change a device would see; the views shown lately.
        self.revision = 0
        self._views: dict[int, TableView] = {0: self._view()}
        self.undone_at = -1  # the revision the last undo made

    # views

    @property
    def replay(self) -> Replay:
        """The game as stored, replayed."""
        return self._replay

    @property
    def events(self) -> list[Event]:
        return self._replay.log.events

    @property
    def slug(self) -> str:
        return self._replay.log.game

    @property
    def players(self) -> list[str]:
        return list(self._replay.log.players)

    @property
    def entry(self) -> Entry:
        return self._entry

    @property
    def editing(self) -> int | None:
        return self._entry.editing

    @property
    def pending(self) -> Event | None:
        return self._entry.pending

    @property
    def choice(self) -> ChoiceNeeded | None:
        return self._entry.choice

    def summary(self) -> dict[str, Any]:
        return self._replay.summary()

    def base(self) -> Replay:
        """What entry works against: the log up to the event being re-entered."""
        number = self._entry.editing
        if number is None:
            return self._replay
        cached = self._base
        if cached is None or cached[0] is not self._replay or cached[1] != number:
            log = self._replay.log
            cached = (
                self._replay,
                number,
                replay(log.with_events(log.events[: number - 1])),
            )
            self._base = cached
        return cached[2]

    def prompt(self) -> Prompt:
        """What the table records next, against :meth:`base`."""
        return self.base().prompt()

    def seats(self) -> tuple[Seat, ...]:
        """Each seat of the trick being entered, with its card or None."""
        players = self.prompt().seats
        taps = self._entry.active or (None,) * len(players)
        return tuple(
            Seat(name, slot) for name, slot in zip(players, taps, strict=False)
        )

    def next_seat(self) -> str | None:
        """Who plays the next card of the trick being entered."""
        if self._entry.pending is not None:
            return None
        return next((seat.player for seat in self.seats() if seat.card is None), None)

    def layout(self) -> tuple[Slot, ...]:
        """Every card copy of the round being played, in suit and number order.

        The same for the whole round, so that a grid keeps every card in
        place; empty when no trick is expected.
        """
        base = self.base()
        prompt = base.prompt()
        if "trick" not in prompt.expects:
            return ()
        events = base.log.events
        before_round = events[: round_start(events)]
        if self._layout is None or self._layout[0] != before_round:
            # The prompt just after the round began lists the whole round's deck.
            opening = (
                prompt
                if len(before_round) == len(events)
                else replay(base.log.with_events(list(before_round))).prompt()
            )
            self._layout = (copy.deepcopy(before_round), _slots(opening.cards))
        return self._layout[1]

    def spent(self) -> frozenset[Slot]:
        """The card copies of :meth:`layout` that cannot be tapped now.

        Those played this round (the copies tapped here when this session
        entered the trick, else the first free ones), those tapped in the
        trick being entered, and those the rules hold back this round.
        """
        played, tapped, held_back = self._spent()
        return frozenset(played | tapped | held_back)

    def _spent(self) -> tuple[set[Slot], set[Slot], set[Slot]]:
        layout = self.layout()
        events = self.base().log.events
        tapped = {slot for slot in self._entry.active if slot is not None}
        played: set[Slot] = set()
        unknown: list[str] = []
        for number in range(round_start(events) + 1, len(events) + 1):
            event = events[number - 1]
            if event.get("type") != "trick":
                continue
            cards = [str(code) for code in event.get("cards", [])]
            known = self._copies.get(number)
            if known is not None and [code for code, _ in known] == cards:
                played.update(known)
            else:
                unknown += cards
        free = [slot for slot in layout if slot not in played and slot not in tapped]
        for code in unknown:
            slot = next((slot for slot in free if slot[0] == code), None)
            if slot is not None:
                played.add(slot)
                free.remove(slot)
        # Copies neither played nor tapped that the prompt does not offer.
        left = Counter(str(card) for card in self.prompt().cards)
        left.subtract(slot[0] for slot in tapped)
        held_back: set[Slot] = set()
        for code in {slot[0] for slot in free}:
            mine = [slot for slot in free if slot[0] == code]
            hidden = len(mine) - max(left[code], 0)
            held_back.update(mine[len(mine) - hidden :] if hidden > 0 else ())
        return played, tapped, held_back

    @property
    def undo_steps(self) -> int:
        """How many actions of this session Undo takes back before the store's."""
        return len(self._history)

    @property
    def redo_steps(self) -> int:
        """How many undone actions Redo does again before the store's redo."""
        return len(self._redo)

    @property
    def can_undo(self) -> bool:
        return bool(self._history or self._entry.live or self.events)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo or self._store_redo)

    # actions

    def tap(
        self, code: str, copy_number: int | None = None, *, seen: Seen = None
    ) -> Notice | None:
        """A card tapped for the next empty seat of the trick being entered.

        A grid that shows every copy of a card passes which copy was tapped,
        so that a second tap on the same copy is refused; without it the
        first copy still free is taken. With ``seen`` (the revision the
        device showed) the card is for the seat that device showed next.
        """
        views = self._views_shown(seen)
        if isinstance(views, Notice):
            return views
        if all(shown is None for shown in views):
            return self._in_order(lambda: self._tap(code, copy_number, None))
        seats = set()
        for shown in views:
            if shown is None:
                seats.add(self._view().next_seat())
                continue
            seat = shown.next_seat()
            seats.add(seat)
            refusal = self._still_open(shown, seat)
            if refusal is None:
                refusal = self._card_still_free(shown, code, copy_number)
            if refusal is not None:
                return refusal
        if len(seats) > 1:
            # The card would fill one seat on one view and another on the next.
            return _changed_first("table.trick-changed-elsewhere")
        seat = seats.pop()
        return self._in_order(lambda: self._tap(code, copy_number, seat))

    def _tap(
        self, code: str, copy_number: int | None, seat: int | None
    ) -> Notice | None:
        entry = self._entry
        prompt = self.prompt()
        if "trick" not in prompt.expects or not prompt.seats:
            return _refused("table.no-trick")
        if entry.pending is not None and entry.choice is not None:
            return _refused("table.choose-first", question=entry.choice.message)
        try:
            card = str(Card.parse(code))
        except CardError:
            return _refused("table.not-a-card", card=code)
        found = self._free_copy(card, copy_number)
        if isinstance(found, Notice):
            return found
        taps = list(entry.active or (None,) * len(prompt.seats))
        if seat is None:
            seat = taps.index(None)
        if seat == 0 and prompt.leads and Card.parse(card) not in prompt.leads:
            # Refused at this tap, not when the whole trick is in.
            return _refused(
                "table.must-lead",
                player=prompt.seats[0],
                lead=" / ".join(str(lead) for lead in prompt.leads),
                card=card,
            )
        taps[seat] = found
        after = entry.with_active(tuple(taps), seat)
        if None in taps:
            self._done(_Done(entry, after))
            return None
        event: Event = {
            "type": "trick",
            "cards": [slot[0] for slot in _filled(tuple(taps))],
        }
        return self._enter(event, entry, after, refused=entry)

    def take_back(self, seat: int | str, *, seen: Seen = None) -> Notice | None:
        """Take back the card of a seat (its index or player), whichever it is.

        Any filled seat may be emptied, not only the last one tapped: the next
        tap fills the first empty seat, so cards never move to another seat.
        A pending choice is dropped with it. On a view another device changed
        since, only a card that is still the one shown is taken back.
        """
        views = self._views_shown(seen)
        if isinstance(views, Notice):
            return views
        players = self.prompt().seats
        at = players.index(seat) if isinstance(seat, str) and seat in players else seat
        for shown in views:
            refusal = None if shown is None else self._same_card(shown, at)
            if refusal is not None:
                return refusal
        return self._in_order(lambda: self._take_back(seat))

    def take_back_last(self, *, seen: Seen = None) -> Notice | None:
        """Take back the card of the last filled seat the device showed."""
        views = self._views_shown(seen)
        if isinstance(views, Notice):
            return views
        lasts = set()
        for shown in views:
            taps = (shown or self._view()).entry.active
            filled = [at for at, slot in enumerate(taps) if slot is not None]
            lasts.add(filled[-1] if filled else None)
        if len(lasts) > 1:
            return _changed_first("table.trick-changed-elsewhere")
        last = lasts.pop()
        if last is None:
            return _refused("table.nothing-to-undo")
        return self.take_back(last, seen=seen)

    def _take_back(self, seat: int | str) -> Notice | None:
        entry = self._entry
        players = self.prompt().seats
        at = players.index(seat) if isinstance(seat, str) and seat in players else seat
        taps = list(entry.active)
        if not isinstance(at, int) or not 0 <= at < len(taps) or taps[at] is None:
            name = (
                players[at] if isinstance(at, int) and 0 <= at < len(players) else seat
            )
            return _refused("table.seat-empty", player=name)
        taps[at] = None
        self._done(_Done(entry, entry.with_active(tuple(taps), None)))
        return None

    def choose(self, option: str, *, seen: Seen = None) -> Notice | None:
        """Answer the choice the pending event needs, and record it."""
        return self._unless_changed(
            seen,
            lambda shown: (
                shown.trick != self._view().trick or shown.entry.pending != self.pending
            ),
            "table.chosen-elsewhere",
            lambda: self._choose(option),
        )

    def _choose(self, option: str) -> Notice | None:
        entry = self._entry
        need, pending = entry.choice, entry.pending
        if need is None or pending is None:
            return _refused("table.nothing-to-choose")
        if option not in need.options:
            return _refused("table.not-an-option", option=option)
        event = copy.deepcopy(pending)
        if need.field in PER_PLAYER_CHOICES:
            event[need.field] = {**event.get(need.field, {}), need.player: option}
        else:
            event[need.field] = option
        return self._enter(event, entry, entry, refused=entry.without_pending())

    def record(self, event: Event, *, seen: Seen = None) -> Notice | None:
        """Record an event the screen put together (a round, a pile, a spell...).

        While a past event is being re-entered, the event takes its place. On
        a view another device changed since, it is recorded only when the log
        and what was being entered are still as that device showed them.
        """
        return self._unless_changed(
            seen,
            lambda shown: shown != self._view(),
            "table.recorded-elsewhere",
            lambda: self._record(event),
        )

    def _record(self, event: Event) -> Notice | None:
        entry = self._entry
        if entry.pending is not None and entry.choice is not None:
            return _refused("table.choose-first", question=entry.choice.message)
        return self._enter(copy.deepcopy(event), entry, entry, refused=entry)

    def start_edit(self, number: int, *, seen: Seen = None) -> Notice | None:
        """Re-enter event ``number``: entry works against the log before it."""
        return self._unless_changed(
            seen,
            lambda shown: (
                shown.entry.editing != self.editing
                or shown.replay.log.events[:number] != self.events[:number]
            ),
            "table.recorded-elsewhere",
            lambda: self._start_edit(number),
        )

    def _start_edit(self, number: int) -> Notice | None:
        if not 1 <= number <= len(self.events):
            return _refused("table.no-such-event", n=number)
        entry = self._entry.without_pending()
        self._done(_Done(self._entry, Entry(live=entry.live, editing=number)))
        return None

    def cancel_edit(self, *, seen: Seen = None) -> Notice | None:
        return self._unless_changed(
            seen,
            lambda shown: shown.entry.editing != self.editing,
            "table.recorded-elsewhere",
            self._cancel_edit,
        )

    def _cancel_edit(self) -> Notice | None:
        if self._entry.editing is None:
            return _refused("table.not-editing")
        self._done(_Done(self._entry, Entry(live=self._entry.live)))
        return None

    def undo(self, *, seen: Seen = None) -> Notice | None:
        """Take back the last thing done at the table, on the view the device showed.

        See the module's description.
        """
        if self._views_shown(seen) != [None]:
            return _changed_first("table.undo-elsewhere")
        before = self.revision
        notice = self._in_order(self._undo)
        if self.revision != before:
            self.undone_at = self.revision
        return notice

    def _undo(self) -> Notice | None:
        if self._history:
            item = self._history[-1]
            notice = self._change(item.change, forward=False)
            if notice is not None:
                return notice
            self._history.pop()
            self._redo.append(item)
            self._entry = item.before
            self._settle(wrote=item.change is not None)
            return None
        entry = self._entry
        filled = [at for at, card in enumerate(entry.live) if card is not None]
        if filled:
            # Restored taps: take back the last seat filled.
            taps = list(entry.live)
            taps[filled[-1]] = None
            item = _Done(entry, entry.with_active(tuple(taps), None))
            self._redo.append(item)
            self._entry = item.after
            self._settle(wrote=False)
            return None
        if not self.events:
            return _refused("table.nothing-to-undo")
        item = _Done(entry, Entry(), _Append(copy.deepcopy(self.events[-1])))
        notice = self._change(item.change, forward=False)
        if notice is not None:
            return notice
        # Undone from here, it is redone from here (before older store redos).
        self._redo.append(item)
        self._entry = Entry()
        self._settle(wrote=True)
        return None

    def redo(self, *, seen: Seen = None) -> Notice | None:
        """Do again what the last undo took back, on the view the device showed."""
        if self._views_shown(seen) != [None]:
            return _changed_first("table.redo-elsewhere")
        return self._in_order(self._redo_one)

    def _redo_one(self) -> Notice | None:
        if self._redo:
            item = self._redo[-1]
            notice = self._change(item.change, forward=True)
            if notice is not None:
                return notice
            self._redo.pop()
            self._history.append(item)
            self._entry = item.after
            self._settle(wrote=item.change is not None)
            return None
        if not self._store_redo:
            return _refused("table.nothing-to-redo")
        before = self._entry
        try:
            result = self._checked(
                lambda rev: self.store.redo(self.game_id, expected_rev=rev)
            )
        except _MovedOn as moved:
            self._reload(moved.stored)
            return _moved_on()
        except CompanionError as error:
            return _refused("table.refused", reason=error)
        self._store_redo -= 1
        self._adopt(result)
        item = _Done(before, Entry(), _Append(copy.deepcopy(self.events[-1])))
        self._history.append(item)
        self._entry = item.after
        self._settle(wrote=True)
        return None

    def refresh(self) -> bool:
        """Read the game again when told another device wrote; True if it moved.

        Cheap when nothing was written since: the store's write count and the
        game's stored revision say so.
        """
        before = self._view()
        moved = self._refresh()
        self._count_change(before)
        return moved

    def _refresh(self) -> bool:
        generation = self.store.generation
        if (
            generation == self._generation
            and self.store.revision(self.game_id) == self._seen_rev
        ):
            # Nothing written here since, nor to this game by another process.
            return False
        self._generation = generation
        stored = self._read()
        if not self._fresh(stored):
            self._reload(stored)
            return True
        kept = self._read_taps()
        if kept == self._saved_taps or self._entry.editing is not None:
            return False
        # Another device tapped in the same trick: its cards win, and the undo
        # history of this one no longer describes what is on the screen.
        self._saved_taps = kept
        self._entry = Entry(live=self._valid_taps(kept))
        self._history.clear()
        self._redo.clear()
        return True

    # one order of actions, whichever device acted

    def _view(self) -> TableView:
        events = self.events
        return TableView(
            self._replay, len(events), events[-1] if events else None, self._entry
        )

    def _in_order(self, action: Callable[[], Notice | None]) -> Notice | None:
        """Do ``action`` now; the revision moves on when the table changed."""
        before = self._view()
        notice = action()
        self._count_change(before)
        return notice

    def _count_change(self, before: TableView) -> None:
        now = self._view()
        edited = (
            now.replay is not before.replay
            and now.replay.log.events != before.replay.log.events
        )
        if now != before or edited:
            self.revision += 1
            self._views[self.revision] = now
            self._views.pop(self.revision - KEPT_VIEWS, None)

    def _shown(self, seen: int | None) -> TableView | Notice | None:
        """The view a device acted on, when the table changed since; else None."""
        if seen is None or seen == self.revision:
            return None
        shown = self._views.get(seen)
        if shown is None or seen > self.revision:
            return _changed_first("table.trick-changed-elsewhere")
        return shown

    def _views_shown(self, seen: Seen) -> list[TableView | None] | Notice:
        """Each view a device may have acted on (None: the table as it is)."""
        views = []
        for revision in seen if isinstance(seen, tuple) else (seen,):
            shown = self._shown(revision)
            if isinstance(shown, Notice):
                return shown
            views.append(shown)
        # The same view twice is one view.
        return views if any(views) else [None]

    def _unless_changed(
        self,
        seen: Seen,
        changed: Callable[[TableView], bool],
        key: str,
        action: Callable[[], Notice | None],
    ) -> Notice | None:
        """``action`` in order, unless it would not mean the same on a view the
        device may have shown: then refused with the notice ``key``."""
        views = self._views_shown(seen)
        if isinstance(views, Notice):
            return views
        if any(shown is not None and changed(shown) for shown in views):
            return _changed_first(key)
        return self._in_order(action)

    def _still_open(self, shown: TableView, seat: int) -> Notice | None:
        """Refused unless the trick shown is still entered and ``seat`` still empty."""
        now = self._view()
        # The seats as that device showed them: the trick may be recorded now.
        base = shown.replay if shown.entry.editing is None else self.base()
        players = base.prompt().seats
        player = players[seat] if seat < len(players) else ""
        if now.trick != shown.trick:
            recorded = (
                now.entry.editing is None
                and shown.entry.editing is None
                and now.events == shown.events + 1
                and now.replay.log.events[:-1] == shown.replay.log.events
                and (now.last or {}).get("type") == "trick"
            )
            if recorded:
                return _changed_first("table.seat-taken-elsewhere", player=player)
            return _changed_first("table.trick-changed-elsewhere")
        taps = now.entry.active
        if now.entry.pending is not None or (seat < len(taps) and taps[seat]):
            return _changed_first("table.seat-taken-elsewhere", player=player)
        return None

    def _card_still_free(
        self, shown: TableView, code: str, copy_number: int | None
    ) -> Notice | None:
        """Refused when another device entered this card since it was shown."""
        try:
            card = str(Card.parse(code))
        except CardError:
            return None  # the tap itself says what is wrong with it
        if not isinstance(self._free_copy(card, copy_number), Notice):
            return None
        # Not free now: refused here only if it was free on the view shown.
        for at, slot in enumerate(self._entry.active):
            if (
                slot is not None
                and slot[0] == card
                and copy_number in (None, slot[1])
                and slot not in shown.entry.active
            ):
                return _changed_first(
                    "table.card-taken-elsewhere",
                    card=card,
                    player=self.prompt().seats[at],
                )
        return None

    def _same_card(self, shown: TableView, at: object) -> Notice | None:
        """Refused unless seat ``at`` holds the card the device showed there."""
        now = self._view()
        players = self.prompt().seats
        if not isinstance(at, int) or not 0 <= at < len(players):
            return None  # the take-back itself says what is wrong with it
        before = shown.entry.active[at] if at < len(shown.entry.active) else None
        after = now.entry.active[at] if at < len(now.entry.active) else None
        if now.trick != shown.trick or before != after:
            return _changed_first("table.seat-changed-elsewhere", player=players[at])
        return None

    # how an action is done

    def _free_copy(self, card: str, copy_number: int | None) -> Slot | Notice:
        """The copy of ``card`` a tap takes, or why it cannot be tapped."""
        copies = [slot for slot in self.layout() if slot[0] == card]
        if copy_number is not None:
            copies = [slot for slot in copies if slot[1] == copy_number]
        if not copies:
            return _refused("table.not-a-card", card=card)
        played, tapped, held_back = self._spent()
        for slot in copies:
            if slot not in played and slot not in tapped and slot not in held_back:
                return slot
        if any(slot in tapped for slot in copies):
            return _refused("table.already-tapped", card=card)
        if any(slot in played for slot in copies):
            return _refused("table.already-played", card=card)
        return _refused("table.not-offered", card=card)

    def _enter(
        self, event: Event, before: Entry, held: Entry, *, refused: Entry
    ) -> Notice | None:
        """Write ``event``: appended, or in place of the event being re-entered.

        ``held`` is the entry with the event complete (kept with the event
        pending when the rules need a choice); ``refused`` the entry to go
        back to when the event is refused.
        """
        number = held.editing
        target = number if number is not None else len(self.events) + 1
        change: _Append | _Replace = (
            _Append(event)
            if number is None
            else _Replace(number, copy.deepcopy(self.events[number - 1]), event)
        )
        try:
            self._store_change(change, forward=True)
        except _MovedOn as moved:
            self._reload(moved.stored)
            return _moved_on()
        except ChoiceNeeded as need:
            if need.event in (None, target):
                after = replace(held, pending=event, choice=need)
                self._done(_Done(before, after))
                return None
            # A later event needs a choice after this edit: that event must be
            # re-entered on its own.
            self._back_to(before, refused)
            return _refused("table.refused", reason=error_text(need, target))
        except CompanionError as error:
            self._back_to(before, refused)
            return _refused("table.refused", reason=error_text(error, target))
        if event.get("type") == "trick" and held.active and all(held.active):
            self._copies[target] = _filled(held.active)
        after = Entry(live=self._still_valid(held.live) if number is not None else ())
        self._done(_Done(before, after, change), wrote=True)
        return None

    def _back_to(self, before: Entry, refused: Entry) -> None:
        """A refused event: the entry goes back to ``refused``.

        When that drops something the table had entered (the choice asked
        for), the drop is an action of its own, so Undo brings it back.
        """
        if refused == before:
            self._entry = refused
            self._settle(wrote=False)
        else:
            self._done(_Done(before, refused))

    def _done(self, item: _Done, *, wrote: bool = False) -> None:
        """A new action: it goes on the history and forgets what could be redone."""
        self._history.append(item)
        self._redo.clear()
        self._store_redo = 0
        self._entry = item.after
        self._settle(wrote=wrote)

    def _change(
        self, change: _Append | _Replace | None, *, forward: bool
    ) -> Notice | None:
        if change is None:
            return None
        try:
            self._store_change(change, forward=forward)
        except _MovedOn as moved:
            self._reload(moved.stored)
            return _moved_on()
        except CompanionError as error:
            return _refused("table.refused", reason=error)
        return None

    def _settle(self, *, wrote: bool) -> None:
        """Keep the taps for a restart; tell listeners when anything was written."""
        if self.keep_taps_later and not wrote:
            self._taps_unkept = True
            return
        self._taps_unkept = False
        wrote = self._save_taps() or wrote
        if wrote and self.on_change is not None:
            self.on_change()

    def keep_taps(self) -> None:
        """Keep the taps of the trick being entered, if a change left them unkept."""
        if self._taps_unkept:
            self._taps_unkept = False
            if self._save_taps() and self.on_change is not None:
                self.on_change()

    def _still_valid(self, taps: Taps) -> Taps:
        """``taps`` of the trick at the end of the log, if the log still offers them."""
        return self._valid_taps({**self._taps_stamp(), **_kept(taps)})

    # taps in progress, kept in the store so a restart or another device finds them

    @property
    def _taps_key(self) -> str:
        return f"trick-in-progress:{self.game_id}"

    def _taps_stamp(self) -> dict[str, Any]:
        """What the kept taps rest on: the log's length and its last event."""
        events = self.events
        return {"events": len(events), "last": events[-1] if events else None}

    def _wanted_taps(self) -> dict[str, Any] | None:
        entry = self._entry
        taps = list(entry.live)
        waiting = entry.editing is None and entry.pending is not None
        if waiting and entry.last is not None:
            # A trick waiting for a choice is kept without its last card: a
            # restart asks for that card again, and with it for the choice.
            taps[entry.last] = None
        if not any(card is not None for card in taps):
            return None
        return {**self._taps_stamp(), **_kept(tuple(taps))}

    def _save_taps(self) -> bool:
        """Write the live taps if they changed; True when something was written."""
        wanted = self._wanted_taps()
        if wanted == self._saved_taps:
            return False
        if wanted is None and not self._valid_taps(self._saved_taps):
            # What is kept already rests on another log: it will never be restored.
            return False
        self._write_setting(self._taps_key, wanted)
        self._saved_taps = wanted
        return True

    def _valid_taps(self, kept: Any) -> Taps:
        """The kept taps if they still fit the log's trick in progress, else none."""
        if not isinstance(kept, dict) or self._replay.state.finished:
            return ()
        prompt = self._replay.prompt()
        cards, copies = kept.get("cards"), kept.get("copies")
        stamp = {key: value for key, value in kept.items() if key in ("events", "last")}
        if (
            "trick" not in prompt.expects
            or stamp != self._taps_stamp()
            or not isinstance(cards, list)
            or not isinstance(copies, list)
            or len(cards) != len(prompt.seats)
            or len(copies) != len(cards)
            or all(card is None for card in cards)
            or None not in cards
        ):
            return ()
        taps: Taps = tuple(
            (card, number)
            if isinstance(card, str) and isinstance(number, int)
            else None
            for card, number in zip(cards, copies, strict=True)
        )
        with self._live_view():
            played, _, held_back = self._spent()
            layout = set(self.layout())
        chosen = [slot for slot in taps if slot is not None]
        if len(set(chosen)) != len(chosen) or any(
            slot not in layout or slot in played or slot in held_back for slot in chosen
        ):
            return ()
        return taps

    @contextlib.contextmanager
    def _live_view(self) -> Iterator[None]:
        """The views of the trick at the end of the log, with nothing tapped."""
        entry, self._entry = self._entry, Entry()
        try:
            yield
        finally:
            self._entry = entry

    # loading

    def _adopt_stored(self, stored: StoredGame) -> None:
        self._replay = replay(stored.log)
        self._seen_rev = stored.rev
        self._store_redo = len(stored.redo)
        self._saved_taps = self._read_taps()
        self._entry = Entry(live=self._valid_taps(self._saved_taps))

    def _adopt(self, result: Replay) -> None:
        """The store's replay after a write of this session."""
        self._replay = result
        self._seen_rev += 1  # the store counts one revision a write
        self._generation = self.store.generation

    def _reload(self, stored: StoredGame) -> None:
        """Another device wrote: show its game; what rested on the old log goes."""
        self._history.clear()
        self._redo.clear()
        self._adopt_stored(stored)
        self._generation = self.store.generation

    def _fresh(self, stored: StoredGame) -> bool:
        return stored.rev == self._seen_rev

    # The store, in one place. Every write of the game carries the revision
    # this session last saw; the store refuses it in the same locked step if
    # another device wrote since (StaleGameError).

    def _read(self) -> StoredGame:
        return self.store.load(self.game_id)

    def _read_taps(self) -> Any:
        return self.store.get_setting(self._taps_key)

    def _write_setting(self, key: str, value: Any) -> None:
        self.store.set_setting(key, value)
        self._generation = self.store.generation

    def _checked(self, write: Callable[[int], Replay]) -> Replay:
        """Run a write of this game, given the revision this session saw."""
        try:
            return write(self._seen_rev)
        except StaleGameError:
            raise _MovedOn(self._read()) from None

    def _store_change(self, change: _Append | _Replace, *, forward: bool) -> None:
        self._adopt(self._checked(lambda rev: self._store_call(change, forward, rev)))

    def _store_call(
        self, change: _Append | _Replace, forward: bool, rev: int
    ) -> Replay:
        store, game_id = self.store, self.game_id
        if isinstance(change, _Append):
            if forward:
                return store.append(game_id, change.event, expected_rev=rev)
            return store.undo(game_id, expected_rev=rev)
        event = change.new if forward else change.old
        return store.replace_event(game_id, change.number, event, expected_rev=rev)


# The one session of each game open in this process, by store and game id.
_SHARED: weakref.WeakKeyDictionary[Store, weakref.WeakValueDictionary[str, GameSession]]
_SHARED = weakref.WeakKeyDictionary()
_SHARED_LOCK = threading.Lock()


def shared_session(
    store: Store, game_id: str, *, keep_taps_later: bool = False
) -> GameSession:
    """The table's session of a game: every device showing it acts through it.

    Kept while any device holds it; the first device to open the game makes
    it, and the others share its entry, its undo history and its revision.
    """
    with _SHARED_LOCK:
        games = _SHARED.setdefault(store, weakref.WeakValueDictionary())
        session = games.get(game_id)
        if session is None:
            session = GameSession(store, game_id, keep_taps_later=keep_taps_later)
            games[game_id] = session
        return session


def _kept(taps: Taps) -> dict[str, list[Any]]:
    """Taps as the store keeps them: the cards, and which copy of each."""
    return {
        "cards": [slot[0] if slot else None for slot in taps],
        "copies": [slot[1] if slot else None for slot in taps],
    }


def _filled(taps: Taps) -> tuple[Slot, ...]:
    """The slots of a trick whose every seat is filled."""
    return tuple(slot for slot in taps if slot is not None)


def _slots(cards: tuple[Card, ...]) -> tuple[Slot, ...]:
    seen: Counter[str] = Counter()
    slots: list[Slot] = []
    for card in cards:
        code = str(card)
        slots.append((code, seen[code]))
        seen[code] += 1
    return tuple(slots)


def error_text(error: CompanionError, number: int) -> str:
    """A refusal in the players' words: the event number only when it is another."""
    if isinstance(error, LogError) and error.event in (None, number):
        return error.message
    return str(error)
