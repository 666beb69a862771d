"""The cards of a round as a fixed grid, and the trick being entered seat by seat.

Every copy of every card of the round keeps its cell from the first trick to
the last: a played card stays where it was, faded and inert, so nothing moves
under a thumb between two taps.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import groupby
from math import ceil

import flet as ft

from companion.cards import Card
from companion.games.base import GameSpec
from companion.session import Seat, Slot
from screens import ui

GAP = 4
MIN_CELL = 44  # a cell narrower than this is hard to hit with a thumb
MAX_CELL = 56
PHONE_CELL_HEIGHT = 44
WIDE_CELL_HEIGHT = ui.TOUCH + 4
# Every seat's box, the card in it and the seat's name: a fixed height.
SEAT_HEIGHT = 52
LEAD_MARK = 2  # border width around the cards of the suit led


def columns_for(width: float) -> tuple[int, int]:
    """How many cells fit in a row of ``width``, and each cell's width."""
    count = max(1, int((width + GAP) // (MIN_CELL + GAP)))
    cell = int((width - GAP * (count - 1)) // count)
    return count, min(cell, MAX_CELL)


def grid_rows(slots: Sequence[Slot], columns: int) -> list[list[Slot]]:
    """The slots in rows: each suit on rows of its own when that costs at most
    one row more than letting the suits run on, else one after the other."""
    by_suit = [list(cards) for _, cards in groupby(slots, key=lambda s: s[0][0])]
    own_rows = sum(ceil(len(cards) / columns) for cards in by_suit)
    if own_rows > ceil(len(slots) / columns) + 1:
        by_suit = [list(slots)]
    rows: list[list[Slot]] = []
    for cards in by_suit:
        rows += [cards[at : at + columns] for at in range(0, len(cards), columns)]
    return rows


def card_grid(
    spec: GameSpec,
    slots: Sequence[Slot],
    spent: frozenset[Slot],
    *,
    width: float,
    phone: bool,
    lead_suit: str | None,
    on_tap: Callable[[str, int], None],
) -> ft.Control:
    """Every card copy of the round in a cell that never moves."""
    columns, cell = columns_for(width)
    height = PHONE_CELL_HEIGHT if phone else WIDE_CELL_HEIGHT
    colours = spec.suit_colours()
    rows: list[ft.Control] = []
    for at, row in enumerate(grid_rows(slots, columns)):
        cells: list[ft.Control] = []
        for code, copy_number in row:
            card = Card.parse(code)
            led = card.suit == lead_suit
            cells.append(
                ft.Container(
                    ui.card_button(
                        code,
                        spec.card_label(card),
                        colours.get(card.suit),
                        lambda code=code, number=copy_number: on_tap(code, number),
                        spent=(code, copy_number) in spent,
                        width=cell - 2 * LEAD_MARK,
                        height=height - 2 * LEAD_MARK,
                    ),
                    width=cell,
                    height=height,
                    border_radius=10,
                    border=ft.Border.all(
                        LEAD_MARK,
                        ft.Colors.ON_SURFACE if led else ft.Colors.TRANSPARENT,
                    ),
                    key=f"cell-{code}-{copy_number}",
                )
            )
        rows.append(ft.Row(cells, spacing=GAP, key=f"row-{at}"))
    return ft.Column(rows, spacing=GAP, key="cards")


def trick_seats(
    spec: GameSpec,
    seats: Sequence[Seat],
    next_player: str | None,
    *,
    width: float,
    take_back: Callable[[str], None],
    take_back_last: Callable[[], None],
    take_back_label: str,
) -> ft.Control:
    """The trick in play order: each seat's card or an empty box, the next marked.

    Tapping a filled seat takes its card back; the button at the end takes
    back the card tapped last.
    """
    count = max(1, len(seats))
    seat_width = int((width - ui.TOUCH - GAP * count) // count)
    colours = spec.suit_colours()
    boxes: list[ft.Control] = []
    for seat in seats:
        card = Card.parse(seat.card) if seat.card else None
        turn = seat.player == next_player
        label = spec.card_label(card) if card else "·"
        words = ft.Column(
            [
                ft.Text(
                    seat.player,
                    size=11,
                    max_lines=1,
                    overflow=ft.TextOverflow.ELLIPSIS,
                    weight=ft.FontWeight.BOLD if turn else None,
                    color=ft.Colors.WHITE if card else ft.Colors.ON_SURFACE,
                ),
                ft.Text(
                    label,
                    size=16,
                    weight=ft.FontWeight.BOLD,
                    color=ft.Colors.WHITE if card else ft.Colors.OUTLINE,
                ),
            ],
            spacing=0,
            tight=True,
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        )
        # A button like the cards, so a seat that can be tapped keeps its id.
        box = ft.FilledButton(
            content=words,
            on_click=lambda _, name=seat.player: take_back(name),
            disabled=card is None,
            bgcolor=colours.get(card.suit) if card else ft.Colors.TRANSPARENT,
            width=seat_width,
            height=SEAT_HEIGHT,
            style=ft.ButtonStyle(
                padding=ft.Padding.all(0),
                shape=ft.RoundedRectangleBorder(radius=10),
                side=ft.BorderSide(
                    3 if turn else 1,
                    ft.Colors.PRIMARY if turn else ft.Colors.OUTLINE_VARIANT,
                ),
            ),
        )
        boxes.append(ui.tagged(f"seat-{seat.player}", box))
    filled = any(seat.card for seat in seats)
    boxes.append(
        ui.icon_tap(
            ft.Icons.BACKSPACE_OUTLINED,
            take_back_label,
            take_back_last,
            "take-back",
            disabled=not filled,
        )
    )
    return ui.tagged(
        "trick-so-far",
        ft.Row(
            boxes,
            spacing=GAP,
            height=SEAT_HEIGHT,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        ),
    )
