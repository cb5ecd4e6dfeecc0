"""HTTP for the callers other than the chat broker (tokenizer probe, MCP servers).

Same sessions, proxy/CA policy (loopback never proxied, ``~/.netrc`` never
read) and typed errors as the broker, so a proxy, a CA bundle or a refused
port behaves the same for every request aish makes.  Status codes are not
errors here: each caller knows what a 404 means for it.
"""
from __future__ import annotations

import threading
from typing import Any, Iterator, Optional, Union

from aish.net import loopback
from aish.net.transport import chunks, env_settings, failures, new_session

Timeout = Union[float, tuple[float, float]]


def _pair(timeout: Timeout) -> tuple[float, float]:
    return timeout if isinstance(timeout, tuple) else (timeout, timeout)


class HttpClient:
    """One keep-alive session for a caller; failures raise ``aish.errors`` transport types.

    ``shown`` names the server in error messages (a URL without user info or
    query, which may carry a token).
    """

    def __init__(self, direct: bool = False) -> None:
        self._session: Any = None
        self._lock = threading.Lock()
        self.direct = direct  # plain calls to a server on this machine skip requests (loopback.py)

    def request(self, method: str, url: str, *, timeout: Timeout, shown: Optional[str] = None,
                **kwargs: Any) -> Any:
        """The response (any status); ``stream=True`` leaves the body to ``body_chunks``."""
        if self.direct and not kwargs.get("stream") and loopback.applies(url):
            session = loopback.take(url)
            with failures(shown or url, _pair(timeout)):
                response = session.request(method, url, timeout=timeout, **kwargs)
            loopback.give(session)  # the body came with the reply: the connection is free
            return response
        proxies, verify = env_settings(url)
        with failures(shown or url, _pair(timeout)):
            return self._http().request(method, url, timeout=timeout, proxies=proxies, verify=verify,
                                        **kwargs)

    def post(self, url: str, **kwargs: Any) -> Any:
        return self.request("POST", url, **kwargs)

    def delete(self, url: str, **kwargs: Any) -> Any:
        return self.request("DELETE", url, **kwargs)

    def close(self) -> None:
        with self._lock:
            session, self._session = self._session, None
        if session is not None:
            session.close()

    def _http(self) -> Any:
        with self._lock:
            if self._session is None:
                self._session = new_session()
            return self._session


def body_chunks(resp: Any, shown: str, timeout: Timeout) -> Iterator[bytes]:
    """A streamed response's body as it arrives; a failure mid-body raises the typed error
    (``ReadTimeout`` when the server went quiet, ``StreamCut`` when the connection broke)."""
    with failures(shown, _pair(timeout), streaming=True):
        yield from chunks(resp.raw, [False])
