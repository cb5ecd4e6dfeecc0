"""One costed, redacted model call: every call aish makes to a model goes through ``Caller.call``.

In order, for every caller (ask, explain, delegate, the safety probe, summaries, norris):
the messages are redacted (no secret leaves the machine), the answer streams (to the
user as it arrives, or only to the caller with ``show=False``), placeholders are
restored in what comes back, text the model later marks as reasoning is retracted,
the usage is accounted under the call's category (priced, estimated when the server
sent none, into the session's totals, its log and the ledger), and a call that failed
before any text, the way a server that is down fails, is retried once on
``routing.fallback_model``.

Before a byte leaves, the request is fitted to its server (``app/fit.py``: its weight as the
server counts it against the window, the answer cap) and priced against the cost caps
(``app/cost_guard.py``).  A server that refuses the tools offered, or names another
parameter for the answer cap, is asked once more the way it takes; an empty reply is
never a silent success (an overflow, or an ``EmptyAnswer``).

What stays with the caller: the category, whether text reaches the user, whether a
fallback is allowed, its own spending cap (``allowance``), and what to do when the prompt
does not fit the model's context (``on_overflow`` may return shorter messages to retry
once; without it the ``ContextOverflow`` error reaches the caller, who may fold and call
again).  A context overflow never hops to the fallback model: it would fail the same way
or cost money for a conversation that only needed folding.  A call
with no ``reply`` runs quietly in the background (its own cancel token; status lines
go to the log).  Modelled on the idea of llm's ``Response``: the caller gets one
object with the text, the usage, the finish and which model answered.
"""
from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, Optional, Protocol

from aish.app import cost_guard
from aish.app.attempt import REASONING_HIDDEN, RETRACTED, Attempt, Overflow, Response
from aish.config.schema import ModelConfig
from aish.errors import AishError, ContextOverflow, CostCapReached
from aish.ipc.cancel import CancelToken
from aish.llm.events import Usage
from aish.llm.plan import Plan

if TYPE_CHECKING:
    from aish.app.env import AskEnv
    from aish.ipc.reply import Reply

__all__ = ["REASONING_HIDDEN", "RETRACTED", "Caller", "Meter", "Quiet", "Response"]



class Meter(Protocol):
    """Whom a call is redacted and costed for: a shell's session (or a scratch one)."""

    id: str
    usage: Any  # aish.cost.usage.UsageTotals, or None: not counted per session
    redactor: Any  # aish.safety.secrets.Redactor, or None: nothing to redact with
    log: Any  # aish.chat.session_log.SessionLog, or None


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

    def proposal(self, state: str, command: str = "") -> None:
        pass

    def ask(self, question: str, timeout: float) -> Optional[str]:
        return None

    def input(self, prompt: str, timeout: float) -> Optional[str]:
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
             timeout: Any = None, on_overflow: Optional[Overflow] = None,
             allowance: Optional[cost_guard.Allowance] = None) -> Response:
        """One model call: see the module's docstring.  ``model`` defaults to the config's
        default; ``show=False`` keeps the text from the user (it is in the Response).

        Raises ``Cancelled`` (its ``partial_text`` holds what arrived) or an ``AishError``
        whose ``partial_text`` holds the text the user saw, never lost."""
        reply = reply if reply is not None else Quiet(log=self.env.log)
        model = model or self.env.config.model()
        attempt = Attempt(self, category, reply, tools, show, max_tokens, timeout, allowance)
        try:
            return attempt.run(model, messages, on_overflow)
        except (ContextOverflow, CostCapReached):  # fails the same way elsewhere: the caller's
            raise
        except AishError as first:
            target = self.fallback_target(model, first) if fallback else None
            if target is None:
                raise
            from aish.llm import fallback as fallback_mod

            reply.status(fallback_mod.fallback_status(model.name, first, target) + fallback_note)
            try:
                response = attempt.run(self.env.config.models[target], messages, on_overflow)
            except CostCapReached:
                raise
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
                completion: str, reply: Reply, planned: Optional[Plan] = None) -> Usage:
        """Count one call: price it, estimate when the server sent nothing, warn once.  The
        prompt's estimate is the fitted one (template tokens counted) when there is one."""
        from aish.cost import usage as usage_mod

        env, meter = self.env, self.meter
        try:
            est_prompt = _estimate(env, model, messages, planned, reported=usage is not None)
            if usage is None:
                usage = usage_mod.estimate_usage(model, messages, completion, env.tokens)
                if planned is not None and est_prompt is not None:  # (counted: not reported)
                    usage = replace(usage, prompt_tokens=est_prompt,
                                    total_tokens=est_prompt + usage.completion_tokens)
            elif est_prompt is not None and planned is not None and env.limits is not None and usage.prompt_tokens:
                env.limits.observe(model, est_prompt, usage.prompt_tokens)
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


def _estimate(env: AskEnv, model: ModelConfig, messages: list, planned: Optional[Plan], *,
              reported: bool) -> Optional[int]:
    """The prompt's weight as counted here: what the calibration compares with the server's
    figure (``Limits.observe``) and usage's ``~est``.  None when the plan weighed it by upper
    bounds and the server told its own figure: counting the bounds takes a tokenize request
    each, so only a sample of such calls is counted (``Limits.sample``), and usage keeps no
    estimate made of bounds."""
    if planned is None:
        return env.tokens.count_messages(model, messages)
    if planned.by_bounds and reported and not (env.limits is not None and env.limits.sample(model)):
        return None
    return planned.exact_prompt_tokens()
