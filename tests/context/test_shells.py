"""context/shells.py: the shells' state files, choosing one, and the status request to a tty."""
from __future__ import annotations

import os
import subprocess
import time
from types import SimpleNamespace

import pytest

from aish.context import shells
from aish.errors import NotFound
from aish.ipc.protocol import escape
from tests.safety.forms import each_form

STATE = "\n".join([
    "v=1", "shell=zsh", "conv=zsh-42-1", "pid=42", "tty=/dev/pts/7", "cwd=/home/u/proj", "status=2",
    "hist=" + escape("0\t3\tcd proj"), "hist=" + escape("2\t12\tls /nope"),
    "tmux=/tmp/tmux-1/default,1,0", "tmux_pane=%3", "end=1", ""])


def test_a_state_file_reads_back_as_the_shell_wrote_it():
    state = shells.parse(STATE, "zsh", 42, written=5.0)
    assert state.conv == "zsh-42-1" and state.cwd == "/home/u/proj" and state.status == 2
    assert [(e.command, e.exit, e.duration_ms) for e in state.history] == [("cd proj", 0, 3), ("ls /nope", 2, 12)]
    assert state.term == {"tmux": "/tmp/tmux-1/default,1,0", "tmux_pane": "%3"}
    assert state.label == "zsh-42" and state.running == "" and state.written == 5.0


def test_a_file_being_rewritten_is_not_taken_for_the_shell():
    assert shells.parse(STATE.replace("end=1\n", ""), "zsh", 42) is None


def test_a_running_command_and_a_name():
    state = shells.parse(STATE.replace("end=1", "running=make%09test\nsince=100.5\nname=work\nend=1"), "zsh", 42)
    assert state.running == "make\ttest" and state.since == 100.5 and state.label == "work"
    assert "running `make\ttest` for 10 s" in state.describe(now=110.5)


@each_form("selector", ["work", "zsh-42", "42", "/dev/pts/7", "pts/7", "%3", "zsh-42-1"])
def test_a_shell_is_named_by_name_pid_tty_pane_or_conversation(selector):
    named = shells.parse(STATE.replace("end=1", "name=work\nend=1"), "zsh", 42, written=1.0)
    other = shells.parse(STATE.replace("pts/7", "pts/8").replace("%3", "%4").replace("zsh-42-1", "bash-43-1"),
                         "bash", 43, written=2.0)
    assert shells.pick([other, named], selector) is named


def test_no_selector_is_the_most_recently_active_and_a_wrong_one_lists_the_shells(tmp_path):
    first = shells.parse(STATE, "zsh", 42, written=2.0)
    second = shells.parse(STATE, "bash", 43, written=1.0)
    assert shells.pick([first, second]) is first
    with pytest.raises(NotFound) as err:
        shells.pick([first, second], "nope")
    assert "zsh-42, bash-43" in err.value.hint
    with pytest.raises(NotFound, match="no shell has reported"):
        shells.pick([])


def test_a_kind_names_the_most_recently_active_shell_of_that_kind():
    # an agent asks for "zsh" or "bash" as often as for zsh-1234
    newer_zsh = shells.parse(STATE, "zsh", 42, written=3.0)
    bash = shells.parse(STATE, "bash", 43, written=2.0)
    older_zsh = shells.parse(STATE, "zsh", 44, written=1.0)
    assert shells.pick([newer_zsh, bash, older_zsh], "zsh") is newer_zsh
    assert shells.pick([newer_zsh, bash, older_zsh], " bash ") is bash
    named = shells.parse(STATE.replace("end=1", "name=bash\nend=1"), "zsh", 45, written=0.5)
    assert shells.pick([bash, named], "bash") is named  # a shell's own name comes first


def test_live_lists_running_shells_newest_first_and_skips_dead_and_foreign_files(tmp_path, monkeypatch):
    pauses: list = []  # the incomplete file's re-reads: counted, not waited for
    monkeypatch.setattr(shells, "time", SimpleNamespace(time=time.time, sleep=pauses.append))
    alive = subprocess.Popen(["sleep", "60"])
    dead = subprocess.Popen(["true"])
    dead.wait()
    try:
        (tmp_path / f"zsh-{alive.pid}.state").write_text(STATE)
        (tmp_path / f"bash-{dead.pid}.state").write_text(STATE)
        (tmp_path / f"zsh-{os.getpid()}.state").write_text("v=1\n")  # incomplete: read again, then left
        (tmp_path / "notes.state").write_text(STATE)
        found = shells.live(tmp_path)
        assert [s.pid for s in found] == [alive.pid]
        assert len(pauses) == shells._READ_TRIES  # read again before it was left
    finally:
        alive.kill()
        alive.wait()


def test_the_status_request_goes_only_to_the_shells_own_terminal():
    master, slave = os.openpty()
    name = os.ttyname(slave)
    # a process whose controlling terminal is the pty (setsid -c: stdin becomes it)
    owner = subprocess.Popen(["setsid", "-c", "sleep", "60"], stdin=slave, stdout=slave, stderr=slave)
    stranger = subprocess.Popen(["sleep", "60"], stdin=subprocess.DEVNULL)
    try:
        assert shells.poke(name, stranger.pid) is False  # another terminal's process
        assert shells.poke("/etc/passwd", owner.pid) is False and shells.poke("tty", owner.pid) is False
        # setsid has to start and take the terminal first: poll for it (slow under load)
        deadline = time.monotonic() + 20
        while not (shells.foreground(owner.pid) is not None and shells.poke(name, owner.pid)):
            if time.monotonic() > deadline:
                pytest.fail("the status request was never written")
            time.sleep(0.02)
        assert os.read(master, 64).endswith(b"\x1b[5n")
        assert shells.foreground(owner.pid) is True
    finally:
        for proc in (owner, stranger):
            proc.kill()
            proc.wait()
        os.close(master)
        os.close(slave)
