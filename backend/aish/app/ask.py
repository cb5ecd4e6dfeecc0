"""One ask, end to end: route, budget, stream, fall back, run tools, extract commands.

The order matters: the model is chosen once per ask and holds for every tool
round (a conversation does not hop models mid-answer); fallback retries once,
only before any text arrived (the user never sees two answers spliced); tool
calls are approved one by one and run in order; usage is counted for every
call, estimated when the server sends none; suggested commands get a local
safety verdict.  Each model call is one ``Caller.call`` (app/model_call.py).
Nothing here prints: everything goes through the ``Reply``.
"""
from __future__ import annotations

from contextlib import nullcontext
from typing import ContextManager, Optional

from aish.app import after_answer, attach_output, fit, receipt, suggestions, tool_rounds
from aish.app.tool_rounds import offered_tools, schemas_text
from aish.app.env import AskEnv
from aish.app.judge import judge, preview
from aish.app.model_call import RETRACTED, Caller, Quiet, Response
from aish.app.sessions import Session
from aish.chat import prompts, question_cap
from aish.chat.conversation import Conversation
from aish.config.schema import Config, ModelConfig
from aish.errors import AishError, Cancelled, ConfigError
from aish.ipc.protocol import Request
from aish.ipc.reply import Reply
from aish.llm.events import AskResult, Usage

__all__ = ["AskEnv", "RETRACTED", "run_ask"]


def run_ask(env: AskEnv, session: Session, req: Request, reply: Reply) -> AskResult:
    """One ask in ``session``: its conversation gets the question and the answer (its project's
    root and files looked for once, ``ProjectContext.looking_from``)."""
    if env.project is None or not req.cwd:
        return _run_ask(env, session, req, reply)
    with env.project.looking_from(req.cwd):
        return _run_ask(env, session, req, reply)


def _run_ask(env: AskEnv, session: Session, req: Request, reply: Reply) -> AskResult:
    cfg = env.config
    conv = session.conversation
    if not cfg.models:
        raise ConfigError("no model configured",
                          hint="start a local OpenAI-compatible server or set OPENROUTER_API_KEY, "
                               "or run 'aish config init' and edit the file it names")
    after_answer.make_way(session)  # a local server's summary would hold this ask up, or cut it
    receipt.begin(session)
    if req.mode == "explain":
        return _explain(env, session, req, reply)

    from aish.llm import routing as router

    if env.project is not None and req.cwd:  # a trusted .aish.toml, safe keys only
        env.config = cfg = env.project.overlay(cfg, req.cwd, reply.status)
    result = AskResult()
    question = prompts.user_text(req.mode, req.text, req.buffer, req.cursor, req.stdin)
    question, cut = question_cap.cap(question, cfg.context.max_question_chars)
    if cut:  # a big paste: said, and in the receipt
        reply.status(cut)
        receipt.note(session, cut)
    question, _ = attach_output.attach(cfg, session, req, reply, question, env.output_runner,
                                       env.output_taps)
    model_name = cfg.default_model
    routed = router.classify_model(question, cfg)
    if routed and routed != model_name:
        reply.status(f"routed to {routed}")
        result.routed = router.classify(question)
        model_name = routed
    model = cfg.model(model_name)

    tools = offered_tools(env, req.cwd)
    system = prompts.system_prompt(shell=req.shell, tools=bool(tools),
                                   background=_background(env, req, reply), notes=_notes(env, req, reply),
                                   delegate=_delegate_note(cfg),
                                   tool_instructions=env.mcp.instructions() if tools and env.mcp else "")
    # a question left unanswered by a daemon that died mid-ask: never glue onto it
    conv.drop_unanswered("no answer: the daemon stopped during that ask")
    delta = prompts.history_delta(session.sent_history, req.history)
    context = prompts.shell_context(cwd=req.cwd, status=req.status, history=delta,
                                    attachments=_attachments(env, session, req))
    session.sent_history = list(req.history)
    conv.add_user(prompts.with_context(context, question))
    # its count needs a round trip to the tokenizer: weighed by a bound until a decision needs it
    asked, question_turn = model, conv.turns[-1]
    deferred = env.tokens is not None and fit.defer_questions(env, model, conv)
    settle = fit.settler(env, model, conv) if env.tokens is not None else None

    caller = Caller(env, session)
    summarize = _summarizer(caller, reply)
    budget_tokens, count = fit.budget(env, model, tools)  # the model's window, as its server counts
    folded_system = system + schemas_text(tools)  # the tools' schemas are sent too
    since = after_answer.first_sent(conv, max_turns=cfg.context.max_turns, budget_tokens=budget_tokens,
                                    count=count, system_prompt=folded_system, status=reply.status,
                                    settle=settle)
    on_overflow = fit.folder(env, conv, model, system, tools, reply, summarize, settle)

    texts: list[str] = []
    usages: list[Usage] = []
    rounds = 0
    answered = False
    try:
        while True:
            with _held(conv):  # the call's usage entry and its answer: one append to the log
                call = _main_call(caller, conv, model, system, tools, reply, result, on_overflow, since)
                model = call.model
                texts.append(call.text)
                if call.usage:
                    usages.append(call.usage)
                final = not call.tool_calls or env.mcp is None
                if final:
                    conv.add_assistant(call.text, usage=call.usage_dict())
            if final:
                told = call.answer_tokens()
                if told and env.tokens is not None:  # weighed by the next ask and the fold: no tokenize call
                    env.tokens.learn(model, call.text, told)
                break
            if not _run_tools(env, session, call, reply, result):
                break
            rounds += 1
            if rounds >= cfg.mcp.max_tool_depth:
                reply.status("tool-call depth limit reached")
                break
        answered = True
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
        if deferred:  # (a failed ask's question: counted when next weighed, if ever)
            if not answered:
                env.tokens.settle(asked, [question_turn.content], count=False)
            elif not env.tokens.deferred(asked, question_turn.content):
                conv.reweigh(question_turn)  # counted during the ask: its bound no longer weighs it
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
        _follow_handoffs(caller, conv, model, system, reply, result, usages)
    _suggest(caller, result, reply, req)
    # the fold (and the log's compaction) once this answer is delivered: nobody waits for a summary
    background = Quiet(log=env.log)
    summarizer = cfg.models.get(cfg.context.summarizer_model)
    env.after_answer(after_answer.fold_job(env, session, budget_tokens=budget_tokens, count=count,
                                           system_prompt=folded_system, summarize=_summarizer(caller, background),
                                           settle=settle,
                                           cancel=background.cancel if model.is_local or (
                                               summarizer is not None and summarizer.is_local) else None,
                                           warm=_warmer(caller, conv, model, system, tools, background)),
                     reply.status)
    return result


def _held(conv: Conversation) -> ContextManager[None]:
    """The log's entries this thread appends meanwhile, written as one append
    (``SessionLog.together``); nothing held without a log."""
    return conv.log.together() if conv.log is not None else nullcontext()


def _main_call(caller: Caller, conv: Conversation, model: ModelConfig, system: str, tools: list,
               reply: Reply, result: AskResult, on_overflow=None, since=None) -> Response:
    """The conversation's messages to the ask's model (one hop to the fallback model; a
    conversation too long for it folded once)."""
    call = caller.call(conv.to_messages(system, since), category="main", reply=reply, model=model,
                       tools=tools, on_overflow=on_overflow)
    if call.fell_back:
        result.fallback = call.fell_back
    return call


def _follow_handoffs(caller: Caller, conv: Conversation, model: ModelConfig, system: str,
                     reply: Reply, result: AskResult, usages: list) -> None:
    """`DELEGATE:` lines of the answer: run them, give the results back, take one more answer."""
    from aish.app import delegate

    jobs, refused = delegate.handoffs(result.text, caller.env.config.delegate.allow)
    if refused:
        reply.status(f"DELEGATE to {', '.join(refused)} ignored: not in delegate.allow")
    if not jobs or conv.turns[-1].role != "assistant":
        return
    answers = [delegate.run(caller, name, task, reply) for name, task in jobs]
    conv.add_user(delegate.results_turn(jobs, answers, caller.env.config.delegate.max_chars))
    call = _main_call(caller, conv, model, system, [], reply, result)  # depth 1: not followed
    conv.add_assistant(call.text, usage=call.usage_dict())
    result.text += call.text
    if call.usage:  # the ask's own usage covers the follow-up (delegated calls are their own)
        usages.append(call.usage)
        result.usage = _sum_usage(usages)


def _run_tools(env: AskEnv, session: Session, call: Response, reply: Reply, result: AskResult) -> bool:
    """Run the calls in order; store the assistant turn and one tool turn per answered call."""
    conv = session.conversation
    answered, wire = tool_rounds.run_tool_calls(env, session, call.tool_calls, reply, result.tool_calls)
    conv.add_assistant(call.text, tool_calls=wire or None, usage=call.usage_dict())
    for tool_call, content in answered:
        conv.add_tool(tool_call.id, content)
    return bool(answered)


def _suggest(caller: Caller, result: AskResult, reply: Reply, req: Optional[Request] = None) -> None:
    """Send every CMD: line with its safety verdict and preview (``judge``)."""
    commands = []
    for command in suggestions.extract_commands(result.text):
        command, removed = suggestions.clean_command(command)
        if removed:  # they could make the line show one command and run another
            reply.warning(suggestions.removed_note(removed))
        if command:
            commands.append(command)
    for command, (level, reason, touches) in zip(commands, judge(caller, commands, req, reply)):
        result.commands.append(command)
        result.safety.append({"command": command, "level": level, "reason": reason, "preview": touches})
        reply.command(command, level, f"{reason} — {touches}" if touches else reason)


def _explain(env: AskEnv, session: Session, req: Request, reply: Reply) -> AskResult:
    """Explain the buffer piece by piece; the conversation and the buffer stay untouched."""
    from aish.app import explain, verdicts

    command = req.buffer.strip() or req.text.strip()
    if not command:
        raise AishError("nothing to explain: no command on the line and none run yet",
                        hint="type or recall one, or name it: '? :explain CMD'")
    model = env.config.model()
    verdict = verdicts.assess(command, cwd=req.cwd)
    if verdict:
        reply.warning(f"{verdict.level}: {verdict.reason}")
        shown_preview = preview(command, req, reply)
        if shown_preview:
            reply.warning(f"would touch: {shown_preview}")
    result = AskResult(model=model.name)
    try:
        call = Caller(env, session).call(explain.explain_messages(command, req.shell), category="explain",
                                      reply=reply, model=model, fallback=False)
    except Cancelled as err:
        result.cancelled, result.text = True, err.partial_text
        return result
    result.text, result.usage = call.text, call.usage_dict()
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
    if env.project is None or not req.cwd:
        return ""
    return env.project.notes_block(req.cwd, status=reply.status)


def _attachments(env: AskEnv, session: Session, req: Request) -> list[str]:
    """The git line, then what `? :tree` / `? :diff` asked to attach to this question (taken once)."""
    pending, session.attachments = list(session.attachments), []
    if env.project is not None and req.cwd:
        line = env.project.git_line(req.cwd)
        if line:
            pending.insert(0, line)
    return pending


def _summarizer(caller: Caller, reply: Optional[Reply]):
    """Evicted turns folded into the summary by ``context.summarizer_model`` (costed ``summarize``)."""
    cfg = caller.env.config
    if not cfg.context.summarize_on_evict or cfg.context.summarizer_model not in cfg.models:
        return None
    from aish.chat import summarize

    return summarize.make_summarize_fn(cfg, caller.completer("summarize", reply))


def _warmer(caller: Caller, conv: Conversation, model: ModelConfig, system: str, tools: Optional[list],
            background: Quiet):
    """After a fold, the folded conversation to a local server for one token: its prompt cache
    then starts as the next ask's request does (app/after_answer.py).  None for a paid server."""
    if not model.is_local:
        return None

    def warm() -> None:
        turns = conv.turns
        if not turns or turns[-1].role != "assistant":  # a question came meanwhile: it is in flight
            return
        try:
            caller.call(conv.to_messages(system), category="warm-up", reply=background, model=model, tools=tools,
                        show=False, fallback=False, max_tokens=1)
        except AishError as err:  # the prompt is evaluated whatever the one token was
            caller.env.log.info("the warm-up after a fold: %s", err)

    return warm


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
