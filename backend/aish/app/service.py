"""The daemon's application: each request kind dispatched to its flow.

The daemon (``daemon/server.py``) owns FIFOs and threads; this owns what a request
does: an ask (or a drafted fix replayed), a fix drafted after a failure, a verb (the
handler its row names, with the state it needs), a norris task's step, an agent's
request, a shell's first prompt in tmux.  What an answer needs and outlives one
request (the config, runtime toggles, one session per shell, the MCP servers, the token
counter, the cost ledger) is ``app/daemon_state.py``'s, which ``Service`` extends.
"""
from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING, Any, Callable, Optional

from aish.app import after_answer, receipt
from aish.app.daemon_state import DaemonState
from aish.config.schema import Config
from aish.app.sessions import Session, take_turn
from aish.errors import AishError
from aish.llm.events import AskResult
from aish.ipc.protocol import Request
from aish.ipc.reply import Reply

if TYPE_CHECKING:
    from aish.app.verbs.context import VerbContext
    from aish.mcp.manager import McpManager


class Service(DaemonState):
    """The request kinds, each dispatched to its flow (``handlers``), over the daemon-wide
    state ``DaemonState`` keeps (config, clients, sessions)."""

    def __init__(self, log: Optional[logging.Logger] = None) -> None:
        super().__init__(log)
        from aish import paths
        from aish.app import fix

        self.drafts = fix.Drafts(paths.runtime_dir)
        self._bridge: Any = None  # aish.app.bridge.hub.Bridge, made by the first agents request
        # one handler per request kind (ipc.protocol.KINDS)
        self.handlers: dict[str, Callable[[Request, Reply], AskResult | dict]] = {
            "ask": self.ask, "prepare": self.prepare_fix, "verb": self.verb,
            "watch": self.watch}  # (a `watch` control line, not a request file)

    # ------------------------------------------------------------ requests
    def handle(self, request: Request, reply: Reply) -> AskResult | dict:
        """One request, by its kind (docs/protocol.md); every handler returns an AskResult."""
        handler = self.handlers.get(request.kind)
        if request.interactive and handler is not None and request.kind != "watch":
            self.watch(request)  # a shell in tmux: its pane is read from now on, if not yet
        if handler is None:
            raise AishError(f"unknown request kind '{request.kind}'", hint="upgrade the shell integration")
        return handler(request, reply)

    def _mcp_for_question(self, cfg: Config, reply: Reply) -> Optional[McpManager]:
        """The manager for an ask, after at most ``mcp.connect_wait`` for servers still
        connecting, and the one-time lines (failures, restarts) said."""
        if not cfg.mcp.servers and self._mcp is None:
            return None
        manager = self.mcp()
        if manager.connecting():
            late = manager.wait_for_question(cfg.mcp.connect_wait)
            if late:
                their = "its" if len(late) == 1 else "their"
                reply.status(f"mcp: {', '.join(late)} still connecting; answering without {their} tools")
        for line in manager.notices():
            reply.status(line)
        return manager

    def ask(self, request: Request, reply: Reply) -> AskResult:
        from aish.app.ask import run_ask

        if request.mode == "fix":
            _check_something_failed(request)
        cfg = self.config(recheck=True)
        session = self.session(request.conv, cfg)
        conv = session.conversation
        mcp = self._mcp_for_question(cfg, reply)
        with self._lock:
            pending, self._reported = self._reported, []
        for line in pending:
            reply.status(line)
        if cfg.detected and cfg.detected != getattr(self, "_announced", None):
            self._announced = cfg.detected  # said again when the server moved or changed
            reply.status(f"using {cfg.detected} (no config file; 'aish config init' to choose)")
        env = self.ask_env(cfg, mcp)
        draft = self.drafts.take(request) if request.mode == "fix" else None
        if draft is not None:
            from aish.app import fix

            take_turn(session, reply)
            try:
                conv.add_user(draft.question)
                conv.add_assistant(draft.text)
                receipt.adopt(session, draft.receipt)  # `aish sent`: what the draft sent
            finally:
                session.lock.release()
            return fix.replay(draft, reply)
        after_answer.say_pending(session, reply.status)
        self.drafts.user_answer_starts()
        later: list = []  # the fold, started once the answer is delivered and the session free
        env.after_answer = lambda job, status: later.append(job)
        try:
            take_turn(session, reply)
            try:
                return run_ask(env, session, request, reply)
            finally:
                problem = session.log.take_problem() if session.log is not None else None
                if problem:
                    reply.status(problem)
                session.lock.release()
        finally:
            self.drafts.user_answer_ends()
            for job in later:
                after_answer.in_background(job, session, self.log, getattr(reply, "after_done", None))

    def watch(self, request: Request, reply: Optional[Reply] = None) -> AskResult:
        """A shell's first prompt in tmux: read its pane from now on, so the output of its
        first command is known (docs/output.md)."""
        from aish.context import sources

        target = sources.tmux_target({k: v for k, v in request.extra.items() if isinstance(v, str)})
        if target is None or request.extra.get("output") == "off":
            return AskResult()
        try:
            off = self.config().context.command_output == "off"
        except AishError:  # a broken config file is reported by the next ask, not here
            off = False
        if not off:
            self.taps().watch(target[0], target[1], sources.run, sources.marks_of(request.extra))
        return AskResult()

    def prepare_fix(self, request: Request, reply: Optional[Reply] = None) -> AskResult:
        """Draft the fix of a failed command on a scratch conversation (see app/fix.py)."""
        from aish.app.ask import run_ask
        from aish.app.env import AskEnv
        from aish.safety.secrets import Redactor

        cfg = self.config()
        env = AskEnv(config=cfg, tokens=self.tokens(), ledger=self.ledger(), log=self.log,
                     limits=self.limits(), output_taps=self.taps())

        def run(req: Request, reply: Reply) -> tuple:
            scratch = Session(req.conv + "-fix", redactor=Redactor())  # no log, no totals
            result = run_ask(env, scratch, req, reply)
            turns = scratch.conversation.turns
            return result, turns[0].content if turns else "", receipt.last(scratch)

        outcome = self.drafts.prepare(cfg, request, run, self.log)
        self.log.info("fix draft for %s: %s", request.conv, outcome)
        return AskResult(text=outcome)

    def ask_env(self, cfg: Config, mcp=None):
        from aish.app.env import AskEnv

        return AskEnv(config=cfg, tokens=self.tokens(cfg), ledger=self.ledger_for_ask(cfg), mcp=mcp,
                      log=self.log, memory=self.memory(cfg), project=self.project(cfg), limits=self.limits(cfg),
                      output_taps=self.taps())

    def task(self, request: Request, reply: Reply, what) -> AskResult:
        """Start, report to or resume this shell's norris task (``app/norris.py``)."""
        from aish.app import norris

        cfg = self.config()
        session = self.session(request.conv)
        env = self.ask_env(cfg, self._mcp_for_question(cfg, reply))
        after_answer.make_way(session)  # a local server's summary would hold the planner up, or cut it
        with session.lock:
            if what.action == "start":
                return norris.start(env, session, request, reply, what.goal)
            if what.action == "report":
                return norris.report(env, session, request, reply, what.status, what.ms, what.command)
            return norris.resume(env, session, request, reply)

    def bridge(self):
        """The agents' bridge (app/bridge): made when the first agent or shell asks for it."""
        with self._lock:
            if self._bridge is None:
                from aish.app.bridge import host
                from aish.app.bridge.hub import Bridge

                self._bridge = Bridge(host.for_service(self))
            return self._bridge

    def verb(self, request: Request, reply: Reply) -> AskResult | dict:
        """Run one verb (``aish cost``, ``? :route on``...): the handler its row names, with the
        state the row says it needs."""
        from aish.app.verbs import dispatch
        from aish.app.verbs.context import AgentFor, AskFor, TaskFor

        name, args, as_json = dispatch.parse(request.argv)
        run, needs = dispatch.handler(name)
        dispatch.check_arguments(name, args)
        output = run(args, self._verb_context(request, as_json, needs, reply))
        if isinstance(output, AskFor):  # a new request: the one we got stays as it came
            return self.ask(dataclasses.replace(request, kind="ask", mode=output.mode, buffer=output.buffer,
                                                text=output.text or request.text), reply)
        if isinstance(output, TaskFor):
            return self.task(request, reply, output)
        if isinstance(output, AgentFor):
            return self.bridge().handle(request, reply, output)
        for line in output:
            reply.text(line + "\n")
        return AskResult(text="".join(line + "\n" for line in output))

    def _verb_context(self, request: Request, as_json: bool, needs: frozenset[str],
                      reply: Optional[Reply] = None) -> VerbContext:
        """Only what the verb declared: ``mcp`` connects servers and ``ledger`` opens SQLite."""
        from aish.app.verbs import context

        ctx = context.VerbContext(overrides=self.overrides, buffer=request.buffer, json=as_json)
        if context.NEED_CONFIG in needs:
            ctx.config = self.config()
        if context.NEED_SESSION in needs:
            ctx.session = self.session(request.conv)
            ctx.usage = ctx.session.usage
        if context.NEED_LEDGER in needs:
            ctx.ledger = self.ledger()
        if context.NEED_MCP in needs:
            ctx.mcp = self.mcp()
        ctx.cwd, ctx.stdin, ctx.environ = request.cwd, request.stdin, dict(request.env)
        if reply is not None and request.vars_on_request:
            ctx.variables = lambda: reply.variables(5.0)
        if needs & {context.NEED_MEMORY, context.NEED_PROJECT, context.NEED_MODEL}:
            self._knowledge_context(ctx, request, needs, reply)
        return ctx

    def _knowledge_context(self, ctx: VerbContext, request: Request, needs: frozenset[str],
                           reply: Optional[Reply]) -> None:
        """Memory, project context and costed one-off model calls, for the verbs that need them."""
        from aish.app import delegate, knowledge
        from aish.app.verbs import context

        cfg = self.config()
        if context.NEED_MEMORY in needs:
            ctx.memory, ctx.pending = self.memory(), self.pending
        if context.NEED_PROJECT in needs:
            ctx.project = self.project()
        if context.NEED_MODEL in needs and reply is not None:
            from aish.app.model_call import Caller

            caller = Caller(self.ask_env(cfg), self.session(request.conv))
            ctx.complete = knowledge.completer(caller, "memory_summarize", reply)
            ctx.delegate = lambda name, task: delegate.run(caller, name, task, reply)


def _check_something_failed(request: Request) -> None:
    """The fix is for the newest failed command; with none, nothing is asked."""
    from aish.app.attach_output import last_failed
    from aish.errors import NotFound

    if last_failed(request) is not None:
        return
    if request.history:
        n = len(request.history)
        raise NotFound("nothing failed: no command to fix",
                       hint="the last command succeeded" if n == 1 else f"none of the last {n} commands failed")
    raise NotFound("nothing failed here: no command to fix",
                   hint="use the fix key or '? :fix' in the shell where it failed (aish loaded)")
