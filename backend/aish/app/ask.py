"""One ask, end to end: route, budget, stream, fall back, run tools, extract commands.

The order matters: the model is chosen once per ask and holds for every tool
round (a conversation does not hop models mid-answer); fallback retries once,
only before any text arrived (the user never sees two answers spliced); tool
calls are approved one by one and run in order; usage is counted for every
call, estimated when the server sends none; suggested commands get a local
safety verdict.
Nothing here prints: everything goes through the ``Reply``.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Optional

from aish.app import output, suggestions
from aish.app.judge import judge, preview
from aish.chat import prompts
from aish.config.schema import Config, ModelConfig
from aish.chat.conversation import Conversation
from aish.errors import AishError, Cancelled, ConfigError
from aish.llm.events import AskResult, Finish, ReasoningDelta, TextDelta, TextWasReasoning, Usage
from aish.ipc.protocol import Request
from aish.ipc.reply import Reply

if TYPE_CHECKING:
    from aish.cost.ledger import Ledger
    from aish.safety.opinions import Opinions
    from aish.llm.tokens import TokenCounter
    from aish.mcp.manager import McpManager

# After the fact, since the text had streamed before its `</think>` told (events.py).
REASONING_HIDDEN = "the model reasoned before answering (reasoning hidden)"
RETRACTED = ("the text above was the model's reasoning (it closed a thought it never opened): "
             "not part of the answer, no command taken from it")


@dataclass
class AskEnv:
    """Daemon-wide collaborators of an ask; tests inject fakes for any of them."""

    config: Config
    tokens: TokenCounter
    ledger: Optional[Ledger] = None
    mcp: Optional[McpManager] = None
    stream: Optional[Callable] = None  # broker.chat_stream
    complete: Optional[Callable] = None  # broker.chat_complete
    output_runner: Optional[Callable] = None  # runs a terminal's CLI (context.sources.run)
    opinions: Optional[Opinions] = None  # second opinions (a shared daemon-wide one when None)
    log: logging.Logger = field(default_factory=lambda: logging.getLogger("aish"))
    memory: Any = None  # aish.context.memory.Memory
    project: Any = None  # aish.context.project.ProjectContext

    def __post_init__(self) -> None:
        if self.stream is None or self.complete is None:
            from aish.llm import broker

            self.stream = self.stream or broker.chat_stream
            self.complete = self.complete or broker.chat_complete


@dataclass
class _Call:
    """What one model call produced."""

    model: ModelConfig
    text: str = ""
    usage: Optional[Usage] = None
    finish: Optional[Finish] = None


def run_ask(env: AskEnv, conv: Conversation, req: Request, reply: Reply) -> AskResult:
    cfg = env.config
    if not cfg.models:
        raise ConfigError("no model configured",
                          hint="start a local OpenAI-compatible server or set OPENROUTER_API_KEY, "
                               "or run 'aish config init' and edit the file it names")
    if req.mode == "explain":
        return _explain(env, conv, req, reply)

    from aish.llm import routing as router

    if env.project is not None and req.cwd:  # a trusted .aish.toml, safe keys only
        env.config = cfg = env.project.overlay(cfg, req.cwd, reply.status)
    result = AskResult()
    question = prompts.user_text(req.mode, req.text, req.buffer, req.cursor, req.stdin)
    question, _ = output.attach(cfg, conv, req, reply, question, env.output_runner)
    model_name = cfg.default_model
    routed = router.classify_model(question, cfg)
    if routed and routed != model_name:
        reply.status(f"routed to {routed}")
        result.routed = router.classify(question)
        model_name = routed
    model = cfg.model(model_name)

    tools = env.mcp.openai_tools() if env.mcp is not None and env.mcp.has_tools() else []
    system = prompts.system_prompt(shell=req.shell, tools=bool(tools),
                                   background=_background(env, req, reply), notes=_notes(env, req, reply),
                                   delegate=_delegate_note(cfg))
    # a question left unanswered by a daemon that died mid-ask: never glue onto it
    conv.drop_unanswered("no answer: the daemon stopped during that ask")
    delta = prompts.history_delta(conv.sent_history, req.history)
    context = prompts.shell_context(cwd=req.cwd, status=req.status, history=delta,
                                    attachments=_attachments(env, conv, req))
    conv.sent_history = list(req.history)
    conv.add_user(prompts.with_context(context, question))
    conv.enforce_budget(max_turns=cfg.context.max_turns, budget_tokens=cfg.context.budget_tokens,
                        count=lambda text: env.tokens.count(model, text), system_prompt=system,
                        summarize=_summarizer(env, conv, reply), status=reply.status,
                        max_summary_chars=cfg.context.max_summary_chars,
                        slack=cfg.context.evict_slack)

    texts: list[str] = []
    usages: list[Usage] = []
    rounds = 0
    try:
        while True:
            call = _call_with_fallback(env, conv, model, system, tools, reply, result)
            model = call.model
            texts.append(call.text)
            if call.usage:
                usages.append(call.usage)
            calls = call.finish.tool_calls if call.finish else ()
            if not calls or env.mcp is None:
                conv.add_assistant(call.text, usage=call.usage.to_dict() if call.usage else None)
                break
            if not _run_tools(env, conv, call, reply, result):
                break
            rounds += 1
            if rounds >= cfg.mcp.max_tool_depth:
                reply.status("tool-call depth limit reached")
                break
    except Cancelled as err:
        result.cancelled = True
        texts.append(err.partial_text)
    except AishError as err:
        partial = err.partial_text
        if partial:
            texts.append(partial)
            conv.add_assistant(partial + "\n[answer cut short]")
        else:  # nothing answered: the conversation stays as it was before this ask
            conv.drop_unanswered(" ".join(str(err).split())[:200])
        raise
    finally:
        result.text = "".join(texts)
        result.model = model.name
        result.usage = _sum_usage(usages)
    if result.cancelled:
        if result.text:
            conv.add_assistant(result.text + "\n[cancelled by the user]")
        else:
            conv.drop_unanswered("cancelled")
        return result
    if cfg.delegate.allow:
        _follow_handoffs(env, conv, model, system, reply, result, usages)
    _suggest(env, conv, result, reply, model, req)
    return result


def _follow_handoffs(env: AskEnv, conv: Conversation, model: ModelConfig, system: str,
                     reply: Reply, result: AskResult, usages: list) -> None:
    """`DELEGATE:` lines of the answer: run them, give the results back, take one more answer."""
    from aish.app import delegate

    jobs, refused = delegate.handoffs(result.text, env.config.delegate.allow)
    if refused:
        reply.status(f"DELEGATE to {', '.join(refused)} ignored: not in delegate.allow")
    if not jobs or conv.turns[-1].role != "assistant":
        return
    answers = [delegate.run(env, conv, name, task, reply) for name, task in jobs]
    conv.add_user(delegate.results_turn(jobs, answers, env.config.delegate.max_chars))
    call = _call_with_fallback(env, conv, model, system, [], reply, result)  # depth 1: not followed
    conv.add_assistant(call.text, usage=call.usage.to_dict() if call.usage else None)
    result.text += call.text
    if call.usage:  # the ask's own usage covers the follow-up (delegated calls are their own)
        usages.append(call.usage)
        result.usage = _sum_usage(usages)


def fallback_target(cfg: Config, model: ModelConfig, err: AishError, call: _Call) -> Optional[str]:
    """The configured fallback model a failed call may be retried on once, or None."""
    from aish.llm import fallback

    target = cfg.routing.fallback_model
    if (target == model.name or target not in cfg.models
            or not fallback.should_fallback(err, cfg, text_arrived=bool(call.text))):
        return None
    return target


def _call_with_fallback(env: AskEnv, conv: Conversation, model: ModelConfig, system: str,
                        tools: list, reply: Reply, result: AskResult) -> _Call:
    """Stream once; on an eligible failure before any text, retry once on the fallback model."""
    from aish.llm import fallback

    cfg = env.config
    call = _Call(model)
    try:
        return _stream(env, conv, call, system, tools, reply)
    except (Cancelled, ConfigError):
        raise
    except AishError as first:
        target = fallback_target(cfg, model, first, call)
        if target is None:
            raise
        reply.status(fallback.fallback_status(model.name, first, target))
        result.fallback = target
        retry = _Call(cfg.models[target])
        try:
            return _stream(env, conv, retry, system, tools, reply)
        except (Cancelled, ConfigError):
            raise
        except AishError as second:
            raise AishError(fallback.both_failed_message(model.name, first, target, second)) from None


def _stream(env: AskEnv, conv: Conversation, call: _Call, system: str, tools: list,
            reply: Reply) -> _Call:
    messages = conv.to_messages(system)
    sent = conv.redactor.redact_messages(messages) if _redacting(env, conv) else messages
    _consume(env, conv, call, sent, tools, reply)
    call.usage = _account(env, conv, call.model, "main", call.usage, sent, call.text, reply)
    return call


def _consume(env: AskEnv, conv: Conversation, call: _Call, sent: list, tools: list,
             reply: Reply) -> None:
    """Stream one model call into ``call``: text goes to the reply as it arrives, secrets
    restored; usage and the finish are kept.  On a failure (a cancel too) the text the
    user saw rides on the error as ``partial_text``: kept, never lost."""
    restore = _restorer(env, conv)
    thought = noted = False  # the model reasoned first; the user hears once that it is hidden
    try:
        for event in env.stream(call.model, sent, tools=tools or None, cancel=reply.cancel):
            if isinstance(event, TextDelta):
                chunk = restore(event.text)
                if chunk:
                    if thought and not noted:
                        noted = True
                        reply.status(REASONING_HIDDEN)
                    call.text += chunk
                    reply.text(chunk)
            elif isinstance(event, ReasoningDelta):
                thought = True
            elif isinstance(event, TextWasReasoning):
                call.text = _retract(restore, reply)
            elif isinstance(event, Usage):
                call.usage = event
            elif isinstance(event, Finish):
                call.finish = event
    except AishError as err:
        err.partial_text = call.text
        raise
    tail = getattr(restore, "flush", lambda: "")()
    if tail:
        call.text += tail
        reply.text(tail)


def _account(env: AskEnv, conv: Conversation, model: ModelConfig, category: str,
             usage: Optional[Usage], messages: list, completion: str, reply: Reply) -> Usage:
    """Count one call: price it, estimate when the server sent nothing, warn once."""
    from aish.cost import usage as usage_mod

    try:
        est_prompt = env.tokens.count_messages(model, messages)
        if usage is None:
            usage = usage_mod.estimate_usage(model, messages, completion, env.tokens)
        usage = usage_mod.price_usage(model, usage)
        if conv.usage is not None:
            conv.usage.add(model.name, category, usage, local=model.is_local, est_prompt=est_prompt)
            for line in conv.usage.check_warnings(env.config.cost):
                reply.status(line)
        if conv.log:
            conv.log.append({"type": "usage", "model": model.name, "category": category,
                             "local": model.is_local, "est_prompt": est_prompt,
                             "usage": usage.to_dict()})
        if env.ledger is not None:
            env.ledger.record(conv=conv.id, model=model.name, category=category, usage=usage,
                              local=model.is_local)
    except Exception:  # accounting must never break an answer
        env.log.exception("usage accounting failed")
    return usage or Usage(estimated=True)


def _run_tools(env: AskEnv, conv: Conversation, call: _Call, reply: Reply, result: AskResult) -> bool:
    """Run the calls in order; store the assistant turn and one tool turn per answered call."""
    answered, wire = run_tool_calls(env, conv, call, reply, result)
    conv.add_assistant(call.text, tool_calls=wire or None,
                       usage=call.usage.to_dict() if call.usage else None)
    for tool_call, content in answered:
        conv.add_tool(tool_call.id, content)
    return bool(answered)


def run_tool_calls(env: AskEnv, conv: Conversation, call: _Call, reply: Reply,
                   result: Optional[AskResult] = None) -> tuple[list, list]:
    """Run a model's tool calls in order, each through the approval policy; returns the
    answered ``(call, content)`` pairs and their wire form for the assistant turn."""
    from aish.mcp import bridge

    answered = []
    for tool_call in call.finish.tool_calls:
        if reply.cancel.cancelled:
            raise Cancelled()
        outcome = bridge.run_tool_call(tool_call, env.mcp, reply, env.config.mcp,
                                       conv.always_approved, reply.cancel)
        if result is not None:
            result.tool_calls.append({"name": outcome.user_name, "denied": outcome.denied,
                                      "is_error": outcome.is_error,
                                      "answered": outcome.content is not None})
        if outcome.content is not None:
            answered.append((tool_call, outcome.content))
    wire = [{"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c, _ in answered]
    return answered, wire


def _suggest(env: AskEnv, conv: Conversation, result: AskResult, reply: Reply,
             model: ModelConfig, req: Optional[Request] = None) -> None:
    """Send every CMD: line with its safety verdict and preview (``judge``)."""
    commands = []
    for command in suggestions.extract_commands(result.text):
        command, removed = suggestions.clean_command(command)
        if removed:  # they could make the line show one command and run another
            reply.warning(suggestions.removed_note(removed))
        if command:
            commands.append(command)
    for command, (level, reason, touches) in zip(commands, judge(env, conv, commands, req, reply)):
        result.commands.append(command)
        result.safety.append({"command": command, "level": level, "reason": reason, "preview": touches})
        reply.command(command, level, f"{reason} — {touches}" if touches else reason)


def _explain(env: AskEnv, conv: Conversation, req: Request, reply: Reply) -> AskResult:
    """Explain the buffer piece by piece; the conversation and the buffer stay untouched."""
    from aish.app import explain
    from aish.safety import assess as safety

    command = req.buffer.strip() or req.text.strip()
    if not command:
        raise AishError("nothing to explain: the prompt line is empty",
                        hint="type or recall a command first")
    model = env.config.model()
    verdict = safety.assess(command, cwd=req.cwd)
    if verdict:
        reply.warning(f"{verdict.level}: {verdict.reason}")
        shown_preview = preview(command, req, reply)
        if shown_preview:
            reply.warning(f"would touch: {shown_preview}")
    messages = explain.explain_messages(command, req.shell)
    sent = conv.redactor.redact_messages(messages) if _redacting(env, conv) else messages
    result = AskResult(model=model.name)
    call = _Call(model)
    try:
        _consume(env, conv, call, sent, [], reply)
    except Cancelled:
        result.cancelled = True
    result.text = call.text
    usage = _account(env, conv, model, "explain", call.usage, sent, call.text, reply)
    result.usage = usage.to_dict()
    return result


def _background(env: AskEnv, req: Request, reply: Reply) -> str:
    """The `[background]` memory block; empty when no memory is wired, it is empty or unreadable
    (an unreadable file costs a status line, never the answer)."""
    if env.memory is None:
        return ""
    try:
        return env.memory.render()
    except AishError as err:
        reply.status(f"{err} (answering without it)")
        return ""


def _delegate_note(cfg: Config) -> str:
    from aish.app import delegate

    return delegate.system_note(cfg.delegate.allow)


def _notes(env: AskEnv, req: Request, reply: Reply) -> str:
    """Trusted project notes for the ask's cwd (untrusted ones are reported, never sent)."""
    project = getattr(env, "project", None)
    if project is None or not req.cwd:
        return ""
    return project.notes_block(req.cwd, status=reply.status)


def _attachments(env: AskEnv, conv: Conversation, req: Request) -> list[str]:
    """The git line, then what `? :tree` / `? :diff` asked to attach to this question (taken once)."""
    pending, conv.attachments = list(getattr(conv, "attachments", []) or []), []
    if env.project is not None and req.cwd:
        line = env.project.git_line(req.cwd)
        if line:
            pending.insert(0, line)
    return pending


def _summarizer(env: AskEnv, conv: Conversation, reply: Reply):
    cfg = env.config
    if not cfg.context.summarize_on_evict or cfg.context.summarizer_model not in cfg.models:
        return None
    from aish.chat import summarize

    model = cfg.models[cfg.context.summarizer_model]

    def on_usage(name: str, usage: Usage) -> None:
        _account(env, conv, cfg.models.get(name, model), "summarize", usage, [], "", reply)

    def estimate(messages: list, text: str) -> Usage:
        from aish.cost.usage import estimate_usage

        return estimate_usage(model, messages, text, env.tokens)

    redact = conv.redactor.redact_messages if _redacting(env, conv) else None
    return summarize.make_summarize_fn(cfg, env.complete, on_usage=on_usage, redact=redact,
                                       estimate=estimate)


def _redacting(env: AskEnv, conv: Conversation) -> bool:
    return env.config.secrets.redact and conv.redactor is not None


def _retract(restore: Callable[[str], str], reply: Reply) -> str:
    """The text streamed so far was the model's reasoning: say so, keep none of it."""
    getattr(restore, "flush", lambda: "")()  # a held-back piece of it goes too
    reply.status(RETRACTED)
    return ""


def _restorer(env: AskEnv, conv: Conversation) -> Callable[[str], str]:
    if not _redacting(env, conv):
        return lambda chunk: chunk
    from aish.safety import secrets

    return secrets.streaming_restorer(conv.redactor)


def _sum_usage(usages: list[Usage]) -> Optional[dict]:
    if not usages:
        return None
    costs = [u.cost for u in usages if u.cost is not None]
    return {
        "prompt_tokens": sum(u.prompt_tokens for u in usages),
        "completion_tokens": sum(u.completion_tokens for u in usages),
        "total_tokens": sum(u.total_tokens for u in usages),
        "cost": sum(costs) if costs else None,
        "estimated": any(u.estimated for u in usages),
    }
