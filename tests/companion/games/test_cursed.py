"""CURSED!: spells, the double curse, ruined fortunes, sacrifices, going out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import FormatError, LogError, RuleError
from companion.games.cursed import ENGINE, FORTUNES, STATES, CursedState, spell_result
from companion.log import GameLog
from companion.replay import Replay, replay
from tests.companion.games.spec_table import cli_refusal

ROOT = Path(__file__).resolve().parents[3]
PLAYERS = ["Ann", "Ben", "Cy"]
KEYS = {"game", "finished", "winners", "totals", "rounds", "leader", "players"}


def spell(caster: str, target: str, fortune: str, effect: str) -> dict[str, Any]:
    return {
        "type": "spell",
        "caster": caster,
        "target": target,
        "fortune": fortune,
        "effect": effect,
    }


def set_(player: str, fortune: str, state: str) -> dict[str, Any]:
    return {"type": "set", "player": player, "fortune": fortune, "state": state}


def altar(player: str, text: str | None) -> dict[str, Any]:
    return {"type": "altar", "player": player, "text": text}


def play(
    events: list[dict[str, Any]],
    players: list[str] | None = None,
    options: dict[str, Any] | None = None,
) -> Replay:
    return replay(GameLog("cursed", players or PLAYERS, options or {}, events))


def refused(events: list[dict[str, Any]], players: list[str] | None = None) -> LogError:
    with pytest.raises(LogError) as error:
        play(events, players)
    return error.value


def fortunes(result: Replay, name: str) -> dict[str, str]:
    return result.summary()["players"][name]["fortunes"]


def setting(name: str, fortune: str, state: str) -> list[dict[str, Any]]:
    return [set_(name, fortune, state)] if state != "neutral" else []


def knock_out(caster: str, target: str) -> list[dict[str, Any]]:
    """Plain curses that take ``target`` from all neutral to out."""
    return [spell(caster, target, f, "curse") for f in FORTUNES]


# Start


def test_everyone_starts_neutral_with_five_fortunes_up() -> None:
    summary = play([]).summary()
    assert summary == {
        "game": "cursed",
        "finished": False,
        "winners": [],
        "totals": {"Ann": 5, "Ben": 5, "Cy": 5},
        "rounds": [],
        "leader": None,
        "players": {
            name: {
                "fortunes": dict.fromkeys(FORTUNES, "neutral"),
                "altar": None,
                "eliminated": False,
            }
            for name in PLAYERS
        },
    }
    assert play([]).prompt().expects == ("spell", "set", "altar")


def test_refuses_any_option() -> None:
    with pytest.raises(FormatError) as error:
        play([], options={"deck": "original"})
    assert error.value.event == 0
    assert '"deck" is not an option of CURSED!' in error.value.message


@pytest.mark.parametrize("count", [1, 7])
def test_player_count(count: int) -> None:
    with pytest.raises(FormatError) as error:
        play([], players=[f"P{i}" for i in range(count)])
    assert error.value.event == 0
    assert "2 to 6 players" in error.value.message


# Spells: every effect from every state


@pytest.mark.parametrize(
    ("effect", "before", "after"),
    [
        ("bless", "cursed", "neutral"),
        ("bless", "neutral", "blessed"),
        ("bless", "blessed", "blessed"),
        ("curse", "blessed", "neutral"),
        ("curse", "neutral", "cursed"),
        ("curse", "cursed", "cursed"),
        ("neutralize", "blessed", "neutral"),
        ("neutralize", "cursed", "neutral"),
        ("neutralize", "neutral", "neutral"),
    ],
)
def test_plain_spells(effect: str, before: str, after: str) -> None:
    result = play(
        [*setting("Ben", "love", before), spell("Ann", "Ben", "love", effect)]
    )
    assert fortunes(result, "Ben")["love"] == after
    text = result.steps[-1].outcome.reasons[0].text
    assert text.startswith(f"Ann casts {effect} on Ben's love")
    assert after in text


@pytest.mark.parametrize(
    ("before", "after"),
    [("blessed", "cursed"), ("neutral", "ruined"), ("cursed", "ruined")],
)
def test_double_curse_when_the_casters_same_fortune_is_blessed(
    before: str, after: str
) -> None:
    events = [
        set_("Ann", "wealth", "blessed"),
        *setting("Ben", "wealth", before),
        spell("Ann", "Ben", "wealth", "curse"),
    ]
    result = play(events)
    assert fortunes(result, "Ben")["wealth"] == after
    reason = result.steps[-1].outcome.reasons[0]
    assert reason.topic == "double-curse"
    assert "double" in reason.text
    assert f"{before} → {after}" in reason.text


def test_a_blessed_different_fortune_does_not_double() -> None:
    result = play(
        [set_("Ann", "luck", "blessed"), spell("Ann", "Ben", "wealth", "curse")]
    )
    assert fortunes(result, "Ben")["wealth"] == "cursed"


def test_bless_and_neutralize_are_never_double() -> None:
    events = [
        set_("Ann", "fate", "blessed"),
        set_("Ben", "fate", "cursed"),
        spell("Ann", "Ben", "fate", "neutralize"),
        spell("Ann", "Ben", "fate", "bless"),
    ]
    assert fortunes(play(events), "Ben")["fate"] == "blessed"


def test_cursing_your_own_blessed_fortune_is_double() -> None:
    # The caster's fortune is the target's: it is blessed, so the spec's rule
    # makes the curse double and it lands on cursed.
    result = play(
        [set_("Ann", "love", "blessed"), spell("Ann", "Ann", "love", "curse")]
    )
    assert fortunes(result, "Ann")["love"] == "cursed"


@pytest.mark.parametrize("effect", ["bless", "curse", "neutralize"])
def test_no_spell_moves_a_ruined_fortune(effect: str) -> None:
    events = [
        set_("Ann", "health", "blessed"),
        set_("Ben", "health", "ruined"),
        spell("Ann", "Ben", "health", effect),
    ]
    result = play(events)
    assert fortunes(result, "Ben")["health"] == "ruined"
    reason = result.steps[-1].outcome.reasons[0]
    assert reason.topic == "ruined"
    assert "stays ruined" in reason.text


def test_set_moves_a_ruined_fortune() -> None:
    result = play([set_("Cy", "fate", "ruined"), set_("Cy", "fate", "blessed")])
    assert fortunes(result, "Cy")["fate"] == "blessed"
    assert "ruined → blessed" in result.steps[-1].outcome.reasons[0].text


def test_spell_result_is_pure_and_flags_the_double_curse() -> None:
    state = ENGINE.start(PLAYERS, {})
    assert isinstance(state, CursedState)
    state.fortunes["Ann"]["love"] = "blessed"
    assert spell_result(state, "Ann", "Ben", "love", "curse") == ("ruined", True)
    assert spell_result(state, "Ben", "Ann", "love", "curse") == ("neutral", False)
    assert spell_result(state, "Ann", "Ben", "love", "bless") == ("blessed", False)
    state.fortunes["Ben"]["love"] = "ruined"
    assert spell_result(state, "Ann", "Ben", "love", "curse") == ("ruined", False)
    assert state.fortunes["Ben"]["love"] == "ruined"
    assert state.fortunes["Ann"]["love"] == "blessed"


# Totals, altars


def test_totals_count_fortunes_neither_cursed_nor_ruined() -> None:
    events = [
        set_("Ann", "wealth", "cursed"),
        set_("Ann", "health", "ruined"),
        set_("Ann", "love", "blessed"),
        spell("Cy", "Ben", "luck", "curse"),
    ]
    assert play(events).summary()["totals"] == {"Ann": 3, "Ben": 4, "Cy": 5}


def test_altar_holds_a_sacrifice_until_cleared() -> None:
    result = play([altar("Ben", "Redirect one reflexive play")])
    assert result.summary()["players"]["Ben"]["altar"] == "Redirect one reflexive play"
    assert result.steps[0].outcome.reasons[0].topic == "sacrifices"
    result = play([altar("Ben", "Redirect"), altar("Ben", "Take another turn")])
    assert result.summary()["players"]["Ben"]["altar"] == "Take another turn"
    result = play([altar("Ben", "Redirect"), altar("Ben", None)])
    assert result.summary()["players"]["Ben"]["altar"] is None
    assert "cleared" in result.steps[-1].outcome.reasons[0].text


# Going out and the end


def test_a_player_whose_five_fortunes_are_down_is_out_at_once() -> None:
    events = [
        set_("Ben", "wealth", "ruined"),
        set_("Ben", "health", "ruined"),
        *[spell("Ann", "Ben", f, "curse") for f in ("love", "fate")],
    ]
    assert not play(events).summary()["players"]["Ben"]["eliminated"]
    result = play([*events, spell("Cy", "Ben", "luck", "curse")])
    summary = result.summary()
    assert summary["players"]["Ben"]["eliminated"] is True
    assert summary["finished"] is False
    assert summary["totals"]["Ben"] == 0
    texts = [r.text for r in result.steps[-1].outcome.reasons]
    assert "Ben is out: all five fortunes are cursed or ruined" in texts


def test_a_set_can_put_a_player_out() -> None:
    events = [*knock_out("Ann", "Ben")[:4], set_("Ben", "luck", "ruined")]
    assert play(events).summary()["players"]["Ben"]["eliminated"] is True


def test_last_player_standing_wins() -> None:
    result = play([*knock_out("Ann", "Ben"), *knock_out("Ann", "Cy")])
    summary = result.summary()
    assert summary["finished"] is True
    assert summary["winners"] == ["Ann"]
    assert summary["leader"] is None
    assert result.prompt().expects == ()
    assert "Ann is the last player standing and wins" in [
        r.text for r in result.steps[-1].outcome.reasons
    ]


def test_two_players_end_when_one_goes_out_even_by_their_own_spell() -> None:
    events = [*knock_out("Ann", "Ann")]
    summary = play(events, players=["Ann", "Ben"]).summary()
    assert summary["finished"] is True
    assert summary["winners"] == ["Ben"]


def test_nothing_after_the_end() -> None:
    error = refused(
        [*knock_out("Ann", "Ben"), *knock_out("Ann", "Cy"), altar("Ann", "x")]
    )
    assert isinstance(error, RuleError)
    assert error.event == 11
    assert "already over" in error.message


OUT = knock_out("Ann", "Ben")  # Ben is out after these five events


@pytest.mark.parametrize(
    ("event", "words"),
    [
        (spell("Ben", "Cy", "love", "curse"), "Ben is out of the game and casts"),
        (spell("Ann", "Ben", "love", "bless"), "Ben is out of the game and cannot be"),
        (set_("Ben", "love", "neutral"), "once out a player stays out"),
        (altar("Ben", "Take another turn"), "Ben is out of the game and lays"),
    ],
)
def test_an_out_player_stays_out(event: dict[str, Any], words: str) -> None:
    error = refused([*OUT, event])
    assert isinstance(error, RuleError)
    assert error.event == 6
    assert words in error.message


def test_an_out_players_altar_may_be_cleared() -> None:
    result = play([altar("Ben", "Redirect"), *OUT, altar("Ben", None)])
    assert result.summary()["players"]["Ben"]["altar"] is None


# Bad logs


@pytest.mark.parametrize(
    ("event", "kind", "words"),
    [
        ({"type": "trick", "cards": ["R1"]}, FormatError, '"trick" is not an event'),
        (spell("Dan", "Ben", "love", "curse"), RuleError, '"Dan" is not a player'),
        (spell("Ann", "Dan", "love", "curse"), RuleError, '"Dan" is not a player'),
        (spell("Ann", "Ben", "beauty", "curse"), FormatError, '"beauty"'),
        (spell("Ann", "Ben", "love", "hex"), FormatError, '"effect" must be one of'),
        (
            {"type": "spell", "caster": "Ann", "target": "Ben", "fortune": "love"},
            FormatError,
            'needs "effect"',
        ),
        (set_("Ann", "love", "doomed"), FormatError, '"state" must be one of'),
        ({"type": "altar", "player": "Ann"}, FormatError, 'needs "text"'),
        (altar("Ann", 3), FormatError, "not 3"),  # type: ignore[arg-type]
    ],
)
def test_bad_events_are_refused(
    event: dict[str, Any], kind: type[LogError], words: str
) -> None:
    error = refused([altar("Cy", "x"), event])
    assert isinstance(error, kind)
    assert error.event == 2
    assert words in error.message


def test_cli_refuses_a_bad_log_in_one_line(tmp_path: Path) -> None:
    log = GameLog("cursed", PLAYERS, {}, [*OUT, spell("Ben", "Ann", "luck", "curse")])
    stderr = cli_refusal(tmp_path, log)
    assert stderr.startswith("error: event 6: Ben is out of the game")


def test_the_example_game_is_won_by_the_last_player_standing() -> None:
    log = GameLog.from_dict(json.loads((ROOT / "examples/cursed.json").read_text()))
    summary = replay(log).summary()
    assert summary["finished"] is True
    assert summary["winners"] == ["Ann"]
    assert summary["totals"] == {"Ann": 5, "Ben": 0, "Cy": 0}
    assert [n for n, p in summary["players"].items() if p["eliminated"]] == [
        "Ben",
        "Cy",
    ]


# Random games


@st.composite
def games(draw: st.DrawFn) -> tuple[list[str], list[dict[str, Any]]]:
    players = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"][: draw(st.integers(2, 6))]
    state = ENGINE.start(players, {})
    events: list[dict[str, Any]] = []

    def add(event: dict[str, Any]) -> None:
        ENGINE.apply(state, event)
        events.append(event)

    for _ in range(draw(st.integers(0, 60))):
        if state.finished:
            break
        standing = state.standing()
        kind = draw(st.sampled_from(["spell"] * 6 + ["set", "altar"]))
        fortune = draw(st.sampled_from(FORTUNES))
        if kind == "spell":
            caster, target = (
                draw(st.sampled_from(standing)),
                draw(st.sampled_from(standing)),
            )
            add(
                spell(
                    caster,
                    target,
                    fortune,
                    draw(st.sampled_from(["bless", "curse", "neutralize"])),
                )
            )
        elif kind == "set":
            add(
                set_(
                    draw(st.sampled_from(standing)),
                    fortune,
                    draw(st.sampled_from(STATES)),
                )
            )
        else:
            add(
                altar(
                    draw(st.sampled_from(standing)),
                    draw(st.one_of(st.none(), st.text(max_size=5))),
                )
            )
    # Then curse everyone but one survivor out, to reach the end.
    while not state.finished:
        standing = state.standing()
        survivor, victim = standing[0], standing[-1]
        fortune = next(
            f for f in FORTUNES if state.fortunes[victim][f] not in ("cursed", "ruined")
        )
        add(spell(survivor, victim, fortune, "curse"))
    return players, events


def check_invariants(
    before: CursedState, after: CursedState, event: dict[str, Any]
) -> None:
    assert set(before.out) <= set(after.out)
    for name in after.players:
        for f in FORTUNES:
            was, now = before.fortunes[name][f], after.fortunes[name][f]
            if was == "ruined" and now != "ruined":
                assert event["type"] == "set"
        down = all(after.fortunes[name][f] in ("cursed", "ruined") for f in FORTUNES)
        assert (name in after.out) == (down or name in before.out)


@settings(max_examples=40, deadline=None)
@given(games())
def test_random_games_keep_the_rules(
    game: tuple[list[str], list[dict[str, Any]]],
) -> None:
    players, events = game
    result = play([], players=players)
    for number, event in enumerate(events, start=1):
        before = result.state
        result.apply(event)
        after = result.state
        assert isinstance(before, CursedState) and isinstance(after, CursedState)
        check_invariants(before, after, event)
        summary = result.summary()
        assert set(summary) == KEYS
        recount = {
            name: sum(s in ("blessed", "neutral") for s in p["fortunes"].values())
            for name, p in summary["players"].items()
        }
        assert summary["totals"] == recount
        assert all(
            set(p) == {"fortunes", "altar", "eliminated"}
            for p in summary["players"].values()
        )
        prefix = play(events[:number], players=players).summary()
        assert prefix == summary
        assert play(events[:number], players=players).summary() == prefix
    summary = result.summary()
    assert summary["finished"] is True
    assert len(summary["winners"]) == 1
    assert [n for n in players if not summary["players"][n]["eliminated"]] == summary[
        "winners"
    ]
