"""Black Hearts: pass the Curse cards on, or take every one of them.

A round deals five cards each from the six Curse cards, the Fixed cards and
some Random cards; the holder of Two o'clock leads it. There is no suit to
follow: the highest number wins, ties go to the card played latest. After five
tricks the curse points taken are added up; taking all six Curse cards wins at
once, otherwise the game ends when a total reaches 13 and the lowest wins.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from companion.cards import Card, Deck, deck_from_lists
from companion.errors import CardError, FormatError, RuleError
from companion.games.base import (
    BLUE_MARK,
    CARD,
    CARD_POINTS,
    GIFT,
    LEADER,
    REVERSED,
    TWO_OCLOCK_HOLDER,
    Engine,
    Event,
    GameSpec,
    OptionSpec,
    Outcome,
    PlayerView,
    Prompt,
    State,
    Suit,
    Totals,
    Words,
    best_by_totals,
    handles,
    need_player,
    option_error,
    reject_unknown_options,
)
from companion.games.tricks import Play, RoundCards, clockwise, read_trick

CURSE, FIXED, RANDOM = "C", "F", "W"
SUITS = (CURSE, FIXED, RANDOM)
NUMBERS = range(1, 7)
RANDOM_COPIES = 3
TRICKS_PER_ROUND = 5
LOSING_TOTAL = 13
# How many Random cards join a round, by player count: with these the round
# holds exactly five cards per player.
RANDOM_PER_ROUND = {3: 8, 4: 8, 5: 13, 6: 18}
CURSE_CARDS = frozenset(Card(CURSE, n) for n in NUMBERS)
ALL_CODES = tuple(f"{suit}{n}" for suit in SUITS for n in NUMBERS)


def default_curse_points() -> dict[str, int]:
    return {code: int(code[1:]) if code[0] == CURSE else 0 for code in ALL_CODES}


def round_points(view: Mapping[str, Any], options: Mapping[str, Any]) -> dict:
    """A player's figures with the curse points of the cards taken this round."""
    points = options.get("curse_points") or {}
    taken = view.get("taken", [])
    return {**view, "round_points": sum(int(points.get(str(c), 0)) for c in taken)}


# Editions print different Two o'clock cards and curse points: confirmed once.
SPEC = GameSpec(
    slug="black-hearts",
    title=Words("Black Hearts", "ブラックハーツ"),
    aliases=(
        "black heart",
        "blackhearts",
        "black harts",
        "blk hearts",
        "blk hrts",
        "ブラックハート",
        "ブラック・ハーツ",
        "ブラハ",
        "黒いハート",
        "黒いハーツ",
        "黒ハート",
        # What players call it when the name escapes them.
        "heart game",
        "hearts game",
        "hearts card game",
        "heart card game",
        "two oclock game",
        "two o'clock game",
        "ハートのゲーム",
        "ハーツ",
        "ハートゲーム",
        "the hearts one",
        "the heart one",
        "ハートのやつ",
    ),
    player_counts=range(3, 7),
    suits=(
        Suit("C", Words("Curse", "呪い"), "#D32F2F", "♥"),
        Suit("F", Words("Fixed", "固定"), "#1565C0", BLUE_MARK),
        Suit("W", Words("Random", "ランダム"), "#546E7A", "☆"),
    ),
    options=(
        OptionSpec(
            "two_oclock",
            CARD,
            "F2",
            allowed=tuple(f"{FIXED}{n}" for n in NUMBERS),
            confirmed=True,
            tag="two",
            heading="new.two-oclock",
        ),
        OptionSpec(
            "curse_points",
            CARD_POINTS,
            default_curse_points(),
            allowed=tuple(str(card) for card in sorted(CURSE_CARDS)),
            confirmed=True,
            tag="opt",
            heading="new.curse-points",
        ),
    ),
    figures=("taken", "round_points"),
    derived_figures=round_points,
    measure="curse-points",
    lower_is_better=True,
    best_of=best_by_totals(lower_is_better=True),
    best_rule="lowest",
    round_asks=(LEADER, TWO_OCLOCK_HOLDER, GIFT, REVERSED),
    # the new-game form asks who holds Two o'clock and records the first round
    leader_at_start=True,
)


def round_deck(player_count: int, two_oclock: str) -> Deck:
    """Every card that may turn up in one round, with its number of copies.

    The Random cards are all listed (three of each number); how many of them a
    round really uses is checked separately, since which ones is left to chance.
    """
    fixed = [Card.parse(two_oclock).number] if player_count == 3 else list(NUMBERS)
    return deck_from_lists(
        {
            CURSE: NUMBERS,
            FIXED: fixed,
            RANDOM: [n for n in NUMBERS for _ in range(RANDOM_COPIES)],
        }
    )


def _names(names: list[str]) -> str:
    return ", ".join(names)


def _codes(cards: list[Card]) -> str:
    return " ".join(str(card) for card in cards)


@dataclass
class BlackHeartsState(State):
    round_cards: RoundCards = field(default_factory=lambda: RoundCards(Counter()))
    in_round: bool = False
    round_number: int = 0
    tricks: int = 0
    gift: str | None = None
    reversed: bool = False
    # Cards each player took this round, in the order taken; kept after the
    # round ends so the table can check the count until the next round starts.
    taken: dict[str, list[str]] = field(default_factory=dict)
    points: dict[str, int] = field(default_factory=dict)


class BlackHeartsEngine(Engine[BlackHeartsState]):
    spec = SPEC
    topics: ClassVar[dict[str, str]] = {
        "setup": "Cards for a round and passing",
        "gift": "The round's gift card",
        "two-oclock": "Two o'clock leads first",
        "trick-winner": "Who wins a trick",
        "curse-points": "Counting curse points",
        "all-curses": "Taking all six curses",
        "game-end": "The end of the game",
    }
    texts: ClassVar[dict[str, tuple[str, str]]] = {
        "round-cards": (
            "setup",
            "Round {round} uses the six Curse cards, the six Fixed cards and "
            "{random} Random cards: five cards for each of the {count} players",
        ),
        "round-cards-three": (
            "setup",
            "Round {round} uses the six Curse cards, of the Fixed cards only "
            "{card}, and {random} Random cards: five cards for each of the 3 players",
        ),
        "round-leader": (
            "two-oclock",
            "{leader} holds Two o'clock ({card}) and leads it in the first trick",
        ),
        "gift": ("gift", "This round's gift card: {gift}"),
        "no-gift": ("gift", "No gift card this round"),
        "reversed": (
            "gift",
            "This round the order is turned around: 1 is strongest, 6 weakest",
        ),
        "two-oclock-led": ("two-oclock", "{player} leads Two o'clock ({card})"),
        "wins-highest": (
            "trick-winner",
            "{player} wins with {card}, the highest number",
        ),
        "wins-lowest": (
            "trick-winner",
            "{player} wins with {card}, the lowest number (order turned around)",
        ),
        "wins-tie-highest": (
            "trick-winner",
            "{player} wins with {card}: tied for the highest with {others}, "
            "the card played latest wins",
        ),
        "wins-tie-lowest": (
            "trick-winner",
            "{player} wins with {card}: tied for the lowest with {others} "
            "(order turned around), the card played latest wins",
        ),
        "takes": (
            "curse-points",
            "{player} takes {cards}: {points} curse points",
        ),
        "leads-next": ("trick-winner", "{player} leads the next trick"),
        "round-points": (
            "curse-points",
            "{player} took {points} curse points this round, {total} in all",
        ),
        "all-curses": (
            "all-curses",
            "{player} took all six Curse cards and wins at once; everyone else loses",
        ),
        "reaches-limit": (
            "game-end",
            "{player} has {total} curse points: 13 or more ends the game",
        ),
        "lowest-wins": (
            "game-end",
            "{players} won with the fewest curse points, {total}",
        ),
        "next-round": (
            "game-end",
            "Nobody has 13 curse points yet: a new round follows",
        ),
    }

    # ---- options and start

    def options(self, players: list[str], given: dict[str, Any]) -> dict[str, Any]:
        reject_unknown_options(self, given, {"two_oclock", "curse_points"})
        return {
            "two_oclock": self._two_oclock_option(
                given.get("two_oclock", SPEC.option("two_oclock").default)
            ),
            "curse_points": self._curse_points_option(given.get("curse_points", {})),
        }

    @staticmethod
    def _two_oclock_option(value: object) -> str:
        problem = option_error(
            f'"two_oclock" must be a Fixed card, F1 to F6, not {json.dumps(value)}'
        )
        if not isinstance(value, str):
            raise problem
        try:
            card = Card.parse(value)
        except CardError:
            raise problem from None
        if card.suit != FIXED or card.number not in NUMBERS:
            raise problem
        return str(card)

    @staticmethod
    def _curse_points_option(value: object) -> dict[str, int]:
        """The printed points; cards not named keep their default points.

        Merging lets a table correct only the cards that differ in its edition.
        """
        if not isinstance(value, dict):
            raise option_error(
                '"curse_points" must map card codes to points, like {"C6": 6}'
            )
        points = default_curse_points()
        for code, number in value.items():
            try:
                card = str(Card.parse(code))
            except CardError:
                card = None
            if card not in points:
                raise option_error(
                    f'"curse_points" names {json.dumps(code)}, which is not a '
                    "Black Hearts card (C1-C6, F1-F6, W1-W6)"
                )
            if isinstance(number, bool) or not isinstance(number, int) or number < 0:
                raise option_error(
                    f"the curse points of {card} must be a whole number 0 or more, "
                    f"not {json.dumps(number)}"
                )
            points[card] = number
        return points

    def start(self, players: list[str], options: dict[str, Any]) -> BlackHeartsState:
        return BlackHeartsState(
            players=list(players),
            options=options,
            round_cards=RoundCards(round_deck(len(players), options["two_oclock"])),
            taken={name: [] for name in players},
            points={name: 0 for name in players},
        )

    # ---- events

    @handles("round")
    def _round(self, state: BlackHeartsState, event: Event) -> Outcome:
        if state.in_round:
            raise RuleError(
                f"round {state.round_number} is still being played "
                f"({state.tricks} of {TRICKS_PER_ROUND} tricks recorded)"
            )
        leader = need_player(state, event, "leader")
        gift = event.get("gift")
        if gift is not None and not isinstance(gift, str):
            raise FormatError(
                f'"gift" is the gift card\'s text or null, not {json.dumps(gift)}'
            )
        reversed_ = event.get("reversed", False)
        if not isinstance(reversed_, bool):
            raise FormatError(
                f'"reversed" must be true or false, not {json.dumps(reversed_)}'
            )

        state.in_round = True
        state.round_number += 1
        state.tricks = 0
        state.gift = gift
        state.reversed = reversed_
        state.leader = leader
        state.round_cards.clear()
        state.taken = {name: [] for name in state.players}

        out = Outcome()
        count = len(state.players)
        two_oclock = state.options["two_oclock"]
        self.say(
            out,
            "round-cards-three" if count == 3 else "round-cards",
            round=state.round_number,
            card=two_oclock,
            random=RANDOM_PER_ROUND[count],
            count=count,
        )
        self.say(out, "round-leader", leader=leader, card=two_oclock)
        if gift:
            self.say(out, "gift", gift=gift)
        else:
            self.say(out, "no-gift")
        if reversed_:
            self.say(out, "reversed")
        return out

    @handles("trick")
    def _trick(self, state: BlackHeartsState, event: Event) -> Outcome:
        if not state.in_round:
            if state.round_number == 0:
                raise RuleError("no round has started: record a round event first")
            raise RuleError(
                f"round {state.round_number} is over after {TRICKS_PER_ROUND} "
                "tricks: record a round event to start the next one"
            )
        assert state.leader is not None
        seats = clockwise(state.players, state.leader)
        plays = read_trick(event, seats, state.round_cards)
        out = Outcome()
        two_oclock = Card.parse(state.options["two_oclock"])
        if state.tricks == 0:
            if plays[0].card != two_oclock:
                raise RuleError(
                    f"{state.leader} holds Two o'clock ({two_oclock}) and must lead "
                    f"it in the round's first trick, but the trick starts with "
                    f"{plays[0].card}"
                )
            self.say(out, "two-oclock-led", player=state.leader, card=two_oclock)
        self._check_random_count(state, plays)

        winner = self._winner(plays, state.reversed)
        self._say_winner(out, plays, winner, state.reversed)
        cards = [play.card for play in plays]
        state.round_cards.take(cards)
        state.taken[winner.player].extend(str(card) for card in cards)
        self.say(
            out,
            "takes",
            player=winner.player,
            cards=_codes(cards),
            points=self._points(state, cards),
        )
        state.tricks += 1
        if state.tricks < TRICKS_PER_ROUND:
            state.leader = winner.player
            self.say(out, "leads-next", player=winner.player)
        else:
            self._end_round(state, out)
        return out

    @staticmethod
    def _check_random_count(state: BlackHeartsState, plays: list[Play]) -> None:
        limit = RANDOM_PER_ROUND[len(state.players)]
        so_far = sum(
            n for card, n in state.round_cards.played.items() if card.suit == RANDOM
        )
        for play in plays:
            if play.card.suit != RANDOM:
                continue
            so_far += 1
            if so_far > limit:
                raise CardError(
                    f"{play.card} would be Random card number {so_far} this round, "
                    f"but with {len(state.players)} players a round uses only "
                    f"{limit} Random cards"
                )

    @staticmethod
    def _winner(plays: list[Play], reversed_: bool) -> Play:
        best = plays[0]
        for play in plays[1:]:
            # ">=" and "<=" hand a tie to the later card, as the rules want.
            if reversed_:
                stronger = play.card.number <= best.card.number
            else:
                stronger = play.card.number >= best.card.number
            if stronger:
                best = play
        return best

    def _say_winner(
        self, out: Outcome, plays: list[Play], winner: Play, reversed_: bool
    ) -> None:
        tied = [
            f"{play.player} ({play.card})"
            for play in plays
            if play is not winner and play.card.number == winner.card.number
        ]
        order = "lowest" if reversed_ else "highest"
        if tied:
            self.say(
                out,
                f"wins-tie-{order}",
                player=winner.player,
                card=winner.card,
                others=_names(tied),
            )
        else:
            self.say(out, f"wins-{order}", player=winner.player, card=winner.card)

    @staticmethod
    def _points(state: BlackHeartsState, cards: Iterable[Card | str]) -> int:
        points: dict[str, int] = state.options["curse_points"]
        return sum(points[str(card)] for card in cards)

    def _end_round(self, state: BlackHeartsState, out: Outcome) -> None:
        scores = {
            name: self._points(state, state.taken[name]) for name in state.players
        }
        for name in state.players:
            state.points[name] += scores[name]
            self.say(
                out,
                "round-points",
                player=name,
                points=scores[name],
                total=state.points[name],
            )
        state.rounds.append({"scores": scores})
        state.in_round = False
        state.leader = None

        cursed = [
            name
            for name in state.players
            if {Card.parse(code) for code in state.taken[name]} >= CURSE_CARDS
        ]
        if cursed:
            state.finished = True
            state.winners = cursed
            self.decide(state, out, "all-curses", player=cursed[0])
            return
        over = [n for n in state.players if state.points[n] >= LOSING_TOTAL]
        if not over:
            self.say(out, "next-round")
            return
        for name in over:
            self.say(out, "reaches-limit", player=name, total=state.points[name])
        lowest = min(state.points.values())
        state.finished = True
        state.winners = [n for n in state.players if state.points[n] == lowest]
        self.decide(
            state, out, "lowest-wins", players=_names(state.winners), total=lowest
        )

    # ---- views

    def totals(self, state: BlackHeartsState) -> Totals:
        return dict(state.points)

    def player_view(self, state: BlackHeartsState, name: str) -> PlayerView:
        return {"taken": list(state.taken[name])}

    def prompt(self, state: BlackHeartsState) -> Prompt:
        if state.finished:
            return Prompt(expects=())
        if not state.in_round or state.leader is None:
            return Prompt(expects=("round",))
        cards = state.round_cards.unplayed()
        random_left = RANDOM_PER_ROUND[len(state.players)] - sum(
            n for card, n in state.round_cards.played.items() if card.suit == RANDOM
        )
        if random_left <= 0:
            cards = tuple(card for card in cards if card.suit != RANDOM)
        # The round's first trick is led with Two o'clock, by its holder.
        two_oclock = Card.parse(state.options["two_oclock"])
        return Prompt(
            expects=("trick",),
            seats=tuple(clockwise(state.players, state.leader)),
            cards=cards,
            leads=(two_oclock,) if state.tricks == 0 else (),
        )

    def where_cards_are(self, state: BlackHeartsState) -> dict[str, Counter[Card]]:
        return {
            f"taken:{name}": Counter(Card.parse(code) for code in state.taken[name])
            for name in state.players
        }


ENGINE = BlackHeartsEngine()
