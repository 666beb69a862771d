"""What every test package shares: one Playwright for the whole run.

Playwright's sync API starts once per process, so the browser tests of every
package (the served app in ``tests/screens``, the phone build in ``tests/web``)
take their browsers from this one.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
# Quiet and fit for a container: no sandbox, no GPU, no calls home.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip("Chromium is not installed (make browser)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as running:
        yield running
