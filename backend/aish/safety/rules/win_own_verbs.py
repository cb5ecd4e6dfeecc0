"""Effect: Windows' own verbs that take something away, beyond Remove/Clear/Stop/Disable, for any noun or tool.

PowerShell's approved verbs say what a cmdlet of any module does; these take access, sessions, state or
data away when their target and scope say so:

- ``Block-<Noun>`` denies access or stops policies flowing (``Block-SmbShareAccess … -AccountName Everyone``,
  ``Block-GPInheritance -Target OU=…``);
- ``Close-<Noun>`` given ``-Force`` with no one session or file named, or ``*`` (``Close-SmbSession -Force``,
  ``Close-SmbOpenFile -SessionId * -Force``): every user's open work is cut; one named session stays quiet;
- a drain, move or seize forced (``Suspend-ClusterNode -Drain -ForceDrain``, ``Move-…OperationMasterRole
  -Force``, ``Move-ClusterGroup -IgnoreLocked``, ``Move-ActiveMailboxDatabase -SkipAllChecks``); without
  force the roles move gracefully and it stays quiet;
- an expiry set to now (``Set-ADAccountExpiration -DateTime (Get-Date)``, ``-AccountExpirationDate``): the
  account stops working at once;
- ``Unblock-File`` over a folder or a listing: the mark that downloads came from the internet is lifted
  from every file (one named file stays quiet);
- ``Clear-ItemProperty``/``Remove-ItemProperty`` of the stored Path or a system key's value;
- a mailbox, certificate, machine or policy exported to a network share (``New-MailboxExportRequest
  -FilePath \\\\10.1.1.5\\s\\x.pst``, ``Export-PfxCertificate -FilePath \\\\host\\…``).

Windows' tools name the action in a switch (``win_switch_verbs`` reads the vocabulary's verbs); these say
"leave", "disconnect" or "uninstall the key" in words of their own: ``dsregcmd /leave``, ``ksetup
/removerealm``, ``openfiles /disconnect /a *``, ``slmgr /upk``, ``chglogon /disable``, a whole device class
disabled (``devcon disable =net``, ``pnputil /disable-device /class Net``), and time taken from a bare
address (``w32tm /config /manualpeerlist:203.0.113.5 /update``).  Queries (``/query``, ``/status``,
``/dli``) stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.any_case import AnyWord
from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

_PS_VERBS = ("block-", "close-", "suspen", "move-", "set-", "unbloc", "clear-", "remove", "new-",
             "export", "backup")
_FORCED = frozenset({"-force", "-forcedrain", "-ignorelocked", "-skipallchecks", "-skiphealthchecks",
                     "-skiplagchecks", "-seize"})
_NAMED = frozenset({"-sessionid", "-fileid", "-clientusername", "-clientcomputername", "-scopename", "-name",
                    "-identity", "-id", "-path"})
_QUIET_MOVES = frozenset({"item", "itemproperty", "file", "directory", "netadaptersetting"})
_EXPIRY_OPTIONS = frozenset({"-datetime", "-accountexpirationdate", "-accountexpires", "-expirationdate",
                             "-expirydate", "-expirationtime", "-enddate"})
_NOW = LazyRegex(r"(?i)get-date|\[datetime\]::(now|today|utcnow)|^now$|^today$")
_LATER = LazyRegex(r"(?i)\.add\w+(\(\s*\+?[1-9]|$)")  # `(Get-Date).AddDays(30)`: a date to come (or unread)
_UNC = LazyRegex(r"^(\\\\|//)[^\\/]+[\\/]")
_EXPORT = LazyRegex(r"^(new-\w*export\w*request|export-\w+|backup-\w+|new-\w*export\w*)$")
_SYSTEM_KEYS = LazyRegex(r"(?i)(hklm:|hkey_local_machine|\\environment|session manager|\\policies\\)")


# What each of ``rule_slash_verb``'s findings holds in the line: a whole class's verb (a class given as `=net` or
# `/class` is switched off or removed only with one), `logon`, a bare address's `/manualpeerlist:`, or a leaving
# switch (`_LEAVES` after its slash; `/remove…` and `/uninstall…` hold the class verbs' words).
_SLASH_WORDS = AnyWord("disable", "remove", "stop", "uninstall", "logon", "/manualpeerlist:", "/leave", "/unjoin",
                       "/disjoin", "/disconnect", "/upk", "/unpkey", "/cpky", "/ckms", "/del", "/discard",
                       "/unregister", "/unprovision", "/revoke", "/logoff")


@triggered_by(_PS_VERBS, _SLASH_WORDS.words, otherwise=False)
def may_be_own_verb(c: Ctx) -> bool:
    """Cheap: a cmdlet of one of these verbs (``rule_ps_verb`` reads no other), or a slash switch or a device-class
    word on the line with a word every finding of ``rule_slash_verb`` holds (a slash or an `=` alone woke both on a
    third of all lines)."""
    p = c.prog[:6].lower()
    if p.startswith(_PS_VERBS) and "-" in c.prog:
        return True
    return ("/" in c.lowered or "=" in c.lowered or "logon" in c.prog.lower()) and \
        _SLASH_WORDS.occurs_in(c.prog + " " + c.lowered)


def _value(texts: list, k: int) -> str:
    return texts[k + 1] if k + 1 < len(texts) else ""


def rule_ps_verb(c: Ctx) -> Optional[tuple]:
    name = c.prog.lower()
    verb, _, noun = name.partition("-")
    if not noun:
        return None
    texts = c.texts[:64]
    low = [t.lower() for t in texts]
    given = set(low)
    if "-whatif" in given:
        return None
    if verb == "block":
        return MEDIUM, f"{c.prog}: access or policy is denied to what it names ({c.text})"
    if verb == "close" and ("-force" in given or "*" in given) and \
            not any(t in _NAMED and _value(texts, k) not in ("*", "") for k, t in enumerate(low)):
        return MEDIUM, f"{c.prog}: every open session or file is closed under its users ({c.text})"
    if verb in ("suspend", "move") and noun not in _QUIET_MOVES and given & _FORCED and \
            (verb == "move" or "-forcedrain" in given):
        return MEDIUM, f"{c.prog} {' '.join(sorted(given & _FORCED))}: taken by force, not handed over ({c.text})"
    if verb == "set":
        for k, t in enumerate(low):
            if (t in _EXPIRY_OPTIONS or ("expir" in noun and not t.startswith("-"))) and \
                    _NOW.search(value := _value(texts, k) if t.startswith("-") else t) and \
                    not _LATER.search(value):
                return MEDIUM, f"{c.prog}: the account expires now and stops working ({c.text})"
    if verb == "unblock" and noun == "file":
        paths = [t for k, t in enumerate(texts) if not t.startswith("-")]
        fed = bool(c.chain) and any(w.text.lower() in ("-recurse", "-r") for w in c.chain[-1].words)
        if fed or any(p.endswith(("*", "\\", "/")) or "*" in p for p in paths) or "-recurse" in given:
            return MEDIUM, f"{c.prog}: the internet mark is lifted from every file there ({c.text})"
    if noun in ("itemproperty",) and verb in ("clear", "remove") and _SYSTEM_KEYS.search(c.text):
        names = {_value(low, k).strip("'\"") for k, t in enumerate(low) if t in ("-name", "-n")}
        if "\\environment" in c.text.lower() and names & {"path", "pathext", "psmodulepath"}:
            return HIGH, f"{c.prog}: the stored search path is emptied; programs are no longer found ({c.text})"
        return MEDIUM, f"{c.prog}: a system setting's value is taken away ({c.text})"
    if _EXPORT.match(name):
        if "request" in name and "export" in name:
            return MEDIUM, f"{c.prog}: a whole mailbox or store is copied out to a file ({c.text})"
        if any(_UNC.match(t) for t in texts):
            return MEDIUM, f"{c.prog}: what it exports is written to another machine's share ({c.text})"
    return None


# Slash switches whose own words leave, disconnect or take away; the plain verbs (/delete, /purge, /reset) are
# the vocabulary's, read by ``win_switch_verbs`` (``net use Z: /delete`` stays quiet there).
_LEAVES = LazyRegex(r"^[/-](leave|unjoin|disjoin|disconnect|upk|unpkey|cpky|ckms|remove[\w-]+|del(?!ete$)\w+|"
                    r"uninstall\w+|discard|unregister\w*|unprovision\w*|revoke\w*|logoff)(:.*)?$",
                    re.IGNORECASE)
_NOT_ACTION = frozenset({"/removable", "/delims", "/delay", "/deletelater", "/resetbase"})
_CLASS = LazyRegex(r"^=\w+$|^(/|-|--)class$", re.IGNORECASE)
_CLASS_VERBS = frozenset({"disable", "remove", "/disable-device", "/remove-device", "stop", "-disable",
                          "--disable", "/disable", "uninstall", "/uninstall"})
_PEERS = LazyRegex(r"^/manualpeerlist:[\"']?(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}", re.IGNORECASE)
_PRIVATE = LazyRegex(r"^(10|127|192\.168|172\.(1[6-9]|2\d|3[01]))$")


def rule_slash_verb(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:64]
    low = [t.lower() for t in texts]
    if any(t in ("/query", "/status", "/dli", "/dlv", "/xpr", "/?", "/dumpstate", "/list") for t in low):
        return None
    for t in low:
        if _CLASS.match(t) and set(low) & _CLASS_VERBS:
            return MEDIUM, f"{c.prog}: every device of a whole class is switched off or removed ({c.text})"
    if ("logon" in c.prog.lower() or "logon" in low) and "/disable" in low:
        return MEDIUM, f"{c.prog}: new logons to the server are refused ({c.text})"
    for t in low:
        m = _PEERS.match(t)
        if m and not _PRIVATE.match(m.group(1)) and not _PRIVATE.match(f"{m.group(1)}.{m.group(2)}"):
            return MEDIUM, f"{c.prog}: the clock is set from a bare outside address ({c.text})"
    for t, typed in zip(low, texts):
        if t[:1] == "/" and t not in _NOT_ACTION and _LEAVES.match(t):
            return MEDIUM, f"{c.prog} {typed}: it leaves, disconnects or takes away what it manages ({c.text})"
    return None
