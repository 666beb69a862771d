"""Cursed Tricks: follow suit, win tricks, and avoid keeping the winning cards.

A trick's winning card may stay in front of its winner as a curse; playing the
lowest card of the lead suit sheds one. Scores depend on how many curses each
player holds when the round ends.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from companion.cards import Card, Deck, deck_of
from companion.errors import CardError, ChoiceNeeded, FormatError, RuleError
from companion.games.base import (
    CHOICE,
    DARK_LABEL,
    GREEN_MARK,
    PURPLE_MARK,
    RED_MARK,
    SUIT,
    YELLOW_MARK,
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
    handles,
    need_player,
    option_error,
    reject_unknown_options,
)
from companion.games.tricks import (
    FollowWatch,
    Play,
    RoundCards,
    clockwise,
    highest_of,
    lowest_of,
    read_trick,
)


@dataclass(frozen=True)
class DeckKind:
    suits: tuple[str, ...]
    top: int  # the highest number, which the lead suit's 1 beats
    tricks: int  # tricks in a full round


DECKS: dict[str, DeckKind] = {
    "original": DeckKind(("P", "G", "R", "Y"), top=14, tricks=13),
    "standard": DeckKind(("S", "H", "D", "C"), top=13, tricks=12),
}
ROUNDS = 4
CURSES_TO_END = 3
NO_TRICK_BONUS = 10


SPEC = GameSpec(
    slug="cursed-tricks",
    title=Words("Cursed Tricks", "カーストリックス"),
    aliases=(
        "cursed trick",
        "cursedtricks",
        "cursed trix",
        "curse trix",
        "cursedtrix",
        "カースドトリック",
        "カースドトリックス",
        "カーストリック",
        "カーストトリック",
        "カーストトリックス",
        "カースト・トリックス",
        "カースド・トリックス",
        "呪術トリック",
        "呪いのトリック",
        # What players call it when the name escapes them.
        "curse breaking game",
        "curse-breaking game",
        "breaking curses game",
        "three curses game",
        "呪いを解くゲーム",
        "呪い解除のゲーム",
        "のろいのトリック",
        "呪いトリック",
        # Its designer's name, printed on the box.
        "roreruridou",
        "roreruridou trick game",
        "roreruridou game",
        "ろれるりどう",
        "ろれるり堂",
        "ろれるり",
    ),
    player_counts=range(3, 5),
    suits=(
        Suit("P", Words("purple", "紫"), "#8E24AA", PURPLE_MARK),
        Suit("G", Words("green", "緑"), "#2E7D32", GREEN_MARK),
        Suit("R", Words("red", "赤"), "#C62828", RED_MARK),
        Suit("Y", Words("yellow", "黄"), "#FFA000", YELLOW_MARK, DARK_LABEL),
        Suit("S", Words("spades", "スペード"), "#37474F", "♠", faces=True),
        Suit("H", Words("hearts", "ハート"), "#C62828", "♥", faces=True),
        Suit("D", Words("diamonds", "ダイヤ"), "#EF6C00", "♦", DARK_LABEL, faces=True),
        Suit("C", Words("clubs", "クラブ"), "#2E7D32", "♣", faces=True),
    ),
    options=(
        OptionSpec("deck", CHOICE, "original", allowed=tuple(DECKS), tag="deck"),
        # With 3 players one suit leaves the game: the deck's last one unless
        # the table names another.
        OptionSpec(
            "removed_suit",
            SUIT,
            None,
            by_count={3: DECKS["original"].suits[-1]},
            allowed_by="deck",
            allowed_for={name: kind.suits for name, kind in DECKS.items()},
            tag="removed",
            heading="new.removed-suit",
            counts=(3,),
        ),
    ),
    figures=("curses", "pile", "tricks"),
    measure="points",
    trick_choices=("break",),
)


def three_curse_penalty(player_count: int) -> int:
    return -6 if player_count == 3 else -8


@dataclass
class CursedTricksState(State):
    suits: tuple[str, ...] = ()
    in_round: bool = False
    tricks_played: int = 0
    cards: RoundCards = field(default_factory=lambda: RoundCards(Counter()))
    watch: FollowWatch = field(default_factory=FollowWatch)
    # Acquisition order: a new curse goes to the end of its holder's list.
    curses: dict[str, list[Card]] = field(default_factory=dict)
    piles: dict[str, list[Card]] = field(default_factory=dict)
    tricks: dict[str, int] = field(default_factory=dict)
    totals: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Resolution:
    """Everything one trick decides, worked out before the state changes."""

    plays: list[Play]
    winner: Play
    breaker: str | None
    broken: Card | None
    curse_holder: str | None
    old_curse: Card | None
    takes_curse: bool


class CursedTricksEngine(Engine[CursedTricksState]):
    spec = SPEC
    topics = {
        "setup": "Decks, players and dealing",
        "follow-suit": "Following suit",
        "trick-winner": "Who wins a trick",
        "curse-breaking": "Breaking a curse",
        "taking-curses": "Taking a curse",
        "round-end": "When a round ends",
        "scoring": "Scoring a round",
        "game-end": "End of the game",
    }
    texts = {
        "round-start": ("setup", "Round {round} begins: {leader} leads"),
        "suit-removed": (
            "setup",
            "With 3 players the {suit} cards ({code}) are out of the game",
        ),
        "wins-highest": (
            "trick-winner",
            "{player} wins with {card}, the highest {suit}",
        ),
        "wins-one": (
            "trick-winner",
            "{player} wins with {card}: the {suit} 1 beats the {top} "
            "when both are in the trick",
        ),
        "breaks": (
            "curse-breaking",
            "{player} breaks a curse with {card}, the lowest {suit}: "
            "{curse} goes to their pile",
        ),
        "breaks-none-held": (
            "curse-breaking",
            "{player} plays the lowest {suit} ({card}) but holds no curse to break",
        ),
        "no-break-lead": (
            "curse-breaking",
            "Nobody breaks a curse: the lowest {suit} is the lead card {card}",
        ),
        "no-break-one": (
            "curse-breaking",
            "Nobody breaks a curse: the lowest {suit} is the 1 ({card})",
        ),
        "no-break-one-top": (
            "curse-breaking",
            "Nobody breaks a curse: the {suit} 1 and {top} are both in the trick",
        ),
        "break-ignored": (
            "curse-breaking",
            'The choice "break": {choice} is not used: nobody breaks a curse',
        ),
        "new-curse": (
            "taking-curses",
            "{card} becomes {player}'s curse: nobody held a {suit} curse",
        ),
        "replaces-curse": (
            "taking-curses",
            "{card} replaces {old} as the {suit} curse, now {player}'s "
            "({card} is higher); {old} goes to {holder}'s pile",
        ),
        "keeps-curse": (
            "taking-curses",
            "{card} does not take the {suit} curse: lower than {old}, so it "
            "stays in the trick",
        ),
        "takes-pile": (
            "trick-winner",
            "{player} adds {count} cards to their pile and leads next",
        ),
        "third-curse": (
            "round-end",
            "{player} now holds a third curse: round {round} ends at once",
        ),
        "all-tricks": (
            "round-end",
            "All {count} tricks are played: round {round} ends",
        ),
        "score-three": (
            "scoring",
            "{player} scores {points}: three curses",
        ),
        "score-two": ("scoring", "{player} scores 0: two curses"),
        "score-one": (
            "scoring",
            "{player} scores {points}: one per pile card that is not {suit} "
            "(the curse's colour)",
        ),
        "score-pile": (
            "scoring",
            "{player} scores {points}: no curse, one per pile card",
        ),
        "score-no-trick": (
            "scoring",
            "{player} scores 10: no curse and no trick won",
        ),
        "score-no-trick-cut": (
            "scoring",
            "{player} scores 0: no trick won, and the round ended on a third curse",
        ),
        "game-over": (
            "game-end",
            "After {rounds} rounds the game is over: the highest total is "
            "{points}, won by {winners}",
        ),
    }

    # -- setup ---------------------------------------------------------------

    def options(self, players: list[str], given: dict[str, Any]) -> dict[str, Any]:
        reject_unknown_options(self, given, {"deck", "removed_suit"})
        deck = given.get("deck", "original")
        if not isinstance(deck, str) or deck not in DECKS:
            raise option_error(f'"deck" must be "original" or "standard", not {deck!r}')
        kind = DECKS[deck]
        removed = given.get("removed_suit")
        if removed is not None and removed not in kind.suits:
            raise option_error(
                f'"removed_suit" must be one of {", ".join(kind.suits)} '
                f"for the {deck} deck, not {removed!r}"
            )
        if len(players) != 3:
            # The contract only gives the option a meaning with 3 players; a
            # log that names a suit anyway still plays with every suit.
            return {"deck": deck, "removed_suit": None}
        if removed is None:
            removed = kind.suits[-1]
        return {"deck": deck, "removed_suit": removed}

    def start(self, players: list[str], options: dict[str, Any]) -> CursedTricksState:
        kind = DECKS[options["deck"]]
        suits = tuple(s for s in kind.suits if s != options["removed_suit"])
        state = CursedTricksState(players=list(players), options=dict(options))
        state.suits = suits
        state.cards = RoundCards(self.deck(state))
        state.totals = dict.fromkeys(players, 0)
        self._clear_round(state)
        return state

    def deck(self, state: CursedTricksState) -> Deck:
        return deck_of(state.suits, range(1, self._kind(state).top + 1))

    def _kind(self, state: CursedTricksState) -> DeckKind:
        return DECKS[state.options["deck"]]

    def _suit_name(self, state: CursedTricksState, suit: str) -> str:
        return SPEC.suit_name(suit)

    def _clear_round(self, state: CursedTricksState) -> None:
        state.curses = {name: [] for name in state.players}
        state.piles = {name: [] for name in state.players}
        state.tricks = dict.fromkeys(state.players, 0)
        state.tricks_played = 0
        state.cards.clear()
        state.watch.clear()

    # -- events --------------------------------------------------------------

    @handles("round")
    def _round(self, state: CursedTricksState, event: Event) -> Outcome:
        if state.in_round:
            raise RuleError(
                f"round {len(state.rounds) + 1} is still being played "
                f"({state.tricks_played} of {self._kind(state).tricks} tricks): "
                "record its tricks before a new round"
            )
        leader = need_player(state, event, "leader")
        self._clear_round(state)
        state.in_round = True
        state.leader = leader
        out = Outcome()
        self.say(out, "round-start", round=len(state.rounds) + 1, leader=leader)
        removed = state.options["removed_suit"]
        if removed is not None:
            self.say(
                out, "suit-removed", suit=self._suit_name(state, removed), code=removed
            )
        return out

    @handles("trick")
    def _trick(self, state: CursedTricksState, event: Event) -> Outcome:
        if not state.in_round or state.leader is None:
            if state.rounds:
                raise RuleError(
                    f"round {len(state.rounds)} is over: the next event must "
                    "start a new round (who leads)"
                )
            raise RuleError("no round has started: record who leads the round first")
        self._refuse_removed_suit(state, event)
        seats = clockwise(state.players, state.leader)
        plays = read_trick(event, seats, state.cards)
        out = Outcome()
        res = self._resolve(state, plays, event, out)
        self._follow_warnings(state, plays, out)
        self._take(state, res, out)
        return out

    def _refuse_removed_suit(self, state: CursedTricksState, event: Event) -> None:
        """A clearer refusal than "not a card of this game" for the removed suit."""
        removed = state.options["removed_suit"]
        codes = event.get("cards")
        if removed is None or not isinstance(codes, list):
            return
        for code in codes:
            try:
                card = Card.parse(code)
            except CardError:
                return  # read_trick names the bad code
            if card.suit == removed:
                raise CardError(
                    f"{card} is not in this game: the "
                    f"{self._suit_name(state, removed)} cards ({removed}) are "
                    "removed with 3 players"
                )

    def _follow_warnings(
        self, state: CursedTricksState, plays: list[Play], out: Outcome
    ) -> None:
        for play in plays:
            if state.watch.broken(play):
                self.warn(
                    out,
                    "showed-out",
                    player=play.player,
                    card=play.card,
                    suit=self._suit_name(state, play.card.suit),
                )
        lead = plays[0].card.suit
        for play in plays[1:]:
            if play.card.suit != lead:
                state.watch.showed_out(play.player, [lead])

    def _resolve(
        self, state: CursedTricksState, plays: list[Play], event: Event, out: Outcome
    ) -> Resolution:
        kind = self._kind(state)
        lead = plays[0].card.suit
        suit = self._suit_name(state, lead)
        numbers = {p.card.number for p in plays if p.card.suit == lead}
        one_beats_top = 1 in numbers and kind.top in numbers

        if one_beats_top:
            winner = next(p for p in plays if p.card == Card(lead, 1))
        else:
            winner = highest_of(plays, lead)

        breaker, broken = self._breaking(state, plays, event, one_beats_top, out)

        # The break happens first, so a curse just broken is no longer held.
        curses = {
            name: [c for c in held if c != broken]
            for name, held in state.curses.items()
        }
        card = winner.card
        holder = next(
            (n for n in state.players if any(c.suit == card.suit for c in curses[n])),
            None,
        )
        old = None
        if holder is not None:
            old = next(c for c in curses[holder] if c.suit == card.suit)
        takes = old is None or card.number > old.number

        if one_beats_top:
            self.say(
                out,
                "wins-one",
                player=winner.player,
                card=card,
                suit=suit,
                top=kind.top,
            )
        else:
            self.say(out, "wins-highest", player=winner.player, card=card, suit=suit)
        return Resolution(plays, winner, breaker, broken, holder, old, takes)

    def _breaking(
        self,
        state: CursedTricksState,
        plays: list[Play],
        event: Event,
        one_beats_top: bool,
        out: Outcome,
    ) -> tuple[str | None, Card | None]:
        """Who breaks a curse this trick, and which curse (None when nobody does)."""
        choice = self._read_break(state, event)
        lead = plays[0].card.suit
        suit = self._suit_name(state, lead)
        lowest = lowest_of(plays, lead)
        if one_beats_top:
            self.say(out, "no-break-one-top", suit=suit, top=self._kind(state).top)
        elif lowest is plays[0]:
            self.say(out, "no-break-lead", suit=suit, card=lowest.card)
        elif lowest.card.number == 1:
            self.say(out, "no-break-one", suit=suit, card=lowest.card)
        else:
            return self._break_by(state, lowest, choice, out)
        if choice is not None:
            self.say(out, "break-ignored", choice=choice)
        return None, None

    def _break_by(
        self, state: CursedTricksState, lowest: Play, choice: str | None, out: Outcome
    ) -> tuple[str, Card | None]:
        player = lowest.player
        held = state.curses[player]
        suit = self._suit_name(state, lowest.card.suit)
        if choice is not None and all(c.suit != choice for c in held):
            holding = ", ".join(str(c) for c in held) or "none"
            raise RuleError(
                f'"break": {choice} names a curse {player} does not hold '
                f"({player}'s curses: {holding})"
            )
        if not held:
            self.say(
                out, "breaks-none-held", player=player, suit=suit, card=lowest.card
            )
            return player, None
        if choice is None:
            if len(held) > 1:
                options = [c.suit for c in held]
                raise ChoiceNeeded(
                    f"{player} breaks a curse with {lowest.card} and holds "
                    f"{', '.join(str(c) for c in held)}: say which one "
                    f'("break": one of {", ".join(options)})',
                    field="break",
                    player=player,
                    options=options,
                )
            choice = held[0].suit
        broken = next(c for c in held if c.suit == choice)
        self.say(
            out, "breaks", player=player, card=lowest.card, suit=suit, curse=broken
        )
        return player, broken

    def _read_break(self, state: CursedTricksState, event: Event) -> str | None:
        choice = event.get("break")
        if choice is None:
            return None
        if not isinstance(choice, str) or choice not in state.suits:
            raise FormatError(
                f'"break" must be a suit of this game ({", ".join(state.suits)}), '
                f"not {choice!r}"
            )
        return choice

    def _take(self, state: CursedTricksState, res: Resolution, out: Outcome) -> None:
        """Move the trick's cards and curses; end the round if it is over."""
        state.cards.take(p.card for p in res.plays)
        winner, card = res.winner.player, res.winner.card
        suit = self._suit_name(state, card.suit)
        if res.breaker is not None and res.broken is not None:
            state.curses[res.breaker].remove(res.broken)
            state.piles[res.breaker].append(res.broken)
        rest = [p.card for p in res.plays if p is not res.winner]
        if res.takes_curse:
            if res.curse_holder is not None and res.old_curse is not None:
                state.curses[res.curse_holder].remove(res.old_curse)
                state.piles[res.curse_holder].append(res.old_curse)
                self.say(
                    out,
                    "replaces-curse",
                    card=card,
                    old=res.old_curse,
                    suit=suit,
                    player=winner,
                    holder=res.curse_holder,
                )
            else:
                self.say(out, "new-curse", card=card, player=winner, suit=suit)
            state.curses[winner].append(card)
        else:
            self.say(out, "keeps-curse", card=card, suit=suit, old=res.old_curse)
            rest.insert(0, card)
        state.piles[winner].extend(rest)
        state.tricks[winner] += 1
        state.tricks_played += 1
        state.leader = winner
        self.say(out, "takes-pile", player=winner, count=len(rest))

        round_number = len(state.rounds) + 1
        third = len(state.curses[winner]) >= CURSES_TO_END
        if third:
            self.say(out, "third-curse", player=winner, round=round_number)
        elif state.tricks_played >= self._kind(state).tricks:
            self.say(out, "all-tricks", count=state.tricks_played, round=round_number)
        else:
            return
        self._end_round(state, third, out)

    def _end_round(
        self, state: CursedTricksState, third_curse: bool, out: Outcome
    ) -> None:
        scores = {
            name: self._score(state, name, third_curse, out) for name in state.players
        }
        for name, points in scores.items():
            state.totals[name] += points
        state.rounds.append({"scores": scores})
        state.in_round = False
        state.leader = None
        if len(state.rounds) < ROUNDS:
            return
        best = max(state.totals.values())
        state.finished = True
        state.winners = [n for n in state.players if state.totals[n] == best]
        self.decide(
            state,
            out,
            "game-over",
            rounds=ROUNDS,
            winners=", ".join(state.winners),
            points=best,
        )

    def _score(
        self, state: CursedTricksState, name: str, third_curse: bool, out: Outcome
    ) -> int:
        curses, pile = state.curses[name], state.piles[name]
        if len(curses) >= CURSES_TO_END:
            points = three_curse_penalty(len(state.players))
            self.say(out, "score-three", player=name, points=points)
        elif len(curses) == 2:
            points = 0
            self.say(out, "score-two", player=name)
        elif len(curses) == 1:
            curse_suit = curses[0].suit
            points = sum(1 for c in pile if c.suit != curse_suit)
            self.say(
                out,
                "score-one",
                player=name,
                points=points,
                suit=self._suit_name(state, curse_suit),
            )
        elif state.tricks[name] == 0:
            points = 0 if third_curse else NO_TRICK_BONUS
            self.say(
                out,
                "score-no-trick-cut" if third_curse else "score-no-trick",
                player=name,
            )
        else:
            points = len(pile)
            self.say(out, "score-pile", player=name, points=points)
        return points

    # -- views ---------------------------------------------------------------

    def totals(self, state: CursedTricksState) -> Totals:
        return dict(state.totals)

    def player_view(self, state: CursedTricksState, name: str) -> PlayerView:
        return {
            "curses": [str(c) for c in state.curses[name]],
            "pile": len(state.piles[name]),
            "tricks": state.tricks[name],
        }

    def prompt(self, state: CursedTricksState) -> Prompt:
        if state.finished:
            return Prompt(expects=())
        if not state.in_round or state.leader is None:
            return Prompt(expects=("round",), cards=tuple(sorted(self.deck(state))))
        return Prompt(
            expects=("trick",),
            seats=tuple(clockwise(state.players, state.leader)),
            cards=state.cards.unplayed(),
        )

    def where_cards_are(self, state: CursedTricksState) -> dict[str, Counter[Card]]:
        places: dict[str, Counter[Card]] = {}
        for name in state.players:
            places[f"pile:{name}"] = Counter(state.piles[name])
            places[f"curse:{name}"] = Counter(state.curses[name])
        return places


ENGINE = CursedTricksEngine()
