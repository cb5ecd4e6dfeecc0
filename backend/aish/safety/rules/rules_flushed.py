"""Effect: a packet filter's, a web firewall's or an access list's whole rule set emptied, by a program no rule names.

``iptables -F``, ``nft flush ruleset`` and ``pfctl -F all`` have their own rules; appliances', clouds' and
vendors' filter tools say the same in their words: ``flush``, ``clear``, ``reset`` or ``purge`` with the rule set
as object (``fwadm policy flush``, ``wafctl ruleset clear``, ``aclctl rules flush``, ``nftctl chain flush input``,
``--flush-rules``).  Every rule goes at once: what they blocked is let through, and where the default is to drop,
every connection not yet allowed again, the one in use included, is cut.  Medium.

The object must be the filter's: a rule set, an access list or a chain by name, or rules and policies of a
program named for a filter (``fw``, ``firewall``, ``waf``, ``acl``, ``filter``, ``secgroup``, ``guard``…).
Quiet: a listing, one rule deleted by number, a linter's or an alerting tool's rules reset (``lintctl rules
reset``: not a filter), a flush that loads a file in the same command (a reload).
"""
from __future__ import annotations

from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.verb_words import split_word

_EMPTIES = frozenset({"flush", "clear", "reset", "purge", "wipe", "zap", "drop-all", "delete-all", "remove-all"})
_FILTER_OBJECTS = frozenset({"ruleset", "rulesets", "acl", "acls", "chain", "chains", "rule-set", "rulebase"})
_RULE_OBJECTS = frozenset({"rules", "rule", "policy", "policies", "filters", "filter"}) | _FILTER_OBJECTS
_FILTER_NAME = lazy(r"fw|firewall|waf|acl|nft|ufw|filter|secgroup|security-?group|ipt|guard|shield|ids|ips|"
                    r"packet|netpol|blocklist|denylist")
_OBJECT_PIECES = ("rule", "acl", "chain", "polic", "filter")
_LOOKS = frozenset({"list", "ls", "show", "get", "status", "--help", "-h", "help", "--dry-run", "export", "save"})
_LOADS = frozenset({"-f", "--file", "load", "--load", "import", "apply", "restore"})


@triggered_by(("flush", "clear", "reset", "purge", "wipe", "zap", "drop-all", "delete-all", "remove-all"))
def rule_rules_flushed(c: Ctx) -> Optional[tuple]:
    """``fwadm policy flush``, ``wafctl ruleset clear``, ``aclctl rules flush``, ``X --flush-rules``."""
    line = c.lowered
    if not any(w in line for w in _OBJECT_PIECES):
        return None  # no rule set, access list, chain, policy or filter on the line: most lines leave here
    lowered = [t.lower() for t in c.texts]
    if set(lowered) & _LOOKS or set(lowered) & _LOADS:
        return None
    name = c.prog.lower().rsplit("/", 1)[-1]
    leading = [t for t in lowered if t[:1] != "-"][:3]
    verb = next((k for k, t in enumerate(leading) if t in _EMPTIES), -1)
    if verb >= 0:
        near = leading[max(0, verb - 1):verb + 2]
        obj = next((t for t in near if t in _RULE_OBJECTS), "")
    else:  # `--flush-rules`, `flush_acl`: the verb and the object in one word
        fused = next((t for t in lowered[:4] if {p for p in split_word(t.lstrip("-"))} & {"flush", "clear", "purge"}
                      and {p for p in split_word(t.lstrip("-"))} & _RULE_OBJECTS), "")
        obj = next((p for p in split_word(fused.lstrip("-")) if p in _RULE_OBJECTS), "") if fused else ""
    if not obj or obj not in _FILTER_OBJECTS and not _FILTER_NAME.search(name):
        return None
    return MEDIUM, f"{c.prog} empties its {obj}: every rule goes at once, what they blocked is let through and " \
                   f"what a drop policy no longer allows is cut ({c.text})"
