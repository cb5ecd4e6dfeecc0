"""Effect: every add-on of a kind switched off or removed at once, or everything a broker holds for
later emptied, in any program's words.

A program's plugins, extensions, modules or add-ons disabled, deactivated or removed with ``--all``
(``rabbitmq-plugins disable --all``: the management UI and every protocol go with it; ``wp plugin
deactivate --all``, ``elasticsearch-plugin remove --all``, ``grafana-cli plugins remove --all``), and a
broker's retained or held messages cleaned out (``emqx ctl retainer clean``, ``mosquitto_ctrl … retained
clear``).  One named add-on, listing, enabling and a dry run stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.triggers import triggered_by
from aish.safety.rules.common import MEDIUM, Ctx

_KIND = lazy(r"^(plugins?|extensions?|modules?|add-?ons?|addons?|mods|packs?|themes?|bundles?|apps?|integrations?)$",
             re.IGNORECASE)
_OFF = frozenset("disable deactivate remove uninstall delete rm purge off unload".split())
_ALL = frozenset({"--all", "-a", "all", "*", "--all-plugins", "--every"})
# A broker's messages kept for later subscribers or consumers, and the words that empty them.
_HELD = lazy(r"^(retainer|retained|retain|held|delayed|dead-?letters?|dlq|inflight|mqueue|offline-messages)$",
             re.IGNORECASE)
_EMPTY = frozenset("clean clear clean-all clear-all purge flush wipe drop truncate empty".split())


def rule_add_ons_off(c: Ctx) -> Optional[tuple]:
    """Every plugin of a program off at once; a broker's held messages emptied."""
    lowered = [t.lower() for t in c.texts]
    prog = c.prog.lower()
    ops = [t for t in lowered if not t.startswith("-")][:5]
    if set(lowered) & {"--dry-run", "-n", "--help"}:
        return None
    kind_in_name = bool(re.search(r"[-_](plugins?|extensions?|modules?|addons?)$", prog))
    for k, t in enumerate(ops):
        if t in _OFF and (kind_in_name and k == 0 or k and _KIND.match(ops[k - 1])) and set(lowered) & _ALL:
            return MEDIUM, f"{c.prog} {t}s every {ops[k - 1] if k else prog.rsplit('-', 1)[-1]} at once: what they " \
                f"provide stops ({c.text})"
        if t in _EMPTY and k and _HELD.match(ops[k - 1]):
            return MEDIUM, f"{c.prog} {ops[k - 1]} {t} deletes the messages the broker holds for later ({c.text})"
    return None


_MAY = lazy(r"plugin|extension|module|add-?on|retain|held|dead|dlq|inflight|mqueue|offline")


@triggered_by(_MAY, otherwise=False)
def may_switch_off(c: Ctx) -> bool:
    return bool(_MAY.search(c.prog.lower()) or _MAY.search(c.lowered))
