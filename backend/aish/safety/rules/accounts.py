"""Effect: an account opened to anyone.  An empty password (``usermod -p ''``, ``pw usermod -w
none``, ``dscl . -passwd /Users/x ''``, ``net user x ""``, ``root:`` fed to ``chpasswd``), root's
password set to a literal everyone can read on the line (``echo root:toor | chpasswd``), a second
account with user id 0 (``useradd -o -u 0``), or the guest account switched on.  ``lockout``
judges the opposite (accounts locked or deleted); provisioning a user with a hash stays quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.meaning import content_of
from aish.safety.lazy_regex import lazy

_ADMIN = lazy(r"^(root|admin|administrator|toor|\$USER|\$\{USER\}|\$LOGNAME)$", re.IGNORECASE)
_EMPTY = ("", "''", '""')
# Groups whose members are root in all but name.
_ADMIN_GROUPS = lazy(r"^(sudo|wheel|admin|root|docker|lxd|disk|shadow|administrators|domain admins)$",
                     re.IGNORECASE)
# Accounts services run as, and the guest: whoever breaks into the service or walks up would be root.
_SERVICE_ACCOUNT = lazy(r"^(nobody|nfsnobody|www-data|www|_www|apache|nginx|http|httpd|daemon|bin|sys|games|"
                        r"mail|news|uucp|proxy|backup|list|irc|gnats|ftp|mysql|postgres|redis|mongodb|guest|"
                        r"tomcat\d*|jenkins|git|svn|nagios|zabbix|systemd-[\w-]+|_[a-z]+|defaultaccount)$",
                        re.IGNORECASE)


def _admin_to_service(c: Ctx) -> Optional[tuple]:
    """An admin group given to a service account or the guest (``usermod -aG sudo www-data``)."""
    p, texts = c.prog.lower(), c.texts
    pairs: list = []
    operands = [t for k, t in enumerate(texts) if not t.startswith(("-", "/")) and not (
        k and re.fullmatch(r"-[a-zA-Z]*[GgatoM]|--groups|--members", texts[k - 1]))]
    if p in ("usermod", "useradd", "adduser") and operands:
        groups = _value(texts, "-G", "--groups") or ""
        pairs += [(operands[-1], g) for g in groups.split(",")]
    if p in ("adduser", "addgroup") and len(operands) == 2:
        pairs.append((operands[0], operands[1]))
    if p == "gpasswd":
        member, group = _value(texts, "-a", "--add"), operands[-1] if operands else ""
        pairs += [(member, group)] if member else [(m, group) for m in (_value(texts, "-M") or "").split(",")]
    if p == "dseditgroup" and "-a" in texts:
        pairs.append((_value(texts, "-a") or "", operands[-1] if operands else ""))
    if p == "pw" and texts[:1] == ["groupmod"] and len(texts) >= 2:  # FreeBSD: pw groupmod wheel -m www
        pairs += [(m, texts[1]) for m in (_value(texts, "-m", "-M") or "").split(",")]
    if p == "lgroupmod" and operands:  # libuser: lgroupmod -M intern wheel
        pairs += [(m, operands[-1]) for m in (_value(texts, "-M", "--member-add") or "").split(",")]
    if p == "dscl" and len(texts) >= 5 and texts[1] in ("-append", "-merge") and texts[3] == "GroupMembership":
        pairs += [(m, texts[2].rsplit("/", 1)[-1]) for m in texts[4:]]  # dscl . -append /Groups/admin …
    if p in ("net", "net.exe") and [t.lower() for t in texts[:1]] == ["localgroup"] and len(texts) >= 3:
        pairs.append((texts[2], texts[1]))
    if p == "add-localgroupmember":
        pairs.append((_value(texts, "-Member") or "", _value(texts, "-Group") or ""))
    for user, group in pairs:
        if user and _ADMIN_GROUPS.match(group.strip()) and _SERVICE_ACCOUNT.match(user.strip()):
            return HIGH, f"puts {user} in the {group} group: whoever runs as it is root ({c.text})"
    return None


def _value(texts: list, *names: str) -> Optional[str]:
    """The value of an option, also last in a bundle of letters (``-ou 0``, ``-aG sudo``)."""
    for k, t in enumerate(texts):
        for name in names:
            bundled = len(name) == 2 and re.fullmatch(rf"-[a-zA-Z]+{name[1]}", t)
            if (t == name or bundled) and k + 1 < len(texts):
                return texts[k + 1]
            if name.startswith("--") and t.startswith(name + "="):
                return t.split("=", 1)[1]
    return None


def _who(texts: list) -> str:
    operands = [t for k, t in enumerate(texts) if not t.startswith("-") and not (k and texts[k - 1].startswith("-"))]
    return operands[-1] if operands else "a user"


def rule_account_opened(c: Ctx) -> Optional[tuple]:
    p, texts = c.prog.lower(), c.texts
    found = _admin_to_service(c)
    if found is not None:
        return found
    if p in ("usermod", "useradd", "adduser", "luseradd", "lusermod"):
        uid = _value(texts, "-u", "--uid")
        if uid is not None and re.fullmatch(r"0+", uid):
            return HIGH, f"gives an account user id 0: a second root ({c.text})"
        password = _value(texts, "-p", "--password")
        if password is not None and password in _EMPTY:
            who = _who(texts)
            return (HIGH if _ADMIN.match(who) else MEDIUM), f"empties the password of {who}: anyone logs in ({c.text})"
        if password is not None and re.search(r"openssl\s+passwd\b.*\s[^\s$)-][^\s)]*\)?$", password) and \
                _ADMIN.match(_who(texts)):
            return HIGH, f"sets root's password to one written on the line ({c.text})"  # -p "$(openssl passwd toor)"
        return None
    if p == "passwd":
        fed = content_of(c.seg, c.chain).strip()
        who = _who(texts)
        if fed and (any(t in ("--stdin",) for t in texts) or c.chain or c.seg.redirects):
            return (HIGH if _ADMIN.match(who) or who == "a user" else MEDIUM), \
                f"sets the password of {who if who != 'a user' else 'the current user'} to one written on the line " \
                f"({c.text})"
        return None
    if p in ("chpasswd", "chgpasswd"):
        for line in content_of(c.seg, c.chain).splitlines()[:200]:
            user, colon, password = line.strip().strip("'\"").partition(":")
            if colon and (not password or _ADMIN.match(user)):
                what = "empties" if not password else "sets to a password written on the line"
                return HIGH, f"{what} the password of {user} ({c.text})"
        return None
    if p == "pw" and texts[:1] in (["usermod"], ["useradd"]):
        if _value(texts, "-w") == "none":
            who = texts[1] if len(texts) > 1 else "a user"
            return (HIGH if _ADMIN.match(who) else MEDIUM), f"empties the password of {who} ({c.text})"
        if _value(texts, "-u") == "0":
            return HIGH, f"gives an account user id 0: a second root ({c.text})"
        return None
    if p == "dscl":
        joined = " ".join(texts)
        m = re.search(r"-passwd\s+/Users/(\S+)(\s+(\S*))?$", joined)
        if m and (m.group(3) or "") in _EMPTY:
            who = m.group(1)
            return (HIGH if _ADMIN.match(who) else MEDIUM), f"empties the password of {who} ({c.text})"
        if re.search(r"-(create|append)\s+/Users/\S+\s+UniqueID\s+0\b", joined):
            return HIGH, f"gives an account user id 0: a second root ({c.text})"
        return None
    if p in ("net", "net.exe") and [t.lower() for t in texts[:1]] == ["user"] and len(texts) >= 2:
        lowered = [t.lower() for t in texts]
        if "/active:yes" in lowered and lowered[1] == "guest":
            return MEDIUM, f"switches the guest account on ({c.text})"
        if len(texts) >= 3 and texts[2] in _EMPTY and not texts[2].startswith("/"):
            who = texts[1]
            return (HIGH if _ADMIN.match(who) else MEDIUM), f"empties the password of {who} ({c.text})"
        if len(texts) >= 3 and _ADMIN.match(texts[1]) and not texts[2].startswith("/") and texts[2] != "*":
            return HIGH, f"sets the password of {texts[1]} to one written on the line ({c.text})"
    return None


RULES = {p: [rule_account_opened] for p in ("usermod", "useradd", "adduser", "luseradd", "lusermod", "chpasswd",
                                            "chgpasswd", "pw", "dscl", "net", "net.exe", "gpasswd", "addgroup",
                                            "dseditgroup", "add-localgroupmember", "passwd", "lgroupmod")}
