"""Effect: an account's login shell taken away (``nologin``, ``false``) by the tools of other systems.

``lockout`` reads ``usermod -s`` and ``chsh -s``; the same change is made by FreeBSD's ``pw usermod NAME -s``,
the BSDs' ``chpass -s``, macOS' ``dscl . -create|-change /Users/NAME UserShell …``, libuser's ``lchsh`` fed
the shell, and FreeIPA's ``ipa user-mod NAME --shell=…``.  Root's account is high (nobody can log in to
repair it); a service account given ``nologin`` is what the benchmarks ask for and stays quiet.

Any other program that changes or overrides an account (a verb or name with mod, update, override, edit, set or
change: ``sss_override user-add alice -s /bin/false``, ``smbldap-usermod -s /bin/false bob``, ``lusermod``,
``homectl update alice --shell=/sbin/nologin``, ``cpu usermod``) is read the same way: its shell option's value
and the account it names.  Creating an account with nologin (``useradd -s /sbin/nologin svc``) stays quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.baseline_switches import SYSTEM_ACCOUNTS
from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.rules.fed import fed_text
from aish.safety.lazy_regex import lazy

_NO_SHELL = lazy(r"(^|/)(nologin|false|true)$")


def _shell_and_user(c: Ctx) -> tuple:
    """(the shell set, the account), "" for either when the line does not set one."""
    texts = c.texts
    if c.prog == "pw" and texts[:1] in (["usermod"], ["usermod"]):
        shell = next((texts[k + 1] for k, t in enumerate(texts[:-1]) if t == "-s"), "")
        user = next((t for t in texts[1:2] if not t.startswith("-")), "") or \
            next((texts[k + 1] for k, t in enumerate(texts[:-1]) if t == "-n"), "")
        return shell, user
    if c.prog == "chpass":
        shell = next((texts[k + 1] for k, t in enumerate(texts[:-1]) if t == "-s"), "")
        rest = [t for k, t in enumerate(texts)
                if not t.startswith("-") and (k == 0 or not texts[k - 1].startswith("-"))]
        return shell, rest[-1] if rest else "$USER"
    if c.prog == "dscl" and any(t in ("-create", "-change", "-merge") for t in texts) and "UserShell" in texts:
        k = texts.index("UserShell")
        user = next((t.rsplit("/", 1)[-1] for t in texts if t.startswith("/Users/")), "")
        return (texts[-1] if len(texts) > k + 1 else ""), user
    if c.prog == "lchsh":
        users = [t for t in texts if not t.startswith("-")]
        return fed_text(c).strip().splitlines()[0] if fed_text(c).strip() else "", users[-1] if users else "$USER"
    if c.prog == "ipa" and texts[:1] == ["user-mod"]:
        shell = next((t.split("=", 1)[1] for t in texts if t.startswith("--shell=")), "") or \
            next((texts[k + 1] for k, t in enumerate(texts[:-1]) if t == "--shell"), "")
        return shell, next((t for t in texts[1:] if not t.startswith("-")), "")
    return "", ""


_SHELL_OPTIONS = frozenset({"-s", "--shell", "--login-shell", "-shell", "--loginshell", "-loginshell"})
_CHANGES = lazy(r"mod|update|override|edit|set|change", re.IGNORECASE)


@triggered_by(("nologin", "false"), otherwise=False)
def may_take_shell(c: Ctx) -> bool:
    """Cheap: a shell that runs nothing on a line whose program is not one of RULES."""
    return ("nologin" in c.lowered or "false" in c.lowered) and c.prog not in RULES


def _any_tool(c: Ctx) -> tuple:
    """(shell, account) from any account tool that changes or overrides one; ("", "") otherwise."""
    texts = c.texts
    if not (_CHANGES.search(c.prog) or any(_CHANGES.search(t) for t in texts[:2] if not t.startswith("-"))):
        return "", ""
    shell, skip = "", set()
    for k, t in enumerate(texts):
        name, eq, value = t.partition("=")
        if name.lower() in _SHELL_OPTIONS and eq:
            shell = value
        elif t.lower() in _SHELL_OPTIONS and k + 1 < len(texts):
            shell, skip = texts[k + 1], {k + 1}
    if not shell:
        return "", ""
    words = [t for k, t in enumerate(texts) if k not in skip and not t.startswith("-") and "=" not in t and
             not _CHANGES.search(t) and not (k and texts[k - 1].startswith("-") and texts[k - 1] not in _SHELL_OPTIONS
                                             and k - 1 not in skip and "=" not in texts[k - 1])]
    return shell, words[-1] if words else ""


def rule_login_shell_taken(c: Ctx) -> Optional[tuple]:
    shell, user = _shell_and_user(c) if c.prog in RULES else _any_tool(c)
    if not shell or not _NO_SHELL.search(shell.strip("'\"")) or SYSTEM_ACCOUNTS.match(user):
        return None
    root = user in ("root", "toor", "admin", "administrator", "$USER", "$(whoami)", "`whoami`", "$LOGNAME")
    return (HIGH if root else MEDIUM), f"takes the login shell away from {user or 'the account'} ({c.text})"


RULES: dict = {name: [rule_login_shell_taken] for name in ("pw", "chpass", "dscl", "lchsh", "ipa")}
