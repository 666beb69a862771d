"""Time to answer a rules question: in process, and as a fresh ``companion rules``."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

from companion import recall, rules

COLD_RUNS = 7


def questions() -> list[tuple[str, str, str | None]]:
    """(question, language, game chosen) for every question players have asked."""
    return [
        (asked.question, lang, asked.game)
        for lang in rules.LANGUAGES
        for asked in recall.load(lang)
    ]


def run() -> dict[str, object]:
    asked = questions()
    for lang in rules.LANGUAGES:
        rules.search("warm up", lang)  # build each index once, as a process does
    times = []
    for question, lang, game in asked:
        start = time.perf_counter()
        rules.find(question, lang, game)
        times.append((time.perf_counter() - start) * 1000)
    # The installed ``companion`` script when there is one, as a player runs it.
    script = Path(sys.executable).parent / "companion"
    start_command = [str(script)] if script.exists() else [
        sys.executable, "-m", "companion.cli"
    ]
    command = [*start_command, "rules", "--json", "who leads"]
    cold = []
    for _ in range(COLD_RUNS):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        cold.append((time.perf_counter() - start) * 1000)
    return {
        "rules_questions": len(asked),
        "rules_search_ms": round(statistics.median(times), 3),
        "rules_search_ms_p95": round(sorted(times)[int(len(times) * 0.95)], 3),
        "rules_cli_ms": round(statistics.median(cold), 1),
    }
