"""Effect: a ``Set-``/``Update-`` cmdlet of any module whose parameter VALUE switches its noun off, closes it,
expires it now, blocks sign-in to it or opens it to anyone.

A cmdlet's verb ``Set`` says nothing; the parameter's name and value do, whatever the module:

- a state, status or mode given an off word (``Set-DhcpServerv4Scope -State InActive``, ``Set-SPOSite
  -LockState NoAccess``, ``Set-CertificateAutoEnrollmentPolicy -PolicyState Disabled``,
  ``Set-AzRecoveryServicesVaultProperty -SoftDeleteFeatureState Disable``, ``Write-S3BucketVersioning
  -VersioningConfig_Status Suspended``), or the switch ``-Offline``/``-IsOffline $true`` (``Set-DbaDbState``);
- ``-Enable $false`` (``-Enabled`` is ``ps_taking_verbs``'; ``Set-AzKeyVaultSecretAttribute -Enable $false``),
  ``-Enable<X> $false`` on a protection's policy or filter (``Set-MalwareFilterPolicy -EnableFileFilter $false``,
  ``Set-AtpPolicyForO365 -EnableSafeLinksForO365Clients $false``), or ``-Block<X> $true``/``-IsBlocked Yes``
  (``Set-GPInheritance -IsBlocked Yes``); one account switched off (``-AccountEnabled $false``,
  ``-BlockCredential $true``) is an everyday chore, as ``ps_taking_verbs`` reads it, and stays quiet;
- an expiry parameter of any name given now (``Set-AzKeyVaultSecretAttribute -Expires (Get-Date)``,
  ``-NotAfter``, ``-ExpiryTime``): it stops working at once (a date to come stays quiet);
- how long deleted or old things are kept, or how much may be sent, received or held, given zero
  (``Set-Mailbox -RetainDeletedItemsFor 0``, ``Set-MailboxDatabase -DeletedItemRetention 0.00:00:00``,
  ``Set-AdminAuditLogConfig -AdminAuditLogAgeLimit 0``, ``Set-TransportConfig -MaxSendSize 0KB``);
- who may reach it given anyone (``Set-SPOTenant -SharingCapability ExternalUserAndGuestSharing``,
  ``Set-MgPolicyAuthorizationPolicy -AllowInvitesFrom everyone``, ``Set-UnifiedGroup -AccessType Public``).

``-WhatIf``, the shell's own settings (``Set-Variable``, ``Set-Location``: ``ps_targets.SESSION_NOUNS``) and
the same parameters set the open way stay quiet.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.cmdlet_switches import _settings
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.rules.ps_targets import SESSION_NOUNS
from aish.safety.rules.win_own_verbs import _LATER, _NOW  # now, and a date to come (`(Get-Date).AddDays(30)`)

_VERBS = ("set-", "update-", "write-")
_STATE = lazy(r"^-\w*(state|status|mode)$")
# One account switched off is an everyday chore (``ps_taking_verbs``' reading); services have rules of their own.
_ACCOUNT = lazy(r"(user|account|computer)$")
_OWN_RULES = frozenset({"service"})
_OFF_WORDS = frozenset({"disabled", "disable", "inactive", "offline", "noaccess", "suspended", "suspend", "off",
                        "deactivated", "blocked", "locked"})
_FALSE = frozenset({"$false", "false", "0", "no", "off"})
_TRUE = frozenset({"$true", "true", "1", "yes", "on"})
# Nouns that are a protection's settings: an ``-Enable<X> $false`` there switches a guard off
# (``Set-MalwareFilterPolicy -EnableFileFilter $false``, ``Set-AtpPolicyForO365 -EnableSafeLinks… $false``).
_POLICY = lazy(r"filter|protect|defender|security|threat|phish|malware|spam|audit|guard|atp|safelink|safeattach")
_EXPIRY = lazy(r"^-(\w*expir\w*|notafter|enddate|validto|validuntil)$")
# How long deleted or old things are kept, and how much may pass or be held: zero keeps or lets through nothing.
_KEEPS = lazy(r"^-\w*(retain|retention|agelimit|keepdeleted|maxage|prohibit\w*quota|storagequota|maxsendsize|"
              r"maxreceivesize|maxmessagesize)\w*$")
_ZERO = lazy(r"^(0+|0+(\.0+)?(kb|mb|gb|b|d|days?)|0+[.:]0+:0+(:0+)?|0+\.0+:0+:0+|00:00:00)$")
_REACH = lazy(r"^-\w*(sharing|invite|linktype|visibility|accesstype|anonymous)\w*$")
_ANYONE = lazy(r"^(everyone|anyone|anonymous\w*|public|externaluser\w*|guest\w*|all)$")


# What the shell writes to its own streams (`Write-Progress -Status "Offline"`) names no setting.
_STREAMS = frozenset({"host", "output", "progress", "verbose", "warning", "error", "information", "debug",
                      "eventlog", "log"})


@triggered_by(_VERBS, otherwise=False)
def may_set_off(c: Ctx) -> bool:
    """Cheap: a Set-/Update-/Write- cmdlet name with a parameter."""
    p = c.prog[:7].lower()
    return p.startswith(_VERBS) and "-" in c.prog and "-" in c.lowered


def rule_set_off(c: Ctx) -> Optional[tuple]:
    noun = c.prog.partition("-")[2].lower()
    if not noun or noun in SESSION_NOUNS or noun in _STREAMS or noun in _OWN_RULES:
        return None
    pairs = _settings(c.texts[:64])  # (parameter, value) pairs, both lowered
    if any(p == "-whatif" for p, _ in pairs):
        return None
    for param, value in pairs:
        low = value.lower()
        if "forward" in param:
            continue  # forwarding switched off closes a way out (`-AutoForwardingMode Off`): mail_forwarding
        if _STATE.match(param) and low in _OFF_WORDS:
            return MEDIUM, f"{c.prog} sets {param[1:]} to {value}: what it names is switched off ({c.text})"
        if param in ("-offline", "-isoffline") and low in _TRUE:
            return MEDIUM, f"{c.prog} {param}: what it names is taken offline for everyone ({c.text})"
        if (param == "-enable" or param.startswith("-enable") and _POLICY.search(noun)) and \
                low in _FALSE:
            return MEDIUM, f"{c.prog} sets {param[1:]} to {value}: it is switched off ({c.text})"
        if param.startswith(("-block", "-isblock")) and low in _TRUE and not _ACCOUNT.search(noun):
            return MEDIUM, f"{c.prog} {param[1:]}: sign-in or access is blocked ({c.text})"
        if _EXPIRY.match(param) and _NOW.search(value) and not _LATER.search(value):
            return MEDIUM, f"{c.prog} sets {param[1:]} to now: it stops working at once ({c.text})"
        if _KEEPS.match(param) and _ZERO.match(low):
            return MEDIUM, f"{c.prog} sets {param[1:]} to {value}: nothing is kept or let through ({c.text})"
        if _REACH.match(param) and _ANYONE.match(low.replace("and", "")):
            return MEDIUM, f"{c.prog} sets {param[1:]} to {value}: anyone may reach it ({c.text})"
    return None
