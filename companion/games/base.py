"""The contract every game's rules engine keeps, and what engines share.

An engine is stateless; it starts a :class:`State` from the log's header and
applies events to it one by one. Each applied event yields an
:class:`Outcome`: the reasons a player can check against the table, and
warnings that never stop the replay.
"""

from __future__ import annotations

import json
import re
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar, Generic, TypeVar

from companion.cards import Card
from companion.errors import CardError, FormatError, RuleError
from companion.log import HEADER

# One event of the log: a JSON object with a "type". Engines read its fields
# through the need* helpers below, which refuse a missing or malformed field.
Event = dict[str, Any]
# Each player's figure, by name; what it measures is the game's GameSpec.measure.
Totals = dict[str, int]
# What the summary says of one player, field by field (plain JSON values).
PlayerView = dict[str, Any]

# How a game describes itself to the rest of the program: everything a screen,
# the statistics or the rules search needs to know about a game without
# naming it. Each game's module declares one GameSpec; a sixth game adds its
# module and its slug in ``companion.games`` and nothing else.


@dataclass(frozen=True)
class Words:
    """The same name or title in each language the companion speaks."""

    en: str
    ja: str

    def get(self, lang: str) -> str:
        return self.ja if lang == "ja" else self.en


# The text colours a card's label takes on its suit's colour: whichever of the
# two reads at 4.5:1 or better (WCAG AA) on it.
WHITE_LABEL = "#FFFFFF"
DARK_LABEL = "#1C1B1F"


# The symbols of suits whose cards show only a colour: one shape per colour,
# the same in every game, drawn by the app's font in both languages.
RED_MARK, BLUE_MARK, YELLOW_MARK, GREEN_MARK, PURPLE_MARK = "●", "◆", "★", "▲", "■"


@dataclass(frozen=True)
class Suit:
    code: str
    name: Words
    colour: str  # "#rrggbb", so the core stays free of any UI toolkit
    # what a card's label shows after its number, so that a card reads the same
    # in the grid, the reasons and an export, with or without the suit's colour
    symbol: str
    label: str = WHITE_LABEL  # the text colour on ``colour``
    # a standard deck's suit: its 1, 11, 12 and 13 read A, J, Q and K
    faces: bool = False


# Option kinds, and the entry a form offers for each.
CHOICE = "choice"  # one of ``allowed``, as buttons
SUIT = "suit"  # one suit of the deck ``allowed_by`` names, as buttons
NUMBER = "number"  # a whole number, typed
NUMBERS = "numbers"  # a list of whole numbers, typed "0, -2, -3"
NUMBER_SET = "number-set"  # some of ``allowed``, toggled
CARD = "card"  # one card code of ``allowed``, as buttons
CARD_POINTS = "card-points"  # points per card code; ``allowed`` are the typed ones


@dataclass(frozen=True)
class OptionSpec:
    """One option of a game's log header.

    ``confirmed`` options are the edition numbers a table confirms once: the
    new-game form shows them with their defaults and remembers what was typed.
    ``tag`` is the prefix of the form's identifiers for the option's entries,
    ``heading`` the text key shown above them (none: no heading).
    """

    name: str
    kind: str
    default: object
    by_count: Mapping[int, object] = field(default_factory=dict, hash=False)
    allowed: tuple[Any, ...] = ()
    # SUIT options: the option whose value picks the suits on offer, and the
    # suits for each of its values
    allowed_by: str | None = None
    allowed_for: Mapping[str, tuple[str, ...]] = field(
        default_factory=dict, hash=False
    )
    confirmed: bool = False
    tag: str = ""
    heading: str | None = None
    # the player counts the option means something at (empty: every count)
    counts: tuple[int, ...] = ()

    def default_for(self, player_count: int) -> Any:
        value = self.by_count.get(player_count, self.default)
        return json.loads(json.dumps(value))  # a fresh copy, safe to change

    def offered_for(self, chosen: Mapping[str, Any]) -> tuple[Any, ...]:
        if self.allowed_by is None:
            return self.allowed
        return self.allowed_for[str(chosen[self.allowed_by])]


# What a round start asks the table.
LEADER = "leader"  # who leads
LEADER_BY_RULE = "leader-by-rule"  # after the first round the rules may say who
TWO_OCLOCK_HOLDER = "two-oclock-holder"  # the leader is whoever holds Two o'clock
GIFT = "gift"  # the round's gift card text
REVERSED = "reversed"  # whether the order is turned around

# How many rounds a game has, for headings and tables.
MANY_ROUNDS, ONE_DEAL, NO_ROUNDS = "many", "one", "none"

# How a chart of the totals steps forward.
ROUND_STEP, PILE_STEP, EVENT_STEP = "round", "pile", "event"


def _plain_figures(view: Mapping[str, Any], options: Mapping[str, Any]) -> dict:
    return dict(view)


@dataclass(frozen=True, order=True)
class Best:
    """How good one finished game was for one player, by that game's win rule.

    ``rank`` compares games (larger is better, a win above any loss where
    the rule says so); ``value`` is the figure shown for the best of them.
    """

    rank: tuple[int, ...]
    value: int


Ranking = Callable[[Mapping[str, Any], str], "Best | None"]


def best_by_totals(lower_is_better: bool = False) -> Ranking:
    """The ranking of a game whose best figure is its highest (or lowest) total."""

    def best(summary: Mapping[str, Any], name: str) -> Best:
        total = int(summary["totals"][name])
        return Best((-total if lower_is_better else total,), total)

    return best


@dataclass(frozen=True)
class GameSpec:
    """Everything the rest of the program knows about one game."""

    slug: str
    title: Words
    # the other names players use for the game, in either language
    aliases: tuple[str, ...]
    player_counts: range
    suits: tuple[Suit, ...] = ()
    options: tuple[OptionSpec, ...] = ()
    # the per-player summary fields a screen shows, in order
    figures: tuple[str, ...] = ()
    # figures worked out from a player's view and the options, for screens
    derived_figures: Callable[[Mapping[str, Any], Mapping[str, Any]], dict] = field(
        default=_plain_figures, compare=False
    )
    # what the totals measure ("points", "life", "curse-points", "fortunes")
    measure: str = "points"
    lower_is_better: bool = False
    # True when the round scores add up to the totals; False when each round's
    # score is already the running figure (life at the round's end)
    summed_rounds: bool = True
    chart_step: str = ROUND_STEP
    # for PILE_STEP and EVENT_STEP: the events after which a chart takes a point
    chart_events: frozenset[str] = frozenset()
    rounds: str = MANY_ROUNDS
    has_tricks: bool = True
    round_asks: tuple[str, ...] = (LEADER,)
    # the event fields a trick may need the table to choose (see ChoiceNeeded)
    trick_choices: tuple[str, ...] = ()
    # True when the new-game form records the first round with its leader
    leader_at_start: bool = True
    # True when the piles may be counted at the end instead of trick by trick
    counted_at_end: bool = False
    # how one finished game ranks for a player, by the game's own win rule
    # (None: the game does not count towards the player's best)
    best_of: Ranking = field(default=best_by_totals(), compare=False)
    # what best_of calls best, for a screen's words ("stats.best-rule.<name>")
    best_rule: str = "highest"
    # the word for what the game's story is counted in: "round", "pile", "spell"
    unit: str = "round"

    def __deepcopy__(self, memo: dict[int, Any]) -> GameSpec:
        # a game's description never changes: a copied state shares it
        return self

    def title_in(self, lang: str) -> str:
        return self.title.get(lang)

    @property
    def names(self) -> tuple[str, ...]:
        """Every name the game goes by: titles first, then the aliases."""
        return tuple(dict.fromkeys((self.title.en, self.title.ja, *self.aliases)))

    def names_in(self, lang: str) -> tuple[str, ...]:
        """The names written in ``lang``'s script, its title first."""
        latin = lang == "en"
        written = (name for name in self.aliases if name.isascii() == latin)
        return tuple(dict.fromkeys((self.title_in(lang), *written)))

    @property
    def has_rounds(self) -> bool:
        return self.rounds != NO_ROUNDS

    @cached_property
    def _suits_by_code(self) -> dict[str, Suit]:
        # read on every trick's reasons, so looked up rather than searched
        return {suit.code: suit for suit in self.suits}

    def suit(self, code: str) -> Suit | None:
        return self._suits_by_code.get(code)

    def suit_name(self, code: str, lang: str = "en") -> str:
        suit = self._suits_by_code.get(code)
        return code if suit is None else suit.name.get(lang)

    def suit_colours(self) -> dict[str, str]:
        return {suit.code: suit.colour for suit in self.suits}

    def suit_label_colours(self) -> dict[str, str]:
        """The text colour on each suit's colour, by its code."""
        return {suit.code: suit.label for suit in self.suits}

    def code_label(self, code: str) -> str:
        """:meth:`card_label` of a card as the log writes it (its code)."""
        try:
            return self.card_label(Card.parse(code))
        except CardError:
            return code

    def codes_label(self, codes: str) -> str:
        """The labels of cards the log writes as codes separated by spaces."""
        return " ".join(self.code_label(code) for code in codes.split())

    def labelled(self, message: str) -> str:
        """A message of the rules (a refusal) with every card code of this game
        in it read as the card's label."""
        return _CODE_IN_TEXT.sub(
            lambda found: self.code_label(found.group(0))
            if self.suit(found.group(1)) is not None
            else found.group(0),
            message,
        )

    def card_label(self, card: Card) -> str:
        """How a card reads wherever a player sees it: its number (or face) and
        its suit's symbol, as the grid shows it."""
        suit = self.suit(card.suit)
        if suit is None:
            return str(card)
        number = _FACES.get(card.number) if suit.faces else None
        return f"{number or card.number}{suit.symbol}"

    def places(
        self, winners: Sequence[str], totals: Mapping[str, int]
    ) -> list[tuple[int, str]]:
        """A finished game's final standing, as (place, name): the winners share
        the first place whatever their figure (the win rule may not crown the
        best total), the others follow by their figure, equal figures sharing
        a place."""
        sign = 1 if self.lower_is_better else -1
        by_figure = sorted(totals, key=lambda name: sign * totals[name])
        rest = [name for name in by_figure if name not in winners]
        standing = [(1, name) for name in by_figure if name in winners]
        for at, name in enumerate(rest):
            tied = at and totals[rest[at - 1]] == totals[name]
            place = standing[-1][0] if tied else len(standing) + 1
            standing.append((place, name))
        return standing

    def option(self, name: str) -> OptionSpec:
        return next(option for option in self.options if option.name == name)

    def default_options(self, player_count: int) -> dict[str, Any]:
        return {
            option.name: option.default_for(player_count) for option in self.options
        }

    @property
    def confirmed_options(self) -> tuple[OptionSpec, ...]:
        return tuple(option for option in self.options if option.confirmed)

    def player_figures(
        self, view: Mapping[str, Any], options: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The figures a screen shows for one player, by field."""
        return self.derived_figures(view, options)


_FACES = {1: "A", 11: "J", 12: "Q", 13: "K"}
_CODE_IN_TEXT = re.compile(r"\b([A-Z])\d{1,2}\b")


@dataclass(frozen=True)
class Reason:
    """One sentence of explanation and the rules-reference topic it rests on.

    ``key`` ("<slug>.<name>" or "common.<name>") names the message so that a
    screen can show it in another language with the same ``params``; ``text``
    is the English sentence, put together only when someone reads it (a replay
    makes hundreds of reasons and most are never shown).
    """

    key: str
    topic: str
    template: str = field(repr=False)
    params: dict[str, str] = field(default_factory=dict, hash=False)
    # the game whose cards the params name; None for a reason of no game
    spec: GameSpec | None = field(default=None, repr=False, compare=False)

    @property
    def text(self) -> str:
        """The sentence with the log's own codes (the developer's explanation)."""
        return self.template.format(**self.params)

    @property
    def shown_params(self) -> dict[str, str]:
        """The params as a player reads them: cards by their labels, suits
        by their symbols, never by the log's codes."""
        spec = self.spec
        if spec is None:
            return self.params
        shown = dict(self.params)
        for key in CARD_PARAMS & shown.keys():
            shown[key] = spec.codes_label(shown[key])
        for key in PLAYS_PARAMS & shown.keys():
            shown[key] = _PLAYED.sub(
                lambda found: f"({spec.code_label(found.group(1))})", shown[key]
            )
        for key in SUIT_CODE_PARAMS & shown.keys():
            suit = spec.suit(shown[key])
            shown[key] = suit.symbol if suit is not None else shown[key]
        return shown

    @property
    def shown_text(self) -> str:
        """The English sentence a player reads."""
        return self.template.format(**self.shown_params)


# The reason params that name cards by their codes (one, or several with spaces
# between), and those that name a suit by its code.
CARD_PARAMS = frozenset({"card", "cards", "curse", "old"})
SUIT_CODE_PARAMS = frozenset({"code"})
# params naming players with the card each played: "Ann (W4), Cy (F4)"
PLAYS_PARAMS = frozenset({"others"})
_PLAYED = re.compile(r"\(([A-Z]\d{1,2})\)")


@dataclass
class Outcome:
    reasons: list[Reason] = field(default_factory=list)
    warnings: list[Reason] = field(default_factory=list)


# Messages every game may use: name -> (topic, English template).
COMMON_TEXTS: dict[str, tuple[str, str]] = {
    "showed-out": (
        "follow-suit",
        "{player} plays {card} but did not follow {suit} earlier this round: "
        "check the cards",
    ),
}


@dataclass
class State:
    """What every game's state has; each engine extends it."""

    players: list[str]
    options: dict[str, Any]
    finished: bool = False
    winners: list[str] = field(default_factory=list)
    rounds: list[dict[str, Any]] = field(default_factory=list)
    leader: str | None = None
    # the reasons that decided who won, given as the game ended
    verdict: list[Reason] = field(default_factory=list)


S = TypeVar("S", bound=State)

EventHandler = Callable[[Any, Any, Event], Outcome]


def handles(kind: str) -> Callable[[EventHandler], EventHandler]:
    """Marks an engine method as the one that applies events of type ``kind``."""

    def mark(method: EventHandler) -> EventHandler:
        method.handles = kind  # type: ignore[attr-defined]
        return method

    return mark


@dataclass(frozen=True)
class Summary:
    """Where a replayed game stands, as the log specification words it."""

    game: str
    finished: bool
    winners: tuple[str, ...]
    totals: Totals
    rounds: tuple[dict[str, Any], ...]
    leader: str | None
    players: dict[str, PlayerView]

    def to_dict(self) -> dict[str, Any]:
        """The summary as JSON, keys in the specification's order."""
        return {
            "game": self.game,
            "finished": self.finished,
            "winners": list(self.winners),
            "totals": dict(self.totals),
            "rounds": [dict(entry) for entry in self.rounds],
            "leader": self.leader,
            "players": dict(self.players),
        }


@dataclass(frozen=True)
class Prompt:
    """What the table records next, for a screen to offer.

    ``expects`` are the event types allowed now (empty once the game is over);
    ``seats`` who plays the next trick, leader first; ``cards`` the cards that
    may still turn up this round, in suit and number order, a card held in
    several copies once per copy still unplayed; ``leads`` the only cards the
    leader may lead, when the rules name them (empty: any card).
    """

    expects: tuple[str, ...]
    seats: tuple[str, ...] = ()
    cards: tuple[Card, ...] = ()
    leads: tuple[Card, ...] = ()


# A game's CSV, as a player would write it on paper: each game names its
# columns and says which rows an event adds (Engine.sheet_columns and
# Engine.sheet_rows); companion.export writes the file in the reader's language.


@dataclass(frozen=True)
class Say:
    """A heading or a cell read from the screen texts (``key`` in data/i18n)."""

    key: str
    name: str = ""  # the player the text is about, as "{name}"
    word: str = ""  # one of the game's words, translated, as "{word}"


@dataclass(frozen=True)
class Word:
    """A cell holding one of the game's words (a state, a side), translated."""

    value: str


Cell = str | int | Say | Word | None
Row = list[Cell]


def round_columns(players: Sequence[str]) -> list[Say]:
    """A round number, then each player's points and running total."""
    columns = [Say("export.round")]
    for name in players:
        columns += [Say("export.points-of", name), Say("export.total-of", name)]
    return columns


def round_rows(before: State, after: State) -> list[Row]:
    """One row per round the event completed: the points and running totals."""
    rows: list[Row] = []
    for at in range(len(before.rounds), len(after.rounds)):
        row: Row = [at + 1]
        so_far = after.rounds[: at + 1]
        for name in after.players:
            running = sum(int(entry["scores"][name]) for entry in so_far)
            row += [int(after.rounds[at]["scores"][name]), running]
        rows.append(row)
    return rows


class Engine(ABC, Generic[S]):
    """A game's rules over its own state ``S``.

    Each event type is applied by the one method marked ``@handles(type)``.
    Malformed events are refused with a LogError (the need* helpers below);
    any other exception out of an engine is a bug, never a bad log.
    """

    spec: ClassVar[GameSpec]
    # copied from the spec once, as every reason an engine gives names its slug
    slug: ClassVar[str]
    title: ClassVar[str]
    player_counts: ClassVar[range]
    # event type -> the method that applies it, gathered from @handles marks
    handlers: ClassVar[dict[str, EventHandler]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.handlers = {
            **cls.handlers,
            **{
                method.handles: method
                for method in vars(cls).values()
                if isinstance(getattr(method, "handles", None), str)
            },
        }
        spec = vars(cls).get("spec")
        if spec is not None:
            cls.slug, cls.title = spec.slug, spec.title.en
            cls.player_counts = spec.player_counts
    # topic id -> short title; every Reason.topic an engine uses is listed here
    topics: ClassVar[dict[str, str]]
    # message name -> (topic, English template with {named} fields)
    texts: ClassVar[dict[str, tuple[str, str]]]

    def check_players(self, players: list[str]) -> None:
        low, high = self.player_counts.start, self.player_counts.stop - 1
        if len(players) not in self.player_counts:
            raise FormatError(
                f"{self.title} is for {low} to {high} players, "
                f"this game has {len(players)}",
                HEADER,
            )

    @abstractmethod
    def options(self, players: list[str], given: dict[str, Any]) -> dict[str, Any]:
        """Every option with its default filled in; raise FormatError if invalid."""

    @abstractmethod
    def start(self, players: list[str], options: dict[str, Any]) -> S: ...

    def apply(self, state: S, event: Event) -> Outcome:
        """Change ``state`` by one event, or raise a LogError."""
        kind = event.get("type")
        handler = self.handlers.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise unknown_event(self, event)
        return handler(self, state, event)

    @abstractmethod
    def totals(self, state: S) -> Totals: ...

    @abstractmethod
    def player_view(self, state: S, name: str) -> PlayerView: ...

    @abstractmethod
    def prompt(self, state: S) -> Prompt: ...

    def sheet_columns(self, players: Sequence[str]) -> list[Say]:
        """The headings of the game's CSV (by default: rounds, see round_rows)."""
        return round_columns(players)

    def sheet_rows(self, before: S, after: S, event: Event, number: int) -> list[Row]:
        """The CSV rows event ``number`` adds, from the states around it."""
        return round_rows(before, after)

    def where_cards_are(self, state: S) -> dict[str, Counter[Card]]:
        """Every card played this round, by where it lies now (for checks)."""
        return {}

    def reason(self, name: str, **params: object) -> Reason:
        if name in self.texts:
            key, (topic, template) = f"{self.slug}.{name}", self.texts[name]
        else:
            key, (topic, template) = f"common.{name}", COMMON_TEXTS[name]
        return Reason(
            key, topic, template, {k: str(v) for k, v in params.items()}, self.spec
        )

    def say(self, outcome: Outcome, name: str, **params: object) -> None:
        outcome.reasons.append(self.reason(name, **params))

    def decide(
        self, state: State, outcome: Outcome, name: str, **params: object
    ) -> None:
        """Say a reason that decides who wins, and keep it as the game's verdict."""
        reason = self.reason(name, **params)
        outcome.reasons.append(reason)
        state.verdict.append(reason)

    def warn(self, outcome: Outcome, name: str, **params: object) -> None:
        outcome.warnings.append(self.reason(name, **params))

    def summary(self, state: S) -> Summary:
        return Summary(
            game=self.slug,
            finished=state.finished,
            winners=tuple(state.winners) if state.finished else (),
            totals=self.totals(state),
            rounds=tuple(dict(r) for r in state.rounds),
            leader=None if state.finished else state.leader,
            players={name: self.player_view(state, name) for name in state.players},
        )


# Reading events: each helper raises a FormatError naming the missing or bad field.


def unknown_event(engine: Engine[Any], event: Event) -> FormatError:
    return FormatError(
        f'"{event.get("type")}" is not an event of {engine.title}'
    )


def need(event: Event, key: str) -> Any:
    if key not in event:
        raise FormatError(f'the {event.get("type")} event needs "{key}"')
    return event[key]


def need_player(state: State, event: Event, key: str) -> str:
    name = need(event, key)
    if name not in state.players:
        raise RuleError(f"{json.dumps(name)} is not a player in this game")
    return name


def need_int(event: Event, key: str, meaning: str, minimum: int = 0) -> int:
    """A whole number (never a boolean) of at least ``minimum``."""
    value = need(event, key)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise FormatError(
            f'"{key}" is {meaning}: a whole number {minimum} or more, '
            f"not {json.dumps(value)}"
        )
    return value


def need_list(event: Event, key: str, problem: str) -> list[Any]:
    """A list; ``problem`` says what the field should hold when it is not one."""
    value = event.get(key)
    if not isinstance(value, list):
        raise FormatError(problem)
    return value


# A card code read as a card (CardError when it is not one); Card.parse itself,
# as it runs for every card of every trick.
need_card: Callable[[object], Card] = Card.parse


def need_choice(event: Event, key: str, allowed: list[str]) -> str:
    value = need(event, key)
    if value not in allowed:
        raise FormatError(
            f'"{key}" must be one of {", ".join(allowed)}, not {json.dumps(value)}'
        )
    return value


def reject_unknown_options(
    engine: Engine[Any], given: dict[str, Any], known: set[str]
) -> None:
    for name in given:
        if name not in known:
            raise FormatError(
                f'"{name}" is not an option of {engine.title} '
                f"(its options: {', '.join(sorted(known)) or 'none'})",
                HEADER,
            )


def option_error(message: str) -> FormatError:
    return FormatError(message, HEADER)
