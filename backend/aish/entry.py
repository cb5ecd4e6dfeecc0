"""The ``aish`` console entry: start the daemon before anything heavy loads.

A cold ``aish ask`` pays for two things in a row: this process's imports
(click, the CLI) and the daemon's (requests, the service).  Forking the daemon
first lets both happen at once on two cores.
"""
from __future__ import annotations

import sys

from aish.ipc.verbs import VERBS

# Commands that need the daemon: asks and every verb of the table the daemon runs.
DAEMON_VERBS = frozenset({"ask"} | {verb.name for verb in VERBS if verb.daemon})


def main() -> None:
    args = sys.argv[1:2]
    if args and args[0] in DAEMON_VERBS:
        from aish.daemon import runtime

        runtime.start_early()
    from aish.cli.main import main as cli_main

    cli_main()
