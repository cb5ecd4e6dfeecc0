"""Effect: machines, domains or a cluster's services stopped, in the spellings of tools no rule names.

``total_scopes`` reads a stop made total by ``all`` or ``--all``.  Cluster managers, partition and
hypervisor consoles and middleware control programs say the same in their own words:

- a stop fused with its scope (``ccs -h node1 --stopall``, ``opmnctl stopall``, ``-haltall``,
  ``shutdown_all``): every service the tool manages goes down;
- a stop verb with the one-letter or one-word scope these tools use for every member (``ldm stop-domain
  -a``, ``hagrp -offline oragrp -any``, ``xl shutdown -a``, ``hastop -all``);
- a power or run state given as an operation's value (``chsysstate -r sys -o off``, ``--operation
  shutdown``, ``--action poweroff``, ``--state stopped``): a managed system, a partition or a guest is
  switched off.

Starting, status and listings, and a stop of one named thing with no scope, stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

_FUSED = LazyRegex(r"^-{0,2}(stop|halt|shutdown|kill|poweroff|power-off|offline|suspend)[-_]?(all|every|everything)"
                   r"([-_]\w+)?$", re.IGNORECASE)
_STOP_VERB = LazyRegex(r"^-{0,2}(stop|halt|shutdown|shut-down|poweroff|power-off|offline|kill|terminate|"
                       r"suspend|freeze|slam|hibernate|pause)([-_][a-z]+)?$", re.IGNORECASE)
_SCOPES = frozenset({"-a", "-all", "--all", "-any", "--any", "-A", "all", "ALL", "*", "--everything", "-allnodes",
                     "--all-nodes", "-cluster"})
_OPERATION = frozenset({"-o", "--op", "--operation", "-operation", "--action", "-action", "--state", "-state",
                        "--power", "-power", "--power-state"})
_OFF_STATES = frozenset({"off", "shutdown", "poweroff", "power-off", "power_off", "halt", "stop", "stopped",
                         "shutoff", "kill", "hard-off", "immediate-off", "osshutdown"})
_READS = frozenset({"--help", "status", "list", "show", "--query", "-G", "--get", "get", "--get-value"})
_WORDS = ("stop", "halt", "shut", "kill", "off", "suspend", "freeze", "terminate", "slam", "hibernate", "pause")


@triggered_by(_WORDS, otherwise=False)
def may_stop(c: Ctx) -> bool:
    """Cheap: words after the program's name, a stop word among them."""
    return bool(c.texts) and any(w in c.lowered for w in _WORDS)


def rule_stop_scope(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:64]  # a setting, a target or a verb is among the first words: long lines are not read
    if set(texts) & _READS:
        return None  # `crm_attribute --name stop-all-resources --query`: the setting read, not set
    fused = next((t for t in texts if _FUSED.match(t)), None)
    if fused and not set(texts) & {"--delete", "-D"}:  # the setting deleted: nothing is told to stop
        return MEDIUM, f"{c.prog} {fused}: every service or machine it manages stops ({c.text})"
    first = next((t for k, t in enumerate(texts) if not t.startswith("-") and
                  (k == 0 or not texts[k - 1].startswith("-") or texts[k - 1] in _SCOPES)), None)
    verb = next((t for t in texts if t.startswith("-") and _STOP_VERB.match(t)), None) or \
        (first if first and _STOP_VERB.match(first) else None)  # `vzdump --all --mode suspend`: a mode
    scope = next((t for t in texts if t in _SCOPES), None)
    if verb and scope:
        return MEDIUM, f"{c.prog} {verb} {scope}: every member stops ({c.text})"
    for k, t in enumerate(texts[:-1]):
        name, eq, value = t.partition("=")
        if eq and name in _OPERATION and value.lower() in _OFF_STATES:
            return MEDIUM, f"{c.prog} {t}: what it manages is switched off ({c.text})"
        if t in _OPERATION and texts[k + 1].lower() in _OFF_STATES:
            return MEDIUM, f"{c.prog} {t} {texts[k + 1]}: what it manages is switched off ({c.text})"
    return None
