"""Effect: what AppleScript handed to ``osascript`` tells the Finder to throw away.

``tell application "Finder" to empty the trash`` deletes everything in the Trash for good; ``… to delete
every item of folder "Documents" of home`` moves a whole folder's contents there.  (Shell commands inside
``do shell script`` and the session's shutdown are judged by other rules.)  Notifications, opening and
revealing stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.lazy_regex import lazy

_EMPTIES_TRASH = lazy(r"\bempty\s+(the\s+)?trash\b", re.IGNORECASE)
_DELETES_ALL = lazy(r"\bdelete\s+(every\s+(item|file|folder)|(the\s+)?entire\s+contents|items|files|"
                    r"folders)\b", re.IGNORECASE)


def rule_finder_deletes(c: Ctx) -> Optional[tuple]:
    code = " ".join(c.texts[k + 1] for k, t in enumerate(c.texts[:-1]) if t == "-e")
    if _EMPTIES_TRASH.search(code):
        return MEDIUM, f"osascript empties the Trash: what it held is gone for good ({c.text})"
    if _DELETES_ALL.search(code):
        return MEDIUM, f"osascript tells the Finder to delete a folder's whole contents ({c.text})"
    return None


RULES = {"osascript": [rule_finder_deletes]}
