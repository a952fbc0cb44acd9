"""Where a hot-seat game meets its players: a full screen redrawn in place on a terminal,
plain printed lines anywhere else (a pipe, a test, a screen reader).

:class:`LineTable` prints each turn's view and menu in full, as ``play`` always has: fit for
a pipe. :class:`ScreenTable` (a terminal on both ends) draws one screen of exactly the
terminal's size and redraws it in place after every key: the status line (whose turn, the
position's one-line summary) at the top and the last error above the prompt stay visible
whatever the size; the board and the menu are regions that scroll (``j``/``k``, ``n``/``p``);
the moves of the other seats since this one's last move are shown under the status line.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Protocol

from rich.columns import Columns
from rich.console import Console
from rich.prompt import Prompt
from rich.text import Text

__all__ = ["LineTable", "ScreenTable", "Table", "screen_fits"]

Offer = tuple[int, str]
"""A menu entry: its number and its sentence."""

MIN_WIDTH, MIN_HEIGHT = 60, 16
"""The smallest terminal the screen is drawn on (80x24 is the size it is made for); a
smaller one gets the line mode."""

NAVIGATION = {
    "j": "board down",
    "k": "board up",
    "n": "next choices",
    "p": "previous choices",
    "l": "moves/board",
}
"""The keys the screen answers itself (they change what is shown, never the game)."""


class Table(Protocol):
    """What the hot-seat loop asks of its players' side of the table."""

    def ask(
        self,
        seat: str,
        view: Text,
        offers: Sequence[Offer],
        restarted: bool,
        keys: Sequence[str],
    ) -> str:
        """Show ``seat``'s view and menu; return what was typed (stripped, lower case).
        Raises :class:`EOFError` when input is closed."""
        ...

    def error(self, text: str) -> None:
        """Tell the player their input was not understood or was refused."""
        ...

    def note(self, text: str) -> None:
        """A line about what just happened (undone, redone)."""
        ...

    def moved(
        self,
        seat: str,
        summary: str,
        facts: Sequence[str],
        *,
        seen: tuple[str, Sequence[str]] | None = None,
    ) -> None:
        """A command was applied: its sentence and those of the events it caused, as
        ``seat`` reads them; ``seen``: the same as the other seats may read them (a
        spectator's words; ``None``: the same words, nothing in them is secret)."""
        ...

    def hand_over(self, seat: str) -> bool:
        """Between two seats: hide the screen until ``seat`` is ready; ``False`` if they
        typed q (the loop then asks whether to quit)."""
        ...

    def choose(self, question: str, default: str) -> str:
        """A question off the menu (quit? abandon?); raises :class:`EOFError` as :meth:`ask`."""
        ...

    def close(self) -> None:
        """Leave the screen (the result is printed below, in the terminal's own scroll)."""
        ...


class LineTable:
    """Plain lines: every turn prints the whole view and the menu (a pipe, a test)."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def ask(
        self, seat: str, view: Text, offers: Sequence[Offer], restarted: bool, keys: Sequence[str]
    ) -> str:
        self.console.rule(f"{seat} to play")
        self.console.print(view, soft_wrap=True)
        if restarted:
            self.console.print(Text("(a new menu: the numbers start again)", style="dim"))
        self.console.print(
            Columns(
                [Text.assemble((f"{n:>3} ", "bold"), sentence) for n, sentence in offers],
                column_first=True,
            )
        )
        answer = Prompt.ask(f"[bold]{seat}[/] ({', '.join(keys)})", console=self.console)
        return answer.strip().lower()

    def error(self, text: str) -> None:
        self.console.print(Text(text, style="yellow"))

    def note(self, text: str) -> None:
        self.console.print(Text(f"  {text}"))

    def moved(
        self,
        seat: str,
        summary: str,
        facts: Sequence[str],
        *,
        seen: tuple[str, Sequence[str]] | None = None,
    ) -> None:
        for line in (f for f in facts if f != summary):
            self.console.print(Text(f"  -> {line}"))

    def hand_over(self, seat: str) -> bool:
        self.console.clear()
        self.console.rule(f"hand over to {seat}")
        answer = _ask_enter(self.console, seat)
        return answer is not None and answer.strip().lower() != "q"

    def choose(self, question: str, default: str) -> str:
        return Prompt.ask(question, console=self.console, default=default)

    def close(self) -> None:
        return None


def _ask_enter(console: Console, seat: str) -> str | None:
    try:
        return Prompt.ask(
            f"[bold]{seat}[/], press Enter when only you can see the screen (q quit)",
            console=console,
            default="",
            show_default=False,
        )
    except EOFError:
        return None


def screen_fits(console: Console) -> bool:
    """Whether ``console`` is large enough for :class:`ScreenTable`."""
    width, height = console.size
    return width >= MIN_WIDTH and height >= MIN_HEIGHT


class ScreenTable:
    """One screen the terminal's size, redrawn in place (on the alternate screen, so the
    terminal's scrollback keeps what was there before the game).

    Rows, top to bottom: the status line; two lines of recent moves (the other seats' since
    this seat last moved, newest last); the board region; the choices region; the message
    line (the last error, in yellow, until the next accepted key); the prompt. The board
    and the choices scroll by themselves when they do not fit; ``l`` swaps the board for the
    whole list of moves so far.
    """

    FEED_ROWS = 2

    def __init__(self, console: Console) -> None:
        self.console = console
        self.message: Text = Text("")
        self.history: list[tuple[str, str]] = []  # (seat, what it did), oldest first
        self.own_last: dict[str, int] = {}  # seat -> len(history) after its last move
        self.board_top = 0
        self.page = 0
        self.showing_moves = False
        self.shown_seat: str | None = None
        console.set_alt_screen(True)

    # -- the game's side ----------------------------------------------------------------------

    def ask(
        self, seat: str, view: Text, offers: Sequence[Offer], restarted: bool, keys: Sequence[str]
    ) -> str:
        if seat != self.shown_seat or restarted:
            self.page = 0
        if seat != self.shown_seat:
            self.board_top = 0
            self.showing_moves = False
            if self.shown_seat is not None:  # the first screen keeps the game's opening
                self.message = Text("")  # the last seat's "you: ..." is not for this one
        self.shown_seat = seat
        if restarted and not self.message.plain:
            self.message = Text("a new menu: the numbers start again", style="dim")
        while True:
            self._draw(seat, view, offers, keys)
            answer = self.console.input(Text.assemble((seat, "bold"), " > ")).strip().lower()
            if answer in NAVIGATION:
                self._navigate(answer, offers)
                continue
            self.message = Text("")
            return answer

    def error(self, text: str) -> None:
        self.message = Text(text, style="yellow")

    def note(self, text: str) -> None:
        self.message = Text(text)

    def moved(
        self,
        seat: str,
        summary: str,
        facts: Sequence[str],
        *,
        seen: tuple[str, Sequence[str]] | None = None,
    ) -> None:
        said = "; ".join([summary, *(f for f in facts if f != summary)])
        public, told = seen if seen is not None else (summary, facts)
        # The history is read by the other seats: only what they may see.
        self.history.append((seat, "; ".join([public, *(f for f in told if f != public)])))
        self.own_last[seat] = len(self.history)
        self.message = Text(f"you: {said}", style="dim")

    def hand_over(self, seat: str) -> bool:
        self.console.clear()
        width, height = self.console.size
        lines = [Text("")] * (height // 2 - 1)
        lines.append(Text(f"hand over to {seat}".center(width), style="bold"))
        self.console.print(Text("\n").join(lines))
        answer = _ask_enter(self.console, seat)
        return answer is not None and answer.strip().lower() != "q"

    def choose(self, question: str, default: str) -> str:
        return Prompt.ask(question, console=self.console, default=default)

    def close(self) -> None:
        self.console.set_alt_screen(False)

    # -- drawing ------------------------------------------------------------------------------

    def _regions(self, offers: Sequence[Offer]) -> tuple[int, int, int]:
        """The board's rows, the choices' rows and columns for this screen."""
        width, height = self.console.size
        free = height - (1 + self.FEED_ROWS + 2 + 1 + 1)  # status, feed, 2 rules, message, prompt
        cell = max((len(_offer_text(o)) for o in offers), default=1) + 2
        columns = max(1, min(width // cell, 4))
        wanted = math.ceil(len(offers) / columns)
        choice_rows = max(1, min(wanted, max(4, free // 2)))
        return free - choice_rows, choice_rows, columns

    def _draw(self, seat: str, view: Text, offers: Sequence[Offer], keys: Sequence[str]) -> None:
        width, _ = self.console.size
        board_rows, choice_rows, columns = self._regions(offers)
        status, *lines_of_view = view.split("\n", allow_blank=True)
        board = [row for line in lines_of_view for row in _wrapped(self.console, line, width)]
        if self.showing_moves:
            board = [Text(f"{n:>4}. {said}") for n, (_, said) in enumerate(self.history, 1)]
            board = board or [Text("no moves yet")]
        self.board_top = max(0, min(self.board_top, len(board) - board_rows))
        shown_board = board[self.board_top : self.board_top + board_rows]
        per_page = choice_rows * columns
        pages = max(1, math.ceil(len(offers) / per_page))
        self.page = min(self.page, pages - 1)
        lines: list[Text] = [
            Text.assemble((f" {seat} to play ", "bold reverse"), " ", status.plain, style="bold"),
            *self._feed(seat, width),
            _rule(
                ("moves" if self.showing_moves else "board")
                + _span(self.board_top, len(shown_board), len(board), "j/k"),
                width,
            ),
            *shown_board,
            *[Text("")] * (board_rows - len(shown_board)),
            _rule(
                "choices"
                + (f" · page {self.page + 1}/{pages} · n/p" if pages > 1 else "")
                + " · "
                + ", ".join(keys),
                width,
            ),
            *_columns(
                offers[self.page * per_page : (self.page + 1) * per_page],
                choice_rows,
                columns,
                width,
            ),
            self.message,
        ]
        for line in lines:
            line.no_wrap = True
            line.truncate(width, overflow="ellipsis")
        self.console.clear()
        self.console.print(Text("\n").join(lines), crop=True, soft_wrap=False)

    def _feed(self, seat: str, width: int) -> list[Text]:
        """The other seats' moves since ``seat``'s last one, newest last, in two rows."""
        since = self.history[self.own_last.get(seat, 0) :]
        pending = [said for by, said in since if by != seat]
        if not pending:
            last = self.history[-1][1] if self.history else "none yet"
            return [Text(f"last move: {last}", style="dim"), Text("")]
        recent = pending[-self.FEED_ROWS :]
        earlier = len(pending) - len(recent)
        rows = [Text(f"since your move: {said}") for said in recent]
        if earlier:  # `l` lists them all
            rows[0] = Text(f"(+{earlier} earlier, l lists them) {recent[0]}")
        return [*rows, *[Text("")] * (self.FEED_ROWS - len(rows))]

    def _navigate(self, key: str, offers: Sequence[Offer]) -> None:
        board_rows, _, _ = self._regions(offers)
        step = max(1, board_rows - 1)
        if key == "j":
            self.board_top += step
        elif key == "k":
            self.board_top = max(0, self.board_top - step)
        elif key == "n":
            self.page += 1
        elif key == "p":
            self.page = max(0, self.page - 1)
        else:
            self.showing_moves = not self.showing_moves
            self.board_top = max(0, len(self.history) - board_rows) if self.showing_moves else 0
        self.message = Text("")


def _wrapped(console: Console, line: Text, width: int) -> list[Text]:
    """A line of the view as rows of the board: a long sentence wraps (the map's rows fit)."""
    if not line.plain:
        return [line]
    return list(line.wrap(console, width, overflow="ellipsis"))


def _offer_text(offer: Offer) -> str:
    number, sentence = offer
    return f"{number:>3} {sentence}"


def _span(top: int, shown: int, total: int, keys: str) -> str:
    if shown >= total:
        return ""
    return f" · lines {top + 1}-{top + shown} of {total} · {keys}"


def _rule(title: str, width: int) -> Text:
    head = f"── {title} "
    return Text(head + "─" * max(0, width - len(head)), style="dim")


def _columns(offers: Sequence[Offer], rows: int, columns: int, width: int) -> list[Text]:
    """``offers`` column first in ``rows`` rows of ``columns`` cells, each cell cropped."""
    cell = width // columns
    lines = [Text("") for _ in range(rows)]
    for index, offer in enumerate(offers):
        number, sentence = offer
        text = Text.assemble((f"{number:>3} ", "bold"), sentence)
        text.truncate(cell - 1, overflow="ellipsis", pad=True)
        lines[index % rows].append_text(text + Text(" ") if index // rows < columns - 1 else text)
    return lines
