"""No config file: find a model the user already has.

Local servers first (free, private), probed in parallel with a short timeout
on their usual ports, then cloud keys in the environment.  The result says
what it picked so the user is never surprised by where their text goes.

A server is named by what it answers (``llm.servers``), never by its port:
llama-cpp-python's default port is vLLM's.  A server busy generating for another
client may not list its models in time; it is found all the same when it tells
what it is.  The daemon checks that a detected server is still there before each
ask (``still_there``) and looks again when it is gone: servers move and restart.
"""
from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

from aish.config.schema import Config, ModelConfig
from aish.errors import AishError

if TYPE_CHECKING:
    from aish.llm.servers import ServerInfo

# (the usual server, port) in order of preference; llama.cpp moved from 8080 to 9931 over time.
# The label only names the port in messages: a server is named by what it answers.
LOCAL_SERVERS: tuple[tuple[str, int], ...] = (
    ("llama.cpp", 8080),
    ("llama.cpp", 9931),
    ("Ollama", 11434),
    ("LM Studio", 1234),
    ("vLLM", 8000),
)

# seconds a listening port gets to tell what it is (at least four probe time-outs): a server
# busy generating lists its models later than that and is named from what else it answers
IDENTIFY_AT_LEAST = 0.6

CLOUD_KEYS = (
    ("OPENROUTER_API_KEY", "OpenRouter", "https://openrouter.ai/api", "openai/gpt-4o-mini"),
    ("OPENAI_API_KEY", "OpenAI", "https://api.openai.com", "gpt-4o-mini"),
)

NOT_FOUND = ("no model configured and none found: start a local OpenAI-compatible server "
             "(llama.cpp on :8080, Ollama on :11434, LM Studio on :1234, vLLM on :8000), "
             "or export OPENROUTER_API_KEY, or run 'aish config init' and edit the file")


@dataclass
class Detected:
    """A server found on this machine without a config: where, which kind, which model."""

    model: ModelConfig
    description: str


def _port_open(port: int, timeout: float) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout):
            return True
    except OSError:
        return False


def describe(model: ModelConfig, timeout: float = 1.0) -> ServerInfo:
    """What serves ``model`` (for `aish doctor`); raises the typed ``TransportError`` when it
    cannot be reached, or an ``HttpStatusError`` for a refused key."""
    from aish.llm import servers

    return servers.identify(model.endpoint, model.model, api_key=model.api_key(), timeout=timeout)


def try_answer(model: ModelConfig, timeout: float = 30.0) -> Optional[AishError]:
    """A one-token request to ``model``: None when it answers, else the error (a gateway lists
    its models whether or not the servers behind it are up)."""
    from aish.llm import broker

    try:
        broker.chat_once(model, [{"role": "user", "content": "Say OK."}], max_tokens=1,
                         timeout=(model.connect_timeout, timeout))
    except AishError as err:
        return err
    return None


def served_models(endpoint: str, api_key: Optional[str] = None, timeout: float = 1.0) -> list[str]:
    """The model ids an endpoint lists at ``/v1/models`` (for `aish doctor`); raises
    the typed ``TransportError`` of what went wrong."""
    from aish.llm import broker

    return broker.list_models(endpoint, api_key=api_key, timeout=timeout)


def _probe(label: str, port: int, timeout: float) -> Optional[Detected]:
    if not _port_open(port, timeout):
        return None
    from aish.llm import servers

    endpoint = f"http://127.0.0.1:{port}"
    try:
        info = servers.identify(endpoint, timeout=max(timeout * 4, IDENTIFY_AT_LEAST))
    except Exception:
        return None
    if not info.models and not info.kind:  # it listens, but tells nothing of a model server
        return None
    name = info.models[0] if info.models else "default"
    busy = "; busy: it did not list its models in time" if info.busy else ""
    return Detected(ModelConfig(name="fast", endpoint=endpoint, model=name),
                    f"{info.label} at {endpoint} (model {name}{busy})")


def still_there(cfg: Config) -> bool:
    """Whether a detected local server still listens (a refused connect costs microseconds)."""
    model = cfg.models.get(cfg.default_model)
    if model is None or not model.is_local:
        return True
    from urllib.parse import urlparse

    port = urlparse(model.endpoint).port
    return port is None or _port_open(port, 0.2)


def detect(timeout: float = 0.15) -> Optional[Detected]:
    """Return the first local server that answers, else a cloud key's model, else None."""
    hosts = os.environ.get("AISH_DETECT_PORTS")
    servers = LOCAL_SERVERS
    if hosts is not None:  # tests and unusual setups: "label:port,label:port" or "" for none
        servers = tuple((item.split(":")[0], int(item.split(":")[1]))
                        for item in hosts.split(",") if ":" in item)
    if servers:
        from concurrent.futures import ThreadPoolExecutor  # only when probing: not for a configured model

        with ThreadPoolExecutor(max_workers=len(servers)) as pool:
            for found in pool.map(lambda s: _probe(s[0], s[1], timeout), servers):
                if found:
                    return found
    for env_name, label, endpoint, model in CLOUD_KEYS:
        if os.environ.get(env_name):
            model = os.environ.get("AISH_MODEL") or model
            return Detected(ModelConfig(name="fast", endpoint=endpoint, model=model, key_env=env_name),
                            f"{label} via ${env_name} (model {model})")
    return None


def apply(cfg: Config, timeout: float = 0.15) -> Config:
    """Fill an empty config with a detected model; leaves ``cfg.models`` empty if none."""
    if cfg.models:
        return cfg
    found = detect(timeout)
    if found:
        cfg.models = {"fast": found.model}
        cfg.default_model = "fast"
        cfg.detected = found.description
    return cfg
