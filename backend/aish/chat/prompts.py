"""What the model is told: the system prompt and the user text for each ask mode.

The shell context (cwd, last status, recent commands) lives in the system
message of the current ask, not in the stored turns: it changes every ask,
and storing it per turn would spend the budget on stale history.
"""
from __future__ import annotations

import platform
from typing import Optional

from aish.ipc.protocol import HistoryEntry

_BASE = """You are aish, an assistant inside the user's {shell} shell on {os}.
Answer briefly and concretely. Put every command the user could run on its own line that starts with "CMD: " (the best one first); the first one will be placed on the user's prompt line for them to review and run. Never claim to have run anything: only the user runs commands."""

_TOOLS = """You may have tools in this request's `tools` field. Call a tool for structured operations it offers; its result arrives in the next turn. Use `CMD:` lines for commands the user should run in their shell."""


def system_prompt(*, shell: str, cwd: str, status: Optional[int], history: list[HistoryEntry],
                  tools: bool) -> str:
    parts = [_BASE.format(shell=shell if shell in ("zsh", "bash") else "terminal",
                          os=_os_name())]
    if tools:
        parts.append(_TOOLS)
    context = [f"cwd: {cwd}"] if cwd else []
    if status is not None:
        context.append(f"last exit status: {status}")
    if history:
        context.append("recent commands (exit status, duration, command), oldest first:")
        for entry in history:
            exit_text = "?" if entry.exit is None else str(entry.exit)
            duration = "" if entry.duration_ms is None else f" {entry.duration_ms}ms"
            context.append(f"  [{exit_text}{duration}] {entry.command}")
    if context:
        parts.append("[shell context]\n" + "\n".join(context))
    return "\n\n".join(parts)


def user_text(mode: str, text: str, buffer: str, cursor: int, stdin: str = "") -> str:
    if mode == "buffer":
        if buffer.strip():
            question = (f"Complete or fix this command (cursor at column {cursor}):\n{buffer}\n"
                        "Answer with the corrected or completed command on a CMD: line and one short sentence why.")
        else:
            question = ("Suggest the next command from what I just did (see the recent commands). "
                        "Answer with CMD: lines and one short sentence each.")
    else:
        question = text
    if stdin:
        question = f"{question}\n\n[input]\n{stdin}"
    return question


def _os_name() -> str:
    system = platform.system()
    if system == "Darwin":
        return "macOS"
    if system == "Linux":
        try:
            with open("/etc/os-release", encoding="utf-8") as handle:
                for line in handle:
                    if line.startswith("PRETTY_NAME="):
                        return line.split("=", 1)[1].strip().strip('"')
        except OSError:
            pass
    return system or "a Unix system"
