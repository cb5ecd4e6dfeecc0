"""Effect: power over a machine or a domain handed out, in any account tool's words.

- a domain's own admin groups given a member, by any tool (``Add-ADGroupMember 'Domain Admins' eve``,
  ``net group "Domain Admins" eve /add /domain``, ``dsadd user … -memberof "CN=Domain Admins,…"``,
  ``dsmod group "CN=Enterprise Admins,…" -addmbr …``, ``Add-ADPrincipalGroupMembership -MemberOf``);
- a machine's admin group given to everyone, to all users or the guest (``net localgroup administrators
  "Authenticated Users" /add``), or to an account the same pipeline creates (``New-LocalUser 'support$'
  -NoPassword | Add-LocalGroupMember -Group Administrators``);
- full control of everything given in SetACL's words (``-ace "n:Everyone;p:full"``), GenericAll over a
  whole domain (``dsacls "DC=corp,DC=com" /G corp\\eve:GA``), a dangerous privilege given to everyone
  (``ntrights -u Everyone +r SeDebugPrivilege``), a cloud's owner role over a subscription;
- one password set on every account a listing gives (``Get-ADUser -Filter * | Set-ADAccountPassword
  -Reset``), the built-in Administrator or Guest switched on.

Groups of a project, a team or a machine's ordinary users stay quiet, as does adding a named person to a
machine's local administrators (an everyday chore).
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.rules.own_options import broad_listing
from aish.safety.rules.ps_targets import broad_get
from aish.safety.winpaths import typed_texts
from aish.safety.lazy_regex import lazy

# A domain's groups whose members administer every machine of it (or its schema, its DNS, its policies).
_DOMAIN_ADMIN_GROUPS = lazy(r"(?:^|cn=|[\\/])(domain admins|enterprise admins|schema admins|account operators|"
                            r"backup operators|server operators|dnsadmins|group policy creator owners|"
                            r"enterprise key admins|key admins|administrateurs du domaine|domänen-admins)"
                            r"(?:$|,)", re.IGNORECASE)
_LOCAL_ADMIN_GROUPS = lazy(r"^(administrators|administrateurs|administratoren|sudo|wheel|admin|"
                           r"remote desktop users|remote management users)$", re.IGNORECASE)
_EVERYONE = lazy(r"^\*?(everyone|s-1-1-0|authenticated users|nt authority\\authenticated users|s-1-5-11|"
                 r"(builtin\\)?users|domain users|[\w-]+\\domain users|(builtin\\)?guests?|anonymous( logon)?|"
                 r"nt authority\\anonymous logon|interactive|network)$", re.IGNORECASE)
_DANGEROUS_PRIVILEGES = lazy(r"^se(debug|tcb|backup|restore|takeownership|loaddriver|impersonate|"
                             r"assignprimarytoken|createtoken|security|systemenvironment|managevolume|"
                             r"relabel|trustedcredmanaccess|enabledelegation)\w*$", re.IGNORECASE)
_OWNER_ROLES = lazy(r"^(owner|user access administrator|roles/owner|roles/resourcemanager\.\w*admin|"
                    r"arn:aws:iam::aws:policy/administratoraccess|administratoraccess|global administrator|"
                    r"company administrator)$", re.IGNORECASE)
_DOMAIN_TOOLS = frozenset({"add-adgroupmember", "add-adprincipalgroupmembership", "dsmod", "dsadd", "samba-tool",
                           "new-aduser"})
_BUILT_IN = lazy(r"^(administrator|guest|krbtgt|defaultaccount)$", re.IGNORECASE)
# The words one of which a line must hold for any of this to apply.
_GATE = ("admin", "operators", "everyone", "s-1-", "users", "guest", "privilege", "owner", "password", "-ace",
         "/g", "-pwd", "active:yes", "enable-")


@triggered_by(_GATE, otherwise=False)
def may_grant(c: Ctx) -> bool:
    line = c.prog.lower() + " " + c.lowered
    return any(word in line for word in _GATE)


def _domain_group(typed: list) -> Optional[str]:
    for t in typed:
        for part in re.split(r";", t):
            m = _DOMAIN_ADMIN_GROUPS.search(part.strip())
            if m:
                return m.group(1)
    return None


def _membership(c: Ctx, typed: list, lowered: list) -> Optional[tuple]:
    name = c.prog.lower().removesuffix(".exe")
    adds = name.startswith("add-") or name in ("dsadd", "dsmod", "new-aduser") and \
        bool({"-memberof", "-addmbr"} & set(lowered)) or \
        any(t.startswith("/add") or "addmember" in t or "add-member" in t or t == "-addmbr" for t in lowered)
    if not adds or name.startswith(("get-", "remove-")) or "/delete" in lowered or "-rmmbr" in lowered:
        return None
    group = _domain_group(typed)
    if group is not None and (name not in ("dsadd", "new-aduser") or "-memberof" in lowered):
        return MEDIUM, f"{c.prog} makes an account a member of {group}: it administers the whole domain ({c.text})"
    local = next((t for t in typed if _LOCAL_ADMIN_GROUPS.match(t)), None)
    if local is None:
        return None
    if name in _DOMAIN_TOOLS or "/domain" in lowered:  # the domain's own Administrators group
        return MEDIUM, f"{c.prog} makes an account a member of the domain's {local}: it administers every " \
                       f"domain controller ({c.text})"
    everyone = next((t for t in typed if _EVERYONE.match(t) and t.lower() != local.lower()), None)
    if everyone is not None:
        return HIGH, f"{c.prog} puts {everyone} in {local}: every user of the machine administers it ({c.text})"
    created = next((f for f in c.chain if f.words and f.words[0].text.lower() in ("new-localuser", "new-aduser")), None)
    if created is not None:
        nopassword = any(w.text.lower() == "-nopassword" for w in created.words)
        return (HIGH if nopassword else MEDIUM,
                f"a new account{' with no password' if nopassword else ''} is made a member of {local} ({c.text})")
    return None


def _full_control(c: Ctx, typed: list, lowered: list) -> Optional[tuple]:
    name = c.prog.lower().removesuffix(".exe")
    if name == "setacl":
        for t in typed:
            m = re.search(r"n:([^;]+);.*\bp:([\w,]+)", t, re.IGNORECASE)
            if m and _EVERYONE.match(m.group(1).strip()) and re.search(r"full|change|write", m.group(2), re.I):
                return MEDIUM, f"SetACL gives {m.group(1)} {m.group(2)}: anyone can change what it holds ({c.text})"
    if name == "dsacls" and typed and re.match(r"(?i)^(dc=[^,]+,?)+$", typed[0]):
        k = next((i for i, t in enumerate(lowered) if t == "/g"), None)
        if k is not None and any(re.search(r":(ga|gw|wd|wo|ca)\b", t, re.I) for t in typed[k + 1:]):
            return MEDIUM, f"dsacls gives full control or write over the whole domain {typed[0]} ({c.text})"
    if name == "ntrights" and "+r" in lowered:
        who = next((typed[k + 1] for k, t in enumerate(lowered[:-1]) if t == "-u"), "")
        right = typed[lowered.index("+r") + 1] if lowered.index("+r") + 1 < len(typed) else ""
        if _DANGEROUS_PRIVILEGES.match(right):
            return (HIGH if _EVERYONE.match(who) else MEDIUM,
                    f"ntrights gives {who or 'an account'} {right}: it can take over the machine ({c.text})")
    roles = [typed[k + 1] for k, t in enumerate(lowered[:-1])
             if t in ("-roledefinitionname", "--role", "--role-name", "--policy-arn", "-role", "--roles")]
    if roles and any(_OWNER_ROLES.match(r.strip()) for r in roles) and \
            ("create" in lowered or "add-iam-policy-binding" in lowered or name.startswith(("new-", "add-")) or
             "attach-user-policy" in lowered or "attach-role-policy" in lowered):
        return MEDIUM, f"{c.prog} gives an owner's or administrator's role: it controls everything in scope " \
                       f"({c.text})"
    return None


def _passwords(c: Ctx, lowered: list) -> Optional[tuple]:
    name = c.prog.lower()
    if name in ("set-adaccountpassword", "set-localuser", "set-aduser") and \
            any(t in ("-newpassword", "-password", "-reset") for t in lowered):
        listing = broad_listing(c) or next((f.words[0].text for f in c.chain if broad_get(f.words)), "")
        if listing or "*" in lowered:
            return HIGH, f"{c.prog} sets one password on every account {listing or '*'} gives ({c.text})"
    if name in ("enable-localuser", "enable-adaccount") and any(_BUILT_IN.match(t.strip("'\"")) for t in c.texts):
        return MEDIUM, f"switches the built-in {next(t for t in c.texts if _BUILT_IN.match(t.strip(chr(39))))} " \
                       f"account on ({c.text})"
    if name in ("net", "net.exe") and lowered[:1] == ["user"] and "/active:yes" in lowered and \
            len(lowered) > 1 and _BUILT_IN.match(lowered[1]):
        return MEDIUM, f"switches the built-in {c.texts[1]} account on ({c.text})"
    return None


def rule_privilege_granted(c: Ctx) -> Optional[tuple]:
    typed = typed_texts(c.args)
    lowered = [t.lower() for t in typed]
    return _membership(c, typed, lowered) or _full_control(c, typed, lowered) or _passwords(c, lowered)
