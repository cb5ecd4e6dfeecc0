"""Exit statuses of the ``aish`` command, and the one way a command asks for one.

Only ``aish.cli.main.main()`` calls ``sys.exit``: a command that must end
with a status other than success raises ``Exit``, so every way out (errors,
Ctrl-C, a closed pipe, a crash) is decided and printed in one place.  An error
ends with the status of its kind (``errors.AishError.kind``, which also travels in
the daemon's ``E`` frame), as httpie's ``ExitStatus`` tells a timeout from a 4xx:
a script can tell "no model configured" from "the server is down" without reading
the message.  docs/verbs.md has the table; a test keeps it equal to ``BY_KIND``.
"""
from __future__ import annotations

import enum


class ExitStatus(enum.IntEnum):
    OK = 0
    FAILURE = 1  # an error of no more specific kind, a failed check
    USAGE = 2  # a bad option or argument (click's, or a verb's)
    NOT_RUNNING = 3  # ``aish daemon status``: no daemon (the LSB status code)
    NOT_FOUND = 4  # no such verb, model, fact, tool or task
    CONFIG = 5  # the configuration cannot be used (no model, a missing key...)
    TRANSPORT = 6  # the model server cannot be reached, or answered with an HTTP error
    TIMEOUT = 7  # the model server did not connect or went quiet in time
    API = 8  # the model server's answer was an error envelope or not the protocol
    DAEMON = 9  # the daemon cannot be reached or started, or speaks another protocol
    TOOL = 10  # an MCP server or tool failed
    CONTEXT = 11  # the prompt does not fit the model's context window, even folded
    COST = 12  # a call would cross a cost cap: refused before anything was sent
    INTERNAL = 70  # a bug: EX_SOFTWARE, details in a log
    INTERRUPTED = 130  # Ctrl-C, a cancelled request: 128 + SIGINT, as shells report it


BY_KIND = {
    "error": ExitStatus.FAILURE, "usage": ExitStatus.USAGE, "not_found": ExitStatus.NOT_FOUND,
    "config": ExitStatus.CONFIG, "transport": ExitStatus.TRANSPORT, "timeout": ExitStatus.TIMEOUT,
    "api": ExitStatus.API, "daemon": ExitStatus.DAEMON, "tool": ExitStatus.TOOL,
    "context": ExitStatus.CONTEXT, "cost": ExitStatus.COST,
    "internal": ExitStatus.INTERNAL, "cancelled": ExitStatus.INTERRUPTED,
}


def for_kind(kind: str | None) -> ExitStatus:
    """The exit status of an error kind; an unknown kind (a newer daemon) is a failure."""
    return BY_KIND.get(kind or "error", ExitStatus.FAILURE)


class Exit(Exception):
    """Raised by a command whose output is already printed to end with ``status``."""

    def __init__(self, status: "ExitStatus | int") -> None:
        # an int: the exit status of a program aish relayed (``aish shell``, ``aish record``)
        super().__init__(getattr(status, "name", str(status)))
        self.status = status
