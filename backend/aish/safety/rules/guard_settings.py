"""What a line means in the configuration of the machine's guards: firewalls, SELinux, fail2ban
(entries of ``meaning``'s table, read for redirects, ``tee``, editors and interpreter code alike).

A firewall is switched off by its own settings as surely as by ``ufw disable``: ``ENABLED=no`` in
``/etc/ufw/ufw.conf``, ``firewall_enable="NO"``/``pf_enable="NO"`` in a BSD's ``rc.conf``, firewalld's
``DefaultZone=trusted`` (every connection accepted); firewalld's ``DefaultZone=drop`` or ``block`` refuses
every connection the zone does not name, ssh among them.  SELinux set to ``disabled`` in
``/etc/sysconfig/selinux`` (the file RHEL links to ``/etc/selinux/config``), a fail2ban jail set
``enabled = false``: each takes effect at the next boot or reload, long after the command that wrote it.
"""
from __future__ import annotations

import re

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import HIGH, MEDIUM

_OFF = "switches the firewall off at every boot"
FILES: list = [
    (lazy(r"^/etc/ufw/ufw\.conf$"),
     [(lazy(r"^\s*ENABLED\s*[=\s]\s*[\"']?no\b", re.IGNORECASE | re.MULTILINE), MEDIUM, _OFF)], None, ""),
    (lazy(r"^/etc/(rc\.conf(\.local)?|rc\.conf\.d/.*)$"),
     [(lazy(r"^\s*(firewall|pf|ipfw|ipfilter|npf)_enable\s*=\s*[\"']?no\b", re.IGNORECASE | re.MULTILINE),
       MEDIUM, _OFF)], None, ""),
    (lazy(r"^/etc/firewalld/firewalld\.conf$"),
     [(lazy(r"^\s*DefaultZone\s*[=\s]\s*(drop|block)\s*$", re.IGNORECASE | re.MULTILINE), HIGH,
       "refuses every connection the zone does not name, ssh included: remote access stops at the next reload"),
      (lazy(r"^\s*DefaultZone\s*[=\s]\s*trusted\s*$", re.IGNORECASE | re.MULTILINE), MEDIUM,
       "accepts every connection: the firewall is off at the next reload")], None, ""),
    (lazy(r"^/etc/(sysconfig/selinux|selinux/config)$"),
     [(lazy(r"SELINUX\s*=\s*disabled"), HIGH, "switches SELinux off at the next boot: nothing is confined"),
      (lazy(r"SELINUX\s*=\s*permissive"), MEDIUM, "switches SELinux off")], None, ""),
    # exclusions and off switches in the scanners', auditors' and application controls' own files
    (lazy(r"^(/usr/local)?/etc/(clamav/[\w.-]+\.conf|clamd\.d/[\w.-]+\.conf|clamd\.conf)$"),
     [(lazy(r"^\s*(OnAccess)?Exclude(Path|Uname|UID|RootUID)\s+\S", re.IGNORECASE | re.MULTILINE), MEDIUM,
       "excludes files or users from virus scanning: what sits there is not looked at"),
      (lazy(r"^\s*(ScanOnAccess|OnAccessPrevention|ScanArchive|ScanPE|ScanELF|ScanOLE2|ScanPDF|ScanHTML)\s+"
            r"(no|false)\s*$", re.IGNORECASE | re.MULTILINE), MEDIUM,
       "switches a virus scanning check off")], None, ""),
    (lazy(r"^/etc/(aide/)?aide\.conf$|^/etc/aide/aide\.conf\.d/"),
     [(lazy(r"^\s*!/", re.MULTILINE), MEDIUM,
       "excludes a path from the integrity checker: a change there is never reported")], None, ""),
    (lazy(r"^/etc/fapolicyd/fapolicyd\.conf$"),
     [(lazy(r"^\s*permissive\s*=\s*1\b", re.MULTILINE), MEDIUM,
       "sets application control to permissive: programs it would stop run")], None, ""),
    (lazy(r"^/etc/default/ufw$"),
     [(lazy(r"^\s*DEFAULT_INPUT_POLICY\s*=\s*[\"']?ACCEPT", re.IGNORECASE | re.MULTILINE), MEDIUM,
       "makes the firewall accept every incoming connection at the next start")], None, ""),
    (lazy(r"^/etc/opt/microsoft/mdatp/managed/mdatp_managed\.json$"),
     [(lazy(r"\"(enforcementLevel|passiveMode)\"\s*:\s*(\"(passive|disabled)\"|true)", re.IGNORECASE), MEDIUM,
       "puts Defender in passive mode: it no longer blocks what it finds")], None, ""),
    (lazy(r"^/etc/fail2ban/(jail\.(local|conf)|jail\.d/.*)$"),
     [(lazy(r"^\s*enabled\s*[=\s]\s*(false|no|0)\s*$", re.IGNORECASE | re.MULTILINE), MEDIUM,
       "switches a fail2ban jail off: guessing passwords is no longer stopped")], None, ""),
]
