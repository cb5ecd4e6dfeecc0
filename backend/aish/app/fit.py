"""Fitting one model call to its server: the request's real weight against the window, the
answer cap, what an empty reply means, and telling the user while a model is silent.

Why each:
- A prompt the window cannot hold is refused here, before a byte is sent, as the server
  would refuse it (``ContextOverflow``): the caller's fold is the same either way.
- Servers fail a too-long prompt in more than one shape: a 400 with a code (typed by the
  broker), an empty 200 stream (llama-cpp-python), an empty answer (a LiteLLM proxy in
  front of it).  An empty reply is never a silent success: near the window it is an
  overflow; from a local server that does not say, the same prompt is asked once more
  without streaming (one token), which every server answers with its real error; else it
  is an ``EmptyAnswer`` (or the cut it was).
- A model that is silent (a long prompt to process, another client's generation in front)
  gets a status line after a few seconds and then every half minute, naming the server:
  the user knows which side is slow, and the shell's own wait sees the daemon alive.
"""
from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Callable, Optional

from aish.chat import fold as folding
from aish.config.schema import ModelConfig
from aish.errors import AishError, ContextOverflow, EmptyAnswer, StreamCut
from aish.ipc import workers
from aish.llm.events import Finish
from aish.llm.plan import NEAR_WINDOW, Plan  # NEAR_WINDOW: an empty reply this close is an overflow

if TYPE_CHECKING:
    from aish.chat.conversation import Conversation, SummarizeFn
    from aish.app.env import AskEnv
    from aish.ipc.reply import Reply

FOLD_PROGRESS = 0.8  # a fold after an overflow takes the conversation at least this far down
FIRST_WAIT_NOTE = 8.0  # seconds of silence before the first "waiting for" line
WAIT_NOTE_EVERY = 30.0
WHY_TOKENS = 16  # tokens an empty reply's question of why asks for (at most the answer cap): see why_empty


def plan(env: AskEnv, model: ModelConfig, messages: list, tools: Optional[list], max_tokens: Optional[int],
         *, bounded: bool) -> Optional[Plan]:
    """The request's weight and answer cap; raises ``ContextOverflow`` (nothing sent) when the
    window is known and cannot hold it.  None when no limits are kept (tests, scratch)."""
    if env.limits is None:
        return None
    planned = env.limits.plan(model, messages, tools, max_tokens=max_tokens, bounded=bounded)
    if not planned.fits:
        raise ContextOverflow(f"the prompt (~{planned.prompt_tokens:,} tokens) does not fit "
                              f"{model.name}'s {planned.window:,}-token context window with room for an answer",
                              status=0, window=planned.window, prompt_tokens=planned.prompt_tokens, sent=False,
                              hint="'aish reset' starts afresh")
    return planned


def why_empty(env: AskEnv, model: ModelConfig, sent: list, planned: Optional[Plan],
              cut: Optional[StreamCut] = None, finish: Optional[Finish] = None) -> AishError:
    """The error an empty reply stands for (``cut``: it ended without a finish)."""
    if planned is not None and planned.window and planned.prompt_tokens >= planned.window * NEAR_WINDOW:
        return ContextOverflow(f"{model.name} sent an empty reply to a prompt of ~{planned.prompt_tokens:,} "
                               f"tokens in its {planned.window:,}-token window: taken as a context overflow",
                               window=planned.window, prompt_tokens=planned.prompt_tokens,
                               hint="'aish reset' starts afresh")
    if env.limits is not None and model.is_local:  # free to ask again; a paid model is not asked twice
        # a few tokens, not one: the one is sampled from the prompt and never decoded, and the
        # decode of the next is where a server with no room left after the prompt fails
        # (llama.cpp); a stream that ended before its first text got no further than that
        asked = planned.answer_tokens if planned is not None and planned.answer_tokens else 1
        told = env.limits.ask_why(model, sent, max_tokens=min(asked, WHY_TOKENS))
        if isinstance(told, ContextOverflow):
            if planned is not None and told.prompt_tokens:  # the server's own count of this prompt
                env.limits.observe(model, planned.exact_prompt_tokens(), told.prompt_tokens, told=True)
            if told.window is None and told.status == 500 and planned is not None:
                told.window = planned.exact_prompt_tokens()  # no room past this prompt: the room it has
            return told
    if cut is not None:
        return cut
    reason = finish.reason if finish is not None else None
    if reason == "length":
        cap = planned.answer_tokens if planned is not None else None
        return EmptyAnswer(f"{model.name} spent its whole answer cap{f' ({cap:,} tokens)' if cap else ''} "
                           "before any answer text (reasoning, most likely)",
                           hint=f"raise max_tokens in [models.{model.name}] of the config")
    return EmptyAnswer(f"{model.name} sent an empty answer (finish: {reason or 'none'})",
                       hint="ask again; if it persists, 'aish doctor' checks the server")


def capped_note(model: ModelConfig, planned: Optional[Plan]) -> str:
    """The status line of an answer a length limit stopped: aish's cap, or the server's own."""
    if planned is None or not planned.answer_tokens:
        return (f"the answer stopped at {model.name}'s length limit (the server's own cap, or the end "
                f"of its context window; max_tokens in [models.{model.name}] sets one)")
    return (f"the answer stopped at {model.name}'s {planned.answer_tokens:,}-token answer cap "
            f"(max_tokens in [models.{model.name}] raises it)")


class Waiting:
    """Status lines while a model is silent before its first text.  An alarm on the
    process's one alarm thread (``ipc/workers.py``), not a thread per call: most calls hear
    text long before the first note is due; a note itself is written from a kept worker
    thread (a client's full pipe may hold a write for seconds)."""

    def __init__(self, say: Optional[Callable[[str], None]], model: ModelConfig) -> None:
        self._say, self._model = say, model
        self._first, self._every = FIRST_WAIT_NOTE, WAIT_NOTE_EVERY
        self._waited = 0.0
        self._stopped = False
        self._alarm: Optional[workers.Alarm] = None
        self._lock = threading.Lock()

    def __enter__(self) -> "Waiting":
        if self._say is not None:
            self._schedule(self._first)
        return self

    def heard(self) -> None:
        """Text (or a tool call) arrived: no more lines."""
        if self._alarm is not None and not self._stopped:
            self._stop()

    def __exit__(self, *exc: object) -> None:
        self._stop()

    def _stop(self) -> None:
        with self._lock:
            self._stopped = True
            if self._alarm is not None:
                self._alarm.cancel()

    def _schedule(self, pause: float) -> None:
        with self._lock:
            if not self._stopped:
                self._waited += pause
                self._alarm = workers.alarms().at(pause, lambda: workers.background().run(self._note))

    def _note(self) -> None:
        say = self._say
        if say is None or self._stopped:
            return
        try:
            say(f"waiting for {self._model.name} ({self._model.endpoint}): no answer after "
                f"{self._waited:.0f} s; the model server is slow or busy with another request")
        except Exception:  # noqa: BLE001 - a note must never break the call
            return
        self._schedule(self._every)


# ---------------------------------------------------------------- the conversation

def budget(env: AskEnv, model: ModelConfig, tools: Optional[list]) -> tuple[int, Callable[[str], int]]:
    """The conversation's budget in tokens (``context.budget_tokens``, never more than the
    model's window leaves) and the weight of one message as the model's server counts it."""
    cfg = env.config
    if env.limits is None:
        return cfg.context.budget_tokens, lambda text: env.tokens.count(model, text)
    room = env.limits.prompt_room(model, tools=tools, bounded=_bounded(env))
    budget_tokens = cfg.context.budget_tokens if room is None else min(cfg.context.budget_tokens, room)
    return budget_tokens, env.limits.turn_counter(model)


def folder(env: AskEnv, conv: Conversation, model: ModelConfig, system: str, tools: Optional[list],
           reply: Reply, summarize: Optional[SummarizeFn],
           settle: Optional[Callable[[], None]] = None) -> Callable[[ContextOverflow], Optional[list]]:
    """The ``on_overflow`` of a conversation's call: fold it to fit what the overflow taught
    (the window it named), tell the user in one line, and give the shorter messages.
    ``settle``: counts the questions weighed by their upper bounds (the fold weighs by counts)."""
    def on_overflow(err: ContextOverflow) -> Optional[list]:
        if settle is not None:
            settle()
        budget_tokens, count = budget(env, model, tools)
        now = folding.weight(conv, count, system)
        room = min(budget_tokens, int(now * FOLD_PROGRESS))  # the last count fitted, and did not
        notes: list[str] = []
        folded = folding.fold(conv, room=room, count=count, system_prompt=system, summarize=summarize,
                              max_summary_chars=env.config.context.max_summary_chars, status=notes.append)
        if not folded:
            return None
        window = err.window or (env.limits.of(model).window if env.limits is not None else None)
        fits = f"{model.name}'s {window:,}-token window" if window else f"{model.name}'s context window"
        said = "; ".join(note.removeprefix("context: ") for note in notes)
        reply.status(f"context: the conversation (~{now:,} tokens) did not fit {fits}: {said}; asking again")
        return conv.to_messages(system)

    return on_overflow


def defer_questions(env: AskEnv, model: ModelConfig, conv: Conversation) -> bool:
    """Weigh the new question by its upper bound (``TokenCounter.defer``): True when it is.  A
    conversation weighed for the first time here (read back from its log by a restarted daemon)
    has its questions not counted yet weighed the same way, not one tokenize request each
    before this ask's first byte (a daemon's first count finds the tokenizer: the new question's)."""
    turns = conv.turns
    deferred = env.tokens.defer(model, turns[-1].content)
    if len(turns) > 1 and turns[0].tokens is None:
        if not deferred:
            env.tokens.count(model, turns[-1].content)  # (known: looked up; else weighed now anyway)
        for turn in turns[:-1]:
            if turn.role == "user":
                env.tokens.defer(model, turn.content)
    return deferred


def settler(env: AskEnv, model: ModelConfig, conv: Conversation) -> Callable[[], None]:
    """Count the conversation's questions still weighed by their bounds, and weigh its
    questions again (some may have been counted meanwhile for a request, their turns still
    weighed by the bound): where the bounds would evict turns (``after_answer``), counts decide."""
    def settle() -> None:
        env.tokens.settle(model, [turn.content for turn in conv.turns if turn.role == "user"])
        conv.reweigh_questions()

    return settle


def _bounded(env: AskEnv) -> bool:
    from aish.app.cost_guard import bounded

    return bounded(env.config.cost)
