"""Effect: a line editor fed a script that deletes every line and writes the file: the file is emptied.

``ed -s /etc/hosts <<< $',d\\nw'``, ``printf '%s\\n' ',d' 'w' | ed -s ~/.ssh/authorized_keys``: ed's
``,d``, ``1,$d``, ``%d`` and ``g/^/d`` delete every line, ``w`` (``wq``, ``x``) saves the empty buffer.
The level is the file's, as for any overwrite; a script that edits some lines stays quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx, describe, target
from aish.safety.rules.content import overwrite_level
from aish.safety.rules.fed import fed_text
from aish.safety.lazy_regex import lazy

_DELETE_ALL = lazy(r"^\s*(,|%|1\s*,\s*\$|g/\^?/|g/\.\*?/|g/\$/)\s*d\s*$")
_WRITE = lazy(r"^\s*(w|wq|x|w!|wq!|W)\s*(\S+)?\s*$")


def rule_ed_emptied(c: Ctx) -> Optional[tuple]:
    lines = re.split(r"\\n|\n|;", fed_text(c))
    feeder = c.chain[-1].words if c.chain else []
    if len(feeder) > 2 and feeder[0].text == "printf" and "%s\\n" in feeder[1].text:
        lines += [w.text for w in feeder[2:]]  # `printf '%s\n' ',d' 'w'`: one line per argument
    deleted = next((k for k, line in enumerate(lines) if _DELETE_ALL.match(line)), None)
    if deleted is None:
        return None
    written = next((m for line in lines[deleted + 1:] if (m := _WRITE.match(line))), None)
    if written is None:
        return None
    files = [w for w in c.args if not w.text.startswith("-")]
    if written.group(2):
        files = [w for w in files if w.text == written.group(2)] or files
    best: Optional[tuple] = None
    for w in files:
        t = target(w)
        level = overwrite_level(t) or (MEDIUM if t.kind in ("user", "dot") else None)
        if level is not None and (best is None or level > best[0]):
            best = level, f"{c.prog} deletes every line of {describe(t)} and writes it: the file is emptied ({c.text})"
    return best


RULES: dict = {"ed": [rule_ed_emptied], "red": [rule_ed_emptied]}
