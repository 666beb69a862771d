"""The screens import one another only downwards: the app knows every screen,
a screen knows the shell and the shared widgets, never another screen."""

from __future__ import annotations

import ast
from pathlib import Path

SCREENS = Path(__file__).resolve().parents[2] / "screens"
# Modules every screen may use (widgets, the shell, the web server it runs
# in); none of them imports a screen.
SHARED = {
    "screens.shell",
    "screens.ui",
    "screens.figures",
    "screens.reasons",
    "screens.web",
    "screens.fortunes",  # CURSED!'s grid, drawn by its table
    "screens.past",
    "screens.repairs",  # the notice of a repaired file, shown by the shell
    "screens.game_over",  # the end of a game, as every game screen shows it
}
# The apps: the one in the page, and the served one over it.
ENTRIES = {"screens.app", "screens.served"}


def module_name(path: Path) -> str:
    """``screens.x`` for a screen's module, ``screens.x.y`` for a part of one."""
    parts = path.relative_to(SCREENS.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, ast.Module]:
    return {
        module_name(path): ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted(SCREENS.rglob("*.py"))
        if path != SCREENS / "__init__.py"
    }


def own_package(name: str) -> set[str]:
    """A screen split in a package (``screens.x``) may use its own parts."""
    parts = name.split(".")
    return {".".join(parts[:2])} if len(parts) > 1 else set()


def imported(tree: ast.Module) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "screens":
                found |= {f"screens.{alias.name}" for alias in node.names}
            else:
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return {name for name in found if name.startswith("screens.")}


def test_no_screen_imports_another() -> None:
    trees = modules()
    for name, tree in trees.items():
        if name in ENTRIES:
            continue
        allowed = SHARED if name not in SHARED else SHARED - {name}
        package = own_package(name)
        others = {
            found
            for found in imported(tree) - allowed
            if not any(found.startswith(f"{p}.") or found == p for p in package)
        }
        assert not others, f"{name} imports {sorted(others)}"


def test_no_import_cycle() -> None:
    graph = {name: imported(tree) for name, tree in modules().items()}
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, " -> ".join((*path, name))
        if name in done:
            return
        for target in graph.get(name, ()):
            visit(target, (*path, name))
        done.add(name)

    for name in graph:
        visit(name, ())


def test_imports_at_the_top_only() -> None:
    for name, tree in modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.If):
                inner = [
                    child
                    for child in ast.walk(node)
                    if isinstance(child, ast.Import | ast.ImportFrom)
                ]
                assert not inner, f"{name}:{inner[0].lineno} imports inside a block"
        path = SCREENS.parent.joinpath(*name.split("."))
        path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
        source = path.read_text(encoding="utf-8")
        assert "type: ignore" not in source, name
