"""Effect: a cmdlet that stops, removes or disables told to act on every one there is, for any noun.

PowerShell names the targets of ``Stop-*``, ``Remove-*``, ``Disable-*``… three ways that mean "all":

- a wildcard: ``Set-NetFirewallRule -Name * -Enabled False``, ``Stop-Service -Name * -Force``;
- the list computed inline by the matching ``Get-*``: ``Stop-EC2Instance -InstanceId
  (Get-EC2Instance).Instances.InstanceId -Force``, ``Disable-PnpDevice -InstanceId (Get-PnpDevice
  -Class Net).InstanceId``, ``Remove-ADUser -Identity $(Get-ADUser -Filter *)``;
- the same listing piped in: ``Get-NetAdapter | Set-NetAdapter -AdminStatus Down``.

A ``Set-*`` counts when the value it sets switches things off (``-Enabled False``, ``-StartupType
Disabled``, ``-AdminStatus Down``).  The session's own state (variables, jobs, sessions, modules,
aliases, drives, breakpoints, event subscriptions) is the shell's bookkeeping, not the machine's: removing
all of it stays quiet, as does a listing narrowed by a name (``(Get-VM web01).Name``).

A POSIX shell splits ``(Get-X).Prop`` into a group of its own; ``joined_groups`` makes the cmdlet one
command again, the group a word like ``$(Get-X)``.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.own_options import broad_listing
from aish.safety.shell_words import Word, segments
from aish.safety.lazy_regex import lazy

_CMDLET = re.compile(r"^(stop|remove|disable|uninstall|unregister|clear|suspend|dismount|reset|revoke|restart|"
                     r"set|block|lock|save|close|disconnect)-([a-z][a-z0-9]+)$", re.IGNORECASE)
_REMOVES = {"remove", "uninstall", "unregister", "clear", "reset", "revoke"}
# The PowerShell session's own state (variables, background jobs, remote sessions, modules, aliases, drives,
# breakpoints, event subscriptions): removing or stopping all of it touches nothing outside the shell.
SESSION_STATE = frozenset("""variable psvariable pssession job module alias psdrive psbreakpoint event eventsubscriber
typedata formatdata pssnapin runspace transcript psreadlinekeyhandler psjob""".split())
# Nouns other rules judge by their targets (`Remove-Item *` is a delete of what is there), or that only set the
# shell's own settings.
SESSION_NOUNS = SESSION_STATE | frozenset("""location history psreadlineoption psdebug strictmode item itemproperty
content culture uiculture date""".split())
_SESSION_CMDLET = re.compile(r"^(remove|stop|clear|disable|unregister|suspend|wait|receive)-(\w+)$", re.IGNORECASE)
# What a Set-* gives that switches things off: (option, values).
_OFF = {"-enabled": {"false", "$false", "0", "no"}, "-startuptype": {"disabled"}, "-adminstatus": {"down"},
        "-status": {"stopped", "disabled", "paused"}, "-state": {"disabled", "stopped", "off", "down"},
        "-action": {"block"}, "-disabled": {"true", "$true"}}
# Options that narrow a listing rather than name its targets.
_NARROWING = {"-filter", "-include", "-exclude", "-class", "-searchbase", "-resultsize", "-computername", "-cimsession",
              "-resourcegroupname", "-region", "-profilename", "-zonename", "-vmname", "-rrtype", "-scope",
              "-erroraction", "-confirm", "-force", "-displaygroup", "-group", "-policystore", "-type"}
_BROAD_VALUE = {"*", "'*'", '"*"'}


def _verb_noun(name: str) -> Optional[tuple]:
    m = _CMDLET.match(name)
    if m is None or m.group(2).lower() in SESSION_NOUNS:
        return None
    return m.group(1).lower(), m.group(2).lower()


def _switches_off(texts: list) -> bool:
    lowered = [t.lower() for t in texts]
    for k, t in enumerate(lowered):
        name, colon, value = t.partition(":")
        values = _OFF.get(name)
        if values is None:
            continue
        given = value if colon else (lowered[k + 1] if k + 1 < len(lowered) else "")
        if given.strip("'\"") in values:
            return True
    return False


def _every_one(texts: list) -> bool:
    """A target given as ``*``: ``-Name *``, ``-InstanceId *``, or the first operand."""
    for k, t in enumerate(texts):
        if t in _BROAD_VALUE and (k == 0 or not texts[k - 1].startswith("-") or
                                  texts[k - 1].lower() not in _NARROWING):
            return True
    return False


def _verdict(c: Ctx, scope: str) -> Optional[tuple]:
    found = _verb_noun(c.prog)
    if found is None:
        return None
    verb, noun = found
    if verb == "set" and not _switches_off(c.texts):
        return None
    level = HIGH if verb in _REMOVES else MEDIUM
    what = "removes" if verb in _REMOVES else "switches off" if verb in ("set", "disable", "block", "lock") \
        else "stops"
    return level, f"{c.prog} {what} every {noun} {scope} ({c.text})"


# Cmdlets that only print help or what exists: `help Remove-Item -Examples` names a cmdlet, it runs none.
_PRINTS_ONLY = frozenset({"help", "get-help", "get-command", "get-alias", "get-member", "show-command", "get-verb",
                          "update-help", "save-help"})


# Environment Modules and Lmod: `module purge`, `ml unload gcc` change the shell's variables and nothing else.
_SHELL_VARIABLES_ONLY = frozenset({"module", "ml"})


def session_only(prog: str) -> bool:
    """``Remove-Job``, ``Remove-Variable -Name *``, ``Get-PSSession | Remove-PSSession``: the shell's own state;
    ``help Remove-Item``, ``Get-Command -Verb Remove``: help and listings of cmdlets; ``module purge``."""
    if prog.lower() in _PRINTS_ONLY or prog in _SHELL_VARIABLES_ONLY:
        return True
    if "-" not in prog:
        return False
    m = _SESSION_CMDLET.match(prog)
    return m is not None and m.group(2).lower() in SESSION_STATE


def may_target_all(prog: str) -> bool:
    """A cheap first test: the program is a cmdlet of a verb that stops, removes or switches off."""
    return "-" in prog and _verb_noun(prog) is not None


def rule_every_one(c: Ctx) -> Optional[tuple]:
    """``Set-NetFirewallRule -Name * -Enabled False``, ``Get-NetAdapter | Set-NetAdapter -AdminStatus Down``,
    ``Remove-ADUser -Identity $(Get-ADUser -Filter *)``."""
    if _every_one(c.texts):
        return _verdict(c, "there is (*)")
    if any(w.subs for w in c.args) and substituted_listing(c):
        return _verdict(c, "a listing gives")
    listing = broad_listing(c)
    if listing and c.prog[:4].lower() == "set-":  # the other verbs with a listing are judged by own_options
        return _verdict(c, f"{listing} lists")
    return _named_by_listing(c)


def _named_by_listing(c: Ctx) -> Optional[tuple]:
    """``Get-Service Sense,WinDefend | Set-Service -StartupType Disabled``: the names given to the listing are
    this cmdlet's targets; judged as ``Set-Service Sense,WinDefend -StartupType Disabled``."""
    feeder = c.chain[-1].words if c.chain else []
    texts = c.texts
    if not feeder or not re.match(r"(?i)^get-\w+$", feeder[0].text) or \
            any(not t.startswith("-") and (k == 0 or not texts[k - 1].startswith("-")) for k, t in enumerate(texts)):
        return None
    names = [w for k, w in enumerate(feeder[1:]) if not w.text.startswith("-") and
             (k == 0 or feeder[k].text.lower() in ("-name", "-displayname", "-identity", "-id"))]
    if not names or feeder[0].text.lower().removeprefix("get-") != c.prog.lower().split("-", 1)[1]:
        return None
    parts = [part for w in names for part in w.text.split(",") if part]  # `Sense,WinDefend`
    found = c.recurse(" ".join([c.words[0].raw] + parts + [w.raw for w in c.args]))
    return (found[0], f"{found[1]}, as {feeder[0].text} names them") if found else None


def broad_get(words: list) -> bool:
    """``Get-EC2Instance``, ``Get-PnpDevice -Class Net``, ``Get-ADUser -Filter *``: a listing no name narrows."""
    if not words or not re.match(r"(?i)^(get-\w+|import-csv)$", words[0].text):
        return False
    if words[0].text.lower() in ("get-content", "import-csv"):
        return True  # `-ComputerName (Get-Content servers.txt)`: every one a file lists
    texts = [w.text for w in words[1:]]
    for k, t in enumerate(texts):
        if t.startswith("-"):
            continue
        before = texts[k - 1].lower() if k else ""
        if before in _NARROWING or t in _BROAD_VALUE:
            continue
        return False  # `Get-VM web01`, `Get-ADUser -Identity eve`: named
    return True


def joined_groups(segs: list) -> list:
    """``Verb-Noun -Param (Get-Noun …).Prop -Force``, which the POSIX reading splits into three segments
    (the cmdlet, a ``( )`` group, the words after it), as one command again: the group becomes one word,
    ``$(Get-Noun …)``, judged as a substitution is, and the options after it stay the cmdlet's own
    (``-Force``, ``-WhatIf``)."""
    out: list = []
    k = 0
    while k < len(segs):
        head = segs[k]
        if k + 2 < len(segs) and segs[k + 1].link == "(" and segs[k + 2].link == ")" and head.words and \
                _CMDLET.match(head.words[0].text) and segs[k + 1].words:
            inner, tail = segs[k + 1], segs[k + 2]
            body = " ".join(w.raw for w in inner.words)
            member = tail.words[0].raw if tail.words and tail.words[0].text.startswith(".") else ""  # `.Name`
            group = Word(f"$({body}){member}", f"({body}){member}", has_var=True, subs=[body])
            rest = tail.words[1:] if member else list(tail.words)
            out.append(replace(head, words=list(head.words) + [group] + rest,
                               redirects=list(head.redirects) + list(tail.redirects)))
            k += 3
            continue
        if k + 2 == len(segs) and segs[k + 1].link == "(" and head.words and _CMDLET.match(head.words[0].text) and \
                segs[k + 1].words:  # `Set-ADUser bob -AccountExpirationDate (Get-Date)`: the group ends the line
            body = " ".join(w.raw for w in segs[k + 1].words)
            group = Word(f"$({body})", f"({body})", has_var=True, subs=[body])
            out.append(replace(head, words=list(head.words) + [group]))
            k += 2
            continue
        out.append(head)
        k += 1
    return out


def substituted_listing(c: Ctx) -> bool:
    """``Remove-ADUser -Identity $(Get-ADUser -Filter *)``: a word that is a listing no name narrows."""
    for w in c.args:
        if w.subs and w.text.startswith("$(") and len(w.subs) == 1 and "(" not in w.text.rpartition(")")[2]:
            segs = segments(w.subs[0])  # (one group a word: `$(Get-X)` or `(Get-X).Name`)
            if len(segs) == 1 and broad_get(segs[0].words):
                return True
    return False


_LISTINGS = {"get-childitem", "gci", "ls", "dir", "get-item", "gi"}
_EACH = lazy(r"^[\"']?\$(_|psitem)(\.(fullname|name|pspath|path))?[\"']?$", re.IGNORECASE)


def each_listed(c: Ctx, words: list) -> Optional[list]:
    """``gci D:\\Backups -Recurse | % { ri $_.FullName -Force }``: the block's command with ``$_`` spelled as
    the paths the listing walks (and its ``-Recurse``), or None when the block names no ``$_`` or nothing
    lists paths before it."""
    if not any(_EACH.match(w.raw) for w in words[1:]):
        return None
    listing = next((f for f in reversed(c.chain) if f.words and f.words[0].text.lower() in _LISTINGS), None)
    if listing is None:
        return None
    texts = [w.text.lower() for w in listing.words[1:]]
    paths = [Word(w.raw.strip("'\""), w.raw) for k, w in enumerate(listing.words[1:])
             if not w.text.startswith("-") and not (k and texts[k - 1] in ("-filter", "-include", "-exclude",
                                                                          "-depth"))]
    if not paths:
        return None
    rest = [w for w in words[1:] if not _EACH.match(w.raw)]
    recurse = [Word("-Recurse", "-Recurse")] if any(t.startswith("-r") and "-recurse".startswith(t) for t in texts) \
        else []
    return [words[0]] + paths + rest + recurse
