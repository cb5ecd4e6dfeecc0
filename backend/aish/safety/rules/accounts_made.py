"""Effect: an account made to come back by: new and given an administrator's rights on the same line, or hidden.

Making an account is everyday (``useradd -m deploy``), and so is giving a named person ``sudo`` (``usermod -aG
sudo alice``); the two together on one line, for an account that did not exist a moment before, is how an intruder
leaves a way back in, on every system in its own words:

- made: ``net user X P /add``, ``New-LocalUser X``, ``New-ADUser X``, ``useradd``/``adduser``/``luseradd X``,
  ``pw useradd X``, ``dscl . -create /Users/X``, ``sysadminctl -addUser X``;
- given rights: ``net localgroup administrators X /add``, ``Add-LocalGroupMember -Group Administrators -Member
  X``, ``usermod -aG sudo X``, ``gpasswd -a X wheel``, ``adduser X sudo``, ``dscl . -append /Groups/admin
  GroupMembership X``, ``dseditgroup -o edit -a X -t user admin``, or at once (``useradd -G wheel X``,
  ``sysadminctl -addUser X -admin``).

Medium; high when the account is also hidden.  Hidden: a Windows name ending in ``$`` (listings of users skip
it), the logon screen's ``SpecialAccounts\\UserList`` value 0, macOS' ``IsHidden 1`` or ``HiddenUsersList``:
medium alone.  Domain groups and the guest are ``privileged_grants``' and ``accounts``'.  ``assess`` calls
``line_accounts_made`` once per line.  An account's own record in the SAM hive written (``reg add
HKLM\\SAM\\SAM\\Domains\\Account\\Users\\000001F5 /v F``: RID hijacking) is high.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import HIGH, MEDIUM, fragment
from aish.safety.unwrap import unwrap

# A line must hold one of these for anything here to apply (one search of a line that names a user).
_GATE = lazy(r"(?i)useradd|adduser|net1?(\.exe)?\s+user\b|new-(local|ad)user|/users/|ishidden|hiddenuserslist|"
             r"specialaccounts|\\sam\\sam\\")
_ADMIN_GROUPS = lazy(r"(?i)^(administrators|administrateurs|administratoren|administradores|sudo|wheel|admin|root|"
                     r"remote desktop users)$")
# useradd's options that take a value (the account's name is the last word that is not one of them or its value).
_VALUED = frozenset("-c -d -e -f -g -G -k -K -p -s -u -b -R -P -Z --comment --home-dir --home --expiredate "
                    "--inactive --gid --groups --skel --key --password --shell --uid --base-dir --root --prefix "
                    "--selinux-user --ingroup --gecos --firstuid --lastuid --conf".split())
_HIDE_VALUES = lazy(r"(?i)\\winlogon\\specialaccounts\\userlist\\?$")
# An account's own record in the SAM hive (its F value holds the RID it signs in with: RID hijacking).
_SAM_RECORD = lazy(r"(?i)\\sam\\sam\\domains\\account\\users\\[0-9a-f]{8}\\?$")
_REGISTRY_WRITERS = frozenset({"reg", "set-itemproperty", "new-itemproperty", "sp"})


def _plain(texts: list) -> list:
    """The words that are not options nor an option's value."""
    out = []
    for k, t in enumerate(texts):
        if t.startswith("-") or k and texts[k - 1] in _VALUED:
            continue
        out.append(t)
    return out


def _value(texts: list, *names: str) -> str:
    """An option's value (``-Name X``, ``--groups=X``; ``-aG X``, a bundle ending in the letter, for ``-g``)."""
    wanted = {n.lower() for n in names}
    for k, t in enumerate(texts[:-1]):
        if t.lower() in wanted or "-g" in wanted and re.fullmatch(r"-[a-zA-Z]*[gG]", t):
            return texts[k + 1]
    for t in texts:
        name, eq, value = t.partition("=")
        if eq and name.lower() in wanted:
            return value
    return ""


def _made(prog: str, texts: list) -> str:
    """The name of the account this command makes ('' if it makes none)."""
    lowered = [t.lower() for t in texts]
    if prog in ("net", "net1") and lowered[:1] == ["user"] and "/add" in lowered:
        names = [t for t in texts[1:] if not t.startswith("/")]
        return names[0] if names else ""
    if prog in ("new-localuser", "new-aduser"):
        plain = [t for k, t in enumerate(texts) if not t.startswith("-") and not (k and texts[k - 1].startswith("-"))]
        return _value(texts, "-name", "-samaccountname") or (plain[0] if plain else "")
    if prog in ("useradd", "adduser", "luseradd") or prog == "pw" and lowered[:1] == ["useradd"]:
        plain = _plain(texts[1:] if prog == "pw" else texts)
        if prog == "adduser" and len(plain) == 2:
            return ""  # `adduser alice sudo`: an account put in a group
        return (plain[0] if prog in ("adduser", "pw") else plain[-1]) if plain else ""
    if prog == "dscl" and "-create" in lowered:
        path = texts[lowered.index("-create") + 1] if lowered.index("-create") + 1 < len(texts) else ""
        return path.split("/")[2] if path.lower().startswith("/users/") and path.count("/") == 2 else ""
    if prog == "sysadminctl" and "-adduser" in lowered:
        return _value(texts, "-adduser")
    return ""


def _granted(prog: str, texts: list) -> list:
    """(account, admin group) pairs this command grants."""
    lowered = [t.lower() for t in texts]
    if prog in ("net", "net1") and lowered[:1] == ["localgroup"] and "/add" in lowered and len(texts) > 2:
        return [(t, texts[1]) for t in texts[2:] if not t.startswith("/")]
    if prog == "add-localgroupmember":
        plain = [t for k, t in enumerate(texts) if not t.startswith("-") and not (k and texts[k - 1].startswith("-"))]
        group = _value(texts, "-group", "-name") or (plain[0] if plain else "")
        members = _value(texts, "-member") or (plain[1] if len(plain) > 1 else "")
        return [(m.strip("'\" "), group) for m in members.split(",")]
    groups = _value(texts, "-g", "--groups", "--gid") if prog in ("usermod", "useradd", "luseradd", "pw") else ""
    if groups and prog == "pw":  # FreeBSD: pw useradd NAME -G wheel
        return [(texts[1], g) for g in groups.split(",")] if lowered[:1] in (["useradd"], ["usermod"]) else []
    if groups:
        plain = _plain(texts)
        return [(plain[-1], g) for g in groups.split(",")] if plain else []
    if prog == "gpasswd" and "-a" in texts and len(texts) > texts.index("-a") + 2:
        return [(texts[texts.index("-a") + 1], texts[-1])]
    if prog in ("adduser", "addgroup") and len(_plain(texts)) == 2:
        return [tuple(_plain(texts))]
    if prog == "dscl" and ("-append" in lowered or "-merge" in lowered) and "groupmembership" in lowered:
        at = lowered.index("groupmembership")
        return [(m, texts[at - 1].rsplit("/", 1)[-1]) for m in texts[at + 1:]]
    if prog == "dseditgroup" and "-a" in texts:
        return [(texts[texts.index("-a") + 1], _plain(texts)[-1])] if texts.index("-a") + 1 < len(texts) else []
    if prog == "sysadminctl" and "-adduser" in lowered and "-admin" in lowered:
        return [(_value(texts, "-adduser"), "admin")]
    return []


def _hidden(prog: str, texts: list, made: str) -> tuple:
    """(the account, what hides it) in this command (('', '') if nothing does)."""
    lowered = [t.lower() for t in texts]
    if made.endswith("$") and len(made) > 1:
        return made, f"{made} ends in $: listings of users leave it out"
    if prog == "dscl" and "ishidden" in lowered and lowered[-1:] in (["1"], ["yes"], ["true"]):
        return made or texts[lowered.index("ishidden") - 1].rsplit("/", 1)[-1], \
            "IsHidden 1 keeps it off the login window"
    if prog == "defaults" and "hiddenuserslist" in lowered and "-array-add" in lowered:
        return texts[-1], "HiddenUsersList keeps it off the login window"
    if prog in ("reg", "set-itemproperty", "new-itemproperty", "sp") and any(_HIDE_VALUES.search(t) for t in texts):
        value = _value(texts, "/d", "-value") or (lowered[-1] if prog != "reg" else "")
        if value.strip("'\"") in ("0", "0x0", "0x00000000"):
            return _value(texts, "/v", "-name"), "SpecialAccounts\\UserList 0 keeps it off the logon screen"
    return "", ""


def line_accounts_made(text: str, segs: list) -> Optional[tuple]:
    """An account made and given an administrator's rights on the same line, or hidden (see the module's doc)."""
    if not _GATE.search(text):  # (assess asks only for lines naming a user: `useradd`, `/Users/`, `HiddenUsersList`)
        return None
    made: dict = {}
    hidden: dict = {}
    best: Optional[tuple] = None
    for seg in segs:
        words = unwrap(seg.words)[0]
        if not words:
            continue
        prog = words[0].text.lower().rsplit("\\", 1)[-1].removesuffix(".exe")
        texts = [w.text for w in words[1:]]
        name = _made(prog, texts)
        if name:
            made[name.lower()] = name
        if prog in _REGISTRY_WRITERS and (prog != "reg" or texts[:1] in (["add"], ["ADD"])) and \
                any(_SAM_RECORD.search(t.replace("/", "\\")) for t in (w.raw.strip("'\"") for w in words[1:])):
            return HIGH, "writes an account's own record in the SAM: it can sign in with another's rights, the " \
                         f"administrator's (RID hijacking) ({fragment([w.raw for w in words])})"
        who, why = _hidden(prog, texts, name)
        if why:
            hidden[who.lower()] = why
            best = best or (MEDIUM, f"hides an account: {why} ({fragment([w.raw for w in words])})")
        for user, group in _granted(prog, texts):
            key = user.strip("'\"").lower()
            if key in made and _ADMIN_GROUPS.match(group.strip("'\" ")):
                secret = " and hides it" if hidden.get(key) else ""
                return (HIGH if secret else MEDIUM,
                        f"makes the new account {made[key]} a member of {group.strip()}{secret}: whoever holds its "
                        f"password is an administrator ({fragment([w.raw for w in words])})")
    return best
