"""Exit statuses of the ``aish`` command, and the one way a command asks for one.

Only ``aish.cli.main.main()`` calls ``sys.exit``: a command that must end
with a status other than success raises ``Exit``, so every way out (errors,
Ctrl-C, a closed pipe, a crash) is decided and printed in one place.
"""
from __future__ import annotations

import enum


class ExitStatus(enum.IntEnum):
    OK = 0
    FAILURE = 1  # an AishError (one line on stderr), a failed check, an E frame
    USAGE = 2  # click's usage errors (bad option or argument)
    NOT_RUNNING = 3  # ``aish daemon status``: no daemon (the LSB status code)
    INTERNAL = 70  # a bug: EX_SOFTWARE, details in the state dir's cli.log
    INTERRUPTED = 130  # Ctrl-C: 128 + SIGINT, as shells report it


class Exit(Exception):
    """Raised by a command whose output is already printed to end with ``status``."""

    def __init__(self, status: "ExitStatus | int") -> None:
        # an int: the exit status of a program aish relayed (``aish shell``, ``aish record``)
        super().__init__(getattr(status, "name", str(status)))
        self.status = status
