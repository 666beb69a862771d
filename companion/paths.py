"""Where the companion keeps its data.

The first of these that is set wins: the ``--data DIR`` option, the
``COMPANION_DATA`` environment variable, ``FLET_APP_STORAGE_DATA`` (which Flet
sets to the app's private folder on phones and tablets), and finally the
platform's usual folder for user data.

In the phone build one browser tab at a time owns the games; the page tells
the others by ``COMPANION_OPEN_ELSEWHERE``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import platformdirs

APP_NAME = "curse-companion"
ENV_DATA = "COMPANION_DATA"
ENV_FLET_DATA = "FLET_APP_STORAGE_DATA"
ENV_OPEN_ELSEWHERE = "COMPANION_OPEN_ELSEWHERE"


def data_dir(
    option: str | Path | None = None, environ: Mapping[str, str] | None = None
) -> Path:
    env = os.environ if environ is None else environ
    for candidate in (option, env.get(ENV_DATA), env.get(ENV_FLET_DATA)):
        if candidate:
            return Path(candidate).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def games_open_elsewhere(environ: Mapping[str, str] | None = None) -> bool:
    """Whether another tab of the phone build holds the games."""
    env = os.environ if environ is None else environ
    return bool(env.get(ENV_OPEN_ELSEWHERE))
