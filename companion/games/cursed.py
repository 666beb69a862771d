"""CURSED!: five fortunes per player, moved by spells; the last player standing wins.

There are no tricks and no deck to track: the log records each spell, each
rule change a sacrifice makes, and what lies on each player's altar.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from companion.errors import FormatError, RuleError
from companion.games.base import (
    EVENT_STEP,
    NO_ROUNDS,
    Best,
    Engine,
    Event,
    GameSpec,
    Outcome,
    PlayerView,
    Prompt,
    Row,
    Say,
    State,
    Totals,
    Word,
    Words,
    handles,
    need,
    need_choice,
    need_player,
    reject_unknown_options,
)

FORTUNES: tuple[str, ...] = ("wealth", "health", "love", "fate", "luck")
STATES: tuple[str, ...] = ("blessed", "neutral", "cursed", "ruined")
EFFECTS: tuple[str, ...] = ("bless", "curse", "neutralize")

def _fortunes_when_winning(summary: Mapping[str, Any], name: str) -> Best | None:
    """Only a win counts; the more fortunes still standing, the better the win."""
    if name not in summary["winners"]:
        return None
    left = int(summary["totals"][name])
    return Best((left,), left)


SPEC = GameSpec(
    slug="cursed",
    title=Words("CURSED!", "CURSED!"),
    aliases=(
        "cursed game",
        "the cursed game",
        # "cursed" alone is a state; after "in" or "play" it is the game
        # (not "playing cursed", which would be longer than "cursed tricks").
        "in cursed",
        "play cursed",
        "カースド",
        "カーズド",
        # What players call it when the name escapes them.
        "fortune game",
        "fortunes game",
        "spell game",
        "spells game",
        "altar game",
        "altar of tyche game",
        "cursed with the altar of tyche",
        "cursed altar of tyche",
        "fortune card game",
        "spell card game",
        "運勢のゲーム",
        "運勢ゲーム",
        "呪文のゲーム",
        "呪文ゲーム",
        "祭壇のゲーム",
        "the fortune one",
        "the fortunes one",
        "game with the fortunes",
        "運勢のやつ",
        "呪文のやつ",
    ),
    player_counts=range(2, 7),
    measure="fortunes",
    best_of=_fortunes_when_winning,
    best_rule="fortunes-in-win",
    unit="spell",
    summed_rounds=False,
    chart_step=EVENT_STEP,
    chart_events=frozenset({"spell", "set"}),
    rounds=NO_ROUNDS,
    has_tricks=False,
    round_asks=(),
    leader_at_start=False,
)

# A fortune in one of these states counts against its player: five of them and
# the player is out.
_DOWN = frozenset({"cursed", "ruined"})

# One step of each plain spell; a state missing from a map does not move.
_BLESS = {"cursed": "neutral", "neutral": "blessed"}
_CURSE = {"blessed": "neutral", "neutral": "cursed"}
_DOUBLE_CURSE = {"blessed": "cursed", "neutral": "ruined", "cursed": "ruined"}
_NEUTRALIZE = {"blessed": "neutral", "cursed": "neutral"}


@dataclass
class CursedState(State):
    fortunes: dict[str, dict[str, str]] = field(default_factory=dict)
    altars: dict[str, str | None] = field(default_factory=dict)
    # in the order they went out, so a screen can tell the story
    out: list[str] = field(default_factory=list)

    def standing(self) -> list[str]:
        return [name for name in self.players if name not in self.out]


def spell_result(
    state: CursedState, caster: str, target: str, fortune: str, effect: str
) -> tuple[str, bool]:
    """The state ``target``'s ``fortune`` would be left in, and whether the
    spell is a double curse.

    Pure, so a screen can warn of a double curse before the table confirms.
    A ruined fortune stays ruined and is never reported as double-cursed,
    since the curse does nothing to it.
    """
    before = state.fortunes[target][fortune]
    if before == "ruined":
        return before, False
    if effect == "bless":
        return _BLESS.get(before, before), False
    if effect == "neutralize":
        return _NEUTRALIZE.get(before, before), False
    if effect != "curse":
        raise ValueError(f"unknown effect {effect!r}")
    if state.fortunes[caster][fortune] == "blessed":
        return _DOUBLE_CURSE[before], True
    return _CURSE.get(before, before), False


class CursedEngine(Engine[CursedState]):
    spec = SPEC
    topics: ClassVar[dict[str, str]] = {
        "setup": "Setting up",
        "fortunes": "The five fortunes and their four states",
        "spells": "Bless, curse and neutralize",
        "double-curse": "The double curse",
        "ruined": "Ruined fortunes",
        "sacrifices": "Sacrifices and the altar",
        "elimination": "Going out",
        "game-end": "The last player standing",
    }
    texts: ClassVar[dict[str, tuple[str, str]]] = {
        "moved": (
            "spells",
            "{caster} casts {effect} on {target}'s {fortune}: {before} → {after}",
        ),
        "stays": (
            "spells",
            "{caster} casts {effect} on {target}'s {fortune}, which stays {before}",
        ),
        "double": (
            "double-curse",
            "{caster}'s own {fortune} is blessed, so the curse is double: "
            "{target}'s {fortune} goes {before} → {after}",
        ),
        "ruined-stays": (
            "ruined",
            "{caster} casts {effect} on {target}'s {fortune}, but a ruined "
            "fortune stays ruined: only a sacrifice's rule change moves it",
        ),
        "set": (
            "sacrifices",
            "a sacrifice's rule change sets {player}'s {fortune}: {before} → {after}",
        ),
        "altar": (
            "sacrifices",
            "{player} lays a sacrifice on the altar: {text}",
        ),
        "altar-cleared": ("sacrifices", "{player}'s altar is cleared"),
        "out": (
            "elimination",
            "{player} is out: all five fortunes are cursed or ruined",
        ),
        "last-standing": (
            "game-end",
            "{player} is the last player standing and wins",
        ),
    }

    def options(self, players: list[str], given: dict[str, Any]) -> dict[str, Any]:
        reject_unknown_options(self, given, set())
        return {}

    def start(self, players: list[str], options: dict[str, Any]) -> CursedState:
        return CursedState(
            players=list(players),
            options=dict(options),
            fortunes={name: dict.fromkeys(FORTUNES, "neutral") for name in players},
            altars=dict.fromkeys(players),
        )

    @handles("spell")
    def _spell(self, state: CursedState, event: Event) -> Outcome:
        caster = need_player(state, event, "caster")
        target = need_player(state, event, "target")
        fortune = need_choice(event, "fortune", list(FORTUNES))
        effect = need_choice(event, "effect", list(EFFECTS))
        if caster in state.out:
            raise RuleError(f"{caster} is out of the game and casts no more spells")
        if target in state.out:
            raise RuleError(
                f"{target} is out of the game and cannot be the target of a spell"
            )
        before = state.fortunes[target][fortune]
        after, double = spell_result(state, caster, target, fortune, effect)
        out = Outcome()
        words = {"caster": caster, "target": target, "fortune": fortune}
        if before == "ruined":
            self.say(out, "ruined-stays", effect=effect, **words)
        elif double:
            self.say(out, "double", before=before, after=after, **words)
        elif after == before:
            self.say(out, "stays", effect=effect, before=before, **words)
        else:
            self.say(out, "moved", effect=effect, before=before, after=after, **words)
        state.fortunes[target][fortune] = after
        self._check_out(state, target, out)
        return out

    @handles("set")
    def _set(self, state: CursedState, event: Event) -> Outcome:
        player = need_player(state, event, "player")
        fortune = need_choice(event, "fortune", list(FORTUNES))
        new = need_choice(event, "state", list(STATES))
        if player in state.out:
            # Going out is for good: the rules end a player's game the moment
            # all five fortunes are down, so no later change brings them back.
            raise RuleError(
                f"{player} is out of the game: once out a player stays out, "
                "so their fortunes no longer change"
            )
        out = Outcome()
        before = state.fortunes[player][fortune]
        self.say(out, "set", player=player, fortune=fortune, before=before, after=new)
        state.fortunes[player][fortune] = new
        self._check_out(state, player, out)
        return out

    @handles("altar")
    def _altar(self, state: CursedState, event: Event) -> Outcome:
        player = need_player(state, event, "player")
        text = need(event, "text")
        if text is not None and not isinstance(text, str):
            raise FormatError(
                f'an altar\'s "text" is the sacrifice in words, or null to clear '
                f"it; not {json.dumps(text)}"
            )
        if text is not None and player in state.out:
            raise RuleError(f"{player} is out of the game and lays no more sacrifices")
        out = Outcome()
        # Clearing an out player's altar is allowed: their cards leave the
        # table, and recording that changes nothing else.
        if text is None:
            self.say(out, "altar-cleared", player=player)
        else:
            self.say(out, "altar", player=player, text=text)
        state.altars[player] = text
        return out

    def _check_out(self, state: CursedState, player: str, out: Outcome) -> None:
        if any(s not in _DOWN for s in state.fortunes[player].values()):
            return
        state.out.append(player)
        self.say(out, "out", player=player)
        standing = state.standing()
        # An event moves one player's fortunes only, so players go out one at
        # a time and the game always ends with exactly one left: nobody
        # standing cannot happen.
        if len(standing) == 1:
            state.finished = True
            state.winners = standing
            self.decide(state, out, "last-standing", player=standing[0])

    # The CSV: one row per event, then each player's five fortunes after it.

    def sheet_columns(self, players: Sequence[str]) -> list[Say]:
        return [
            Say("export.event"),
            Say("export.what"),
            Say("export.who"),
            Say("export.target"),
            Say("export.fortune"),
            Say("export.change"),
            *(
                Say("export.fortune-of", name, fortune)
                for name in players
                for fortune in FORTUNES
            ),
        ]

    def sheet_rows(
        self, before: CursedState, after: CursedState, event: Event, number: int
    ) -> list[Row]:
        kind = str(event.get("type"))
        who = event.get("caster", event.get("player"))
        change = event.get("effect", event.get("state"))
        fortune = event.get("fortune")
        # an altar's text is what the table typed, never one of the game's words
        typed = event.get("text") if kind == "altar" else None
        row: Row = [
            number,
            Say(f"export.kind.{kind}"),
            None if who is None else str(who),
            None if event.get("target") is None else str(event["target"]),
            None if fortune is None else Word(str(fortune)),
            typed if change is None else Word(str(change)),
        ]
        row += [
            Word(after.fortunes[name][fortune]) for name in after.players
            for fortune in FORTUNES
        ]
        return [row]

    def totals(self, state: CursedState) -> Totals:
        return {
            name: sum(s not in _DOWN for s in state.fortunes[name].values())
            for name in state.players
        }

    def player_view(self, state: CursedState, name: str) -> PlayerView:
        return {
            "fortunes": {f: state.fortunes[name][f] for f in FORTUNES},
            "altar": state.altars[name],
            "eliminated": name in state.out,
        }

    def prompt(self, state: CursedState) -> Prompt:
        if state.finished:
            return Prompt(expects=())
        return Prompt(expects=("spell", "set", "altar"))


ENGINE = CursedEngine()
