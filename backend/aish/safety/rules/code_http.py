"""Effect: an HTTP call that destroys, made from code handed to an interpreter (read by ``interp``).

``curl -X DELETE`` is judged by ``http``; the same call written in a language is the same call:
Python's ``requests.delete(URL)``, ``httpx.delete``, ``requests.request("DELETE", URL)``,
``urllib.request.Request(URL, method="DELETE")``; JavaScript's ``fetch(URL, {method: "DELETE"})``,
``axios.delete``, ``got.delete``, ``ky.delete``; Ruby's ``Net::HTTP::Delete``, ``RestClient.delete``,
``HTTParty.delete``, ``Faraday.delete``; PHP's ``CURLOPT_CUSTOMREQUEST => "DELETE"``; Go's
``http.NewRequest("DELETE", URL, …)``; Perl's ``HTTP::Request->new(DELETE => URL)`` and ``$ua->delete``.
The method and the first address in the code are read and judged as ``http.judge_call`` judges a
client's (a POST to ``/_delete_by_query`` or to an address that says it deletes, too).  Reading
(``requests.get``) stays quiet.  ``code_translated`` reads most DELETE calls first; this reads what it
leaves: a method named apart from its address (``Net::HTTP::Delete.new("/orders")``) and a POST to an
address that deletes.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import Ctx
from aish.safety.rules.http import judge_call

# A call whose method is said by its name: `requests.delete(`, `axios.post(`, `Net::HTTP::Delete.new`.
_NAMED_METHOD = lazy(r"\b(?:requests|httpx|session|client|axios|got|ky|superagent|RestClient|HTTParty|Faraday|"
                     r"\$ua|\$http|http|agent|conn|s|require\(\s*['\"]axios['\"]\s*\))\s*(?:\.|::|->)\s*(delete|post|put|patch|del)\s*\(|"
                     r"Net::HTTP::(Delete|Post|Put|Patch)\b|HTTP::Request(?:->new\(\s*|::Common::)(DELETE|POST|PUT)\b",
                     re.IGNORECASE)
# A call whose method is a value: `method: 'DELETE'`, `method="DELETE"`, `request("DELETE", …)`,
# `NewRequest("DELETE"`, `CURLOPT_CUSTOMREQUEST, "DELETE"`, `http.MethodDelete`.
_METHOD_VALUE = lazy(r"(?:\bmethod\b['\"]?\s*[:=]>?\s*|\brequest\(\s*|NewRequest(?:WithContext)?\(\s*(?:ctx\s*,\s*)?|"
                     r"CUSTOMREQUEST['\"]?\s*(?:,|=>)\s*)['\"](DELETE|POST|PUT|PATCH)['\"]|"
                     r"\bhttp\.Method(Delete|Post|Put|Patch)\b", re.IGNORECASE)
_URL = lazy(r"""['"`](https?://[^'"`\s]+|localhost:\d+[^'"`\s]*)['"`]""")
_PATH = lazy(r"""['"`](/[\w./{}$?&=%-]*)['"`]""")  # `Net::HTTP::Delete.new("/orders")`: the host is said apart


def rule_code_http(c: Ctx, code: str) -> Optional[tuple]:
    """The destroying HTTP call the code makes, judged by its method and address, or None."""
    m = _NAMED_METHOD.search(code) or _METHOD_VALUE.search(code)
    if m is None:
        return None
    method = next(g for g in m.groups() if g).upper()
    method = "DELETE" if method == "DEL" else method
    address = _URL.search(code, m.start()) or _URL.search(code) or _PATH.search(code, m.start())
    if address is None:
        return None
    url = address.group(1)
    found = judge_call(c, method, url if "://" in url or url.startswith("/") else "http://" + url, True)
    return (found[0], f"{found[1]}, called from {c.prog} code") if found else None


_MAY = lazy(r"delete|post|put|patch|\bdel\s*\(")


def may_call(code: str) -> bool:
    """One search of the code before the calls are read."""
    return bool(_MAY.search(code.lower()))
