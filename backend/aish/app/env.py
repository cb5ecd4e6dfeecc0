"""What a flow (an ask, a verb, a norris step) is handed by the service: the daemon-wide parts.

One object, so the flows never reach the service itself; tests build it with fakes for
any part (a scripted broker, a fake token counter, no ledger).
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Optional

from aish.config.schema import Config

if TYPE_CHECKING:
    from aish.cost.ledger import Ledger
    from aish.llm.limits import Limits
    from aish.llm.tokens import TokenCounter
    from aish.mcp.manager import McpManager
    from aish.safety.opinions import Opinions


@dataclass
class AskEnv:
    """Daemon-wide collaborators of a flow; tests inject fakes for any of them."""

    config: Config
    tokens: TokenCounter
    ledger: Optional[Ledger] = None
    mcp: Optional[McpManager] = None
    stream: Optional[Callable] = None  # broker.chat_stream: every model call goes through it
    output_runner: Optional[Callable] = None  # runs a terminal's CLI (context.sources.run)
    output_taps: Any = None  # aish.context.tap.Taps: the daemon's readers of tmux panes
    opinions: Optional[Opinions] = None  # second opinions (a shared daemon-wide one when None)
    log: logging.Logger = field(default_factory=lambda: logging.getLogger("aish"))
    memory: Any = None  # aish.context.memory.Memory, one per daemon
    project: Any = None  # aish.context.project.ProjectContext, one per daemon
    limits: Optional[Limits] = None  # the models' windows and quirks, learned once per daemon
    # work for after the answer (``app/after_answer.py``: the fold), given where its status lines
    # go; here it runs at once, the daemon's service runs it in the background once delivered
    after_answer: Callable[[Callable, Callable[[str], None]], None] = lambda job, status: job(status)

    def __post_init__(self) -> None:
        if self.stream is None:
            from aish.llm import broker

            self.stream = broker.chat_stream
