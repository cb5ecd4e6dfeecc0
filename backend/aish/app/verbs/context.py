"""What a verb receives (``VerbContext``) and what it may return besides lines (``AskFor``)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Optional

from aish.config.schema import Config

if TYPE_CHECKING:
    from aish.app.sessions import Session
    from aish.cost.ledger import Ledger
    from aish.cost.usage import UsageTotals
    from aish.mcp.manager import McpManager

# The parts of daemon state a verb's row (aish.ipc.verbs) can name in its needs.
NEED_CONFIG, NEED_SESSION, NEED_LEDGER, NEED_MCP = "config", "session", "ledger", "mcp"
NEED_MEMORY, NEED_PROJECT, NEED_MODEL = "memory", "project", "model"
NEEDS_KNOWN = frozenset({NEED_CONFIG, NEED_SESSION, NEED_LEDGER, NEED_MCP, NEED_MEMORY,
                         NEED_PROJECT, NEED_MODEL})


@dataclass
class VerbContext:
    """Built by the service for one verb request; fields a verb did not ask for stay empty."""

    config: Config = field(default_factory=Config)  # effective, runtime overrides applied
    overrides: dict[str, bool] = field(default_factory=dict)  # daemon-wide toggles: auto, fallback
    session: Optional[Session] = None  # of the asking shell: its conversation, totals, task...
    usage: Optional[UsageTotals] = None  # that session's totals
    ledger: Optional[Ledger] = None  # cross-session costs; None when SQLite is unavailable
    mcp: Optional[McpManager] = None
    buffer: str = ""  # the shell's prompt line (what `:explain` explains by default)
    json: bool = False  # `--json` (taken out of the words once): verbs that support it print JSON
    cwd: str = ""  # the asking shell's (or CLI's) working directory
    environ: dict = field(default_factory=dict)  # the CLI's exported variables (None: withheld)
    # the asking shell's variables, fetched on demand (a shell sends none up front); None: cannot
    variables: Optional[Callable[[], Optional[dict]]] = None
    stdin: str = ""  # what the CLI sent on stdin (`memory replace` after `aish memory edit`)
    memory: Any = None  # aish.context.memory.Memory (NEED_MEMORY)
    pending: dict = field(default_factory=dict)  # daemon-wide proposals waiting for a yes (NEED_MEMORY)
    project: Any = None  # aish.context.project.ProjectContext (NEED_PROJECT)
    # NEED_MODEL: one costed model call, (model name, messages) -> text; and a delegated task,
    # streamed to the user, (model name, task) -> text
    complete: Optional[Callable[[str, list], str]] = None
    delegate: Optional[Callable[[str, str], str]] = None


@dataclass(frozen=True)
class AskFor:
    """A verb's answer that is a model call: the service runs it as an ask in ``mode``."""

    mode: str
    buffer: str
    text: str = ""  # the question itself, when the verb wrote it (`? :mcp prompt NAME`)


@dataclass(frozen=True)
class AgentFor:
    """A verb's answer that the agents' bridge handles (app/bridge): ``list`` (``? :agents``),
    the shell's ``take`` (``typing``: keys were on the line), ``ran`` (``status``, ``ms``,
    ``command``; ``own``: the user's own line, the proposal never on it) and ``dismissed``;
    ``aish mcp-server``'s ``hello``, ``bye``, ``context``, ``output`` and ``propose`` (their
    words in the request's fields)."""

    action: str
    status: int = 0
    ms: int = 0
    command: str = ""
    typing: bool = False
    own: bool = False
    json: bool = False


@dataclass(frozen=True)
class TaskFor:
    """A verb's answer that drives a norris task (app/norris.py): ``start`` with a goal,
    ``report`` what ran (``status``, ``ms``, ``command``) or ``resume``."""

    action: str
    goal: str = ""
    status: int = 0
    ms: int = 0
    command: str = ""
