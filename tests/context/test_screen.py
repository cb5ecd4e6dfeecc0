"""What a command's raw output leaves on the screen: overwrites, erases, cursor moves that
redraw, clear, the alternate screen, long lines unwrapped; real byte sequences of common tools."""
from __future__ import annotations

from aish.context.screen import render

ESC = "\x1b"


def text(data: str) -> str:
    return render(data.encode()).text


def test_plain_lines_and_crlf():
    assert text("one\r\ntwo\r\n") == "one\ntwo"


def test_a_line_wider_than_any_screen_stays_one_line():
    key = "sk-proj-" + "A1b2C3d4" * 30
    assert text(f"export KEY={key}\r\n") == f"export KEY={key}"


def test_multi_line_progress_redrawn_with_cursor_up_keeps_the_last_frame():
    # what docker pull / pip / npm do: print N lines, move up N, print them again
    frames = "".join(f"{ESC}[2A\r{ESC}[2Klayer a: {p}%\r\n{ESC}[2Klayer b: {p}%\r\n" for p in (10, 60, 100))
    assert text("layer a: 0%\r\nlayer b: 0%\r\n" + frames) == "layer a: 100%\nlayer b: 100%"


def test_erase_to_end_of_line_and_character_moves():
    assert text(f"hello world\r{ESC}[6C{ESC}[Kthere") == "hello there"
    assert text(f"abc{ESC}[2Dz") == "azc"
    assert text(f"abcdef{ESC}[1G{ESC}[2XZ") == "Z cdef"


def test_clear_leaves_only_what_came_after_it():
    """`clear` prints ESC[H ESC[2J ESC[3J: the text before it is no longer on the screen."""
    assert text(f"old screen\r\nmore{ESC}[H{ESC}[2J{ESC}[3J") == ""
    assert text(f"old{ESC}[H{ESC}[2Jnew\r\n") == "new"
    assert text(f"old{ESC}cfresh") == "fresh"


def test_only_control_sequences_leave_nothing():
    assert text(f"{ESC}]0;title{ESC}\\{ESC}[?25l{ESC}[31m{ESC}[0m{ESC}[?25h\x07") == ""


def test_full_screen_program_leaves_what_the_main_screen_kept():
    shown = render(f"before\r\n{ESC}[?1049h{ESC}[Hpage of less{ESC}[?1049lafter\r\n".encode())
    assert shown.text == "before\nafter" and shown.fullscreen
    gone = render(f"{ESC}[?1049h{ESC}[H{ESC}[2Jtop - 10:00 up 1 day{ESC}[?1049l".encode())
    assert gone.text == "" and gone.fullscreen


def test_the_alternate_screen_start_cut_off_by_the_tail_cap():
    """The recorder keeps the tail: the exit from the alternate screen without its entry."""
    shown = render(f"vim drawing{ESC}[10;1H~{ESC}[?1049lsaved\r\n".encode())
    assert shown.text == "saved" and shown.fullscreen


def test_tabs_stay_tabs_and_backspaces_take_back():
    assert text("name\tsize\r\n") == "name\tsize"
    assert text("b\bbo\bol\bld") == "bold"


def test_absolute_moves_count_from_the_top_of_the_page():
    assert text(f"line1\r\nline2\r\n{ESC}[1;1HLINE") == "LINE1\nline2"


def test_hostile_moves_are_bounded():
    assert len(text(f"{ESC}[999999999C{ESC}[999999999Bx")) < 200_000
