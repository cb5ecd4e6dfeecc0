"""Effect: who may log in widened (or everyone shut out), in any account tool's words.

- Login permitted to every account of a domain (``realm permit --all``, FreeIPA's ``hbacrule-enable
  allow_all``), or denied to all of them (``realm deny --all``: nobody, the administrator included, logs in).
- The guest account switched on (``Enable-LocalUser -Name Guest``, ``sysadminctl -guestAccount on``,
  ``net user guest /active:yes``) or a guest-like account (guest, nobody, anonymous, Everyone, Domain Users)
  made a member of an administrators' group by any tool (``groupmems -g wheel -a guest``,
  ``net localgroup administrators guest /add``, ``Add-LocalGroupMember -Group Administrators -Member Guest``).
- An account given its own name as its password (``htpasswd -b -c FILE admin admin``,
  ``rabbitmqctl add_user admin admin``): the first guess of anyone who finds the login page.
- A private key's passphrase removed (``ssh-keygen -p -N '' -f KEY``, ``puttygen … --new-passphrase
  /dev/null``) and an SSH server that lets accounts with empty passwords in (``dropbear -B``).

Reading who may log in (``realm list``, ``groupmems -g wheel -l``) and a key generated without a
passphrase (``ssh-keygen -N ''`` with no ``-p``) stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

# One search of the line before any reading below.
_GATE = LazyRegex(r"guest|nobody|anonymous|everyone|domain users|authenticated users|permit|deny|allow_all|passw|"
                  r"add_user|change_password|-N\b|passphrase|dropbear", re.IGNORECASE)
_ALL = frozenset({"--all", "-a", "all"})
_GUESTS = LazyRegex(r"^(guest|nobody|anonymous|everyone|domain users|authenticated users|anonymous logon|"
                    r"\S*\\(guest|everyone|domain users))$", re.IGNORECASE)
_ADMIN_GROUPS = LazyRegex(r"^(wheel|sudo|admin|admins|administrators|root|domain admins|enterprise admins|"
                          r"schema admins|sudoers|\S*\\(administrators|domain admins))$", re.IGNORECASE)
_ADDS = LazyRegex(r"^(-a|-ag|-ga|--add|--append|/add|add|-members?|add-\w+|\S*addmember\S*|adduser)$",
                  re.IGNORECASE)
_GUEST_ON = LazyRegex(r"^(-?guestaccount|guestenabled|/active:yes)$", re.IGNORECASE)
_ON = frozenset({"on", "true", "yes", "1", "-bool", "/active:yes"})
# Programs and subcommands that set a password from the line.
_SETS_PASSWORD = LazyRegex(r"passw|add_?user|change_?password|useradd|set_?password|user-?create|"
                           r"create-?user", re.IGNORECASE)
_NO_PASSPHRASE = frozenset({"", "''", '""', "/dev/null"})


@triggered_by(_GATE, otherwise=False)
def may_open(c: Ctx) -> bool:
    """A cheap test before the readings."""
    return bool(_GATE.search(c.prog + " " + " ".join(c.texts)))


def rule_logins_opened(c: Ctx) -> Optional[tuple]:
    return _everyone(c) or _guest(c) or _own_name(c) or _unprotected(c)


def _everyone(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    words = [t.lower() for t in texts if not t.startswith("-")]
    if words[:1] in (["permit"], ["deny"]) and set(texts) & _ALL:
        if words[0] == "deny":
            return HIGH, f"{c.prog} deny --all: no account may log in, the administrators' included ({c.text})"
        return MEDIUM, f"{c.prog} permit --all: every account of the domain may log in here ({c.text})"
    if any(w.endswith("rule-enable") for w in words[:1]) and "allow_all" in words:
        return MEDIUM, f"{c.prog} enables allow_all: every user may log in to every host ({c.text})"
    return None


def _guest(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    lowered = [t.lower() for t in texts]
    name = c.prog.lower()
    guests = [t for t in texts if _GUESTS.match(t.strip("'\""))]
    if guests and ("enable" in name or "unlock" in name or "/active:yes" in lowered or
                   name in ("usermod", "passwd") and {"-u", "--unlock"} & set(lowered)):
        return HIGH, f"{c.prog} switches the guest account on: anyone may log in with no password ({c.text})"
    for k, t in enumerate(lowered):
        if _GUEST_ON.match(t) and (t == "/active:yes" or any(v in _ON for v in lowered[k + 1:k + 3])):
            return HIGH, f"{c.prog} {texts[k]} switches the guest account on: anyone may log in ({c.text})"
    admins = [t for t in texts if _ADMIN_GROUPS.match(t.strip("'\""))]
    adds = _ADDS.match(c.prog) or any(_ADDS.match(t) for t in texts)
    if guests and admins and adds:
        return HIGH, f"{c.prog} makes {guests[0]} a member of {admins[0]}: an account anyone can use gets the " \
            f"administrators' rights ({c.text})"
    return None


def _own_name(c: Ctx) -> Optional[tuple]:
    sets = _SETS_PASSWORD.search(c.prog) or any(_SETS_PASSWORD.search(t) for t in c.texts[:2])
    if not sets:
        return None
    operands = [t for t in c.texts if not t.startswith("-")]
    for user, password in zip(operands, operands[1:]):
        if user == password and re.fullmatch(r"[A-Za-z][\w.-]{1,30}", user) and not _SETS_PASSWORD.search(user):
            return MEDIUM, f"{c.prog} gives {user} its own name as its password: the first one anyone tries " \
                f"({c.text})"
    return None


def _unprotected(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    prog = c.prog.lower()
    if prog == "ssh-keygen" and "-p" in texts and "-N" in texts[:-1] and texts[texts.index("-N") + 1] in \
            _NO_PASSPHRASE:
        return MEDIUM, f"{c.prog} -p -N '' removes the key's passphrase: whoever copies the file can use it " \
            f"({c.text})"
    for k, t in enumerate(texts[:-1]):
        if t in ("--new-passphrase", "--new-password") and texts[k + 1] in _NO_PASSPHRASE:
            return MEDIUM, f"{c.prog} {t} {texts[k + 1]} leaves the key unprotected ({c.text})"
    if prog == "dropbear" and any(re.fullmatch(r"-[a-zA-Z]*B[a-zA-Z]*", t) for t in texts):
        return HIGH, f"{c.prog} -B lets accounts with an empty password log in over SSH ({c.text})"
    return None
