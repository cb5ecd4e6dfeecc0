"""Effect: full control (or write) granted to everyone, in any ACL tool's words.

Every ACL tool names its trustee and its rights its own way; the grant is the same: Everyone
(``S-1-1-0``), Authenticated Users, all local or domain users, guests, anonymous callers, NFSv4's
``EVERYONE@`` or POSIX's "other" given full control, modify or write (``icacls … /grant
Everyone:F``, ``*S-1-1-0:(OI)(CI)F``, ``cacls … /G Everyone:F``, ``subinacl … /grant=Everyone=F``,
``dsacls OBJ /G "Domain Users:GA"``, ``smbcacls … -a "ACL:Everyone:ALLOWED/OI|CI/FULL"``,
``Add-NTFSAccess -Account Everyone -AccessRights FullControl``, ``Grant-SmbShareAccess -AccountName
Everyone -AccessRight Full``, ``nfs4_setfacl -a A::EVERYONE@:rwaD…``, ``chmod +a "everyone allow
write…"``, a ``FileSystemAccessRule('Everyone','FullControl',…)``), and ``setfacl -m o::rwx`` or
``chacl …,o::rwx`` on system directories or home.  Read rights, named users, removals and listings
stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import MEDIUM, Ctx, target

_EVERYONE = lazy(r"^\*?(everyone|s-1-1-0|authenticated\s+users|s-1-5-11|(builtin\\)?users|s-1-5-32-545|"
                 r"domain\s+users|(builtin\\)?guests?|s-1-5-32-546|anonymous(\s+logon)?|s-1-5-7|everyone@|world|"
                 r"nt\s+authority\\(authenticated\s+users|anonymous\s+logon)|[\w-]+\\domain\s+users|"
                 r"tout\s+le\s+monde|jeder)$", re.IGNORECASE)
# Rights that let the trustee change or take over what they are given.
_WRITE_RIGHTS = frozenset("f m w c ga gw wd wo ca full change write modify fullcontrol generic_all generic_write "
                          "0x1f01ff 0x001f01ff 0x1301bf 0x001301bf 0x3 rwxd rwxdpo".split())
# Everyone with no rights left is `Everyone:(F)` to a shell that took the parentheses for a subshell.
_EVERYONE_ITSELF = frozenset({"everyone", "*s-1-1-0", "s-1-1-0"})
_INHERIT = lazy(r"\((oi|ci|io|np|i)\)", re.IGNORECASE)
_ACL_TOOLS = frozenset({"icacls", "cacls", "xcacls", "subinacl", "dsacls", "smbcacls", "add-ntfsaccess",
                        "grant-smbshareaccess", "nfs4_setfacl", "setfacl", "chacl", "chmod", "new-object",
                        "set-acl", "icacls.exe", "cacls.exe", "xcacls.exe", "dsacls.exe", "subinacl.exe"})


def _rights(text: str) -> set:
    text = text.lower()
    rights = {r for r in re.split(r"[,()/|+;\s]+", _INHERIT.sub(" ", text)) if r}
    return rights | {"ca"} if "replicating directory changes" in text else rights  # DCSync


def rule_everyone_granted(c: Ctx) -> Optional[tuple]:
    """Full control or write granted to everyone, however the tool spells trustee and rights."""
    name = c.prog.lower()
    if "," in name:
        return rule_access_rule_arguments(c)
    texts = c.texts
    lowered = [t.lower() for t in texts]
    if name in ("icacls", "icacls.exe", "cacls", "cacls.exe", "xcacls", "xcacls.exe", "dsacls", "dsacls.exe"):
        # `C:\ /G` is one word to the shell (an escaped space); rights in bare parentheses are cut off by it
        # (`Everyone:(OI)(CI)F` reads `Everyone:`), and an empty right is no valid grant of anything less.
        k = next((i for i, t in enumerate(lowered) if t.endswith((" /grant", " /grant:r", " /g")) or
                  t in ("/grant", "/grant:r", "/g")), None)
        found = next((t.split(":")[0] for t in texts[k + 1:] if ":" in t and _EVERYONE.match(t.split(":")[0]) and
                      (_rights(t.split(":", 1)[1]) & _WRITE_RIGHTS or
                       not t.split(":", 1)[1] and t.split(":")[0].lower() in _EVERYONE_ITSELF)),
                     None) if k is not None else None
    elif name in ("subinacl", "subinacl.exe"):
        found = next((t.split("=")[1] for t in lowered if t.startswith("/grant=") and t.count("=") >= 2 and
                      _EVERYONE.match(t.split("=")[1]) and _rights(t.split("=")[2]) & _WRITE_RIGHTS), None)
    elif name == "smbcacls":
        found = next((m.group(1) for t in texts for m in [re.search(r"ACL:([^:]+):ALLOWED/[^/]*/(\S+)", t, re.I)]
                      if m and _EVERYONE.match(m.group(1)) and _rights(m.group(2)) & _WRITE_RIGHTS), None)
    elif name.startswith(_PERMISSION_VERBS):  # Add-NTFSAccess, Grant-SmbShareAccess, Add-MailboxPermission…
        who = _value(lowered, _TRUSTEE_PARAMETERS)
        rights = _value(lowered, ("-accessrights", "-accessright", "-rights", "-permission", "-permissions"))
        found = who if who and _EVERYONE.match(who) and _rights(rights) & (_WRITE_RIGHTS | _MAILBOX_RIGHTS) else None
    elif name == "nfs4_setfacl":
        found = next((t for t in texts if re.match(r"A:[^:]*:EVERYONE@:\w*[wa]", t, re.I)), None)
    elif name == "chmod":
        found = next((t for t in texts if re.match(r"everyone\s+allow\b.*\b(write|delete|add_file|add_subdirectory|"
                                                   r"writeattr|chown|writesecurity)", t, re.I)), None)
    elif name in ("setfacl", "chacl"):
        return _posix_other(c)
    else:
        joined = " ".join(texts)
        found = None
        if re.search(r"(FileSystem|ActiveDirectory|Registry)AccessRule", joined, re.I):
            m = re.search(r"['\"]([^'\"]+)['\"]\s*,\s*['\"]?(FullControl|Modify|Write|GenericAll|GenericWrite)", joined,
                          re.I)
            found = m.group(1) if m and _EVERYONE.match(m.group(1)) else None
    if not found:
        return None
    return MEDIUM, f"{c.prog} gives {found} full control or write: anyone can change or replace what it holds " \
        f"({c.text})"


_PERMISSION_VERBS = ("add-", "grant-", "set-")
_TRUSTEE_PARAMETERS = ("-account", "-accountname", "-user", "-trustee", "-principal", "-identityreference")
_MAILBOX_RIGHTS = frozenset({"fullaccess", "owner", "editor", "publishingeditor", "sendas", "changepermission",
                             "changeowner", "deleteitem"})


def _value(lowered: list, names: tuple) -> str:
    for k, t in enumerate(lowered[:-1]):
        if t in names:
            return lowered[k + 1].strip("'\"")
    return ""


_OTHER_WRITE = lazy(r"(^|,|d:|default:)((o|other)::?|(g|group):(users|everyone|domain users):)[r-]?w")


def _posix_other(c: Ctx) -> Optional[tuple]:
    """``setfacl -m o::rwx /etc``, ``chacl u::rwx,g::rwx,o::rwx /etc/sudoers.d``: others may write there."""
    spec = next((t for t in c.texts if _OTHER_WRITE.search(t.lower())), None)
    if spec is None:
        return None
    for w in c.args:
        if w.text.startswith("-") or w.text == spec:
            continue
        kind = target(w).kind
        if kind in ("critical", "system", "system-top", "root", "home", "dot-critical") or \
                w.text.startswith(("/usr/", "/opt/", "/var/", "/srv/")):
            return MEDIUM, f"{c.prog} lets every user write to {w.text}: anyone can change what it holds ({c.text})"
    return None


# An access rule's arguments as a shell reads `FileSystemAccessRule("Everyone","FullControl",…)`: its parentheses
# make them a command of their own, `Everyone,FullControl,…`.
_RULE_ARGUMENTS = lazy(r"^(everyone|\*?s-1-1-0|authenticated users|(builtin\\)?users|domain users),"
                       r"(fullcontrol|modify|write|genericall|genericwrite)\b", re.IGNORECASE)


def rule_access_rule_arguments(c: Ctx) -> Optional[tuple]:
    """``New-Object …FileSystemAccessRule("Everyone","FullControl",…)``, as the shell splits it."""
    if _RULE_ARGUMENTS.match(c.prog):
        who, rights = c.prog.split(",")[:2]
        return MEDIUM, f"an access rule gives {who} {rights}: anyone can change or replace what it holds ({c.text})"
    return None


def may_grant(c: Ctx) -> bool:
    """An ACL tool, or what may be an access rule's arguments (`Everyone,FullControl,…`)."""
    name = c.prog.lower()
    return name in _ACL_TOOLS or "," in name or name.startswith(_PERMISSION_VERBS) and "-" in c.lowered
