"""``aish status`` / ``? :status``: the models, routing and fallback the daemon is using."""
from __future__ import annotations

import os

from aish import version

from aish.app.verbs.context import VerbContext



def run(args: list[str], ctx: VerbContext) -> list[str]:
    cfg = ctx.config
    if cfg.detected:
        origin = cfg.detected
    elif cfg.source:
        origin = f"config {cfg.source}"
    else:
        origin = "no config file: built-in defaults; 'aish config init' writes one"
    lines = [f"[aish] default model: {cfg.default_model} ({origin})"]
    for name, model in cfg.models.items():
        lines.append(f"  {name}: {model.model} at {model.endpoint}" + (" (local)" if model.is_local else ""))
    lines.append(f"  routing auto={'on' if cfg.routing.auto else 'off'}, "
                 f"fallback={'on' if cfg.routing.fallback else 'off'}")
    lines.append(f"  daemon {version.__version__} (pid {os.getpid()})")  # this process: the daemon
    return lines
