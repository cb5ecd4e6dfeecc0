"""Effect: a PowerShell cmdlet whose approved verb takes something away from the machine, for any noun.

PowerShell's verbs are a closed, documented list, so the verb alone says what a cmdlet does whatever
module it comes from: ``Disable-<Noun>`` switches the noun off machine-wide (``Disable-ScheduledTask``,
``Disable-WindowsErrorReporting``, ``Disable-TpmAutoProvisioning``, ``Disable-NetAdapterBinding``,
``Disable-ADOptionalFeature``, ``Disable-Mailbox``), ``Unregister-<Noun>`` takes a registration away
(``Unregister-ScheduledTask``, ``Unregister-PSSessionConfiguration``, ``Unregister-AzResourceProvider``),
``Revoke-<Noun>`` withdraws access someone had (``Revoke-SmbShareAccess``, ``Revoke-MgUserSignInSession``,
``Revoke-AzStorageAccountUserDelegationKeys``), ``Deny-<Noun>`` refuses it (``Deny-WsusUpdate``: the patch never
reaches the machines), ``Reset-<Noun>`` puts it back to nothing (``Reset-AzVpnGateway``: the gateway restarts,
``Reset-MsolStrongAuthenticationMethodByUpn``: the user's second factor is gone), ``Uninstall-<Noun>`` takes a
role or account off the machine (``Uninstall-ADServiceAccount``; counters, caches and views reset, and a
developer's modules, scripts and packages uninstalled, stay quiet); a ``Set-``/``Update-`` given ``-Enabled $false`` or
``-LinkEnabled No`` is that noun's ``Disable-`` (``Set-DlpCompliancePolicy``, ``Set-GPLink``,
``Set-JournalRule``; one account switched off this way is an everyday chore and stays quiet).  One named
target is medium; every target at once is
``ps_targets``' business, ``Remove-*`` the vocabulary's and ``Clear-*`` ``clear_cmdlets``'; a cmdlet a rule
names (``Disable-NetFirewallRule``, ``Disable-WindowsOptionalFeature``) is judged by that rule alone.

The shell's own state (breakpoints, traces, jobs, event subscriptions, experimental features), package
sources and repositories (where modules come from, added back with one command) and ``-WhatIf`` stay quiet;
so does a ``Disable-*`` of something risky, which hardens the machine (``Disable-WSManCredSSP``, a legacy
protocol, telemetry, a blocking rule, the guest account; ``Disable-PSRemoting`` is not one: remote
management stops).
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.ps_targets import SESSION_STATE
from aish.safety.lazy_regex import lazy

VERBS = frozenset({"disable", "unregister", "revoke", "deny", "reset", "uninstall"})
# Nouns whose loss is the shell's or a developer's own, or that switch a risk off.
_LIGHT = lazy(r"^(ps)?(breakpoint|trace|wsmantrace|pswsmancombinedtrace|runspacedebug|experimentalfeature|"
              r"wsmancredssp|packagesource|psrepository|psresourcerepository|argumentcompleter|"
              r"psreadlinekeyhandler|scheduledjoboption|jobtrigger|"
              r"dscdebug|netadapterpowermanagement|ual)$", re.IGNORECASE)
# Words in a Disable-*'s noun or arguments that name a risk: switching it off hardens the machine.
_RISK = lazy(r"smb1|telemetry|\bblock|insecure|legacy|ssl[23]?\b|tls1(\.?[01])?\b|telnet|guest|autorun|"
             r"autoplay|credssp|llmnr|netbios|wdigest|powershellv2|ntlmv1|lanman|cipher|rc4|3des|bypass",
             re.IGNORECASE)
_WHAT = {"disable": "switches off", "unregister": "takes away the registration of", "revoke": "withdraws access to",
         "deny": "refuses (an update, a request, access)", "reset": "resets (what it held is lost)",
         "uninstall": "uninstalls"}
# What a Reset- or Uninstall- of no consequence names: counters, caches, views and one app put back
# (`Reset-AppxPackage`; its whole-list form is whole_resets'); a developer's modules, scripts and packages
# (installed again with one command).
_LIGHT_BY_VERB = {"reset": re.compile(r"counter|metering|statistic|stats|cache|proxy|view|layout|servermanager|appx|"
                                      r"color|theme|timer|psreadline|progress", re.IGNORECASE),
                  "uninstall": re.compile(r"^(module|package|script|psresource|font|addin|app|appxpackage)$",
                                          re.IGNORECASE)}


def may_take(prog: str, unknown: bool, lowered: str) -> bool:
    """The cheap test: a ``Verb-Noun`` name with one of the verbs (a cmdlet no rule names), or a ``Set-``/``Update-``
    given an ``-…Enabled`` switch."""
    verb, dash, _ = prog.partition("-")
    verb = verb.lower()
    return bool(dash) and (unknown and verb in VERBS or verb in ("set", "update") and "enabled" in lowered)


def rule_taking_verb(c: Ctx) -> Optional[tuple]:
    """``Disable-ScheduledTask -TaskName Backup``, ``Revoke-SmbShareAccess -Name Data -AccountName X``."""
    verb, _, noun = c.prog.partition("-")
    verb = verb.lower()
    if verb in ("set", "update"):
        return _enabled_off(c, noun)
    if verb not in VERBS or not noun.isalnum() or noun.lower() in SESSION_STATE or _LIGHT.match(noun):
        return None
    if verb == "disable" and (_RISK.search(noun) or _RISK.search(c.lowered)):
        return None
    if verb in _LIGHT_BY_VERB and _LIGHT_BY_VERB[verb].search(noun):
        return None
    return MEDIUM, f"{c.prog} {_WHAT[verb]} the {noun} it names ({c.text})"


# `-Enabled $false`, `-AccountEnabled:$false`, `-LinkEnabled No`: a Set-/Update- that is a Disable-.
_ENABLED_OFF = lazy(r"(?:^|\s)-(\w*enabled)(?:\s+|:)['\"]?(\$false|false|0|no)\b")
# Judged by the firewall's own rules; accounts (one account switched off is an everyday chore).
_OWN_RULES = lazy(r"^netfirewall|user$|account$|computer$", re.IGNORECASE)


def _enabled_off(c: Ctx, noun: str) -> Optional[tuple]:
    """``Set-DlpCompliancePolicy -Identity x -Enabled $false``, ``Set-GPLink … -LinkEnabled No``: the noun
    switched off, as its ``Disable-`` would."""
    m = _ENABLED_OFF.search(c.lowered)
    if m is None or _OWN_RULES.search(noun) or _RISK.search(noun) or _RISK.search(c.lowered) or \
            "forward" in m.group(1):  # `-AutoForwardEnabled $false`: a way out closed
        return None
    return MEDIUM, f"{c.prog} -{m.group(1)} off switches off the {noun} it names ({c.text})"
