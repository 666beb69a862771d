"""The contract every registered game keeps, checked by playing it.

Random games are played from real shuffled deals, for every player count:
each card a player plays comes from their hand and was offered by the
engine's prompt, and the engine accepts it; a choice the rules ask for is
answered with one of the options given. Along the way every card of the deal
is somewhere (in a hand, or where the engine says it lies), the summary equals
a recount, and the game's description agrees with its engine.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cards import Card
from companion.errors import ChoiceNeeded
from companion.games import SLUGS, all_games, describe, get_engine
from companion.games.base import (
    CHOICE,
    LEADER_BY_RULE,
    NUMBER,
    NUMBERS,
    TWO_OCLOCK_HOLDER,
    GameSpec,
)
from companion.games.cursed import EFFECTS, FORTUNES
from companion.i18n import ui_keys
from companion.log import HEADER
from companion.replay import Replay, replay, start
from tests.companion.games.spec_table import make_log

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]
# Long enough for any game to end; a CURSED! game may wander on for a while.
MOST_EVENTS = 600


def players_of(count: int) -> list[str]:
    return NAMES[:count]


def counts_of(spec: GameSpec) -> list[int]:
    return list(spec.player_counts)


GAMES_AND_COUNTS = [
    (spec.slug, count) for spec in all_games() for count in counts_of(spec)
]


# -- the description and the engine agree ----------------------------------


@pytest.mark.parametrize(("slug", "count"), GAMES_AND_COUNTS)
def test_option_defaults_are_the_descriptions(slug: str, count: int) -> None:
    spec, engine = describe(slug), get_engine(slug)
    assert engine.options(players_of(count), {}) == spec.default_options(count)
    assert engine.spec is spec


@pytest.mark.parametrize("slug", SLUGS)
def test_a_game_describes_itself(slug: str) -> None:
    spec = describe(slug)
    assert spec.slug == slug
    assert spec.title.en and spec.title.ja and spec.aliases
    assert len({suit.code for suit in spec.suits}) == len(spec.suits)
    for suit in spec.suits:
        assert suit.colour.startswith("#") and len(suit.colour) == 7
        assert suit.name.en and suit.name.ja
    for option in spec.options:
        if option.confirmed:
            assert option.tag, f"{option.name} is confirmed but the form omits it"
    assert spec.has_tricks or not spec.suits


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_text_a_description_names_exists(lang: str) -> None:
    keys = ui_keys(lang)
    for spec in all_games():
        assert f"game.{spec.slug}" in keys
        assert f"stats.measure.{spec.measure}" in keys
        for option in spec.options:
            if option.heading:
                assert option.heading in keys
            if option.kind in (NUMBER, NUMBERS) and option.tag:
                assert f"opt.{option.name}" in keys
            if option.kind == CHOICE:
                assert all(f"{option.tag}.{value}" in keys for value in option.allowed)


def test_the_standard_deck_reads_as_faces_and_symbols() -> None:
    spec = describe("cursed-tricks")
    labels = [spec.card_label(Card("S", n)) for n in (1, 2, 10, 11, 12, 13)]
    assert labels == ["A♠", "2♠", "10♠", "J♠", "Q♠", "K♠"]
    assert spec.card_label(Card("P", 14)) == "14■"
    assert describe("trick-runaway").card_label(Card("C", 13)) == "13♣"


@pytest.mark.parametrize("game", SLUGS)
def test_every_suit_has_a_symbol_of_its_own(game: str) -> None:
    suits = describe(game).suits
    symbols = [suit.symbol for suit in suits]
    assert all(symbols)
    assert len(set(symbols)) == len(suits)
    assert not any(symbol.isalnum() for symbol in symbols)


def test_a_reason_names_cards_by_their_labels_but_keeps_the_codes() -> None:
    spec = describe("cursed-tricks")
    engine = get_engine("cursed-tricks")
    reason = engine.reason("keeps-curse", card="H12", suit="hearts", old="H13")
    assert "H12" in reason.text and "H13" in reason.text
    assert "Q♥" in reason.shown_text and "K♥" in reason.shown_text
    assert "H1" not in reason.shown_text
    assert spec.codes_label("S1 D10") == "A♠ 10♦"
    assert describe("trick-runaway").codes_label("T5 C20") == "5△ 20♣"


def test_an_unknown_game_is_a_bad_header() -> None:
    with pytest.raises(Exception) as caught:
        describe("hearts")
    assert getattr(caught.value, "event", None) == HEADER


# -- playing it --------------------------------------------------------------


class Table:
    """One game being played: the log so far, and the hands of this round."""

    def __init__(self, slug: str, count: int, rng: random.Random) -> None:
        self.spec = describe(slug)
        self.rng = rng
        self.players = players_of(count)
        self.replay: Replay = start(make_log(slug, self.players, []))
        self.hands: dict[str, list[Card]] = {}
        self.dealt: Counter[Card] = Counter()
        self.played: Counter[Card] = Counter()

    def record(self, event: dict[str, Any]) -> None:
        """Apply ``event``; a choice the rules ask for gets a random allowed answer."""
        while True:
            try:
                self.replay.apply(event)
                return
            except ChoiceNeeded as need:
                answer = self.rng.choice(need.options)
                if need.field == "lower":
                    event[need.field] = {**event.get("lower", {}), need.player: answer}
                else:
                    event[need.field] = answer

    def start_round(self) -> None:
        asks = self.spec.round_asks
        event: dict[str, Any] = {"type": "round"}
        by_rule = LEADER_BY_RULE in asks and self.replay.state.rounds
        if not by_rule or self.rng.random() < 0.3:
            event["leader"] = self.rng.choice(self.players)
        if "reversed" in asks:
            event["reversed"] = self.rng.random() < 0.3
        self.record(event)
        self.deal()

    def deal(self) -> None:
        """Shuffle what the prompt says may turn up and deal every player a hand."""
        prompt = self.replay.prompt()
        seats = list(prompt.seats)
        cards = list(prompt.cards)
        self.rng.shuffle(cards)
        tricks = self.tricks_in_round(len(cards))
        if TWO_OCLOCK_HOLDER in self.spec.round_asks:
            cards = self.black_hearts_deal(cards, tricks * len(seats))
        hands = {
            name: cards[at * tricks : (at + 1) * tricks]
            for at, name in enumerate(seats)
        }
        if TWO_OCLOCK_HOLDER in self.spec.round_asks:
            self.give_two_oclock(hands, seats[0])
        self.hands = hands
        self.dealt = Counter(card for hand in hands.values() for card in hand)
        self.played = Counter()
        assert not self.dealt - Counter(prompt.cards), "dealt a card not offered"

    def tricks_in_round(self, cards: int) -> int:
        """Every trick game here deals out as many tricks as its deck allows."""
        per_player = cards // len(self.players)
        limits = {"cursed-tricks": 13, "trick-runaway": {4: 13, 5: 10}}
        limit = limits.get(self.spec.slug, 5 if self.is_black_hearts else per_player)
        if isinstance(limit, dict):
            limit = limit[len(self.players)]
        return min(per_player, limit)

    @property
    def is_black_hearts(self) -> bool:
        return TWO_OCLOCK_HOLDER in self.spec.round_asks

    def black_hearts_deal(self, cards: list[Card], size: int) -> list[Card]:
        """Every Curse and Fixed card in the round, Random cards for the rest."""
        fixed = [card for card in cards if card.suit != "W"]
        random_cards = [card for card in cards if card.suit == "W"]
        dealt = fixed + random_cards[: size - len(fixed)]
        self.rng.shuffle(dealt)
        return dealt

    def give_two_oclock(self, hands: dict[str, list[Card]], leader: str) -> None:
        two = Card.parse(self.replay.state.options["two_oclock"])
        holder = next(name for name, hand in hands.items() if two in hand)
        if holder != leader:
            hands[holder].remove(two)
            hands[holder].append(hands[leader].pop())
            hands[leader].append(two)

    def play_trick(self) -> None:
        prompt = self.replay.prompt()
        offered = Counter(prompt.cards)
        cards: list[Card] = []
        for seat in prompt.seats:
            hand = self.hands[seat]
            lead = cards[0].suit if cards else None
            follow = [card for card in hand if card.suit == lead]
            card = self.rng.choice(follow or hand)
            if self.is_black_hearts and not self.replay.state.tricks and not cards:
                card = Card.parse(self.replay.state.options["two_oclock"])
            hand.remove(card)
            cards.append(card)
        assert not Counter(cards) - offered, "played a card the prompt did not offer"
        self.record({"type": "trick", "cards": [str(card) for card in cards]})
        self.played.update(cards)

    def check_cards(self) -> None:
        """Mid-round every dealt card is in a hand or where the engine puts it."""
        engine, state = self.replay.engine, self.replay.state
        placed: Counter[Card] = Counter()
        for cards in engine.where_cards_are(state).values():
            placed.update(cards)
        held = Counter(card for hand in self.hands.values() for card in hand)
        assert placed == self.played
        assert placed + held == self.dealt

    def cast(self) -> None:
        """One CURSED! event: mostly spells, now and then a rule change or altar."""
        standing = [name for name in self.players if name not in self.replay.state.out]
        roll = self.rng.random()
        if roll < 0.1:
            event = {
                "type": "altar",
                "player": self.rng.choice(standing),
                "text": self.rng.choice([None, "a goat"]),
            }
        elif roll < 0.2:
            event = {
                "type": "set",
                "player": self.rng.choice(standing),
                "fortune": self.rng.choice(FORTUNES),
                "state": self.rng.choice(["cursed", "ruined", "neutral"]),
            }
        else:
            event = {
                "type": "spell",
                "caster": self.rng.choice(standing),
                "target": self.rng.choice(standing),
                "fortune": self.rng.choice(FORTUNES),
                "effect": self.rng.choice([*EFFECTS, "curse", "curse"]),
            }
        self.record(event)

    def play(self) -> None:
        for _ in range(MOST_EVENTS):
            expects = self.replay.prompt().expects
            if not expects:
                return
            if not self.spec.has_tricks:
                self.cast()
            elif "trick" in expects:
                self.play_trick()
                if "trick" in self.replay.prompt().expects:
                    self.check_cards()
            else:
                self.start_round()
            self.check_summary()

    def check_summary(self) -> None:
        summary = self.replay.summary()
        spec = self.spec
        assert set(summary["totals"]) == set(self.players)
        assert set(summary["winners"]) <= set(self.players)
        rounds = [entry["scores"] for entry in summary["rounds"]]
        if spec.summed_rounds:
            recount = {name: sum(r[name] for r in rounds) for name in self.players}
            assert summary["totals"] == recount
        elif rounds and "trick" not in self.replay.prompt().expects:
            assert summary["totals"] == rounds[-1]
        options = self.replay.state.options
        for name, view in summary["players"].items():
            shown = spec.player_figures(view, options)
            missing = set(spec.figures) - set(shown)
            assert not missing, f"{name}'s view lacks {missing}"


def play_out(slug: str, count: int, seed: int) -> Table:
    table = Table(slug, count, random.Random(seed))
    table.play()
    # The log replays from scratch to the very same summary.
    again = replay(table.replay.log)
    assert again.summary() == table.replay.summary()
    return table


@pytest.mark.parametrize(("slug", "count"), GAMES_AND_COUNTS)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_random_games_keep_the_contract(slug: str, count: int, seed: int) -> None:
    table = play_out(slug, count, seed)
    summary = table.replay.summary()
    if table.spec.has_tricks:
        assert summary["finished"], "a trick game dealt out to the end is over"


def test_a_refusal_names_cards_by_their_labels() -> None:
    spec = describe("black-hearts")
    said = spec.labelled("Ann must lead Two o'clock (F2), not W4; event 3 is X9")
    assert said == "Ann must lead Two o'clock (2◆), not 4☆; event 3 is X9"
