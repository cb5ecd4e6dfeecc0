"""Effect: a process supervisor told to stop everything it runs, or a whole group of it.

Shutting the supervisor down stops every program it runs (``supervisorctl shutdown``, ``pm2 kill``,
``circusctl quit``, ``forever stopall``, ``pueue shutdown``); so does a stop of a whole group (``monit -g
web stop``) or of every app an ecosystem file names (``pm2 stop ecosystem.config.js``).  The control
programs' own options are read past (``supervisorctl -c FILE shutdown``).  One program stopped by name
(``pm2 stop api``, ``monit stop nginx``) stays quiet.  Split from ``stopping``.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx, positionals

# Process supervisors: shutting the supervisor down stops every program it runs.
SUPERVISORS = {"supervisorctl": {"shutdown"}, "pm2": {"kill"}, "circusctl": {"quit"}, "monit": {"quit"},
                "forever": {"stopall"}, "s6-svscanctl": {"-t", "-q", "-b"}, "pueue": {"shutdown"},
                "overmind": {"kill", "quit"}}


# Options of supervisors' control programs that take a value (`supervisorctl -c FILE`, `monit -g GROUP`).
_SUPERVISOR_VALUED = {"-c", "-s", "-u", "-p", "-r", "--configuration", "--serverurl", "--username", "--password",
                      "-g", "-d", "-l", "-H", "--group", "--name", "-n"}
_STOPS_ALL = frozenset({"stop", "kill", "delete", "unmonitor"})


def rule_supervisor_shutdown(c: Ctx) -> Optional[tuple]:
    """``supervisorctl shutdown``, ``pm2 kill``, ``circusctl quit``: every managed program stops with it; a stop of
    a whole group (``monit -g web stop``) or of every app an ecosystem file names (``pm2 stop ecosystem.config.js``)."""
    words = positionals(c.args, _SUPERVISOR_VALUED)
    if set(words[:2]) & SUPERVISORS.get(c.prog, set()):
        return MEDIUM, f"{c.prog} shuts the supervisor down: every program it runs stops ({c.text})"
    if c.prog == "monit" and words[:1] and words[0] in _STOPS_ALL and ({"-g", "--group"} & set(c.texts)):
        return MEDIUM, f"monit {words[0]} stops every service of the group ({c.text})"
    if c.prog == "pm2" and words[:1] and words[0] in _STOPS_ALL and \
            any(re.search(r"(ecosystem|pm2|process)[\w.-]*\.(config\.)?(c?js|json|ya?ml)$", w) for w in words[1:]):
        return MEDIUM, f"pm2 {words[0]} stops every app the ecosystem file names ({c.text})"
    return None
