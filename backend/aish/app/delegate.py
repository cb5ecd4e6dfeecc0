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

from aish.errors import AishError
from aish.llm.events import TextDelta, TextWasReasoning, Usage

if TYPE_CHECKING:
    from aish.app.ask import AskEnv
    from aish.chat.conversation import Conversation
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
    jobs, refused = [], []
    for name, task in _LINE.findall(text or ""):
        (jobs if name in allow else refused).append((name, task) if name in allow else name)
    return jobs[:MAX_HANDOFFS], refused


def run(env: "AskEnv", conv: "Conversation", name: str, task: str, reply: "Reply") -> str:
    """Stream one delegated task to the user (with a header line); returns its answer."""
    from aish.app.ask import _account, _redacting, _restorer

    cfg = env.config
    if name not in cfg.models:
        raise AishError(f"delegate: '{name}' is not a configured model",
                        hint=f"configured models: {', '.join(cfg.models)}")
    if not task.strip():
        raise AishError("delegate: no task given", hint="? :delegate MODEL TASK")
    model = cfg.models[name]
    messages = [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": task}]
    sent = conv.redactor.redact_messages(messages) if _redacting(env, conv) else messages
    restore = _restorer(env, conv)
    reply.status(f"delegated to {name}: {task[:80]}")
    text, usage = "", None
    for event in env.stream(model, sent, cancel=reply.cancel):
        if isinstance(event, TextDelta):
            chunk = restore(event.text)
            text += chunk
            reply.text(chunk)
        elif isinstance(event, TextWasReasoning):
            text = ""
        elif isinstance(event, Usage):
            usage = event
    tail = getattr(restore, "flush", lambda: "")()
    if tail:
        text += tail
        reply.text(tail)
    if not text.endswith("\n"):
        reply.text("\n")
    _account(env, conv, model, "delegate", usage, sent, text, reply)
    return text


def results_turn(jobs: list[tuple[str, str]], answers: list[str], max_chars: int) -> str:
    parts = []
    for (name, task), answer in zip(jobs, answers):
        if len(answer) > max_chars:
            answer = answer[:max_chars] + "\n... (cut)"
        parts.append(f"[delegated to {name}: {task}]\n{answer.strip()}")
    return "\n\n".join(parts) + "\n\nUse these results to finish your answer (no further DELEGATE lines)."
