"""Effect: a stored value, document or artifact replaced by nothing through HTTP ``PUT``, for any HTTP client.

``PUT`` replaces what the address holds with the body sent.  Sent empty (``-d ''``, ``--data '{}'``, ``value=``,
``--upload-file /dev/null``, ``--body-data=''``, ``-Body ''``, httpie's request read from ``/dev/null``), it blanks
a key-value store's key (a configuration a service reads at start), a CMS page, a secret's data or a released
artifact (what was there is gone, and every reader now gets nothing).  A ``PUT`` with a body, a ``GET``, a
``POST`` (it adds) stay quiet; so does an empty ``PUT`` whose address creates a container (the Elasticsearch
``PUT /index`` style, with no body at all).  Medium."""
from __future__ import annotations

from typing import Optional

from aish.safety.programs import HTTPIE_CLIENTS
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.http import _method_and_url
from aish.safety.rules.triggers import triggered_by

_EMPTY = frozenset({"", "{}", "[]", '""', "''", "null", "@/dev/null", "/dev/null", "nul", "$null"})
_BODY_OPTIONS = frozenset({"-d", "--data", "--data-raw", "--data-binary", "--data-ascii", "--data-urlencode",
                           "--json", "--body-data", "--body-file", "-body", "-infile", "--raw", "-t",
                           "--upload-file", "--body"})


@triggered_by(("put", "-t", "upload-file"))
def rule_empty_put(c: Ctx) -> Optional[tuple]:
    """``curl -X PUT http://kv:8500/v1/kv/app/db_url -d ''``, ``curl -T /dev/null -X PUT URL/app-1.4.jar``."""
    texts = c.texts
    lowered = [t.lower() for t in texts]
    uploads = any(t in ("-t", "--upload-file") for t in lowered)
    if "put" not in " ".join(lowered) and not uploads:
        return None
    method, url, _ = _method_and_url(c)
    prog = c.prog.lower().rsplit("/", 1)[-1]
    if method != "PUT" and not (uploads and prog.startswith("curl") and method in ("", "PUT")):
        return None
    bodies = []
    for k, t in enumerate(lowered):
        key, eq, value = t.partition("=")
        if key in _BODY_OPTIONS and (eq or k + 1 < len(texts)):
            bodies.append(value if eq else lowered[k + 1])
    if prog in HTTPIE_CLIENTS:  # the request body read from standard input: `http PUT URL < /dev/null`
        bodies += [r.target.text.lower() for r in c.seg.redirects if r.op == "<" and r.target is not None]
        items = [t for t in texts if "=" in t and not t.startswith("-") and not t.startswith("http")]
        if items:
            return None  # `http PUT URL dark=true`: a body given as items
    if not bodies or not all(b in _EMPTY or b.endswith("=") and "&" not in b for b in bodies):
        return None
    return MEDIUM, f"{c.prog} PUT with an empty body replaces what {url or 'the address'} holds with nothing " \
        f"({c.text})"
