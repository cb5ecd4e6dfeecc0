"""Effect: a Windows service that protects, records, backs up or serves, stopped or switched off, in every spelling.

The same act is written many ways: ``net stop NAME [/y]``, ``sc [\\\\host] stop|pause NAME``, ``sc config NAME
start= disabled``, ``Stop-Service [-Name] NAME``, ``spsv``, ``Suspend-Service``, ``Set-Service NAME -Status
Stopped`` or ``-StartupType Disabled``; and the service by its short name (``WinDefend``, ``VSS``,
``MSSQLSERVER``) or its display name (``"Windows Defender Antivirus Service"``, ``"Windows Event Log"``,
``"SQL Server (MSSQLSERVER)"``).  What stops decides:

- protection, updates, the event log and the shadow copy and backup services: medium (what ransomware
  stops first: protection off, no record, no restore point);
- database, mail, directory, file-sharing and virtualisation servers: medium (every client loses it); a web
  server with what depends on it (``/y``, ``-Force``).

Other services (``Spooler``, one's own dev service) stay quiet, as do a restart and every query.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.winpaths import typed_text
from aish.safety.lazy_regex import lazy

# Short names and display names of the services whose stop leaves the machine unprotected, unrecorded or
# without its own backups.
_GUARDS = lazy(r"^(windefend|wdnissvc|wdboot|wdfilter|sense|mpssvc|securityhealthservice|wscsvc|"
               r"wuauserv|usosvc|waasmedicsvc|bits|eventlog|sysmon\w*|vss|swprv|sdrsvc|wbengine|"
               r"cryptsvc|bfe|appidsvc|trustedinstaller|"
               r"(microsoft |windows )?defender\b.*|.*\bantivirus\b.*|windows (defender )?firewall.*|"
               r"windows update.*|windows event log|security center|volume shadow copy|"
               r"microsoft software shadow copy provider|block level backup engine service|"
               r"windows backup|background intelligent transfer service|base filtering engine|"
               r"cryptographic services|windows security service)$", re.IGNORECASE)
# Data stores, directories, file sharing and hypervisors: every client loses what they hold.
_SERVERS = lazy(r"^(mssql\$?\w*|sqlserveragent|sqlagent\$?\w*|mysql\w*|"
                r"mariadb|postgresql[\w-]*|oracle\w*|msexchange\w*|ntds|dns|dhcpserver|kdc|netlogon|"
                r"mongodb|redis|elasticsearch[\w-]*|rabbitmq|clussvc|vmms|lanmanserver|"
                r"sql server( agent)? \(.*\)|"
                r"active directory domain services|dns server|dhcp server|hyper-v virtual machine management|"
                r"microsoft exchange.*|server|cluster service)$", re.IGNORECASE)
# Web servers: stopped with what depends on them (`/y`, `-Force`), as a web server's plain stop is everyday.
_WEB = lazy(r"^(w3svc|was|iisadmin|tomcat\w*|apache\w*|nginx|world wide web publishing service|"
            r"windows process activation service)$", re.IGNORECASE)


def _names(c: Ctx, after: int) -> list:
    """The service names given, as typed (a display name in quotes is one name)."""
    out: list = []
    k = after
    while k < len(c.args):
        t = c.texts[k].lower()
        if t in ("-name", "-displayname", "-inputobject", "-servicename"):
            k += 1
            continue
        if t.startswith(("-", "/")) or t.endswith("=") or "=" in t:
            k += 2 if t in ("-startuptype", "-status", "-computername", "start=", "-description") else 1
            continue
        out.extend(n.strip().strip("'\"") for n in typed_text(c.args[k]).split(","))
        k += 1
    return [n for n in out if n and not n.startswith("\\\\")]


def rule_service_stopped(c: Ctx) -> Optional[tuple]:
    """A protecting, recording, backing-up or serving service stopped, paused or disabled."""
    prog = c.prog.lower().removesuffix(".exe")
    lowered = [t.lower() for t in c.texts]
    if prog == "net":
        names = _names(c, 1) if lowered[:1] in (["stop"], ["pause"]) else []
    elif prog == "sc":
        k = 1 if c.args and c.args[0].raw.startswith("\\\\") else 0
        verb = lowered[k] if k < len(lowered) else ""
        disabled = verb == "config" and re.search(r"start=\s*disabled", " ".join(lowered))
        names = _names(c, k + 1)[:1] if verb in ("stop", "pause") or disabled else []
    elif prog in ("stop-service", "spsv", "suspend-service"):
        names = _names(c, 0)
    elif prog == "set-service" and re.search(r"-(startuptype|status)\s*:?\s*['\"]?(disabled|stopped|paused)",
                                             " ".join(lowered)):
        names = _names(c, 0)
    else:
        return None
    guard = next((n for n in names if _GUARDS.match(n)), None)
    if guard is not None:
        return MEDIUM, f"stops or disables {guard}: protection, updates, the event log or backups stop ({c.text})"
    forced = "/y" in lowered or "-force" in lowered
    server = next((n for n in names if _SERVERS.match(n) or forced and _WEB.match(n)), None)
    if server is not None:
        return MEDIUM, f"stops or disables {server}: every client of it loses it ({c.text})"
    return None


RULES: dict = {p: [rule_service_stopped] for p in ("net", "net.exe", "sc", "sc.exe", "stop-service", "spsv",
                                                   "suspend-service", "set-service")}
