"""A logger told to throw records away (entries of ``meaning``'s table, read for redirects, ``tee``, editors and
interpreter code alike).

A syslog daemon's selector ending in ``~`` (the old discard action) or ``stop`` (``*.* ~``, ``auth,authpriv.* stop``,
``& stop`` after a filter) discards the records it selects from the next reload on: the trail an intrusion leaves,
the logins and sudo uses, is gone before anyone reads it.  The servers' own switches do the same for what
they record: sshd's ``LogLevel QUIET``, auditd's ``write_logs = no``, sudoers' ``Defaults !syslog`` (high: who
got in or became root), nginx's ``access_log off``, Apache's ``CustomLog /dev/null`` (medium).  Forwarding
(``@@host:514``) and writing to a file stay quiet.  (A line appended to a firewall's rule files is NOT flagged by
default: adding an ACCEPT rule is routine; ``firewall_drops`` and ``guard_settings`` read what the line does.)
"""
from __future__ import annotations

import re

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import HIGH, MEDIUM

FILES: list = [
    (lazy(r"^/etc/(rsyslog\.conf|rsyslog\.d/.+|syslog\.conf|syslog-ng/.+)$"),
     [(lazy(r"^\s*[\w*.,;!=]+\s+(~|stop)\s*$|^\s*&\s*(~|stop)\s*$", re.MULTILINE), MEDIUM,
       "the system's log records are thrown away from now on")], None, ""),
    # the servers' own records of who got in and what they did (session 19, lane traces)
    (lazy(r"^/etc/ssh/sshd_config(\.d/.*)?$"),
     [(lazy(r"^\s*LogLevel\s*[= ]\s*(QUIET|FATAL)\b", re.IGNORECASE | re.MULTILINE), HIGH,
       "sshd stops logging logins: who got in leaves no record")], None, ""),
    (lazy(r"^/etc/audit/auditd\.conf$"),
     [(lazy(r"^\s*(write_logs\s*=\s*no|log_format\s*=\s*nolog)\b", re.IGNORECASE | re.MULTILINE), HIGH,
       "auditd writes no audit log from now on")], None, ""),
    (lazy(r"^(/private)?/etc/sudoers(\.d/.*)?$"),
     [(lazy(r"^\s*Defaults\b[^\n]*!\s*syslog\b", re.MULTILINE), HIGH,
       "sudo stops logging who became root")], None, ""),
    (lazy(r"^/etc/(nginx|openresty)/.+$"),
     [(lazy(r"^\s*access_log\s+off\s*;", re.MULTILINE), MEDIUM, "the web server keeps no record of requests")],
     None, ""),
    (lazy(r"^/etc/(apache2|httpd)/.+$"),
     [(lazy(r"^\s*(CustomLog|TransferLog)\s+\"?/dev/null", re.IGNORECASE | re.MULTILINE), MEDIUM,
       "the web server keeps no record of requests")], None, ""),
]
