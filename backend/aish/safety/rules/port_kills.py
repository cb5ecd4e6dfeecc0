"""Effect: whatever listens on a port killed, by a program named for it.

``kill-port`` and ``fkill :PORT`` have rules of their own; the same tool comes under many names
(``killport 5432``, ``port-kill 6379``, ``portkill 22``, ``kill-ports 80 443``, ``killport -9
3000``): the server on that port stops for every client, whatever it is.  A bare name, help and a
version stay quiet.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import MEDIUM, Ctx

NAMES = lazy(r"^(kill[-_]?ports?|ports?[-_]?kill(er)?|free[-_]?port|kill[-_]?by[-_]?port|kill[-_]?on[-_]?port)"
             r"(\.exe|\.sh|\.py)?$")
_PORT = lazy(r"^:?\d{1,5}(/(tcp|udp))?$|^(tcp|udp):\d{1,5}$")


def rule_port_killed(c: Ctx) -> Optional[tuple]:
    """``killport 5432``: whatever listens there is killed."""
    ports = [t for t in c.texts if _PORT.match(t) and not t.startswith("-")]
    if not ports or {"--help", "-h", "--version", "-V"} & set(c.texts):
        return None
    return MEDIUM, f"kills whatever listens on port {', '.join(ports)[:30]}: that server stops for every client " \
        f"({c.text})"
