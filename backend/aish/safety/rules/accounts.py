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

_ADMIN = re.compile(r"^(root|admin|administrator|toor|\$USER|\$\{USER\}|\$LOGNAME)$", re.IGNORECASE)
_EMPTY = ("", "''", '""')


def _value(texts: list, *names: str) -> Optional[str]:
    for k, t in enumerate(texts):
        for name in names:
            if t == name and k + 1 < len(texts):
                return texts[k + 1]
            if name.startswith("--") and t.startswith(name + "="):
                return t.split("=", 1)[1]
    return None


def _who(texts: list) -> str:
    operands = [t for k, t in enumerate(texts) if not t.startswith("-") and not (k and texts[k - 1].startswith("-"))]
    return operands[-1] if operands else "a user"


def rule_account_opened(c: Ctx) -> Optional[tuple]:
    p, texts = c.prog.lower(), c.texts
    if p in ("usermod", "useradd", "adduser", "luseradd", "lusermod"):
        uid = _value(texts, "-u", "--uid")
        if uid is not None and re.fullmatch(r"0+", uid):
            return HIGH, f"gives an account user id 0: a second root ({c.text})"
        password = _value(texts, "-p", "--password")
        if password is not None and password in _EMPTY:
            who = _who(texts)
            return (HIGH if _ADMIN.match(who) else MEDIUM), f"empties the password of {who}: anyone logs in ({c.text})"
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
    return None


RULES = {p: [rule_account_opened] for p in ("usermod", "useradd", "adduser", "luseradd", "lusermod", "chpasswd",
                                            "chgpasswd", "pw", "dscl", "net", "net.exe")}
