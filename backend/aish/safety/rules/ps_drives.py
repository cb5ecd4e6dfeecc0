"""Effect: what PowerShell's drives hold, removed: certificates with their keys, the search path.

PowerShell names more than files with paths: ``Cert:\\CurrentUser\\My\\THUMBPRINT`` is a
certificate (``-DeleteKey`` takes its private key too), ``Cert:\\LocalMachine\\Root\\…`` a root the
machine trusts, ``Env:\\PATH`` the search path.  ``Remove-Item`` in any alias on such a path
deletes the thing itself; fed a listing of a whole store it deletes every certificate in it.
Aliases, functions and variables (``Alias:\\ls``, ``Function:\\prompt``) are the session's own and
stay quiet, and so do ``-WhatIf`` and ``-Confirm``."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.lazy_regex import lazy

_REMOVERS = frozenset({"remove-item", "ri", "rm", "del", "erase", "rd", "rmdir"})
_CERT = lazy(r"^cert:[\\/]?", re.IGNORECASE)
_SEARCH_PATH = lazy(r"^env:[\\/]?(path|pathext|psmodulepath)$", re.IGNORECASE)
_ASKS = frozenset({"-whatif", "-confirm"})


def rule_drive_removed(c: Ctx) -> Optional[tuple]:
    """``Remove-Item Cert:\\…``, ``Get-ChildItem Cert:\\CurrentUser\\My | Remove-Item``, ``Remove-Item Env:\\PATH``."""
    if c.prog.lower() not in _REMOVERS or {t.lower() for t in c.texts} & _ASKS:
        return None
    paths = [t for t in c.texts if not t.startswith("-")]
    cert = next((p for p in paths if _CERT.match(p)), None)
    if cert is not None:
        return MEDIUM, f"{c.prog} deletes the certificate {cert} from its store ({c.text})"
    if any(_SEARCH_PATH.match(p) for p in paths):
        return MEDIUM, f"{c.prog} removes the search path: commands are no longer found ({c.text})"
    if not paths and c.chain:
        fed = [w.text for w in c.chain[-1].words]
        store = next((t for t in fed if _CERT.match(t)), None)
        if store is not None:
            return HIGH, f"{c.prog} deletes every certificate {store} lists ({c.text})"
    return None
