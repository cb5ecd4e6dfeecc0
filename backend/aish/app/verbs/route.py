"""``aish route on|off|classes|check TEXT`` (also ``? :route ...``): model routing by task.

The toggles change ``ctx.overrides["auto"]``, which the daemon
applies over the config for every later ask until it stops; the file is left
alone.  Turning a feature on refuses when it names a model the config does not
define, so the failure shows now, not in the middle of some later question.
``route check`` always runs the heuristic, even with routing off, so a user can see
what routing would do before turning it on.
"""
from __future__ import annotations

import json
from aish.app.verbs.context import VerbContext
from aish.errors import AishError, ConfigError
from aish.ipc.verbs import BY_NAME
from aish.llm import routing as router

USAGE = BY_NAME["route"].synopsis
KEEP = "(keep active model)"
DISABLED = " (routing currently disabled)"


def run(args: list[str], ctx: VerbContext) -> list[str]:
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
    raise AishError(f"unknown route command '{sub}'", hint=USAGE)


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
