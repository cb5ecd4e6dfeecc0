"""Decide whether a failed model call is retried once on ``routing.fallback_model``.

The question is "does this look like the local backend is down?" (seed phase
5 §5): a 5xx, a 404 for a model the server has not loaded, a 408, a refused
or unresolvable host, a timeout.  Everything else would fail the same way on
another model or is a bug to fix, so it is never retried: 400/401/403,
``api:`` envelopes (semantic), ``broker:`` errors (configuration), and any
failure after answer text reached the user (N3: a retry would repeat it).

Typed fields (``TransportError.kind``/``.status``) decide first; errors that
only carry text are matched on the seed's A2 shapes after the ``transport:``
prefix.  Raw requests/urllib3/socket exceptions (a caller that did not go
through the broker) are first shaped by ``transport.transport_error`` so the
same rules apply to them.
"""
from __future__ import annotations

import re
import socket
from typing import Optional

import requests
import urllib3.exceptions as u3

from aish.config.schema import Config
from aish.errors import AishError, ApiError, BrokerError, Cancelled, ConfigError, TransportError

TRANSPORT_PREFIX = "transport: "
# seed §5 + R-C5, matched after the prefix is stripped
PATTERNS = (
    ("http", re.compile(r"^HTTP 5\d\d\b")),
    ("model", re.compile(r"^HTTP 404\b.*model_not_found", re.DOTALL)),
    ("http", re.compile(r"^HTTP 408\b")),
    ("dns", re.compile(r"Couldn'?t resolve host", re.IGNORECASE)),
    ("refused", re.compile(r"Connection refused", re.IGNORECASE)),
    ("timeout", re.compile(r"Timeout was reached", re.IGNORECASE)),
    ("timeout", re.compile(r"Operation timed out", re.IGNORECASE)),
)
_NETWORK = (requests.RequestException, u3.HTTPError, ConnectionError, TimeoutError, socket.gaierror)


def _typed(err: BaseException) -> BaseException:
    """``err`` itself, or the TransportError a raw network exception stands for."""
    if isinstance(err, AishError) or not isinstance(err, _NETWORK):
        return err
    response = getattr(err, "response", None)
    if isinstance(err, requests.HTTPError) and response is not None:
        status = response.status_code
        return TransportError(f"HTTP {status}: {response.reason or 'error'}", kind="http", status=status)
    from aish.net.transport import transport_error

    return transport_error(err, "the model server", (0.0, 0.0))


def _eligible_transport(err: TransportError) -> Optional[bool]:
    """The decision from the typed fields, or None when they do not say."""
    if err.kind == "http" and err.status is not None:
        if 500 <= err.status <= 599 or err.status == 408:
            return True
        if err.status == 404:
            return "model_not_found" in err.message
        return False
    if err.kind in ("dns", "timeout"):
        return True
    if err.kind == "connect":
        return not err.message.startswith("TLS ")  # a TLS setup problem is a config fix
    if err.kind == "cut":
        return not err.partial_text  # the server died before answering: as good as down
    return None


def _match(text: str) -> Optional[str]:
    if not text.startswith(TRANSPORT_PREFIX):
        return None
    rest = text[len(TRANSPORT_PREFIX):]
    for name, pattern in PATTERNS:
        if pattern.search(rest):
            return name
    return None


def should_fallback(err: BaseException, cfg: Config, *, text_arrived: bool) -> bool:
    """True when the call that raised ``err`` should be retried on the fallback model."""
    if not cfg.routing.fallback or text_arrived or getattr(err, "partial_text", ""):
        return False
    err = _typed(err)
    if isinstance(err, (Cancelled, ConfigError, BrokerError, ApiError)):
        return False
    if isinstance(err, TransportError):
        decided = _eligible_transport(err)
        if decided is not None:
            return decided
    return _match(str(err)) is not None


def fallback_reason(err: BaseException) -> str:
    """A few words for the status line: "connection refused", "HTTP 503", "timeout"."""
    err = _typed(err)
    if isinstance(err, TransportError):
        message = err.message
        if err.kind == "http" and err.status is not None:
            if err.status == 404 and "model_not_found" in message:
                return "HTTP 404, model not loaded"
            return f"HTTP {err.status}"
        if err.kind == "dns":
            return "cannot resolve host"
        if err.kind == "timeout":
            return "timeout"
        if err.kind == "cut":
            return "stream cut short"
        if err.kind == "connect":
            if "refused" in message.lower():
                return "connection refused"
            if message.startswith("TLS "):
                return "TLS error"
            if "closed the connection" in message:
                return "connection closed"
            return "cannot connect"
    text = str(err)
    kind = _match(text)
    if kind == "http" or kind == "model":
        status = re.match(r"HTTP (\d{3})", text[len(TRANSPORT_PREFIX):])
        return f"HTTP {status.group(1)}" if status else "HTTP error"
    if kind is not None:
        return {"dns": "cannot resolve host", "refused": "connection refused",
                "timeout": "timeout"}[kind]
    if isinstance(err, AishError) and err.prefix:
        return err.prefix.rstrip(": ") + " error"
    first = text.splitlines()[0] if text else type(err).__name__
    return first if len(first) <= 60 else first[:57] + "..."


def fallback_status(local_name: str, err: BaseException, fallback_name: str) -> str:
    """The seed's status line (``Reply.status`` adds ``[aish] ``)."""
    return f"local {local_name} failed ({fallback_reason(err)}); retrying via {fallback_name}"


def both_failed_message(local_name: str, first_err: BaseException, fallback_name: str,
                        second_err: BaseException) -> str:
    """One line with both reasons in full, so either can be fixed from it."""
    return (f"{local_name} failed: {_full(first_err)}; "
            f"fallback {fallback_name} failed too: {_full(second_err)}")


def _full(err: BaseException) -> str:
    text = " ".join(str(_typed(err)).split())  # a raw requests error would show its internals
    return text or type(err).__name__
