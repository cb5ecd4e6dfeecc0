"""The ``aish`` console entry: start the daemon before anything heavy loads.

A cold ``aish ask`` pays for two things in a row: this process's imports
(click, the CLI) and the daemon's (requests, the service).  Forking the daemon
first lets both happen at once on two cores.  Then the commands that only talk to
the daemon run without click when their words are plain (``cli/quick.py``).
"""
from __future__ import annotations

import sys

from aish.ipc.verbs import VERBS

# Commands that need the daemon: asks and every verb of the table the daemon runs.
DAEMON_VERBS = frozenset({"ask"} | {verb.name for verb in VERBS if verb.daemon})
HELP = frozenset({"-h", "--help"})


def needs_daemon(argv: list[str]) -> bool:
    """A daemon verb, unless the words before ``--`` ask for its help (answered here)."""
    if not argv or argv[0] not in DAEMON_VERBS:
        return False
    words = argv[1:argv.index("--")] if "--" in argv else argv[1:]
    return not HELP.intersection(words)


def main() -> None:
    """The one place the ``aish`` command exits: the fast path's status, else click's."""
    status = None
    if needs_daemon(sys.argv[1:]):
        from aish.daemon import spawn

        spawn.start_early()
        from aish.cli import quick  # the plain forms without click (cli/quick.py)

        status = quick.run(sys.argv[1:])
    if status is None:
        from aish.cli.main import run

        status = run()
    sys.exit(status)
