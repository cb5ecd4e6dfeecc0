"""What the model is told: the system prompt and the user text for each ask mode.

Layout rule (prefix caching of local servers, docs/performance.md): the system
message holds only what is stable across the asks of a conversation (base
instructions, tool note, background memory, project notes; the summary is
appended by the conversation), so it stays byte-identical from one ask to the
next.  Everything volatile (cwd, exit status, the commands run since the last
ask, attachments) travels with the newest user turn and is stored with it:
earlier turns never change, and a llama.cpp-style server re-processes only
the new tokens.
"""
from __future__ import annotations

import functools
import os
from typing import Optional

from aish.ipc.protocol import HistoryEntry

_BASE = ("You are aish, an assistant inside the user's {shell} shell on {os}.\n"
         'Answer briefly and concretely. Put every command the user could run on its own line that '
         'starts with "CMD: " (the best one first); the first one will be placed on the user\'s '
         "prompt line for them to review and run. Never claim to have run anything: only the user "
         "runs commands.")

_TOOLS = ("You may have tools in this request's `tools` field. Call a tool for structured "
          "operations it offers; its result arrives in the next turn. Use `CMD:` lines for "
          "commands the user should run in their shell.")


def system_prompt(*, shell: str, tools: bool, background: str = "", notes: str = "",
                  delegate: str = "", tool_instructions: str = "") -> str:
    """The stable system message; ``background``/``notes``/``delegate`` are pre-rendered blocks,
    ``tool_instructions`` the tool servers' own ``[alias] text`` lines."""
    parts = [_BASE.format(shell=shell if shell in ("zsh", "bash") else "terminal",
                          os=_os_name())]
    if tools:
        parts.append(_TOOLS)
        if tool_instructions:
            parts.append("[tool server instructions]\n" + tool_instructions)
    if delegate:
        parts.append(delegate)
    if background:
        parts.append(background)
    if notes:
        parts.append(notes)
    return "\n\n".join(parts)


def history_delta(previous: list[HistoryEntry], current: list[HistoryEntry]) -> list[HistoryEntry]:
    """The entries of ``current`` not already sent: it drops the longest head of
    ``current`` that ends ``previous`` (the shell sends its last N commands each ask)."""
    for k in range(min(len(previous), len(current)), 0, -1):
        if _same(previous[-k:], current[:k]):
            return current[k:]
    return list(current)


def _same(a: list[HistoryEntry], b: list[HistoryEntry]) -> bool:
    return all((x.command, x.exit, x.duration_ms) == (y.command, y.exit, y.duration_ms)
               for x, y in zip(a, b))


def shell_context(*, cwd: str, status: Optional[int], history: list[HistoryEntry],
                  attachments: Optional[list[str]] = None) -> str:
    """The volatile block that goes in front of the newest user turn."""
    context = [f"cwd: {cwd}"] if cwd else []
    if status is not None:
        context.append(f"last exit status: {status}")
    if history:
        context.append("commands run since the last ask (exit status, duration, command), oldest first:")
        for entry in history:
            exit_text = "?" if entry.exit is None else str(entry.exit)
            duration = "" if entry.duration_ms is None else f" {entry.duration_ms}ms"
            context.append(f"  [{exit_text}{duration}] {entry.command}")
    blocks = ["[shell context]\n" + "\n".join(context)] if context else []
    blocks.extend(a for a in (attachments or []) if a)
    return "\n\n".join(blocks)


def with_context(context: str, question: str) -> str:
    return f"{context}\n\n[question]\n{question}" if context else question


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


@functools.lru_cache(maxsize=1)
def _os_name() -> str:
    # (os.uname, not the platform module: its import compiles regular expressions, on the
    # path of a new daemon's first answer)
    system = os.uname().sysname if hasattr(os, "uname") else ""
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
