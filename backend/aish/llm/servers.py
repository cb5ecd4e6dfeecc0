"""What a model server is, told by what it answers (never by its port), and what it says
about its limits: the context window, whether it ignores the model name, its prices.

Why by its answers: llama-cpp-python's default port is vLLM's (8000), LM Studio and a LiteLLM
proxy can sit anywhere, and llama.cpp moved from 8080 to 9931.  Each server family leaves a
mark in the answers every one of them gives:

    llama.cpp         /v1/models ``owned_by: llamacpp`` (``meta.n_ctx``); ``/props`` n_ctx
    llama-cpp-python  /v1/models ``owned_by: me``; its ``/openapi.json`` title (answers while
                      /v1/models waits for a generation in progress)
    vLLM              /v1/models ``owned_by: vllm`` with ``max_model_len``
    Ollama            /v1/models ``owned_by: library``; ``/api/show`` num_ctx and the model's length
    LM Studio         /v1/models ``owned_by: organization_owner``; ``/api/v0/models/<id>``
    LiteLLM proxy     ``/v1/model/info`` (its deployments, windows and prices)
    OpenRouter        by host; ``/v1/models`` context_length and pricing per token

Nothing here raises but the transport error of an unreachable ``/v1/models`` (detection
and ``aish doctor`` need to tell "down" from "busy"); every other probe that fails only
leaves its field unknown.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Optional
from urllib.parse import quote, urlparse

from aish.errors import ReadTimeout, TransportError

LLAMA_CPP = "llama.cpp"
LLAMA_CPP_PYTHON = "llama-cpp-python"
VLLM = "vLLM"
OLLAMA = "Ollama"
LM_STUDIO = "LM Studio"
LITELLM = "LiteLLM"
OPENROUTER = "OpenRouter"
OPENAI = "OpenAI"

_OWNERS = {"llamacpp": LLAMA_CPP, "me": LLAMA_CPP_PYTHON, "vllm": VLLM, "library": OLLAMA,
           "ollama": OLLAMA, "organization_owner": LM_STUDIO}
_HOSTS = {"openrouter.ai": OPENROUTER, "api.openai.com": OPENAI}
OLLAMA_DEFAULT_CTX = 4096  # what Ollama gives a model with no num_ctx on a small GPU or a CPU


@dataclass
class ServerInfo:
    """What one endpoint told about itself and one of its models (unknowns stay None)."""

    kind: str = ""  # one of the names above, "" when nothing told
    models: list = field(default_factory=list)  # ids it lists ([] when busy or unknown)
    window: Optional[int] = None  # context window of the model asked about, in tokens
    ignores_name: bool = False  # serves its one model whatever the request names
    gateway: bool = False  # a proxy in front of other servers: its model list proves nothing
    price_in: Optional[float] = None  # dollars per million prompt tokens, from its listing
    price_out: Optional[float] = None
    answer_max: Optional[int] = None  # the longest answer its listing allows
    busy: bool = False  # it answered, but its model list waited on a generation in progress

    @property
    def label(self) -> str:
        return self.kind or "an OpenAI-compatible server"


class _Get:
    """GETs (and a POST) against one endpoint; a non-JSON or failed probe is None."""

    def __init__(self, endpoint: str, api_key: Optional[str], timeout: float) -> None:
        from aish.net.http_client import HttpClient

        self.base = endpoint.rstrip("/")
        self.headers = {"Accept": "application/json"}
        if api_key:
            self.headers["Authorization"] = f"Bearer {api_key}"
        self.timeout = timeout
        self.http = HttpClient(direct=True)  # loopback: no requests import on a first ask

    def json(self, path: str, *, method: str = "GET", body: Optional[dict] = None,
             strict: bool = False) -> Any:
        """The JSON body of a 200, else None; ``strict`` lets transport errors through."""
        try:
            resp = self.http.request(method, self.base + path, timeout=self.timeout, shown=self.base,
                                     headers=self.headers, json=body)
        except TransportError:
            if strict:
                raise
            return None
        try:
            if resp.status_code != 200:
                if strict and resp.status_code in (401, 403):
                    from aish.llm.chunks import http_error

                    raise http_error(resp.status_code, resp.reason, resp.content, self.base, None)
                return None
            return resp.json()
        except ValueError:
            return None
        finally:
            resp.close()

    def close(self) -> None:
        self.http.close()


def identify(endpoint: str, model: str = "", *, api_key: Optional[str] = None,
             timeout: float = 1.0) -> ServerInfo:
    """What ``endpoint`` is and what it says about ``model``.

    Raises the ``TransportError`` of ``/v1/models`` only when the server cannot be reached
    (refused, unresolvable, TLS); a server that takes longer than ``timeout`` to list its
    models is ``busy`` rather than down."""
    get = _Get(endpoint, api_key, timeout)
    try:
        return _identify(get, endpoint, model)
    finally:
        get.close()


def _identify(get: _Get, endpoint: str, model: str) -> ServerInfo:
    host = (urlparse(endpoint).hostname or "").lower()
    info = ServerInfo(kind=_HOSTS.get(host, ""))
    try:
        listing = get.json("/v1/models", strict=True)
    except ReadTimeout:
        info.busy = True
        listing = None
        title = str(((get.json("/openapi.json") or {}).get("info") or {}).get("title") or "")
        if "llama.cpp python" in title.lower():
            info.kind, info.ignores_name = LLAMA_CPP_PYTHON, True
    entries = [e for e in (listing or {}).get("data") or [] if isinstance(e, dict)]
    info.models = [e["id"] for e in entries if isinstance(e.get("id"), str)]
    entry = next((e for e in entries if e.get("id") == model), None)
    if entry is None and len(entries) == 1:
        entry = entries[0]
    owners = {str(e.get("owned_by") or "") for e in entries}
    if not info.kind:
        info.kind = next((_OWNERS[o] for o in owners if o in _OWNERS), "")
    learn = _LEARN.get(info.kind, _learn_unknown)
    learn(get, info, entry or {}, model)
    return info


def _learn_llama_cpp(get: _Get, info: ServerInfo, entry: dict, model: str) -> None:
    """One model (ignores the request's name) unless it runs as a router of several."""
    info.ignores_name = len(info.models) <= 1
    meta = _table(entry.get("meta"))
    window = _int(meta.get("n_ctx"))
    if window is None:
        props = get.json("/props") or {}
        settings = props.get("default_generation_settings") or {}
        window = _int(settings.get("n_ctx")) or _int(props.get("n_ctx"))
    info.window = window


def _learn_llama_cpp_python(get: _Get, info: ServerInfo, entry: dict, model: str) -> None:
    """It serves its default model for any name it does not know, and tells no window
    (the first overflow's error does: ``maximum context length is N tokens``)."""
    info.ignores_name = True


def _learn_vllm(get: _Get, info: ServerInfo, entry: dict, model: str) -> None:
    info.window = _int(entry.get("max_model_len"))


def _learn_ollama(get: _Get, info: ServerInfo, entry: dict, model: str) -> None:
    """The window it runs the model with: a loaded model's, else its num_ctx, else the default
    (Ollama cuts a longer prompt from the front, system message first, without an error)."""
    name = model or (info.models[0] if info.models else "")
    for loaded in (get.json("/api/ps") or {}).get("models") or []:
        if isinstance(loaded, dict) and name in (loaded.get("name"), loaded.get("model")):
            if _int(loaded.get("context_length")):
                info.window = _int(loaded.get("context_length"))
                return
    shown = get.json("/api/show", method="POST", body={"model": name}) or {}
    found = re.search(r"^num_ctx\s+(\d+)", str(shown.get("parameters") or ""), re.M)
    trained = next((_int(v) for k, v in (shown.get("model_info") or {}).items()
                    if str(k).endswith(".context_length")), None)
    window = int(found.group(1)) if found else OLLAMA_DEFAULT_CTX
    info.window = min(window, trained) if trained else window


def _learn_lm_studio(get: _Get, info: ServerInfo, entry: dict, model: str) -> None:
    name = model or (info.models[0] if info.models else "")
    about = get.json(f"/api/v0/models/{quote(name, safe='')}") or {}
    info.window = _int(about.get("loaded_context_length")) or _int(about.get("max_context_length"))


def _learn_openrouter(get: _Get, info: ServerInfo, entry: dict, model: str) -> None:
    """Its listing has every model's window, answer limit and price per token."""
    info.gateway = True
    info.window = _int(entry.get("context_length"))
    top = _table(entry.get("top_provider"))
    info.answer_max = _int(top.get("max_completion_tokens"))
    pricing = _table(entry.get("pricing"))
    info.price_in = _per_million(pricing.get("prompt"))
    info.price_out = _per_million(pricing.get("completion"))


def _learn_unknown(get: _Get, info: ServerInfo, entry: dict, model: str) -> None:
    """A LiteLLM proxy answers ``/v1/model/info`` with its deployments; anything else stays
    an OpenAI-compatible server whose window the config must give."""
    deployments = (get.json("/v1/model/info") or {}).get("data")
    if not isinstance(deployments, list) or not any(isinstance(d, dict) and "model_name" in d
                                                    for d in deployments):
        return
    info.kind, info.gateway = LITELLM, True
    for deployment in deployments:
        if not isinstance(deployment, dict) or deployment.get("model_name") != model:
            continue
        about = _table(deployment.get("model_info"))
        info.window = _int(about.get("max_input_tokens")) or _int(about.get("max_tokens"))
        info.answer_max = _int(about.get("max_output_tokens"))
        info.price_in = _per_million(about.get("input_cost_per_token"))
        info.price_out = _per_million(about.get("output_cost_per_token"))
        return


_LEARN = {LLAMA_CPP: _learn_llama_cpp, LLAMA_CPP_PYTHON: _learn_llama_cpp_python, VLLM: _learn_vllm,
          OLLAMA: _learn_ollama, LM_STUDIO: _learn_lm_studio, OPENROUTER: _learn_openrouter,
          OPENAI: lambda *a: None}


def _table(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def _int(value: Any) -> Optional[int]:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)) and value > 0:
        return int(value)
    if isinstance(value, str) and value.isdigit() and int(value) > 0:
        return int(value)
    return None


def _per_million(value: Any) -> Optional[float]:
    """A price per token (a number or OpenRouter's decimal string) in dollars per million."""
    try:
        price = float(value)
    except (TypeError, ValueError):
        return None
    return price * 1_000_000 if price >= 0 else None
