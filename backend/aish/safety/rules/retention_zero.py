"""Effect: a retention or expiry set to zero or now, so everything kept is deleted at once.

Cache cleaners, backup catalogues and purgers keep what is younger or newer than a limit; the limit
given as zero deletes everything: ``paccache -rk0`` (keep zero versions), ``--keep 0``, ``--keep-last
0``, ``purge -age 0``, ``--older-than 0``, ``--max-age 0d``, ``--retention 0``; an expiry date moved
to now (``bpexpdate -backupid X -d 0``, ``nsrmm -e now -S ssid``, ``--expire now``).  A limit above zero,
a dry run and a listing stay quiet.  A pattern that matches everything (``pypi-cleanup -r '.*' --do-it``) told to act
counts as keeping nothing.  A command given as one value is read in its own words (``adrci
exec="set home …; purge -age 0"``).
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.triggers import triggered_by
from aish.safety.rules.common import MEDIUM, Ctx

# Options that set how much is kept, how old things may get, or when they expire.
_LIMIT = lazy(r"^--?(keep(-last|-daily|-versions|-within|-n)?|k|age|min-age|max-age|older(-than)?|older_than|"
              r"retention(-days|-period)?|retain(-days)?|expire(-after|-time)?|expiry|expiration|days|ttl|"
              r"vacuum-time|max-days|keep-days)$", re.IGNORECASE)
_ZERO = lazy(r"^(0+|0+[smhdwy]|0+days?|0+(sec|min|hours?)|now|today|immediate(ly)?|0+/0+/0+)$", re.IGNORECASE)
# `paccache -rk0`, `-ruk0`: zero fused to the keep letter after a remove letter.
_FUSED_KEEP_ZERO = lazy(r"^-[a-zA-Z]*r[a-zA-Z]*k0+$|^-k0+$")
_REMOVES = frozenset({"-r", "--remove", "--prune", "--purge", "--delete", "purge", "prune", "forget", "delete",
                      "remove", "clean", "cleanup", "expire", "vacuum", "rotate"})
_LOOKS = frozenset({"list", "ls", "show", "status", "info", "stats"})
_QUIET = frozenset({"--dry-run", "-n", "--dryrun", "-d", "--list", "-l", "--help"})


def _words(texts: list) -> list:
    """The words, with a command given as one value split into its own (``adrci exec="… purge -age 0"``)."""
    return [w for t in texts for w in (re.split(r"[\s;]+", t.partition("=")[2] if "=" in t.split(" ", 1)[0] else t)
                                       if " " in t else [t]) if w]


def _removes(c: Ctx, prog: str) -> bool:
    words = {t.lower() for t in _words(c.texts)}
    parts = {part for t in words if "_" in t or ":" in t for part in re.split(r"[_:.]", t)}  # `cleanup_jobs`
    return bool((words | parts) & _REMOVES) or bool(re.search(r"purge|prune|clean|expire|expdate|vacuum|forget|reap",
                                                              prog))


_PATTERN_OPTIONS = frozenset({"-r", "--regex", "--pattern", "-p", "--match", "--filter", "--version-regex", "-m"})
_MATCH_ALL = frozenset({".*", "^.*$", ".+", "^.+$", "^.*", ".*$"})
_GO_AHEAD = frozenset({"--do-it", "--doit", "--yes", "-y", "--force", "--confirm", "--execute", "--no-dry-run"})


def _everything(texts: list) -> Optional[str]:
    """``pypi-cleanup -r '.*' --do-it``: a selection that matches everything, with the tool told to act."""
    if not set(texts) & _GO_AHEAD:
        return None
    return next((f"{t} {texts[k + 1]}" for k, t in enumerate(texts[:-1]) if t in _PATTERN_OPTIONS
                 and texts[k + 1] in _MATCH_ALL), None)


def rule_retention_zero(c: Ctx) -> Optional[tuple]:
    """Keep nothing, expire everything now."""
    texts = _words(c.texts)
    prog = c.prog.lower()
    if set(t.lower() for t in texts[:3]) & _LOOKS:
        return None  # `list --older-than 0d` only shows them
    if any(_FUSED_KEEP_ZERO.match(t) for t in texts) and not set(texts) & (_QUIET - {"-d"}):
        return MEDIUM, f"{c.prog} keeps zero of what it caches: everything is deleted ({c.text})"
    everything = _everything(texts)
    if everything is not None and re.search(r"purge|prune|clean|delete|remove|expire|vacuum|reap",
                                            " ".join([prog] + [t.lower() for t in texts])):
        return MEDIUM, f"{c.prog} {everything}: the pattern matches everything it holds, and it is told to delete " \
            f"({c.text})"
    for k, t in enumerate(texts):
        name, _, value = t.partition("=")
        if not value and k + 1 < len(texts):
            value = texts[k + 1]
        if not _ZERO.match(value.strip("'\"")):
            continue
        expiry = "exp" in prog and name in ("-d", "-e", "--expire", "--date")  # `bpexpdate -d 0`, `nsrmm -e now`
        if _LIMIT.match(name) and (_removes(c, prog) or expiry) or expiry or \
                name in ("-e", "--expire") and set(texts) & {"-y", "--yes"}:
            if set(texts) & (_QUIET - {"-d"}) and not expiry:
                return None
            return MEDIUM, f"{c.prog} {name} {value}: nothing is kept, everything it holds is deleted now ({c.text})"
    return None


_MAY = lazy(r"(^|[^a-z])(0+[smhdwy]?|now|today)( |$)|k0+( |$)| \^?\.[*+]\$?( |$)")


@triggered_by(_MAY, otherwise=False)
def may_be_zero(c: Ctx) -> bool:
    return bool(_MAY.search(c.lowered))
