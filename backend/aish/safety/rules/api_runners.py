"""Effect: destroying API calls made by programs that run requests written elsewhere, or by PowerShell's
REST cmdlets of any module.

- API collection runners (Bruno's ``bru run``, Postman's ``newman run``, ``httpyac send``, ``hurl``, ``k6
  run``, ``venom``, ``runn``, ``stepci``, Insomnia's ``inso run``, ``dredd``...) send whatever the named
  request, folder or file holds; what they are about to do is said only by its name.  A name that says
  delete, purge, drop, wipe, truncate or reset (``purge-all-users.bru``, ``--folder "Delete all orders"``,
  ``./admin/purge-tenants.http``) is medium, high when the name says all or the environment is production.
- PowerShell's REST cmdlets of every module (``Invoke-AzRestMethod -Path``, ``Invoke-PnPSPRestMethod
  -Url``, ``Invoke-MgGraphRequest -Uri`` with a relative path, ``Invoke-WebRequest``) told ``-Method
  DELETE``: judged by what the path names, as ``curl -X DELETE`` is, and at least medium whatever the
  path looks like.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.http import judge_call
from aish.safety.verb_words import split_word
from aish.safety.verbs import DELETE, HEAVY, RESET
from aish.safety.lazy_regex import lazy

RUNNERS = frozenset({"bru", "newman", "httpyac", "hurl", "k6", "venom", "runn", "stepci", "step-ci", "inso",
                     "postman", "apidog", "dredd", "tavern-ci", "artillery", "restish", "hitman", "ijhttp",
                     "kulala", "posting", "api-runner", "schemathesis", "portman", "karate"})
# options whose value names the requests run: a folder, a request, a file or a test
_NAMED_BY = {"--folder", "--request", "-r", "--name", "--test", "--tests", "--item", "--filter", "--include",
             "-i", "--grep"}
_ENV_OPTIONS = {"--env", "-e", "--environment", "--var", "--variable", "-v", "--env-var", "--stage"}
_VERBS = (HEAVY | DELETE | RESET) - {"rm", "rb", "rmi", "rmr", "gc", "empty", "forget", "expire", "undo", "revert",
                                     "rollback", "downgrade", "reinstall", "discard"}
_EVERY = frozenset({"all", "every", "everything", "tenants", "users", "accounts", "customers", "orders", "tables"})
_PROD = lazy(r"(^|[^a-z])(prod|production|prd|live)([^a-z]|$)", re.IGNORECASE)
_REST_CMDLET = lazy(r"^invoke-\w*?(rest|graph|web|sp)?(method|request)$")
_PATH_OPTIONS = ("-uri", "-url", "-path", "-resource", "-resourceurl", "-endpoint")


def may_call(c: Ctx) -> bool:
    prog = c.prog.lower()
    return prog in RUNNERS or prog.startswith("invoke-")


def rule_api_call_run(c: Ctx) -> Optional[tuple]:
    prog = c.prog.lower()
    if prog in RUNNERS:
        return _collection_run(c)
    if _REST_CMDLET.match(prog):
        return _rest_cmdlet(c)
    return None


def _collection_run(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    named, env = [], []
    for k, t in enumerate(texts):
        before = texts[k - 1] if k else ""
        if before in _NAMED_BY:
            named.append(t)
        elif before in _ENV_OPTIONS or t.startswith(("--env=", "--environment=")):
            env.append(t)
        elif not t.startswith("-") and before not in _ENV_OPTIONS:
            named.append(t.rstrip("/").rsplit("/", 2)[-1] if "://" not in t else t.rsplit("/", 1)[-1])
    for name in named:
        words = split_word(re.sub(r"\s+", "-", name))
        verb = next((w for w in words if w in _VERBS), None)
        if verb is None or "no" in words or "dry" in words:
            continue
        every = bool(set(words) & _EVERY)
        prod = any(_PROD.search(e) for e in env) or any(_PROD.search(t) for t in texts if "=" in t)
        level = HIGH if every or prod else MEDIUM
        where = " against production" if prod else ""
        return level, f"{c.prog} runs requests named for '{verb}' ({name}){where}: what they call is gone ({c.text})"
    return None


def _rest_cmdlet(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    lowered = [t.lower() for t in texts]
    method, path, data = "", "", False
    for k, t in enumerate(lowered):
        value = texts[k + 1] if k + 1 < len(texts) else ""
        if t in ("-method", "-httpmethod"):
            method = value.upper()
        elif t.startswith(("-method:", "-httpmethod:")):
            method = texts[k].split(":", 1)[1].upper()
        elif t in _PATH_OPTIONS and not path:
            path = value
        elif t in ("-body", "-payload", "-content"):
            data = True
        elif not path and (t.startswith(("http://", "https://", "/")) or re.match(r"^v\d(\.\d)?/", t)):
            path = texts[k]
    if method != "DELETE":
        return None
    found = judge_call(c, method, path, data)
    if found is not None and found[0] >= MEDIUM:
        return found
    return MEDIUM, f"{c.prog} makes an HTTP DELETE of {path or 'what it names'}: it is gone ({c.text})"
