"""Fold evicted turns into a rolling summary instead of dropping them.

The conversation calls ``summarize_fn(prior_summary, evicted_turns)`` and
dispatches nothing itself; the three modes are told apart by the arguments
(R-B1, C1):

    (None, turns)  first time   "summarize these turns"
    (str, turns)   additive     "extend the prior summary" with newer turns
    (str, None)    compress     "compress the prior summary" (it grew past
                                ``max_summary_chars``; lossy by design)

Why it never raises: summarizing is a convenience on the way to the user's
real question, so any failure returns None and the conversation falls back
to silent eviction with one status line.  A short timeout and a small
``max_tokens`` keep a slow summarizer from holding the ask up for long.
"""
from __future__ import annotations

import json
from typing import Any, Callable, Optional

from aish.config.schema import Config
from aish.llm.events import Usage

SummarizeFn = Callable[[Optional[str], Optional[list]], Optional[str]]
Complete = Callable[..., "tuple[str, Optional[Usage]]"]

TURN_CHARS = 1200  # per turn in the summarizer's prompt: a tool result can be 8000
ARGS_CHARS = 200  # per tool call's arguments

_ROLE = ("You keep the running memory of a conversation between a user and a shell "
         "assistant. Keep what later questions may refer to: file names, paths, commands, "
         "errors, decisions and open questions. Reply with the summary text only, no preamble.")
FIRST = "Summarize these turns of the conversation in 2-3 sentences, at most {limit} characters."
ADDITIVE = ("Extend the prior summary with the newer turns below. Reply with the whole updated "
            "summary, at most {limit} characters.")
COMPRESS = ("Compress the prior summary below to at most {limit} characters, keeping the facts "
            "most likely to matter later.")


def render_turns_compact(turns: list[dict]) -> str:
    """One ``role: text`` block per turn, long contents cut, tool calls on one line."""
    lines: list[str] = []
    for turn in turns or ():
        role = str(turn.get("role") or "?")
        content = _cut(_text(turn.get("content")), TURN_CHARS)
        if role == "tool":
            lines.append(f"tool result: {content}")
            continue
        if content:
            lines.append(f"{role}: {content}")
        for call in turn.get("tool_calls") or ():
            function = (call.get("function") if isinstance(call, dict) else None) or {}
            name = function.get("name") or "?"
            args = _cut(" ".join(str(function.get("arguments") or "").split()), ARGS_CHARS)
            lines.append(f"{role} called tool {name}({args})")
    return "\n".join(lines)


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content.strip()
    if isinstance(content, list):  # content parts
        return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict)).strip()
    return "" if content is None else json.dumps(content, ensure_ascii=False)


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... [{len(text) - limit} more characters]"


def build_messages(prior: Optional[str], turns: Optional[list], limit: int) -> Optional[list[dict]]:
    """The summarizer's request for a mode, or None when there is nothing to do."""
    if turns is None:
        if not prior:
            return None
        task, body = COMPRESS.format(limit=max(limit // 2, 1)), f"Prior summary:\n{prior}"
    elif prior is None:
        task, body = FIRST.format(limit=limit), f"Turns:\n{render_turns_compact(turns)}"
    else:
        task = ADDITIVE.format(limit=limit)
        body = f"Prior summary:\n{prior}\n\nNewer turns:\n{render_turns_compact(turns)}"
    return [{"role": "system", "content": f"{_ROLE}\n\n{task}"}, {"role": "user", "content": body}]


class _Summarizer:
    """The ``SummarizeFn``; ``last_error`` says why the last call returned None."""

    def __init__(self, cfg: Config, complete: Complete) -> None:
        self.name = cfg.context.summarizer_model
        self.model = cfg.models.get(self.name)
        self.limit = cfg.context.max_summary_chars
        self.max_tokens = cfg.context.summarizer_max_tokens
        read = float(cfg.context.summarizer_timeout)
        connect = min(float(self.model.connect_timeout), read) if self.model is not None else read
        self.timeout = (connect, read)
        self.complete = complete
        self.last_error: Optional[str] = None

    def __call__(self, prior: Optional[str], turns: Optional[list]) -> Optional[str]:
        self.last_error = None
        if turns is not None and not turns:
            return prior  # nothing was evicted: the summary stands
        if self.model is None:
            self.last_error = f"context.summarizer_model '{self.name}' is not a configured model"
            return None
        messages = build_messages(prior, turns, self.limit)
        if messages is None:
            return None
        try:
            text, _usage = self.complete(self.model, messages, max_tokens=self.max_tokens,
                                         timeout=self.timeout)
        except Exception as exc:  # noqa: BLE001 - summarizing must never block an ask
            self.last_error = str(exc) or type(exc).__name__
            return None
        summary = (text or "").strip()
        if not summary:
            self.last_error = f"{self.name} returned an empty summary"
            return None
        if turns is None and len(summary) > self.limit:  # a compress that did not compress
            summary = _cut_words(summary, self.limit)
        return summary


def _cut_words(text: str, limit: int) -> str:
    cut = text[:limit]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip()


def make_summarize_fn(cfg: Config, complete: Complete) -> SummarizeFn:
    """A summarizer on ``context.summarizer_model`` through ``complete(model, messages,
    max_tokens=, timeout=) -> (text, usage)``.

    The daemon hands in its costed, redacted model call (app/model_call.py: category
    ``summarize``, nothing secret leaves, usage estimated when the server sends none);
    chat/ itself makes no network call and counts nothing.
    """
    return _Summarizer(cfg, complete)
