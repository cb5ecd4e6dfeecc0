"""Wiring of what the model may know beyond the conversation: memory, project context, delegation.

The feature code lives in ``aish.context`` (no model calls there); this module
builds those objects from the config and gives them the one costed model call
they need (``complete``), so each call lands in the usage totals, the session
log and the ledger under its own category.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

from aish import paths
from aish.errors import NotFound

if TYPE_CHECKING:
    from aish.app.model_call import Caller
    from aish.config.schema import Config
    from aish.ipc.reply import Reply


def memory_for(cfg: "Config") -> Optional[Any]:
    """A fact store, or None when `memory.enabled = false` (the service keeps one per daemon,
    so its lock covers every writer)."""
    if not cfg.memory.enabled:
        return None
    from aish.context.memory import Memory

    try:
        state = paths.state_dir()
    except OSError:  # an unusable state dir is reported elsewhere; the answer goes on without memory
        return None
    return Memory(state, max_facts=cfg.memory.max_facts, max_chars=cfg.memory.max_chars)


def completer(caller: "Caller", category: str, reply: "Reply") -> Callable[[str, list], str]:
    """``complete(model_name, messages) -> text``: one quiet call, redacted and costed."""
    def complete(model_name: str, messages: list) -> str:
        cfg = caller.env.config
        if model_name not in cfg.models:
            raise NotFound(f"'{model_name}' is not a configured model",
                            hint=f"configured models: {', '.join(cfg.models)}")
        return caller.call(messages, category=category, reply=reply, model=cfg.models[model_name],
                           show=False, fallback=False).text

    return complete


def project_for(cfg: "Config") -> Any:
    """Project notes, overlay and git context (the service keeps one per daemon: its git
    cache and trust store)."""
    from aish.context.project import ProjectContext

    try:
        state = paths.state_dir()
    except OSError:  # as for memory: no trust records readable, so nothing is trusted
        return None
    return ProjectContext(state)
