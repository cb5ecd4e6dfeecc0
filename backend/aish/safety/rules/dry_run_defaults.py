"""A tool whose default run only says what it would do, told to act.

``aws-nuke``, ``azure-nuke`` and ``gcp-nuke`` list what they would delete until ``--no-dry-run``; ``octodns-sync``
plans until ``--doit``; ``rdfind`` reports duplicates until ``-deleteduplicates true`` (the table is
``programs.DRY_RUN_BY_DEFAULT``; ``command_line.harmless`` keeps their default quiet).  The option that turns the
dry run off is the user's word that the changes the plan printed are to be made: deletes of accounts' resources,
DNS records, files.  Any other program given an apply switch of that kind (``--no-dry-run``, ``--doit``,
``--for-real``) together with a force that skips its question is read the same way: a sync or cleanup tool told to
apply and not to ask.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.programs import DRY_RUN_BY_DEFAULT
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

_APPLY_SWITCHES = frozenset({"--no-dry-run", "--doit", "--do-it", "--for-real", "--no-dryrun", "--dry-run=false",
                             "--dryrun=false", "--really"})
_FORCES = frozenset({"--force", "-f", "--yes", "-y", "--no-confirm", "--noconfirm", "--assume-yes", "--no-prompt",
                     "--quiet-yes"})
_WORDS = ("no-dry", "doit", "do-it", "for-real", "dry-run=false", "dryrun=false", "really", "no-dryrun")


@triggered_by(_WORDS, otherwise=False)
def _apply_word(c: Ctx) -> bool:
    return any(w in c.lowered for w in _WORDS)


@triggered_by(tuple(DRY_RUN_BY_DEFAULT), _WORDS, otherwise=False)
def may_apply(c: Ctx) -> bool:
    """Cheap: a program of the table, or an apply switch's word on the line."""
    return c.prog in DRY_RUN_BY_DEFAULT or _apply_word(c)


def rule_dry_run_off(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:64]
    enabling = DRY_RUN_BY_DEFAULT.get(c.prog)
    if enabling is not None:
        told = next((t for t in texts if t.partition("=")[0] in enabling), None)
        if told is not None and not (told == "-deleteduplicates" and
                                     texts[texts.index(told) + 1:][:1] in (["false"], ["0"])):
            return MEDIUM, f"{c.prog} {told}: the changes its dry run lists are made ({c.text})"
        return None
    lowered = [t.lower() for t in texts]
    switch = next((t for t in lowered if t in _APPLY_SWITCHES), None)
    if switch and set(lowered) & _FORCES:
        return MEDIUM, f"{c.prog} {switch} with no question asked: it applies what it planned ({c.text})"
    return None
