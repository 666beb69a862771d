"""Small building blocks every screen shares: tappable buttons with stable ids."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import flet as ft

from companion.games import describe
from companion.games.base import DARK_LABEL, WHITE_LABEL

# Thumb-sized: the platform guidelines ask for at least 48 logical pixels.
TOUCH = 48
WIDE = 700  # from this page width on, entry and scoreboard sit side by side

Handler = Callable[[], Any]
# The smallest text anywhere: a label below this is hard to read at a table.
SMALLEST = 12
# A spent card keeps its place at this share of its colours' strength.
SPENT_STRENGTH = 0.25

# Colours. The theme's colours are set, not left to the seed, so that every
# text's contrast against its background can be worked out (WCAG AA: 4.5:1).
WHITE = WHITE_LABEL
NEAR_BLACK = DARK_LABEL


@dataclass(frozen=True)
class Palette:
    """The colours of one theme that text is drawn in and on."""

    surface: str
    on_surface: str
    on_surface_variant: str
    primary: str
    on_primary: str
    error: str
    outline_variant: str

    def scheme(self) -> ft.ColorScheme:
        return ft.ColorScheme(
            surface=self.surface,
            on_surface=self.on_surface,
            on_surface_variant=self.on_surface_variant,
            primary=self.primary,
            on_primary=self.on_primary,
            error=self.error,
            outline_variant=self.outline_variant,
        )


LIGHT = Palette(
    surface="#FEF7FF",
    on_surface="#1D1B20",
    on_surface_variant="#49454F",
    primary="#5E35B1",
    on_primary=WHITE,
    error="#B3261E",
    outline_variant="#CAC4D0",
)
DARK = Palette(
    surface="#141218",
    on_surface="#E6E0E9",
    on_surface_variant="#CAC4D0",
    primary="#D0BCFF",
    on_primary="#381E72",
    error="#F2B8B5",
    outline_variant="#49454F",
)


def palette(dark: bool) -> Palette:
    return DARK if dark else LIGHT


def theme(dark: bool, font: str) -> ft.Theme:
    return ft.Theme(
        color_scheme_seed=ft.Colors.DEEP_PURPLE,
        color_scheme=palette(dark).scheme(),
        font_family=font,
    )


def luminance(colour: str) -> float:
    """The relative luminance of "#rrggbb", as WCAG defines it."""
    channels = [int(colour.lstrip("#")[at : at + 2], 16) / 255 for at in (0, 2, 4)]
    linear = [
        c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels
    ]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, other: str) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def readable_on(colour: str | None) -> str:
    """White or near-black, whichever reads better on ``colour``."""
    if colour is None or not colour.startswith("#"):
        return WHITE
    return max((WHITE, NEAR_BLACK), key=lambda text: contrast(text, colour))


# A thumb that thinks its tap did not take taps again within about this long,
# on the very spot where the first tap's answer may just have been drawn.
SETTLE_S = 0.5
# The app sees a tap when it gets to handle it, not when the finger landed,
# and the answer is drawn after it travels back: both trips (measured up to
# about 0.3 s between two taps 0.35 s apart on a loaded machine) widen the
# window for any tap...
TRIP_S = 0.35
# ...and a control drawn by the last tap's answer, the one a second tap would
# land on by mistake, waits longer still: measured, a second tap 0.35 s after
# the first reached the app up to 0.9 s after the first tap's answer.
NEW_S = 1.2
GUARD_KEY = "tap-guard"
FROM_ELSEWHERE: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "drawn-from-elsewhere", default=False
)


@dataclass
class TapGuard:
    """One device's last tap, so that a hurried second tap records nothing new.

    A tap is dropped when it comes less than ``SETTLE_S`` (plus ``TRIP_S``)
    after the previous tap's answer was drawn, and less than ``NEW_S`` when
    the control tapped was built by that answer: whatever now lies under the
    finger may have appeared there because of the first tap (the next step's
    buttons, a new row, another screen). The one exception is a control of a
    ``group`` whose members never move and stay the same thing while the
    group lasts (the cards of one round's grid): a quick tap on another of
    them is a new card, not a second tap on the first. A quick tap on the
    same member is a second tap like any other: when the first was refused
    (another phone filled the seat), it must not go on to the next seat. A
    dropped tap changes nothing, so the player simply taps again.

    A control redrawn because another device changed the table
    (``FROM_ELSEWHERE``) was not drawn by this device's tap: a tap on it goes
    on to be checked against the table as it is, and refused in words if it
    no longer means what it did.
    """

    tapped_at: float = float("-inf")
    settled_at: float = float("-inf")
    group: str | None = None
    member: str | None = None

    def admits(
        self, group: str | None, built_at: float, now: float, member: str | None = None
    ) -> bool:
        another = member is None or member != self.member
        if group is not None and group == self.group and another:
            # Drawn anew or not, another member of the group is where it was
            # and means what it meant.
            return True
        # A screen may be drawn after its tap's handler returned: a control
        # built then counts from when it was built. Before any tap on this
        # device there is no second tap to fear.
        drawn_since = built_at >= self.tapped_at > float("-inf")
        if drawn_since and now - max(self.settled_at, built_at) < NEW_S:
            return False
        return now - self.settled_at >= SETTLE_S + TRIP_S

    def settled(
        self, group: str | None, tapped_at: float, now: float, member: str | None = None
    ) -> None:
        self.tapped_at, self.settled_at = tapped_at, now
        self.group, self.member = group, member


def guard_of(page: ft.Page) -> TapGuard:
    """The guard of the device this page is shown on (one per browser tab)."""
    store = page.session.store
    guard = store.get(GUARD_KEY)
    if not isinstance(guard, TapGuard):
        guard = TapGuard()
        store.set(GUARD_KEY, guard)
    return guard


def guarded(
    on_tap: Handler,
    group: str | None = None,
    member: str | None = None,
    on_refused: Handler | None = None,
) -> Callable[[ft.ControlEvent], None]:
    """``on_tap`` as a click handler behind the device's ``TapGuard``.

    ``on_refused`` runs for a tap the guard turns away: it may only put back
    what the tap itself undid on the device (a field's focus), never record.

    Every tappable control of every screen is built with this, and when it is
    built is when its control was drawn (a control a screen keeps unchanged
    keeps its handler). The time that counts is when the tap's answer has
    been drawn, so a slow answer never shortens the wait of the next tap.
    """
    built_at = float("-inf") if FROM_ELSEWHERE.get() else time.monotonic()

    def handle(event: ft.ControlEvent) -> None:
        guard = guard_of(event.page)
        started = time.monotonic()
        if not guard.admits(group, built_at, started, member):
            if on_refused is not None:
                on_refused()
            return
        try:
            on_tap()
        finally:
            guard.settled(group, started, time.monotonic(), member)

    return handle


@contextlib.contextmanager
def drawn_from_elsewhere() -> Iterator[None]:
    """Controls built inside are a redraw for a change another device (or
    process) made, not an answer to this device's tap."""
    token = FROM_ELSEWHERE.set(True)
    try:
        yield
    finally:
        FROM_ELSEWHERE.reset(token)


def open_at_top(page: ft.Page, body: ft.Control) -> None:
    """Scroll the page to its top once ``body`` is on it: a screen opens at
    its beginning, not where the screen before it was scrolled to."""

    async def to_top() -> None:
        for _ in range(200):
            root = getattr(page.controls[0], "content", None) if page.controls else None
            if isinstance(root, ft.Column) and any(c is body for c in root.controls):
                await asyncio.sleep(0.05)  # the page's update goes out first
                await root.scroll_to(offset=0)
                return
            await asyncio.sleep(0.02)

    page.run_task(to_top)


def suit_colours(slug: str) -> dict[str, str]:
    """Each suit's colour by its code, as the game describes it."""
    return describe(slug).suit_colours()


class Same:
    """A key that matches only this very object (a replay is not hashable);
    holding it keeps its id from being reused while the key is kept."""

    def __init__(self, value: object) -> None:
        self.value = value

    def __hash__(self) -> int:
        return id(self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.value is self.value


class Memo:
    """Controls kept by what they show: a redraw that reuses one sends nothing.

    Flet skips comparing a control that is the very object already on screen,
    so the parts of a screen that a tap leaves alone cost nothing to redraw.
    Measured: building and comparing every cell of a 56-card grid again on
    each tap doubled a tap's time beside a bare Flet app.
    """

    def __init__(self, limit: int = 400) -> None:
        self.limit = limit
        self.items: dict[Any, ft.Control] = {}

    def get(self, inputs: Any, draw: Callable[[], ft.Control]) -> ft.Control:
        found = self.items.get(inputs)
        if found is None:
            if len(self.items) >= self.limit:
                self.items.clear()
            found = self.items[inputs] = draw()
        return found


def keyed(section: str, controls: list[ft.Control]) -> list[ft.Control]:
    """Key a screen section's parts, so a redraw matches each with its old self.

    Flet pairs unkeyed controls by position; when a part appears or goes (an
    error line, the cards tapped so far) everything after it would be sent
    again. Keys keep the rest in place.
    """
    for at, control in enumerate(controls):
        if control.key is None:
            control.key = f"{section}-{at}"
    return controls


def tagged(identifier: str, control: ft.Control, key: str | None = None) -> ft.Control:
    """Give ``control`` an id the browser tests (and screen readers) can find;
    ``key`` (the id unless given) is what Flet matches it by when it redraws."""
    return ft.Semantics(identifier=identifier, content=control, key=key or identifier)


def tap(
    label: str | ft.Control,
    on_tap: Handler,
    identifier: str | None = None,
    *,
    primary: bool = False,
    disabled: bool = False,
    colour: str | None = None,
    width: float | None = None,
    icon: ft.IconData | None = None,
    on_refused: Handler | None = None,
) -> ft.Control:
    kind = ft.FilledButton if primary else ft.OutlinedButton
    style = ft.ButtonStyle(
        padding=ft.Padding.symmetric(horizontal=14, vertical=8),
        shape=ft.RoundedRectangleBorder(radius=10),
        bgcolor=colour if primary and not disabled else None,
        color=(readable_on(colour) if primary else colour) if colour else None,
    )
    button = kind(
        content=label,
        icon=icon,
        on_click=guarded(on_tap, on_refused=on_refused),
        disabled=disabled,
        style=style,
        height=TOUCH,
        width=width,
    )
    return tagged(identifier, button) if identifier else button


def icon_tap(
    icon: ft.IconData,
    tooltip: str,
    on_tap: Handler,
    identifier: str,
    disabled: bool = False,
) -> ft.Control:
    return tagged(
        identifier,
        ft.IconButton(
            icon=icon,
            tooltip=tooltip,
            on_click=guarded(on_tap),
            width=TOUCH,
            height=TOUCH,
            disabled=disabled,
        ),
    )


def card_button(
    code: str,
    label: str,
    colour: str | None,
    on_tap: Handler,
    *,
    spent: bool = False,
    width: float = TOUCH,
    height: float = TOUCH + 4,
    group: str | None = None,
    member: str | None = None,
) -> ft.Control:
    """A card to tap; a spent one keeps its place, faded and inert.

    ``member`` tells this copy of the card from its twins, which share its
    identifier but not its cell.

    Faded by its colours rather than an opacity: an opacity gives the card a
    compositing layer of its own, which a browser redraws on every tap.
    """
    ink = readable_on(colour)
    return quick_tap(
        f"card-{code}",
        ft.Text(
            label,
            size=15,
            weight=ft.FontWeight.BOLD,
            color=faded(ink) if spent else ink,
        ),
        on_tap,
        disabled=spent,
        bgcolor=faded(colour) if spent else colour,
        width=width,
        height=height,
        radius=8,
        group=group,
        member=member,
    )


def quick_tap(
    identifier: str,
    content: ft.Control,
    on_tap: Handler,
    *,
    disabled: bool,
    bgcolor: str | None,
    width: float,
    height: float,
    radius: float,
    border: ft.Border | None = None,
    label: str | None = None,
    group: str | None = None,
    member: str | None = None,
) -> ft.Control:
    """A plain tappable box that says it is a button: for the table's cards
    and seats, tapped many times a minute. ``member`` is the spot in its
    ``group`` (its identifier unless told).

    Measured: a Material button animates its colours and ripple after every
    tap, and the browser's frames for that delayed the next tap by about a
    third; a box with a tap handler has nothing to animate.
    """
    face = ft.Container(
        content,
        on_click=None if disabled else guarded(on_tap, group, member or identifier),
        bgcolor=bgcolor,
        width=width,
        height=height,
        border_radius=radius,
        border=border,
        alignment=ft.Alignment.CENTER,
    )
    return ft.Semantics(
        identifier=identifier,
        key=identifier,
        content=face,
        button=True,
        disabled=disabled,
        label=label,
    )


def faded(colour: str | None) -> str | None:
    """``colour`` as a spent card shows it: a quarter of its strength."""
    return ft.Colors.with_opacity(SPENT_STRENGTH, colour) if colour else None


def figure(identifier: str, value: object, **style: Any) -> ft.Control:
    """A figure the tests read back and compare with the replayed summary."""
    return tagged(identifier, ft.Text(str(value), **style))


def heading(value: str, size: int = 18) -> ft.Text:
    return ft.Text(value, size=size, weight=ft.FontWeight.BOLD)


def note(
    value: str, identifier: str | None = None, *, error: bool = False
) -> ft.Control:
    text = ft.Text(
        value,
        color=ft.Colors.ERROR if error else None,
        weight=ft.FontWeight.W_500 if error else None,
        selectable=False,
    )
    return tagged(identifier, text) if identifier else text


def panel(
    *controls: ft.Control,
    identifier: str | None = None,
    highlight: bool = False,
    padding: int = 10,
) -> ft.Control:
    box = ft.Container(
        content=ft.Column(list(controls), spacing=4),
        padding=padding,
        border_radius=12,
        border=ft.Border.all(
            3 if highlight else 1,
            ft.Colors.PRIMARY if highlight else ft.Colors.OUTLINE_VARIANT,
        ),
    )
    return tagged(identifier, box) if identifier else box


def wrap(
    controls: list[ft.Control], spacing: int = 6, key: str | None = None
) -> ft.Row:
    return ft.Row(controls, wrap=True, spacing=spacing, run_spacing=spacing, key=key)


def choices(
    options: Iterable[tuple[str, str]],
    on_pick: Callable[[str], Any],
    prefix: str,
    chosen: Callable[[str], bool] = lambda _: True,
) -> list[ft.Control]:
    """One button per (value, label), tagged ``prefix-value``; one tap picks."""
    return [
        tap(
            label,
            lambda value=value: on_pick(value),
            f"{prefix}-{value}",
            primary=chosen(value),
        )
        for value, label in options
    ]


def undo_redo(
    undo_label: str,
    redo_label: str,
    on_undo: Handler,
    on_redo: Handler,
    *,
    can_undo: bool,
    can_redo: bool,
    compact: bool = False,
) -> ft.Control:
    """Undo and redo, one tap each, always at the top of a game's screen."""
    if compact:
        # On a phone the icons alone keep the title, round and both on one line.
        return ft.Row(
            [
                icon_tap(ft.Icons.UNDO, undo_label, on_undo, "undo", not can_undo),
                icon_tap(ft.Icons.REDO, redo_label, on_redo, "redo", not can_redo),
            ],
            spacing=0,
        )
    return ft.Row(
        [
            tap(undo_label, on_undo, "undo", icon=ft.Icons.UNDO, disabled=not can_undo),
            tap(redo_label, on_redo, "redo", icon=ft.Icons.REDO, disabled=not can_redo),
        ],
        spacing=6,
    )


# More lines than this scroll inside their panel on a phone, so the cards stay
# in reach of the thumb.
PHONE_REASON_LINES = 4


def reason_line(
    value: str,
    on_tap: Handler,
    identifier: str,
    *,
    warning: bool = False,
    size: int | None = None,
) -> ft.Control:
    """A reason to tap for the rule it rests on; the icon says it can be tapped."""
    mark = "!" if warning else "•"  # ⚠ has no glyph on the web
    row = ft.Container(
        content=ft.Row(
            [
                ft.Text(
                    f"{mark} {value}",
                    color=ft.Colors.ERROR if warning else None,
                    size=size,
                    expand=True,
                ),
                # The icon's box keeps a one-line reason thumb-high.
                ft.Container(
                    ft.Icon(ft.Icons.INFO_OUTLINE, size=18, color=ft.Colors.PRIMARY),
                    height=TOUCH,
                    alignment=ft.Alignment.CENTER,
                ),
            ],
            spacing=6,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        padding=ft.Padding.only(left=4, right=4),
        border_radius=8,
        ink=True,
        on_click=guarded(on_tap),
    )
    return tagged(identifier, row)


ReasonLine = tuple[str, Handler]


def reasons_panel(
    title: str, reasons: list[ReasonLine], warnings: list[ReasonLine], *, phone: bool
) -> ft.Control:
    """What the last event did and why; each line opens the rule behind it."""
    lines: list[ft.Control] = [
        reason_line(line, opens, f"reason-{at}")
        for at, (line, opens) in enumerate(reasons)
    ]
    lines += [
        reason_line(line, opens, f"warning-{at}", warning=True)
        for at, (line, opens) in enumerate(warnings)
    ]
    body = ft.Column(lines, spacing=0)
    if phone and len(lines) > PHONE_REASON_LINES:
        body = ft.Column(lines, spacing=0, height=170, scroll=ft.ScrollMode.AUTO)
    return panel(ft.Text(title, weight=ft.FontWeight.BOLD), body, identifier="reasons")
