"""Trick Runaway: the highest card is cursed, the lowest takes damage.

Each player carries a Curse card with two tracks: the escape track (a modifier
added to the rank of every card they play) and the damage track (a modifier
added to the damage they take, ending on an instant-death space). A curse
drops one of the two cubes one space. Life is lost to damage; two players out
of the round end it, and a player going out a second time (already on the
black side) ends the game.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.cards import Card, deck_from_lists
from companion.errors import ChoiceNeeded, FormatError, RuleError
from companion.games.base import (
    DARK_LABEL,
    LEADER,
    LEADER_BY_RULE,
    NUMBER,
    NUMBERS,
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
    need_player,
    option_error,
    reject_unknown_options,
)
from companion.games.tricks import (
    FollowWatch,
    Play,
    RoundCards,
    clockwise,
    left_of,
    read_trick,
)

CLUBS = "C"
DECK = deck_from_lists(
    {
        "C": [3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 13, 15, 20],
        "H": [4, 5, 6, 7, 8, 10, 11, 12, 13, 13, 15],
        "S": [3, 4, 6, 7, 8, 10, 11, 12, 13, 13, 15],
        "D": [4, 5, 6, 7, 8, 10, 11, 12, 13, 14],
        "T": [5, 7, 9, 9, 9, 11, 13],
    }
)
HAND_SIZE = {4: 13, 5: 10}

ESCAPE = "escape"
DAMAGE = "damage"
TRACKS = [ESCAPE, DAMAGE]
WHITE = "white"
BLACK = "black"
DEATH = "death"

# The printed Curse cards and Life cards differ between editions, so the
# table confirms its numbers once when it starts a game.
_EDITION = {"confirmed": True, "tag": "opt"}


def _survived_with(summary: Mapping[str, Any], name: str) -> Best | None:
    """The best game is the one survived with the most life; a loss never counts."""
    if summary["players"][name]["eliminated"]:
        return None
    life = int(summary["totals"][name])
    return Best((life,), life)


SPEC = GameSpec(
    slug="trick-runaway",
    title=Words("Trick Runaway", "トリック・ランナウェイ"),
    aliases=(
        "trick run away",
        "trickrunaway",
        "runaway",
        "run away",
        "トリックランナウェイ",
        "ランナウェイ",
        "トリックランナウエイ",
        "ランナウエイ",
        "トリックランアウェイ",
        "ランアウェイ",
        "トリラン",
        "trick-runaway",
        # What players call it when the name escapes them.
        "running away game",
        "run away game",
        "runaway game",
        "two suit game",
        "two-suit game",
        "second suit game",
        "cave game",
        "escape game",
        "life card game",
        "curse track game",
        "逃げるゲーム",
        "逃走ゲーム",
        "逃げるトリック",
        "洞窟のゲーム",
        "2スートのゲーム",
        "ライフカードのゲーム",
        "the cave one",
        "the running away one",
        "逃げるやつ",
        "洞窟のやつ",
        # Its story: getting out of a dragon's dungeon alive.
        "dragon game",
        "dragon dungeon game",
        "dungeon game",
        "the dragon one",
        "ドラゴンのゲーム",
        "ダンジョンのゲーム",
        "ドラゴンのやつ",
    ),
    player_counts=range(4, 6),
    suits=(
        Suit("C", Words("clubs", "クラブ"), "#2E7D32", "♣"),
        Suit("H", Words("hearts", "ハート"), "#C62828", "♥"),
        Suit("S", Words("spades", "スペード"), "#37474F", "♠"),
        Suit("D", Words("diamonds", "ダイヤ"), "#EF6C00", "♦", DARK_LABEL),
        Suit("T", Words("hats", "帽子"), "#795548", "△"),
    ),
    options=(
        OptionSpec(
            "life",
            NUMBER,
            17,
            by_count={4: 17, 5: 15},
            heading="new.runaway-edition",
            **_EDITION,
        ),
        # one more than "life" unless the table says otherwise
        OptionSpec("black_life", NUMBER, 18, by_count={4: 18, 5: 16}, **_EDITION),
        OptionSpec("escape_track", NUMBERS, [0, -2, -3, -4], **_EDITION),
        OptionSpec(
            "damage_track",
            NUMBERS,
            [-2, 0, 3],
            by_count={4: [-2, 0, 3], 5: [-1, 1, 4]},
            **_EDITION,
        ),
    ),
    figures=("life", "side", "escape", "damage", "curses", "out", "eliminated"),
    measure="life",
    best_of=_survived_with,
    best_rule="most-life",
    summed_rounds=False,
    round_asks=(LEADER, LEADER_BY_RULE),
    trick_choices=("lower",),
)
OPTION_NAMES = {option.name for option in SPEC.options}

# How a curse is settled for one player: a track drops by rule, the table
# chooses between the two, or no cube can drop at all.
CHOOSE = "choose"
STUCK = "stuck"


@dataclass
class TrickRunawayState(State):
    life: dict[str, int] = field(default_factory=dict)
    side: dict[str, str] = field(default_factory=dict)
    # Cube positions as row numbers from the top of each track; the damage
    # track's row len(damage_track) is the instant-death space.
    escape_at: dict[str, int] = field(default_factory=dict)
    damage_at: dict[str, int] = field(default_factory=dict)
    curses: dict[str, int] = field(default_factory=dict)
    out: list[str] = field(default_factory=list)
    eliminated: list[str] = field(default_factory=list)
    in_round: bool = False
    tricks: int = 0
    # Who played last among the damaged in the latest trick: the next round's
    # leader sits to their left.
    last_damaged: str | None = None
    round_cards: RoundCards = field(default_factory=lambda: RoundCards(DECK))
    watch: FollowWatch = field(default_factory=FollowWatch)
    played: dict[str, Counter[Card]] = field(default_factory=dict)


def _signed(number: int, modifier: int) -> str:
    if modifier < 0:
        return f"{number} − {-modifier}"
    return f"{number} + {modifier}"


class TrickRunawayEngine(Engine[TrickRunawayState]):
    spec = SPEC
    topics = {
        "setup": "Setting up: deck, life, Curse card, dealing",
        "follow-suit": "Following suit: two suits, clubs ONLY",
        "counting-cards": "Which cards count, and their rank",
        "curses": "Curses: the highest rank",
        "damage": "Damage: the lowest rank",
        "next-leader": "Who leads next",
        "out-of-round": "Out of the round",
        "round-end": "The end of a round",
        "game-end": "The end of the game",
    }
    texts = {
        "round-start": (
            "setup",
            "Round {round} begins: {hand} cards each, {player} leads",
        ),
        "round-leader": (
            "next-leader",
            "{player} leads: the player left of {damaged}, who took damage in "
            "the last trick of the previous round",
        ),
        "second-suit": (
            "follow-suit",
            "{card} sets the second suit: {suit} counts from now on, with {lead}",
        ),
        "clubs-led": (
            "follow-suit",
            "Clubs were led: only clubs count in this trick",
        ),
        "discard": (
            "counting-cards",
            "{player}'s {card} is a discard: no curse, no damage",
        ),
        "rank": (
            "counting-cards",
            "{player}'s {card} has rank {rank} ({sum}, never below 0)",
        ),
        "cursed": (
            "curses",
            "{player} is cursed: {card} has the highest rank ({rank})",
        ),
        "drop-by-rule": (
            "curses",
            "{player}'s {track} cube drops (the higher cube): {track} is now "
            "{modifier}",
        ),
        "drop-chosen": (
            "curses",
            "{player}'s cubes were level and the table lowers {track}: {track} "
            "is now {modifier}",
        ),
        "drop-only": (
            "curses",
            "{player}'s {track} cube is the only one that can still drop: "
            "{track} is now {modifier}",
        ),
        "seventh-curse": (
            "curses",
            "{player} cannot drop a cube any further and is completely eliminated",
        ),
        "damaged": (
            "damage",
            "{player} takes {amount} damage ({sum}) with {card}, the lowest rank "
            "({rank}): life {life}",
        ),
        "death": (
            "damage",
            "{player} takes damage with {card} while on the instant-death space: "
            "life drops to 0",
        ),
        "spared": (
            "damage",
            "{player} has the lowest rank but takes no damage: completely "
            "eliminated by this trick's curse",
        ),
        "out": (
            "out-of-round",
            "{player} is out of the round with life {life}",
        ),
        "next-leader": (
            "next-leader",
            "{player} leads next: the next player in the round left of {damaged}",
        ),
        "end-two-out": (
            "round-end",
            "The round ends: {count} players are out of it",
        ),
        "end-empty": (
            "round-end",
            "The round ends: the hands are empty",
        ),
        "exhaustion": (
            "round-end",
            "{player} is out by exhaustion, with the least life among the "
            "survivors ({life})",
        ),
        "flip": (
            "round-end",
            "{player} flips the Life card to black: life {life}",
        ),
        "black-out": (
            "game-end",
            "{player} was already on the black side and is completely eliminated",
        ),
        "next-round": (
            "round-end",
            "Nobody is completely eliminated: curse tracks reset, life carries "
            "over to the next round",
        ),
        "game-over": (
            "game-end",
            "The game is over: {winners} survive and win",
        ),
    }

    # --- options and setup -------------------------------------------------

    def options(self, players: list[str], given: dict[str, Any]) -> dict[str, Any]:
        reject_unknown_options(self, given, OPTION_NAMES)
        count = len(players) if len(players) in HAND_SIZE else 4
        life = _positive(given, "life", _default("life", count))
        return {
            "life": life,
            "black_life": _positive(given, "black_life", life + 1),
            "escape_track": _track(given, "escape_track", _default("escape_track")),
            "damage_track": _track(
                given, "damage_track", _default("damage_track", count)
            ),
        }

    def start(self, players: list[str], options: dict[str, Any]) -> TrickRunawayState:
        state = TrickRunawayState(
            players=list(players),
            options=options,
            life={name: options["life"] for name in players},
            side={name: WHITE for name in players},
        )
        self._reset_round(state)
        return state

    def _reset_round(self, state: TrickRunawayState) -> None:
        for name in state.players:
            state.escape_at[name] = 0
            state.damage_at[name] = 0
            state.curses[name] = 0
        state.out = []
        state.tricks = 0
        self._clear_cards(state)

    def _clear_cards(self, state: TrickRunawayState) -> None:
        state.round_cards.clear()
        state.watch.clear()
        state.played = {name: Counter() for name in state.players}

    def _hand_size(self, state: TrickRunawayState) -> int:
        return HAND_SIZE[len(state.players)]

    # --- the Curse card ----------------------------------------------------

    def _escape(self, state: TrickRunawayState, name: str) -> int:
        return state.options["escape_track"][state.escape_at[name]]

    def _damage(self, state: TrickRunawayState, name: str) -> int | None:
        """The damage modifier, or None on the instant-death space."""
        track = state.options["damage_track"]
        at = state.damage_at[name]
        return track[at] if at < len(track) else None

    def _modifier(self, state: TrickRunawayState, name: str, track: str) -> str:
        if track == ESCAPE:
            return str(self._escape(state, name))
        damage = self._damage(state, name)
        return "instant death" if damage is None else str(damage)

    def _curse_rule(self, state: TrickRunawayState, name: str) -> tuple[str, str]:
        """Which cube a curse drops, and the message saying why.

        Gives (CHOOSE, "drop-chosen") when the table picks and (STUCK, ...)
        when no cube can drop. With tracks of unequal length one cube may reach
        its bottom while the other can still drop; then the other one drops,
        whichever row it is on.
        """
        movable = []
        if state.escape_at[name] < len(state.options["escape_track"]) - 1:
            movable.append(ESCAPE)
        if state.damage_at[name] < len(state.options["damage_track"]):
            movable.append(DAMAGE)
        if not movable:
            return STUCK, "seventh-curse"
        if len(movable) == 1:
            return movable[0], "drop-only"
        if state.escape_at[name] == state.damage_at[name]:
            return CHOOSE, "drop-chosen"
        higher = ESCAPE if state.escape_at[name] < state.damage_at[name] else DAMAGE
        return higher, "drop-by-rule"

    # --- events ------------------------------------------------------------

    @handles("round")
    def _round(self, state: TrickRunawayState, event: Event) -> Outcome:
        if state.in_round:
            raise RuleError(
                f"round {len(state.rounds) + 1} is still in progress "
                f"({state.tricks} of {self._hand_size(state)} tricks played)"
            )
        out = Outcome()
        if event.get("leader") is not None:
            leader = need_player(state, event, "leader")
        elif not state.rounds or state.last_damaged is None:
            raise FormatError(
                'the first round needs a "leader": who leads its first trick'
            )
        else:
            leader = left_of(state.players, state.last_damaged)
            self.say(out, "round-leader", player=leader, damaged=state.last_damaged)
        self._reset_round(state)
        state.in_round = True
        state.leader = leader
        self.say(
            out,
            "round-start",
            round=len(state.rounds) + 1,
            hand=self._hand_size(state),
            player=leader,
        )
        return out

    @handles("trick")
    def _trick(self, state: TrickRunawayState, event: Event) -> Outcome:
        if not state.in_round or state.leader is None:
            raise RuleError(
                "no round is in progress: record a round (who leads) before "
                "its tricks"
            )
        seats = clockwise(state.players, state.leader, skip=state.out)
        plays = read_trick(event, seats, state.round_cards)
        choices = self._read_lower(state, event)
        out = Outcome()

        for play in plays:
            if state.watch.broken(play):
                self.warn(
                    out,
                    "showed-out",
                    player=play.player,
                    card=play.card,
                    suit=SPEC.suit_name(play.card.suit),
                )
        counting, voids = self._count(plays, out)
        ranks = {
            play.player: max(0, play.card.number + self._escape(state, play.player))
            for play in counting
        }
        for play in counting:
            if self._escape(state, play.player) != 0:
                self.say(
                    out,
                    "rank",
                    player=play.player,
                    card=play.card,
                    rank=ranks[play.player],
                    sum=_signed(play.card.number, self._escape(state, play.player)),
                )
        high, low = max(ranks.values()), min(ranks.values())
        cursed = [play for play in counting if ranks[play.player] == high]
        damaged = [play for play in counting if ranks[play.player] == low]
        for play in cursed:
            rule, _ = self._curse_rule(state, play.player)
            if rule == CHOOSE and play.player not in choices:
                raise ChoiceNeeded(
                    f"{play.player} is cursed with both cubes level: say which "
                    f'track drops ("lower": {{"{play.player}": "escape" or '
                    f'"damage"}})',
                    "lower",
                    play.player,
                    list(TRACKS),
                )

        # Everything is checked: from here on the state changes.
        state.round_cards.take(play.card for play in plays)
        for play in plays:
            state.played[play.player][play.card] += 1
        for player, suits in voids:
            state.watch.showed_out(player, suits)
        state.tricks += 1

        newly_eliminated = self._curse(state, cursed, ranks, choices, out)
        self._hurt(state, damaged, ranks, newly_eliminated, out)
        state.last_damaged = damaged[-1].player

        if len(state.out) >= 2 or state.tricks >= self._hand_size(state):
            self._end_round(state, out)
        else:
            state.leader = left_of(state.players, state.last_damaged, state.out)
            self.say(
                out, "next-leader", player=state.leader, damaged=state.last_damaged
            )
        return out

    def _read_lower(self, state: TrickRunawayState, event: Event) -> dict[str, str]:
        given = event.get("lower")
        if given is None:
            return {}
        if not isinstance(given, dict):
            raise FormatError(
                '"lower" must map cursed players to "escape" or "damage", '
                f"not {json.dumps(given)}"
            )
        for name, track in given.items():
            if name not in state.players:
                raise RuleError(
                    f'"lower" names {json.dumps(name)}, who is not a player in '
                    "this game"
                )
            if track not in TRACKS:
                raise FormatError(
                    f'"lower" for {name} must be "escape" or "damage", '
                    f"not {json.dumps(track)}"
                )
        return dict(given)

    def _count(
        self, plays: list[Play], out: Outcome
    ) -> tuple[list[Play], list[tuple[str, set[str]]]]:
        """The counting plays, and who showed out of which suits."""
        lead = plays[0].card.suit
        second: str | None = None
        counting = [plays[0]]
        voids: list[tuple[str, set[str]]] = []
        if lead == CLUBS:
            self.say(out, "clubs-led")
        for play in plays[1:]:
            suit = play.card.suit
            # Clubs led leave no second suit: only clubs must be followed.
            required = {lead} if second is None else {lead, second}
            if suit not in required:
                voids.append((play.player, required))
            if suit in (lead, second):
                counting.append(play)
            elif lead != CLUBS and second is None:
                second = suit
                counting.append(play)
                self.say(
                    out,
                    "second-suit",
                    card=play.card,
                    suit=SPEC.suit_name(suit),
                    lead=SPEC.suit_name(lead),
                )
            else:
                self.say(out, "discard", player=play.player, card=play.card)
        return counting, voids

    def _curse(
        self,
        state: TrickRunawayState,
        cursed: list[Play],
        ranks: dict[str, int],
        choices: dict[str, str],
        out: Outcome,
    ) -> set[str]:
        """Drop cubes for the cursed; returns who a 7th curse eliminated."""
        eliminated: set[str] = set()
        for play in cursed:
            name = play.player
            self.say(out, "cursed", player=name, card=play.card, rank=ranks[name])
            state.curses[name] += 1
            track, message = self._curse_rule(state, name)
            if track == STUCK:
                eliminated.add(name)
                state.eliminated.append(name)
                if name not in state.out:
                    state.out.append(name)
                self.say(out, message, player=name)
                continue
            if track == CHOOSE:
                track = choices[name]
            if track == ESCAPE:
                state.escape_at[name] += 1
            else:
                state.damage_at[name] += 1
            self.say(
                out,
                message,
                player=name,
                track=track,
                modifier=self._modifier(state, name, track),
            )
        return eliminated

    def _hurt(
        self,
        state: TrickRunawayState,
        damaged: list[Play],
        ranks: dict[str, int],
        spared: set[str],
        out: Outcome,
    ) -> None:
        for play in damaged:
            name = play.player
            if name in spared:
                self.say(out, "spared", player=name)
                continue
            modifier = self._damage(state, name)
            if modifier is None:
                state.life[name] = 0
                self.say(out, "death", player=name, card=play.card)
            else:
                amount = max(0, play.card.number + modifier)
                state.life[name] -= amount
                self.say(
                    out,
                    "damaged",
                    player=name,
                    amount=amount,
                    sum=_signed(play.card.number, modifier),
                    card=play.card,
                    rank=ranks[name],
                    life=state.life[name],
                )
            if state.life[name] <= 0 and name not in state.out:
                state.out.append(name)
                self.say(out, "out", player=name, life=state.life[name])

    def _end_round(self, state: TrickRunawayState, out: Outcome) -> None:
        if len(state.out) >= 2:
            self.say(out, "end-two-out", count=len(state.out))
        else:
            self.say(out, "end-empty")
            survivors = [name for name in state.players if name not in state.out]
            least = min(state.life[name] for name in survivors)
            for name in survivors:
                if state.life[name] == least:
                    state.out.append(name)
                    self.say(out, "exhaustion", player=name, life=least)
        for name in state.players:
            if name not in state.out or name in state.eliminated:
                continue
            if state.side[name] == WHITE:
                state.side[name] = BLACK
                state.life[name] = state.options["black_life"]
                self.say(out, "flip", player=name, life=state.life[name])
            else:
                state.eliminated.append(name)
                self.say(out, "black-out", player=name)
        state.rounds.append({"scores": dict(state.life)})
        state.in_round = False
        state.leader = None
        if state.eliminated:
            state.finished = True
            state.winners = [n for n in state.players if n not in state.eliminated]
            self.decide(
                state, out, "game-over", winners=", ".join(state.winners) or "nobody"
            )
            self._clear_cards(state)
        else:
            # The tracks reset when the next round starts, so that between
            # rounds the table still sees how the last one ended.
            self._clear_cards(state)
            self.say(out, "next-round")

    # --- views -------------------------------------------------------------

    # The CSV: one row per round, each player's life and side, who went out.

    def sheet_columns(self, players: Sequence[str]) -> list[Say]:
        columns = [Say("export.round")]
        for name in players:
            columns += [Say("export.life-of", name), Say("export.side-of", name)]
        return [*columns, Say("export.out")]

    def sheet_rows(
        self,
        before: TrickRunawayState,
        after: TrickRunawayState,
        event: Event,
        number: int,
    ) -> list[Row]:
        if len(after.rounds) == len(before.rounds):
            return []
        row: Row = [len(after.rounds)]
        for name in after.players:
            side = Say(f"export.side.{after.side[name]}")
            row += [int(after.rounds[-1]["scores"][name]), side]
        return [[*row, ", ".join(after.out)]]

    def totals(self, state: TrickRunawayState) -> Totals:
        return dict(state.life)

    def player_view(self, state: TrickRunawayState, name: str) -> PlayerView:
        damage = self._damage(state, name)
        return {
            "life": state.life[name],
            "side": state.side[name],
            "escape": self._escape(state, name),
            "damage": DEATH if damage is None else damage,
            "curses": state.curses[name],
            "out": name in state.out,
            "eliminated": name in state.eliminated,
        }

    def prompt(self, state: TrickRunawayState) -> Prompt:
        if state.finished:
            return Prompt(expects=())
        if not state.in_round or state.leader is None:
            return Prompt(expects=("round",), cards=state.round_cards.unplayed())
        return Prompt(
            expects=("trick",),
            seats=tuple(clockwise(state.players, state.leader, skip=state.out)),
            cards=state.round_cards.unplayed(),
        )

    def where_cards_are(self, state: TrickRunawayState) -> dict[str, Counter[Card]]:
        return {
            f"played:{name}": Counter(cards)
            for name, cards in state.played.items()
            if cards
        }


def _default(name: str, player_count: int = 4) -> Any:
    return SPEC.option(name).default_for(player_count)


def _positive(given: dict[str, Any], name: str, default: int) -> int:
    value = given.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise option_error(
            f'"{name}" must be a whole number of life points, 1 or more, '
            f"not {json.dumps(value)}"
        )
    return value


def _track(given: dict[str, Any], name: str, default: list[int]) -> list[int]:
    value = given.get(name, default)
    if (
        not isinstance(value, list)
        or not value
        or any(isinstance(n, bool) or not isinstance(n, int) for n in value)
    ):
        raise option_error(
            f'"{name}" must be a non-empty list of whole numbers, top space '
            f"first, not {json.dumps(value)}"
        )
    return list(value)


ENGINE = TrickRunawayEngine()
