"""The rules reference in Chromium: search, filter, and reasons that open rules."""

from __future__ import annotations

import pytest

from companion import rules
from companion.games import SLUGS
from tests.screens.conftest import Table, check_figures, plan_trick, play_trick
from tests.screens.test_history import imported

pytestmark = pytest.mark.browser


def shown_results(table: Table) -> list[str]:
    """The result rows on screen, top to bottom, as "<game>/<topic>"."""
    found = table.page.evaluate(
        """() => [...document.querySelectorAll('[flt-semantics-identifier^="rule-"]')]
            .map(node => node.getAttribute('flt-semantics-identifier'))"""
    )
    rows = []
    for identifier in found:
        rest = identifier.removeprefix("rule-")
        # "cursed" begins "cursed-tricks": the longest name that fits is the game.
        for slug in sorted(SLUGS, key=len, reverse=True):
            if rest.startswith(f"{slug}-"):
                rows.append(f"{slug}/{rest.removeprefix(f'{slug}-')}")
                break
    return rows


def search(table: Table, query: str, first: str) -> list[str]:
    """Type ``query`` and wait until ``first`` heads the results."""
    table.type_into("rules-search", query)
    table.wait_until(lambda: shown_results(table)[:1] == [first])
    return shown_results(table)


def test_search_forgives_typos_and_opens_an_entry(table: Table) -> None:
    table.tap("rules")
    table.wait("rules-search")
    # Before anything is typed, the entries are listed as the reference has them.
    first = [f"{e.game}/{e.id}" for e in rules.load("en")[:3]]
    table.wait_until(lambda: shown_results(table)[:3] == first)
    table.shot("rules-index")
    search(table, "exhaustion", "trick-runaway/round-end")
    # Each result answers before it is opened.
    expected = rules.entry("trick-runaway", "round-end", "en")
    table.wait_text("answer-trick-runaway-round-end", expected.answer)
    table.shot("rules-search")
    # Key by key, as a thumb types: each redraw must leave the field alone.
    table.type_into("rules-search", "")
    table.page.keyboard.type("exaustion", delay=25)
    table.wait_until(lambda: shown_results(table)[:1] == ["trick-runaway/round-end"])
    typed = table.page.locator("input:focus, textarea:focus")
    assert typed.input_value() == "exaustion"

    table.tap("rule-trick-runaway-round-end")
    table.wait_text("rule-title", expected.title)
    table.wait_text("rule-answer", expected.answer)
    table.shot("rules-entry")
    table.tap("rules-back")
    table.wait("rules-search")
    # Back from an entry keeps what was typed and found.
    assert shown_results(table)[0] == "trick-runaway/round-end"

    table.type_into("rules-search", "xylophone")
    table.wait("rules-none")
    # A game named in the question keeps the results to it.
    table.type_into("rules-search", "CURSED! how do you win")
    table.wait_until(
        lambda: (
            (rows := shown_results(table))[:1] == ["cursed/game-end"]
            and all(row.startswith("cursed/") for row in rows)
        )
    )
    table.type_into("rules-search", "double curse")
    table.tap("rules-game-cursed")
    table.wait_until(
        lambda: (
            (rows := shown_results(table))[:1] == ["cursed/double-curse"]
            and all(row.startswith("cursed/") for row in rows)
        )
    )


def test_japanese_search(tablet: Table) -> None:
    tablet.tap("lang")
    tablet.wait_text("rules", "ルール")
    tablet.tap("rules")
    search(tablet, "二時", "black-hearts/two-oclock")
    tablet.shot("rules-search-ja")
    tablet.tap("rule-black-hearts-two-oclock")
    expected = rules.entry("black-hearts", "two-oclock", "ja")
    tablet.wait_text("rule-title", expected.title)
    tablet.wait_text("rule-answer", expected.answer)
    tablet.shot("rules-entry-ja")
    tablet.tap("lang")
    # The same entry, now in English.
    tablet.wait_text("rule-title", rules.entry("black-hearts", "two-oclock").title)


def test_a_reason_opens_its_rule_and_back_returns_to_the_game(table: Table) -> None:
    game_id = table.new_game("cursed-tricks", ["Ann", "Ben", "Cy", "Dee"], "Ann")
    play_trick(table, plan_trick(table.server, game_id))
    table.wait("reason-0")
    table.shot("rules-reasons")
    stored = table.server.store()
    before = stored.load(game_id).log.events
    reason = stored.replay(game_id).steps[-1].outcome.reasons[0]

    table.tap("reason-0")
    expected = rules.entry("cursed-tricks", reason.topic, "en")
    table.wait_text("rule-title", expected.title)
    table.shot("rules-from-reason")
    table.tap("rules-back")
    table.wait("undo")
    table.wait("reason-0")
    assert table.server.store().load(game_id).log.events == before
    check_figures(table, game_id)

    # The game's other entries are one tap away from a reason's entry.
    table.tap("reason-0")
    table.tap("rules-browse")
    table.wait_until(
        lambda: (
            (rows := shown_results(table))
            and all(row.startswith("cursed-tricks/") for row in rows)
        )
    )
    table.tap("rules-back")
    table.wait("undo")


def test_a_past_games_reason_opens_its_rule(table: Table) -> None:
    game_id = imported(table.server)["cursed.json"]
    table.tap("past-games")
    table.tap(f"game-{game_id}")
    table.tap("detail-events-toggle")
    table.wait("detail-events")
    reason = table.server.store().replay(game_id).steps[0].outcome.reasons[0]

    table.tap("event-1")  # a line of the story opens its reasons
    table.tap("event-1-reason-0")
    expected = rules.entry("cursed", reason.topic, "en")
    table.wait_text("rule-title", expected.title)
    table.tap("rules-back")
    # Back to the same game, its events still shown.
    table.wait("event-1-reason-0")


def test_no_answer_is_said_first_and_a_ruling_is_said_as_one(table: Table) -> None:
    table.tap("rules")
    table.wait("rules-search")
    table.type_into("rules-search", "is there a time limit for a turn in CURSED!")
    note = table.wait("rules-no-answer")
    table.wait_text("rules-no-answer", "No entry answers that. Closest:")
    # Said above the closest entries, in view on a phone without scrolling.
    box = note.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 740
    first_row = table.node("rule-cursed-q-turn").bounding_box()
    assert first_row is not None and box["y"] < first_row["y"]
    table.shot("rules-no-answer")

    query = "two players tie on the lowest total"
    search(table, f"black hearts {query}", "black-hearts/q-lowest-tie")
    assert not table.has("rules-no-answer")
    # A result says whether its line is the app's ruling, wholly or in part.
    table.wait_text(
        "ruling-black-hearts-q-lowest-tie", "The rulebook doesn't say; the app's ruling"
    )
    table.wait_text(
        "ruling-black-hearts-curse-points",
        "In part the app's ruling, where the rulebook doesn't say",
    )
    table.tap("rule-black-hearts-q-lowest-tie")
    ruling = rules.entry("black-hearts", "q-lowest-tie").ruling
    table.wait_text(
        "rule-ruling", f"(The rulebook doesn't say; the app's ruling: {ruling})"
    )
    table.shot("rules-ruling")
    table.tap("rules-back")
    # An entry from the rulebook says where it comes from.
    search(table, "black hearts two o clock", "black-hearts/two-oclock")
    table.tap("rule-black-hearts-two-oclock")
    source = rules.entry("black-hearts", "two-oclock").source
    table.wait_text("rule-source", f"From: {source}")
    assert not table.has("rule-ruling")


def test_one_question_after_another_shows_the_new_answers(table: Table) -> None:
    table.tap("rules")
    table.wait("rules-search")
    # The second search moves rows whose highlighted words change: the app
    # once stopped on it with "index out of bounds".
    query = "black hearts two players tie on the lowest total"
    search(table, query, "black-hearts/q-lowest-tie")
    search(table, "black hearts two o clock", "black-hearts/two-oclock")
    # So does a game picked for the same words.
    table.tap("rules-game-trick-runaway")
    table.wait_until(
        lambda: bool(shown := shown_results(table))
        and all(r.startswith("trick-runaway/") for r in shown)
    )
    assert not table.page.get_by_text("Error running app").count()


def test_a_question_of_two_parts_has_an_answer_for_each(table: Table) -> None:
    table.tap("rules")
    table.wait("rules-search")
    query = (
        "cursed tricks: how many cards does everyone get?"
        " and what does a player with two curses score"
    )
    table.type_into("rules-search", query)
    table.wait("asked-cursed-tricks-setup")
    # Each part's answer is among the first two, marked with the part it answers.
    table.wait_until(
        lambda: set(shown_results(table)[:2])
        == {"cursed-tricks/setup", "cursed-tricks/scoring"}
    )
    table.wait_text(
        "asked-cursed-tricks-setup",
        "For “cursed tricks: how many cards does everyone get?”",
    )
    table.wait_text(
        "asked-cursed-tricks-scoring", "For “what does a player with two curses score”"
    )
    table.shot("rules-two-parts")
