"""Fixes drafted in the background after a command fails, so the fix key answers at once.

The shell reports a failure with a reply-less ``kind=prepare`` request (it
reads nothing back: the prompt never waits).  When ``fix.prepare`` allows it
("local": only if the default model is local, hence free; "always"; "off")
and no other answer is streaming, the fix is drafted on a scratch
conversation and kept per conversation; ``<runtime>/fix-<conv>.ready``
(0600) tells the shell a fix is ready, so it can show its hint fork-free.
The fix key (``mode=fix``) for the same command and exit status replays the
draft; anything else drops it.  A question asked meanwhile cancels a running
draft: an answer the user waits for always comes first.
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

from aish.config.schema import Config
from aish.ipc.protocol import Request
from aish.ipc.cancel import CancelToken
from aish.ipc.reply import Reply
from aish.llm.events import AskResult


@dataclass
class Draft:
    """A fix drafted after a failure, waiting for the shell's ``? fix`` (its question, answer and receipt)."""

    command: str
    status: Optional[int]
    model: str = ""
    statuses: list = field(default_factory=list)
    text: str = ""
    commands: list = field(default_factory=list)  # (command, level, reason)
    question: str = ""
    receipt: Any = None  # what the draft sent (app/receipt.py): the key's `aish sent` shows it


class DraftReply:
    """Where a draft streams to: kept, shown later; nobody can answer a question meanwhile."""

    def __init__(self) -> None:
        self.cancel = CancelToken()
        self.texts: list[str] = []
        self.statuses: list[str] = []
        self.commands: list[tuple] = []

    def text(self, chunk: str) -> None:
        self.texts.append(chunk)

    def status(self, line: str) -> None:
        self.statuses.append(line)

    def warning(self, line: str) -> None:
        self.statuses.append(line)

    def command(self, command: str, level: Optional[str] = None, reason: Optional[str] = None) -> None:
        self.commands.append((command, level, reason))

    def task(self, state: str) -> None:
        pass  # a draft is an ask, never a step of a task: no shell waits for its state

    def proposal(self, state: str, command: str = "") -> None:
        pass  # nor of an agent's proposal

    def ask(self, question: str, timeout: float) -> Optional[str]:
        return None  # a tool approval cannot be asked in the background: denied

    def input(self, prompt: str, timeout: float) -> Optional[str]:
        return None

    def variables(self, timeout: float) -> Optional[dict]:
        return None  # nor the shell's variables: the preview goes without them


def allowed(cfg: Config) -> bool:
    if cfg.fix.prepare == "off" or not cfg.models:
        return False
    return cfg.fix.prepare == "always" or cfg.model().is_local


def _key(req: Request) -> tuple[str, Optional[int]]:
    return (req.history[-1].command if req.history else "", req.status)


class Drafts:
    """The daemon's drafts, one per conversation, and the one draft that may be running."""

    def __init__(self, rundir: Callable[[], Path]) -> None:
        self._rundir = rundir
        self._lock = threading.Lock()
        self._drafts: dict[str, Draft] = {}
        self._running: Optional[DraftReply] = None
        self.streaming = 0  # answers the user is waiting for

    def marker(self, conv: str) -> Path:
        safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in conv)[:64]
        return self._rundir() / f"fix-{safe}.ready"

    def user_answer_starts(self) -> None:
        with self._lock:
            self.streaming += 1
            if self._running is not None:
                self._running.cancel.cancel()

    def user_answer_ends(self) -> None:
        with self._lock:
            self.streaming -= 1

    def prepare(self, cfg: Config, req: Request, run: Callable[[Request, Reply], tuple],
                log: Any) -> str:
        """Draft a fix for ``req``'s failed command; returns what happened (for the log/tests)."""
        if not allowed(cfg):
            return "not allowed"
        if not req.status:
            return "no failure"
        draft_reply = DraftReply()
        with self._lock:
            if self.streaming or self._running is not None:
                return "busy"
            self._running = draft_reply
            self._drafts.pop(req.conv, None)
        self._drop_marker(req.conv)
        fix_req = Request(**{**req.__dict__, "kind": "ask", "mode": "fix", "text": "", "history": list(req.history),
                             "extra": dict(req.extra)})
        sent = None
        try:
            result, question, *more = run(fix_req, draft_reply)
            sent = more[0] if more else None
        except Exception as err:  # a draft that fails is simply not there
            log.info("fix draft for %s failed: %s", req.conv, err)
            result, question = None, ""
        finally:
            with self._lock:
                self._running = None
        if result is None or draft_reply.cancel.cancelled or result.cancelled:
            return "cancelled"
        draft = Draft(*_key(req), model=result.model, statuses=list(draft_reply.statuses),
                      text="".join(draft_reply.texts), commands=list(draft_reply.commands),
                      question=question, receipt=sent)
        with self._lock:
            self._drafts[req.conv] = draft
        try:
            fd = os.open(self.marker(req.conv), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.close(fd)
        except OSError:
            pass
        return "ready"

    def take(self, req: Request) -> Optional[Draft]:
        """The draft for this fix request (same command and status), used once; others are dropped."""
        with self._lock:
            draft = self._drafts.pop(req.conv, None)
        self._drop_marker(req.conv)
        if draft is None or (draft.command, draft.status) != _key(req):
            return None
        return draft

    def _drop_marker(self, conv: str) -> None:
        try:
            os.unlink(self.marker(conv))
        except OSError:
            pass


def replay(draft: Draft, reply: Reply) -> AskResult:
    """Send a draft as if it streamed now."""
    reply.status(f"fix drafted in the background by {draft.model}")
    for line in draft.statuses:
        reply.status(line)
    if draft.text:
        reply.text(draft.text)
    result = AskResult(text=draft.text, model=draft.model)
    for command, level, reason in draft.commands:
        result.commands.append(command)
        result.safety.append({"command": command, "level": level, "reason": reason})
        reply.command(command, level, reason)
    return result
