"""One shell's session: what aish keeps for it beside the transcript.

``Conversation`` (chat/) is only the transcript and its layout: turns, the rolling
summary, the budget, the messages sent.  What else belongs to the shell lives
here: the usage totals and the redactor (the meter every model call is costed
and redacted against, app/model_call.py), the blocks attached to the next
question (``? :tree``, ``? :diff``), the shell history the model has seen, the
command outputs already sent, the tool approvals answered "always", the norris
task, and the lock that lets one answer run at a time.  All of it is written to
the one session log, so a daemon restart rebuilds it.
"""
from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, Optional

from aish.chat import restore
from aish.chat.conversation import Conversation
from aish.chat.session_log import SessionLog

if TYPE_CHECKING:
    from aish.app.after_answer import PendingFold


class Session:
    """A shell's (or a CLI conversation's) state; the service keeps one per conversation id."""

    def __init__(self, session_id: str, log: Optional[SessionLog] = None, *,
                 usage: Any = None, redactor: Any = None) -> None:
        self.id = session_id
        self.log = log
        self.usage = usage  # aish.cost.usage.UsageTotals; None: not counted per session
        self.redactor = redactor  # aish.safety.secrets.Redactor; None: nothing to redact with
        # each turn redacted once for the log, the compaction and every request that sends it again
        self.conversation = Conversation(session_id, log, redact=redactor.redact_once if redactor else None,
                                         rules=redactor.rules if redactor else None)
        self.lock = threading.Lock()  # one answer at a time per shell
        self.folding = threading.Lock()  # one fold at a time (app/after_answer.py)
        self.fold: Optional[PendingFold] = None  # the fold due on a local server (the next ask stops it)
        self.fold_guard = threading.Lock()  # a fold's start against an ask's stop
        self.folds_put_off = 0  # folds in a row an ask stopped
        self.said_later: list[str] = []  # status lines of work after an answer, said by the next ask
        self.sent_history: list = []  # the shell history the model has seen (delta per ask)
        self.attachments: list[str] = []  # blocks for the next question (`? :tree`, `? :diff`)
        self.outputs_sent: set = set()  # command runs whose output the model has (app/attach_output.py)
        self.output_hint_said = False  # "how to get command output" is said once per session
        self.always_approved: set[str] = set()  # tools answered "a" (always) in this shell
        self.task: Optional[dict] = None  # a multi-step task (app/norris.py), kept over reset
        # the redactor's generation when the log was last rewritten: a value learned since may
        # stand in clear in an older line (``app/after_answer.compact_if_long``)
        self.redacted_at = redactor.generation if redactor is not None else 0

    def set_task(self, task: Optional[dict]) -> None:
        """Keep a multi-step task's state (a plain dict owned by app/norris.py), logged so
        that ``? :norris resume`` finds it after a daemon restart."""
        self.task = task
        if self.log:
            self.log.append({"type": "task", "task": task})

    def reset(self) -> None:
        """Start the conversation afresh; usage totals, the meter and a task survive (the user
        reset the conversation, not the meter)."""
        self.conversation.reset()
        self.always_approved.clear()
        self.sent_history = []
        self.attachments = []

    def replay(self, on_usage: Any = None, on_cost_reset: Any = None,
               on_usage_totals: Any = None, on_cost_raise: Any = None) -> int:
        """Rebuild from the session log after a daemon restart; returns how many entries."""
        taken = self.redactor.take_as_redacted if self.redactor is not None else None
        return restore.replay(self.conversation, on_usage=on_usage, on_cost_reset=on_cost_reset,
                              on_usage_totals=on_usage_totals, on_cost_raise=on_cost_raise,
                              on_task=self._replayed_task,
                              on_redacted=(lambda turn: taken(turn.content)) if taken else None)

    def _replayed_task(self, task: Optional[dict]) -> None:
        self.task = task  # the last one wins

    def compact(self) -> None:
        """Rewrite the log as the current state (see ``Conversation.compact``), every line
        redacted with what the redactor knows now."""
        if self.redactor is not None:
            self.redacted_at = self.redactor.generation
        restore.compact(self.conversation, self.usage.to_dict() if self.usage is not None else None, self.task)


MAX_SESSIONS = 64  # kept in memory; older idle ones are rebuilt from their log on use
COMPACT_AFTER_ENTRIES = 400  # entries a rewrite at start-up would drop before it is done


class Sessions:
    """The daemon's sessions by id: made, or rebuilt from their log, on first use; those of
    long-gone shells leave memory (their logs stay on disk), so a daemon that lives for weeks
    does not grow with every shell ever opened."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sessions: dict[str, Session] = {}
        self._last_used: dict[str, float] = {}

    def get(self, session_id: str, cost_config: Any = None) -> Session:
        """``cost_config`` (``[cost]``): warnings crossed before a restart are not said again."""
        import time

        now = time.monotonic()
        with self._lock:
            session = self._sessions.get(session_id)
            if session is not None:
                self._last_used[session_id] = now
                return session
            self._forget_idle()
            session = _rebuilt(session_id, cost_config)
            self._sessions[session_id] = session
            self._last_used[session_id] = now
        return session

    def loaded(self, session_id: str) -> Optional[Session]:
        """The session if it is in memory (never rebuilt from its log)."""
        with self._lock:
            return self._sessions.get(session_id)

    def __len__(self) -> int:
        return len(self._sessions)

    def __contains__(self, session_id: str) -> bool:
        return session_id in self._sessions

    def _forget_idle(self) -> None:
        if len(self._sessions) < MAX_SESSIONS:
            return
        idle = sorted(self._last_used, key=lambda sid: self._last_used[sid])
        for session_id in idle[:len(idle) - MAX_SESSIONS // 2]:
            session = self._sessions[session_id]
            if session.lock.acquire(blocking=False):  # never one that is answering
                session.lock.release()
                del self._sessions[session_id]
                del self._last_used[session_id]


def _rebuilt(session_id: str, cost_config: Any) -> Session:
    from aish.cost.usage import UsageTotals
    from aish.safety.secrets import Redactor

    session = Session(session_id, SessionLog(session_id), usage=UsageTotals(), redactor=Redactor())
    read = session.replay(on_usage=lambda entry: _replay_usage(session, entry),
                          on_cost_reset=lambda: session.usage.reset(),
                          on_usage_totals=lambda totals: _restore_totals(session, totals),
                          on_cost_raise=lambda dollars: session.usage.raise_cap(dollars))
    conv = session.conversation
    for text in (conv.summary or "", *(turn.content for turn in conv.turns),
                 *(str(turn.tool_calls) for turn in conv.turns if turn.tool_calls)):
        session.redactor.reserve(text)  # a new secret is numbered as the daemon before would have
    kept = len(conv.turns) + 3  # what a snapshot writes: the turns, the totals, a summary, a task
    if read - kept > max(COMPACT_AFTER_ENTRIES, kept):  # a rewrite would drop more than it keeps
        session.compact()
    elif session.log is not None:  # the tail a running compaction measures (app/after_answer.py)
        session.log.appended, session.log.snapshot = max(0, read - kept), kept
    if cost_config is not None:  # thresholds crossed before a restart have warned already
        session.usage.check_warnings(cost_config)
    return session


def take_turn(session: Session, reply: Any) -> None:
    """One answer at a time per session; a second ask says why it waits, and a cancel (or a
    vanished client) stops the wait.  The caller releases ``session.lock``."""
    if session.lock.acquire(blocking=False):
        return
    reply.status("waiting for the answer in progress in this conversation")
    from aish.errors import Cancelled

    while not session.lock.acquire(timeout=0.1):
        if reply.cancel.cancelled:
            raise Cancelled()


def _replay_usage(session: Session, entry: dict) -> None:
    from aish.llm.events import Usage

    raw = entry.get("usage") or {}
    try:
        usage = Usage(**{k: raw[k] for k in ("prompt_tokens", "completion_tokens", "total_tokens",
                                             "cost", "estimated", "model") if k in raw})
        session.usage.add(entry.get("model") or "?", entry.get("category") or "main", usage,
                          local=bool(entry.get("local")), est_prompt=entry.get("est_prompt"))
    except (TypeError, ValueError):
        pass


def _restore_totals(session: Session, totals: dict) -> None:
    from aish.cost.usage import UsageTotals

    try:
        session.usage = UsageTotals.from_dict(totals)
    except (TypeError, ValueError, KeyError):
        pass
