"""Effect: macOS' protections switched off by writing their settings, in any tool's words.

- A preference written with ``PlistBuddy -c "Set :KEY VALUE" FILE`` or ``plutil -replace KEY -bool false
  FILE`` is the same write as ``defaults write FILE KEY -bool false``, and judged as that (automatic
  updates, the firewall, quarantine, the guest account...).  Settings ``defaults`` rules did not know:
  Gatekeeper's re-arm (``GKAutoRearm``), the application firewall (``EnableFirewall``), guest file sharing
  (``AllowGuestAccess``, ``guestAccess``), automatic login (``autoLoginUser``), library validation
  (``DisableLibraryValidation``), Time Machine (``AutoBackup``).
- Quarantine marks stripped from every application at once (``xattr -dr com.apple.quarantine
  /Applications``, ``xattr -cr /Applications``, over ``/``): Gatekeeper no longer checks what they open;
  one application named stays quiet.
- ``systemsetup -setremotelogin off`` (a remote session and the way back in cut), ``-setremoteappleevents
  on``; ``sysadminctl -screenLock off``; ``nvram boot-args`` that switch code signing off.  (``tmutil
  disable``, backups switched off, is ``recovery_off``'s.)
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.lazy_regex import lazy

NAMES = frozenset({"plistbuddy", "plutil", "defaults", "xattr", "systemsetup", "nvram", "sysadminctl"})
# (key, values that switch the protection off, what it means)
_KEYS = [
    (re.compile(r"^GKAutoRearm$", re.I), {"false", "no", "0"}, "Gatekeeper stays off for good"),
    (re.compile(r"^EnableFirewall$", re.I), {"false", "no", "0"}, "switches the macOS firewall off"),
    (re.compile(r"^(AllowGuestAccess|guestAccess)$", re.I), {"true", "yes", "1"},
     "lets guests reach shared files with no password"),
    (re.compile(r"^autoLoginUser$", re.I), None, "logs an account in at boot with no password"),
    (re.compile(r"^DisableLibraryValidation$", re.I), {"true", "yes", "1"},
     "lets unsigned code load into signed applications"),
    (re.compile(r"^AutoBackup$", re.I), {"false", "no", "0"}, "switches Time Machine backups off"),
    (re.compile(r"^(XProtect\w*|\w*Gatekeeper\w*|SPCTLEnabled|EnableStealthMode)$", re.I), {"false", "no", "0"},
     "switches a macOS protection off (XProtect, Gatekeeper, the firewall's stealth mode)"),
    (re.compile(r"^DisableGuestAccount$", re.I), {"false", "no", "0"},
     "switches the guest account on: anyone may log in"),
]
# Gatekeeper's own preference file: its `enabled` key set to no is `spctl --master-disable`
_GATEKEEPER_FILE = lazy(r"SystemPolicy-prefs(\.plist)?$")
_TYPES = {"-bool", "-boolean", "-int", "-integer", "-string", "-float", "-date", "-data", "-json", "-xml"}
_WHOLE = lazy(r"^(~|\$HOME)?/(Applications|System/Applications)?/?(\*|\*\.app)?$")
_UNSIGNED_BOOT = lazy(r"amfi_get_out_of_my_way=(1|0x1)|cs_enforcement_disable=1|amfi=0x80", re.I)


def rule_mac_setting(c: Ctx) -> Optional[tuple]:
    prog, texts = c.prog.lower(), c.texts
    if prog == "plistbuddy":
        return _plistbuddy(c)
    if prog == "plutil":
        return _plutil(c)
    if prog == "defaults" and texts[:1] == ["write"] and len(texts) >= 4:
        return _known_key(c, texts[2], [t for t in texts[3:] if t not in _TYPES])
    if prog == "xattr":
        return _quarantine_stripped(c)
    if prog == "systemsetup":
        said = " ".join(t.lower() for t in texts)
        if re.search(r"-setremotelogin\s+off\b", said):
            return HIGH, f"turns remote login (ssh) off: a remote session and the way back in are cut ({c.text})"
        if re.search(r"-setremoteappleevents\s+on\b", said):
            return MEDIUM, f"lets other machines send this one Apple events: remote control ({c.text})"
    if prog == "sysadminctl" and [t.lower() for t in texts[:2]] == ["-screenlock", "off"]:
        return MEDIUM, f"the screen no longer locks: anyone at the machine gets the session ({c.text})"
    if prog == "nvram" and any(t.startswith("boot-args") and _UNSIGNED_BOOT.search(t) for t in texts):
        return MEDIUM, f"switches code-signing checks off at the next boot ({c.text})"
    return None


def _as_defaults(c: Ctx, path: str, key: str, kind: str, value: str) -> Optional[tuple]:
    if _GATEKEEPER_FILE.search(path) and key.lower() == "enabled" and value.lower() in ("no", "false", "0"):
        return MEDIUM, f"switches Gatekeeper off: unsigned apps run ({c.text})"
    known = _known_key(c, key, [value])
    if known:
        return known
    domain = re.sub(r"\.plist$", "", path)
    found = c.recurse(f"defaults write {domain} {key} {kind} {value}".replace("  ", " "))
    if found is not None and found[0] >= MEDIUM:
        return found[0], f"{found[1]}, written by {c.prog} ({c.text})"
    return None


def _plistbuddy(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    path = next((t for k, t in enumerate(texts) if not t.startswith("-") and (k == 0 or texts[k - 1] != "-c")), "")
    for k, t in enumerate(texts[:-1]):
        if t != "-c":
            continue
        m = re.match(r"^\s*(Set|Add)\s+:?([\w.:-]+)\s+(?:(bool|integer|string|real)\s+)?(.+?)\s*$", texts[k + 1], re.I)
        if m and path:
            key = m.group(2).rsplit(":", 1)[-1]
            value = m.group(4).strip("'\"")
            kind = "-bool" if value.lower() in ("true", "false", "yes", "no") else ""
            found = _as_defaults(c, path, key, kind, value)
            if found:
                return found
    return None


def _plutil(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    for k, t in enumerate(texts[:-3]):
        if t in ("-replace", "-insert") and texts[k + 2] in _TYPES:
            path = next((x for x in texts[k + 4:] if not x.startswith("-")), "")
            if path:
                return _as_defaults(c, path, texts[k + 1].rsplit(".", 1)[-1], texts[k + 2], texts[k + 3])
    return None


def _known_key(c: Ctx, key: str, values: list) -> Optional[tuple]:
    for pattern, off, meaning in _KEYS:
        if pattern.match(key) and (off is None or any(v.lower() in off for v in values)):
            return MEDIUM, f"{meaning} ({c.text})"
    return None


def _quarantine_stripped(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    flags = "".join(t[1:] for t in texts if re.fullmatch(r"-[a-z]+", t))
    if "r" not in flags or not ("c" in flags or "d" in flags and "com.apple.quarantine" in texts):
        return None
    where = next((t for t in texts if _WHOLE.match(t)), None)
    if where is None:
        return None
    return MEDIUM, f"strips the quarantine mark from every application under {where}: Gatekeeper no longer checks " \
                   f"them ({c.text})"
