"""No config file: find a model the user already has.

Local servers first (free, private), probed in parallel with a short timeout
on their usual ports, then cloud keys in the environment.  The result says
what it picked so the user is never surprised by where their text goes.
"""
from __future__ import annotations

import os
import socket
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Optional

from aish.config.schema import Config, ModelConfig

# (label, port) in order of preference; llama.cpp moved from 8080 to 9931 over time.
LOCAL_SERVERS: tuple[tuple[str, int], ...] = (
    ("llama.cpp", 8080),
    ("llama.cpp", 9931),
    ("Ollama", 11434),
    ("LM Studio", 1234),
    ("vLLM", 8000),
)

CLOUD_KEYS = (
    ("OPENROUTER_API_KEY", "OpenRouter", "https://openrouter.ai/api", "openai/gpt-4o-mini"),
    ("OPENAI_API_KEY", "OpenAI", "https://api.openai.com", "gpt-4o-mini"),
)

NOT_FOUND = ("no model configured and none found: start a local OpenAI-compatible server "
             "(llama.cpp on :8080, Ollama on :11434, LM Studio on :1234, vLLM on :8000), "
             "or export OPENROUTER_API_KEY, or run 'aish config init' and edit the file")


@dataclass
class Detected:
    model: ModelConfig
    description: str


def _port_open(port: int, timeout: float) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout):
            return True
    except OSError:
        return False


def served_models(endpoint: str, api_key: Optional[str] = None, timeout: float = 1.0) -> list[str]:
    """The model ids an endpoint lists at ``/v1/models`` (for `aish doctor`); raises
    the typed ``TransportError`` of what went wrong."""
    from aish.llm import broker

    return broker.list_models(endpoint, api_key=api_key, timeout=timeout)


def _probe(label: str, port: int, timeout: float) -> Optional[Detected]:
    if not _port_open(port, timeout):
        return None
    from aish.llm import broker

    endpoint = f"http://127.0.0.1:{port}"
    try:
        models = broker.list_models(endpoint, timeout=max(timeout * 4, 0.5))
    except Exception:
        return None
    name = models[0] if models else "default"
    return Detected(ModelConfig(name="fast", endpoint=endpoint, model=name),
                    f"{label} at {endpoint} (model {name})")


def detect(timeout: float = 0.15) -> Optional[Detected]:
    """Return the first local server that answers, else a cloud key's model, else None."""
    hosts = os.environ.get("AISH_DETECT_PORTS")
    servers = LOCAL_SERVERS
    if hosts is not None:  # tests and unusual setups: "label:port,label:port" or "" for none
        servers = tuple((item.split(":")[0], int(item.split(":")[1]))
                        for item in hosts.split(",") if ":" in item)
    if servers:
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
