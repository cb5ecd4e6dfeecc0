"""What a conversation needs after an answer, done once the answer is delivered: the fold of
its oldest turns into the summary, and the compaction of its log.

Why after, and in the background: a summary is a whole model call.  Run before the answer
(as it was) it made the ask at the limit wait for it: against a local llama.cpp server
3-4 s to the first byte instead of tens of milliseconds.  Now the fold looks one exchange
ahead (it runs when the *next* ask would be over ``max_turns`` or the budget), so the next
ask finds the conversation already folded; an ask that arrives while a fold still runs
uses the turns as they are, leaving the oldest out of its request when the limits demand
it (``plan``), and never waits for the summary.

A local server serves one request at a time, and llama-cpp-python's cuts the stream in
flight when another request comes: a summary still running when the next ask comes would
hold that ask up, or be cut short (a truncated summary kept as the conversation's memory),
or cut the ask's own answer short.  So on a local summarizer an ask stops the fold first
(``make_way``: its summary call is cancelled, which closes its connection); the fold then
changes nothing and the fold after this answer does the work.  Twice in a row put off, the
next fold is waited for instead, so that a quick typist's conversation still folds.

A local server also keeps the last prompt it evaluated, and a fold changes the start of the
conversation: the next ask would wait for its whole prompt to be evaluated again (seconds
on a CPU).  So after a fold, a local server is sent the folded conversation once, for one
token (``warm``), and the next ask's request, which starts with it, evaluates only itself.

The fold plans on a snapshot, summarizes holding nothing, and applies only if the turns
it folded are still the oldest (``Conversation.apply_eviction``); one fold per session at
a time.  The log is rewritten as a snapshot when its tail grows long, so a restart reads
a bounded log whatever the conversation's age.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Optional

from aish.errors import Cancelled
from aish.ipc import workers
from aish.ipc.cancel import CancelToken

if TYPE_CHECKING:
    from aish.app.env import AskEnv
    from aish.app.sessions import Session
    from aish.chat.conversation import Conversation, SummarizeFn, Turn

# log entries appended since the last snapshot before it is rewritten (or the snapshot's own length,
# if longer): a restart replays the snapshot and this tail, so it stays short (at 400 a conversation
# of 20 kept turns replayed ~220 entries on average, issue 26); a rewrite of a short conversation
# every ~20 asks costs a few entries' JSON per ask and one fsync
COMPACT_TAIL = 64
PUT_OFF_AT_MOST = 2  # folds in a row an ask stops; the next one it waits for
MAKE_WAY_WAIT = 60.0  # seconds an ask waits for a stopped fold to leave (a cut connection: at once)
Job = Callable[[Callable[[str], None]], None]  # takes where its status lines go
UNBOUNDED = 1 << 62  # a token budget nothing reaches: what ``max_turns`` alone evicts


def first_sent(conv: Conversation, *, max_turns: int, budget_tokens: int, count: Callable[[str], int],
               system_prompt: str, status: Callable[[str], None],
               settle: Optional[Callable[[], None]] = None) -> Optional[Turn]:
    """The oldest turn this request sends when the limits leave older ones out (None: all of
    them, as once a fold has run); the conversation itself is not changed.  ``settle``: counts
    the questions weighed by upper bounds (``TokenCounter.defer``); when the bounds leave nothing
    out and say nothing, their counts would not either, else they are counted and it plans again."""
    said: list[str] = []
    evicted, _ = conv.plan_eviction(max_turns=max_turns, budget_tokens=budget_tokens, count=count,
                                    system_prompt=system_prompt, status=status if settle is None else said.append)
    if settle is not None and (said or (evicted and _weights_decided(
            conv, evicted, max_turns=max_turns, count=count, system_prompt=system_prompt))):
        settle()
        evicted, _ = conv.plan_eviction(max_turns=max_turns, budget_tokens=budget_tokens, count=count,
                                        system_prompt=system_prompt, status=status)
    if not evicted:
        return None
    turns = conv.turns[:]
    return next((turns[i + 1] for i, turn in enumerate(turns[:-1]) if turn is evicted[-1]), None)


def _weights_decided(conv: Conversation, evicted: list, **plan) -> bool:
    """Did the weights evict more than ``max_turns`` alone would?  When not, counts in place of
    upper bounds evict as much too (weights only add to the eviction), so none is needed."""
    return len(evicted) != len(conv.plan_eviction(budget_tokens=UNBOUNDED, **plan)[0])


@dataclass
class PendingFold:
    """A fold on a local server, from the answer that made it due until it ends: the next ask
    stops it (``cancel``) and waits for it to be gone (``done``) if it had started."""

    cancel: CancelToken
    stoppable: bool  # it summarizes (a whole model call); without a summary a fold takes milliseconds
    done: threading.Event = field(default_factory=threading.Event)
    running: bool = False


def fold_job(env: AskEnv, session: Session, *, budget_tokens: int, count: Callable[[str], int],
             system_prompt: str, summarize: Optional[SummarizeFn],
             cancel: Optional[CancelToken] = None, warm: Optional[Callable[[], None]] = None,
             settle: Optional[Callable[[], None]] = None) -> Job:
    """The fold (and compaction) to run once the answer is delivered.  ``cancel``: the token of
    its model calls when the next ask is to stop it (a local server: the summary, counting
    tokens, the warm-up); ``warm``: sends the folded conversation to a local server, its
    prompt cache's new start; ``settle``: counts the questions weighed by their upper bounds,
    when the bounds would fold (as ``first_sent``): here, after the answer, nobody waits for
    those counts, and the next ask finds its conversation weighed by them."""
    cfg = env.config.context
    pending = PendingFold(cancel, stoppable=summarize is not None) if cancel is not None else None
    if pending is not None:
        session.fold = pending

    def job(status: Callable[[str], None]) -> None:
        if pending is not None:
            with session.fold_guard:
                if pending.cancel.cancelled:  # an ask came before it started: nothing sent
                    session.folds_put_off += 1
                    pending.done.set()
                    return
                pending.running = True
        try:
            if session.folding.acquire(blocking=False):
                try:
                    _fold(env, session, cfg, budget_tokens, count, system_prompt, summarize, cancel, warm, settle,
                          status)
                finally:
                    session.folding.release()
            # else a fold of this conversation is running: it will have done the work
        finally:
            if pending is not None:
                pending.done.set()
                if session.fold is pending:
                    session.fold = None

    return job


def _fold(env: AskEnv, session: Session, cfg, budget_tokens: int, count: Callable[[str], int], system_prompt: str,
          summarize: Optional[SummarizeFn], cancel: Optional[CancelToken], warm: Optional[Callable[[], None]],
          settle: Optional[Callable[[], None]], status: Callable[[str], None]) -> None:
    try:
        conv = session.conversation
        said: list[str] = []
        evicted, reason = conv.plan_eviction(max_turns=cfg.max_turns, budget_tokens=budget_tokens,
                                             count=count, system_prompt=system_prompt,
                                             slack=cfg.evict_slack, ahead=True, status=said.append)
        if evicted and settle is not None and (said or _weights_decided(
                conv, evicted, max_turns=cfg.max_turns, count=count, system_prompt=system_prompt,
                slack=cfg.evict_slack, ahead=True)):
            settle()  # weights decided (bounds, maybe): the counts decide
            evicted, reason = conv.plan_eviction(max_turns=cfg.max_turns, budget_tokens=budget_tokens,
                                                 count=count, system_prompt=system_prompt,
                                                 slack=cfg.evict_slack, ahead=True)
        if evicted:
            summary = conv.summarize_evicted(evicted, summarize, cfg.max_summary_chars)
            if cancel is not None and cancel.cancelled:  # an ask came: the next fold does it
                session.folds_put_off += 1
                env.log.info("%s: the fold gave way to an ask (%d in a row)", session.id, session.folds_put_off)
                return
            session.folds_put_off = 0
            if conv.apply_eviction(evicted, summary):
                if summarize is None:
                    status(f"context: evicted {len(evicted)} oldest turns ({reason})")
                elif summary:
                    status(f"context: summarized {len(evicted)} evicted turns")
                else:
                    status(f"context: summarizer failed; evicted {len(evicted)} oldest turns "
                           "without a summary")
                if warm is not None and not (cancel is not None and cancel.cancelled):
                    warm()
        compact_if_long(session)
    except Cancelled:  # the warm-up, stopped by an ask (``make_way``)
        env.log.info("%s: the server's warm-up gave way to an ask", session.id)
    except Exception:  # a fold must never take the daemon down; the next one retries
        env.log.exception("folding the conversation failed")


def make_way(session: Session) -> None:
    """An ask is coming: a fold due on a local server is stopped, and gone before the ask sends
    anything (one without a summary, or put off ``PUT_OFF_AT_MOST`` times in a row, is waited
    for instead)."""
    pending = session.fold
    if pending is None:
        return
    with session.fold_guard:
        if pending.stoppable and session.folds_put_off < PUT_OFF_AT_MOST:
            pending.cancel.cancel()
        started = pending.running or not pending.cancel.cancelled
    if started:  # (one not started yet, cancelled, sends nothing when it starts)
        pending.done.wait(MAKE_WAY_WAIT)


def compact_if_long(session: Session) -> None:
    """Rewrite the log as a snapshot once its tail is as long as the snapshot, or once the redactor learned a value
    that an older line may hold in clear (a secret recognised only later: a restart would send
    that line as it stands); never while an ask appends to it."""
    log = session.log
    learned = session.redactor is not None and session.redactor.generation != session.redacted_at
    # a tail as long as the snapshot: a rewrite costs a few entries per ask at any length (one every
    # COMPACT_TAIL entries rewrote a conversation of N turns whole, N/130 entries per ask), and a
    # reload reads at most about twice what it keeps
    if log is None or (log.appended < max(COMPACT_TAIL, log.snapshot) and not learned):
        return
    if session.lock.acquire(blocking=False):
        try:
            session.compact()
        finally:
            session.lock.release()


def in_background(job: Job, session: Session, log,
                  defer: Optional[Callable[[Callable[[], None]], None]] = None) -> None:
    """The daemon's runner: the job once the answer is delivered, on the request's own thread
    after its D frame (``defer``, the daemon's reply) or else on a kept background thread
    (``ipc/workers.py``); its status lines are logged and said by the session's next ask
    (its own answer is delivered already)."""
    def status(line: str) -> None:
        log.info("%s: %s", session.id, line)
        session.said_later.append(line)

    if defer is not None:
        defer(lambda: job(status))
    else:
        workers.background().run(job, status)


def say_pending(session: Session, status: Callable[[str], None]) -> None:
    """What the work after the last answer had to say, at the start of this ask."""
    while session.said_later:
        status(session.said_later.pop(0))
