"""Effect: automatic (security) updates switched off, by any service manager, package tool or setting.

The services and timers that fetch and apply updates (``unattended-upgrades``, ``apt-daily-upgrade.timer``,
``dnf-automatic.timer``, ``yum-cron``, Windows Update's ``wuauserv``/``UsoSvc``) stopped, disabled, masked
or removed; macOS' automatic checks turned off (``softwareupdate --schedule off``, ``defaults write
…SoftwareUpdate AutomaticCheckEnabled -bool false``); Windows' ``NoAutoUpdate`` set; the periodic
settings zeroed in apt's configuration, an update server sent to 0.0.0.0 in the hosts file (read by
``meaning``).  The machine stops receiving fixes without anyone noticing.  Reading their state, enabling
them and restarting them stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.lazy_regex import lazy

TRIGGER = lazy(r"upgrade|automatic|yum-cron|wuauserv|usosvc|waasmedic|softwareupdate|autoupdate|apt-daily|"
               r"unattended|packagekit", re.IGNORECASE)
_UPDATERS = lazy(r"^(unattended-upgrades?|apt-daily(-upgrade)?|dnf-automatic[\w-]*|yum-cron|"
                 r"wuauserv|usosvc|waasmedicsvc|packagekit|packagekitd)(\.service|\.timer)?$", re.IGNORECASE)
_OFF = {"stop", "disable", "mask", "kill", "remove", "purge", "erase", "uninstall", "del", "autoremove",
        "stop-service", "disabled"}
_READS = {"status", "show", "is-enabled", "is-active", "list", "query", "qc", "info", "cat"}
_MAC_KEYS = lazy(r"\b(AutomaticCheckEnabled|AutomaticDownload|AutomaticallyInstallMacOSUpdates|"
                 r"CriticalUpdateInstall|ConfigDataInstall|AutoUpdate)\s+(-bool(ean)?\s+|-int(eger)?\s+)?"
                 r"(false|no|0)\b", re.IGNORECASE)
_WINDOWS_KEY = lazy(r"\bNoAutoUpdate\b\W+(?:\S+\s+){0,4}?(?:(?:-Value|/d|-v)\s+)?1\b", re.IGNORECASE)


def rule_updates_off(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    joined = " ".join(texts)
    if not TRIGGER.search(joined) and not TRIGGER.search(c.prog):
        return None
    lowered = [t.lower() for t in texts]
    if set(lowered) & _READS:
        return None
    prog = c.prog.lower().removesuffix(".exe")
    off = bool(set(lowered) & _OFF) or prog.startswith(("stop-", "disable-")) or \
        prog == "set-service" and "disabled" in lowered
    if off and any(_UPDATERS.match(t.strip("'\"")) for t in lowered):
        return MEDIUM, f"switches automatic updates off: security fixes stop arriving ({c.text})"
    if prog == "softwareupdate" and re.search(r"--schedule\s+off\b", joined) or \
            prog == "defaults" and "write" in lowered and _MAC_KEYS.search(joined) or \
            prog in ("reg", "set-itemproperty", "new-itemproperty", "sp") and _WINDOWS_KEY.search(joined):
        return MEDIUM, f"switches automatic updates off: security fixes stop arriving ({c.text})"
    return None


# apt's periodic settings zeroed, dnf-automatic told not to apply (read by `meaning`)
_UPDATE_NAME = lazy(r"(^|[.-])(update|updates|upgrade|windowsupdate|wustat|wsus|delivery|swscan|swdist|swcdn|"
                    r"mesu|definitionupdates|security|ntservicepack)([.-]|$)", re.IGNORECASE)


class _UpdatesBlocked:
    """A hosts line sending an operating system's update or security server to nowhere (0.0.0.0, 127.0.0.1)."""

    @staticmethod
    def search(text: str) -> str:
        from aish.safety.rules.resolution import well_known

        for line in text.splitlines()[:200]:
            parts = line.split("#", 1)[0].split()
            if len(parts) < 2 or not re.fullmatch(r"0\.0\.0\.0|127\.\d+\.\d+\.\d+|::1?|::", parts[0]):
                continue
            name = next((n for n in parts[1:] if well_known(n) and _UPDATE_NAME.search(n.lower())), None)
            if name:
                return name
        return ""


FILES = [
    (re.compile(r"^/etc/hosts$"), [(_UpdatesBlocked, MEDIUM, "blocks the system's update servers by name: security "
                                                             "fixes stop arriving")], None, ""),
    (re.compile(r"^/etc/apt/apt\.conf(\.d/.*)?$"),
     [(re.compile(r"APT::Periodic::(Unattended-Upgrade|Update-Package-Lists)\s+\"?0\"?", re.IGNORECASE), MEDIUM,
       "switches automatic updates off: security fixes stop arriving")], None, ""),
    (re.compile(r"^/etc/dnf/automatic\.conf$|^/etc/yum/yum-cron\.conf$"),
     [(re.compile(r"^\s*(apply_updates|download_updates)\s*=\s*(no|false|0)\b", re.IGNORECASE | re.MULTILINE), MEDIUM,
       "switches automatic updates off: security fixes stop arriving")], None, ""),
]
