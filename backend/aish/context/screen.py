"""What a command's raw output leaves on the screen, as plain text lines.

A command writes bytes for a terminal, not a log: colours, carriage-return
progress bars, cursor moves that redraw several lines (docker, npm, pip), a
``clear``, a whole full-screen session (less, vim, top) in the alternate
screen.  Stripping the escapes would send every frame of a progress bar, a
cleared screen's old text, or a pager's page as garbage.  This replays the
bytes on a page that never wraps (long lines stay whole, so a secret is never
cut in two) and keeps what stayed visible: text written over is replaced,
text erased or cleared is gone, and what a full-screen program drew in the
alternate screen is not there once it quit.

Deliberately small: cursor moves, erases, tabs, save/restore and the
alternate screen.  Absolute row moves count from the top of the page (the
command's first line, or the last clear), since where the command started on
the real screen is not known.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

# One token: a CSI sequence, an OSC/DCS/SOS/PM/APC string, a two-byte escape, a
# control, or a run of plain text.
_TOKEN = re.compile(
    r"(?P<csi>(?:\x1b\[|\x9b)(?P<params>[0-?]*)(?P<inter>[ -/]*)(?P<final>[@-~]))"
    r"|(?P<string>(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?)"
    r"|(?P<esc>\x1b[ -/]*[0-~]?)"
    r"|(?P<ctl>[\x00-\x1f\x7f-\x9f])"
    r"|(?P<text>[^\x00-\x1f\x7f-\x9f]+)"
)
_ALT_MODES = {"1049", "1047", "47"}
MAX_COLUMN = 4096  # a cursor move past this is clamped (a hostile stream cannot eat memory)
MAX_ROWS = 100_000


@dataclass
class Page:
    """The lines written so far and the cursor; ``base`` is the top of the page."""

    lines: list = field(default_factory=lambda: [[]])
    row: int = 0
    col: int = 0
    base: int = 0
    saved: tuple = (0, 0)


@dataclass
class Rendered:
    """The visible text, and whether a full-screen program drew part of it away."""

    text: str
    fullscreen: bool = False


def render(data: bytes | str) -> Rendered:
    """The text ``data`` leaves on a terminal page, trailing blanks trimmed."""
    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    main = Page()
    alt: Page | None = None
    fullscreen = False
    for token in _TOKEN.finditer(text):
        page = alt if alt is not None else main
        kind = token.lastgroup
        if kind == "text":
            _write(page, token.group())
        elif kind == "ctl":
            _control(page, token.group())
        elif kind == "csi":
            params, final = token.group("params"), token.group("final")
            if params.startswith("?") and final in "hl" and set(params[1:].split(";")) & _ALT_MODES:
                fullscreen = True
                if final == "h" and alt is None:
                    alt = Page()
                elif final == "l":
                    if alt is None:  # its start was cut off: what came before was the program's
                        main = Page()
                    alt = None
                continue
            _csi(page, params, token.group("inter"), final)
        elif kind == "esc":
            _escape(page, token.group())
    rows = ["".join(line).rstrip() for line in main.lines]
    return Rendered("\n".join(rows).strip("\n"), fullscreen)


def _line(page: Page) -> list:
    while len(page.lines) <= page.row:
        page.lines.append([])
    return page.lines[page.row]


def _write(page: Page, text: str) -> None:
    line = _line(page)
    if len(line) < page.col:
        line.extend(" " * (page.col - len(line)))
    line[page.col:page.col + len(text)] = list(text)
    page.col += len(text)


def _control(page: Page, char: str) -> None:
    if char == "\n" or char == "\x0b" or char == "\x0c":
        page.row = min(page.row + 1, MAX_ROWS)
        page.col = 0  # the tty turned it into CR LF (onlcr); text from a CLI has bare LF
        _line(page)
    elif char == "\r":
        page.col = 0
    elif char == "\b":
        page.col = max(0, page.col - 1)
    elif char == "\t":
        stop = min((page.col // 8 + 1) * 8, MAX_COLUMN)
        line = _line(page)
        if page.col >= len(line):  # a tab that ends the text stays a tab (columns, TSV)
            line.extend(" " * (page.col - len(line)))
            line.extend(["\t"] + [""] * (stop - page.col - 1))
        page.col = stop


def _numbers(params: str, default: int) -> list:
    values = []
    for part in params.split(";"):
        values.append(int(part) if part.isdigit() else default)
    return values


def _csi(page: Page, params: str, inter: str, final: str) -> None:
    if inter or params.startswith(("?", ">", "<", "=")):
        return  # private modes, key protocols...: nothing that stays on the page
    n = _numbers(params, 1)
    count = max(1, n[0])
    if final == "A":
        page.row = max(page.base, page.row - count)
    elif final in "Be":
        page.row = min(page.row + count, MAX_ROWS)
        _line(page)
    elif final in "Ca":
        page.col = min(page.col + count, MAX_COLUMN)
    elif final == "D":
        page.col = max(0, page.col - count)
    elif final in "G`":
        page.col = min(count - 1, MAX_COLUMN)
    elif final in "Hf":
        row = n[0] if n[0] > 0 else 1
        col = n[1] if len(n) > 1 and n[1] > 0 else 1
        page.row, page.col = min(page.base + row - 1, MAX_ROWS), min(col - 1, MAX_COLUMN)
        _line(page)
    elif final == "d":
        page.row = min(page.base + count - 1, MAX_ROWS)
        _line(page)
    elif final in "EF":
        page.row = page.row + count if final == "E" else max(page.base, page.row - count)
        page.col = 0
        _line(page)
    elif final == "K":
        _erase_line(page, _numbers(params, 0)[0])
    elif final == "J":
        _erase_page(page, _numbers(params, 0)[0])
    elif final == "X":
        line = _line(page)
        for i in range(page.col, min(page.col + count, len(line))):
            line[i] = " "
    elif final == "P":
        del _line(page)[page.col:page.col + count]
    elif final == "@":
        line = _line(page)
        if page.col < len(line):
            line[page.col:page.col] = [" "] * min(count, MAX_COLUMN)
    elif final == "s":
        page.saved = (page.row, page.col)
    elif final == "u":
        page.row, page.col = page.saved
        _line(page)


def _erase_line(page: Page, how: int) -> None:
    line = _line(page)
    if how == 0:
        del line[page.col:]
    elif how == 1:
        for i in range(min(page.col + 1, len(line))):
            line[i] = " "
    elif how == 2:
        line.clear()


def _erase_page(page: Page, how: int) -> None:
    if how == 0:
        del _line(page)[page.col:]
        del page.lines[page.row + 1:]
    elif how == 1:
        for row in range(page.base, page.row):
            page.lines[row] = []
        _erase_line(page, 1)
    else:  # 2, 3: the screen is cleared; what was on it is no longer there
        page.lines = [[]]
        page.row, page.col, page.base = 0, page.col, 0


def _escape(page: Page, seq: str) -> None:
    if seq == "\x1bc":  # full reset
        page.lines, page.row, page.col, page.base = [[]], 0, 0, 0
    elif seq == "\x1b7":
        page.saved = (page.row, page.col)
    elif seq == "\x1b8":
        page.row, page.col = page.saved
        _line(page)
    elif seq == "\x1bM":
        page.row = max(page.base, page.row - 1)
    elif seq in ("\x1bD", "\x1bE"):
        page.row = min(page.row + 1, MAX_ROWS)
        if seq == "\x1bE":
            page.col = 0
        _line(page)
