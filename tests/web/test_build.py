"""What ``make web`` writes: a page that loads only what is there, and no server."""

from __future__ import annotations

import json
import re
import tarfile
from pathlib import Path

import pytest

from web.build import replace_once


def test_a_text_flet_no_longer_writes_stops_the_build(tmp_path: Path) -> None:
    page = tmp_path / "index.html"
    page.write_text("<script>a</script><script>a</script>")
    with pytest.raises(AssertionError, match="found it 0 times"):
        replace_once(page, "<script>b</script>", "")
    with pytest.raises(AssertionError, match="found it 2 times"):
        replace_once(page, "<script>a</script>", "")
    assert page.read_text() == "<script>a</script><script>a</script>"


def test_the_page_loads_its_own_runtime_and_keeps_every_file(
    phone_build: Path,
) -> None:
    index = (phone_build / "index.html").read_text()
    assert 'flet.pyodideUrl="./pyodide/pyodide.mjs";' in index
    assert '<script src="page.js"></script>' in index
    worker = (phone_build / "service-worker.js").read_text()
    cache = re.search(r'const CACHE = "(curse-companion-[0-9a-f]{16})";', worker)
    assert cache is not None
    listed = json.loads(re.search(r"const PRECACHED = (\[.*?\]);", worker, re.S)[1])
    files = {
        path.relative_to(phone_build).as_posix()
        for path in phone_build.rglob("*")
        if path.is_file()
    }
    # Everything but the renderers (kept on first use) and the worker itself.
    kept = {name for name in files if not name.startswith("canvaskit/")}
    assert set(listed) == {"./", *kept} - {"service-worker.js"}
    assert not (phone_build / "flutter_service_worker.js").exists()
    manifest = json.loads((phone_build / "manifest.json").read_text())
    assert manifest["name"] == "Curse Companion"
    assert manifest["display"] == "standalone"


def test_the_app_in_the_page_has_no_server_and_installs_nothing(
    phone_build: Path,
) -> None:
    with tarfile.open(phone_build / "app.tar.gz") as archive:
        names = archive.getnames()
    tops = {name.split("/")[0] for name in names}
    assert tops == {"__pypackages__", "companion", "screens", "data", "main.py"}
    packages = {name.split("/")[1] for name in names if name.startswith("__pyp")}
    assert {"flet", "flet_charts", "tinydb", "msgpack"} <= packages
    for server_or_pictures in ("uvicorn", "fastapi", "pydantic", "PIL", "qrcode"):
        assert server_or_pictures not in packages
    # Nothing the page would install from the network at every start.
    assert "requirements.txt" not in names and "pyproject.toml" not in names
    assert "screens/icons.py" not in names
