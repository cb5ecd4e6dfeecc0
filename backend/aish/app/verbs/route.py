"""``aish route on|off|classes|check TEXT`` and ``aish fallback on|off`` (also ``? :route ...``).

The toggles change ``ctx.overrides`` (``auto``, ``fallback``), which the daemon
applies over the config for every later ask until it stops; the file is left
alone.  Turning a feature on refuses when it names a model the config does not
define, so the failure shows now, not in the middle of some later question.
``route check`` always runs the heuristic (seed N1), even with routing off.
"""
from __future__ import annotations

import json
from typing import Optional

from aish.llm import routing as router
from aish.app.verbs import VerbContext
from aish.errors import ConfigError, AishError

ROUTE_USAGE = "aish route on|off|classes|check TEXT"
FALLBACK_USAGE = "aish fallback on|off"
KEEP = "(keep active model)"
DISABLED = " (routing currently disabled)"


def run(args: list[str], ctx: VerbContext) -> list[str]:
    """``args`` may start with the verb itself (``["fallback", "on"]``); ``route`` otherwise."""
    args = [a for a in args if a != "--json"]
    verb = "route"
    if args and args[0].lstrip(":") in ("route", "fallback"):
        verb, args = args[0].lstrip(":"), args[1:]
    if verb == "fallback":
        return _fallback(args, ctx)
    sub, rest = (args[0], args[1:]) if args else ("classes", [])
    if sub == "on":
        return [_route_on(ctx)]
    if sub == "off":
        ctx.overrides["auto"] = False
        return ["[aish] routing off: every ask uses the active model"]
    if sub == "classes":
        return _classes(ctx)
    if sub == "check":
        text = " ".join(rest).strip()
        if not text:
            raise AishError("usage: aish route check TEXT", hint="give the question to classify")
        return [_check(text, ctx)]
    raise AishError(f"unknown route command '{sub}'", hint=ROUTE_USAGE)


def _target(cls: str, ctx: VerbContext) -> str:
    model = router.class_model(cls, ctx.config)
    if model is None:
        return KEEP
    return model if model in ctx.config.models else f"{model} (not configured)"


def _route_on(ctx: VerbContext) -> str:
    cfg = ctx.config
    missing = router.unconfigured(cfg)
    if missing:
        pairs = ", ".join(f"{cls} -> {model}" for cls, model in missing)
        known = ", ".join(cfg.models) or "none"
        raise ConfigError(f"cannot turn routing on: {pairs} names a model that is not configured",
                          hint=f"add it under [models], or change [routing] classes in "
                               f"{cfg.source or 'the config'}; configured models: {known}")
    ctx.overrides["auto"] = True
    routed = [f"{cls} -> {model}" for cls in router.CLASSES
              if (model := router.class_model(cls, cfg)) is not None]
    what = ", ".join(routed) if routed else "no class maps to a model, so nothing changes yet"
    return f"[aish] routing on for this daemon ({what})"


def _classes(ctx: VerbContext) -> list[str]:
    cfg = ctx.config
    if ctx.json:
        return [json.dumps({"auto": cfg.routing.auto,
                            "classes": {c: router.class_model(c, cfg) for c in router.CLASSES}})]
    state = "on" if cfg.routing.auto else "off"
    lines = [f"[aish] routing {state}; active model: {cfg.default_model}"]
    lines += [f"  {cls} -> {_target(cls, ctx)}" for cls in router.CLASSES]
    return lines


def _check(text: str, ctx: VerbContext) -> str:
    cls, why = router.explain(text)
    if ctx.json:
        return json.dumps({"class": cls, "model": router.class_model(cls, ctx.config),
                           "heuristic": why, "auto": ctx.config.routing.auto})
    suffix = "" if ctx.config.routing.auto else DISABLED
    return f"{cls} -> {_target(cls, ctx)}{suffix}"


def _fallback(args: list[str], ctx: VerbContext) -> list[str]:
    cfg = ctx.config
    target = cfg.routing.fallback_model
    sub: Optional[str] = args[0] if args else None
    if len(args) > 1 or sub not in (None, "on", "off"):
        raise AishError(f"unknown fallback command '{' '.join(args)}'", hint=FALLBACK_USAGE)
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
