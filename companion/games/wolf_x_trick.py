"""Wolf x Trick: one deal, every trick a pile of its own, and the second-best wins.

A game is recorded in one of two ways, never both: trick by trick (a
``round`` event, then every trick's cards) or, when the table only counts at
the end, one ``pile`` event per pile with its Full Moons already counted.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from companion.cards import Card, deck_of
from companion.errors import RuleError
from companion.games.base import (
    BLUE_MARK,
    DARK_LABEL,
    GREEN_MARK,
    NUMBER_SET,
    NUMBERS,
    ONE_DEAL,
    PILE_STEP,
    PURPLE_MARK,
    RED_MARK,
    YELLOW_MARK,
    Best,
    Engine,
    Event,
    GameSpec,
    OptionSpec,
    Outcome,
    PlayerView,
    Prompt,
    Row,
    Say,
    State,
    Suit,
    Totals,
    Words,
    handles,
    need_int,
    need_player,
    option_error,
    reject_unknown_options,
)
from companion.games.tricks import (
    FollowWatch,
    RoundCards,
    clockwise,
    highest_of,
    left_of,
    read_trick,
)

SUPER_FULL_MOON = 8
TRICKS, PILES = "tricks", "piles"
DEFAULT_RANKS = list(range(1, 12))

def _closest_to_a_win(summary: Mapping[str, Any], name: str) -> Best | None:
    """A win is best; otherwise the nearer the winner's points, the better.

    The highest total does not win this game, so "best" is not the highest
    total: it is the game the player won, or came closest to winning. A
    draw has no winning total to come close to and does not count.
    """
    winners = summary["winners"]
    if not winners:
        return None
    total = int(summary["totals"][name])
    if name in winners:
        return Best((1, 0), total)
    missed_by = abs(total - int(summary["totals"][winners[0]]))
    return Best((0, -missed_by), total)


SPEC = GameSpec(
    slug="wolf-x-trick",
    title=Words("Wolf x Trick", "ウルフ×トリック"),
    aliases=(
        "wolf × trick",
        "wolfxtrick",
        "wolf trick",
        "werewolf",
        "wolf",
        "オオカミ×トリック",
        "オオカミトリック",
        "ウルフトリック",
        "ウルフ・トリック",
        "オオトリ",
        "ウルフ",
        "人狼",
        "オオカミ",
        "おおかみ",
        "狼",
        "okami",
        "okami trick",
        "ookami",
        "ookami trick",
        # What players call it when the name escapes them.
        "werewolf game",
        "werewolf card game",
        "wolf game",
        "wolf card game",
        "moon game",
        "moon card game",
        "moon trick game",
        "full moon game",
        "full moon trick game",
        "full moon card game",
        "werewolf trick",
        "werewolf moon game",
        "werewolf moon card game",
        "月のゲーム",
        "満月のゲーム",
        "満月ゲーム",
        "満月のトリック",
        "満月トリック",
        "人狼のゲーム",
        "人狼ゲーム",
        "おおかみのゲーム",
        "狼のゲーム",
        "the moon one",
        "the moons one",
        "game with the moons",
        "game with moons",
        "満月のやつ",
        "月のやつ",
    ),
    player_counts=range(2, 6),
    # in play order: a game uses as many suits as it has players
    suits=(
        Suit("R", Words("red", "赤"), "#C62828", RED_MARK),
        Suit("B", Words("blue", "青"), "#1565C0", BLUE_MARK),
        Suit("Y", Words("yellow", "黄"), "#FFA000", YELLOW_MARK, DARK_LABEL),
        Suit("G", Words("green", "緑"), "#2E7D32", GREEN_MARK),
        Suit("P", Words("purple", "紫"), "#8E24AA", PURPLE_MARK),
    ),
    options=(
        OptionSpec("ranks", NUMBERS, DEFAULT_RANKS),
        # Editions mark different numbers as Full Moons: confirmed once.
        OptionSpec(
            "full_moon_ranks",
            NUMBER_SET,
            [],
            # the Super Full Moon always counts: it is not the table's to mark
            allowed=tuple(n for n in DEFAULT_RANKS if n != SUPER_FULL_MOON),
            confirmed=True,
            tag="moon",
            heading="new.full-moons",
        ),
    ),
    figures=("piles", "eliminated"),
    measure="points",
    best_of=_closest_to_a_win,
    best_rule="nearest-win",
    unit="pile",
    summed_rounds=False,
    chart_step=PILE_STEP,
    chart_events=frozenset({"trick", "pile"}),
    rounds=ONE_DEAL,
    counted_at_end=True,
)
SUITS: tuple[str, ...] = tuple(suit.code for suit in SPEC.suits)


@dataclass
class WolfXTrickState(State):
    mode: str | None = None  # TRICKS or PILES, fixed by the first event
    piles: dict[str, list[int]] = field(default_factory=dict)
    # trick mode only: the cards of each player's piles, for where_cards_are
    pile_cards: dict[str, Counter[Card]] = field(default_factory=dict)
    round_cards: RoundCards | None = None
    watch: FollowWatch = field(default_factory=FollowWatch)
    # pile mode only: moon cards counted so far, to refuse impossible counts
    full_counted: int = 0
    super_counted: int = 0
    eliminated: list[str] = field(default_factory=list)

    def pile_count(self) -> int:
        return sum(len(piles) for piles in self.piles.values())

    def points(self, name: str) -> int:
        return sum(self.piles[name])


def _numbers(name: str, value: object) -> list[int]:
    """An option that lists card numbers, each once, as plain whole numbers."""
    if not isinstance(value, list) or not all(
        isinstance(n, int) and not isinstance(n, bool) for n in value
    ):
        raise option_error(
            f'"{name}" must be a list of card numbers, not {json.dumps(value)}'
        )
    for n in value:
        if not 1 <= n <= 99:
            raise option_error(f'"{name}" lists {n}; card numbers run from 1 to 99')
        if value.count(n) > 1:
            raise option_error(f'"{name}" lists {n} twice')
    return sorted(value)


def _count(event: Event, key: str) -> int:
    return need_int(event, key, "how many cards of the pile show it")


class WolfXTrickEngine(Engine[WolfXTrickState]):
    spec = SPEC
    topics: ClassVar[dict[str, str]] = {
        "setup": "Suits by player count, and the deal",
        "follow-suit": "Following suit",
        "trick-winner": "Who wins a trick, and who leads next",
        "piles": "Each trick is a pile of its own",
        "full-moons": "Full Moons and the Super Full Moon",
        "pile-scoring": "Scoring the piles",
        "tie-elimination": "Tied players are eliminated",
        "winner": "Who wins: 0 or less, else the second highest",
    }
    texts: ClassVar[dict[str, tuple[str, str]]] = {
        "deal": (
            "setup",
            "{count} players use the {suits} suits: {tricks} tricks; "
            "{leader} leads the first",
        ),
        "counting": (
            "piles",
            "the piles are counted at the end: pile {number} of at most {tricks}",
        ),
        "trick-winner": (
            "trick-winner",
            "{player} wins with {card}, the highest {suit}",
        ),
        "leads-next": ("trick-winner", "{player} leads next, left of {winner}"),
        "pile-moons": (
            "pile-scoring",
            "{player}'s new pile scores {points}: {full} Full Moon, "
            "{super} Super Full Moon (2 each)",
        ),
        "pile-empty": (
            "pile-scoring",
            "{player}'s new pile has no Full Moon: −1 point",
        ),
        "last-trick": ("piles", "that was the last trick: the game is over"),
        "last-pile": ("piles", "that was the last pile: the game is over"),
        "ended": ("piles", "the table ends the count after {count} piles"),
        "final": ("pile-scoring", "{player} ends on {points}"),
        "tied": (
            "tie-elimination",
            "{players} are tied on {points} points and are all eliminated",
        ),
        "draw": ("winner", "everyone is eliminated by ties: the game is a draw"),
        "only-one": ("winner", "{player} is the only player left and wins"),
        "zero-or-less": (
            "winner",
            "{player} wins with {points}, the lowest total of 0 or less",
        ),
        "second": (
            "winner",
            "nobody left has 0 or less; {player} wins with {points}, the second "
            "highest after {top}",
        ),
    }

    def options(self, players: list[str], given: dict[str, Any]) -> dict[str, Any]:
        reject_unknown_options(self, given, {"ranks", "full_moon_ranks"})
        ranks = _numbers("ranks", given.get("ranks", DEFAULT_RANKS))
        if not ranks:
            raise option_error('"ranks" needs at least one number')
        moons = _numbers("full_moon_ranks", given.get("full_moon_ranks", []))
        for n in moons:
            if n not in ranks:
                raise option_error(
                    f'"full_moon_ranks" lists {n}, which is not a number of this '
                    f"deck ({', '.join(map(str, ranks))})"
                )
        return {"ranks": ranks, "full_moon_ranks": moons}

    def start(self, players: list[str], options: dict[str, Any]) -> WolfXTrickState:
        return WolfXTrickState(
            players=list(players),
            options=dict(options),
            piles={name: [] for name in players},
            pile_cards={name: Counter() for name in players},
        )

    # The deck and what a card is worth

    def suits(self, state: WolfXTrickState) -> tuple[str, ...]:
        return SUITS[: len(state.players)]

    def moons(self, state: WolfXTrickState, number: int) -> int:
        """What one card of ``number`` adds to its pile's Full Moon points."""
        if number == SUPER_FULL_MOON:
            return 2
        return 1 if number in state.options["full_moon_ranks"] else 0

    def tricks_in_game(self, state: WolfXTrickState) -> int:
        return len(state.options["ranks"])

    # Events

    def _claim_mode(self, state: WolfXTrickState, mode: str) -> None:
        if state.mode is not None and state.mode != mode:
            if mode == TRICKS:
                raise RuleError(
                    "this game's piles are being counted at the end, so tricks "
                    "cannot be recorded in it too"
                )
            raise RuleError(
                "this game is recorded trick by trick, so its piles are "
                "counted from the tricks and cannot be entered too"
            )

    @handles("round")
    def _round(self, state: WolfXTrickState, event: Event) -> Outcome:
        self._claim_mode(state, TRICKS)
        if state.mode == TRICKS:
            raise RuleError(
                "the deal has already started: Wolf x Trick is one deal, "
                "played to its last trick"
            )
        leader = need_player(state, event, "leader")
        state.mode = TRICKS
        state.round_cards = RoundCards(
            deck_of(self.suits(state), state.options["ranks"])
        )
        state.leader = leader
        out = Outcome()
        names = ", ".join(SPEC.suit_name(s) for s in self.suits(state))
        self.say(
            out,
            "deal",
            count=len(state.players),
            suits=names,
            tricks=self.tricks_in_game(state),
            leader=leader,
        )
        return out

    @handles("trick")
    def _trick(self, state: WolfXTrickState, event: Event) -> Outcome:
        self._claim_mode(state, TRICKS)
        if state.round_cards is None or state.leader is None:
            raise RuleError('no deal has started: record a "round" with its leader')
        seats = clockwise(state.players, state.leader)
        plays = read_trick(event, seats, state.round_cards)
        out = Outcome()
        lead = plays[0].card.suit
        for play in plays:
            if state.watch.broken(play):
                suit = SPEC.suit_name(play.card.suit)
                self.warn(
                    out, "showed-out", player=play.player, card=play.card, suit=suit
                )
        for play in plays:
            if play.card.suit != lead:
                state.watch.showed_out(play.player, [lead])
        state.round_cards.take(play.card for play in plays)
        best = highest_of(plays, lead)
        winner = best.player
        suit = SPEC.suit_name(lead)
        self.say(out, "trick-winner", player=winner, card=best.card, suit=suit)
        full = sum(self.moons(state, p.card.number) == 1 for p in plays)
        supers = sum(p.card.number == SUPER_FULL_MOON for p in plays)
        self._add_pile(state, winner, full, supers, out)
        state.pile_cards[winner].update(play.card for play in plays)
        if state.pile_count() == self.tricks_in_game(state):
            self.say(out, "last-trick")
            self._finish(state, out)
        else:
            state.leader = left_of(state.players, winner)
            self.say(out, "leads-next", player=state.leader, winner=winner)
        return out

    @handles("pile")
    def _pile(self, state: WolfXTrickState, event: Event) -> Outcome:
        self._claim_mode(state, PILES)
        player = need_player(state, event, "player")
        full = _count(event, "full")
        supers = _count(event, "super")
        self._check_counts(state, full, supers)
        state.mode = PILES
        out = Outcome()
        self.say(
            out,
            "counting",
            number=state.pile_count() + 1,
            tricks=self.tricks_in_game(state),
        )
        state.full_counted += full
        state.super_counted += supers
        self._add_pile(state, player, full, supers, out)
        if state.pile_count() == self.tricks_in_game(state):
            self.say(out, "last-pile")
            self._finish(state, out)
        return out

    def _check_counts(self, state: WolfXTrickState, full: int, supers: int) -> None:
        """Refuse counts the deck cannot hold; the cards themselves are not known."""
        size = len(state.players)
        if full + supers > size:
            raise RuleError(
                f"a pile is one trick of {size} cards, so it cannot hold "
                f"{full + supers} Full Moon cards"
            )
        suits = len(self.suits(state))
        ranks = state.options["ranks"]
        plain = [n for n in state.options["full_moon_ranks"] if n != SUPER_FULL_MOON]
        full_in_deck = len(plain) * suits
        # Counting piles needs no marked numbers (the table reads the moons off
        # the cards), so an unmarked deck leaves the plain Full Moons unchecked.
        any_marked = bool(state.options["full_moon_ranks"])
        if any_marked and state.full_counted + full > full_in_deck:
            marked = ", ".join(map(str, plain)) or "none"
            raise RuleError(
                f"the deck has only {full_in_deck} Full Moon cards (numbers marked "
                f'in "full_moon_ranks": {marked}; the Super Full Moon 8 is counted '
                f'in "super"), and {state.full_counted + full} are counted so far'
            )
        super_in_deck = suits if SUPER_FULL_MOON in ranks else 0
        if state.super_counted + supers > super_in_deck:
            raise RuleError(
                f"the deck has only {super_in_deck} Super Full Moon cards (the "
                f"8s), and {state.super_counted + supers} are counted so far"
            )

    @handles("end")
    def _end(self, state: WolfXTrickState, event: Event) -> Outcome:
        if state.mode == TRICKS:
            raise RuleError(
                "a game recorded trick by trick ends by itself after its last "
                "trick; record the remaining tricks"
            )
        if state.mode is None:
            raise RuleError('no pile has been counted yet: record each "pile" first')
        out = Outcome()
        self.say(out, "ended", count=state.pile_count())
        self._finish(state, out)
        return out

    # Scoring

    def _add_pile(
        self, state: WolfXTrickState, player: str, full: int, supers: int, out: Outcome
    ) -> None:
        points = full + 2 * supers
        if points == 0:
            points = -1
            self.say(out, "pile-empty", player=player)
        else:
            self.say(
                out, "pile-moons", player=player, full=full, super=supers, points=points
            )
        state.piles[player].append(points)

    def _finish(self, state: WolfXTrickState, out: Outcome) -> None:
        state.finished = True
        state.leader = None
        points = {name: state.points(name) for name in state.players}
        for name in state.players:
            self.say(out, "final", player=name, points=points[name])
        state.rounds = [{"scores": dict(points)}]
        by_points: dict[int, list[str]] = {}
        for name in state.players:
            by_points.setdefault(points[name], []).append(name)
        for total, names in sorted(by_points.items(), reverse=True):
            if len(names) > 1:
                state.eliminated.extend(names)
                self.decide(state, out, "tied", players=", ".join(names), points=total)
        remaining = [name for name in state.players if name not in state.eliminated]
        # Ties are gone, so every total below is different from the others.
        if not remaining:
            state.winners = []
            self.decide(state, out, "draw")
            return
        if len(remaining) == 1:
            state.winners = remaining
            self.decide(state, out, "only-one", player=remaining[0])
            return
        low = min(remaining, key=points.__getitem__)
        if points[low] <= 0:
            state.winners = [low]
            self.decide(state, out, "zero-or-less", player=low, points=points[low])
            return
        top, second = sorted(remaining, key=points.__getitem__, reverse=True)[:2]
        state.winners = [second]
        self.decide(state, out, "second", player=second, points=points[second], top=top)

    # Views

    # The CSV: one row per pile with its owner and points, then the standing.

    def sheet_columns(self, players: Sequence[str]) -> list[Say]:
        return [
            Say("export.pile"),
            Say("export.player"),
            Say("export.points"),
            Say("export.total"),
            Say("export.result"),
        ]

    def sheet_rows(
        self, before: WolfXTrickState, after: WolfXTrickState, event: Event, number: int
    ) -> list[Row]:
        rows: list[Row] = []
        count = before.pile_count()
        for name in after.players:
            for points in after.piles[name][len(before.piles[name]) :]:
                count += 1
                rows.append([count, name, points, after.points(name), None])
        if after.finished and not before.finished:
            for name in after.players:
                result = (
                    Say("export.won")
                    if name in after.winners
                    else Say("export.tied-out")
                    if name in after.eliminated
                    else None
                )
                total = after.points(name)
                rows.append([Say("export.final"), name, None, total, result])
        return rows

    def totals(self, state: WolfXTrickState) -> Totals:
        return {name: state.points(name) for name in state.players}

    def player_view(self, state: WolfXTrickState, name: str) -> PlayerView:
        return {
            "piles": list(state.piles[name]),
            "eliminated": name in state.eliminated,
        }

    def prompt(self, state: WolfXTrickState) -> Prompt:
        if state.finished:
            return Prompt(expects=())
        if state.mode == PILES:
            return Prompt(expects=("pile", "end"))
        if state.mode is None or state.round_cards is None or state.leader is None:
            return Prompt(expects=("round", "pile"))
        return Prompt(
            expects=("trick",),
            seats=tuple(clockwise(state.players, state.leader)),
            cards=state.round_cards.unplayed(),
        )

    def where_cards_are(self, state: WolfXTrickState) -> dict[str, Counter[Card]]:
        if state.mode != TRICKS:
            return {}
        return {
            f"pile:{name}": Counter(state.pile_cards[name]) for name in state.players
        }


ENGINE = WolfXTrickEngine()
