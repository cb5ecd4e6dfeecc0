"""Effect: mail sent on outside the organisation, turned on by any mail system's own words.

A forward set on a mailbox, a redirect in an inbox rule, a copy of every message blind-carbon-copied to
an address, or a tenant's automatic forwarding switched on carries every message that arrives to
whoever holds the other address: a standing leak nobody sees in the mailbox.  Each system says it its
own way (``Set-HostedOutboundSpamFilterPolicy -AutoForwardingMode On``, ``Set-RemoteDomain
-AutoForwardEnabled $true``, ``New-InboxRule -ForwardTo``, ``-RedirectTo``, GAM's ``forward on ADDRESS``,
Zimbra's ``zimbraPrefMailForwardingAddress``, Postfix's ``always_bcc``); what they share is a key whose
name ends in a forward or a blind copy, given an address or switched on.

Reading the setting (``show``, ``get``, ``Get-…``), switching it off and other forwards (``ForwardAgent``,
``port-forward``, X11) stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

# A key (lowered, separators out) that forwards mail: its name ends in the forward or the copy.
_FORWARD_KEY = lazy(r"(forward(ing)?(smtp|mail)?(address(es)?|to|email|enabled|mode)?|redirectto|alwaysbcc|"
                    r"blindcopyto|bcccopyto)$")
_AUTOMATIC = lazy(r"autoforward")
_ON = frozenset({"on", "$true", "true", "automatic", "enabled", "enable", "1", "yes"})
_ADDRESS = lazy(r"[\w.+-]+@[\w-]+(\.[\w-]+)*\.[a-z]{2,}$", re.IGNORECASE)
_READS = frozenset({"show", "get", "ga", "info", "print", "list", "--get", "-get", "off", "remove", "delete", "del"})
_WORDS = ("forward", "redirectto", "always_bcc", "blindcopyto", "bcccopyto")


@triggered_by(*_WORDS, otherwise=False)
def may_forward(c: Ctx) -> bool:
    line = c.prog.lower() + " " + c.lowered
    return any(w in line for w in _WORDS)


def _flat(word: str) -> str:
    return re.sub(r"[-_.:$]", "", word.lower())


def rule_mail_forwarded(c: Ctx) -> Optional[tuple]:
    if c.prog.lower().startswith(("get-", "test-")):
        return None
    words = [p for t in c.texts[:32] for p in re.split(r"\s*=\s*|\s+|:(?=\$)", t.strip("'\"")) if p]
    lowered = [w.lower() for w in words]
    if set(lowered) & _READS:
        return None
    for k, w in enumerate(words):
        key = _flat(w)
        if not _FORWARD_KEY.search(key):
            continue
        rest = words[k + 1:k + 4]
        address = next((r for r in rest if _ADDRESS.match(r.strip("'\",;"))), None)
        if address is not None:
            return MEDIUM, f"{c.prog} {w.lstrip('-')} sends the mail on to {address}: every message leaves with " \
                f"it ({c.text})"
        if _AUTOMATIC.search(key) and rest and rest[0].lower().strip("'\"") in _ON:
            return MEDIUM, f"{c.prog} {w.lstrip('-')} {rest[0]} lets mail be forwarded outside automatically " \
                f"({c.text})"
    return None
