"""Norris: a task worked toward step by step, each step a command on the user's prompt line.

aish runs nothing: the planner proposes one command, the shell puts it on the
prompt line, the user runs it (or edits it, or autorun runs a no-risk one), and
the shell's precmd hook reports what ran with its status and duration.  That
report is the request that plans the next step, so the loop closes without a
new question.

Rules kept from the design: the planner's model is fixed when the task starts
(no routing inside the loop); a failed call may be retried once on the fallback
model when ``routing.fallback`` is on, for that step only; the planner's system
message has no rolling summary and no background memory and ends with the
``[NORRIS MODE]`` block; every planner call is costed as ``norris`` (the safety
second opinion as ``probe``); ``HALT:`` stops, ``DONE:`` ends with one line;
``max_steps``, ``max_dollars`` (weighed before each planner call with the cost caps' estimate,
app/cost_guard.py) and ``max_failures`` failed steps in a row halt.
"""
from __future__ import annotations

from typing import Optional

from aish.app import cost_guard, norris_autorun, norris_fold, receipt, suggestions
from aish.app.env import AskEnv
from aish.app.tool_rounds import offered_tools
from aish.app.judge import judge
from aish.app.model_call import Caller, Response
from aish.app.norris_task import Task
from aish.app.sessions import Session
from aish.app.tool_rounds import run_tool_calls
from aish.chat import prompts
from aish.errors import AishError, Cancelled, ConfigError, ContextOverflow, CostCapReached, NotFound
from aish.ipc.protocol import Request
from aish.ipc.reply import Reply
from aish.llm.events import AskResult

_MODE = """[NORRIS MODE]
You are working toward a goal in the user's shell, one command per answer. The goal:
{goal}
Answer with exactly one of these, on its own line, after at most one short sentence:
CMD: <the next command>      (the user's shell runs it; you then get its exit status)
DONE: <one line saying what was achieved>
HALT: <why you cannot or should not go on>
When a step fails, look at its status and fix it. Say HALT rather than guess at anything destructive."""


def start(env: AskEnv, session: Session, req: Request, reply: Reply, goal: str) -> AskResult:
    """A new task in this conversation (a running one is replaced: the user asked anew)."""
    cfg = env.config
    if not cfg.models:
        raise ConfigError("no model configured", hint="run 'aish config init' and edit the file it names")
    task = Task(goal=goal, model=cfg.model().name, shell=req.shell, cwd=req.cwd, workdir=req.cwd)
    receipt.begin(session)  # `aish sent`: what this step's planning sends
    where = f"\ncwd: {req.cwd}" if req.cwd else ""
    task.messages.append({"role": "user", "content": f"Goal: {goal}{where}\nWhat is the first step?"})
    session.conversation.add_user(f"[norris task] {goal}")
    return _plan(env, session, task, reply)


def report(env: AskEnv, session: Session, req: Request, reply: Reply, status: int, ms: int,
           command: str) -> AskResult:
    """The shell ran a command while a step waited: tell the planner, plan the next step."""
    task = Task.from_dict(session.task)
    if task is None or task.state != "waiting":
        reply.task("off")  # a shell that still thinks a task runs stops reporting
        return AskResult()
    task.ran.append([command, status, ms])
    receipt.begin(session)
    edited = "" if command == task.proposed else f" (the user ran this instead of `{task.proposed}`)"
    printed = _output(env, session, req, reply, command, status)
    if printed:  # the task's data, not the user's words (instructions in it stop autorun)
        printed = norris_autorun.as_data(task, f"step {task.steps}'s output", printed)
    if req.cwd and req.cwd != task.cwd:  # volatile context travels with the turn it belongs to
        task.cwd = req.cwd
        edited += f"\ncwd now: {req.cwd}"
    task.messages.append({"role": "user", "content":
                          f"Step {task.steps} ran: `{command}`{edited}\nexit status {status}, {ms} ms"
                          + (f"\n\n{printed}" if printed else "")})
    task.failures = task.failures + 1 if status != 0 else 0
    if task.failures >= env.config.norris.max_failures:
        return _halt(session, task, reply, f"{task.failures} failed steps in a row "
                                        f"(last: `{command}` exited {status})")
    return _plan(env, session, task, reply)


def _output(env: AskEnv, session: Session, req: Request, reply: Reply, command: str,
            status: int) -> str:
    """What the step printed, when the terminal offers a source (context/output.py): the
    same capture and cleaning as for a question, and the same status line about it."""
    if not req.interactive:
        return ""
    from aish.app.attach_output import read

    term = {k: v for k, v in req.extra.items() if isinstance(v, str)}
    try:
        out = read(term, command, env.config, env.output_runner, env.output_taps, exit_code=status)
    except Exception:  # a capture problem must not stop the task
        env.log.exception("norris: reading the step's output failed")
        return ""
    if out is None:
        return ""
    if out.status():
        reply.status(out.status())
        receipt.note(session, out.status())
    return out.block() if out.text else ""


def resume(env: AskEnv, session: Session, req: Request, reply: Reply) -> AskResult:
    """Continue a task after a halt or a daemon restart: re-propose a waiting step, else plan."""
    task = Task.from_dict(session.task)
    if task is None or task.state == "done":
        raise NotFound("no task to resume in this shell", hint="start one: ? :norris GOAL")
    if task.state == "waiting" and task.proposed:
        reply.status(f"norris: step {task.steps} again: {task.proposed}")
        _propose(env, session, task, reply, task.proposed)
        return AskResult(commands=[task.proposed], model=task.model)
    task.state, task.reason, task.failures = "planning", "", 0
    receipt.begin(session)
    task.steps_before, task.spent_before = task.steps, task.spent
    task.messages.append({"role": "user", "content": "Continue with the next step."})
    return _plan(env, session, task, reply)


def halt(session: Session, reason: str = "stopped by the user") -> Optional[Task]:
    """``? :halt``: the task stops now (its state stays, for ``resume``)."""
    task = Task.from_dict(session.task)
    if task is None or not task.active:
        return None
    task.state, task.reason, task.proposed = "halted", reason, ""
    session.set_task(task.to_dict())
    return task


def _plan(env: AskEnv, session: Session, task: Task, reply: Reply) -> AskResult:
    cfg = env.config
    limits = cfg.norris
    if task.steps - task.steps_before >= limits.max_steps:
        return _halt(session, task, reply, f"max steps ({limits.max_steps}) reached")
    if limits.max_dollars is not None and task.spent - task.spent_before >= limits.max_dollars:
        return _halt(session, task, reply, f"max dollars (${limits.max_dollars:.4f}) reached: "
                                        f"${task.spent:.4f} spent")
    task.state = "planning"
    session.set_task(task.to_dict())
    # MCP tools are offered as in any ask; each call follows the approval policy (auto_approve,
    # "always" answers, trusted read-only tools) and is asked about otherwise
    tools = offered_tools(env)
    # no background memory, no project notes, no summary: the same bytes for the whole task
    system = prompts.system_prompt(shell=task.shell, tools=bool(tools),
                                   tool_instructions=env.mcp.instructions() if tools and env.mcp else "") \
        + "\n\n" + _MODE.format(goal=task.goal) + "\n" + norris_autorun.system_note(task)
    try:
        call = _plan_with_tools(env, session, task, system, tools, reply)
    except Cancelled as err:
        _halt(session, task, reply, "stopped by the user (Ctrl-C while planning)")
        return AskResult(text=err.partial_text, cancelled=True, model=task.model)
    except CostCapReached as err:  # weighed before it was sent: the task halts as at max_steps
        return _halt(session, task, reply, err.message)
    except AishError as err:
        _halt(session, task, reply, f"the planner failed: {err}")
        raise
    text = call.text
    if text and not text.endswith("\n"):
        reply.text("\n")  # status lines and the next prompt start on a line of their own
    task.messages.append({"role": "assistant", "content": text})
    result = AskResult(text=text, model=task.model)
    verdict, said = _verdict(text)
    if verdict == "DONE":
        task.state, task.reason, task.proposed = "done", said or "done", ""
        session.set_task(task.to_dict())
        session.conversation.add_assistant(f"DONE: {task.reason}")
        reply.status(f"norris: done: {task.reason}")
        reply.task("off")
        return result
    if verdict == "HALT":
        _halt(session, task, reply, said or "the planner halted")
        return result
    commands = [suggestions.clean_command(c)[0] for c in suggestions.extract_commands(text)]
    commands = [c for c in commands if c]
    if not commands:
        _halt(session, task, reply, "the planner proposed no step (no CMD:, DONE: or HALT: line)")
        return result
    task.steps += 1
    result.commands.append(commands[0])
    _propose(env, session, task, reply, commands[0])
    return result


def _propose(env: AskEnv, session: Session, task: Task, reply: Reply, command: str) -> None:
    """The step goes to the prompt line with its safety verdict; under autorun it runs by
    itself only when known to be harmless (app/norris_autorun.py), else a line says why it waits."""
    level, reason = _safety(env, session, task, command, reply)
    task.state, task.proposed = "waiting", command
    session.set_task(task.to_dict())
    reply.command(command, level, reason)
    auto, why = norris_autorun.decide(env.config.norris, task, command, level)
    if why:
        reply.status(f"norris: needs you: {why}")
    reply.task("run" if auto else "wait")


def _halt(session: Session, task: Task, reply: Reply, reason: str) -> AskResult:
    task.state, task.reason, task.proposed = "halted", reason, ""
    session.set_task(task.to_dict())
    session.conversation.add_assistant(f"HALT: {reason}")
    reply.status(f"norris: halted: {reason}")
    reply.task("off")
    return AskResult(model=task.model)


def _verdict(text: str) -> tuple[str, str]:
    """``("DONE", summary)``, ``("HALT", reason)`` or ``("", "")`` from the planner's text."""
    for line in text.splitlines():
        word, _, rest = line.strip().partition(":")
        if word.upper() in ("DONE", "HALT") and _:
            return word.upper(), " ".join(rest.split())
    return "", ""


def _plan_with_tools(env: AskEnv, session: Session, task: Task, system: str, tools: list,
                     reply: Reply) -> Response:
    """Planner calls until one proposes no tool call (or the tool depth is reached); the
    tool rounds join the task's transcript, never the conversation."""
    rounds = 0
    while True:
        call = _fitted_call(env, session, task, system, tools, reply)
        if not (tools and call.tool_calls) or not _run_planner_tools(env, session, task, call, reply):
            return call
        rounds += 1
        if rounds >= env.config.mcp.max_tool_depth:
            reply.status("tool-call depth limit reached")
            return call


def _fitted_call(env: AskEnv, session: Session, task: Task, system: str, tools: list,
                 reply: Reply) -> Response:
    """A planner call; when the transcript outgrew the model's window, its oldest steps are
    shortened (app/norris_fold.py) and the call made again, until it fits or nothing is left
    to shorten."""
    while True:
        messages = [{"role": "system", "content": system}] + task.messages
        try:
            return _planner_call(env, session, task, messages, tools, reply)
        except ContextOverflow as err:
            done = norris_fold.shorten(task, err.window)
            if done is None:
                err.hint = "the goal and the newest step alone do not fit: a model with a larger window can resume it"
                raise
            session.set_task(task.to_dict())
            window = f" {err.window:,}-token" if err.window else ""
            reply.status(f"norris: the task outgrew {task.model}'s{window} window: {done}")


def _run_planner_tools(env: AskEnv, session: Session, task: Task, call: Response, reply: Reply) -> bool:
    answered, wire = run_tool_calls(env, session, call.tool_calls, reply)
    if not answered:
        return False
    task.messages.append({"role": "assistant", "content": call.text, "tool_calls": wire})
    task.messages.extend({"role": "tool", "tool_call_id": c.id,
                          "content": norris_autorun.as_data(task, f"the result of tool {c.name}", content)}
                         for c, content in answered)
    session.set_task(task.to_dict())
    return True


def _planner_call(env: AskEnv, session: Session, task: Task, messages: list, tools: list,
                  reply: Reply) -> Response:
    """One planner call on the task's model, costed as ``norris``; with fallback on, an
    eligible failure is retried once on the fallback model for this step only (the task
    keeps its model)."""
    limit = env.config.norris.max_dollars
    allowance = None if limit is None else cost_guard.Allowance(
        key="norris.max_dollars", limit=limit, spent=task.spent - task.spent_before)
    call = Caller(env, session).call(messages, category="norris", reply=reply,
                                  model=env.config.model(task.model), tools=tools,
                                  fallback_note=" (this step only)", allowance=allowance)
    task.spent += (call.usage.cost if call.usage else None) or 0.0
    return call


def _safety(env: AskEnv, session: Session, task: Task, command: str,
            reply: Reply) -> tuple[Optional[str], Optional[str]]:
    """The same judgement as an ask's suggestions (``judge.judge``): local verdict in the task's
    cwd, second opinion on medium or unknown commands, preview of what it would touch."""
    request = Request(id="", kind="norris", cwd=task.cwd)
    level, reason, preview = judge(Caller(env, session), [command], request, reply)[0]
    return level, f"{reason} — {preview}" if preview else reason
