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


A, C = "\x1b]133;A\x1b\\", "\x1b]133;C\x1b\\"


def kitty_rows(*rows: str) -> str:
    """What `kitty @ get-text --extent all --ansi` prints: rows with kitty's record of the marks."""
    return "".join("\x1b[m" + row + "\n" for row in rows)


def test_kitty_contract_reads_its_marked_rows(fakebin, tmp_path):
    log = tmp_path / "argv"
    fake(fakebin, "kitty", kitty_rows("$ make", C + "\x1b[31merror: boom\x1b[0m", A + "$ ? why"), log)
    term = {"kitty_window_id": "7", "kitty_listen_on": "unix:/tmp/kitty-sock"}
    out = output.gather(term, "make", ContextConfig())
    assert log.read_text().split("\n")[:10] == [
        "@", "--to", "unix:/tmp/kitty-sock", "get-text", "--match", "id:7", "--extent",
        "all", "--ansi", ""]
    assert out.source == "kitty" and out.text == "error: boom"
    assert out.status() == "sent: 1 line of output of 'make' (kitty)"
    # the shell found keys typed while `make` ran waiting unread: their echo is among those rows
    typed = output.gather({**term, "typed": "1"}, "make", ContextConfig())
    assert typed.text == "" and typed.status() == f"output of 'make' not sent: {sources.TYPED_AHEAD}"


def test_wezterm_cannot_bound_the_output_and_says_so(fakebin, tmp_path):
    """Its CLI shows the screen without the marks: the command's text would be the only guide."""
    fake(fakebin, "wezterm", SCREEN, tmp_path / "argv")
    out = output.gather({"wezterm_pane": "3"}, "ls /definitely-missing", ContextConfig())
    assert out.text == "" and out.source == "wezterm"
    assert "not sent: could not tell where it starts" in out.status()


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
    assert sources.recorder({"recorder": str(plain)}) is None
    assert sources.recorder({"recorder": str(tmp_path / "missing")}) is None
