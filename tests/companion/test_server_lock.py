"""One server per data folder, tried with real servers and a real kill."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.server_lock import LOCK_NAME, FolderInUse, serving
from tests.companion.command import ROOT, companion
from tests.companion.test_store import data_files
from tests.screens.conftest import free_port, wait_for_port

EXAMPLE = str(ROOT / "examples" / "cursed.json")
# Flet takes a while to start on a busy machine.
START_SECONDS = 180.0


def server_command(data: Path, port: int) -> list[str]:
    command = [sys.executable, "-m", "companion.cli"]
    return [*command, "--port", str(port), "--data", str(data)]


def start_server(data: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    process = subprocess.Popen(
        server_command(data, port),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        wait_for_port(port, timeout=START_SECONDS)
    except RuntimeError:
        end(process, signal.SIGKILL)
        raise
    return process, port


def end(process: subprocess.Popen[bytes], how: signal.Signals) -> None:
    if process.poll() is None:
        os.killpg(process.pid, how)
    process.wait(timeout=30)


@pytest.fixture
def servers() -> Iterator[list[subprocess.Popen[bytes]]]:
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for process in started:
        if process.poll() is None:
            end(process, signal.SIGKILL)


def second_server(data: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        server_command(data, free_port()),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=START_SECONDS,
        check=False,
    )


def test_a_second_server_on_a_folder_says_so_and_the_tools_keep_working(
    tmp_path: Path, servers: list[subprocess.Popen[bytes]]
) -> None:
    data = tmp_path / "data"
    first, _ = start_server(data)
    servers.append(first)
    imported = companion("import", "--data", str(data), EXAMPLE)
    assert imported.returncode == 0, imported.stderr
    before = data_files(data)

    refused = second_server(data)

    assert refused.returncode == 2
    assert refused.stdout == ""
    assert refused.stderr == (
        f"error: the games in {data} are already open in another Curse Companion "
        f"on this machine (process {first.pid}): use that one, or stop it first\n"
    )
    assert data_files(data) == before
    assert first.poll() is None  # the first one serves on
    game_id = imported.stdout.strip()
    for command in (
        ["games", "--data", str(data)],
        ["export", "--data", str(data), game_id],
        ["import", "--data", str(data), EXAMPLE],
        ["replay", EXAMPLE],
        ["rules", "who", "leads"],
    ):
        result = companion(*command)
        assert result.returncode == 0, (command, result.stderr)
    listed = companion("games", "--data", str(data))
    assert listed.stdout.count("\n") == 2


def test_a_killed_server_does_not_block_the_next(
    tmp_path: Path, servers: list[subprocess.Popen[bytes]]
) -> None:
    data = tmp_path / "data"
    killed, _ = start_server(data)
    servers.append(killed)
    end(killed, signal.SIGKILL)
    # The file it left still names it; only the lock it held is gone.
    assert (data / LOCK_NAME).read_text().strip() == str(killed.pid)

    following, _ = start_server(data)
    servers.append(following)

    assert following.poll() is None
    assert (data / LOCK_NAME).read_text().strip() == str(following.pid)
    assert second_server(data).returncode == 2
    end(following, signal.SIGTERM)


def test_the_folder_is_held_while_the_block_runs_and_let_go_after(
    tmp_path: Path,
) -> None:
    with serving(tmp_path), pytest.raises(FolderInUse) as refused, serving(tmp_path):
        pass
    assert refused.value.pid == os.getpid()
    with serving(tmp_path):
        pass  # taken again once the first let go


def test_a_folder_that_cannot_be_made_is_left_to_the_store(tmp_path: Path) -> None:
    file = tmp_path / "notes.txt"
    file.write_text("mine")
    with serving(file / "data"):
        pass
    assert file.read_text() == "mine"
