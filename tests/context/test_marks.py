"""Cutting a shell's raw output at OSC 133 marks (the recorder's and the tmux tap's stream):
cuts, marks split across reads, bounds, full-screen, a reader that starts mid-command, zsh's PROMPT_SP."""
from __future__ import annotations

import base64

from aish.context import marks

C, A = b"\x1b]133;C\x07", b"\x1b]133;A\x1b\\"


def D(code: int) -> bytes:
    return b"\x1b]133;D;%d\x07" % code


def out(entry: dict) -> bytes:
    return base64.b64decode(entry["output"])


def test_output_between_c_and_d_with_its_exit():
    log = marks.CommandLog()
    log.feed(b"prompt$ ls x\r\n" + C + b"ls: x: No such file\r\n" + D(2) + A + b"prompt$ ")
    entry = log.last()
    assert out(entry) == b"ls: x: No such file\r\n" and entry["exit"] == 2


def test_marks_split_across_reads_at_every_byte():
    stream = C + b"hello\r\n" + D(1) + A
    for cut in range(1, len(stream)):
        log = marks.CommandLog()
        log.feed(stream[:cut])
        log.feed(stream[cut:])
        entry = log.last()
        assert entry is not None and out(entry) == b"hello\r\n" and entry["exit"] == 1, cut


def test_back_counts_from_the_last_command():
    log = marks.CommandLog()
    log.feed(C + b"one" + D(1) + C + b"two" + D(0))
    assert out(log.back(1)) == b"two" and out(log.back(2)) == b"one" and log.back(3) is None


def test_a_prompt_without_d_still_ends_the_command():
    log = marks.CommandLog()
    log.feed(C + b"x" + A)
    assert out(log.last()) == b"x" and log.last()["exit"] is None


def test_keeps_the_last_16_commands_and_the_tail_of_64k_each():
    log = marks.CommandLog()
    for i in range(20):
        log.feed(C + b"%d\n" % i + D(0))
    assert len(log.done) == 16 and out(log.done[0].to_json()) == b"4\n"
    log.feed(C + b"a" * 100_000 + b"END" + D(0))
    entry = log.last()
    assert len(out(entry)) == marks.PER_COMMAND and out(entry).endswith(b"END")
    assert entry["dropped"] == 100_003 - marks.PER_COMMAND


def test_full_screen_program_is_flagged():
    log = marks.CommandLog()
    log.feed(C + b"\x1b[?1049h\x1b[Hvim screen\x1b[?1049l" + D(0))
    assert log.last()["fullscreen"] is True


def test_escape_that_is_not_a_mark_is_not_held_back():
    log = marks.CommandLog()
    log.feed(C + b"red \x1b[31m")
    assert bytes(log.current.output) == b"red \x1b[31m"


def test_a_command_whose_start_was_not_seen_is_unsure_never_the_one_before():
    """A tap that begins during a command sees its D only: that entry is not the one before."""
    log = marks.CommandLog()
    log.feed(b"...the middle of a long build\r\n" + D(2) + A + b"$ ")
    assert log.last()["unsure"] is True and log.last()["exit"] == 2
    log.feed(C + b"next\r\n" + D(0))
    assert log.last()["unsure"] is False and log.back(2)["unsure"] is True


PROMPT_SP = b"\x1b[1m\x1b[7m%\x1b[27m\x1b[1m\x1b[0m" + b" " * 79 + b"\r \r"


def test_zsh_prompt_sp_after_the_output_is_not_output():
    log = marks.CommandLog()
    log.feed(C + b"abc" + PROMPT_SP + D(0))
    assert out(log.last()) == b"abc"
    log.feed(C + b"line\r\n" + PROMPT_SP + D(0))
    assert out(log.last()) == b"line\r\n"
    log.feed(C + PROMPT_SP + D(1))  # `false`: nothing at all
    assert out(log.last()) == b""


def test_a_command_that_ends_like_prompt_sp_but_is_not_keeps_its_output():
    log = marks.CommandLog()
    log.feed(C + b"progress 50%\rprogress done\r\n" + D(0))
    assert out(log.last()) == b"progress 50%\rprogress done\r\n"


def test_a_d_mark_s_count_of_ended_commands_is_kept_and_its_exit_read():
    log = marks.CommandLog()
    assert log.ended == 0
    log.feed(C + b"one" + b"\x1b]133;D;2;aish=7\x07" + C + b"two" + D(0))
    assert log.ended == 7 and log.back(2)["exit"] == 2 and out(log.back(1)) == b"two"


def test_keys_echoed_count_against_the_command_whose_output_they_fall_in():
    """The echo lands after what was read: in the running command; after a prompt's end (B)
    in the command the line starts (its C may come first); after D or A on no command."""
    B = b"\x1b]133;B\x07"
    cases = [  # (stream before the keys, stream after), is the command after C typed
        (C + b"out", D(0), True),
        (A + b"$ " + B, C + b"out" + D(0), True),
        (C + b"out" + D(0), A + b"$ " + B + C + b"next" + D(0), False),
        (C + b"out" + D(0) + A + b"$ ", B + C + b"next" + D(0), False),
        (A + b"$ " + B, C + b"out" + D(0) + A + b"$ " + B + C + b"next" + D(0), False),  # once
    ]
    wrong = []
    for before, after, typed in cases:
        log = marks.CommandLog()
        log.feed(before)
        log.keys_echoed()
        log.feed(after)
        if log.last()["typed"] != typed:
            wrong.append((before, after))
    assert not wrong, wrong
