"""Cleaning terminal output: escapes, overwrites, binary, the head+tail cap, full-screen."""
from __future__ import annotations

from aish.context import sanitize


def test_colour_cursor_title_and_osc133_are_stripped():
    raw = b"\x1b]0;title\x07\x1b]133;C\x1b\\\x1b[31mred\x1b[0m \x1b[Kok\x1b(B\n"
    assert sanitize.clean(raw).text == "red ok"


def test_carriage_return_progress_keeps_what_stayed_visible():
    assert sanitize.clean("10%\r50%\r100% done\n").text == "100% done"
    assert sanitize.clean("abcdef\rXY").text == "XYcdef"
    assert sanitize.clean("b\bbo\bol\bld").text == "bold"


def test_controls_other_than_newline_and_tab_go():
    assert sanitize.clean(b"a\x07b\tc\x0ed").text == "ab\tcd"


def test_binary_output_is_named_not_sent():
    out = sanitize.clean(b"\x7fELF\x02\x01\x01\x00\x00\x00" + bytes(range(256)) * 4)
    assert out.text == "" and out.note.startswith("binary output (")
    assert not sanitize.is_binary("héllo wörld\n".encode() * 50)


def test_full_screen_program_is_never_sent():
    out = sanitize.clean(b"\x1b[?1049h\x1b[Hsecret file in vim\x1b[?1049l")
    assert out.text == "" and out.note == sanitize.FULLSCREEN_NOTE


def test_cap_keeps_head_and_tail_within_lines():
    text = "\n".join(f"line {i}" for i in range(1000))
    out = sanitize.clean(text.encode(), max_lines=20, max_bytes=100_000)
    kept = out.text.split("\n")
    assert out.cut and out.lines == 1000
    assert kept[0] == "line 0" and kept[-1] == "line 999"
    assert "[... 980 lines left out ...]" in kept
    assert len(kept) == 21


def test_cap_keeps_within_bytes():
    text = "\n".join("x" * 100 + str(i) for i in range(100))
    out = sanitize.clean(text.encode(), max_lines=200, max_bytes=1000)
    assert out.cut and len(out.text.encode()) <= 1000 + 40
    assert out.text.endswith("x99") and out.text.startswith("x" * 100 + "0")


def test_one_huge_line_keeps_a_piece():
    out = sanitize.clean(b"y" * 50_000, max_lines=200, max_bytes=2000)
    assert out.cut and 0 < len(out.text) < 2100


def test_short_output_is_untouched():
    out = sanitize.clean(b"ls: cannot access '/x': No such file or directory\n")
    assert out.text == "ls: cannot access '/x': No such file or directory" and out.lines == 1
    assert not out.cut
