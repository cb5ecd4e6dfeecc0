"""``aish shell``: a newcomer's one command — the user's shell with aish loaded.

It never edits the user's rc files: it writes a tiny rc into the private
runtime dir that sources the user's own rc first and the integration second,
then execs the shell.  Before that it says which model it will use, or how to
configure one.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from aish import paths
from aish.errors import AishError
from aish.cli.scripts import script_path


def pick_shell(requested: str | None) -> str:
    name = requested or Path(os.environ.get("SHELL", "")).name
    if name not in ("zsh", "bash"):
        name = "zsh" if shutil.which("zsh") else "bash"
    if not shutil.which(name):
        raise AishError(f"{name} is not installed", hint="install zsh or bash, or pass the other one")
    return name


def exec_shell(name: str) -> None:
    """Replace this process with ``name`` running the user's rc plus the integration."""
    rundir = paths.runtime_dir()
    script = script_path(name)
    env = dict(os.environ)
    if name == "zsh":
        zdot = rundir / "zdotdir"
        zdot.mkdir(mode=0o700, exist_ok=True)
        home_rc = Path(os.environ.get("ZDOTDIR", Path.home())) / ".zshrc"
        (zdot / ".zshrc").write_text(
            f"[[ -r {_q(home_rc)} ]] && source {_q(home_rc)}\nsource {_q(script)}\n", encoding="utf-8")
        env["ZDOTDIR"] = str(zdot)
        os.execvpe("zsh", ["zsh", "-i"], env)
    rcfile = rundir / "bashrc"
    rcfile.write_text(f"[[ -r ~/.bashrc ]] && source ~/.bashrc\nsource {_q(script)}\n", encoding="utf-8")
    os.execvpe("bash", ["bash", "--rcfile", str(rcfile), "-i"], env)


def _q(path: Path) -> str:
    return "'" + str(path).replace("'", "'\\''") + "'"
