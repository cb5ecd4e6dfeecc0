"""Effect: a macro processor told to run a shell command, judged as that command.

m4's ``syscmd(…)`` and ``esyscmd(…)`` (``echo 'esyscmd(rm -rf ~)' | m4``, ``m4_esyscmd`` with ``-P``), gpp's
``#exec`` and ``\\exec{…}``: the text they are fed on standard input, in a definition (``-D x=esyscmd(…)``) or as an
argument is macro source, and these macros hand their argument to ``/bin/sh``.  Files named on the line
are not read (what they hold is not on the line).
"""
from __future__ import annotations

from typing import Optional

from aish.safety.rules.common import Ctx, worst
from aish.safety.rules.fed import fed_text
from aish.safety.lazy_regex import lazy

# `syscmd(rm -rf ~)`, `esyscmd(`rm -rf ~')` (m4 quotes), gpp's `#exec rm -rf ~` and `\exec{rm -rf ~}`.
_SHELL_MACRO = lazy(r"(?:\bm4_|\b)(?:e?syscmd)\s*\(\s*(?:`([^']*)'|\[([^\]]*)\]|([^()]*))\s*\)|"
                    r"#exec\s+\"?([^\"\n]+)\"?|\\exec\{([^}]*)\}")
_PROCESSORS = ("m4", "gm4", "gnum4", "gpp")


def rule_macro_shell(c: Ctx) -> Optional[tuple]:
    sources = [fed_text(c)] + [t.split("=", 1)[-1] for t in c.texts]
    best = None
    for source in sources:
        for m in _SHELL_MACRO.finditer(source):
            command = next((g for g in m.groups() if g), "")
            found = c.recurse(command) if command.strip() else None
            if found is not None:
                best = worst(best, (found[0], f"{found[1]}, run by {c.prog}'s shell macro"))
    return best


RULES: dict = {name: [rule_macro_shell] for name in _PROCESSORS}
