"""The channel one request answers through.

``ask.py`` and the verbs write to a ``Reply``; the daemon's implementation turns
each call into a protocol frame (docs/protocol.md), the CLI's in-process one
prints.  Keeping it an interface is what lets tests script a user (approvals,
cancels) without a terminal.
"""
from __future__ import annotations

from typing import Optional, Protocol

from aish.ipc.cancel import CancelToken


class Reply(Protocol):
    cancel: CancelToken

    def text(self, chunk: str) -> None:
        """A delta of answer text (the daemon strips terminal control characters)."""

    def status(self, line: str) -> None:
        """A status line; callers pass it without the ``[aish] `` prefix."""

    def warning(self, line: str) -> None:
        """A warning line the user should see (a denied tool call, a skipped call...)."""

    def command(self, command: str, level: Optional[str] = None, reason: Optional[str] = None) -> None:
        """A suggested command, in order, with its safety verdict."""

    def ask(self, question: str, timeout: float) -> Optional[str]:
        """Ask the user; returns 'y', 'n' or 'a', or None when nobody can answer in time."""


class RecordingReply:
    """A Reply that records everything; answers questions from a script (tests, --json)."""

    def __init__(self, answers: Optional[list] = None) -> None:
        self.cancel = CancelToken()
        self.texts: list[str] = []
        self.statuses: list[str] = []
        self.warnings: list[str] = []
        self.commands: list[tuple] = []
        self.questions: list[str] = []
        self._answers = list(answers or [])

    def text(self, chunk: str) -> None:
        self.texts.append(chunk)

    def status(self, line: str) -> None:
        self.statuses.append(line)

    def warning(self, line: str) -> None:
        self.warnings.append(line)

    def command(self, command: str, level: Optional[str] = None, reason: Optional[str] = None) -> None:
        self.commands.append((command, level, reason))

    def ask(self, question: str, timeout: float) -> Optional[str]:
        self.questions.append(question)
        return self._answers.pop(0) if self._answers else None

    @property
    def full_text(self) -> str:
        return "".join(self.texts)
