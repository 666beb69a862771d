"""The end of every game, as a phone at 360x740 shows it after the last entry:
who won, the rule that decided it and every player's place, all in view; and
no word of the program's own (events, card codes, ids) on the way, in either
language."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from companion.games import SLUGS
from companion.i18n import reason_text, sentences
from companion.log import loads
from companion.replay import replay
from tests.screens.conftest import ROOT, Server, Table, plain_settings

SMALL_PHONE = {"width": 360, "height": 740}
# one example per game, each ending on an entry a player taps
ENDINGS = (
    "cursed-tricks-standard-3p.json",
    "trick-runaway.json",
    "cursed.json",
    "wolf-x-trick.json",
    "black-hearts.json",
)
# What a player must never read: the program's words, a log's card codes,
# a count that disagrees with its noun, an internal id.
FORBIDDEN = (
    re.compile(r"\bevents?\b", re.IGNORECASE),
    re.compile(r"イベント"),
    re.compile(r"\b[A-Z]\d{1,2}\b"),
    re.compile(r"\b1 (games|rounds|spells|piles)\b"),
    re.compile(r"\b[0-9a-f]{8,}\b"),
)


def accessible_text(table: Table) -> str:
    """Every text the accessibility tree offers: labels and contents."""
    return str(
        table.page.evaluate(
            """() => Array.from(document.querySelectorAll('flt-semantics'))
                .map(node => [node.getAttribute('aria-label') || '',
                    ...Array.from(node.childNodes)
                        .filter(child => !(child.tagName || '')
                            .startsWith('FLT-SEMANTICS'))
                        .map(child => child.textContent)])
                .flat().filter(Boolean).join('\\n')"""
        )
    )


def program_talk(text: str) -> list[str]:
    """Each forbidden find with the line it stands in."""
    return [
        f"{match.group(0)} in {line!r}"
        for line in text.splitlines()
        for rule in FORBIDDEN
        for match in rule.finditer(line)
    ]


def in_view(table: Table, identifier: str) -> bool:
    box = table.wait(identifier).bounding_box()
    return (
        box is not None
        and box["y"] >= 0
        and box["y"] + box["height"] <= SMALL_PHONE["height"]
        and box["x"] >= 0
        and box["x"] + box["width"] <= SMALL_PHONE["width"]
    )


@pytest.fixture()
def phone(browser: Any, server: Server) -> Iterator[Table]:
    plain_settings(server)
    context = browser.new_context(viewport=SMALL_PHONE)
    page = context.new_page()
    yield Table(page, server).open()
    context.close()


def enter_last(table: Table, event: dict[str, Any]) -> None:
    """The last entry of a game, tapped as a player taps it."""
    if event["type"] == "spell":
        for step in ("caster", "target", "fortune", "effect"):
            table.tap(f"{step}-{event[step]}")
        return
    for code in event["cards"]:
        table.tap_card(code)
    for answers in (event.get("lower", {}), {"": event.get("break")}):
        for value in answers.values():
            if value:
                table.tap(f"choice-{value}")


@pytest.mark.parametrize("example", ENDINGS)
def test_the_end_says_who_won_and_why_in_view(phone: Table, example: str) -> None:
    server = phone.server
    whole = loads((ROOT / "examples" / example).read_text(encoding="utf-8"))
    game_id = server.store().import_log(whole.with_events(whole.events[:-1]))
    phone.tap("past-games")
    phone.tap(f"game-{game_id}")
    phone.tap("detail-resume")
    before = accessible_text(phone)
    enter_last(phone, whole.events[-1])
    phone.wait("game-over", timeout=30_000)
    finished = replay(server.store().load(game_id).log)
    assert finished.summary()["finished"]
    why = sentences([reason_text(reason) for reason in finished.verdict])
    phone.wait_until(lambda: why in phone.read("over-reason"), timeout=20)
    shown = ["game-over", "winners", "over-reason", "over-rematch"]
    shown += [f"over-{name}" for name in whole.players]
    phone.wait_until(lambda: all(in_view(phone, node) for node in shown), timeout=20)
    phone.shot(f"game-over-{example.removesuffix('.json')}")
    assert program_talk(before + accessible_text(phone)) == []
    if finished.summary()["rounds"] and phone.has("over-round-table"):
        # one tap brings the round table into view
        phone.click(phone.node("over-round-table"))
        first = f"round-1-{whole.players[0]}"
        phone.wait_until(lambda: in_view(phone, first), timeout=20)


def test_a_rematch_opens_on_its_first_round_named(phone: Table) -> None:
    server = phone.server
    whole = loads((ROOT / "examples" / "black-hearts.json").read_text("utf-8"))
    game_id = server.store().import_log(whole)
    known = {info.id for info in server.games()}
    phone.tap("past-games")
    phone.tap(f"game-{game_id}")
    phone.tap("detail-rematch")
    phone.wait_until(lambda: "Black Hearts · Round 1" in phone.read("round-coming"))
    assert in_view(phone, "round-coming")
    fresh = [info for info in server.games() if info.id not in known]
    assert [info.players for info in fresh] == [whole.players]


def whole_page_text(table: Table) -> str:
    """The accessible text of the whole screen, scrolled through from the top:
    a long page offers only what is near the view."""
    found: list[str] = []
    table.page.mouse.move(SMALL_PHONE["width"] / 2, SMALL_PHONE["height"] / 2)
    for _ in range(30):
        table.page.wait_for_timeout(400)
        seen = accessible_text(table)
        if seen in found:
            break
        found.append(seen)
        table.page.mouse.wheel(0, 500)
    table.page.mouse.wheel(0, -100_000)
    return "\n".join(found)


# The games read on every screen that shows them: finished, and halfway.
SCANNED = (
    "cursed-tricks.json",
    "cursed-tricks-standard-3p.json",
    "trick-runaway-5p.json",
    "cursed.json",
    "wolf-x-trick.json",
    "black-hearts-all-curses.json",
)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_no_screen_says_a_program_word(phone: Table, lang: str) -> None:
    server = phone.server
    store = server.store()
    finished, halfway = [], []
    for example in SCANNED:
        whole = loads((ROOT / "examples" / example).read_text(encoding="utf-8"))
        finished.append(store.import_log(whole))
        halfway.append(store.import_log(whole.with_events(whole.events[:9])))
    if lang != "en":
        phone.tap("lang")
        phone.page.get_by_text("新しいゲーム").first.wait_for(timeout=15_000)
    said: dict[str, str] = {"home": whole_page_text(phone)}
    for slug in SLUGS:
        phone.tap("new-game")
        phone.tap(f"game-{slug}")
        said[f"new {slug}"] = whole_page_text(phone)
        phone.tap("home")
    phone.tap("past-games")
    said["past games"] = whole_page_text(phone)
    phone.tap("open-stats")
    phone.wait("stats-Ann")
    said["stats"] = whole_page_text(phone)
    for game_id in finished + halfway:
        phone.tap("home")
        phone.tap("past-games")
        phone.tap(f"game-{game_id}")
        phone.tap("detail-events-toggle")
        said[f"detail {game_id}"] = whole_page_text(phone)
        if game_id in halfway:
            phone.tap("detail-resume")
            phone.wait("undo")
            said[f"table {game_id}"] = whole_page_text(phone)
    found = {
        screen: talk for screen, text in said.items() if (talk := program_talk(text))
    }
    assert found == {}
