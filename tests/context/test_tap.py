"""The daemon's tap on a tmux pane (context/tap.py), with tmux played by the test: it records
the commands the daemon runs and writes into the FIFO as `pipe-pane`'s cat would."""
from __future__ import annotations

import os
import shlex
import time

import pytest

from aish.context import tap as tap_mod
from aish.context.tap import Taps

C, A = b"\x1b]133;C\x07", b"\x1b]133;A\x07"


def D(code: int) -> bytes:
    return b"\x1b]133;D;%d\x07" % code


class FakeTmux:
    """tmux for one pane: its pipe, its @aish_tap option, the panes that exist."""

    def __init__(self) -> None:
        self.calls: list = []
        self.piped = False
        self.option = ""
        self.panes = {"%1"}
        self.fifo = None  # what `cat` writes into

    def __call__(self, argv: list, env: dict):
        self.calls.append(argv)
        args = argv[3:]  # after tmux -S SOCKET
        if args[0] == "display-message":
            return f"{int(self.piped)} {self.option}\n".encode()
        if args[0] == "list-panes":
            return "\n".join(sorted(self.panes)).encode()
        if args[0] == "pipe-pane":
            if "-O" not in args:  # no command: close the pipe
                self.piped, self.fifo = False, None
                return b""
            path = shlex.split(args[-1].replace("##", "#"))[-1]
            self.piped = True
            self.fifo = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            return b""
        if args[0] == "set-option":
            self.option = "" if "-u" in args else args[-1]
            return b""
        return None

    def shell_prints(self, data: bytes) -> None:
        os.write(self.fifo, data)


@pytest.fixture
def taps(tmp_path):
    made = Taps(tmp_path)
    yield made
    made.close()


def test_the_first_request_taps_the_pane_and_cannot_know_what_ran_before(taps, tmp_path):
    tmux = FakeTmux()
    found = taps.find("/tmp/sock", "%1", tmux)
    assert found.entry is None and found.note == tap_mod.NOT_YET
    pipe = [c for c in tmux.calls if c[3] == "pipe-pane"][0]
    assert pipe[:8] == ["tmux", "-S", "/tmp/sock", "pipe-pane", "-O", "-o", "-t", "%1"]
    assert pipe[8].startswith("exec cat > ") and tmux.option.startswith(str(tmp_path))
    assert oct(os.stat(tmux.option).st_mode & 0o777) == "0o600"


def test_output_is_cut_at_the_marks_exactly(taps):
    tmux = FakeTmux()
    taps.find("/s", "%1", tmux)
    # a two-line prompt with a right prompt, then a command wider than the pane
    tmux.shell_prints(A + b"~/work\r\n$ ls /definitely-missing" + b" " * 40 + b"[right]\r\n"
                      + C + b"ls: cannot access '/definitely-missing': No such file or directory\r\n"
                      + D(2) + A + b"~/work\r\n$ ")
    found = taps.find("/s", "%1", tmux)
    assert bytes(found.entry.output) == b"ls: cannot access '/definitely-missing': No such file or directory\r\n"
    assert found.entry.exit == 2


def test_a_command_running_when_the_tap_began_is_not_taken_for_another(taps):
    tmux = FakeTmux()
    taps.find("/s", "%1", tmux)
    tmux.shell_prints(b"...tail of a build\r\n" + D(1) + A + b"$ ")
    found = taps.find("/s", "%1", tmux)
    assert found.entry is None and found.note == tap_mod.NOT_SEEN


def test_a_d_mark_on_its_way_is_waited_for(taps, monkeypatch):
    """The wait ends when the D arrives; SETTLE is made long here so that a loaded host, where the timer's thread
    runs late, cannot make the D later than the wait (it failed once at load ~8 with the 0.3 s of production)."""
    monkeypatch.setattr(tap_mod, "SETTLE", 5.0)
    tmux = FakeTmux()
    taps.find("/s", "%1", tmux)
    tmux.shell_prints(C + b"almost done\r\n")
    import threading
    timer = threading.Timer(0.1, lambda: tmux.shell_prints(D(0) + A))
    timer.start()
    started = time.monotonic()
    found = taps.find("/s", "%1", tmux)
    timer.join()
    assert bytes(found.entry.output) == b"almost done\r\n"
    assert time.monotonic() - started < 4.0  # ended by the D, not by the wait's end



def test_a_command_the_request_says_ended_is_waited_for_though_its_c_is_not_there_yet(taps, monkeypatch):
    """The shell printed the whole command (C, output, D with its count) before it asked; the
    copy is behind, so far that not even its C has come: the tap waits for the count (longer
    than a D on its way is waited for: SETTLE, made shorter here, as the copy's delay is)."""
    monkeypatch.setattr(tap_mod, "SETTLE", 0.05)
    tmux = FakeTmux()
    taps.find("/s", "%1", tmux)
    tmux.shell_prints(C + b"first\r\n" + b"\x1b]133;D;0;aish=1\x07" + A + b"$ ")
    import threading
    threading.Timer(0.15, lambda: tmux.shell_prints(
        C + b"second\r\n" + b"\x1b]133;D;3;aish=2\x07" + A)).start()
    found = taps.find("/s", "%1", tmux, ended=2)
    assert bytes(found.entry.output) == b"second\r\n" and found.entry.exit == 3
    started = time.monotonic()
    assert bytes(taps.find("/s", "%1", tmux, ended=2).entry.output) == b"second\r\n"
    assert time.monotonic() - started < tap_mod.CATCH_UP / 2  # there already: no wait


@pytest.mark.parametrize("began_by", ["request", "watch"])
def test_marks_printed_before_the_tap_began_are_never_waited_for(taps, began_by):
    """A shell that had ended five commands when the tap began (its first request, or its
    watch line, say so): a request with no command since finds no D of its to wait for."""
    tmux = FakeTmux()
    if began_by == "request":
        taps.find("/s", "%1", tmux, ended=5)
    else:
        taps.watch("/s", "%1", tmux, ended=5)
    tmux.shell_prints(b"$ ")
    started = time.monotonic()
    found = taps.find("/s", "%1", tmux, ended=5)
    assert found.note == tap_mod.NOT_SEEN and time.monotonic() - started < tap_mod.CATCH_UP / 2
    tmux.shell_prints(C + b"six\r\n" + b"\x1b]133;D;0;aish=6\x07" + A)
    assert bytes(taps.find("/s", "%1", tmux, ended=6).entry.output) == b"six\r\n"

def test_a_pipe_of_the_users_is_left_alone(taps):
    tmux = FakeTmux()
    tmux.piped = True  # their own pipe-pane (a logging plugin), no @aish_tap
    found = taps.find("/s", "%1", tmux)
    assert found.note == tap_mod.USERS_PIPE
    assert not [c for c in tmux.calls if c[3] == "pipe-pane"]


def test_a_pipe_left_by_an_earlier_daemon_is_replaced(taps, tmp_path):
    tmux = FakeTmux()
    tmux.piped, tmux.option = True, str(tmp_path / "tap-1-1.fifo")  # not one of these taps
    found = taps.find("/s", "%1", tmux)
    assert found.note == tap_mod.NOT_YET
    pipes = [c[3:] for c in tmux.calls if c[3] == "pipe-pane"]
    assert pipes[0] == ["pipe-pane", "-t", "%1"] and "-O" in pipes[1]


def test_the_reader_thread_keeps_up_without_a_request(taps):
    tmux = FakeTmux()
    taps.find("/s", "%1", tmux)
    for _ in range(40):  # far more than a FIFO holds: nobody asks meanwhile
        tmux.shell_prints(C + b"x" * 4000 + b"\r\n" + D(0) + A)
        time.sleep(0.002)
    found = taps.find("/s", "%1", tmux)
    assert found.entry.output.endswith(b"x\r\n") and found.entry.exit == 0


def test_taps_of_closed_panes_go_and_close_stops_every_pipe(taps):
    tmux = FakeTmux()
    taps.find("/s", "%1", tmux)
    path = tmux.option
    tmux.panes, tmux.piped, tmux.option = {"%2"}, False, ""
    taps.find("/s", "%2", tmux)
    assert not os.path.exists(path)
    taps.close(tmux)
    assert [c[3:] for c in tmux.calls][-2:] == [["pipe-pane", "-t", "%2"],
                                                 ["set-option", "-p", "-u", "-t", "%2", "@aish_tap"]]


def test_fifos_of_a_daemon_that_died_are_removed(tmp_path):
    dead = tmp_path / "tap-999999999-1.fifo"
    os.mkfifo(dead, 0o600)
    mine = tmp_path / f"tap-{os.getpid()}-7.fifo"
    os.mkfifo(mine, 0o600)
    Taps(tmp_path).close()
    assert not dead.exists() and mine.exists()


def test_a_d_mark_saying_keys_were_typed_ahead_keeps_that_output_back(taps):
    """The shell's hook found keys waiting unread at the prompt (typed while the command ran:
    their echo is among its output) and said so on D: that command's output is not sent, with
    why, whether it is the last or an earlier one; the commands around it are sent."""
    from aish.context import sources
    tmux = FakeTmux()
    term = {"tmux": "/s,1,0", "tmux_pane": "%1"}
    sources.tmux(term, tmux, taps=taps)
    tmux.shell_prints(C + b"one\r\n" + b"\x1b]133;D;0;aish=1\x07" + A
                      + C + b"two\r\n? why\r\n" + b"\x1b]133;D;0;aish=2;aish_typed=1\x07" + A
                      + C + b"three\r\n" + b"\x1b]133;D;3;aish=3\x07" + A + b"$ ")
    got = [sources.tmux(term, tmux, back=n, taps=taps) for n in (3, 2, 1)]
    assert [(r.data, r.note, r.exit) for r in got] == [
        (b"one\r\n", "", 0), (b"", sources.TYPED_AHEAD, 0), (b"three\r\n", "", 3)], got
