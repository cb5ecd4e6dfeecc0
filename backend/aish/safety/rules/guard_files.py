"""A logger told to throw records away (entries of ``meaning``'s table, read for redirects, ``tee``, editors and
interpreter code alike).

A syslog daemon's selector ending in ``~`` (the old discard action) or ``stop`` (``*.* ~``, ``auth,authpriv.* stop``,
``& stop`` after a filter) discards the records it selects from the next reload on: the trail an intrusion leaves,
the logins and sudo uses, is gone before anyone reads it.  Forwarding (``@@host:514``) and writing to a file stay
quiet.  (A line appended to a firewall's rule files is NOT flagged by default: adding an ACCEPT rule is routine;
``firewall_drops`` and ``guard_settings`` read what the line does.)
"""
from __future__ import annotations

import re

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import MEDIUM

FILES: list = [
    (lazy(r"^/etc/(rsyslog\.conf|rsyslog\.d/.+|syslog\.conf|syslog-ng/.+)$"),
     [(lazy(r"^\s*[\w*.,;!=]+\s+(~|stop)\s*$|^\s*&\s*(~|stop)\s*$", re.MULTILINE), MEDIUM,
       "the system's log records are thrown away from now on")], None, ""),
]
