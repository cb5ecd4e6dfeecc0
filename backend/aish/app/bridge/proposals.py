"""A proposed command's life, and the board that holds one per shell.

    queued    the shell is busy (a command runs, or aish answers there): it waits for a prompt
    offered   the status request went to the shell's terminal; its answer takes the proposal
    on_line   on the prompt line, judged by aish's safety; the user runs, edits or dismisses it
    on_key    the user was typing: their line stayed, the proposal waits on the cycle key
    ran / dismissed / withdrawn / timed_out / shell_closed   over; the agent hears which

A proposal that was withdrawn or timed out while on the prompt line leaves a retraction:
the next time that shell takes from the board, the line is cleared if it still holds it.
"""
from __future__ import annotations

import collections
import itertools
import threading
import time
from dataclasses import dataclass, field
from typing import Optional

from aish.errors import AishError

WAITING = ("queued", "offered")
SHOWN = ("on_line", "on_key")
FINAL = ("ran", "dismissed", "withdrawn", "timed_out", "shell_closed")
_RECENT = 20
_IDS = itertools.count(1)


@dataclass
class Proposal:
    agent: str  # the agent's name, as the user sees it
    agent_pid: int
    shell: str  # the shell's label (zsh-1234, or its AISH_NAME)
    key: str  # the shell's conversation id: how its own requests name it
    pid: int  # the shell's pid
    command: str  # as it lands on the prompt line (secrets restored)
    reason: str
    deadline: float  # time.monotonic() when it is withdrawn unanswered
    id: int = field(default_factory=lambda: next(_IDS))
    created: float = field(default_factory=time.time)
    state: str = "queued"
    offered_at: float = 0.0  # time.monotonic() of the last status request
    offered_report: float = 0.0  # the shell's report time when it went (a newer one: offer again)
    level: Optional[str] = None  # aish's safety verdict, once it landed
    risk: str = ""  # its reason and preview
    ran: str = ""  # what the user ran (the proposal, or their edit of it)
    exit: Optional[int] = None
    ms: Optional[int] = None
    output: dict = field(default_factory=dict)  # for the agent, redacted
    note: str = ""  # why it ended, in words
    changed: threading.Event = field(default_factory=threading.Event, repr=False)

    @property
    def edited(self) -> bool:
        return bool(self.ran) and self.ran != self.command

    def outcome(self) -> str:
        """What happened to it, in a few words (``? :agents``)."""
        if self.state == "ran":
            return f"ran{' (edited: ' + self.ran + ')' if self.edited else ''}, exit {self.exit}"
        words = {"queued": "waiting for the shell's prompt", "offered": "being put on the prompt line",
                 "on_line": "on the prompt line", "on_key": "on the cycle key (the user was typing)",
                 "dismissed": "dismissed", "withdrawn": "withdrawn", "timed_out": "timed out",
                 "shell_closed": "its shell closed"}
        return words.get(self.state, self.state)


class Board:
    """The proposals that wait, one per shell, and the recent ones."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._active: dict[str, Proposal] = {}
        self._recent: collections.deque = collections.deque(maxlen=_RECENT)
        self._retract: dict[str, Proposal] = {}

    def open(self, proposal: Proposal) -> None:
        with self._lock:
            waiting = self._active.get(proposal.key)
            if waiting is not None:
                raise AishError(f"{waiting.agent}'s proposal `{waiting.command}` already waits in "
                                f"{waiting.shell} ({waiting.outcome()}): one proposal per shell at a time",
                                hint="wait for its answer, withdraw it, or propose to another shell")
            self._active[proposal.key] = proposal
            self._recent.append(proposal)

    def active(self, key: str) -> Optional[Proposal]:
        with self._lock:
            return self._active.get(key)

    def move(self, proposal: Proposal, state: str, only_from: tuple[str, ...] = ()) -> bool:
        """A waiting proposal's next state; False when it ended meanwhile (or, with
        ``only_from``, when it is no longer in one of those states: the shell's side moved it)."""
        with self._lock:
            if proposal.state in FINAL or (only_from and proposal.state not in only_from):
                return False
            proposal.state = state
        proposal.changed.set()
        return True

    def finish(self, proposal: Proposal, state: str, note: str = "", **fields) -> bool:
        """End it (once: False when it had ended already)."""
        with self._lock:
            if proposal.state in FINAL:
                return False
            shown = proposal.state in SHOWN
            proposal.state, proposal.note = state, note
            for name, value in fields.items():
                setattr(proposal, name, value)
            if self._active.get(proposal.key) is proposal:
                del self._active[proposal.key]
            if shown and state in ("withdrawn", "timed_out"):
                self._retract[proposal.key] = proposal
        proposal.changed.set()
        return True

    def retraction(self, key: str) -> Optional[Proposal]:
        """The proposal to take off that shell's line (once), if one was withdrawn there."""
        with self._lock:
            return self._retract.pop(key, None)

    def recent(self) -> list[Proposal]:
        with self._lock:
            return list(self._recent)


def remaining(proposal: Proposal) -> float:
    return proposal.deadline - time.monotonic()
