"""Effect: data destroyed by what an API request's body, frame or request line says, for any client that sends it.

The address of an API call often says nothing: a query endpoint (``/v1/sql``, ``/exec``, ``/_api/cursor``), a
JSON-RPC or websocket endpoint (``/jsonrpc``, ``ws://…/admin``) runs whatever the body asks.  Read for any program
that sends it (an address on its line, or an HTTP client's own options):

- a statement sent as the whole body (``curl -d 'TRUNCATE TABLE audit_log' URL``, ``--data-binary "DROP TABLE
  t"``), and the statements of query languages the SQL reading does not know (ArangoDB's ``FOR d IN users REMOVE
  d IN users``, SurrealDB's ``REMOVE DATABASE app``); elsewhere ``-d`` is often a description, so ``statements``
  leaves it;
- a destroying operation named by a body's method, op or action (JSON-RPC's ``{"method": "torrent-remove"}``,
  ``{"method": "deleteAll"}``, a websocket frame ``{"op": "delete", …}`` echoed into ``websocat`` or given to
  ``wscat -x``): high when it says all;
- a request line written as one argument (``siege 'http://host/api/orders DELETE'``, ``'DELETE http://…'``):
  judged as ``http`` judges the method and the address.

Bodies that read, create or update (``{"method": "getStatus"}``, ``MATCH (n) RETURN n``) stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules import http
from aish.safety.rules.common import HIGH, MEDIUM, Ctx, worst
from aish.safety.rules.content import sql_finding
from aish.safety.rules.statements import _STATEMENT
from aish.safety.verb_words import split_word
from aish.safety.lazy_regex import lazy

_DATA_OPTIONS = frozenset({"-d", "--data", "--data-raw", "--data-binary", "--data-ascii", "--json", "--body",
                           "--body-data", "--post-data", "-x", "--execute", "--payload", "-m", "--message", "--raw"})
_ADDRESS = lazy(r"^['\"]?((https?|wss?)://\S+|(localhost|[\w-]+(\.[\w-]+)+|\d{1,3}(\.\d{1,3}){3}):\d+(/\S*)?)$",
                re.IGNORECASE)
# Statements of other query languages: ArangoDB's AQL `… REMOVE x IN coll`, SurrealQL's `REMOVE DATABASE x`.
_OTHER_STATEMENT = lazy(r"^\s*FOR\s+\w+\s+IN\s+\S+.*\bREMOVE\s+\S+\s+IN\s+\w+|^\s*REMOVE\s+(DATABASE|NAMESPACE|"
                        r"TABLE|INDEX|USER|SCOPE)\b", re.IGNORECASE | re.DOTALL)
_OPERATION = lazy(r'"(?:method|op|operation|action|command|cmd|call)"\s*:\s*"([\w.:/-]{3,80})"', re.IGNORECASE)
_DESTROYS = frozenset({"delete", "remove", "destroy", "drop", "purge", "truncate", "wipe", "erase", "nuke",
                       "flushall", "flushdb", "obliterate", "expunge"})
_EVERY = frozenset({"all", "everything", "database", "databases", "bucket", "index", "collection", "table",
                    "tables", "cluster", "keyspace"})
_DATA_TOO = lazy(r'"delete[-_]?(local[-_]?)?data"\s*:\s*true')  # Transmission's: the files go too
_REQUEST_LINE = lazy(r"^\s*(?:(DELETE|POST|PUT|PATCH)\s+(\S+)|(\S+)\s+(DELETE|POST|PUT|PATCH))\s*$")


def may_send(c: Ctx) -> bool:
    """Cheap: a JSON body, a statement word or a request line's method on the line."""
    if not c.texts:
        return False
    low = c.lowered
    fed = bool(c.chain) and bool(c.chain[-1].words) and c.chain[-1].words[0].text in ("echo", "printf")
    return '{"' in low or "{ \"" in low or fed or " " in low and \
        any(w in low for w in ("delete", "drop", "truncate", "remove"))


def _sends(c: Ctx) -> bool:
    return c.prog.lower() in http.RULES or any(_ADDRESS.match(t) or "://" in t for t in c.texts[:48])


def _bodies(c: Ctx) -> list:
    texts = c.texts[:48]
    out = [texts[k + 1] for k, t in enumerate(texts[:-1]) if t.lower() in _DATA_OPTIONS]
    out += [t.split("=", 1)[1] for t in texts if t.startswith("--data") and "=" in t]
    out += [t for t in texts if t[:2] in ('{"', "[{")]
    for feeder in c.chain[-1:]:  # `echo '{"op":"delete"}' | websocat ws://…`
        if feeder.words and feeder.words[0].text in ("echo", "printf"):
            out += [w.text for w in feeder.words[1:] if not w.text.startswith("-")]
    return [b for b in dict.fromkeys(out) if b]


def _statement(body: str, c: Ctx) -> Optional[tuple]:
    if _OTHER_STATEMENT.match(body):
        return MEDIUM, f"{c.prog} sends {' '.join(body.split()[:4])}…: the server deletes what it names ({c.text})"
    if body.lstrip()[:1] not in ("{", "[", "<") and _STATEMENT.match(body) and \
            not re.match(r"\s*MATCH\b", body, re.IGNORECASE):  # Cypher is read by `statements` with its verbs
        return sql_finding(body, c.text) or (MEDIUM, f"{c.prog} sends a statement that changes data ({c.text})")
    return None


def _operation(body: str, c: Ctx) -> Optional[tuple]:
    best = None
    for m in _OPERATION.finditer(body[:20000]):
        words = split_word(m.group(1))
        if words and (words[0] in _DESTROYS or words[-1] in _DESTROYS or
                      len(words) > 1 and words[-2] in _DESTROYS and words[-1] in _EVERY):
            wide = bool(_EVERY & set(words)) or _DATA_TOO.search(body) is not None
            best = worst(best, ((HIGH if wide else MEDIUM),
                                f"{c.prog} asks the server to {m.group(1)}: it destroys what it names ({c.text})"))
    for m in re.finditer(r'"(?:query|aql|sql|statement)"\s*:\s*"((?:[^"\\]|\\.){4,2000})"', body[:20000]):
        best = worst(best, _statement(m.group(1), c))
    return best


def _request_line(c: Ctx) -> Optional[tuple]:
    for t in c.texts[:48]:
        m = _REQUEST_LINE.match(t) if " " in t else None
        if m is None:
            continue
        method, url = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        if _ADDRESS.match(url) or url.startswith("/"):
            found = http.judge_call(c, method, url, False)
            if found is not None:
                return found[0], f"{c.prog} sends {method} {url}: {found[1]}"
    return None


def rule_api_body(c: Ctx) -> Optional[tuple]:
    if not _sends(c):
        return None
    best = _request_line(c)
    for body in _bodies(c):
        best = worst(best, _statement(body, c))
        best = worst(best, _operation(body, c))
    return best
