"""``make web``: the whole app as a static folder, ``build/web``.

Python runs in the page (Pyodide), so any static host serves the app and a
phone keeps it for offline use. Flet's ``flet publish`` lays out the folder;
this script gives it what it needs without downloading anything but packages
from the package index, and corrects what it writes where the app needs more:
every text replaced in Flet's files is asserted, so a Flet upgrade that moves
one fails the build instead of shipping an app that does not start.

Inputs are kept in ``build/web-cache`` (ignored by git), so a second build
downloads nothing.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

import flet_web

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "build" / "web"
CACHE = ROOT / "build" / "web-cache"
WEB = Path(__file__).resolve().parent
APP_ARCHIVE = "app.tar.gz"

PYTHON = "3.14"
PYTHON_FULL = "3.14.2"
# The platform of Pyodide's wheels for that Python.
PLATFORM = "pyemscripten_2026_0_wasm32"


@dataclass(frozen=True)
class PageApp:
    """What goes into a page: the code and data, the packages, the assets."""

    name: str
    # Files and folders of the checkout, by their place in it.
    parts: tuple[str, ...]
    # What the page imports, at the versions the served app runs with.
    packages: tuple[str, ...]
    assets: Path | None = None
    # Build-time only, left out of the page.
    left_behind: tuple[str, ...] = ()
    # The entry module, when the checkout's own main.py is not it.
    main: str | None = None


FLET_PACKAGES = ("flet", "msgpack", "repath", "six")
COMPANION = PageApp(
    name="Curse Companion",
    parts=("main.py", "companion", "screens", "data"),
    packages=(*FLET_PACKAGES, "flet-charts", "tinydb", "platformdirs"),
    assets=ROOT / "screens" / "assets",
    # The icons are drawn with Pillow when they change, never in the page.
    left_behind=("screens/assets", "screens/icons.py"),
)
# The floor ``make bench`` measures the app against: Flet alone, published alike.
COUNTER = PageApp(
    name="Counter",
    parts=("benchmarks/counter_app.py",),
    packages=FLET_PACKAGES,
    main=(
        "import flet as ft\n\n"
        "from benchmarks.counter_app import main\n\n"
        "ft.run(main)\n"
    ),
)

# Flet's folder ships what the page never loads: the dart2wasm build and its
# renderers (the page runs CanvasKit), debugging symbols, Pyodide's files for
# Node, and Flutter's own service worker (it unregisters itself).
UNUSED = (
    "main.dart.wasm",
    "main.dart.mjs",
    "flutter_service_worker.js",
    "canvaskit/skwasm.js",
    "canvaskit/skwasm.wasm",
    "canvaskit/skwasm_heavy.js",
    "canvaskit/skwasm_heavy.wasm",
    "canvaskit/wimp.js",
    "canvaskit/wimp.wasm",
    "canvaskit/experimental_webparagraph",
    "pyodide/python",
    "pyodide/python.bat",
    "pyodide/python.exe",
    "pyodide/python_cli_entry.mjs",
    "pyodide/package.json",
    "pyodide/ffi.d.ts",
    "pyodide/pyodide.d.ts",
    "pyodide/pyodide.js",
)
UNUSED_SUFFIXES = (".map", ".symbols")
SERVICE_WORKER = "service-worker.js"


def say(line: str) -> None:
    print(f"web: {line}", file=sys.stderr, flush=True)


def pyodide_version() -> str:
    """The Pyodide flet-web ships: the build uses that one, not a download."""
    package = flet_web.get_package_web_dir()
    info = json.loads((Path(package) / "pyodide" / "package.json").read_text())
    return str(info["version"])


def prepared_flet_cache(pyodide: str) -> dict[str, str]:
    """The settings under which ``flet publish`` finds all it needs at hand.

    It would fetch a manifest of Python builds and a Pyodide archive; the
    manifest is written here and the Pyodide is flet-web's own copy, whose
    lock file only lacks the version the cache check reads.
    """
    flet_cache = CACHE / "flet"
    manifest = CACHE / "python-build-manifest.json"
    manifest.parent.mkdir(parents=True, exist_ok=True)
    manifest.write_text(
        json.dumps(
            {
                "default_python_version": PYTHON,
                "pythons": {
                    PYTHON: {
                        "full_version": PYTHON_FULL,
                        "pyodide_version": pyodide,
                        "android_abis": [],
                    }
                },
            }
        )
    )
    runtime = flet_cache / "pyodide" / pyodide
    source = Path(flet_web.get_package_web_dir()) / "pyodide"
    if not (runtime / "pyodide-lock.json").exists():
        shutil.rmtree(runtime, ignore_errors=True)
        shutil.copytree(source, runtime)
        lock_path = runtime / "pyodide-lock.json"
        lock = json.loads(lock_path.read_text())
        lock.setdefault("info", {})["version"] = pyodide
        lock_path.write_text(json.dumps(lock))
    return {
        "FLET_CACHE_DIR": str(flet_cache),
        "FLET_PYTHON_BUILD_MANIFEST": str(manifest),
    }


def wheel_prefix(name: str) -> str:
    return f"{name.replace('-', '_').lower()}-{version(name)}-"


def page_wheels(packages: tuple[str, ...]) -> list[Path]:
    """The page's packages built for Pyodide, downloaded once into the cache."""
    folder = CACHE / "wheels"
    folder.mkdir(parents=True, exist_ok=True)

    def kept(name: str) -> Path | None:
        prefix = wheel_prefix(name)
        found = (p for p in folder.glob("*.whl") if p.name.lower().startswith(prefix))
        return min(found, default=None)

    missing = [name for name in packages if kept(name) is None]
    if missing:
        say(f"downloading {', '.join(missing)} for Pyodide")
        subprocess.run(
            [
                sys.executable, "-m", "pip", "download", "--quiet",
                "--no-deps", "--only-binary=:all:",
                "--platform", PLATFORM, "--python-version", PYTHON,
                "--implementation", "cp", "--abi", "cp314",
                "--dest", str(folder),
                *(f"{name}=={version(name)}" for name in missing),
            ],
            check=True,
        )
    wheels = [kept(name) for name in packages]
    pairs = zip(packages, wheels, strict=True)
    absent = [name for name, wheel in pairs if wheel is None]
    assert not absent, f"no Pyodide wheel for {absent}"
    return [wheel for wheel in wheels if wheel is not None]


def stage_app(app: PageApp, stage: Path, wheels: Iterable[Path]) -> None:
    """The app's code, data and packages as the page will unpack them."""
    shutil.rmtree(stage, ignore_errors=True)
    stage.mkdir(parents=True)
    skipped = shutil.ignore_patterns("__pycache__", "*.pyc")
    for part in app.parts:
        source, target = ROOT / part, stage / part
        if source.is_dir():
            shutil.copytree(source, target, ignore=skipped)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    for part in app.left_behind:
        target = stage / part
        if target.is_dir():
            shutil.rmtree(target)
        else:
            target.unlink()
    if app.main is not None:
        (stage / "main.py").write_text(app.main, encoding="utf-8")
    packages = stage / "__pypackages__"
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(packages)
    if app.assets is not None:
        shutil.copytree(app.assets, stage / "assets")


def publish(
    app: PageApp, stage: Path, target: Path, environment: dict[str, str]
) -> None:
    """``flet publish`` of the staged app into ``target``.

    ``target`` must not share a name prefix with the stage's folder: flet-cli
    compares paths as strings and would leave the app out of its archive.
    """
    command = [
        sys.executable, "-m", "flet.cli", "publish", str(stage / "main.py"),
        "--distpath", str(target),
        "--python-version", PYTHON,
        "--app-name", app.name,
        "--app-short-name", app.name.split()[-1],
        "--app-description", "Score keeper for curse-themed trick-taking card games",
        "--web-renderer", "canvaskit",
        # A static host knows one page: the route lives after the '#'.
        "--route-url-strategy", "hash",
        "--no-cdn",
        "--assets", "assets",
    ]
    done = subprocess.run(
        command,
        env={**os.environ, **environment},
        capture_output=True,
        text=True,
        cwd=stage,
    )
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"flet publish failed with status {done.returncode}")


def files_under(folder: Path) -> Iterator[Path]:
    return (path for path in sorted(folder.rglob("*")) if path.is_file())


def write_archive(stage: Path, target: Path) -> None:
    """The app's archive, byte for byte the same for the same app.

    Written here rather than kept from ``flet publish``, which adds a
    requirements list the page would install from the network at every start.
    """
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.GNU_FORMAT) as tar:
        for path in files_under(stage):
            relative = path.relative_to(stage)
            if relative.parts[0] == "assets":
                continue
            info = tar.gettarinfo(str(path), arcname=relative.as_posix())
            info.mtime = 0
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            with path.open("rb") as source:
                tar.addfile(info, source)
    with gzip.GzipFile(target, mode="wb", mtime=0) as packed:
        packed.write(buffer.getvalue())


def replace_once(path: Path, old: str, new: str) -> None:
    """Replace text Flet wrote, or stop the build if Flet no longer writes it."""
    content = path.read_text(encoding="utf-8")
    count = content.count(old)
    assert count == 1, f"{path.name}: expected {old!r} once, found it {count} times"
    path.write_text(content.replace(old, new), encoding="utf-8")


def patch_page(out: Path) -> None:
    # The worker imports the runtime as a module: a bare name is not a path.
    replace_once(
        out / "index.html",
        'flet.pyodideUrl="pyodide/pyodide.mjs";',
        'flet.pyodideUrl="./pyodide/pyodide.mjs";',
    )
    replace_once(
        out / "index.html",
        '<script src="python.js"></script>',
        '<script src="page.js"></script>\n  <script src="python.js"></script>',
    )
    shutil.copy2(WEB / "page.js", out / "page.js")
    # Flutter would put its own service worker in place of the app's.
    replace_once(
        out / "flutter_bootstrap.js",
        "    serviceWorkerSettings: {\n"
        '        serviceWorkerVersion: "1804020039" /* Flutter\'s service worker is'
        " deprecated and will be removed in a future Flutter release. */,\n"
        "    },\n",
        "",
    )
    worker = out / "python-worker.js"
    replace_once(
        worker,
        '        self.pyodide.registerJsModule("flet_js", flet_js);\n',
        '        self.pyodide.registerJsModule("flet_js", flet_js);\n'
        "        await self.keeperOpen(self.pyodide);\n",
    )
    replace_once(
        worker,
        "    self.postMessage(bytes, [bytes.buffer]);\n",
        "    self.keeperSend(bytes);\n",
    )
    keeper = (WEB / "keeper.js").read_text(encoding="utf-8")
    worker.write_text(keeper + "\n" + worker.read_text(encoding="utf-8"))


def drop_unused(out: Path) -> None:
    for name in UNUSED:
        path = out / name
        assert path.exists(), f"{name} is no longer in Flet's web folder"
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink()
    for path in list(files_under(out)):
        if path.suffix in UNUSED_SUFFIXES:
            path.unlink()


def write_service_worker(out: Path) -> None:
    """The service worker, named after a hash of every file it keeps."""
    digest = hashlib.sha256()
    kept: list[str] = []
    for path in files_under(out):
        relative = path.relative_to(out).as_posix()
        digest.update(relative.encode() + b"\0" + path.read_bytes())
        if not relative.startswith("canvaskit/"):
            kept.append(relative)
    template = (WEB / SERVICE_WORKER).read_text(encoding="utf-8")
    assert "__CACHE_NAME__" in template and "__PRECACHED__" in template
    script = template.replace(
        "__CACHE_NAME__", f"curse-companion-{digest.hexdigest()[:16]}"
    ).replace("__PRECACHED__", json.dumps(["./", *kept], indent=1))
    (out / SERVICE_WORKER).write_text(script, encoding="utf-8")


def build(out: Path = OUT, app: PageApp = COMPANION) -> Path:
    pyodide = pyodide_version()
    environment = prepared_flet_cache(pyodide)
    stage = CACHE / "app"
    stage_app(app, stage, page_wheels(app.packages))
    published = CACHE / "published"
    publish(app, stage, published, environment)
    write_archive(stage, published / APP_ARCHIVE)
    patch_page(published)
    drop_unused(published)
    write_service_worker(published)
    shutil.rmtree(out, ignore_errors=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    published.rename(out)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="the folder to write")
    args = parser.parse_args(argv)
    say(f"built {build(args.out.resolve())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
