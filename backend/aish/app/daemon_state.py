"""What the daemon keeps for every shell: the config it follows, the shared clients, the
sessions, one of each and made on first use.

Why apart from ``Service``: these outlive any request and every flow reads them (an ask,
a verb, a norris step, an agent's request, the fix drafted after a failure), while the
service's own concern is which flow a request runs.  The config is re-read when its file
changes, and looked for again when no model was found or the detected one is gone; the
token counter and the limits follow it; memory and the project context are one per
daemon, so their locks see every writer; the MCP servers follow the config's ``[mcp]``.
"""
from __future__ import annotations

import logging
import os
import sys
import threading
import time
from typing import TYPE_CHECKING, Any, Callable, Optional

from aish.app.sessions import Session, Sessions
from aish.config import load as config_mod
from aish.config.schema import Config, McpConfig
from aish.errors import AishError, ConfigError

if TYPE_CHECKING:
    from aish.cost.ledger import Ledger
    from aish.llm.limits import Limits
    from aish.llm.tokens import TokenCounter
    from aish.mcp.manager import McpManager

REDETECT_SECONDS = 5.0
# what the daemon's warm-up imports, after the first answer (the judgement of the suggested
# command comes after an answer; the ledger records a call after it)
LATER = ("aish.safety.assess", "aish.app.judge", "aish.app.verdicts", "aish.cost.ledger")


class DaemonState:
    """One of each, made on first use and shared by every request; thread-safe."""

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
        # held while the manager follows a config: a question must not get it half-way
        self._mcp_following = threading.Lock()
        self._memory: Optional[Any] = None  # aish.context.memory.Memory: one per daemon
        self._project: Optional[Any] = None  # aish.context.project.ProjectContext: one per daemon
        self._taps: Any = None  # aish.context.tap.Taps, made by the first request from tmux
        self._reported: list[str] = []  # one-time status lines (MCP failures) for the next ask
        self.pending: dict = {}  # proposals waiting for the user's yes (`memory accept`)

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

    def tokens(self, cfg: Optional[Config] = None) -> TokenCounter:
        """``cfg``: the config the caller already has (an ask reads it once, not per part)."""
        from aish.llm.tokens import TokenCounter

        cfg = cfg or self.config()
        with self._lock:
            if self._tokens is None:
                self._tokens = TokenCounter(cfg.tokenize)
                self._tokens.load(_token_counts())  # what the daemon before this one learned
            return self._tokens

    def limits(self, cfg: Optional[Config] = None) -> Limits:
        """What the models' servers told of their windows and quirks: learned once per daemon
        (and again after a config change), shared by every shell."""
        from aish.llm.limits import Limits

        tokens = self.tokens(cfg)
        with self._lock:
            if self._limits is None or self._limits.tokens is not tokens:
                self._limits = Limits(tokens, log=self.log.info)
                self._limits.load(_state_file("chat-templates.bin"))  # measured by the daemon before
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

    def ledger_for_ask(self, cfg: Config) -> Any:
        """The ledger; or, while it is not open yet and no cost cap is in force (then nothing
        reads it before the answer), a stand-in that opens it when the call is recorded:
        SQLite's import and open are not on the path of a new daemon's first answer."""
        from aish.app.cost_guard import bounded

        if self._ledger is not None or bounded(cfg.cost):
            return self.ledger()
        return _LedgerLater(self.ledger)

    def mcp(self) -> McpManager:
        """The MCP manager, following the current config; servers connect in the background."""
        cfg = self.config()
        with self._mcp_following:  # (warm-up's first call and a first question meet here)
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

    def memory(self, cfg: Optional[Config] = None) -> Optional[Any]:
        """The fact store, one per daemon (its lock must see every writer: two `:remember`s
        at once each read, then wrote, and one was lost); None when memory is off."""
        from aish.app import knowledge

        cfg = cfg or self.config()
        if not cfg.memory.enabled:
            return None
        with self._lock:
            if self._memory is None:
                self._memory = knowledge.memory_for(cfg)
            if self._memory is not None:  # the limits follow config edits
                self._memory.max_facts, self._memory.max_chars = cfg.memory.max_facts, cfg.memory.max_chars
            return self._memory

    def project(self, cfg: Optional[Config] = None) -> Optional[Any]:
        """Project notes, overlay and git context: one per daemon (its git cache, trust store)."""
        from aish.app import knowledge

        cfg = cfg or self.config()
        with self._lock:
            if self._project is None:
                self._project = knowledge.project_for(cfg)
            if self._project is not None:
                self._project.notes_max_chars = cfg.context.notes_max_chars
            return self._project

    def warm_up(self) -> None:
        """Run in the background once the daemon's first answer is out (or it has been idle a
        moment): import what later work needs (``LATER``; requests when a model is not on this
        machine), open the ledger, connect MCP servers."""
        try:
            cfg = self.config()
            for name in LATER + (("aish.net.pooled",) if _any_remote(cfg) else ()):
                try:
                    __import__(name)
                except Exception:
                    self.log.debug("import of %s in the warm-up failed", name, exc_info=True)
            self.ledger()
            if cfg.mcp.servers:
                self.mcp()
        except AishError as err:
            self.log.warning("warm-up: %s", err)
        except Exception:
            self.log.exception("warm-up failed")

    # ------------------------------------------------------------ sessions
    def session(self, session_id: str, cfg: Optional[Config] = None) -> Session:
        """The shell's session (made, or rebuilt from its log, on first use)."""
        try:
            cost = (cfg or self.config()).cost
        except AishError:
            cost = None
        return self.sessions.get(session_id, cost)

    # ------------------------------------------------------------ tmux
    def taps(self):
        """The readers of tmux panes' output (context/tap.py), one set per daemon."""
        with self._lock:
            if self._taps is None:
                from aish import paths
                from aish.context.tap import Taps

                self._taps = Taps(paths.runtime_dir(), self.log)
            return self._taps

    def close(self) -> None:
        if self._tokens is not None:
            self._tokens.save(_token_counts())
        if self._limits is not None:
            self._limits.save(_state_file("chat-templates.bin"))
        if self._taps is not None:
            # a pane read means its readers are loaded (the ask's output, a shell's watch); never
            # imported here: a restart after a reinstall closes the service with the old package gone
            sources = sys.modules.get("aish.context.sources")
            try:
                self._taps.close(sources.run if sources is not None else None)
            except Exception:
                self.log.exception("closing the tmux taps failed")
        if self._mcp is not None:
            try:
                self._mcp.close_all()
            except Exception:
                self.log.exception("closing MCP sessions failed")


def _any_remote(cfg: Config) -> bool:
    """Is a configured model off this machine (its calls go through requests: net/pooled.py)?"""
    from aish.net import loopback

    return any(not loopback.applies(model.chat_url) for model in cfg.models.values())


class _LedgerLater:
    """Stands for the cost ledger until it is first used, then passes every call to it."""

    __slots__ = ("_open",)

    def __init__(self, open_ledger: Callable[[], Optional[Ledger]]) -> None:
        self._open = open_ledger

    def __getattr__(self, name: str) -> Any:
        ledger = self._open()
        if ledger is None:  # it could not be opened (logged once): nothing to record
            return lambda *args, **kwargs: None
        return getattr(ledger, name)


def _token_counts() -> Optional[str]:
    """Where the token counts are kept over restarts (``TokenCounter.save``); None: no state dir."""
    return _state_file("token-counts.bin")


def _state_file(name: str) -> Optional[str]:
    """A file kept over restarts in the state dir (None: there is none)."""
    from aish import paths

    try:
        return str(paths.state_dir() / name)
    except OSError:
        return None
