"""Effect: the system's service manager told to exit, which outside a container powers the machine off.

``systemctl exit`` (with or without an exit code) asks the manager to exit: in a container the container
ends, on a host it is ``systemctl poweroff``.  The user's own manager (``systemctl --user exit``) only ends
the user's services and stays quiet.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx


def rule_manager_exit(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    sub = next((t for t in texts if not t.startswith("-")), "")
    if sub != "exit" or "--user" in texts or {"-h", "--help"} & set(texts):
        return None
    return MEDIUM, f"systemctl exit ends the service manager: on a host the machine powers off ({c.text})"


RULES = {"systemctl": [rule_manager_exit]}
