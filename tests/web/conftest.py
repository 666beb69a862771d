"""The phone build, made once per run for every test of it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from web.build import OUT

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def phone_build() -> Path:
    """What ``make web`` builds (the same command), made once per run."""
    subprocess.run([sys.executable, "-m", "web.build"], cwd=ROOT, check=True)
    assert (OUT / "index.html").exists()
    return OUT
