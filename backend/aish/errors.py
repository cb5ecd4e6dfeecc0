"""The error tree every layer raises and the CLI and widgets render as one line.

Callers decide by type, never by matching message text: the cloud fallback
retries ``TransportError`` subclasses that mean "the server is down" and never
``ApiError`` (semantic) or ``BrokerError`` (configuration).  ``str(err)`` is
the documented one-line shape, starting with a stage prefix (``transport:``,
``api:``, ``broker:``, ``mcp:``) and ending with the hint in parentheses.
Each class has a ``kind`` (``config``, ``transport``, ``timeout``...): what travels
in the daemon's ``E`` frame beside the message and the hint, and what the CLI
turns into its exit status (docs/verbs.md, Exit statuses).

``Cancelled`` is not in the tree: a user who pressed Ctrl-C made no error, and
code that handles errors must not handle a cancel by accident.

    AishError                  message, hint, partial_text; kind "error"
    ├── ConfigError            bad or missing configuration (file, key, type)      config
    ├── BrokerError            "broker: ..."  a model entry that cannot be called  config
    ├── TransportError         "transport: ..." the HTTP exchange failed           transport
    │   ├── ConnectFailed      no connection (unreachable, reset before a reply)
    │   │   ├── ConnectRefused nothing listens at the address
    │   │   └── Disconnected   the server closed the connection before replying
    │   ├── DnsFailure         the host name does not resolve
    │   ├── TlsError           certificate or handshake problem (a config fix)
    │   ├── TransportTimeout                                                    timeout
    │   │   ├── ConnectTimeout no connection within the connect timeout
    │   │   └── ReadTimeout    the server went quiet within the read timeout
    │   ├── HttpStatusError    status >= 300 (``status``, the server's ``code``)
    │   │   ├── ContextOverflow  the prompt is longer than the model's context window   context
    │   │   ├── ToolsRejected  the server refuses requests that offer tools
    │   │   └── ParamRejected  the server refuses a parameter and names the one it takes
    │   └── StreamCut          the body ended before the reply was complete
    ├── ApiError               "api: ..."  an error envelope or a malformed reply  api
    │   └── EmptyAnswer        a complete reply with no text and no tool call
    ├── CostCapReached         "cost: ..." a call would cross a cost cap; not sent    cost
    ├── ToolError              MCP server or tool failures                         tool
    ├── DaemonError            the per-user daemon cannot be reached or started    daemon
    ├── ProtocolError          a malformed request or frame                        daemon
    ├── NotFound               no such verb, model, fact, tool or task             not_found
    └── UsageError             a verb's arguments do not fit its synopsis          usage
    Cancelled                  the user cancelled (partial_text; not an AishError) cancelled
"""
from __future__ import annotations


class AishError(Exception):
    """Base class: ``one_line()`` (and ``str``) is one line a user can act on.

    ``partial_text`` is the answer text that reached the user before the
    failure: kept so nothing is lost, and a reason never to retry elsewhere.
    """

    prefix = ""
    kind = "error"

    def __init__(self, message: str, *, hint: str | None = None, partial_text: str = "") -> None:
        self.message = message
        self.hint = hint
        self.partial_text = partial_text
        super().__init__(message)

    @property
    def summary(self) -> str:
        """The stage prefix and the message, without the hint."""
        return f"{self.prefix}{self.message}" if self.prefix else self.message

    def one_line(self, *, prefix: bool = True) -> str:
        """The one place that joins message and hint: ``summary (hint)``.

        ``prefix=False`` leaves the stage prefix out, for a caller that names
        the stage itself (``mcp: <server>: ...``).
        """
        text = self.summary if prefix else self.message
        return f"{text} ({self.hint})" if self.hint else text

    def __str__(self) -> str:
        return self.one_line()


class ConfigError(AishError):
    """The configuration cannot be used; the message names file, key and fix."""

    kind = "config"


class BrokerError(AishError):
    """A model entry is unusable before any request is made."""

    prefix = "broker: "
    kind = "config"


class TransportError(AishError):
    """The HTTP exchange failed; the subclass says how."""

    prefix = "transport: "
    kind = "transport"


class ConnectFailed(TransportError):
    """No connection to the server (unreachable network, reset during connect)."""


class ConnectRefused(ConnectFailed):
    """The host answered that nothing listens on the port."""


class Disconnected(ConnectFailed):
    """The server accepted the connection and closed it before any reply."""


class DnsFailure(TransportError):
    """The host name does not resolve."""


class TlsError(TransportError):
    """TLS failed (certificate, handshake): fixed in the config, not by retrying."""


class TransportTimeout(TransportError):
    """A time limit was reached; the subclass says which one."""

    kind = "timeout"


class ConnectTimeout(TransportTimeout):
    """No connection within the connect timeout."""


class ReadTimeout(TransportTimeout):
    """The server went quiet for longer than the read timeout."""


class HttpStatusError(TransportError):
    """The server answered with an error or redirect status.

    ``status`` is the HTTP status; ``code`` the error code from the body when
    the server gave one (``model_not_found``).
    """

    def __init__(self, message: str, *, status: int, code: object = None,
                 hint: str | None = None, partial_text: str = "") -> None:
        super().__init__(message, hint=hint, partial_text=partial_text)
        self.status = status
        self.code = code


class ContextOverflow(HttpStatusError):
    """The server refused the prompt as longer than the model's context window.

    A caller may shorten the conversation (fold old turns into the summary) and call
    again; retrying the same prompt elsewhere would fail the same way.  ``window`` and
    ``prompt_tokens`` are what the server (or aish's own count, ``sent=False``: the
    request never left) said; None when it did not say."""

    kind = "context"

    def __init__(self, message: str, *, status: int = 400, code: object = None, hint: str | None = None,
                 partial_text: str = "", window: int | None = None,
                 prompt_tokens: int | None = None, sent: bool = True) -> None:
        super().__init__(message, status=status, code=code, hint=hint, partial_text=partial_text)
        self.window = window
        self.prompt_tokens = prompt_tokens
        self.sent = sent
        if not sent:  # aish's own count refused it: no transport was involved
            self.prefix = "context: "


class ToolsRejected(HttpStatusError):
    """The server refuses a request that offers ``tools`` (vLLM without auto tool choice,
    llama.cpp without its template flag, an Ollama model without tool support): the same
    request without them is answered."""


class ParamRejected(HttpStatusError):
    """The server refuses ``param`` and names ``instead`` (OpenAI's newer models take
    ``max_completion_tokens``, not ``max_tokens``)."""

    def __init__(self, message: str, *, status: int, param: str, instead: str, code: object = None,
                 hint: str | None = None) -> None:
        super().__init__(message, status=status, code=code, hint=hint)
        self.param = param
        self.instead = instead


class StreamCut(TransportError):
    """The body ended (or broke) before ``[DONE]`` or a finish reason."""


class ApiError(AishError):
    """The server answered with an error envelope or a reply that is not the protocol."""

    prefix = "api: "
    kind = "api"

    def __init__(self, message: str, *, code: object = None, partial_text: str = "",
                 hint: str | None = None) -> None:
        super().__init__(message, hint=hint, partial_text=partial_text)
        self.code = code


class EmptyAnswer(ApiError):
    """A complete reply with no text and no tool call: never shown as a silent success."""


class CostCapReached(AishError):
    """A call would take the spending past a configured cap; it was refused before any
    byte left.  The message names the cap, what was spent and how to raise it."""

    prefix = "cost: "
    kind = "cost"


class ToolError(AishError):
    """An MCP server or tool call failed at the protocol level."""

    prefix = "mcp: "
    kind = "tool"


class DaemonError(AishError):
    """The daemon is not reachable, or cannot be started."""

    kind = "daemon"


class ProtocolError(AishError):
    """A request or frame does not follow docs/protocol.md."""

    kind = "daemon"  # the fix is the daemon's: restart it after an upgrade


class NotFound(AishError):
    """What was named does not exist: a verb, a configured model, a fact, a tool, a task."""

    kind = "not_found"


class UsageError(AishError):
    """A verb's arguments do not fit its synopsis; the hint shows it."""

    kind = "usage"


class Cancelled(Exception):
    """The user cancelled (Ctrl-C, or the client went away): not an error.

    ``partial_text`` is the answer text that reached the user before the cancel."""

    kind = "cancelled"

    def __init__(self, message: str = "cancelled", *, partial_text: str = "") -> None:
        super().__init__(message)
        self.partial_text = partial_text


def _kinds() -> tuple[str, ...]:
    found: dict[str, None] = {}
    todo: list[type[AishError]] = [AishError]
    while todo:
        cls = todo.pop(0)
        found[cls.kind] = None
        todo.extend(cls.__subclasses__())
    return tuple(found)


KINDS = _kinds()  # every kind an AishError can have ("cancelled" and "internal" are not errors)
