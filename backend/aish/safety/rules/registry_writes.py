"""Effect: registry keys written over, and Windows commands run through a compatibility layer.

``reg restore KEY FILE`` puts a saved hive over the key (what it holds now is lost); ``reg copy SRC DST
/f`` overwrites the destination without asking (without ``/f`` it asks).  ``wine``, ``wine64`` and
their kin run a Windows program: the command they are given is judged as typed on Windows (``wine cmd
/c rd /s /q C:\\``, ``wine reg delete … /f``).  Reading, exporting and saving a key stay quiet.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx

_WINE = frozenset({"wine", "wine64", "wine-stable", "wine-devel", "wine-staging", "wineconsole", "wine32", "wow64"})


def rule_registry_overwrite(c: Ctx) -> Optional[tuple]:
    lowered = [t.lower() for t in c.texts]
    keys = [w.raw.strip("'\"") for w in c.args[1:] if not w.text.startswith("/")]  # as typed: `\` kept
    if lowered[:1] == ["restore"] and keys:
        return MEDIUM, f"reg restore writes a saved hive over {keys[0]}: what it holds now is lost ({c.text})"
    if lowered[:1] == ["copy"] and "/f" in lowered and len(keys) >= 2:
        return MEDIUM, f"reg copy /f overwrites {keys[1]} without asking ({c.text})"
    return None


def rule_through_wine(c: Ctx) -> Optional[tuple]:
    """The Windows command wine runs, judged as such."""
    k = 0
    while k < len(c.args) and c.args[k].text.startswith("-"):
        k += 1
    inner = c.args[k:]
    if not inner:
        return None
    found = c.check(inner)
    return (found[0], f"{found[1]}, through {c.prog}") if found else None


RULES = {"reg": [rule_registry_overwrite], "reg.exe": [rule_registry_overwrite],
         **{p: [rule_through_wine] for p in _WINE}}
