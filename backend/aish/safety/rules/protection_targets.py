"""Effect: a security product's own part, or a security update, named as what an unknown program takes away.

``security_products_off`` reads products' own control programs.  Kernel-extension, driver-filter and
package tools take the same products away when their identifier is the operand: a bundle id, a driver or a
minifilter named for the product (``kmutil unload -b com.sophos.kext.sav``, ``kextunload -b
com.crowdstrike.sensor``, ``fltmc detach SysmonDrv C:``, ``systemextensionsctl uninstall TEAM
com.sentinelone.ext``, ``pnputil /delete-driver`` of a product's filter): the machine is no longer watched.

Security updates are taken off in the same way by update modules and package tools (``Remove-WindowsUpdate
-KBArticleID KB5034441``, ``Hide-WindowsUpdate``, ``Deny-WsusUpdate``, ``dism /Remove-Package
/PackageName:Package_for_KB…``, ``choco uninstall KB…``): the hole it closed is open again, and a hidden one
is never offered.  Listing, scanning and installing them stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.programs import LIBRARY_PACKAGE_TOOLS
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.security_products_off import _PRODUCT
from aish.safety.rules.triggers import triggered_by

_TAKES = frozenset({"unload", "uninstall", "detach", "disable", "remove", "kill", "delete", "rm", "-unload",
                    "--unload", "-uninstall", "--uninstall", "/uninstall", "/delete-driver", "/remove-device",
                    "--remove", "-remove", "unregister", "deactivate", "--deactivate"})
_KB = LazyRegex(r"(^|[^a-z])kb\d{6,8}($|[^\d])", re.IGNORECASE)
_KB_VERB = LazyRegex(r"remove|uninstall|hide|block|deny|decline|reject|^-?-?delete", re.IGNORECASE)
_WORDS = ("unload", "uninstall", "detach", "disable", "remove", "kill", "delete", "rm", "unregister", "deactivate",
          "kb")


# Drivers and extensions of security products by their own names (Defender's, CrowdStrike's, SentinelOne's…).
_DRIVERS = LazyRegex(r"^(wdfilter|wdboot|wdnisdrv|wddevflt|mssecflt|csagent|csdevicecontrol|sentinelone|sysmondrv|"
                     r"cbk7|cbstream|carbonblackk|cyprotectdrv\w*|sophosed|hmpalert|savonaccess|"
                     r"esets|ehdrv|klif|symefa\w*|srtsp\w*|mfehidk|mfefirek|tmcomm|tmevtmgr|xprotect\w*|"
                     r"santa\w*|endpointsecurity\w*)(\.(sys|inf|kext))?$", re.IGNORECASE)


def _names_product(word: str) -> bool:
    """A bundle id, a driver or a service name one of whose parts names a security product."""
    parts = re.split(r"[./\\:]", word.strip("'\""))
    return any(p and (_PRODUCT.search(p) or _DRIVERS.match(p)) for p in parts) or \
        bool(_DRIVERS.match(word.strip("'\"")))


@triggered_by(_WORDS, otherwise=False)
def may_take(c: Ctx) -> bool:
    """Cheap: words after the program's name, a taking verb or a KB number in the line."""
    line = c.prog.lower() + " " + c.lowered
    return bool(c.texts) and any(w in line for w in _WORDS)


def rule_protection_taken(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:64]  # a setting, a target or a verb is among the first words: long lines are not read
    low = [t.lower() for t in texts]
    if "kb" in c.lowered and any(_KB.search(t) for t in texts) and \
            (_KB_VERB.search(c.prog) or any(_KB_VERB.search(t) for t in low)):
        kb = next(t for t in texts if _KB.search(t))
        return MEDIUM, f"{c.prog} takes the security update {kb} away: the hole it closed is open again ({c.text})"
    if c.prog.lower() in LIBRARY_PACKAGE_TOOLS:
        return None  # `pip uninstall osquery`: the bindings, not the agent
    verb = next((t for t in low if t in _TAKES), None) or \
        (c.prog.lower() if re.search(r"unload|uninstall|detach", c.prog.lower()) else None)
    if verb is None:
        return None
    product = next((t for t in texts if not t.startswith(("-", "/")) and t.lower() != verb and _names_product(t)),
                   None)
    if product:
        said = c.prog if verb == c.prog.lower() else f"{c.prog} {verb}"
        return MEDIUM, f"{said} {product}: a security product stops watching the machine ({c.text})"
    return None
