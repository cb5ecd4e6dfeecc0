"""A server's own tokenizer, asked over HTTP: which route it serves, whether it is down for a
while, and one count per request.

Why probe instead of configure: llama.cpp serves ``POST /tokenize {content}``,
llama-cpp-python ``POST /extras/tokenize {input}``, clouds serve neither.  The first count
for an (endpoint, model) tries both and remembers the answer, so a server without a
tokenizer costs one probe per daemon, not one per count.  A request never waits more than
the tokenize timeout; a slow or failing tokenizer is left alone for ``RETRY_AFTER`` (the
counter uses char/4 meanwhile: ``llm/tokens.py``, which keeps the counts).

What is sent is redacted like a chat request, so a secret in a turn does not reach a
tokenizer either.  Requests go through ``aish.net`` like the chat itself: the same proxy/CA
policy (loopback never proxied), typed errors.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any, Optional

from aish.config.schema import TokenizeConfig
from aish.errors import AishError, ConnectFailed, DnsFailure, TransportTimeout

# (path, body key) in probe order
ROUTES = (("/tokenize", "content"), ("/extras/tokenize", "input"))
RETRY_AFTER = 300.0  # seconds a tokenizer that timed out or failed is left alone
_clock = time.monotonic  # (tests move it)

Key = tuple[str, str]  # (endpoint without its trailing slash, model)


@dataclass
class _Endpoint:
    """What is known of one tokenizer endpoint: its route, and until when it is down."""

    route: Optional[int] = None  # index into ROUTES once a probe succeeded
    unsupported: bool = False  # probe answered "no tokenizer here" (404, bad shape)
    down_until: float = 0.0  # transient failure: char/4 until then


class _Transient(Exception):
    """Timeout, refused connection or 5xx: the server may be busy; try again later."""


class Tokenizers:
    """Every server's tokenize route as found so far, and one keep-alive HTTP client."""

    def __init__(self, cfg: TokenizeConfig) -> None:
        self.cfg = cfg
        self.calls = 0  # HTTP tokenize requests made (probes included)
        self._client: Any = None  # aish.net.http_client.HttpClient, made on the first request
        self._lock = threading.Lock()
        self._endpoints: dict[Key, _Endpoint] = {}
        self._probing: dict[Key, threading.Lock] = {}

    # ------------------------------------------------------------ what is known
    def settled(self, key: Key) -> bool:
        """Would a count for ``key`` come out the same again (found, or known absent, and up)?"""
        with self._lock:
            state = self._endpoints.get(key)
            return state is not None and (state.route is not None or state.unsupported) \
                and _clock() >= state.down_until

    def ready(self, key: Key) -> bool:
        """Is its route found and up (a count now takes one request)?"""
        with self._lock:
            state = self._endpoints.get(key)
            return state is not None and state.route is not None and _clock() >= state.down_until

    def supported(self, key: Key) -> Optional[bool]:
        """True: real counts; False: none here for good; None: not probed yet, or down."""
        with self._lock:
            state = self._endpoints.get(key)
        if state is None:
            return None
        if state.route is not None:
            return True
        return False if state.unsupported else None

    # ------------------------------------------------------------ asking
    def count(self, key: Key, model_cfg: Any, text: str, *, redact: bool = True) -> Optional[int]:
        """The server's count of ``text``; None when it has no tokenizer, is down, or fails
        (then down for ``RETRY_AFTER``).  ``redact=False``: ``text`` went to this server
        as it is (a request's redacted text), not scanned again."""
        with self._lock:
            state = self._endpoints.setdefault(key, _Endpoint())
            if state.unsupported or _clock() < state.down_until:
                return None
            route = state.route
        if route is None:
            return self._probe(key, model_cfg, text, redact)
        return self._call_route(key, model_cfg, route, text, redact)

    def _probe(self, key: Key, model_cfg: Any, text: str, redact: bool) -> Optional[int]:
        """First count for this endpoint: find the route, or learn there is none (once)."""
        with self._lock:
            gate = self._probing.setdefault(key, threading.Lock())
        with gate:
            with self._lock:
                state = self._endpoints[key]
                route = state.route
                if route is None and (state.unsupported or _clock() < state.down_until):
                    return None
            if route is not None:  # another thread probed while we waited
                return self._call_route(key, model_cfg, route, text, redact)
            for index in range(len(ROUTES)):
                try:
                    n = self._post(model_cfg, index, text, redact)
                except _Transient:
                    self._mark_down(key)
                    return None
                if n is not None:
                    with self._lock:
                        state.route = index
                    return n
            with self._lock:
                state.unsupported = True
            return None

    def _call_route(self, key: Key, model_cfg: Any, route: int, text: str, redact: bool) -> Optional[int]:
        try:
            n = self._post(model_cfg, route, text, redact)
        except _Transient:
            n = None
        if n is None:
            self._mark_down(key)
        return n

    def _mark_down(self, key: Key) -> None:
        with self._lock:
            self._endpoints[key].down_until = _clock() + RETRY_AFTER

    def _post(self, model_cfg: Any, route: int, text: str, redact: bool) -> Optional[int]:
        """One tokenize request: the count, None for "no tokenizer here", _Transient otherwise."""
        path, field_name = ROUTES[route]
        url = model_cfg.endpoint.rstrip("/") + path
        headers = {"Content-Type": "application/json"}
        key = model_cfg.api_key()
        if key:
            headers["Authorization"] = f"Bearer {key}"
        body = {field_name: _redacted(text) if redact else text, "model": getattr(model_cfg, "model", "") or ""}
        with self._lock:
            self.calls += 1
        try:
            response = self._http().post(url, json=body, headers=headers, timeout=self.cfg.timeout,
                                         shown=model_cfg.endpoint)
        except (TransportTimeout, ConnectFailed, DnsFailure) as exc:
            raise _Transient() from exc
        except AishError:  # TLS, a bad URL: not a tokenizer we can use
            return None
        if response.status_code >= 500 or response.status_code == 429:
            raise _Transient()
        if response.status_code != 200:
            return None
        try:
            tokens = response.json().get("tokens")
        except (ValueError, AttributeError):
            return None
        return len(tokens) if isinstance(tokens, list) else None

    def _http(self) -> Any:
        """One keep-alive client per counter: a new connection per count would double its cost.

        Imported here: a counter that never probes (the default) never loads the HTTP stack.
        """
        if self._client is None:
            from aish.net.http_client import HttpClient

            with self._lock:
                if self._client is None:
                    self._client = HttpClient(direct=True)  # one count per new turn, on the ask's path
        return self._client


def _redacted(text: str) -> str:
    from aish.safety.secrets import Redactor  # only when a tokenizer is asked

    return Redactor().redact(text)
