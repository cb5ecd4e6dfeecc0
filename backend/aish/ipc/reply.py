"""The channel one request answers through.

``ask.py`` and the verbs write to a ``Reply``; the daemon's implementation turns
each call into a protocol frame (docs/protocol.md), the CLI's in-process one
prints.  Keeping it an interface is what lets tests script a user (approvals,
cancels) without a terminal (``tests/doubles.py``).
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

    def task(self, state: str) -> None:
        """A multi-step task's state for the shell: ``wait`` (a step is on the prompt line,
        report what runs), ``run`` (autorun: run it now), ``off`` (no task any more)."""

    def proposal(self, state: str, command: str = "") -> None:
        """An agent's proposal in the asking shell (docs/agents.md): ``wait`` (it is on the
        prompt line or the cycle key: report what runs), ``withdraw`` (the agent took it
        back: clear the line if it still holds ``command``), ``off`` (stop reporting)."""

    def ask(self, question: str, timeout: float) -> Optional[str]:
        """Ask the user; returns 'y', 'n' or 'a', or None when nobody can answer in time."""

    def input(self, prompt: str, timeout: float) -> Optional[str]:
        """A line of text the user types (a server's question while its tool runs); None when
        nobody can answer, or nobody did in time."""

    def variables(self, timeout: float) -> Optional[dict]:
        """The asking shell's variables (name -> value, None when withheld), fetched only when
        a preview needs them: collecting them costs the shell milliseconds it should not
        spend before the first byte.  None when the shell cannot send them in time."""
