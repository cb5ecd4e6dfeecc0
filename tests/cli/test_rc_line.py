"""The README's rc line is the one `aish init` prints, and `aish doctor` names the slow kind.
What a real zsh and bash do with it at start-up: tests/e2e/test_rc_line.py."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from aish.cli import scripts as shellscripts
from tests.helpers import aish_here

ROOT = Path(__file__).resolve().parents[2]
SHELLS = [s for s in ("zsh", "bash") if shutil.which(s)]


def readme_rc_line(shell: str) -> str:
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        if line.rstrip().endswith(f"# ~/.{shell}rc"):
            return line.rsplit("#", 1)[0].rstrip()
    raise AssertionError(f"README has no rc line for {shell}")


@pytest.mark.parametrize("shell", SHELLS)
def test_readme_shows_the_line_aish_init_prints(shell):
    assert readme_rc_line(shell) == shellscripts.rc_line(shell)


def test_doctor_names_the_slow_rc_line_and_the_fix(tmp_path, config_file):
    config_file('[models.fast]\nendpoint = "http://127.0.0.1:9"\nmodel = "m"\n')
    rc = tmp_path / ".zshrc"

    def shell_line() -> str:
        done = aish_here("doctor", env={"SHELL": "/bin/zsh", "ZDOTDIR": str(tmp_path)})
        lines = [line for line in done.stdout.splitlines() if " shell:" in line]
        assert lines, done.stdout + done.stderr
        return lines[0]

    rc.write_text('eval "$(aish init zsh)"\n')
    line = shell_line()
    assert line.startswith("FAIL") and "starts Python" in line and shellscripts.rc_line("zsh") in line
    rc.write_text(shellscripts.rc_line("zsh") + "\n")
    assert shell_line().startswith("ok")
