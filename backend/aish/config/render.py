"""Config as text: the commented example ``aish config init`` writes, and ``config show``.

``show`` prints the effective config in TOML form with secrets masked: a
literal ``auth_token`` becomes ``"****"`` and a ``key_env`` shows whether the
variable is set, never its value.
"""
from __future__ import annotations

import re
from dataclasses import fields, is_dataclass
from typing import AbstractSet, Any

from aish.config.schema import Config

EXAMPLE = '''# aish configuration. Every key is optional; unknown keys are errors.
# Docs: docs/configuration.md in the aish repository.

default_model = "fast"

[models.fast]                         # any OpenAI-compatible endpoint
endpoint = "http://127.0.0.1:8080"    # base URL; /v1/chat/completions is appended
model = "qwen2.5-coder-7b"
# connect_timeout = 3.0               # seconds
# read_timeout = 120.0               # seconds the model may send nothing but keep-alives
# include_usage = true                # false for servers that reject stream_options
# max_tokens = 1024                   # the answer cap (local models: 1024 unless set)
# context_window = 8192               # tokens, when the server does not tell (llama-cpp-python)

# [models.cloud]
# endpoint = "https://openrouter.ai/api"
# model = "openai/gpt-4o-mini"
# key_env = "OPENROUTER_API_KEY"      # the key itself never lives in this file
# price_in = 0.15                     # dollars per million prompt tokens (when the provider reports no cost)
# price_out = 0.60

# [routing]                           # pick a model per ask (off by default)
# auto = false
# classes = { code = "deep" }         # reasoning and default keep the active model
# fallback = false                    # retry once on fallback_model when the local server fails
# fallback_model = "cloud"

[context]
max_turns = 20
budget_tokens = 6000
# summarize_on_evict = false          # fold evicted turns into a rolling summary
# summarizer_model = "fast"
# max_summary_chars = 2000
# max_question_chars = 12000         # a longer question or paste keeps its head and tail

# [mcp]                               # tools the model may call after you approve
# auto_approve = ["notes.read_note", "docs.*"]
# max_tool_depth = 8
# [mcp.servers.notes]
# url = "http://127.0.0.1:8765/mcp"   # or: command = ["mcp-server-time"] for stdio
# auth_env = "NOTES_TOKEN"

# [cost]
# warn_at_dollars = 0.50
# warn_at_tokens = 100000
# cap_at_dollars = 1.00               # refuse a call that would take this conversation past it
# cap_daily_dollars = 5.00            # the same for every conversation since midnight

# [tokenize]
# use_endpoint = false                # unset: local servers' /tokenize; true: clouds' too

# [safety]
# llm_model = "cloud"                 # second opinion on commands rated medium or unknown
# llm_timeout = 5.0                   # seconds a second opinion may hold the suggestions back
# second_opinion = "auto"             # no llm_model + a local model: unknown writers asked after the answer

# [norris]
# max_steps = 10                      # planned steps per task (? :norris GOAL)
# max_dollars = 0.25                  # halt once the task's planner calls cost this much
# autorun = "off"                     # "safe": steps known to only read run by themselves
# autorun_writes = "none"             # "workdir": autorun may also write under the task's directory

# [agents]
# propose_timeout = 600.0             # seconds an agent's proposed command waits for you

# [secrets]
# redact = true                       # replace tokens and passwords before anything is sent
'''


def render(cfg: Config) -> str:
    lines = []
    if cfg.source:
        lines.append(f"# from {cfg.source}")
    elif cfg.detected:
        lines.append(f"# no config file; detected {cfg.detected}")
    lines.append(f'default_model = "{cfg.default_model}"')
    for name, model in cfg.models.items():
        lines.append("")
        lines.append(f"[models.{_key(name)}]")
        lines.extend(_pairs(model, skip={"name"}))
    # every table of the schema, in its order (a list by hand left [fix], [memory] and
    # [delegate] out); [mcp] follows with its servers
    for f in fields(cfg):
        value = getattr(cfg, f.name)
        if f.name == "mcp" or not is_dataclass(value):
            continue
        lines.append("")
        lines.append(f"[{f.name}]")
        lines.extend(_pairs(value))
    lines.append("")
    lines.append("[mcp]")
    lines.extend(_pairs(cfg.mcp, skip={"servers"}))
    for alias, server in cfg.mcp.servers.items():
        lines.append("")
        lines.append(f"[mcp.servers.{_key(alias)}]")
        lines.extend(_pairs(server, skip={"alias"}))
    return "\n".join(lines) + "\n"


def _pairs(obj: Any, skip: AbstractSet[str] = frozenset()) -> list:
    out = []
    for f in fields(obj):
        if f.name in skip:
            continue
        value = getattr(obj, f.name)
        if value is None or value == {} and f.name == "env":
            continue
        if f.name == "auth_token":
            value = "****"
        if f.name == "env" and isinstance(value, dict):
            value = {k: "****" for k in value}
        line = f"{f.name} = {_toml(value)}"
        if f.name == "key_env":
            line += f"   # ${value} is {'set' if obj.api_key() else 'NOT SET'}"
        out.append(line)
    return out


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _key(name: str) -> str:
    """A TOML key as written: bare when TOML allows it, else quoted (``"gpt-4.1"``)."""
    return name if _BARE_KEY.fullmatch(name) else _toml(name)


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        inner = ", ".join(f"{_key(k)} = {_toml(v) if v is not None else _toml('')}" for k, v in value.items())
        return "{ " + inner + " }"
    if is_dataclass(value):
        return str(value)
    return _toml(str(value))
