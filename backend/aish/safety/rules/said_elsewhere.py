"""Destruction a command says in places other than its subcommand: the value of an option that
names the action (``platformio run -t erase``, ``--action delete``), volumes taken down with a
compose-like ``down -v``, and a cleanup told it is not a dry run (``DRY_RUN=false``)."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx

# Options whose value is the action to take (`pio run -t erase`, `--operation delete`).
# (`-t` only after `run`: elsewhere it is a tag, a type or a title: `docker build -t delete .`)
_ACTION_OPTIONS = frozenset({"--target", "--action", "--operation", "--op", "--task", "--mode"})
_ACTIONS = frozenset({"erase", "delete", "destroy", "wipe", "purge", "drop", "nuke", "erase_flash", "erase-flash",
                      "mass-erase", "masserase", "chip-erase", "erase-all", "eraseall", "factory-reset"})
_VOLUMES = frozenset({"-v", "--volumes", "--volume", "-V", "--remove-volumes"})
_NOT_DRY = re.compile(r"^(--)?(dry_?run|dryrun|dry-run)=(false|0|no|off)$", re.IGNORECASE)
_CLEANS = re.compile(r"clean|delete|remove|prune|purge|destroy|expire|wipe", re.IGNORECASE)


def rule_said_elsewhere(c: Ctx, verb: str) -> Optional[tuple]:
    """What an option's value, a ``down -v`` or a ``DRY_RUN=false`` says this command destroys."""
    texts = c.texts
    for k, t in enumerate(texts[:-1]):
        value = texts[k + 1].lower()
        if (t in _ACTION_OPTIONS or t == "-t" and "run" in texts[:k]) and value in _ACTIONS:
            return MEDIUM, f"{c.prog} {t} {texts[k + 1]}: it {value.split('_')[0].split('-')[0]}s what it " \
                f"acts on ({c.text})"
    if verb == "down" and not _VOLUMES.isdisjoint(texts):
        return MEDIUM, f"{c.prog} down -v removes its volumes with their data ({c.text})"
    if any(_NOT_DRY.match(t) for t in texts) and any(_CLEANS.search(t) for t in texts):
        return MEDIUM, f"{c.prog} is told this is not a dry run: what it cleans up is deleted ({c.text})"
    return None
