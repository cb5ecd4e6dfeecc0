"""Locate the shell integration scripts, installed (package data) or in a checkout."""
from __future__ import annotations

from pathlib import Path

NAMES = {"zsh": "aish.zsh", "bash": "aish.bash"}


def script_path(shell: str) -> Path:
    name = NAMES[shell]
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
    return script_path(shell).read_text(encoding="utf-8")
