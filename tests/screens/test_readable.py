"""Every text reads at 4.5:1 or better (WCAG AA) in the light and dark theme,
and no text is drawn smaller than 12 px; worked out from the colours and sizes
the app itself uses, without a browser."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from companion.cards import Card
from companion.games import all_games
from companion.games.base import DARK_LABEL, WHITE_LABEL
from screens import ui
from screens.cursed import DOUBLE_CURSE
from screens.fortunes import tiles

SCREENS = Path(__file__).resolve().parents[2] / "screens"
AA_TEXT = 4.5  # normal text
AA_SHAPE = 3.0  # a shape that must be seen against the page (WCAG 1.4.11)
THEMES = {"light": False, "dark": True}


def test_the_contrast_formula() -> None:
    assert ui.contrast("#FFFFFF", "#000000") == pytest.approx(21)
    assert ui.contrast("#777777", "#777777") == pytest.approx(1)
    # the examples players met: white on yellow and on orange
    assert ui.contrast("#FFFFFF", "#FFA000") == pytest.approx(2.0, abs=0.1)
    assert ui.contrast("#FFFFFF", "#EF6C00") == pytest.approx(3.1, abs=0.1)


@pytest.mark.parametrize("theme", THEMES)
def test_the_theme_is_the_palette(theme: str) -> None:
    """The colours checked below are the ones the app hands Flet."""
    dark = THEMES[theme]
    scheme = ui.theme(dark, "font").color_scheme
    palette = ui.palette(dark)
    assert scheme is not None
    for name in (
        "surface",
        "on_surface",
        "on_surface_variant",
        "primary",
        "on_primary",
        "error",
        "outline_variant",
    ):
        assert getattr(scheme, name) == getattr(palette, name), name


@pytest.mark.parametrize("theme", THEMES)
def test_texts_on_the_page(theme: str) -> None:
    palette = ui.palette(THEMES[theme])
    page = palette.surface
    texts = {
        "text": palette.on_surface,
        "field labels, hints": palette.on_surface_variant,
        "figures and outlined buttons": palette.primary,
        "errors": palette.error,
    }
    for what, colour in texts.items():
        assert ui.contrast(colour, page) >= AA_TEXT, (theme, what)
    assert ui.contrast(palette.on_primary, palette.primary) >= AA_TEXT, theme


@pytest.mark.parametrize("game", [spec.slug for spec in all_games()])
def test_card_labels_on_their_suits(game: str) -> None:
    spec = next(spec for spec in all_games() if spec.slug == game)
    for suit in spec.suits:
        assert suit.label in (WHITE_LABEL, DARK_LABEL), suit.code
        ratio = ui.contrast(suit.label, suit.colour)
        assert ratio >= AA_TEXT, f"{game} {suit.code}: {ratio:.2f}:1"
        # the card button draws its label in the colour that reads best
        assert ui.readable_on(suit.colour) == suit.label, suit.code
        # a suit is told by more than its colour: its letter or symbol
        label = spec.card_label(Card(suit.code, 2))
        assert suit.code in label or (suit.symbol and suit.symbol in label)


@pytest.mark.parametrize("theme", THEMES)
def test_fortune_tiles(theme: str) -> None:
    """CURSED!'s four states: the state's name on each tile, each tile on the page."""
    dark = THEMES[theme]
    page = ui.palette(dark).surface
    for state, tile in tiles(dark).items():
        assert ui.contrast(tile.label, tile.colour) >= AA_TEXT, (theme, state)
        edge = tile.colour if tile.border is None else tile.border
        seen = max(ui.contrast(tile.colour, page), ui.contrast(edge, page))
        assert seen >= AA_SHAPE, (theme, state, seen)


def test_double_curse_button() -> None:
    assert ui.contrast(ui.readable_on(DOUBLE_CURSE), DOUBLE_CURSE) >= AA_TEXT


def small_sizes(tree: ast.AST) -> list[int]:
    """Lines where a text size below the smallest is written: a ``size=``
    argument, or a name for a size, given a number under it."""
    found: list[int] = []

    def numbers(node: ast.AST) -> list[float]:
        return [
            child.value
            for child in ast.walk(node)
            if isinstance(child, ast.Constant)
            and isinstance(child.value, int | float)
            and not isinstance(child.value, bool)
        ]

    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "size":
            if any(value < ui.SMALLEST for value in numbers(node.value)):
                found.append(node.value.lineno)
        elif isinstance(node, ast.Assign):
            names = [
                name.id
                for target in node.targets
                for name in ast.walk(target)
                if isinstance(name, ast.Name)
            ]
            if any("size" in name for name in names) and any(
                value < ui.SMALLEST for value in numbers(node.value)
            ):
                found.append(node.lineno)
    return found


def test_the_size_check_finds_small_text() -> None:
    assert small_sizes(ast.parse("ft.Text('a', size=10)")) == [1]
    assert small_sizes(ast.parse("label_size, value_size = (10, 12)")) == [1]
    assert small_sizes(ast.parse("ft.Text('a', size=12)")) == []


def test_no_text_below_the_smallest_size() -> None:
    problems = {
        path.name: lines
        for path in sorted(SCREENS.rglob("*.py"))
        if (lines := small_sizes(ast.parse(path.read_text(encoding="utf-8"))))
    }
    assert not problems, f"text smaller than {ui.SMALLEST} px: {problems}"
