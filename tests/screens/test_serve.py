"""Starting the app where the desktop client is missing says what to do."""

from __future__ import annotations

import importlib.util

import pytest

from screens import served


def test_desktop_without_its_client_says_how_to_get_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *args: None if name == "flet_desktop" else real(name, *args),
    )
    with pytest.raises(SystemExit) as stopped:
        served.serve(desktop=True)
    assert '.[desktop]' in str(stopped.value)
