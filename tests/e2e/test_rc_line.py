"""The README's rc line in a real zsh and bash (`-i -c`, no tmux): no Python at shell start
once the loader exists, current after the package moves."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from aish.cli import scripts as shellscripts
from tests.cli.test_rc_line import readme_rc_line

SHELLS = [s for s in ("zsh", "bash") if shutil.which(s)]


def start(shell: str, home: Path, log: Path) -> str:
    """One interactive start-up with the README's line as the whole rc; what it reports."""
    bindir = home / "bin"
    bindir.mkdir(exist_ok=True)
    wrapper = bindir / "aish"   # the real aish, counting how often a shell start runs it
    wrapper.write_text(f"#!/bin/sh\necho \"$*\" >> '{log}'\nexec {sys.executable} -m aish \"$@\"\n")
    wrapper.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("ZDOTDIR", "XDG_DATA_HOME", "BASH_ENV")}
    env.update(HOME=str(home), PATH=f"{bindir}:{env['PATH']}")
    rc = f"{readme_rc_line(shell)}\n"
    if shell == "zsh":
        (home / ".zshrc").write_text(rc)
        # and its on-demand half is where the first question will look for it
        cmd = ["zsh", "--no-globalrcs", "-i", "-c", "_aish_load; print loaded:${+functions[_aish_request]}"]
    else:
        (home / ".bashrc").write_text(rc)
        cmd = ["bash", "--noprofile", "--rcfile", str(home / ".bashrc"), "-i", "-c",
               # and its on-demand half is where the first question will look for it
               '_aish_load && declare -F _aish_request >/dev/null && echo loaded:1 || echo loaded:0']
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)
    return done.stdout + done.stderr


def runs(log: Path) -> int:
    return len(log.read_text().splitlines()) if log.exists() else 0


@pytest.mark.parametrize("shell", SHELLS)
def test_rc_line_runs_python_only_when_the_loader_is_missing_or_stale(shell, tmp_path):
    home, log = tmp_path / "home", tmp_path / "aish.log"
    home.mkdir()
    assert "loaded:1" in start(shell, home, log)          # first start: `aish init` writes the loader
    assert runs(log) == 1
    loader = home / ".local" / "share" / "aish" / f"init.{shell}"
    assert loader.is_file()
    for _ in range(2):                                    # later starts: no Python at all
        out = start(shell, home, log)
        assert "loaded:1" in out and "rror" not in out, out
    assert runs(log) == 1
    # The package moved (a new Python, a new venv): the loader finds it again, once.
    loader.write_text(loader.read_text().replace(str(shellscripts.script_path(shell)), "/nonexistent/aish." + shell))
    assert "loaded:1" in start(shell, home, log)
    assert runs(log) == 2
    assert str(shellscripts.script_path(shell)) in loader.read_text()
    assert "loaded:1" in start(shell, home, log) and runs(log) == 2
