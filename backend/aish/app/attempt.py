"""One model call run on one model: fitted, priced, streamed, and sent again the way the
server takes it (``model_call.Caller`` decides the model and the fallback hop).

In order: the messages are redacted; the request is fitted to the server (``fit.plan``: its
weight against the window, the answer cap) and priced against the cost caps
(``cost_guard.check``), both before a byte leaves; the answer streams (to the user, or only to
the caller), secrets restored, text the model later marks as reasoning retracted; an empty
reply is read for what it means (``fit.why_empty``); a refusal of the tools offered or of the
answer cap's name is met once by asking again the way the server takes it; a context
overflow goes to the caller's ``on_overflow`` once.  The usage is accounted by the caller.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Optional

from aish.app import cost_guard, fit, receipt
from aish.config.schema import ModelConfig
from aish.errors import AishError, Cancelled, ContextOverflow, ParamRejected, StreamCut, ToolsRejected
from aish.llm.events import Finish, ReasoningDelta, TextDelta, TextWasReasoning, ToolCall, ToolCallDelta, Usage
from aish.llm.plan import Plan

if TYPE_CHECKING:
    from aish.app.model_call import Caller
    from aish.ipc.reply import Reply

# After the fact, since the text had streamed before its `</think>` told (events.py).
REASONING_HIDDEN = "the model reasoned before answering (reasoning hidden)"
RETRACTED = ("the text above was the model's reasoning (it closed a thought it never opened): "
             "not part of the answer, no command taken from it")

Overflow = Callable[[ContextOverflow], Optional[list]]


@dataclass
class Response:
    """What one call produced: the text (secrets restored), usage, finish, the answering model."""

    model: ModelConfig  # the model that answered: the fallback model after a hop
    text: str = ""
    usage: Optional[Usage] = None  # priced; estimated when the server sent none
    finish: Optional[Finish] = None
    fell_back: Optional[str] = None  # the fallback model's name when the call hopped
    sent: list = field(default_factory=list)  # the messages as they left (redacted)
    reasoned: bool = False  # the model produced reasoning too (its usage counts it with the text)

    @property
    def tool_calls(self) -> tuple[ToolCall, ...]:
        return self.finish.tool_calls if self.finish is not None else ()

    def usage_dict(self) -> Optional[dict]:
        return self.usage.to_dict() if self.usage is not None else None

    def answer_tokens(self) -> Optional[int]:
        """The answer text's tokens as its server counted them (``completion_tokens``), when
        they are that text's alone: reported, not estimated, no reasoning, no tool call."""
        usage = self.usage
        if usage is None or usage.estimated or self.reasoned or self.tool_calls or not self.text:
            return None
        return usage.completion_tokens or None


class Attempt:
    """One call's settings, run on a model (twice at most: the fallback, or a shorter prompt)."""

    def __init__(self, caller: Caller, category: str, reply: Reply, tools: Optional[list], show: bool,
                 max_tokens: Optional[int], timeout: Any,
                 allowance: Optional[cost_guard.Allowance] = None) -> None:
        self.caller, self.category, self.reply = caller, category, reply
        self.tools, self.show, self.max_tokens, self.timeout = tools or None, show, max_tokens, timeout
        self.allowance = allowance

    def run(self, model: ModelConfig, messages: list, on_overflow: Optional[Overflow]) -> Response:
        try:
            return self._as_it_takes(model, messages)
        except ContextOverflow as err:
            limits = self.caller.env.limits
            if limits is not None:
                limits.learn_window(model, err.window)
            shorter = on_overflow(err) if on_overflow is not None and not err.partial_text else None
            if not shorter:
                raise
            return self._as_it_takes(model, shorter)

    def _as_it_takes(self, model: ModelConfig, messages: list) -> Response:
        """The call, and once more the way the server takes it when it refused the tools
        offered or named another parameter for the answer cap (both remembered)."""
        limits, reply = self.caller.env.limits, self.reply
        tools = self.tools
        if tools and limits is not None and limits.of(model).tools_refused:
            state = limits.of(model)
            if not state.tools_said:
                state.tools_said = True
                reply.status(f"tools not offered: {model.name}'s server refuses them ({state.tools_refused})")
            tools = None
        retried: set = set()
        while True:
            try:
                return self._once(model, messages, tools)
            except ToolsRejected as err:
                if not tools or err.partial_text or "tools" in retried:
                    raise
                retried.add("tools")
                if limits is not None:
                    limits.refuse_tools(model, err.message)
                    limits.of(model).tools_said = True
                reply.status(f"{model.name}'s server refused the tools offered ({err.message}); "
                             f"answering without them ({err.hint})")
                tools = None
            except ParamRejected as err:
                if limits is None or "param" in retried:
                    raise
                retried.add("param")
                limits.use_param(model, err.instead)

    def _once(self, model: ModelConfig, messages: list, tools: Optional[list]) -> Response:
        caller = self.caller
        sent = caller.meter.redactor.redact_messages(messages) if caller.redacting else messages
        bounded = cost_guard.bounded(caller.env.config.cost, self.allowance)
        planned = fit.plan(caller.env, model, sent, tools, self.max_tokens, bounded=bounded)
        if planned is not None:
            cost_guard.check(caller.env, caller.meter, model, planned, self.allowance)
        receipt.record(caller.meter, self.category, model, sent, tools)  # `aish sent`: what leaves
        response = Response(model, sent=sent)
        try:
            self._stream(response, tools, planned)
        except Cancelled as err:
            err.partial_text = response.text
            if response.text:  # tokens were spent: counted, estimated
                caller.account(model, self.category, response.usage, sent, response.text, self.reply, planned)
            raise
        except StreamCut as err:
            if not response.text and not response.tool_calls:
                raise fit.why_empty(caller.env, model, sent, planned, cut=err) from None
            err.partial_text = response.text
            raise
        except ContextOverflow as err:  # what the server counted teaches the scale of ours
            if planned is not None and err.prompt_tokens and caller.env.limits is not None:
                caller.env.limits.observe(model, planned.exact_prompt_tokens(), err.prompt_tokens, told=True)
            err.partial_text = response.text
            raise
        except AishError as err:
            err.partial_text = response.text
            raise
        if not response.text and not response.tool_calls:
            raise fit.why_empty(caller.env, model, sent, planned, finish=response.finish)
        if response.finish is not None and response.finish.reason == "length" and self.show:
            self.reply.status(fit.capped_note(model, planned))
        response.usage = caller.account(model, self.category, response.usage, sent, response.text,
                                        self.reply, planned)
        return response

    def _stream(self, response: Response, tools: Optional[list], planned: Optional[Plan]) -> None:
        """The one stream loop: text to the reply as it arrives (secrets restored), usage and
        the finish kept, text retracted when it turns out to have been reasoning."""
        reply, show = self.reply, self.show
        restore = _restorer(self.caller)
        thought = noted = False  # the model reasoned first; the user hears once that it is hidden
        kwargs: dict = {"tools": tools, "cancel": reply.cancel}
        max_tokens = planned.answer_tokens if planned is not None else self.max_tokens
        if max_tokens is not None:
            kwargs["max_tokens"] = max_tokens
        if planned is not None and planned.answer_param != "max_tokens":
            kwargs["answer_param"] = planned.answer_param
        if self.timeout is not None:
            kwargs["timeout"] = self.timeout
        stream = self.caller.env.stream
        assert stream is not None  # AskEnv fills it in
        with fit.Waiting(reply.status if show else None, response.model) as waiting:
            for event in stream(response.model, response.sent, **kwargs):
                if isinstance(event, (TextDelta, ToolCallDelta, ReasoningDelta)):
                    waiting.heard()
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
                    thought = response.reasoned = True
                elif isinstance(event, TextWasReasoning):
                    response.reasoned = True
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
