"""Handing a sub-task to another configured model: `? :delegate` and `DELEGATE:` lines.

A user's ``? :delegate MODEL TASK`` is one call to that model; the
conversation's model does not change.  The main model may write
``DELEGATE: MODEL: TASK`` lines only when ``delegate.allow`` names MODEL (off by
default: an answer could otherwise spend the user's money on any model); the
results come back to the main model as one user turn and it answers once more.
Depth 1: a delegated answer's own ``DELEGATE:`` lines, and those of the
follow-up answer, are never followed.  Every delegated call is costed as
``delegate``.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from aish.errors import AishError, NotFound

if TYPE_CHECKING:
    from aish.app.model_call import Caller
    from aish.ipc.reply import Reply

MAX_HANDOFFS = 3
_LINE = re.compile(r"^\s*DELEGATE:\s*([A-Za-z0-9_.-]+)\s*:\s*(\S.*?)\s*$", re.M)
_SYSTEM = ("You are a helper model answering one sub-task for a shell assistant. "
           "Answer the task directly and concisely.")


def system_note(allow: list) -> str:
    """The system-message line that tells the main model whom it may hand work to."""
    if not allow:
        return ""
    return ("You may hand a self-contained sub-task to another model by writing a line "
            f"`DELEGATE: <model>: <task>` (models: {', '.join(allow)}); its answer comes back to you "
            "in the next turn. Use it rarely.")


def handoffs(text: str, allow: list) -> tuple[list[tuple[str, str]], list[str]]:
    """(model, task) pairs the config allows, and the refused model names."""
    jobs: list[tuple[str, str]] = []
    refused: list[str] = []
    for name, task in _LINE.findall(text or ""):
        if name in allow:
            jobs.append((name, task))
        else:
            refused.append(name)
    return jobs[:MAX_HANDOFFS], refused


def run(caller: "Caller", name: str, task: str, reply: "Reply") -> str:
    """Stream one delegated task to the user (with a header line); returns its answer.

    The user named the model, so a failure is reported, never retried on another."""
    cfg = caller.env.config
    if name not in cfg.models:
        raise NotFound(f"delegate: '{name}' is not a configured model",
                        hint=f"configured models: {', '.join(cfg.models)}")
    if not task.strip():
        raise AishError("delegate: no task given", hint="? :delegate MODEL TASK")
    messages = [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": task}]
    reply.status(f"delegated to {name}: {task[:80]}")
    text = caller.call(messages, category="delegate", reply=reply, model=cfg.models[name],
                       fallback=False).text
    if not text.endswith("\n"):
        reply.text("\n")
    return text


def results_turn(jobs: list[tuple[str, str]], answers: list[str], max_chars: int) -> str:
    parts = []
    for (name, task), answer in zip(jobs, answers):
        if len(answer) > max_chars:
            answer = answer[:max_chars] + "\n... (cut)"
        parts.append(f"[delegated to {name}: {task}]\n{answer.strip()}")
    return "\n\n".join(parts) + "\n\nUse these results to finish your answer (no further DELEGATE lines)."
