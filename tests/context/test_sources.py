"""Each terminal's CLI contract, against fake binaries on PATH that record their argv."""
from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from aish.config.schema import ContextConfig
from aish.context import output, sources

SCREEN = ("$ echo hi\nhi\n$ ls /definitely-missing\n"
          "ls: cannot access '/definitely-missing': No such file or directory\n"
          "$ ? why did that fail\n/ thinking\n\n")


def fake(bin_dir: Path, name: str, stdout: str, log: Path, status: int = 0) -> None:
    """A shell script named ``name`` that logs its argv (one per line) and prints ``stdout``."""
    (bin_dir / f"{name}.out").write_text(stdout)
    script = bin_dir / name
    script.write_text(f'#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done > "{log}"\n'
                      f'printf "%s\\n" "${{WEZTERM_UNIX_SOCKET:-}}" >> "{log}"\n'
                      f'cat "{bin_dir / (name + ".out")}"\nexit {status}\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)


@pytest.fixture
def fakebin(tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    return bin_dir


def test_kitty_contract(fakebin, tmp_path):
    log = tmp_path / "argv"
    fake(fakebin, "kitty", "\x1b[31merror: boom\x1b[0m\n", log)
    term = {"kitty_window_id": "7", "kitty_listen_on": "unix:/tmp/kitty-sock"}
    out = output.gather(term, "make", ContextConfig())
    assert log.read_text().split("\n")[:9] == [
        "@", "--to", "unix:/tmp/kitty-sock", "get-text", "--match", "id:7", "--extent",
        "last_cmd_output", ""]
    assert out.source == "kitty" and out.text == "error: boom"
    assert out.status() == "sent: 1 line of output of 'make' (kitty)"


def test_wezterm_contract_cuts_the_screen_at_the_command(fakebin, tmp_path):
    log = tmp_path / "argv"
    fake(fakebin, "wezterm", SCREEN, log)
    term = {"wezterm_pane": "3", "wezterm_socket": "/run/wez/sock"}
    out = output.gather(term, "ls /definitely-missing", ContextConfig())
    assert log.read_text().split("\n")[:8] == [
        "cli", "get-text", "--pane-id", "3", "--start-line", f"-{sources.SCREEN_LINES}",
        "/run/wez/sock", ""]
    assert out.text == "ls: cannot access '/definitely-missing': No such file or directory"
    assert out.source == "wezterm"


def test_tmux_contract_uses_the_sent_socket_and_pane(fakebin, tmp_path):
    log = tmp_path / "argv"
    fake(fakebin, "tmux", SCREEN, log)
    term = {"tmux": "/tmp/tmux-1/default,123,0", "tmux_pane": "%4"}
    out = output.gather(term, "ls /definitely-missing", ContextConfig())
    args = log.read_text().split("\n")
    assert args[:9] == ["-S", "/tmp/tmux-1/default", "capture-pane", "-p", "-J", "-S",
                        f"-{sources.SCREEN_LINES}", "-t", "%4"]
    assert "No such file" in out.text and "echo hi" not in out.text


def test_tmux_alternate_screen_means_no_capture():
    calls = []

    def runner(argv, env):
        calls.append(argv)
        return b"1\n" if "display-message" in argv else b"vim text"

    out = output.gather({"tmux": "/s,1,0", "tmux_pane": "%1"}, "vim", ContextConfig(), runner)
    assert out.text == "" and out.note == "a full-screen program"
    assert not any("capture-pane" in argv for argv in calls)


def test_failing_cli_is_no_output_not_an_error(fakebin, tmp_path):
    fake(fakebin, "kitty", "remote control is disabled", tmp_path / "argv", status=1)
    out = output.gather({"kitty_window_id": "1", "kitty_listen_on": "unix:x"}, "ls", ContextConfig())
    assert out.text == "" and out.note == "kitty gave nothing"


def test_bad_pane_id_is_not_a_source():
    assert sources.detect({"tmux": "/s,1,0", "tmux_pane": "%1; rm -rf ~"}) is None
    assert sources.detect({"wezterm_pane": "-1"}) is None
    assert sources.detect({}) is None


def test_off_in_config_or_from_the_shell():
    term = {"kitty_window_id": "1", "kitty_listen_on": "unix:x"}
    boom = lambda argv, env: pytest.fail("no source may run when output is off")  # noqa: E731
    assert output.gather(term, "ls", ContextConfig(command_output="off"), boom).text == ""
    assert output.gather({**term, "output": "off"}, "ls", ContextConfig(), boom).text == ""


def test_recorder_socket_must_be_a_socket(tmp_path):
    plain = tmp_path / "rec"
    plain.write_text("not a socket")
    assert sources.recorder({"recorder": str(plain)}, "ls") is None
    assert sources.recorder({"recorder": str(tmp_path / "missing")}, "ls") is None


def test_screen_without_the_command_keeps_what_is_above_the_prompt():
    screen = b"tail of a long output\nlast line\n$ ? why\n"
    assert sources.after_command(screen, "make") == b"tail of a long output\nlast line"


def test_screen_cut_stops_at_the_next_prompt_not_at_what_follows_it():
    screen = b"aish$ make\nerror 1\nerror 2\naish$ ? why\n[aish] sent: ...\nanswer text\n"
    assert sources.after_command(screen, "make") == b"error 1\nerror 2"
