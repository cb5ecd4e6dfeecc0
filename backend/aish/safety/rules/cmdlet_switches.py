"""Effect: a protection switched off through a cmdlet's boolean parameter, for any cmdlet.

Windows, Active Directory, SMB, Exchange and Hyper-V settings are cmdlets with one parameter per
switch, and the parameter's name says which way is weaker: a requirement or a protection set false
(``Set-SmbServerConfiguration -RequireSecuritySignature $false``, ``-EncryptData $false``,
``-ComplexityEnabled $false``, ``-AuthenticateUsingNLA $false``, ``-StrongPasswordRequired $false``,
``-EnableSecureBoot Off``), a weakness set true (``Set-ADAccountControl -DoesNotRequirePreAuth
$true``, ``-PasswordNotRequired $true``, ``-TrustedForDelegation $true``, ``-EnableInsecureGuestLogons
$true``, ``-AllowReversiblePasswordEncryption $true``, ``-AuditDisabled $true``, ``Set-MpPreference
-DisableIOAVProtection:$true``), or mitigations listed to ``-Disable`` (``Set-ProcessMitigation -System
-Disable DEP``).  The same parameters set the strong way, and unrelated ones (``Set-ADUser -Enabled
$false`` disables an account, it weakens nothing), stay quiet.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import MEDIUM, Ctx

# Parameters naming a protection: weaker when set false.
_PROTECTION = lazy(r"^-(require\w*|\w*required|encrypt\w*|\w*(signing|signature|encryption|complexity|lockout|"
                   r"secureboot|protection|validation|verification|authenticat\w*|nla|integrity|tamper\w*|"
                   r"monitoring|scanning|logging|audit\w*|oauth\w*|runasppl|secure\w*)(enabled|required|on)?|"
                   r"enable(secure|security|audit|https|"
                   r"encrypt|signing|firewall|authentication|networklevel|lua|protection|smartscreen|"
                   r"logging|integrity|credentialguard|hvci|bitlocker)\w*|reject\w*|strong\w*|enforce\w*|"
                   r"\w*auditlog\w*enabled|\w*audit\w*enabled)$")
# Parameters naming a weakness: weaker when set true.
_WEAKNESS = lazy(r"^-(disable\w+|\w*notrequired|doesnotrequire\w*|allow(unencrypted|insecure|basic|anonymous|"
                 r"unsigned|untrusted|guest|blank|empty|reversible|weak|legacy|nullsession)\w*|"
                 r"enable(insecure|smb1|basic|guest|legacy|anonymous|unencrypted|unsigned|plain|weak|"
                 r"nullsession|lm)\w*|skip\w*(check|verification|validation)\w*|trustedfordelegation|"
                 r"trustedtoauthfordelegation|\w*optout|auditdisabled|\w*reversibleencryption\w*|"
                 r"usedeskeyonly|insecure\w*|\w*bypass\w*|allow\w*public\w*)$")
# userAccountControl bits that open an account: no password needed (0x20), reversible encryption (0x80),
# unconstrained delegation (0x80000), DES only (0x200000), no Kerberos pre-authentication (0x400000),
# delegation to any service (0x1000000).
_UAC_WEAK = 0x20 | 0x80 | 0x80000 | 0x200000 | 0x400000 | 0x1000000
_UAC = lazy(r"useraccountcontrol\W*=\W*(\d+)")
_FALSE = frozenset({"$false", "false", "0", "off", "no", "$null", "disabled", "disable"})
_TRUE = frozenset({"$true", "true", "1", "on", "yes", "enabled", "enable"})
_VERBS = ("set-", "new-", "update-", "enable-")  # settings, not installs (`Add-AppxPackage -AllowUnsigned`)


# Settings written as items: the item's name is the switch (`Set-Item WSMan:\\…\\Service\\AllowUnencrypted -Value
# $true`, `Set-ItemProperty … -Name RunAsPPL -Value 0`).
_ITEM_SETTERS = frozenset({"set-item", "si", "set-itemproperty", "sp", "new-itemproperty"})
_WSMAN_WEAK = frozenset({"basic", "allowunencrypted", "credssp", "digest"})


def _item_setting(texts: list) -> list:
    lowered = [t.lower() for t in texts]
    value = next((lowered[k + 1] for k, t in enumerate(lowered[:-1]) if t == "-value"), "")
    name = next((lowered[k + 1] for k, t in enumerate(lowered[:-1]) if t == "-name"), "")
    path = next((t for k, t in enumerate(lowered) if not t.startswith("-") and
                 (k == 0 or lowered[k - 1] in ("-path", "-literalpath"))), "")
    if not name and path.startswith("wsman:"):  # the shell took the backslashes: `WSMan:localhostServiceAuthBasic`
        weak = next((w for w in _WSMAN_WEAK if path.endswith(w)), "")
        name = "allowinsecure" + weak if weak else ""  # an authentication kind or plain text allowed
    return [("-" + name.strip("'\""), value.strip("'\""))] if name and value else []


def _settings(texts: list) -> list:
    """(parameter, value) pairs: `-Name value` and `-Name:value` (a switch alone is `$true`)."""
    pairs = []
    for k, t in enumerate(texts):
        if not t.startswith("-") or len(t) < 3:
            continue
        name, colon, value = t.partition(":")
        if not colon:
            following = texts[k + 1] if k + 1 < len(texts) else ""
            value = following if following and not following.startswith("-") else "$true"
        pairs.append((name.lower(), value.lower().strip("'\"")))
    return pairs


def rule_cmdlet_weakens(c: Ctx) -> Optional[tuple]:
    """``Set-<X> -Require<Y> $false``, ``-DoesNotRequirePreAuth $true``, ``-Disable DEP``."""
    name = c.prog.lower()
    if name in ("appcmd", "appcmd.exe"):
        name = "set-appcmd"  # IIS' configuration tool: read as a setting
    if not name.startswith(_VERBS) or name in ("set-mppreference", "add-mppreference"):
        return None  # Defender's preferences are judged by the Windows rules
    low = c.lowered
    uac = _UAC.search(low) if "useraccountcontrol" in low else None
    if uac and int(uac.group(1)) & _UAC_WEAK:
        return MEDIUM, f"{c.prog} sets userAccountControl to {uac.group(1)}: the account loses a login check " \
            f"({c.text})"
    if "anonymousauthentication" in low and ("-value true" in low or "-value $true" in low or "/enabled:true" in low):
        return MEDIUM, f"{c.prog} lets anonymous callers in: the site's login is off ({c.text})"
    pairs = _item_setting(c.texts) if name in _ITEM_SETTERS else _settings(c.texts)
    for param, value in pairs:
        if param == "-disable" and name == "set-processmitigation" and value not in _FALSE:
            return MEDIUM, f"{c.prog} switches exploit mitigations off ({value}) ({c.text})"
        if value in _FALSE and _PROTECTION.match(param) and not _WEAKNESS.match(param):
            return MEDIUM, f"{c.prog} sets {param[1:]} to {value}: a protection is switched off ({c.text})"
        if value in _TRUE and _WEAKNESS.match(param):
            return MEDIUM, f"{c.prog} sets {param[1:]} to {value}: a protection is switched off ({c.text})"
    return None


def may_weaken(prog: str) -> bool:
    return "-" in prog and prog.lower().startswith(_VERBS) or prog.lower() in _ITEM_SETTERS or \
        prog.lower() in ("appcmd", "appcmd.exe")
