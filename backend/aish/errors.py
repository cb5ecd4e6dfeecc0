"""The error tree every layer raises and the CLI and widgets render as one line.

Each error carries a message the user can act on.  ``str(err)`` starts with a
stage prefix (``transport:``, ``api:``, ``broker:``) because the cloud fallback
(seed phase 5, A2) decides on that stage: transport failures may be retried on
another model, semantic (``api:``) and configuration (``broker:``) ones never.

    AishError
    ├── ConfigError        bad or missing configuration (file, key, type)
    ├── BrokerError        "broker: ..."  a model entry that cannot be called
    ├── TransportError     "transport: ..." HTTP status, refused, DNS, timeout, cut stream
    ├── ApiError           "api: ..."  an error envelope from the server
    ├── ToolError          MCP server or tool failures
    ├── DaemonError        the per-user daemon cannot be reached or started
    └── ProtocolError      a malformed request or frame
"""
from __future__ import annotations


class AishError(Exception):
    """Base class: ``str(err)`` is one line a user can act on."""

    prefix = ""

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        self.message = message
        self.hint = hint
        super().__init__(message)

    def __str__(self) -> str:
        text = f"{self.prefix}{self.message}" if self.prefix else self.message
        if self.hint:
            text = f"{text} ({self.hint})"
        return text


class ConfigError(AishError):
    """The configuration cannot be used; the message names file, key and fix."""


class BrokerError(AishError):
    """A model entry is unusable before any request is made (seed shape ``broker:``)."""

    prefix = "broker: "


class TransportError(AishError):
    """The HTTP exchange failed (seed shape ``transport:``).

    ``kind`` is one of ``http`` (status >= 400), ``connect`` (refused or
    unreachable), ``dns``, ``timeout``, ``cut`` (stream ended before it was
    complete) or ``other``.  ``partial_text`` keeps what arrived before a cut.
    """

    prefix = "transport: "

    def __init__(
        self,
        message: str,
        *,
        kind: str = "other",
        status: int | None = None,
        partial_text: str = "",
        hint: str | None = None,
    ) -> None:
        super().__init__(message, hint=hint)
        self.kind = kind
        self.status = status
        self.partial_text = partial_text


class ApiError(AishError):
    """The server answered with an error envelope (seed shape ``api:``)."""

    prefix = "api: "

    def __init__(self, message: str, *, code: object = None, partial_text: str = "",
                 hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.code = code
        self.partial_text = partial_text


class ToolError(AishError):
    """An MCP server or tool call failed at the protocol level."""

    prefix = "mcp: "


class DaemonError(AishError):
    """The daemon is not reachable, or cannot be started."""


class ProtocolError(AishError):
    """A request or frame does not follow docs/protocol.md."""


class Cancelled(AishError):
    """The user cancelled (Ctrl-C, or the client went away)."""

    def __init__(self, message: str = "cancelled") -> None:
        super().__init__(message)
