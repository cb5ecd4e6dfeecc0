"""One costed, redacted model call: every call aish makes to a model goes through ``Caller.call``.

In order, for every caller (ask, explain, delegate, the safety probe, summaries, norris):
the messages are redacted (no secret leaves the machine), the answer streams (to the
user as it arrives, or only to the caller with ``show=False``), placeholders are
restored in what comes back, text the model later marks as reasoning is retracted,
the usage is accounted under the call's category (priced, estimated when the server
sent none, into the session's totals, its log and the ledger), and a call that failed
before any text, the way a server that is down fails, is retried once on
``routing.fallback_model``.

What stays with the caller: the category, whether text reaches the user, whether a
fallback is allowed, and what to do when the prompt does not fit the model's context
(``on_overflow`` may return shorter messages to retry once; without it the
``ContextOverflow`` error reaches the caller, who may fold and call again).  A call
with no ``reply`` runs quietly in the background (its own cancel token; status lines
go to the log).  Modelled on the idea of llm's ``Response``: the caller gets one
object with the text, the usage, the finish and which model answered.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Optional, Protocol

from aish.config.schema import ModelConfig
from aish.errors import AishError, Cancelled, ContextOverflow
from aish.ipc.cancel import CancelToken
from aish.llm.events import Finish, ReasoningDelta, TextDelta, TextWasReasoning, ToolCall, Usage

if TYPE_CHECKING:
    from aish.app.env import AskEnv
    from aish.ipc.reply import Reply

# After the fact, since the text had streamed before its `</think>` told (events.py).
REASONING_HIDDEN = "the model reasoned before answering (reasoning hidden)"
RETRACTED = ("the text above was the model's reasoning (it closed a thought it never opened): "
             "not part of the answer, no command taken from it")

Overflow = Callable[[ContextOverflow], Optional[list]]


class Meter(Protocol):
    """Whom a call is redacted and costed for: a shell's session (or a scratch one)."""

    id: str
    usage: Any  # aish.cost.usage.UsageTotals, or None: not counted per session
    redactor: Any  # aish.safety.secrets.Redactor, or None: nothing to redact with
    log: Any  # aish.chat.session_log.SessionLog, or None


@dataclass
class Response:
    """What one call produced: the text (secrets restored), usage, finish, the answering model."""

    model: ModelConfig  # the model that answered: the fallback model after a hop
    text: str = ""
    usage: Optional[Usage] = None  # priced; estimated when the server sent none
    finish: Optional[Finish] = None
    fell_back: Optional[str] = None  # the fallback model's name when the call hopped
    sent: list = field(default_factory=list)  # the messages as they left (redacted)

    @property
    def tool_calls(self) -> tuple[ToolCall, ...]:
        return self.finish.tool_calls if self.finish is not None else ()

    def usage_dict(self) -> Optional[dict]:
        return self.usage.to_dict() if self.usage is not None else None


class Quiet:
    """The reply of a call nobody watches (background work): text is kept by the caller,
    status lines go to the log, questions are denied."""

    def __init__(self, cancel: Optional[CancelToken] = None,
                 log: Optional[logging.Logger] = None) -> None:
        self.cancel = cancel or CancelToken()
        self._log = log or logging.getLogger("aish")

    def text(self, chunk: str) -> None:
        pass

    def status(self, line: str) -> None:
        self._log.info("background call: %s", line)

    warning = status

    def command(self, command: str, level: Optional[str] = None, reason: Optional[str] = None) -> None:
        pass

    def task(self, state: str) -> None:
        pass

    def ask(self, question: str, timeout: float) -> Optional[str]:
        return None

    def variables(self, timeout: float) -> Optional[dict]:
        return None


class Caller:
    """Model calls for one session: ``env`` holds the daemon-wide parts, ``meter`` the session."""

    def __init__(self, env: AskEnv, meter: Meter) -> None:
        self.env = env
        self.meter = meter

    @property
    def redacting(self) -> bool:
        return bool(self.env.config.secrets.redact) and self.meter.redactor is not None

    def redact(self, text: str) -> str:
        """``text`` as a model may see it (placeholders for secrets)."""
        return self.meter.redactor.redact(text) if self.redacting else text

    def call(self, messages: list, *, category: str, reply: Optional[Reply] = None,
             model: Optional[ModelConfig] = None, tools: Optional[list] = None, show: bool = True,
             fallback: bool = True, fallback_note: str = "", max_tokens: Optional[int] = None,
             timeout: Any = None, on_overflow: Optional[Overflow] = None) -> Response:
        """One model call: see the module's docstring.  ``model`` defaults to the config's
        default; ``show=False`` keeps the text from the user (it is in the Response).

        Raises ``Cancelled`` (its ``partial_text`` holds what arrived) or an ``AishError``
        whose ``partial_text`` holds the text the user saw, never lost."""
        reply = reply if reply is not None else Quiet(log=self.env.log)
        model = model or self.env.config.model()
        attempt = _Attempt(self, category, reply, tools, show, max_tokens, timeout)
        try:
            return attempt.run(model, messages, on_overflow)
        except ContextOverflow:  # the same prompt fails the same way elsewhere: the caller's
            raise
        except AishError as first:
            target = self.fallback_target(model, first) if fallback else None
            if target is None:
                raise
            from aish.llm import fallback as fallback_mod

            reply.status(fallback_mod.fallback_status(model.name, first, target) + fallback_note)
            try:
                response = attempt.run(self.env.config.models[target], messages, on_overflow)
            except AishError as second:
                raise AishError(fallback_mod.both_failed_message(model.name, first, target, second),
                                partial_text=second.partial_text) from None
            response.fell_back = target
            return response

    def fallback_target(self, model: ModelConfig, err: AishError) -> Optional[str]:
        """The configured fallback model a failed call may be retried on once, or None."""
        from aish.llm import fallback as fallback_mod

        cfg = self.env.config
        target = cfg.routing.fallback_model
        if (target == model.name or target not in cfg.models
                or not fallback_mod.should_fallback(err, cfg, text_arrived=bool(err.partial_text))):
            return None
        return target

    def account(self, model: ModelConfig, category: str, usage: Optional[Usage], messages: list,
                completion: str, reply: Reply) -> Usage:
        """Count one call: price it, estimate when the server sent nothing, warn once."""
        from aish.cost import usage as usage_mod

        env, meter = self.env, self.meter
        try:
            est_prompt = env.tokens.count_messages(model, messages)
            if usage is None:
                usage = usage_mod.estimate_usage(model, messages, completion, env.tokens)
            usage = usage_mod.price_usage(model, usage)
            if meter.usage is not None:
                meter.usage.add(model.name, category, usage, local=model.is_local, est_prompt=est_prompt)
                for line in meter.usage.check_warnings(env.config.cost):
                    reply.status(line)
            if meter.log:
                meter.log.append({"type": "usage", "model": model.name, "category": category,
                                  "local": model.is_local, "est_prompt": est_prompt,
                                  "usage": usage.to_dict()})
            if env.ledger is not None:
                env.ledger.record(conv=meter.id, model=model.name, category=category, usage=usage,
                                  local=model.is_local)
        except Exception:  # accounting must never break an answer
            env.log.exception("usage accounting failed")
        return usage or Usage(estimated=True)

    def completer(self, category: str, reply: Optional[Reply] = None,
                  timeout_default: Any = None) -> Callable[..., tuple]:
        """``complete(model, messages, max_tokens=, timeout=) -> (text, usage)``: a quiet,
        costed, redacted call for code that takes a completion function (the summarizer,
        the safety probe), without a fallback (they are bounded in time)."""
        def complete(model: ModelConfig, messages: list, *, max_tokens: Optional[int] = None,
                     timeout: Any = timeout_default, **_: Any) -> tuple:
            response = self.call(messages, category=category, reply=reply, model=model, show=False,
                                 fallback=False, max_tokens=max_tokens, timeout=timeout)
            return response.text, response.usage

        return complete


class _Attempt:
    """One call's settings, run on a model (twice at most: the fallback, or a shorter prompt)."""

    def __init__(self, caller: Caller, category: str, reply: Reply, tools: Optional[list], show: bool,
                 max_tokens: Optional[int], timeout: Any) -> None:
        self.caller, self.category, self.reply = caller, category, reply
        self.tools, self.show, self.max_tokens, self.timeout = tools or None, show, max_tokens, timeout

    def run(self, model: ModelConfig, messages: list, on_overflow: Optional[Overflow]) -> Response:
        try:
            return self._once(model, messages)
        except ContextOverflow as err:
            shorter = on_overflow(err) if on_overflow is not None and not err.partial_text else None
            if not shorter:
                raise
            return self._once(model, shorter)

    def _once(self, model: ModelConfig, messages: list) -> Response:
        caller = self.caller
        sent = caller.meter.redactor.redact_messages(messages) if caller.redacting else messages
        response = Response(model, sent=sent)
        try:
            self._stream(response)
        except Cancelled as err:
            err.partial_text = response.text
            if response.text:  # tokens were spent: counted, estimated
                caller.account(model, self.category, response.usage, sent, response.text, self.reply)
            raise
        except AishError as err:
            err.partial_text = response.text
            raise
        response.usage = caller.account(model, self.category, response.usage, sent, response.text,
                                        self.reply)
        return response

    def _stream(self, response: Response) -> None:
        """The one stream loop: text to the reply as it arrives (secrets restored), usage and
        the finish kept, text retracted when it turns out to have been reasoning."""
        reply, show = self.reply, self.show
        restore = _restorer(self.caller)
        thought = noted = False  # the model reasoned first; the user hears once that it is hidden
        kwargs: dict = {"tools": self.tools, "cancel": reply.cancel}
        if self.max_tokens is not None:
            kwargs["max_tokens"] = self.max_tokens
        if self.timeout is not None:
            kwargs["timeout"] = self.timeout
        for event in self.caller.env.stream(response.model, response.sent, **kwargs):
            if isinstance(event, TextDelta):
                chunk = restore(event.text)
                if chunk:
                    if show and thought and not noted:
                        noted = True
                        reply.status(REASONING_HIDDEN)
                    response.text += chunk
                    if show:
                        reply.text(chunk)
            elif isinstance(event, ReasoningDelta):
                thought = True
            elif isinstance(event, TextWasReasoning):
                getattr(restore, "flush", lambda: "")()  # a held-back piece of it goes too
                if show:
                    reply.status(RETRACTED)
                response.text = ""
            elif isinstance(event, Usage):
                response.usage = event
            elif isinstance(event, Finish):
                response.finish = event
        tail = getattr(restore, "flush", lambda: "")()
        if tail:
            response.text += tail
            if show:
                reply.text(tail)


def _restorer(caller: Caller) -> Callable[[str], str]:
    if not caller.redacting:
        return lambda chunk: chunk
    from aish.safety import secrets

    return secrets.streaming_restorer(caller.meter.redactor)
