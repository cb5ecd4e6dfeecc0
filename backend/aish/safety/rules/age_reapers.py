"""Effect: an age-based cleaner for temporary directories turned on a directory of real files, with an age of
zero or one hour: everything in it goes.

``tmpreaper``, ``tmpwatch``, ``tmpcleaner`` and their kind delete what has not been touched for AGE (hours, or
``30m``, ``2d``); made for ``/tmp``, they are safe there.  Given ``0`` or ``1`` and a home, a project or a
shared directory (``tmpreaper --all 0 /srv/shared``, ``tmpwatch --all 1 ~/Documents``), they are ``rm -rf``
by another name.  ``--test`` only lists; ``/tmp``, ``/var/tmp`` and cache directories stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.lazy_regex import lazy

NAMES = re.compile(r"^(tmp|temp)[-_]?(reaper|watch|clean|cleaner|cleanup|reap)$|^(tmpreaper|tmpwatch|tmpcleaner)$",
                   re.IGNORECASE)
_AGE = lazy(r"^([01](\.\d+)?)([smhd]?)$|^\d{1,4}s$")  # `1s`, `600s`: seconds are zero hours too
_TEMP = lazy(r"(^|/)(tmp|temp|\.cache|cache|caches)(/|$)|^/var/tmp|^/dev/shm", re.IGNORECASE)
_TEST = frozenset({"--test", "-t", "--dry-run", "-n"})
_VALUED = frozenset({"--protect", "-X", "--exclude", "-x", "--exclude-user", "-U", "--delay", "-d"})
_HOME = lazy(r"^(~|\$HOME|/home/[^/]+|/Users/[^/]+|/root)/?$")


def rule_reaped(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    if not NAMES.match(c.prog) or set(texts) & _TEST:
        return None
    operands = [t for k, t in enumerate(texts) if not t.startswith("-") and not (k and texts[k - 1] in _VALUED)]
    if len(operands) < 2 or not _AGE.match(operands[0]):
        return None
    places = [p for p in operands[1:] if not _TEMP.search(p)]
    if not places:
        return None
    level = HIGH if any(_HOME.match(p) or p == "/" for p in places) or {"--all", "-a"} & set(texts) else MEDIUM
    return level, f"{c.prog} with an age of {operands[0]} deletes every file in {places[0]}, not only old " \
        f"temporary ones ({c.text})"
