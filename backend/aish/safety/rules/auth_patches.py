"""Effect: a credential tool's ``module::command`` that patches authentication, replaces a password, forges what
the domain trusts or blinds its log, whatever the program is called.

Mimikatz and the tools that share its grammar (kekeo, renamed builds, ``Invoke-Mimikatz -Command``, loaders that
pass it through) take their actions as ``module::command`` words.  Some of them change the machine or the domain
for everyone: ``misc::skeleton`` patches the domain controller so one master password opens every account,
``misc::memssp`` logs every password typed from then on, ``lsadump::setntlm``/``changentlm`` replace an account's
password, ``lsadump::zerologon``/``postzerologon`` reset the controller's own, ``lsadump::dcshadow`` pushes changes
into the directory, ``sid::add``/``sid::patch``/``misc::addsid`` give an account another's rights,
``kerberos::golden`` forges tickets the domain accepts, ``event::clear`` empties the security log and ``event::drop``
stops it recording; ``lsadump::dcsync`` pulls every account's hash from the controller.  The program's name is not
read (it is renamed more often than not): the words are.  Reading this machine's own memory (``sekurlsa::``) is
judged where the program is named as a dumper (``secrets_dumped``);
``privilege::debug``, ``standard::`` and ``help`` stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

_ACTIONS = lazy(r"(?<![\w:])(misc::(skeleton|memssp|addsid)|lsadump::(setntlm|changentlm|zerologon|postzerologon|"
                r"dcshadow|dcsync)|sid::(add|patch|modify)|kerberos::golden|event::(clear|drop))\b", re.IGNORECASE)
_WHAT = {"misc::skeleton": (HIGH, "patches the domain controller so one master password opens every account"),
         "misc::memssp": (HIGH, "logs every password typed on this machine from now on"),
         "lsadump::setntlm": (HIGH, "replaces an account's password"),
         "lsadump::changentlm": (HIGH, "replaces an account's password"),
         "lsadump::zerologon": (HIGH, "resets the domain controller's own password: the domain breaks"),
         "lsadump::postzerologon": (HIGH, "resets the domain controller's own password: the domain breaks"),
         "lsadump::dcshadow": (HIGH, "pushes changes into the directory as a domain controller"),
         "lsadump::dcsync": (MEDIUM, "pulls every account's password hash from the domain controller"),
         "sid::add": (HIGH, "gives an account another's rights"), "sid::patch": (MEDIUM, "patches the directory "
                                                                                      "to accept SID changes"),
         "sid::modify": (HIGH, "gives an account another's rights"),
         "misc::addsid": (HIGH, "gives an account another's rights"),
         "kerberos::golden": (MEDIUM, "forges tickets the domain accepts as anyone"),
         "event::clear": (MEDIUM, "empties the security event log"),
         "event::drop": (MEDIUM, "stops the event log recording anything")}


@triggered_by(("::",), otherwise=False)
def may_patch(c: Ctx) -> bool:
    """Cheap: a `module::command` word."""
    return any("::" in t for t in c.texts)


def rule_auth_patched(c: Ctx) -> Optional[tuple]:
    """``mimikatz.exe "privilege::debug" "misc::skeleton" exit``, ``kekeo "lsadump::dcsync /user:krbtgt"``."""
    best: Optional[tuple] = None
    for t in c.texts[:32]:
        for m in _ACTIONS.finditer(t):
            level, what = _WHAT[m.group(1).lower()]
            if best is None or level > best[0]:
                best = (level, f"{c.prog} {m.group(1)}: {what} ({c.text})")
    return best
