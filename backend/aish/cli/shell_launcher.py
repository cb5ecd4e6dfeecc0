"""``aish shell``: a newcomer's one command — the user's shell with aish loaded.

It never edits the user's rc files.  zsh starts as a login shell with ZDOTDIR pointing
at a private dir whose only file, ``.zshenv``, puts the user's ZDOTDIR back (or unsets
it) before anything else runs and sources the user's own ``.zshenv``; zsh then reads the
user's ``.zprofile``, ``.zshrc`` and ``.zlogin`` from their usual place, exactly as a login
would, and aish is loaded at the first prompt (after all of them).  bash cannot be told
to read one more file at a login, so it gets an rc file that reads what a login reads, in
that order (``/etc/profile``, then the first of ``~/.bash_profile``, ``~/.bash_login``,
``~/.profile``; ``~/.bash_logout`` at exit; ``~/.bashrc`` when none of the three exists,
rather than none of the user's files), then the integration.  Before that it says
which model it will use, or how to configure one.

A login's files may set PATH anew (Debian's ``/etc/profile`` does), which would lose the
directory ``aish`` was started from (a venv): when ``aish`` is then not found, that directory
is put back at the front of PATH, after the user's files ran.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from aish import paths
from aish.errors import AishError
from aish.cli.scripts import script_path

ZSHENV = """\
# Written by `aish shell`: the user's startup files as a login reads them, then aish.
if [[ -n ${{_AISH_ZDOTDIR+x}} ]]; then ZDOTDIR=$_AISH_ZDOTDIR; else unset ZDOTDIR; fi
unset _AISH_ZDOTDIR
[[ -r ${{ZDOTDIR:-$HOME}}/.zshenv ]] && source ${{ZDOTDIR:-$HOME}}/.zshenv
if [[ -o interactive ]]; then
  _aish_shell_load() {{
    precmd_functions=(${{precmd_functions:#_aish_shell_load}})
    unfunction _aish_shell_load
    {keep_path}
    source {script}
  }}
  precmd_functions+=(_aish_shell_load)
fi
"""


BASHRC = """\
# Written by `aish shell`: the startup files a bash login reads, in its order, then aish.
# (Before them, so that an EXIT trap of the user's own replaces it.)
trap '[ -r ~/.bash_logout ] && . ~/.bash_logout' EXIT
[ -r /etc/profile ] && . /etc/profile
if [ -r ~/.bash_profile ]; then . ~/.bash_profile
elif [ -r ~/.bash_login ]; then . ~/.bash_login
elif [ -r ~/.profile ]; then . ~/.profile
elif [ -r ~/.bashrc ]; then . ~/.bashrc   # no login file at all: what a terminal's bash reads
fi
{keep_path}
source {script}
"""


def pick_shell(requested: str | None) -> str:
    name = requested or Path(os.environ.get("SHELL", "")).name
    if name not in ("zsh", "bash"):
        name = "zsh" if shutil.which("zsh") else "bash"
    if not shutil.which(name):
        raise AishError(f"{name} is not installed", hint="install zsh or bash, or pass the other one")
    return name


def exec_shell(name: str, record: bool = False) -> int:
    """Replace this process with ``name`` running the user's rc plus the integration.

    With ``record`` the shell runs on aish's pty recorder instead (this
    process stays as the relay) and its exit status is returned.
    """
    argv, env = shell_command(name)
    if record:
        from aish.cli import recorder

        return recorder.relay(argv, env, recorder.socket_path(str(paths.runtime_dir())))
    os.execvpe(argv[0], argv, env)
    return 127  # not reached


def needs_recorder(env: dict) -> bool:
    """Unless the terminal can bound a command's output itself: tmux (the daemon's tap) and
    kitty (its marked rows); WezTerm's CLI cannot (docs/output.md), plain terminals neither."""
    return not any(env.get(k) for k in ("TMUX", "KITTY_WINDOW_ID", "AISH_RECORDER"))


def _keep_path(name: str) -> str:
    """Shell code that puts this aish's directory back on PATH if the startup files lost it
    (builtins only: no fork)."""
    found = shutil.which("aish")
    if not found:
        return ""
    bindir = _q(Path(found).parent)
    if name == "zsh":
        return f"(( $+commands[aish] )) || path=({bindir} $path)"
    return f"command -v aish >/dev/null || PATH={bindir}:$PATH"


def shell_command(name: str) -> tuple:
    """argv and environment of ``name`` with the user's startup files and then the integration."""
    rundir = paths.runtime_dir()
    script = script_path(name)
    keep_path = _keep_path(name)
    env = dict(os.environ)
    if name == "zsh":
        zdot = rundir / "zdotdir"
        zdot.mkdir(mode=0o700, exist_ok=True)
        (zdot / ".zshenv").write_text(ZSHENV.format(script=_q(script), keep_path=keep_path), encoding="utf-8")
        env.pop("_AISH_ZDOTDIR", None)
        if "ZDOTDIR" in env:
            env["_AISH_ZDOTDIR"] = env["ZDOTDIR"]
        env["ZDOTDIR"] = str(zdot)
        return ["zsh", "-l", "-i"], env
    rcfile = rundir / "bashrc"
    rcfile.write_text(BASHRC.format(script=_q(script), keep_path=keep_path), encoding="utf-8")
    return ["bash", "--rcfile", str(rcfile), "-i"], env


def _q(path: Path) -> str:
    return "'" + str(path).replace("'", "'\\''") + "'"
