"""Effect: data destroyed through an API call made by ANY client, not only the ones ``http`` names.

- An HTTP method given to any program with an address on its line: load testers and other clients
  (``hey -m DELETE``, ``oha -m PUT``, ``ab -m``, ``bombardier -m``), an HTTP/2 pseudo-header
  (``nghttp -H ':method: DELETE'``, ``h2load``), libwww-perl's method-named programs (``DELETE URL``,
  ``POST URL``).  The call is judged as ``http`` judges curl's: the method and the address.
- A gRPC method named for destroying (``grpcurl … pkg.Cache/PurgeAll``, ``ghz --call pkg.Store.DeleteAll``,
  ``buf curl https://host/pkg.Queue/FlushQueue``): ``Service/Method`` anywhere, ``pkg.Service.Method`` after
  ``--call``/``call``.
- A GraphQL mutation whose field says it deletes (``mutation { productDelete(…) }``, ``deleteUser``,
  ``delete_users(where: {})``), in an argument, a request body, a here-string or heredoc, or text
  echoed into the client.

One item is medium; all of them (``deleteAll…``, ``PurgeAll``, ``where: {}``, a whole database) is high."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules import http
from aish.safety.rules.common import HIGH, MEDIUM, Ctx, fragment
from aish.safety.verb_words import split_word

_METHODS = frozenset({"DELETE", "POST", "PUT", "PATCH"})
_METHOD_WORD = LazyRegex(r"delete|post|put|patch")
_METHOD_OPTIONS = frozenset({"-m", "-x", "--method", "--request", "-method", "-request", "--http-method", "-verb"})
_SERVER_OPTIONS = ("--server", "--host", "-host", "--hostname", "-server")
_PATH_OPTIONS = ("--uri", "--url", "--path", "--endpoint", "-uri", "-path")
_PSEUDO_METHOD = LazyRegex(r"^:method:\s*(\w+)$", re.IGNORECASE)
_ADDRESS = LazyRegex(r"^(https?://\S+|(localhost|[\w-]+(\.[\w-]+)+|\d{1,3}(\.\d{1,3}){3}):\d+(/\S*)?)$", re.IGNORECASE)
# Verbs a method or field name says it destroys with, and the words that make it all.
_DESTROYS = frozenset({"delete", "remove", "destroy", "drop", "purge", "truncate", "wipe", "erase", "nuke", "flush",
                       "reset", "obliterate", "clear", "expunge", "terminate", "deprovision", "teardown", "evict"})
_WIDE = frozenset({"all", "everything", "many", "bulk", "database", "databases", "cluster", "index", "indices",
                   "table", "tables", "bucket", "namespace", "keyspace", "tenant", "workspace", "repository", "cache",
                   "queue", "store"})
# `pkg.v1.Service/Method` (grpcurl, an address's last two parts); `pkg.Service.Method` after --call or call.
_RPC_SLASH = LazyRegex(r"(?:^|/)[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*\.?[A-Z]\w*/([A-Z]\w*)$")
_RPC_DOTTED = LazyRegex(r"^[a-z_][\w]*(?:\.[A-Za-z_]\w*)*\.[A-Z]\w*\.([A-Z]\w*)$")
_RPC_CALL = frozenset({"--call", "-call", "call"})
# The start of a mutation's selection set, and the fields called inside it (`productDelete(`, `deleteAll {`).
_MUTATION = LazyRegex(r"\bmutation\b(\s+\w+)?(\s*\([^)]*\))?\s*\{")
_FIELD = LazyRegex(r"(?:^|[{\s,])(?:\w+\s*:\s*)?([A-Za-z_]\w*)\s*(?=[({}\s,])")  # `removeAllUsers }`: no arguments
# A client that sends what it is given to an API, though no address is on its line.
_API_CLIENT = LazyRegex(r"graph|gql|(^|\s)(query|api|request|execute|exec|call|mutate|mutation)(\s|$)", re.IGNORECASE)
_ECHOES = frozenset({"echo", "printf", "cat", "jq", "jo"})


def rule_api_call(c: Ctx) -> Optional[tuple]:
    """Destroying API calls in any client's words: HTTP methods, gRPC methods, GraphQL mutations."""
    return _http_method(c) or _rpc_method(c) or _mutation(c)


def _http_method(c: Ctx) -> Optional[tuple]:
    if c.prog.lower() in http.RULES:
        return None  # curl, wget, httpie, gh api: `http` reads their own options
    texts = c.texts
    if c.prog not in _METHODS and not _METHOD_WORD.search(c.lowered):
        return None
    method = c.prog if c.prog in _METHODS else ""  # libwww-perl's `DELETE URL`, `POST URL`
    for k, t in enumerate(texts[:-1]):
        nxt = texts[k + 1]
        if t.lower() in _METHOD_OPTIONS and nxt.upper() in _METHODS:
            method = nxt.upper()
        elif t in ("-H", "--header") and (pseudo := _PSEUDO_METHOD.match(nxt)) and pseudo.group(1).upper() in _METHODS:
            method = pseudo.group(1).upper()
    for t in texts:  # `--method=DELETE`, `-X=DELETE`
        name, eq, value = t.partition("=")
        if eq and name.lower() in _METHOD_OPTIONS and value.upper() in _METHODS:
            method = value.upper()
    if not method:
        return None
    url = next((t for t in texts if _ADDRESS.match(t)), "") or _server_and_path(texts)
    if not url:
        return None
    found = http.judge_call(c, method, url, data=False)
    return (found[0], f"{c.prog} makes an HTTP {method}: {found[1]}") if found else None


def _server_and_path(texts: list) -> str:
    """``httperf --server api.example.com --uri=/v1/items/7``: the address given in two options."""
    values: dict = {}
    for k, t in enumerate(texts):
        name, eq, value = t.partition("=")
        if not eq and k + 1 < len(texts):
            value = texts[k + 1]
        values.setdefault(name.lower(), value)
    server = next((values[o] for o in _SERVER_OPTIONS if values.get(o)), "")
    path = next((values[o] for o in _PATH_OPTIONS if values.get(o, "").startswith("/")), "")
    return f"https://{server}{path}" if server and path else ""


def _rpc_method(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    if "/" not in c.lowered and "call" not in c.lowered:
        return None  # neither `pkg.Service/Method` nor `--call`/`call`
    if "rpc" not in c.prog.lower() and not any(_ADDRESS.match(t) for t in texts):
        return None  # a call goes to a server: its address is on the line (`localhost:50051`, a URL)
    for k, t in enumerate(texts):
        m = _RPC_SLASH.search(t) if "/" in t else None
        if m is None and k and (texts[k - 1] in _RPC_CALL or "call" in texts[:k]):  # grpc_cli call HOST METHOD
            m = _RPC_DOTTED.match(t)
        if m is None and t.startswith("--call="):
            m = _RPC_DOTTED.match(t[7:]) or _RPC_SLASH.search(t[7:])
        if m is None:
            continue
        words = split_word(m.group(1))
        if words and (words[0] in _DESTROYS or words[-1] in _DESTROYS):
            level = HIGH if _WIDE & set(words) else MEDIUM
            return level, f"{c.prog} calls the RPC method {m.group(1)}: the server destroys what it names " \
                f"({fragment([w.raw for w in c.words])})"
    return None


def _mutation(c: Ctx) -> Optional[tuple]:
    if c.prog in _ECHOES or "mutation" not in c.lowered and not c.seg.redirects and not c.chain:
        return None
    bodies = [t for t in c.texts if "mutation" in t]
    bodies += [r.body for r in c.seg.redirects if r.body and "mutation" in r.body]
    bodies += [r.target.text for r in c.seg.redirects if r.op == "<<<" and r.target is not None and
               "mutation" in r.target.text]
    for feeder in c.chain[-1:]:  # `echo '{"query":"mutation …"}' | curl -d @- URL`
        if feeder.words and feeder.words[0].text in ("echo", "printf"):
            bodies += [w.text for w in feeder.words[1:] if "mutation" in w.text]
    if not bodies or not any(_ADDRESS.match(t) or "graphql" in t.lower() for t in c.texts) and \
            not _API_CLIENT.search(c.prog + " " + " ".join(c.texts[:3])):
        return None  # a mutation written to a file or shown, not sent (`newrelic nerdgraph query …` sends it)
    for body in bodies:
        start = _MUTATION.search(body)
        if start is None:
            continue
        rest = body[start.end() - 1:]
        for name in _FIELD.findall(rest)[:20]:
            words = split_word(name)
            if words and (words[0] in _DESTROYS or words[-1] in _DESTROYS):
                everything = bool(_WIDE & set(words)) or re.search(r"where\s*:\s*\{\s*\}", rest) is not None
                return (HIGH if everything else MEDIUM), \
                    f"{c.prog} sends a GraphQL mutation {name}: it deletes what it names " \
                    f"({fragment([w.raw for w in c.words])})"
    return None
