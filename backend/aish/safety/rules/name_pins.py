"""Effect: how a public name resolves changed for the whole machine, by a hosts or resolver tool no rule names.

``meaning`` reads a line written into ``/etc/hosts`` or ``resolv.conf`` by a redirection or an editor.  Hosts-file
managers and resolver front ends write the same lines from their own arguments:

- a public name pinned to an address (``hostctl add domains prod github.com --ip 10.66.6.6``, ``hostess add
  pypi.org 127.0.0.1``, ``hostsed add 10.0.0.99 login.microsoftonline.com``, ``hostile set 0.0.0.0
  security.ubuntu.com``, ``Set-CHostsEntry -IPAddress … -HostName …``, ``txeh add``): every program on the
  machine reaches that address instead, or nothing (updates, sign-in, package indexes);
- the hosts file reset to its default (``Reset-CHostsFile``, ``hostctl … reset``): every entry is gone;
- nameservers handed to ``resolvconf -a`` on its input: every lookup goes to them.

Local names (``myapp.localhost``, ``*.test``, ``*.local``, a name without a dot), listings and reads stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

_HOSTS_TOOL = LazyRegex(r"hosts?(ctl|ed|ess|ile|man|edit|file|entry|mgr|-manager|_manager)?$|^txeh$|"
                        r"hosts?(entry|file|record)$|^(set|add|new|reset|clear|remove)-\w*hosts?(entry|file)",
                        re.IGNORECASE)
_ADDRESS = LazyRegex(r"^(\d{1,3}\.){3}\d{1,3}$|^[0-9a-f:]*::[0-9a-f:]*$", re.IGNORECASE)
_NAME = LazyRegex(r"^(?=.*[a-z])[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$", re.IGNORECASE)
_LOCAL = LazyRegex(r"\.(localhost|local|test|lan|internal|home|arpa|localdomain|invalid|example|corp|intranet|"
                   r"home\.arpa|docker|dev\.local|lab)$|^localhost$|(^|\.)example\.(com|org|net)$", re.IGNORECASE)
_SETTING_VERBS = frozenset({"add", "set", "pin", "block", "on", "-ipaddress", "--ip", "-ip", "replace", "update",
                            "append", "insert"})
_RESETS = frozenset({"reset", "restore-default", "--reset", "defaults"})
_WORDS = ("host", "txeh", "resolvconf")


@triggered_by(_WORDS, otherwise=False)
def may_pin(c: Ctx) -> bool:
    """Cheap: the program is named for the hosts file, or is resolvconf."""
    return _HOSTS_TOOL.search(c.prog) is not None or c.prog == "resolvconf"


def rule_name_pinned(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:64]  # a setting, a target or a verb is among the first words: long lines are not read
    low = [t.lower() for t in texts]
    if c.prog == "resolvconf":
        fed = " ".join(w.text for seg in c.chain for w in seg.words)
        if "-a" in texts and "nameserver" in fed:
            return MEDIUM, f"{c.prog} -a is given nameservers: every lookup on the machine goes to them ({c.text})"
        return None
    if c.prog.lower().startswith("reset-") or set(low[:2]) & _RESETS:
        return MEDIUM, f"{c.prog} resets the hosts file: every entry in it is gone ({c.text})"
    if not (set(low) & _SETTING_VERBS or c.prog.lower().startswith(("set-", "add-", "new-"))):
        return None
    addresses = [t for t in texts if _ADDRESS.match(t.strip("'\""))]
    names = [t.strip("'\"") for t in texts if _NAME.match(t.strip("'\"")) and not _ADDRESS.match(t.strip("'\""))]
    public = [n for n in names if not _LOCAL.search(n) and not re.search(r"\.(txt|conf|json|ya?ml|hosts)$", n)]
    if addresses and public:
        return MEDIUM, f"{c.prog} pins {public[0]} to {addresses[0]}: every program on the machine reaches that " \
                       f"address for it ({c.text})"
    return None
