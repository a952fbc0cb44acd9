"""A program under a pseudo-terminal of a fixed size, and what its screen shows.

:class:`Terminal` runs a command on a stdlib ``pty`` with the window size set, writes keys
to it and reads its output; :class:`Screen` interprets the output as a terminal would
(the cursor moves, clears, wraps at the right margin and scrolls at the bottom), so a test
asks what is *on screen* now, not what was ever printed.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import termios
import time
from collections.abc import Sequence

__all__ = ["Screen", "Terminal"]

_CSI = re.compile(rb"\x1b\[([?0-9;]*)([A-Za-z@])")
_OSC = re.compile(rb"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")


def _plain(output: bytes) -> str:
    """``output`` without its control sequences (whatever they moved or coloured)."""
    return _CSI.sub(b"", _OSC.sub(b"", output)).decode("utf-8", "replace")


class Screen:
    """The visible cells of a ``columns`` x ``rows`` terminal fed some output."""

    def __init__(self, columns: int, rows: int) -> None:
        self.columns, self.rows = columns, rows
        self.cells = [[" "] * columns for _ in range(rows)]
        self.row = self.col = 0

    def lines(self) -> list[str]:
        """Each row's text, trailing blanks removed."""
        return ["".join(row).rstrip() for row in self.cells]

    def text(self) -> str:
        return "\n".join(self.lines())

    def feed(self, data: bytes) -> None:
        data = _OSC.sub(b"", data)
        position = 0
        for match in _CSI.finditer(data):
            self._write(data[position : match.start()])
            self._control(match.group(1).decode(), match.group(2).decode())
            position = match.end()
        self._write(data[position:])

    def _control(self, parameters: str, final: str) -> None:
        private = parameters.startswith("?")
        numbers = [int(n) if n else 0 for n in parameters.lstrip("?").split(";")]
        if private:
            if numbers[0] == 1049:  # the alternate screen: entered or left, it starts blank
                self._clear()
            return
        first = numbers[0] if numbers else 0
        if final == "H":
            row = numbers[0] if numbers and numbers[0] else 1
            col = numbers[1] if len(numbers) > 1 and numbers[1] else 1
            self.row, self.col = min(row, self.rows) - 1, min(col, self.columns) - 1
        elif final == "J" and first in (2, 3):
            self._clear(home=False)
        elif final == "J":  # from the cursor to the end of the screen
            self.cells[self.row][self.col :] = [" "] * (self.columns - self.col)
            for row in range(self.row + 1, self.rows):
                self.cells[row] = [" "] * self.columns
        elif final == "K":
            self.cells[self.row][self.col :] = [" "] * (self.columns - self.col)
        elif final == "A":
            self.row = max(0, self.row - max(first, 1))
        elif final == "B":
            self.row = min(self.rows - 1, self.row + max(first, 1))
        elif final == "C":
            self.col = min(self.columns - 1, self.col + max(first, 1))
        elif final == "D":
            self.col = max(0, self.col - max(first, 1))
        elif final == "G":
            self.col = min(self.columns, max(first, 1)) - 1
        # m (colours) and anything else change no cell

    def _clear(self, home: bool = True) -> None:
        self.cells = [[" "] * self.columns for _ in range(self.rows)]
        if home:
            self.row = self.col = 0

    def _write(self, data: bytes) -> None:
        for char in data.decode("utf-8", "replace"):
            if char == "\r":
                self.col = 0
            elif char == "\n":
                self._line_feed()
            elif char == "\b":
                self.col = max(0, self.col - 1)
            elif char in "\x07\x1b" or ord(char) < 32:
                continue
            else:
                if self.col >= self.columns:  # the pending wrap of a full line
                    self.col = 0
                    self._line_feed()
                self.cells[self.row][self.col] = char
                self.col += 1

    def _line_feed(self) -> None:
        if self.row == self.rows - 1:
            self.cells = [*self.cells[1:], [" "] * self.columns]
        else:
            self.row += 1


class Terminal:
    """``command`` running on a pseudo-terminal of ``columns`` x ``rows``."""

    def __init__(
        self, command: Sequence[str], env: dict[str, str], columns: int = 80, rows: int = 24
    ) -> None:
        self.screen = Screen(columns, rows)
        self.output = b""
        self.answer = b""  # what was printed since the last keys were sent
        leader, follower = pty.openpty()
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        environment = {k: v for k, v in env.items() if k not in ("COLUMNS", "LINES")}
        environment["TERM"] = "xterm-256color"
        self.process = subprocess.Popen(
            list(command),
            stdin=follower,
            stdout=follower,
            stderr=follower,
            env=environment,
            start_new_session=True,
        )
        os.close(follower)
        self.leader = leader

    def send(self, keys: str) -> None:
        """Type ``keys``; the next :meth:`wait_for` waits for what they cause."""
        self.answer = b""
        os.write(self.leader, keys.encode())

    def wait_for(self, text: str, timeout: float = 60.0) -> str:
        """Read until the program's answer to the last keys sent has printed ``text`` and it
        is on the screen (not merely printed once), then until it is quiet; the screen."""
        deadline = time.monotonic() + timeout
        while not (text in _plain(self.answer) and text in self.screen.text()):
            if not self._read(deadline - time.monotonic()):
                raise AssertionError(f"{text!r} never on screen; it shows:\n{self.screen.text()}")
        while self._read(0.3):  # the rest of the frame, the prompt
            pass
        return self.screen.text()

    def _read(self, timeout: float) -> bool:
        if timeout <= 0:
            return False
        ready, _, _ = select.select([self.leader], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.leader, 65536)
        except OSError:  # the program ended and the terminal closed
            return False
        self.output += data
        self.answer += data
        self.screen.feed(data)
        return bool(data)

    def finish(self, timeout: float = 60.0) -> int:
        deadline = time.monotonic() + timeout
        while self.process.poll() is None and time.monotonic() < deadline:
            self._read(0.2)
        while self._read(0.2):
            pass
        os.close(self.leader)
        if self.process.poll() is None:
            self.process.kill()
        return self.process.wait()
