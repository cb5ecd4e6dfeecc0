"""``aish fallback on|off`` (also ``? :fallback ...``): retry a failed call once on the fallback model.

The toggle changes ``ctx.overrides["fallback"]``, which the daemon applies over
the config for every later ask until it stops; the file is left alone.  Turning
it on refuses when ``routing.fallback_model`` is not a configured model, so the
failure shows now, not in the middle of some later question.
"""
from __future__ import annotations

from typing import Optional

from aish.app.verbs.context import VerbContext
from aish.errors import AishError, ConfigError
from aish.ipc.verbs import BY_NAME

USAGE = BY_NAME["fallback"].synopsis


def run(args: list[str], ctx: VerbContext) -> list[str]:
    cfg = ctx.config
    target = cfg.routing.fallback_model
    sub: Optional[str] = args[0] if args else None
    if len(args) > 1 or sub not in (None, "on", "off"):
        raise AishError(f"unknown fallback command '{' '.join(args)}'", hint=USAGE)
    if sub is None:
        state = "on" if cfg.routing.fallback else "off"
        return [f"[aish] fallback {state} (fallback model: {target})"]
    if sub == "off":
        ctx.overrides["fallback"] = False
        return ["[aish] fallback off: a failed call is reported, not retried"]
    if target not in cfg.models:
        known = ", ".join(cfg.models) or "none"
        raise ConfigError(f"cannot turn fallback on: routing.fallback_model = '{target}' "
                          "is not a configured model",
                          hint=f"add [models.{target}] or set routing.fallback_model in "
                               f"{cfg.source or 'the config'}; configured models: {known}")
    ctx.overrides["fallback"] = True
    note = ""
    if target == cfg.default_model:
        note = f"; note: {target} is also the active model, so asks on it are not retried"
    return [f"[aish] fallback on: a call that fails before any text arrives is retried once "
            f"via {target}{note}"]
