"""Effect: destroys data through an HTTP API.  ``curl -X DELETE``, ``http DELETE``, ``wget
--method=DELETE``, ``Invoke-RestMethod -Method Delete``, ``gh api -X DELETE``, and POSTs to
endpoints named for deleting (``_delete_by_query``).

The path says how much goes: one item (``/users/42``) is medium; a whole index, database
or repository (``/orders``, ``/_all``, ``/repos/OWNER/REPO``) is high.
"""
from __future__ import annotations

import re
from typing import Optional
from urllib.parse import unquote, unquote_plus, urlsplit

from aish.safety.rules import http_actions, power_settings
from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.content import sql_finding
from aish.safety.rules.remote import PROD
from aish.safety.rules.statements import _STATEMENT
from aish.safety.verb_words import split_word
from aish.safety.lazy_regex import lazy

_URL = lazy(r"^['\"]?(https?://|:\d|localhost|[\w.-]+:\d+|/|[\w-]+(\.[\w-]+)+/)", re.IGNORECASE)
_WHOLE = lazy(r"(^|/)(_all|\*|_\w*index\w*|_cluster)(/|$)|^/repos/[^/]+/[^/]+/?$|^/orgs/[^/]+/?$|"
              r"^/projects/[^/]+/?$|^/(v\d+/)?(databases?|buckets?|indices|indexes|collections?|"
              r"keyspaces|clusters?|namespaces?)/[^/]+/?$|[?&](recurse|recursive|force|purge)=(true|1)|"
              r"[^/]\*")
_DELETE_ENDPOINT = lazy(r"_delete_by_query|/(delete|destroy|drop|wipe|purge|truncate|reset)(_\w+)?(/|$|\?)",
                        re.IGNORECASE)


_VALUED = {"-H", "--header", "-d", "--data", "--data-binary", "--data-raw", "-o", "--output", "-u", "--user",
           "-F", "--form", "-A", "--user-agent", "-e", "--referer", "-b", "--cookie", "--json", "-X", "--request",
           "-f", "--field", "--raw-field", "--method",
           # paths that are not the address: a socket, certificates, a config file, where headers and cookies go
           "--unix-socket", "--abstract-unix-socket", "--cacert", "--capath", "--cert", "-E", "--key", "-K",
           "--config", "-c", "--cookie-jar", "-D", "--dump-header", "--output-dir", "--trace", "--trace-ascii",
           "--stderr", "-x", "--proxy"}


def _method_and_url(c: Ctx) -> tuple:
    texts = c.texts
    method, url, data = "", "", False
    prog = c.prog.lower()
    for k, t in enumerate(texts):
        nxt = texts[k + 1] if k + 1 < len(texts) else ""
        low = t.lower()
        if low in ("-x", "--request", "--method", "-method") and nxt:
            method = nxt.upper()
        elif re.fullmatch(r"-X[A-Za-z]+", t):
            method = t[2:].upper()
        elif re.fullmatch(r"-[a-zA-Z]+X", t) and nxt and prog.startswith("curl"):  # `curl -sX DELETE`, `-kfsSX`
            method = nxt.upper()
        elif re.fullmatch(r"-[a-zA-Z]+X[A-Z]{3,}", t) and prog.startswith("curl"):  # `curl -sXDELETE`
            method = t[t.index("X") + 1:]
        elif low.startswith(("--request=", "--method=", "-method:")):
            method = re.split(r"[=:]", t, maxsplit=1)[1].upper()
        elif low in ("-d", "--data", "--data-binary", "--data-raw", "--json", "-f", "--field", "--body", "-body",
                     "-F", "--form") or low.startswith(("--data", "--post-data", "--post-file")):
            data = True
        elif not url and (t.startswith(("http://", "https://")) or _URL.match(t) and not t.startswith("-")
                          and t.upper() not in ("GET", "POST", "PUT", "PATCH", "DELETE") and
                          (k == 0 or texts[k - 1] not in _VALUED)):
            url = t
    if prog in ("http", "https", "xh", "xhs", "httpie"):
        valued = {"-a", "--auth", "--session", "--session-read-only", "--verify", "--cert", "--cert-key", "-A",
                  "--auth-type", "--proxy", "-o", "--output", "--timeout"}
        positional = [t for k, t in enumerate(texts) if not t.startswith("-") and not (k and texts[k - 1] in valued)]
        if positional and positional[0].upper() in ("DELETE", "GET", "POST", "PUT", "PATCH", "HEAD"):
            method = positional[0].upper()
            url = positional[1] if len(positional) > 1 else url
    if prog in ("gh", "glab") and texts[:1] == ["api"]:
        url = next((t for k, t in enumerate(texts) if k and not t.startswith("-") and t.upper() != method
                    and texts[k - 1] not in _VALUED), url)
        url = url if url.startswith(("/", "http")) else "/" + url
    return method, url, data


def rule_http_delete(c: Ctx) -> Optional[tuple]:
    if c.prog.lower() in ("gh", "glab") and c.texts[:1] != ["api"]:
        return None
    method, url, data = _method_and_url(c)
    return judge_call(c, method, url, data)


def judge_call(c: Ctx, method: str, url: str, data: bool) -> Optional[tuple]:
    """What an HTTP call of ``method`` to ``url`` (with a body or not) destroys, whatever client makes it."""
    path = urlsplit(url).path if "://" in url else url.split("?")[0]
    path = re.sub(r"^:\d+", "", path)
    query = urlsplit(url).query if "://" in url else (url.split("?", 1)[1] if "?" in url else "")
    if method == "DELETE":
        depth = len([p for p in path.split("/") if p])
        whole = _WHOLE.search(path + ("?" + query if query else "")) or depth == 1 or PROD.search(url)
        what = "a whole index, database or repository" if whole else "what the URL names"
        return (HIGH if whole else MEDIUM), f"HTTP DELETE removes {what} ({c.text})"
    if (method in ("POST", "PUT", "PATCH") or data) and _DELETE_ENDPOINT.search(path):
        everything = "match_all" in " ".join(c.texts) or _WHOLE.search(path)
        return (HIGH if everything else MEDIUM), f"calls an API endpoint that deletes data ({c.text})"
    acted = http_actions.body_action(c, method or ("POST" if data else "GET"), url) \
        if data or method in ("POST", "PUT", "PATCH") else None
    if acted is not None:  # `-d '{"type":"power_off"}'`, `-d '{"spec":{"replicas":0}}'`
        return acted
    stopped = _stop_action(path) if method in ("POST", "PUT") or data and method not in ("GET", "HEAD") else None
    if stopped is not None:
        return stopped[0], f"calls an API that {stopped[1]} ({c.text})"
    switched = power_settings.query_powers_off(query) if query and method not in ("HEAD", "OPTIONS") else None
    if switched is not None:  # `/relay/0?turn=off`, `/cm?cmnd=Power%20Off`: a device's API switches it off
        return MEDIUM, f"calls a device's API with {switched}: its power is switched off ({c.text})"
    statement = _query_statement(query) if query and method not in ("HEAD", "OPTIONS") else None
    if statement is not None:  # `?query=DROP%20TABLE%20events`: an HTTP query API runs what its query says
        return sql_finding(statement, c.text) or (MEDIUM, f"sends a statement that deletes data ({c.text})")
    said = _path_says_destroy(path, query) if url and method not in ("HEAD", "OPTIONS") else None
    if said is not None:
        verb, wide = said
        return (HIGH if wide else MEDIUM), f"calls an API whose address says {verb}: whatever the method, " \
            f"the server {verb}s what it names ({c.text})"
    return None


# The last step of an address that stops what the server runs: for everything it runs (`/nodes/pve1/stopall`), the
# node itself (`/v1/agent/leave`, `/status/reboot`), indices closed (`/_all/_close`); a stop, kill or pause of one
# named thing (`/containers/web/stop`) is flagged only for a whole set (`/_all/`, `*`, `/all/`).
_STOPS_EVERYTHING = frozenset({"stopall", "killall", "suspendall", "shutdownall", "rebootall", "stop-all", "kill-all",
                               "stop_all", "kill_all"})
_STOPS_NODE = frozenset({"leave", "reboot", "deallocate", "power-off", "poweroff", "_close", "_freeze",
                         "hibernate", "exit", "safeexit", "quit", "_shutdown"})
_STOPS_ONE = frozenset({"stop", "kill", "pause", "suspend", "_stop", "terminate"})


def _query_statement(query: str) -> Optional[str]:
    """A destroying statement given as a query's value (``?query=DROP TABLE t``, ``?q=DROP DATABASE m``)."""
    for pair in re.split(r"[&;]", query):
        value = unquote_plus(pair.partition("=")[2])
        if len(value) > 6 and _STATEMENT.match(value):
            return value
    return None


def _stop_action(path: str) -> Optional[tuple]:
    """(level, what) for a POST or PUT whose address ends in a stop, or None."""
    steps = [p.lower() for p in path.split("/") if p]
    if not steps:
        return None
    last, wide = steps[-1], bool(_WHOLE.search(path)) or "all" in steps[:-1]
    if last in _STOPS_EVERYTHING:
        return MEDIUM, f"stops everything {steps[-2] if len(steps) > 1 else 'the server'} runs"
    if last in _STOPS_NODE:
        return (HIGH if wide else MEDIUM), f"says {last.lstrip('_')}: what it names stops serving"
    if last == "prune":  # Docker's engine API: `/containers/prune`, `/volumes/prune` (what they hold goes)
        what = steps[-2] if len(steps) > 1 else "item"
        return (HIGH if "volumes" in steps else MEDIUM), f"prunes every unused {what}"
    if last in _STOPS_ONE and wide:
        return MEDIUM, f"says {last.lstrip('_')} for a whole set: every one of them stops"
    return None


# Verbs an address may say that a server acts on (`/doDelete`, `?action=delete`, `/factory_reset`, `/trash/empty`);
# short or ambiguous ones (`rm`, `gc`, `expire`, `rollback`) are left out: addresses use them for other things.
_ADDRESS_VERBS = frozenset({"delete", "remove", "destroy", "drop", "wipe", "purge", "truncate", "erase", "nuke",
                            "obliterate", "flushall", "flushdb", "terminate", "deprovision", "teardown", "shred",
                            "shutdown", "poweroff", "halt"})
# Query keys whose value is what the server is told to do (`?action=delete`, `?cmd=delete_all_users`); other
# values are filters (`?event=delete` reads the audit log of deletions).
_ACTION_KEYS = frozenset({"action", "cmd", "command", "op", "operation", "method", "do", "task", "mode", "submit",
                          "submit_button", "func", "function", "act", "type"})


def _query_actions(query: str) -> list:
    """The parts of a query that can say an action: action-like keys' values, and keys themselves (`?purge=1`)."""
    out = []
    for pair in re.split(r"[&;]", query):
        key, _, value = pair.partition("=")
        out.append(key)
        if key.lower() in _ACTION_KEYS or key.lower().endswith(("action", "_button", "cmd")):
            out.append(value)
    return [p for p in out if p]
_ADDRESS_WIDE = frozenset({"all", "everything", "database", "databases", "factory", "wipe", "index", "bucket",
                           "cluster", "workspace", "repository", "tsdb"})


# A file the address names (`/files/delete-me.txt`, `remove-bg.zip`): downloaded, not an action; scripts run.
_FILE_NAME = lazy(r"\.(?!(php|cgi|asp|aspx|jsp|pl|do|action)$)[A-Za-z][\w]{0,4}$")
# Words that make the address a look at what would go (`/purge-preview`, `/delete/status`).
_LOOKS_ONLY = frozenset({"preview", "dry", "dryrun", "simulate", "estimate", "status", "count", "history", "docs",
                         "help", "plan", "check", "candidates"})


def _path_says_destroy(path: str, query: str) -> Optional[tuple]:
    """The destructive verb an address says in its path or its query (names and values), and whether it takes
    everything: ``(verb, wide)``, or None."""
    pieces = [piece for piece in re.split(r"[/;,]+", unquote(path)) if piece] + _query_actions(unquote(query))
    words = [p for piece in pieces if not _FILE_NAME.search(piece) for p in split_word(piece)]
    if not words or not _LOOKS_ONLY.isdisjoint(words):
        return None
    for k, w in enumerate(words):
        before = words[k - 1] if k else ""
        if w in _ADDRESS_VERBS or w in ("reset", "restore") and ("factory" in words or "defaults" in words) or \
                w == "empty" and before in ("trash", "bin", "recycle", "queue") or \
                w == "flush" and words[k + 1:k + 2] in (["all"], ["db"]):
            return ("delete" if w in ("remove", "empty", "flushall", "flushdb", "flush") else "reset" if w in
                    ("reset", "restore") else "shut down" if w in ("shutdown", "poweroff", "halt") else w), \
                bool(_ADDRESS_WIDE & set(words)) or w in ("reset", "restore")
    return None


RULES: dict = {p: [rule_http_delete] for p in ("curl", "wget", "http", "https", "xh", "xhs", "httpie", "curlie",
                                               "invoke-restmethod", "invoke-webrequest", "irm", "iwr")}
RULES["gh"] = [rule_http_delete]


def rule_rest_shell(c: Ctx) -> Optional[tuple]:
    """Proxmox's ``pvesh create|set|delete PATH``: a REST call by its verb (``create`` is a POST)."""
    operands = [t for t in c.texts if not t.startswith("-")]
    method = {"create": "POST", "set": "PUT", "delete": "DELETE"}.get(operands[0] if operands else "")
    if method is None or len(operands) < 2:
        return None
    return judge_call(c, method, operands[1], False)


RULES["pvesh"] = [rule_rest_shell]
RULES["glab"] = [rule_http_delete]
