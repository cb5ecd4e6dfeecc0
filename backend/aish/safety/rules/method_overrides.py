"""Effect: an API told to delete in words other than an HTTP method, by any client.

- A method override: the request is a POST or a GET, the server acts on the header or field that says
  DELETE (``-H 'X-HTTP-Method-Override: DELETE'``, ``X-HTTP-Method``, ``X-Method-Override``, httpie's
  ``X-HTTP-Method-Override:DELETE``, Rails' and Laravel's ``_method=delete`` field or query).  Judged as
  ``curl -X DELETE`` of the same address is, for curl, wget, httpie, load testers or any program.
- NETCONF's ``delete-config`` (``netconf-console --delete-config=startup``, ``<delete-config>`` in an RPC
  sent by any client): the datastore is erased, a startup configuration leaves the device bare at its next
  boot (high); an ``edit-config`` whose element says ``operation="delete"`` or ``"remove"`` (medium).
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules import http
from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

_WORDS = ("method", "delete-config", "edit-config", "--delete")
_OVERRIDE = LazyRegex(r"(?:^|[\s'\"={;])x-(?:http-)?method(?:-override)?['\"]?\s*[:=]\s*['\"]?(delete|purge)\b|"
                      r"(?:^|[?&\s'\"]|^-[dF]?)_method=(delete|purge)\b", re.IGNORECASE)
_URL = LazyRegex(r"^(https?://\S+|[\w-]+(\.[\w-]+)+(:\d+)?/\S*|localhost:\d+\S*|:\d+/\S*)$", re.IGNORECASE)
_DELETE_CONFIG = LazyRegex(r"(?:^|[\s<\-])delete-config(?:>|\b)", re.IGNORECASE)
_TARGET = LazyRegex(r"\b(startup|running|candidate)\b", re.IGNORECASE)
_METHOD_VALUE = LazyRegex(r"^(\w+_)?(http_)?method=(delete|purge)$", re.IGNORECASE)
_EDIT_DELETE = LazyRegex(r"operation\s*=\s*['\"]?(delete|remove)\b", re.IGNORECASE)


@triggered_by(_WORDS, otherwise=False)
def may_override(c: Ctx) -> bool:
    """One search of the lowered line: a method word or NETCONF's delete."""
    return any(w in c.lowered for w in _WORDS)


def rule_method_override(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    joined = " ".join(texts)
    if _OVERRIDE.search(joined):
        url = next((t for t in texts if _URL.match(t) and "_method=" not in t.split("?", 1)[0]), "")
        url = url or next((t for t in texts if "://" in t), "")
        found = http.judge_call(c, "DELETE", url, data=True) if url else None
        if found is not None and found[0] >= MEDIUM:
            return found[0], f"{c.prog} overrides the method to DELETE: {found[1]}"
        return MEDIUM, f"{c.prog} sends a request the server runs as DELETE (a method override) ({c.text})"
    erased = _DELETE_CONFIG.search(joined)
    if erased is not None:
        target = _TARGET.search(joined[erased.end():][:80])
        store = target.group(1).lower() if target else "a"
        level = HIGH if store in ("startup", "running") else MEDIUM
        return level, f"{c.prog} erases the device's {store} configuration datastore (NETCONF delete-config) " \
                      f"({c.text})"
    if "set" in texts[:4] and "--delete" in texts:  # gNMI: `gnmic -a r1:57400 set --delete /interfaces`
        path = texts[texts.index("--delete") + 1] if texts.index("--delete") + 1 < len(texts) else ""
        if path.startswith("/"):
            return (HIGH if path == "/" else MEDIUM), f"{c.prog} set --delete removes {path} from the device's " \
                f"configuration ({c.text})"
    told = next((t for t in texts if _METHOD_VALUE.match(t)), None)
    if told is not None:  # `k6 run -e METHOD=DELETE load.js`: the script's requests take the method given
        return MEDIUM, f"{c.prog} runs requests told {told}: they delete what they call ({c.text})"
    if "operation" in joined and _EDIT_DELETE.search(joined) and "edit-config" in joined.lower():
        return MEDIUM, f"{c.prog} sends an edit-config that deletes what it names ({c.text})"
    return None
