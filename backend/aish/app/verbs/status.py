"""``aish status`` / ``? :status``: the models, routing and fallback the daemon is using."""
from __future__ import annotations

from aish.app.verbs.context import NEED_CONFIG, VerbContext

NEEDS = frozenset({NEED_CONFIG})


def run(args: list[str], ctx: VerbContext) -> list[str]:
    cfg = ctx.config
    lines = [f"[aish] default model: {cfg.default_model}"
             + (f" ({cfg.detected})" if cfg.detected else f" (config {cfg.source})")]
    for name, model in cfg.models.items():
        lines.append(f"  {name}: {model.model} at {model.endpoint}" + (" (local)" if model.is_local else ""))
    lines.append(f"  routing auto={'on' if cfg.routing.auto else 'off'}, "
                 f"fallback={'on' if cfg.routing.fallback else 'off'}")
    return lines
