"""Effect: a domain's sign-ins handed to an identity provider, by any program's words for federating it.

A domain switched to federated authentication stops checking its users' passwords itself: whoever runs
the identity provider named (its issuer and sign-in address) signs in as any user of the domain, the
administrators included.  The words differ (``Set-MsolDomainAuthentication -Authentication Federated``,
``Update-MgDomain -AuthenticationType Federated``, ``Convert-MsolDomainToFederated``, a Graph call's
``"authenticationType": "Federated"``, ``--authentication-type federated``); what they share is an
authentication key given ``Federated``, or a conversion to federated named.

Reading the domain's settings and switching it back to managed stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_KEY = lazy(r"authentication[-_ ]?(type|mode|method)?\W*$", re.IGNORECASE)
_FEDERATED = lazy(r"""(?i)["']?authentication[-_]?(type|mode)?["']?\s*[:=]\s*["']?federated\b""")


@triggered_by("federated", otherwise=False)
def may_federate(c: Ctx) -> bool:
    return "federated" in c.prog.lower() or "federated" in c.lowered


def rule_federated(c: Ctx) -> Optional[tuple]:
    prog = c.prog.lower()
    if prog.startswith(("get-", "test-")):
        return None
    if re.search(r"to-?federated$", prog):
        return MEDIUM, f"{c.prog} hands the domain's sign-ins to an identity provider: whoever runs it signs in as " \
            f"any user ({c.text})"
    texts = c.texts[:40]
    for k, t in enumerate(texts):
        said = _FEDERATED.search(t) or _KEY.search(t.lstrip("-")) and t.startswith("-") and \
            texts[k + 1:k + 2] and texts[k + 1].strip("'\"").lower() == "federated"
        if said:
            return MEDIUM, f"{c.prog} makes the domain's authentication federated: whoever runs the identity " \
                f"provider named signs in as any user ({c.text})"
    return None
