"""The configuration's shape: one dataclass per section, with its defaults.

Every field's annotation is checked by the loader (``load._fill``), so a new
field needs nothing more than its annotation and default.
"""
from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional
from urllib.parse import urlparse

from aish.errors import ConfigError


@dataclass
class ModelConfig:
    """One OpenAI-compatible endpoint + model; ``/v1/chat/completions`` is appended."""

    name: str = ""
    endpoint: str = ""
    model: str = ""
    key_env: Optional[str] = None
    connect_timeout: float = 3.0
    read_timeout: float = 120.0
    include_usage: bool = True  # send stream_options.include_usage
    price_in: Optional[float] = None  # dollars per million prompt tokens
    price_out: Optional[float] = None  # dollars per million completion tokens
    max_tokens: Optional[int] = None  # answer cap; None: 1024 for a local model, none for a cloud one
    temperature: Optional[float] = None
    local: Optional[bool] = None  # None: decided from the endpoint host
    context_window: Optional[int] = None  # tokens; None: what the server tells (or its first error)

    def api_key(self) -> Optional[str]:
        if not self.key_env:
            return None
        return os.environ.get(self.key_env) or None

    @property
    def is_local(self) -> bool:
        """Loopback and private hosts are local: free, and fallback candidates."""
        if self.local is not None:
            return self.local
        return _local_endpoint(self.endpoint)

    @property
    def chat_url(self) -> str:
        return self.endpoint.rstrip("/") + "/v1/chat/completions"


@functools.lru_cache(maxsize=64)
def _local_endpoint(endpoint: str) -> bool:
    """Is the endpoint's host loopback or private (asked several times per call: parsed once)?"""
    host = (urlparse(endpoint).hostname or "").lower()
    if host in ("localhost", "::1") or host.startswith("127.") or host.endswith(".local"):
        return True
    if host.startswith(("10.", "192.168.")):
        return True
    if host.startswith("172."):
        try:
            return 16 <= int(host.split(".")[1]) <= 31
        except (IndexError, ValueError):
            return False
    return False


@dataclass
class RoutingConfig:
    """``[routing]``: which model a question goes to, and the fallback when it fails."""

    auto: bool = False
    fallback: bool = False
    fallback_model: str = "cloud"
    classes: dict = field(default_factory=lambda: {"code": "deep", "reasoning": None, "default": None})


@dataclass
class ContextConfig:
    """``[context]``: what a conversation keeps and sends (turns, budget, output, summary)."""

    max_turns: int = 20  # user+assistant pairs kept verbatim
    budget_tokens: int = 6000  # prompt budget for the conversation
    summarize_on_evict: bool = False
    summarizer_model: str = "fast"
    max_summary_chars: int = 2000
    summarizer_timeout: float = 30.0
    summarizer_max_tokens: int = 300
    command_output: str = "auto"  # "auto": send the last command's output with a question; "off"
    output_max_lines: int = 200  # head + tail kept within both caps
    output_max_bytes: int = 8192
    max_question_chars: int = 12000  # one ask's question (typed, pasted, piped): head + tail kept
    evict_slack: float = 0.25  # evict this fraction below the limits at once (prompt cache)
    tree_depth: int = 3  # `? :tree`
    tree_max_entries: int = 300
    diff_max_chars: int = 12000  # `? :diff`
    notes_max_chars: int = 4000  # a project's AISH.md in the system message


@dataclass
class FixConfig:
    """The "fix it" key: when to draft a fix for a failed command before it is asked for."""

    prepare: str = "local"  # "local": only when the default model is local; "always"; "off"


@dataclass
class McpServerConfig:
    """One ``[mcp.servers.ALIAS]``: a stdio command or a URL, and how to reach it."""

    alias: str = ""
    url: Optional[str] = None
    command: Optional[list] = None
    env: dict = field(default_factory=dict)  # a stdio server's variables, over a safe default set
    cwd: Optional[str] = None  # a stdio server's working directory (`~` expanded)
    auth_token: Optional[str] = None
    auth_env: Optional[str] = None
    transport: str = "auto"  # a URL's: "http" (Streamable HTTP), "sse" (legacy), auto: by path
    trusted: bool = False
    timeout: float = 30.0  # seconds per call (time spent answering its questions not counted)
    enabled_tools: list = field(default_factory=list)  # offer only these (patterns); empty: all
    disabled_tools: list = field(default_factory=list)  # never offer these (patterns)
    roots: bool = True  # offer the shell's directory as the server's roots (false: what its command says)

    def bearer(self) -> Optional[str]:
        """The token to send: an ``auth_token`` literal wins over ``auth_env``, else none."""
        if self.auth_token:
            return self.auth_token
        if self.auth_env:
            return os.environ.get(self.auth_env) or None
        return None


@dataclass
class McpConfig:
    """``[mcp]``: the servers, which tools run without asking, and how long a question waits."""

    servers: dict = field(default_factory=dict)  # alias -> McpServerConfig
    auto_approve: list = field(default_factory=list)  # "alias.tool" or "alias.*"
    max_tool_depth: int = 8
    max_result_chars: int = 8000
    approval_timeout: float = 120.0
    auto_approve_read_only_trusted: bool = False
    max_message_mb: float = 16.0  # a server's answer larger than this is not read
    connect_wait: float = 5.0  # the longest a question waits for a server's handshake


@dataclass
class CostConfig:
    """``[cost]``: when to warn about spending, and the cap a call may not cross."""

    warn_at_dollars: Optional[float] = None
    warn_at_tokens: Optional[int] = None
    cap_at_dollars: Optional[float] = None  # per conversation: a call that would cross it is refused
    cap_daily_dollars: Optional[float] = None  # across every conversation since local midnight


@dataclass
class TokenizeConfig:
    """``[tokenize]``: whether a server's tokenizer counts the tokens."""

    use_endpoint: Optional[bool] = None  # None: local servers' tokenizers yes, clouds no
    timeout: float = 2.0


@dataclass
class SafetyConfig:
    """``[safety]``: the second opinion on suggested commands."""

    llm_model: Optional[str] = None  # second opinion for medium-rated or unknown commands
    llm_timeout: float = 5.0  # the longest a second opinion may hold the suggestions back
    # "auto": without llm_model, a local default model gives unknown writers a second opinion
    # after the answer (never waited on, cached); "off": never
    second_opinion: str = "auto"


@dataclass
class NorrisConfig:
    """Multi-step tasks (``? :norris GOAL``): the planner's limits and autorun policy."""

    max_steps: int = 10  # planned steps per task; the task halts when it reaches them
    max_dollars: Optional[float] = None  # cost of the task's planner calls; None: no cap
    autorun: str = "off"  # "off" | "safe": the shell runs steps known to only read (safety/autorun.py)
    autorun_writes: str = "none"  # "none" | "workdir": autorun may also write under the task's directory
    max_failures: int = 3  # failed steps in a row that halt the task


@dataclass
class AgentsConfig:
    """Coding agents acting through the user's shell (``aish mcp-server``, docs/agents.md)."""

    propose_timeout: float = 600.0  # seconds a proposed command waits for the user at most


@dataclass
class SecretsConfig:
    """``[secrets]``: whether secrets are redacted before anything leaves the machine."""

    redact: bool = True


@dataclass
class MemoryConfig:
    """Facts every answer should know (`? :remember`), kept in the state dir."""

    enabled: bool = True
    max_facts: int = 50
    max_chars: int = 4000  # all facts together; the [background] block never grows past it
    summarizer_model: str = "fast"  # `aish memory summarize`


@dataclass
class DelegateConfig:
    """Handing a sub-task to another configured model (`? :delegate`, `DELEGATE:` lines)."""

    allow: list = field(default_factory=list)  # models the main model may delegate to; empty = off
    max_chars: int = 8000  # of a delegated answer brought back into the conversation


@dataclass
class Config:
    """The whole configuration: the models and one section of each kind."""

    default_model: str = "fast"
    models: dict = field(default_factory=dict)  # name -> ModelConfig
    routing: RoutingConfig = field(default_factory=RoutingConfig)
    context: ContextConfig = field(default_factory=ContextConfig)
    mcp: McpConfig = field(default_factory=McpConfig)
    cost: CostConfig = field(default_factory=CostConfig)
    tokenize: TokenizeConfig = field(default_factory=TokenizeConfig)
    safety: SafetyConfig = field(default_factory=SafetyConfig)
    secrets: SecretsConfig = field(default_factory=SecretsConfig)
    fix: FixConfig = field(default_factory=FixConfig)
    memory: MemoryConfig = field(default_factory=MemoryConfig)
    delegate: DelegateConfig = field(default_factory=DelegateConfig)
    norris: NorrisConfig = field(default_factory=NorrisConfig)
    agents: AgentsConfig = field(default_factory=AgentsConfig)
    source: Optional[Path] = None  # the file it came from, if any
    detected: Optional[str] = None  # how the model was found when there was no file

    def model(self, name: Optional[str] = None) -> ModelConfig:
        name = name or self.default_model
        try:
            return self.models[name]
        except KeyError:
            raise ConfigError(
                f"no model named '{name}' is configured",
                hint=f"add a [models.{name}] table to {self.source or 'the config'} "
                "or run 'aish config init'",
            ) from None
