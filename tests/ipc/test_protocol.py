"""The protocol codec (docs/protocol.md): escaping, request files, frames, control lines."""
from __future__ import annotations

import random

import pytest

from aish.errors import ProtocolError
from aish.ipc.protocol import (HistoryEntry, Request, encode_frame, escape, format_control,
                           format_request, parse_control, parse_frame, parse_request, unescape)
from tests.safety.forms import each_form

ALPHABET = ["%", "%0A", "%25", "%09", "%0D", "\n", "\t", "\r", "a", "Z", " ", "=", "é", "日本",
            "🙂", "\\", "0A", "25", "%%", "\x1b", "$'", "\u2028"]


def random_strings(count: int = 300, seed: int = 7):
    rng = random.Random(seed)
    for _ in range(count):
        yield "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 12)))


def test_escape_round_trips_and_leaves_no_line_breaks():
    for s in random_strings():
        escaped = escape(s)
        assert "\n" not in escaped and "\t" not in escaped and "\r" not in escaped
        assert unescape(escaped) == s


def test_escape_table_matches_the_spec():
    assert escape("%\n\t\r") == "%25%0A%09%0D"
    assert unescape("100%25 done%0A") == "100% done\n"
    assert unescape("%250A") == "%0A"  # an escaped literal stays literal


def test_request_round_trip_keeps_every_field():
    rng = random.Random(3)
    strings = list(random_strings(60, seed=11))
    for _ in range(40):
        req = Request(id="r1", kind=rng.choice(["ask", "verb"]), reply="/run/x/zsh-1.fifo",
                      conv=rng.choice(strings), shell="zsh", mode="buffer", text=rng.choice(strings),
                      buffer=rng.choice(strings), cursor=rng.randint(0, 99), cwd=rng.choice(strings),
                      status=rng.choice([None, 0, 1, 130]),
                      history=[HistoryEntry(rng.choice(strings), rng.choice([None, 0, 2]),
                                            rng.choice([None, 15])) for _ in range(3)],
                      argv=[rng.choice(strings) for _ in range(2)], stdin=rng.choice(strings),
                      interactive=rng.random() < 0.5, cols=rng.randint(20, 300),
                      extra={"future_key": rng.choice(strings)})
        assert parse_request(format_request(req), "r1") == req


def test_request_from_a_shell_parses_history_and_unknown_keys():
    text = ("v=1\nkind=ask\nreply=/r/zsh-9.fifo\nconv=zsh-9-1\nshell=zsh\nmode=question\n"
            "text=why%09tab%0Aand 100%25\nstatus=2\ncursor=x\nhist=0%0912%09ls -l\n"
            "hist=%09%09make test\nhist=bare\nnewer=thing\ninteractive=1\n")
    req = parse_request(text, "zsh-9-1-5")
    assert req.text == "why\ttab\nand 100%"
    assert req.status == 2 and req.cursor == 0 and req.interactive
    assert req.history == [HistoryEntry("ls -l", 0, 12), HistoryEntry("make test", None, None),
                           HistoryEntry("bare")]
    assert req.extra == {"newer": "thing"}
    assert req.cols == 80 and req.conv == "zsh-9-1"


@each_form("text", ["v=0\n", "kind=ask\n", "v=2\nkind=ask\n", "v=\n"])
def test_a_version_mismatch_tells_the_user_to_restart_the_daemon(text):
    with pytest.raises(ProtocolError, match="aish daemon stop"):
        parse_request(text, "x")


def test_malformed_request_lines_are_errors():
    with pytest.raises(ProtocolError, match="key=value"):
        parse_request("v=1\nkind=ask\njust words\n", "x")
    with pytest.raises(ProtocolError, match="kind"):
        parse_request("v=1\nkind=launch\n", "x")


def test_frames_round_trip_and_never_carry_terminal_controls():
    for s in random_strings(200, seed=5):
        line = encode_frame("id-1", "T", s).decode("utf-8")
        assert line.endswith("\n") and line.count("\n") == 1
        frame = parse_frame(line)
        assert frame.id == "id-1" and frame.tag == "T"
        assert frame.fields == ["".join(c for c in s if c in "\n\t" or not
                                        (ord(c) < 32 or 0x7f <= ord(c) <= 0x9f))]
    evil = "ok\x1b]0;pwned\x07\x1b[2J\r\x9b31mred\x00"
    for tag in ("T", "S", "W", "E", "C", "Q"):
        fields = parse_frame(encode_frame("a", tag, evil, evil).decode()).fields
        assert fields == ["ok]0;pwned[2J31mred"] * 2


def test_done_frame_json_is_left_alone():
    payload = '{"text": "a\\u001bb", "n": "50%"}'
    assert parse_frame(encode_frame("a", "D", payload).decode()).fields == [payload]


def test_command_frame_has_three_fields():
    frame = parse_frame(encode_frame("a", "C", "git commit -m 'x\ty'", "-", "-").decode())
    assert frame.fields == ["git commit -m 'x\ty'", "-", "-"]


def test_malformed_frames_raise():
    with pytest.raises(ProtocolError):
        parse_frame("just-an-id\n")


@each_form("line,expected", [
    ("req zsh-1-2-3\n", ("req", ["zsh-1-2-3"])),
    ("cancel a.b_c-d", ("cancel", ["a.b_c-d"])),
    ("answer r1 q2 y\n", ("answer", ["r1", "q2", "y"])),
    ("answer r1 q2 a", ("answer", ["r1", "q2", "a"])),
    ("watch %3 /tmp/tmux-0/default", ("watch", ["%3", "/tmp/tmux-0/default"])),
    ("watch %3 /tmp/tmux-0/default 12", ("watch", ["%3", "/tmp/tmux-0/default", "12"])),
    ("watch %3 /tmp/tmux-0/default x", None),
    ("answer r1 q2 yes", None),
    ("answer r1 q2", None),
    ("req ../etc/passwd", None),
    ("req " + "x" * 65, None),
    ("req a b", None),
    ("launch x", None),
    ("", None),
    ("req " + "x" * 300, None),
])
def test_control_lines(line, expected):
    assert parse_control(line) == expected


def test_format_control_refuses_bad_lines():
    assert format_control("answer", "r", "q1", "n") == b"answer r q1 n\n"
    with pytest.raises(ProtocolError):
        format_control("req", "bad id")


def test_a_shell_that_sends_its_variables_on_request():
    from aish.ipc.protocol import parse_control, parse_request, parse_vars
    req = parse_request("v=1\nkind=ask\nvars=ask\n", "r1")
    assert req.vars_on_request and not req.env_complete and req.env == {}
    assert "vars=ask\n" in format_request(req)
    assert parse_control("answer r1 q2 v") == ("answer", ["r1", "q2", "v"])
    assert parse_vars("var=DIR=/srv/a%0Ab\nvar=API_TOKEN\nvar=1BAD=x\nhist=no\n") == \
        {"DIR": "/srv/a\nb", "API_TOKEN": None}


def test_prepare_is_a_kind_of_its_own_and_the_old_spelling_still_reads():
    req = parse_request("v=1\nkind=prepare\nreply=\nconv=c\n", "p1")
    assert req.kind == "prepare" and req.reply == ""
    old = parse_request("v=1\nkind=ask\nmode=prepare\nconv=c\n", "p2")  # a shell of the last release
    assert old.kind == "prepare"
