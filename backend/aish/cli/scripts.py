"""The shell integration scripts: where they are, and the loader the rc line sources.

The rc line costs no Python: it sources a loader file in the user's data dir
(``${XDG_DATA_HOME:-~/.local/share}/aish/init.zsh``) that ``aish init`` writes.  The loader
sources the script of the installed package by its absolute path, so an upgrade in place
is current at the next shell start; when that path is gone (a new Python, a new venv) the
loader runs ``aish init`` once, which finds the package again and rewrites the loader.  The
rc line falls back to the same ``eval`` while no loader exists yet (the first start).

A shell parses every line it sources, so each script is two halves: ``aish.zsh`` (what
every prompt needs) sources ``aish.lazy.zsh`` beside it at the first question, and the same
for bash; either on-demand half sources ``aish.common.sh``, the code both shells share, its
shell's ``aish.request.*`` (one request, from the runtime dir to the last frame) and its
``aish.steps.*`` (what lands on the prompt line from elsewhere: norris steps, agents'
proposals).  Printed for ``eval``, where no file path is known, the five are one text.
"""
from __future__ import annotations

import os
from pathlib import Path

NAMES = {"zsh": "aish.zsh", "bash": "aish.bash"}
ON_DEMAND = {"zsh": "aish.lazy.zsh", "bash": "aish.lazy.bash"}   # sourced when first needed
COMMON = "aish.common.sh"   # the code both shells share, sourced by either on-demand half
REQUEST = {"zsh": "aish.request.zsh", "bash": "aish.request.bash"}   # one request, sourced by it too
STEPS = {"zsh": "aish.steps.zsh", "bash": "aish.steps.bash"}   # norris steps, agents' proposals: and these
RC_FILES = {"zsh": "~/.zshrc", "bash": "~/.bashrc"}


def script_path(shell: str, name: str = "") -> Path:
    """The installed file ``name`` of the shell integration (default: the one rc loads)."""
    name = name or NAMES[shell]
    try:
        from importlib.resources import files

        candidate = Path(str(files("aish.shell") / name))
        if candidate.is_file():
            return candidate
    except (ModuleNotFoundError, TypeError, FileNotFoundError):
        pass
    # editable install / source checkout: <repo>/backend/aish/cli/scripts.py -> <repo>/shell
    return Path(__file__).resolve().parents[3] / "shell" / name


def script_text(shell: str) -> str:
    """The whole integration as one text, for ``eval``: the first half, the shared code, the
    request and the steps (which the on-demand half then finds already loaded), the on-demand
    half."""
    return "".join(script_path(shell, name).read_text(encoding="utf-8")
                   for name in (NAMES[shell], COMMON, REQUEST[shell], STEPS[shell], ON_DEMAND[shell]))


def rc_line(shell: str) -> str:
    """The line for the user's rc file (the README shows exactly this)."""
    return (f'source "${{XDG_DATA_HOME:-$HOME/.local/share}}/aish/init.{shell}" 2>/dev/null'
            f' || eval "$(aish init {shell})"')


def loader_path(shell: str) -> Path:
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "aish" / f"init.{shell}"


def loader_text(shell: str, script: Path) -> str:
    from aish.version import __version__

    quoted = "'" + str(script).replace("'", "'\\''") + "'"
    return (f"# Written by `aish init {shell}` (aish {__version__}); rewritten when the package moves.\n"
            f"# The rc line sources this file: no Python runs at shell start-up.\n"
            f"if [[ -r {quoted} ]]; then\n"
            f"  source {quoted}\n"
            f"else\n"
            f"  eval \"$(command aish init {shell})\"\n"
            f"fi\n"
            f":\n")


def write_loader(shell: str) -> Path:
    """(Re)write the loader for this installation's script; no-op when already current."""
    path = loader_path(shell)
    text = loader_text(shell, script_path(shell))
    try:
        if path.read_text(encoding="utf-8") == text:
            return path
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    return path


def rc_kind(text: str, shell: str) -> str:
    """What an rc file does to load aish: "loader" (fast), "eval" (starts Python), "source"
    (a script path), or "" (nothing)."""
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    if f"aish/init.{shell}" in body:
        return "loader"
    if f"aish init {shell}" in body:
        return "eval"
    if NAMES[shell] in body or "aish.plugin.zsh" in body:
        return "source"
    return ""
