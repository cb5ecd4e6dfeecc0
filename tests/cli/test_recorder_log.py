"""The recorder's command log: OSC 133 cuts, marks split across reads, bounds, full-screen."""
from __future__ import annotations

import base64

from aish.cli import recorder

C, A = b"\x1b]133;C\x07", b"\x1b]133;A\x1b\\"


def D(code: int) -> bytes:
    return b"\x1b]133;D;%d\x07" % code


def out(entry: dict) -> bytes:
    return base64.b64decode(entry["output"])


def test_output_between_c_and_d_with_its_exit():
    log = recorder.CommandLog()
    log.feed(b"prompt$ ls x\r\n" + C + b"ls: x: No such file\r\n" + D(2) + A + b"prompt$ ")
    entry = log.last()
    assert out(entry) == b"ls: x: No such file\r\n" and entry["exit"] == 2


def test_marks_split_across_reads_at_every_byte():
    stream = C + b"hello\r\n" + D(1) + A
    for cut in range(1, len(stream)):
        log = recorder.CommandLog()
        log.feed(stream[:cut])
        log.feed(stream[cut:])
        entry = log.last()
        assert entry is not None and out(entry) == b"hello\r\n" and entry["exit"] == 1, cut


def test_back_counts_from_the_last_command():
    log = recorder.CommandLog()
    log.feed(C + b"one" + D(1) + C + b"two" + D(0))
    assert out(log.back(1)) == b"two" and out(log.back(2)) == b"one" and log.back(3) is None


def test_a_prompt_without_d_still_ends_the_command():
    log = recorder.CommandLog()
    log.feed(C + b"x" + A)
    assert out(log.last()) == b"x" and log.last()["exit"] is None


def test_keeps_the_last_16_commands_and_the_tail_of_64k_each():
    log = recorder.CommandLog()
    for i in range(20):
        log.feed(C + b"%d\n" % i + D(0))
    assert len(log.done) == 16 and out(log.done[0].to_json()) == b"4\n"
    log.feed(C + b"a" * 100_000 + b"END" + D(0))
    entry = log.last()
    assert len(out(entry)) == recorder.PER_COMMAND and out(entry).endswith(b"END")
    assert entry["dropped"] == 100_003 - recorder.PER_COMMAND


def test_full_screen_program_is_flagged():
    log = recorder.CommandLog()
    log.feed(C + b"\x1b[?1049h\x1b[Hvim screen\x1b[?1049l" + D(0))
    assert log.last()["fullscreen"] is True


def test_escape_that_is_not_a_mark_is_not_held_back():
    log = recorder.CommandLog()
    log.feed(C + b"red \x1b[31m")
    assert bytes(log.current.output) == b"red \x1b[31m"


def test_doctor_names_the_output_source_or_how_to_get_one():
    from aish.cli.doctor import check_output

    assert check_output({"TMUX_PANE": "%1"}, "auto").line() == "ok   command output: read from tmux"
    none = check_output({}, "auto")
    assert not none.ok and "aish shell" in none.line() and "tmux" in none.line()
    assert not check_output({"KITTY_WINDOW_ID": "1"}, "auto").ok
    assert check_output({}, "off").ok
