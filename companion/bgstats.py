"""A finished game as a play for BG Stats, the play logger many players keep.

BG Stats takes plays from other apps through a link whose ``data`` holds the
play as JSON (its "createPlay" link): the game, the date, how long it took,
and per player the name, the score, the winner and the place. The players
then find our games beside all their others.

What a game measures is sent as the score where it is a score (points, curse
points; ``highestWins`` says which way it counts); life and fortunes left
are no score, so those games are sent without points and their figures are
said in the comments. Places: when the totals put exactly the winners first
(the game is won by the best total), everyone is placed by their total, ties
sharing a place; otherwise (the winners are the survivors, or a total other
than the best wins) the winners share first place and everyone else the next.

The log has no clock: the play's date is when the game was started and its
length the minutes from then to the game's last change.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any
from urllib.parse import quote

from companion.games import describe
from companion.games.base import Event
from companion.i18n import text
from companion.replay import Replay
from companion.store import GameInfo

LINK = "https://app.bgstatsapp.com/createPlay.html?data="
SOURCE_NAME = "Curse Companion"
# What a game measures is a score BG Stats can keep when it is one of these.
SCORES = frozenset({"points", "curse-points"})


def _moment(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def play_date(info: GameInfo) -> str:
    """When the game was started, in UTC as BG Stats reads it."""
    return _moment(info.started).strftime("%Y-%m-%d %H:%M:%S")


def duration_minutes(info: GameInfo) -> int:
    """Whole minutes from the game's start to its last change."""
    seconds = (_moment(info.updated) - _moment(info.started)).total_seconds()
    return max(0, round(seconds / 60))


def start_player(events: list[Event]) -> str | None:
    """Who acted first: the first round's leader, else the first spell's caster."""
    for event in events:
        for field in ("leader", "caster"):
            name = event.get(field)
            if isinstance(name, str):
                return name
    return None


def places(
    totals: dict[str, int], winners: list[str], lower_is_better: bool
) -> dict[str, int]:
    """Each player's place, 1 the best (see the module's words on places)."""
    sign = -1 if lower_is_better else 1
    best = max((sign * value for value in totals.values()), default=0)
    top = {name for name, value in totals.items() if sign * value == best}
    if winners and top == set(winners):
        return {
            name: 1 + sum(sign * other > sign * value for other in totals.values())
            for name, value in totals.items()
        }
    second = len(winners) + 1
    return {name: 1 if name in winners else second for name in totals}


def play(
    info: GameInfo,
    result: Replay,
    lang: str = "en",
    location: str | None = None,
) -> dict[str, Any]:
    """The play BG Stats is sent for a finished game (see :func:`link`)."""
    summary = result.summary()
    if not summary["finished"]:
        raise ValueError("only a finished game can be sent to BG Stats")
    spec = describe(result.log.game)
    totals = {name: int(value) for name, value in summary["totals"].items()}
    winners = list(summary["winners"])
    scored = spec.measure in SCORES
    placed = places(totals, winners, spec.lower_is_better)
    first = start_player(result.log.events)
    figures = ", ".join(f"{name} {value}" for name, value in totals.items())
    comments = text(
        "bgstats.comments",
        lang,
        measure=text(f"stats.measure.{spec.measure}", lang),
        figures=figures,
    )
    data: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": info.id,
        "game": {
            # BG Stats finds games by their English names
            "name": spec.title_in("en"),
            "highestWins": not spec.lower_is_better,
            "noPoints": not scored,
            "sourceGameId": spec.slug,
        },
        "playDate": play_date(info),
        "durationMin": duration_minutes(info),
        "comments": comments,
        "players": [
            {
                "name": name,
                **({"score": totals[name]} if scored else {}),
                "winner": name in winners,
                "rank": placed[name],
                "startPlayer": name == first,
                "role": "",
                "sourcePlayerId": name.casefold(),
            }
            for name in result.log.players
        ],
    }
    if location:
        data["location"] = location
    return data


def link(
    info: GameInfo,
    result: Replay,
    lang: str = "en",
    location: str | None = None,
) -> str:
    """The link that opens BG Stats with the finished game as a new play."""
    data = play(info, result, lang, location)
    encoded = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return LINK + quote(encoded, safe="")


__all__ = ["LINK", "SOURCE_NAME", "link", "places", "play", "start_player"]
