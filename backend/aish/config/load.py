"""Reading the config file: TOML -> the dataclasses of ``schema``, validated.

Why strict: a typo in a key silently ignored is a feature that "does not
work"; so unknown keys and wrong types are errors naming the file, the key and
the expected type.  The file is found at ``$AISH_CONFIG`` or in the platform
config dir (``aish config path``).  With no file at all, ``llm.detect`` finds a
local server or a cloud key.
"""
from __future__ import annotations

import functools
import os
import sys
import types
import typing
from dataclasses import fields, replace
from pathlib import Path
from typing import AbstractSet, Any, Callable, Optional
from urllib.parse import urlparse

from aish import paths
from aish.config.schema import (AgentsConfig, Config, ContextConfig, CostConfig, DelegateConfig, FixConfig,
                                MemoryConfig, McpConfig, McpServerConfig, ModelConfig, NorrisConfig, RoutingConfig,
                                SafetyConfig, SecretsConfig, TokenizeConfig)
from aish.errors import ConfigError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


_TYPE_NAMES = {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
               list: "a list", dict: "a table"}


def config_path() -> Path:
    env = os.environ.get("AISH_CONFIG")
    if env:
        return Path(env).expanduser()
    return paths.config_dir() / "config.toml"


def load(path: Optional[Path] = None) -> Config:
    """Load and validate; a missing file yields defaults with no models (see detect.py)."""
    path = path or config_path()
    if not path.exists():
        if os.environ.get("AISH_CONFIG"):
            raise ConfigError(f"AISH_CONFIG points to {path}, which does not exist",
                              hint="create it with 'aish config init' or unset AISH_CONFIG")
        return Config()
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: TOML syntax error: {exc}") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
    cfg = from_dict(raw, str(path))
    cfg.source = path
    return cfg


def from_dict(raw: dict, where: str = "config") -> Config:
    cfg = Config()
    known = {"default_model", "models", "routing", "context", "mcp", "cost", "tokenize",
             "safety", "secrets", "fix", "memory", "delegate", "norris", "agents"}
    _reject_unknown(raw, known, where, "")
    if "default_model" in raw:
        cfg.default_model = _typed(raw["default_model"], str, where, "default_model")
    models = _typed(raw.get("models", {}), dict, where, "models")
    for name, table in models.items():
        key = f"models.{name}"
        table = _typed(table, dict, where, key)
        model = _fill(ModelConfig, table, where, key, skip={"name"})
        model.name = name
        if not model.endpoint or not model.model:
            raise ConfigError(f"{where}: [{key}] needs both 'endpoint' and 'model'")
        if urlparse(model.endpoint).scheme not in ("http", "https"):
            raise ConfigError(f"{where}: {key}.endpoint must be an http(s) URL, got '{model.endpoint}'")
        cfg.models[name] = model
    for section, cls in (("routing", RoutingConfig), ("context", ContextConfig), ("cost", CostConfig),
                         ("tokenize", TokenizeConfig), ("safety", SafetyConfig),
                         ("secrets", SecretsConfig), ("fix", FixConfig), ("memory", MemoryConfig),
                         ("delegate", DelegateConfig), ("norris", NorrisConfig),
                         ("agents", AgentsConfig)):
        if section in raw:
            table = _typed(raw[section], dict, where, section)
            setattr(cfg, section, _fill(cls, table, where, section))
    if cfg.norris.autorun not in ("off", "safe"):
        raise ConfigError(f"{where}: norris.autorun must be \"off\" or \"safe\", "
                          f"got '{cfg.norris.autorun}'")
    if cfg.norris.autorun_writes not in ("none", "workdir"):
        raise ConfigError(f"{where}: norris.autorun_writes must be \"none\" or \"workdir\", "
                          f"got '{cfg.norris.autorun_writes}'")
    if cfg.norris.max_steps < 1 or cfg.norris.max_failures < 1:
        raise ConfigError(f"{where}: norris.max_steps and norris.max_failures must be at least 1")
    if cfg.agents.propose_timeout <= 0:
        raise ConfigError(f"{where}: agents.propose_timeout must be a number of seconds above 0, "
                          f"got {cfg.agents.propose_timeout}")
    if "classes" in raw.get("routing", {}):
        merged = RoutingConfig().classes
        for cls_name, target in cfg.routing.classes.items():
            if cls_name not in merged:
                raise ConfigError(f"{where}: routing.classes.{cls_name} is not a routing class "
                                  f"(expected one of: {', '.join(merged)})")
            if target is not None and not isinstance(target, str):
                raise ConfigError(f"{where}: routing.classes.{cls_name} must be a string (a model name)")
            merged[cls_name] = target or None
        cfg.routing.classes = merged
    if "mcp" in raw:
        table = _typed(raw["mcp"], dict, where, "mcp")
        servers = _typed(table.get("servers", {}), dict, where, "mcp.servers")
        rest = {k: v for k, v in table.items() if k != "servers"}
        cfg.mcp = _fill(McpConfig, rest, where, "mcp", skip={"servers"})
        if cfg.mcp.max_message_mb <= 0:
            raise ConfigError(f"{where}: mcp.max_message_mb must be a positive number")
        for alias, server in servers.items():
            key = f"mcp.servers.{alias}"
            server = _fill(McpServerConfig, _typed(server, dict, where, key), where, key, skip={"alias"})
            server.alias = alias
            if bool(server.url) == bool(server.command):
                raise ConfigError(f"{where}: [{key}] needs exactly one of 'url' or 'command'")
            _choice(where, f"{key}.transport", server.transport, ("auto", "http", "sse"))
            cfg.mcp.servers[alias] = server
    _choice(where, "context.command_output", cfg.context.command_output, ("auto", "off"))
    _choice(where, "fix.prepare", cfg.fix.prepare, ("local", "always", "off"))
    for key in ("output_max_lines", "output_max_bytes", "max_question_chars"):
        if getattr(cfg.context, key) < 1:
            raise ConfigError(f"{where}: context.{key} must be a positive number")
    validate(cfg, where)
    return cfg


def _choice(where: str, key: str, value: str, allowed: tuple) -> None:
    if value not in allowed:
        raise ConfigError(f"{where}: {key} = '{value}' is not one of: {', '.join(allowed)}")


def validate(cfg: Config, where: str = "config") -> None:
    """Cross-field checks: every model a setting names must exist (when it is used)."""
    if not cfg.models:
        return
    if cfg.default_model not in cfg.models:
        raise ConfigError(f"{where}: default_model = '{cfg.default_model}' but no [models.{cfg.default_model}]",
                          hint=f"configured models: {', '.join(cfg.models)}")
    if cfg.routing.auto:
        for cls_name, target in cfg.routing.classes.items():
            if target and target not in cfg.models:
                raise ConfigError(f"{where}: routing.classes.{cls_name} = '{target}' is not a configured model",
                                  hint=f"configured models: {', '.join(cfg.models)}")
    if cfg.routing.fallback and cfg.routing.fallback_model not in cfg.models:
        raise ConfigError(f"{where}: routing.fallback_model = '{cfg.routing.fallback_model}' "
                          "is not a configured model",
                          hint=f"configured models: {', '.join(cfg.models)}")
    if cfg.context.summarize_on_evict and cfg.context.summarizer_model not in cfg.models:
        raise ConfigError(f"{where}: context.summarizer_model = '{cfg.context.summarizer_model}' "
                          "is not a configured model")
    if not 0 < cfg.safety.llm_timeout <= 120:
        raise ConfigError(f"{where}: safety.llm_timeout = {cfg.safety.llm_timeout} must be between 0 and 120 seconds")
    if cfg.safety.second_opinion not in ("auto", "off"):
        raise ConfigError(f"{where}: safety.second_opinion must be \"auto\" or \"off\", "
                          f"got '{cfg.safety.second_opinion}'")
    if cfg.safety.llm_model and cfg.safety.llm_model not in cfg.models:
        raise ConfigError(f"{where}: safety.llm_model = '{cfg.safety.llm_model}' is not a configured model")
    for name in cfg.delegate.allow:
        if not isinstance(name, str) or name not in cfg.models:
            raise ConfigError(f"{where}: delegate.allow lists '{name}', which is not a configured model",
                              hint=f"configured models: {', '.join(cfg.models)}")
    if not 0 <= cfg.context.evict_slack <= 0.9:
        raise ConfigError(f"{where}: context.evict_slack must be between 0 and 0.9, "
                          f"got {cfg.context.evict_slack}")
    if cfg.memory.max_facts < 1 or cfg.memory.max_chars < 100:
        raise ConfigError(f"{where}: memory.max_facts must be >= 1 and memory.max_chars >= 100")


def _reject_unknown(table: dict, known: set, where: str, prefix: str) -> None:
    for key in table:
        if key not in known:
            full = f"{prefix}{key}"
            raise ConfigError(f"{where}: unknown key '{full}'",
                              hint=f"expected one of: {', '.join(sorted(known))}")


def _typed(value: Any, expected: type, where: str, key: str) -> Any:
    ok = isinstance(value, expected)
    if expected is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if expected in (int, float) and isinstance(value, bool):
        ok = False
    if not ok:
        raise ConfigError(f"{where}: {key} must be {_TYPE_NAMES.get(expected, expected.__name__)}, "
                          f"got {type(value).__name__} {value!r}")
    return value


def _fill(cls: type, table: dict, where: str, key: str, skip: AbstractSet[str] = frozenset()) -> Any:
    """Build dataclass ``cls`` from ``table``, checking names and types from its resolved hints."""
    hints = _hints(cls)
    spec = {f.name for f in fields(cls) if f.name not in skip}
    _reject_unknown(table, spec, where, f"{key}.")
    obj = cls()
    for name, value in table.items():
        if value is None:
            continue
        setattr(obj, name, checker(hints[name])(value, where, f"{key}.{name}"))
    return obj


@functools.lru_cache(maxsize=None)
def _hints(cls: type) -> dict:
    """``cls``'s resolved type hints (read, never changed), once per class: ``get_type_hints``
    compiles and evaluates every string annotation again at each call, ~13 of them per config
    load (each ``aish`` command's and each of the daemon's reloads)."""
    return typing.get_type_hints(cls)


Checker = Callable[[Any, str, str], Any]


def checker(hint: Any) -> Checker:
    """The check for one field's resolved type hint.

    Every spelling of one type (``Optional[float]``, ``float | None``) resolves to
    the same check; a hint no check covers is a programming error, which a test
    over every field of every config dataclass catches.
    """
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    if typing.get_origin(hint) in (typing.Union, types.UnionType) and len(args) == 1:
        return checker(args[0])
    base = typing.get_origin(hint) or hint
    if base in (bool, int, float, str, dict):
        return lambda value, where, key: _typed(value, base, where, key)
    if base is list:
        return _string_list
    raise TypeError(f"no config check for type {hint!r}")


def _string_list(value: Any, where: str, key: str) -> list:
    _typed(value, list, where, key)
    if not all(isinstance(item, str) for item in value):
        raise ConfigError(f"{where}: {key} must be a list of strings")
    return value


def with_runtime_overrides(cfg: Config, overrides: dict) -> Config:
    """Apply daemon-side toggles (``aish route on``...) without touching the file."""
    routing = replace(cfg.routing, **{k: v for k, v in overrides.items() if k in ("auto", "fallback")})
    return replace(cfg, routing=routing)
