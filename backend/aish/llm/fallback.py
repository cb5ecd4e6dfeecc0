"""Decide whether a failed model call is retried once on ``routing.fallback_model``.

The question is "does this look like the local backend is down?": a 5xx, a
404 for a model the server has not loaded, a 408, a refused, closed or
unresolvable host, a timeout, a stream that died before any text.
Everything else would fail the same way on another model or is a fix for the
user, so it is never retried: 400/401/403/429, TLS problems, ``ApiError``
(semantic), ``BrokerError``/``ConfigError`` (configuration), and any failure
after answer text reached the user (a retry would repeat it).

The decision is made on the error's class (``aish.errors``), never on its
text: every failure of a model call reaches here typed (``net.transport.failures``
is the one boundary where requests/urllib3/socket exceptions get their class).
"""
from __future__ import annotations

from aish.config.schema import Config
from aish.errors import (AishError, ConnectFailed, ConnectRefused, Disconnected, DnsFailure,
                         HttpStatusError, StreamCut, TlsError, TransportTimeout)

MODEL_NOT_LOADED = "model_not_found"


def _eligible_status(err: HttpStatusError) -> bool:
    if 500 <= err.status <= 599 or err.status == 408:
        return True
    return err.status == 404 and err.code == MODEL_NOT_LOADED


def should_fallback(err: BaseException, cfg: Config, *, text_arrived: bool) -> bool:
    """True when the call that raised ``err`` should be retried on the fallback model."""
    if not cfg.routing.fallback or text_arrived or bool(getattr(err, "partial_text", "")):
        return False
    if isinstance(err, HttpStatusError):
        return _eligible_status(err)
    if isinstance(err, StreamCut):
        return not err.partial_text  # the server died before answering: as good as down
    return isinstance(err, (ConnectFailed, DnsFailure, TransportTimeout))


def fallback_reason(err: BaseException) -> str:
    """A few words for the status line: "connection refused", "HTTP 503", "timeout"."""
    if isinstance(err, HttpStatusError):
        if err.status == 404 and err.code == MODEL_NOT_LOADED:
            return "HTTP 404, model not loaded"
        return f"HTTP {err.status}"
    reasons = ((ConnectRefused, "connection refused"), (Disconnected, "connection closed"),
               (ConnectFailed, "cannot connect"), (DnsFailure, "cannot resolve host"),
               (TransportTimeout, "timeout"), (StreamCut, "stream cut short"), (TlsError, "TLS error"))
    for cls, reason in reasons:
        if isinstance(err, cls):
            return reason
    if isinstance(err, AishError) and err.prefix:
        return err.prefix.rstrip(": ") + " error"
    text = str(err)
    first = text.splitlines()[0] if text else type(err).__name__
    return first if len(first) <= 60 else first[:57] + "..."


def fallback_status(local_name: str, err: BaseException, fallback_name: str) -> str:
    """The status line (``Reply.status`` adds ``[aish] ``)."""
    return f"local {local_name} failed ({fallback_reason(err)}); retrying via {fallback_name}"


def both_failed_message(local_name: str, first_err: BaseException, fallback_name: str,
                        second_err: BaseException) -> str:
    """One line with both reasons in full, so either can be fixed from it."""
    return (f"{local_name} failed: {_full(first_err)}; "
            f"fallback {fallback_name} failed too: {_full(second_err)}")


def _full(err: BaseException) -> str:
    text = " ".join(str(err).split())
    return text or type(err).__name__
