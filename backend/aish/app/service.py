"""The daemon's application: conversations, config, shared clients, request dispatch.

The daemon (``daemon/server.py``) owns FIFOs and threads; this owns what an
answer needs and outlives one request: the loaded config (re-read when the
file changes), runtime toggles, one conversation per shell, the MCP servers,
the token counter and the cost ledger.
"""
from __future__ import annotations

import dataclasses
import logging
import os
import threading
import time
from typing import TYPE_CHECKING, Any, Callable, Optional

from aish.app import after_answer, receipt
from aish.config import load as config_mod
from aish.config.schema import Config, McpConfig
from aish.app.sessions import Session, Sessions, take_turn
from aish.errors import AishError, ConfigError
from aish.llm.events import AskResult
from aish.ipc.protocol import Request
from aish.ipc.reply import Reply

if TYPE_CHECKING:
    from aish.app.verbs.context import VerbContext
    from aish.cost.ledger import Ledger
    from aish.llm.limits import Limits
    from aish.llm.tokens import TokenCounter
    from aish.mcp.manager import McpManager

REDETECT_SECONDS = 5.0


class Service:
    def __init__(self, log: Optional[logging.Logger] = None) -> None:
        self.log = log or logging.getLogger("aish")
        self.overrides: dict = {}
        self._lock = threading.Lock()
        self.sessions = Sessions()  # one per shell (or CLI conversation): app/sessions.py
        self._config: Optional[Config] = None
        self._config_stamp: object = None
        self._loaded_at = 0.0
        self._config_error: Optional[ConfigError] = None
        self._tokens: Optional[TokenCounter] = None
        self._limits: Optional[Limits] = None
        self._ledger: Optional[Ledger] = None
        self._mcp: Optional[McpManager] = None
        self._mcp_config: Optional[McpConfig] = None
        self._memory: Optional[Any] = None  # aish.context.memory.Memory: one per daemon
        self._project: Optional[Any] = None  # aish.context.project.ProjectContext: one per daemon
        from aish import paths
        from aish.app import fix

        self.drafts = fix.Drafts(paths.runtime_dir)
        self._taps: Any = None  # aish.context.tap.Taps, made by the first request from tmux
        self._bridge: Any = None  # aish.app.bridge.hub.Bridge, made by the first agents request
        self._reported: list[str] = []  # one-time status lines (MCP failures) for the next ask
        self.pending: dict = {}  # proposals waiting for the user's yes (`memory accept`)
        # one handler per request kind (ipc.protocol.KINDS)
        self.handlers: dict[str, Callable[[Request, Reply], AskResult | dict]] = {
            "ask": self.ask, "prepare": self.prepare_fix, "verb": self.verb,
            "watch": self.watch}  # (a `watch` control line, not a request file)

    # ------------------------------------------------------------ config
    def config(self, recheck: bool = False) -> Config:
        """The effective config; re-read when the file changes, detection when there is none.
        ``recheck`` (an ask): a detected server that stopped listening is looked for again."""
        path = config_mod.config_path()
        try:
            stat = os.stat(path)
            stamp = (stat.st_mtime_ns, stat.st_size)
        except OSError:
            stamp = None
        with self._lock:
            nothing_found = (self._config is not None and not self._config.models
                             and time.monotonic() - self._loaded_at > REDETECT_SECONDS)
            if recheck and self._config is not None and self._config.detected and not nothing_found:
                nothing_found = not self._detected_still_there(self._config)
            if self._config is None or stamp != self._config_stamp or nothing_found:
                # (no model found yet, or the one found is gone: look again, the user may
                # have started a server since, or moved it to another port)
                self._config_stamp = stamp
                self._loaded_at = time.monotonic()
                try:
                    cfg = config_mod.load(path)
                    self._config_error = None
                except ConfigError as err:
                    self._config, self._config_error = None, err
                    raise
                from aish.llm import detect

                self._config = detect.apply(cfg)
                self._tokens = self._limits = None
            if self._config_error:
                raise self._config_error
            cfg = self._config
        if self.overrides:
            cfg = config_mod.with_runtime_overrides(cfg, self.overrides)
        return cfg

    @staticmethod
    def _detected_still_there(cfg: Config) -> bool:
        """A detected server that stopped listening is looked for again (once per ask: a
        refused connect on loopback costs microseconds)."""
        from aish.llm import detect

        return detect.still_there(cfg)

    def tokens(self) -> TokenCounter:
        from aish.llm.tokens import TokenCounter

        cfg = self.config()
        with self._lock:
            if self._tokens is None:
                self._tokens = TokenCounter(cfg.tokenize)
                self._tokens.load(_token_counts())  # what the daemon before this one learned
            return self._tokens

    def limits(self) -> Limits:
        """What the models' servers told of their windows and quirks: learned once per daemon
        (and again after a config change), shared by every shell."""
        from aish.llm.limits import Limits

        tokens = self.tokens()
        with self._lock:
            if self._limits is None or self._limits.tokens is not tokens:
                self._limits = Limits(tokens, log=self.log.info)
            return self._limits

    def ledger(self) -> Optional[Ledger]:
        with self._lock:
            if self._ledger is None:
                from aish.cost.ledger import Ledger

                try:
                    self._ledger = Ledger(on_warning=self._reported.append)
                except Exception:
                    self.log.exception("cost ledger unavailable")
                    return None
            return self._ledger

    def mcp(self) -> McpManager:
        """The MCP manager, following the current config; servers connect in the background."""
        cfg = self.config()
        with self._lock:
            manager, changed = self._mcp, self._mcp_config is not cfg.mcp
            if manager is None:
                from aish.mcp.manager import McpManager

                manager = self._mcp = McpManager(cfg.mcp, log=self.log)
            self._mcp_config = cfg.mcp
        if changed:  # the first use, or the file changed: removed, changed and new servers follow
            manager.update_config(cfg.mcp)
            manager.start()
        return manager

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

    def memory(self) -> Optional[Any]:
        """The fact store, one per daemon (its lock must see every writer: two `:remember`s
        at once each read, then wrote, and one was lost); None when memory is off."""
        from aish.app import knowledge

        cfg = self.config()
        if not cfg.memory.enabled:
            return None
        with self._lock:
            if self._memory is None:
                self._memory = knowledge.memory_for(cfg)
            if self._memory is not None:  # the limits follow config edits
                self._memory.max_facts, self._memory.max_chars = cfg.memory.max_facts, cfg.memory.max_chars
            return self._memory

    def project(self) -> Optional[Any]:
        """Project notes, overlay and git context: one per daemon (its git cache, trust store)."""
        from aish.app import knowledge

        cfg = self.config()
        with self._lock:
            if self._project is None:
                self._project = knowledge.project_for(cfg)
            if self._project is not None:
                self._project.notes_max_chars = cfg.context.notes_max_chars
            return self._project

    @staticmethod
    def _mcp_connect_wait(cfg: Config) -> float:
        timeouts = [server.timeout for server in cfg.mcp.servers.values()] or [0.0]
        return max(timeouts) + 1.0

    def warm_up(self) -> None:
        """Run in the background after start: connect MCP servers, open the ledger."""
        try:
            cfg = self.config()
            self.ledger()
            if cfg.mcp.servers:
                self.mcp()
        except AishError as err:
            self.log.warning("warm-up: %s", err)
        except Exception:
            self.log.exception("warm-up failed")

    # ------------------------------------------------------------ sessions
    def session(self, session_id: str) -> Session:
        """The shell's session (made, or rebuilt from its log, on first use)."""
        try:
            cost = self.config().cost
        except AishError:
            cost = None
        return self.sessions.get(session_id, cost)

    # ------------------------------------------------------------ requests
    def taps(self):
        """The readers of tmux panes' output (context/tap.py), one set per daemon."""
        with self._lock:
            if self._taps is None:
                from aish import paths
                from aish.context.tap import Taps

                self._taps = Taps(paths.runtime_dir(), self.log)
            return self._taps

    def handle(self, request: Request, reply: Reply) -> AskResult | dict:
        """One request, by its kind (docs/protocol.md); every handler returns an AskResult."""
        handler = self.handlers.get(request.kind)
        if request.interactive and handler is not None and request.kind != "watch":
            self.watch(request)  # a shell in tmux: its pane is read from now on, if not yet
        if handler is None:
            raise AishError(f"unknown request kind '{request.kind}'", hint="upgrade the shell integration")
        return handler(request, reply)

    def ask(self, request: Request, reply: Reply) -> AskResult:
        from aish.app.ask import run_ask

        if request.mode == "fix":
            _check_something_failed(request)
        cfg = self.config(recheck=True)
        session = self.session(request.conv)
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
                after_answer.in_background(job, session, self.log)

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
            self.taps().watch(target[0], target[1], sources.run)
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

        return AskEnv(config=cfg, tokens=self.tokens(), ledger=self.ledger(), mcp=mcp, log=self.log,
                      memory=self.memory(), project=self.project(), limits=self.limits(),
                      output_taps=self.taps())

    def task(self, request: Request, reply: Reply, what) -> AskResult:
        """Start, report to or resume this shell's norris task (``app/norris.py``)."""
        from aish.app import norris

        cfg = self.config()
        session = self.session(request.conv)
        env = self.ask_env(cfg, self._mcp_for_question(cfg, reply))
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

    def close(self) -> None:
        if self._tokens is not None:
            self._tokens.save(_token_counts())
        if self._taps is not None:
            from aish.context.sources import run

            try:
                self._taps.close(run)
            except Exception:
                self.log.exception("closing the tmux taps failed")
        if self._mcp is not None:
            try:
                self._mcp.close_all()
            except Exception:
                self.log.exception("closing MCP sessions failed")


def _token_counts() -> Optional[str]:
    """Where the token counts are kept over restarts (``TokenCounter.save``); None: no state dir."""
    from aish import paths

    try:
        return str(paths.state_dir() / "token-counts.bin")
    except OSError:
        return None


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

