"""``companion replay`` as a shell user meets it."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_replays_to_a_finished_game(path: Path) -> None:
    result = run("replay", str(path))
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["finished"] is True
    assert set(summary) >= {
        "game", "finished", "winners", "totals", "rounds", "leader", "players"
    }


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_explain_prints_reasons_for_every_event(path: Path) -> None:
    result = run("replay", "--explain", str(path))
    assert result.returncode == 0, result.stderr
    events = json.loads(path.read_text())["events"]
    assert result.stdout.count("\n   ") >= len(events)


def test_reads_standard_input() -> None:
    log = {"format": "companion-log/1", "game": "chess", "players": ["A", "B"]}
    result = run("replay", "-", stdin=json.dumps(log))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("error: event 0: unknown game")
    assert result.stderr.count("\n") == 1


def test_not_json_is_refused_in_one_line() -> None:
    result = run("replay", "-", stdin="{oops")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith("error: event 0: the file is not JSON")


def test_a_missing_file_is_refused() -> None:
    result = run("replay", "no/such/file.json")
    assert (result.returncode, result.stdout) == (2, "")
    assert "cannot read" in result.stderr


def test_a_file_that_is_not_text_is_refused(tmp_path: Path) -> None:
    binary = tmp_path / "log.json"
    binary.write_bytes(b"\xff\xfe\x00")
    result = run("replay", str(binary))
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith("error: event 0:")
    assert "not a text file" in result.stderr


def test_a_reader_that_stops_early_is_no_error() -> None:
    command = f"{sys.executable} -m companion.cli replay --explain {EXAMPLES[0]}"
    shell = f"{command} | head -1"
    result = subprocess.run(
        shell, shell=True, capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert result.stderr == ""
