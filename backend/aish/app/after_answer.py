"""What a conversation needs after an answer, done once the answer is delivered: the fold of
its oldest turns into the summary, and the compaction of its log.

Why after, and in the background: a summary is a whole model call.  Run before the answer
(as it was) it made the ask at the limit wait for it: against a local llama.cpp server
3-4 s to the first byte instead of tens of milliseconds.  Now the fold looks one exchange
ahead (it runs when the *next* ask would be over ``max_turns`` or the budget), so the next
ask finds the conversation already folded; an ask that arrives while a fold still runs
uses the turns as they are, leaving the oldest out of its request when the limits demand
it (``plan``), and never waits.

The fold plans on a snapshot, summarizes holding nothing, and applies only if the turns
it folded are still the oldest (``Conversation.apply_eviction``); one fold per session at
a time.  The log is rewritten as a snapshot when its tail grows long, so a restart reads
a bounded log whatever the conversation's age.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Optional

from aish.ipc import workers

if TYPE_CHECKING:
    from aish.app.env import AskEnv
    from aish.app.sessions import Session
    from aish.chat.conversation import Conversation, SummarizeFn, Turn

COMPACT_TAIL = 400  # log entries appended since the last snapshot before it is rewritten
Job = Callable[[Callable[[str], None]], None]  # takes where its status lines go


def first_sent(conv: Conversation, *, max_turns: int, budget_tokens: int, count: Callable[[str], int],
               system_prompt: str, status: Callable[[str], None]) -> Optional[Turn]:
    """The oldest turn this request sends when the limits leave older ones out (None: all of
    them, as once a fold has run); the conversation itself is not changed."""
    evicted, _ = conv.plan_eviction(max_turns=max_turns, budget_tokens=budget_tokens, count=count,
                                    system_prompt=system_prompt, status=status)
    if not evicted:
        return None
    turns = conv.turns[:]
    return next((turns[i + 1] for i, turn in enumerate(turns[:-1]) if turn is evicted[-1]), None)


def fold_job(env: AskEnv, session: Session, *, budget_tokens: int, count: Callable[[str], int],
             system_prompt: str, summarize: Optional[SummarizeFn]) -> Job:
    """The fold (and compaction) to run once the answer is delivered."""
    cfg = env.config.context

    def job(status: Callable[[str], None]) -> None:
        if not session.folding.acquire(blocking=False):
            return  # a fold of this conversation is running: it will have done the work
        try:
            conv = session.conversation
            evicted, reason = conv.plan_eviction(max_turns=cfg.max_turns, budget_tokens=budget_tokens,
                                                 count=count, system_prompt=system_prompt,
                                                 slack=cfg.evict_slack, ahead=True)
            if evicted:
                summary = conv.summarize_evicted(evicted, summarize, cfg.max_summary_chars)
                if conv.apply_eviction(evicted, summary):
                    if summarize is None:
                        status(f"context: evicted {len(evicted)} oldest turns ({reason})")
                    elif summary:
                        status(f"context: summarized {len(evicted)} evicted turns")
                    else:
                        status(f"context: summarizer failed; evicted {len(evicted)} oldest turns "
                               "without a summary")
            compact_if_long(session)
        except Exception:  # a fold must never take the daemon down; the next one retries
            env.log.exception("folding the conversation failed")
        finally:
            session.folding.release()

    return job


def compact_if_long(session: Session) -> None:
    """Rewrite the log as a snapshot once its tail is long; never while an ask appends to it."""
    log = session.log
    if log is None or log.appended < COMPACT_TAIL:
        return
    if session.lock.acquire(blocking=False):
        try:
            session.compact()
        finally:
            session.lock.release()


def in_background(job: Job, session: Session, log) -> None:
    """The daemon's runner: the job on a kept background thread (``ipc/workers.py``); its
    status lines are logged and said by the session's next ask (its own answer is delivered
    already)."""
    def status(line: str) -> None:
        log.info("%s: %s", session.id, line)
        session.said_later.append(line)

    workers.background().run(job, status)


def say_pending(session: Session, status: Callable[[str], None]) -> None:
    """What the work after the last answer had to say, at the start of this ask."""
    while session.said_later:
        status(session.said_later.pop(0))
