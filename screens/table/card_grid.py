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


def card_cell(
    spec: GameSpec,
    slot: Slot,
    *,
    spent: bool,
    width: int,
    height: int,
    on_tap: Callable[[str, int], None],
    group: str,
) -> ft.Control:
    """The card's button, inside the room its cell leaves for the lead mark."""
    code, copy_number = slot
    card = Card.parse(code)
    return ui.card_button(
        code,
        spec.card_label(card),
        spec.suit_colours().get(card.suit),
        lambda: on_tap(code, copy_number),
        spent=spent,
        width=width - 2 * LEAD_MARK,
        height=height - 2 * LEAD_MARK,
        group=group,
        member=f"cell-{code}-{copy_number}",
    )


def lead_frame(
    slot: Slot, button: ft.Control, *, led: bool, width: int, height: int
) -> ft.Control:
    """The cell around a card: a frame drawn when its suit was led.

    The very button on screen goes into the new frame, so marking the suit
    led changes one border per cell and leaves the cards themselves alone.
    """
    code, copy_number = slot
    return ft.Container(
        button,
        width=width,
        height=height,
        border_radius=10,
        border=ft.Border.all(
            LEAD_MARK, ft.Colors.ON_SURFACE if led else ft.Colors.TRANSPARENT
        ),
        key=f"cell-{code}-{copy_number}",
    )


def card_grid(
    spec: GameSpec,
    slots: Sequence[Slot],
    spent: frozenset[Slot],
    *,
    width: float,
    phone: bool,
    lead_suit: str | None,
    on_tap: Callable[[str, int], None],
    cells: ui.Memo,
    group: str,
) -> ft.Control:
    """Every card copy of the round in a cell that never moves.

    The cards are one tap group (see ``ui.TapGuard``) while ``group`` stays
    the same: quick taps on cards of one round are each a card, while a card
    just freed by a new round, an edit or an undo waits its half second.
    """
    columns, cell = columns_for(width)
    height = PHONE_CELL_HEIGHT if phone else WIDE_CELL_HEIGHT
    rows: list[ft.Control] = []
    for at, row in enumerate(grid_rows(slots, columns)):
        drawn: list[ft.Control] = []
        for slot in row:
            is_spent = slot in spent
            button = cells.get(
                (spec.slug, slot, is_spent, cell, height, group),
                lambda slot=slot, is_spent=is_spent: card_cell(
                    spec,
                    slot,
                    spent=is_spent,
                    width=cell,
                    height=height,
                    on_tap=on_tap,
                    group=group,
                ),
            )
            led = slot[0][0] == lead_suit
            drawn.append(
                cells.get(
                    ("frame", ui.Same(button), led),
                    lambda slot=slot, button=button, led=led: lead_frame(
                        slot, button, led=led, width=cell, height=height
                    ),
                )
            )
        # A row whose cells all stayed is the very row on screen: Flet skips it.
        rows.append(
            cells.get(
                ("row", at, *map(ui.Same, drawn)),
                lambda at=at, drawn=drawn: ft.Row(drawn, spacing=GAP, key=f"row-{at}"),
            )
        )
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
    cells: ui.Memo,
) -> ft.Control:
    """The trick in play order: each seat's card or an empty box, the next marked.

    Tapping a filled seat takes its card back; the button at the end takes
    back the card tapped last. A seat a tap leaves alone is the one on screen.
    """
    count = max(1, len(seats))
    seat_width = int((width - ui.TOUCH - GAP * count) // count)
    boxes: list[ft.Control] = [
        cells.get(
            ("seat", spec.slug, seat, seat.player == next_player, seat_width),
            lambda seat=seat: seat_box(
                spec,
                seat,
                turn=seat.player == next_player,
                width=seat_width,
                take_back=take_back,
            ),
        )
        for seat in seats
    ]
    filled = any(seat.card for seat in seats)
    boxes.append(
        cells.get(
            ("take-back", filled, take_back_label),
            lambda: ui.quick_tap(
                "take-back",
                ft.Icon(
                    ft.Icons.BACKSPACE_OUTLINED,
                    color=ft.Colors.ON_SURFACE if filled else ft.Colors.OUTLINE,
                ),
                take_back_last,
                disabled=not filled,
                bgcolor=None,
                width=ui.TOUCH,
                height=ui.TOUCH,
                radius=ui.TOUCH // 2,
                label=take_back_label,
            ),
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


def seat_box(
    spec: GameSpec,
    seat: Seat,
    *,
    turn: bool,
    width: int,
    take_back: Callable[[str], None],
) -> ft.Control:
    """One seat: the player's name over the card tapped for them, or a dot."""
    card = Card.parse(seat.card) if seat.card else None
    label = spec.card_label(card) if card else "·"
    fill = spec.suit_colours().get(card.suit) if card else None
    on_fill = ui.readable_on(fill) if card else ft.Colors.ON_SURFACE
    words = ft.Column(
        [
            ft.Text(
                seat.player,
                size=ui.SMALLEST,
                max_lines=1,
                overflow=ft.TextOverflow.ELLIPSIS,
                weight=ft.FontWeight.BOLD if turn else None,
                color=on_fill,
            ),
            ft.Text(
                label,
                size=16,
                weight=ft.FontWeight.BOLD,
                color=on_fill if card else ft.Colors.OUTLINE,
            ),
        ],
        spacing=0,
        tight=True,
        horizontal_alignment=ft.CrossAxisAlignment.CENTER,
    )
    return ui.quick_tap(
        f"seat-{seat.player}",
        words,
        lambda: take_back(seat.player),
        disabled=card is None,
        bgcolor=fill,
        width=width,
        height=SEAT_HEIGHT,
        radius=10,
        border=ft.Border.all(
            3 if turn else 1,
            ft.Colors.PRIMARY if turn else ft.Colors.OUTLINE_VARIANT,
        ),
    )
