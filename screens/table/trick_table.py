"""The table for the trick games: a view over the game's session.

The session holds the game, what is being entered and the one undo history;
this screen draws it and hands each tap to it. On a phone everything needed
to enter a trick fits the screen without scrolling, and nothing above the
cards changes height while a trick is entered: the seats, the message line
and the grid each keep a fixed size, and a choice the rules ask for opens
over the cards rather than pushing them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import flet as ft

from companion.cards import Card
from companion.games import describe
from companion.games.base import Event, GameSpec, Reason
from companion.i18n import reason_text
from companion.session import (
    CHANGED_FIRST,
    REFUSED,
    GameSession,
    Notice,
    shared_session,
)
from companion.timeline import round_start
from screens import ui
from screens.game_over import game_over
from screens.reasons import last_reasons, moment, rules_opener
from screens.shell import App, SharedTable
from screens.table.board import ROUNDS, full_board, round_scores, strip
from screens.table.card_grid import card_grid, trick_seats
from screens.table.piles import PileCount, pile_entry
from screens.table.round_view import (
    RoundQuestions,
    round_event,
    round_labels,
    round_start_questions,
    trick_list,
)

# Page padding on each side (see screens.app.main) and the gap between panes.
PAGE_PADDING = 8
PANE_GAP = 16
# The message line under the seats: room for three short lines, always there.
MESSAGE_HEIGHT = 48
# A second tap on a card already taken says nothing: the first one counted.
QUIET = frozenset({"table.already-tapped", "table.already-played"})
BOARD = "board"
# On a phone the scoreboard and the round's tricks open as a sheet in the
# place of the cards, so neither needs a scroll.
SHEET_BOARD, SHEET_TRICKS = "board", "tricks"
# What lies above a sheet on a phone: the page's top row, the header, the strip.
ABOVE_SHEET = 190


class TrickTable(SharedTable):
    def __init__(
        self,
        app: App,
        game_id: str,
        *,
        leader: str | None = None,
        piles: bool = False,
    ) -> None:
        self.app = app
        with app.lock:
            # Every device on this game shares the session: one table, one order.
            self.session: GameSession = shared_session(
                app.store, game_id, keep_taps_later=True
            )
            # The table's revision this device surely shows (its actions carry
            # it), and the one last sent to it.
            self.seen = self.drawn = self.session.revision
        self.suggested = leader
        self.piles = piles
        self.sheet: str | None = None
        self.notice: Notice | None = None
        self.notice_at = self.seen  # the revision the notice answered
        self.answers = RoundQuestions()
        self.pile = PileCount(size=len(self.session.players))
        self.cells = ui.Memo(limit=1000)
        # The parts only the log changes (reasons, board, the round's tricks):
        # kept by the replay they show, for the same measured reason as cells.
        self.log_parts = ui.Memo(limit=12)
        # The lines above and below the cards, kept by what they show.
        self.lines = ui.Memo(limit=60)

    @property
    def spec(self) -> GameSpec:
        return describe(self.session.slug)

    # what the table does

    def reload(self) -> None:
        """Another device acted, or this screen comes back: show the table as it is.

        A notice stays while the table is as it was when it was given; an undo
        done on another device since is said here.
        """
        with self.app.lock:
            self.session.refresh()
            revision = self.session.revision
            undone = self.session.undone_at
        if revision == self.notice_at:
            return
        self.notice = None
        if self.seen < undone:
            self.notice = Notice(CHANGED_FIRST, "table.undone-elsewhere")
        self.notice_at = revision

    def act(
        self, action: Callable[[], Notice | None], *, quiet: frozenset[str] = QUIET
    ) -> bool:
        """Run one action of the session; show its notice; True if it was done."""
        with self.app.lock:
            before = self.session.revision
            notice = action()
            self.notice_at = self.session.revision
            if notice is None or notice.kind != CHANGED_FIRST:
                self.acted()
            # Refused for a change it had not shown yet, a second tap made
            # before the table as it is arrives is weighed the same way.
        self.app.message = None
        if notice is None or notice.key in quiet:
            self.notice = None
        else:
            self.notice = notice
        self.app.render()
        if self.session.revision != before:
            self.app.tell_others()
        # The tap is on screen: now it is kept for a restart.
        with self.app.lock:
            self.session.keep_taps()
        return notice is None or notice.kind not in (REFUSED, CHANGED_FIRST)

    def tap(self, code: str, copy_number: int) -> None:
        self.act(lambda: self.session.tap(code, copy_number, seen=self.tapped_on()))

    def take_back(self, player: str) -> None:
        self.act(lambda: self.session.take_back(player, seen=self.tapped_on()))

    def take_back_last(self) -> None:
        self.act(lambda: self.session.take_back_last(seen=self.tapped_on()))

    def choose(self, option: str) -> None:
        self.act(lambda: self.session.choose(option, seen=self.tapped_on()))

    def undo(self) -> None:
        self.act(lambda: self.session.undo(seen=self.tapped_on()))

    def redo(self) -> None:
        self.act(lambda: self.session.redo(seen=self.tapped_on()))

    def edit(self, number: int) -> None:
        # The trick is re-entered on the cards: the sheet that offered it goes.
        self.sheet = None
        self.act(lambda: self.session.start_edit(number, seen=self.tapped_on()))

    def cancel_edit(self) -> None:
        self.act(lambda: self.session.cancel_edit(seen=self.tapped_on()))

    def record(self, event: Event) -> bool:
        return self.act(lambda: self.session.record(event, seen=self.tapped_on()))

    def start_round(self, leader: str | None) -> None:
        event = round_event(self.spec, leader, self.answers)
        if self.record(event) and self.notice is None:
            self.answers = RoundQuestions()

    def add_pile(self) -> None:
        if self.pile.player is None:
            self.notice = Notice(REFUSED, "pile.who")
            self.app.render()
            return
        event = self.pile.event()
        if self.record(event) and self.notice is None:
            # A refused pile keeps its counts: only a recorded one starts afresh.
            self.pile.clear()

    def end_piles(self) -> None:
        self.record({"type": "end"})

    def use_piles(self, value: bool) -> None:
        self.piles = value
        self.app.render()

    def show_board(self, part: str = BOARD) -> None:
        """Scroll the page down to the full board (or one ``part`` of it)."""
        root = self.app.page.controls[0] if self.app.page.controls else None
        column = getattr(root, "content", None)
        if isinstance(column, ft.Column):
            self.app.page.run_task(column.scroll_to, scroll_key=part, duration=300)

    def show_rounds(self) -> None:
        self.show_board(ROUNDS)

    def toggle_sheet(self, sheet: str) -> None:
        """Open the scoreboard or the round's tricks in the cards' place, or
        close it when it is the one open."""
        self.sheet = None if self.sheet == sheet else sheet
        self.app.render()

    # words

    def say(self, notice: Notice) -> str:
        params = dict(notice.params)
        # the session names a card by its code and a choice by the rules' own
        # message: the table reads the card's label and its own question
        if "card" in params:
            params["card"] = self.spec.code_label(params["card"])
        for coded in ("reason", "lead"):
            if coded in params:
                params[coded] = self.spec.labelled(str(params[coded]))
        if "question" in params and self.session.choice is not None:
            params["question"] = self.choice_question()
        found = self.app.t(notice.key, **params)
        return notice.text if found == notice.key else found

    def labels(self, codes: Sequence[str]) -> str:
        return " ".join(self.spec.card_label(Card.parse(str(c))) for c in codes)

    # the screen

    @property
    def width(self) -> float:
        page = (self.app.page.width or 390) - 2 * PAGE_PADDING
        return (page - PANE_GAP) * 3 / 5 if self.app.wide else page

    def build(self) -> ft.Control:
        self.drawn = self.session.revision
        entry = ft.Column(self.entry_part(), spacing=6, key="entry")
        if self.phone_sheet is not None:
            return entry
        board = ft.Container(
            ft.Column(self.board_part(), spacing=10), key=ft.ScrollKey(BOARD)
        )
        if self.app.wide:
            return ft.Row(
                [
                    ft.Container(entry, expand=3, key="entry-pane"),
                    ft.Container(board, expand=2, key="board-pane"),
                ],
                vertical_alignment=ft.CrossAxisAlignment.START,
                spacing=PANE_GAP,
            )
        return ft.Column([entry, ft.Divider(height=12), board], spacing=6)

    def entry_part(self) -> list[ft.Control]:
        session = self.session
        summary = session.summary()
        prompt = session.prompt()
        turn = session.next_seat()
        parts: list[ft.Control] = [
            self.lines.get(
                (
                    "header",
                    ui.Same(session.base()),
                    turn,
                    *self.undo_state,
                    *self.looks,
                ),
                self.header,
            )
        ]
        if not self.app.wide:
            parts.append(
                self.lines.get(
                    ("strip", ui.Same(session.replay), turn, *self.looks),
                    lambda: strip(self.spec, session.players, summary, turn, self.t),
                )
            )
        if self.phone_sheet is not None:
            parts.append(self.sheet_part(self.phone_sheet))
            return ui.keyed("entry", parts)
        over = summary["finished"] and session.editing is None
        if over:
            round_table = self.show_rounds if summary["rounds"] else None
            parts.append(
                game_over(self.app, self.spec, session.replay, round_table=round_table)
            )
        if "trick" in prompt.expects:
            parts += self.trick_entry()
        else:
            parts.append(self.message_line())
            if over:
                pass  # nothing more to enter; undo and editing stay
            elif "pile" in prompt.expects and (
                self.piles or "round" not in prompt.expects
            ):
                parts += pile_entry(
                    self.pile,
                    session.players,
                    prompt,
                    t=self.t,
                    redraw=self.app.render,
                    add=self.add_pile,
                    end=self.end_piles,
                    by_trick=lambda: self.use_piles(False),
                )
            elif "round" in prompt.expects:
                parts += self.round_entry()
        shown = session.base() if session.editing else session.replay
        parts.append(
            self.log_parts.get(
                ("tricks", ui.Same(shown), *self.looks),
                lambda: trick_list(
                    shown,
                    lang=self.app.lang,
                    t=self.t,
                    edit=self.edit,
                    labels=self.labels,
                ),
            )
        )
        return ui.keyed("entry", parts)

    @property
    def looks(self) -> tuple[object, ...]:
        """What besides the log changes how a part is drawn."""
        return (self.session.editing, self.app.lang, self.app.wide, self.width)

    @property
    def undo_state(self) -> tuple[bool, bool]:
        return (self.session.can_undo, self.session.can_redo)

    def t(self, key: str, **params: object) -> str:
        return self.app.t(key, **params)

    @property
    def phone_sheet(self) -> str | None:
        """The sheet open in the cards' place (a phone only: a tablet shows
        the board beside the cards and the tricks below them)."""
        return None if self.app.wide else self.sheet

    def sheet_part(self, sheet: str) -> ft.Control:
        """The scoreboard or the round's tricks, in view under the header;
        a long one scrolls inside the sheet, never the page."""
        t = self.t
        if sheet == SHEET_BOARD:
            # Who leads, then every player's panel and the rounds, then why.
            session = self.session
            title = t("board.title")
            players = full_board(
                self.spec,
                session.players,
                session.summary(),
                session.replay.state.options,
                t=t,
                wide=False,
            )
            body = [
                *self.board_part()[1:],
                ft.Column(players, spacing=10, key="sheet-players"),
                ft.Column(last_reasons(self.app, session.replay), key="sheet-reasons"),
            ]
        else:
            shown = self.session.base() if self.session.editing else None
            title = t("table.this-round")
            body = [
                trick_list(
                    shown or self.session.replay,
                    lang=self.app.lang,
                    t=t,
                    edit=self.edit,
                    labels=self.labels,
                )
            ]
        height = max(240, (self.app.page.height or 740) - ABOVE_SHEET)
        return ui.panel(
            ft.Row(
                [
                    ft.Container(ui.heading(title, 16), expand=True),
                    ui.icon_tap(
                        ft.Icons.CLOSE,
                        t("history.close"),
                        lambda: self.toggle_sheet(sheet),
                        "sheet-close",
                    ),
                ],
            ),
            ft.Column(body, spacing=10, scroll=ft.ScrollMode.AUTO, height=height),
            identifier=f"sheet-{sheet}",
            highlight=True,
        )

    def header(self) -> ft.Control:
        session, t = self.session, self.t
        wide = self.app.wide
        title: list[ft.Control] = []
        if wide:
            title.append(ui.heading(t(f"game.{session.slug}"), 20))
        title += round_labels(self.spec, session.base(), t)
        turn = session.next_seat()
        if turn is not None:
            title.append(
                ft.Row(
                    [
                        ft.Text(t("table.next"), size=13),
                        ui.figure(
                            "next-player", turn, size=16, weight=ft.FontWeight.BOLD
                        ),
                    ],
                    spacing=4,
                    tight=True,
                )
            )
        tools: list[ft.Control] = [
            ui.icon_tap(
                ft.Icons.MENU_BOOK,
                t("table.rules"),
                rules_opener(self.app, session.slug),
                "table-rules",
            )
        ]
        if not wide:
            tools += [
                ui.icon_tap(
                    ft.Icons.LEADERBOARD,
                    t("board.title"),
                    lambda: self.toggle_sheet(SHEET_BOARD),
                    "board-open",
                ),
                ui.icon_tap(
                    ft.Icons.FORMAT_LIST_NUMBERED,
                    t("table.this-round"),
                    lambda: self.toggle_sheet(SHEET_TRICKS),
                    "tricks-open",
                ),
            ]
        tools.append(
            ui.undo_redo(
                t("table.undo"),
                t("table.redo"),
                self.undo,
                self.redo,
                can_undo=session.can_undo,
                can_redo=session.can_redo,
                compact=not wide,
            )
        )
        return ft.Row(
            [
                ft.Row(
                    title,
                    spacing=8,
                    wrap=True,
                    run_spacing=0,
                    expand=True,
                    height=ui.TOUCH,
                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                ),
                ft.Row(tools, spacing=0, tight=True),
            ],
            alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
            height=ui.TOUCH,
            key="header",
        )

    def message_line(self) -> ft.Control:
        """Refusals, warnings and the edit banner, in a box of fixed height."""
        shown = (ui.Same(self.notice), self.app.message, ui.Same(self.session.replay))
        return self.lines.get(("message", *shown, *self.looks), self.drawn_message)

    def drawn_message(self) -> ft.Control:
        session, t = self.session, self.t
        text, identifier, colour, icon = "", "message", None, None
        if self.notice is not None:
            text, identifier = self.say(self.notice), "error"
            colour, icon = ft.Colors.ERROR, ft.Icons.ERROR_OUTLINE
            if self.notice.kind == CHANGED_FIRST and session.editing is not None:
                # The change that came first is an edit: say so, as the
                # banner it takes the place of would.
                what = moment(self.app, session.replay.log.events, session.editing)
                text = t("table.edit-elsewhere", what=what)
        elif self.app.message:
            text, identifier = self.app.message, "error"
            colour, icon = ft.Colors.ERROR, ft.Icons.ERROR_OUTLINE
        elif session.editing is not None:
            what = moment(self.app, session.replay.log.events, session.editing)
            text, identifier = t("edit.banner", what=what), "edit-banner"
            icon = ft.Icons.EDIT
        elif session.replay.steps and session.replay.steps[-1].outcome.warnings:
            warning = session.replay.steps[-1].outcome.warnings[0]
            text, identifier = self.reason(warning), "warning"
            colour, icon = ft.Colors.ERROR, ft.Icons.WARNING_AMBER
        items: list[ft.Control] = []
        if icon is not None:
            items.append(ft.Icon(icon, size=18, color=colour))
        items.append(
            ui.tagged(
                identifier,
                ft.Text(
                    text,
                    size=12,
                    color=colour,
                    weight=ft.FontWeight.W_500,
                    max_lines=3,
                    overflow=ft.TextOverflow.ELLIPSIS,
                ),
            )
            if text
            else ft.Text("")
        )
        items[-1] = ft.Container(items[-1], expand=True)
        if session.editing is not None:
            items.append(ui.tap(t("edit.cancel"), self.cancel_edit, "cancel-edit"))
        return ft.Container(
            ft.Row(items, spacing=6, vertical_alignment=ft.CrossAxisAlignment.CENTER),
            height=MESSAGE_HEIGHT,
            key="message",
        )

    def reason(self, reason: Reason) -> str:
        return reason_text(reason, self.app.lang)

    def trick_entry(self) -> list[ft.Control]:
        session = self.session
        seats = session.seats()
        lead = next((Card.parse(s.card).suit for s in seats if s.card), None)
        width = self.width
        grid = card_grid(
            self.spec,
            session.layout(),
            session.spent(),
            width=width,
            phone=not self.app.wide,
            lead_suit=lead if seats and seats[0].card else None,
            on_tap=self.tap,
            cells=self.cells,
            group=self.card_group,
        )
        if session.choice is not None:
            grid = ft.Stack(
                [grid, ft.Container(self.choice_part(), left=0, right=0, top=0)],
                key="cards-and-choice",
            )
        return [
            trick_seats(
                self.spec,
                seats,
                session.next_seat(),
                width=width,
                take_back=self.take_back,
                take_back_last=self.take_back_last,
                take_back_label=self.t("table.take-back"),
                cells=self.cells,
            ),
            self.message_line(),
            grid,
        ]

    @property
    def card_group(self) -> str:
        """The grid's tap group: the same cards while one round (or one edit)
        lasts, new ones when it changes."""
        events = self.session.replay.log.events
        return f"cards-{round_start(events)}-{self.session.editing}"

    def choice_part(self) -> ft.Control:
        session, t = self.session, self.t
        need = session.choice
        assert need is not None
        question = self.choice_question()
        buttons = ui.choices(
            [(option, self.option_label(option)) for option in need.options],
            self.choose,
            "choice",
        )
        return ft.Container(
            ui.panel(
                ui.note(question, "choice-question"),
                ui.wrap(buttons),
                ui.tap(t("table.take-back"), self.take_back_last, "choice-take-back"),
                highlight=True,
            ),
            bgcolor=ft.Colors.SURFACE,
            border_radius=12,
        )

    def choice_question(self) -> str:
        need = self.session.choice
        assert need is not None
        key = f"choice.{self.session.slug}.{need.field}"
        return self.t(key, player=need.player)

    def option_label(self, option: str) -> str:
        """A choice in the table's words: a track's name, or the curse card itself."""
        named = self.t(f"option.{option}")
        if named != f"option.{option}":
            return named
        need = self.session.choice
        player = need.player if need is not None else None
        view = self.session.summary()["players"].get(player, {})
        held = [str(c) for c in view.get("curses", []) if str(c).startswith(option)]
        if len(held) == 1:
            return self.spec.code_label(held[0])
        suit = self.spec.suit(option)
        return suit.name.get(self.app.lang) if suit is not None else option

    def round_entry(self) -> list[ft.Control]:
        session = self.session
        summary = session.summary()
        # a round about to start says which game and round it is: after a
        # rematch this is the first thing the table sees
        coming = sum(event.get("type") == "round" for event in session.events) + 1
        game = self.t(f"game.{session.slug}")
        parts: list[ft.Control] = [
            ui.tagged(
                "round-coming",
                ui.heading(self.t("round.coming", game=game, n=coming), 16),
            )
        ]
        if summary["rounds"]:
            parts.append(
                round_scores(
                    self.spec,
                    session.players,
                    summary,
                    len(summary["rounds"]) - 1,
                    self.t,
                )
            )
        parts += round_start_questions(
            self.spec,
            session.replay,
            self.answers,
            suggested=self.suggested,
            t=self.t,
            start=self.start_round,
            redraw=self.app.render,
        )
        if "pile" in session.prompt().expects:
            parts.append(
                ui.tap(
                    self.t("pile.instead"), lambda: self.use_piles(True), "mode-piles"
                )
            )
        return parts

    def board_part(self) -> list[ft.Control]:
        session = self.session
        summary = session.summary()
        seats = session.seats()
        started = seats[0].player if seats and seats[0].card else None
        parts = [
            self.log_parts.get(
                ("board", ui.Same(session.replay), *self.looks), self.log_bound_board
            )
        ]
        # Mid-trick, who leads next is not known yet: who led this one is.
        leader, words = (
            (started, "board.led-by")
            if started
            else (summary["leader"], "board.leader")
        )
        if leader:
            parts.append(
                self.lines.get(
                    ("leader", words, leader, self.app.lang),
                    lambda: ft.Row(
                        [ft.Text(self.t(words)), ui.figure("leader", leader)]
                    ),
                )
            )
        return ui.keyed("board", parts)

    def log_bound_board(self) -> ft.Control:
        session = self.session
        parts: list[ft.Control] = []
        if session.editing is None:
            parts += last_reasons(self.app, session.replay)
        parts += full_board(
            self.spec,
            session.players,
            session.summary(),
            session.replay.state.options,
            t=self.t,
            wide=self.app.wide,
        )
        return ft.Column(parts, spacing=10)
