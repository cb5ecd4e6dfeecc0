"""Effect: a removing or unconfiguring verb fused into a program's name, beyond the nouns ``fused_names`` knows.

Old Unix suites, IBM i and clustering products name a command for what it does to what: ``rm`` or ``dlt`` before
the object (``rmwpar``, ``rmcondition``, ``rmsecattr``, ``dltlib``, ``dltusrprf``), an ``unconfig``, ``deconfig``,
``unsetup`` or ``unmirror`` anywhere in the name (``cssunconfig``, ``iscsi-unsetup``, ``nfs-deconfig``); uninstall
scripts are ``script_runs``' own.  ``fused_names`` reads ``rm`` before a known infrastructure noun; here the object
may be any word: the verb is what the name starts with.

Quiet: the everyday ``rm`` words (``rmdir``, ``rmlint``, ``rmtrash``, ``rmmod``, ``rmate`` and other ``rm`` names
going on with a vowel, the English words they spell), listing and help, dry runs.  Medium."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

# `rm` or `dlt` fused to an object: a consonant after the verb (`rmate`, `rmail`, `rmarkdown`, `rmic` go on with a
# vowel and are other words), at least two more letters.
_FUSED = re.compile(r"^(rm|dlt)([b-df-hj-np-tv-z][a-z0-9]{2,})$")
_NOT = frozenset({"rmdir", "rmlint", "rmtrash", "rmmod", "rmtree", "rmcup", "rmstar", "rmsmall", "rmvenv",
                  "rmshit", "rmw", "rmt", "rmdup", "rmdups", "rmblank", "rmcr", "rmnl", "rmlines"})
_UN = re.compile(r"(un|de)config|unsetup|unmirror")
_LOOKS = frozenset({"-h", "--help", "-help", "help", "-?", "--version", "--dry-run", "--dryrun", "-n", "list", "ls",
                    "show", "status", "-l", "--list", "-list", "info", "--usage"})


@triggered_by(("rm", "dlt", "config", "unsetup", "unmirror"), otherwise=False)
def may_carry(c: Ctx) -> bool:
    """Cheap: the name starts with rm/dlt or holds one of the un-words."""
    name = c.prog.lower()
    return name[:2] == "rm" or name[:3] == "dlt" or "config" in name or "unsetup" in name or \
        "unmirror" in name


def rule_verb_name(c: Ctx) -> Optional[tuple]:
    """``rmwpar -F appwpar``, ``dltlib PAYROLL``, ``cssunconfig -f``, ``nfs-deconfig server01``."""
    name = re.sub(r"\.(sh|exe|bat|cmd|pl|py|ksh)$", "", c.prog.lower().rsplit("/", 1)[-1].rsplit("\\", 1)[-1])
    if {t.lower() for t in c.texts} & _LOOKS:
        return None
    fused = _FUSED.match(name)
    if fused and name not in _NOT and (c.texts or c.xargs or len(fused.group(2)) >= 4):  # xargs: names fed
        return MEDIUM, f"{c.prog} is named for removing a {fused.group(2)} ({c.text})"
    if _UN.search(name):
        return MEDIUM, f"{c.prog} is named for taking down what was configured or installed ({c.text})"
    return None
