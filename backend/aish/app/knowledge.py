"""Wiring of what the model may know beyond the conversation: memory, project context, delegation.

The feature code lives in ``aish.context`` (no model calls there); this module
builds those objects from the config and gives them the one costed model call
they need (``complete``), so each call lands in the usage totals, the session
log and the ledger under its own category.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

from aish import paths
from aish.errors import AishError

if TYPE_CHECKING:
    from aish.app.ask import AskEnv
    from aish.chat.conversation import Conversation
    from aish.config.schema import Config
    from aish.ipc.reply import Reply


def memory_for(cfg: "Config") -> Optional[Any]:
    """The fact store, or None when `memory.enabled = false`."""
    if not cfg.memory.enabled:
        return None
    from aish.context.memory import Memory

    try:
        state = paths.state_dir()
    except OSError:  # an unusable state dir is reported elsewhere; the answer goes on without memory
        return None
    return Memory(state, max_facts=cfg.memory.max_facts, max_chars=cfg.memory.max_chars)


def completer(env: "AskEnv", conv: "Conversation", category: str,
              reply: "Reply") -> Callable[[str, list], str]:
    """``complete(model_name, messages) -> text``: one non-streamed call, redacted, costed."""
    from aish.app.ask import _account, _redacting

    def complete(model_name: str, messages: list) -> str:
        cfg = env.config
        if model_name not in cfg.models:
            raise AishError(f"'{model_name}' is not a configured model",
                            hint=f"configured models: {', '.join(cfg.models)}")
        model = cfg.models[model_name]
        sent = conv.redactor.redact_messages(messages) if _redacting(env, conv) else messages
        text, usage = env.complete(model, sent)
        _account(env, conv, model, category, usage, sent, text, reply)
        return conv.redactor.restore(text) if _redacting(env, conv) else text

    return complete


_PROJECT: dict = {}


def project_for(cfg: "Config") -> Any:
    """Project notes, overlay and git context: one per daemon (its git cache and trust store)."""
    from aish.context.project import ProjectContext

    try:
        state = paths.state_dir()
    except OSError:  # as for memory: no trust records readable, so nothing is trusted
        return None
    project = _PROJECT.get(state)
    if project is None:
        project = _PROJECT[state] = ProjectContext(state)
    project.notes_max_chars = cfg.context.notes_max_chars
    return project
