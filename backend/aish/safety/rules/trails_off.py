"""Effect: an audit trail switched off or deleted, for any tool: high, as a trace of who got in.

``records_erased`` raises to high the erasing of what says who got in (auth logs, login records, the audit logs,
the Security event log); switching the recording of it off loses the same, from now on.  The other rules of
the field (``monitors_off``, ``cloud_guards_off``, ``windows``, ``meaning``) find these at medium as one of many
products, services or guards; this reading raises the audit trails among them to high, whatever the tool:

- WHERE: the audit daemon and its rules (``auditd``, ``audisp``, ``auditctl``, macOS's ``com.apple.auditd`` and
  ``audit``), Windows' audit policy (``auditpol``), its event log service (``EventLog``) and its Security log, a
  cloud's trail (AWS ``cloudtrail``, Alibaba's ``actiontrail``, IBM's ``atracker``) and where a cloud sends its
  audit logs (``gcloud logging sinks``, ``az monitor diagnostic-settings``/``log-profiles``);
- THAT: stopped, disabled, masked, unloaded, killed, deleted or removed by any tool (``systemctl``, ``service``,
  ``chkconfig``, ``launchctl``, ``pkill``, ``sc``, ``net stop``, ``Stop-Service``, a cloud CLI's ``stop-logging``,
  ``delete-trail``, ``StopLogging``, ``delete``, ``--disabled``), the rules deleted (``auditctl -D``, ``-d``,
  ``-W``), auditing switched off (``auditctl -e 0``, ``audit -t``, ``auditpol /clear``, ``/remove``,
  ``/set … /success:disable``, ``wevtutil sl Security /e:false``).

Quiet: status and listings (``auditctl -l``, ``-s``, ``systemctl status auditd``, ``describe-trails``,
``sinks list``), starting and enabling (``start-logging``, ``auditctl -e 1``), a package's security audit
(``npm audit``, ``pip-audit``: not a trail).
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.programs import LIBRARY_PACKAGE_TOOLS
from aish.safety.rules.common import HIGH, Ctx
from aish.safety.rules.monitors_off import GENTLE_SIGNALS
from aish.safety.rules.triggers import triggered_by

_WORDS = ("audit", "trail", "atracker", "eventlog", "sinks", "diagnostic-settings", "log-profiles", "/e:false",
          "/enabled:false")
# A trail's name among a command's words (lowered, its folder and .service/.plist/.exe cut).
_TRAIL = lazy(r"^(?:auditd|auditrecords|audisp[-\w]*|com\.apple\.auditd|event-?log|cloudtrail|actiontrail|atracker|"
              r"diagnostic-settings|log-profiles|cloudaudit|(?:stop|delete|remove)-(?:\w+-)?trails?)$")
_OFF = frozenset({"stop", "onestop", "stop-logging", "disable", "--disabled", "mask", "kill", "pkill", "killall", "off",
                  "unload", "bootout", "delete", "delete-trail", "remove", "rm", "del", "taskkill", "stop-service",
                  "spsv", "disabled", "uninstall", "purge", "erase"})
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_QUIET = frozenset({"--help", "-h", "status", "list", "describe-trails", "get-trail-status", "start-logging", "show"})


def _name(word: str) -> str:
    base = word.lower().strip("'\"").replace("\\", "/").rsplit("/", 1)[-1].removesuffix(":default")
    for suffix in (".service", ".plist", ".exe", ".socket"):
        base = base.removesuffix(suffix)
    return base


@triggered_by(_WORDS, otherwise=False)
def may_switch_off(c: Ctx) -> bool:
    """Cheap: an audit trail's word on the line."""
    line = c.prog.lower() + " " + c.lowered
    return any(w in line for w in _WORDS)


def _own_words(prog: str, texts: list) -> Optional[str]:
    """The audit tools' own ways of switching auditing off or deleting its rules."""
    lowered = [t.lower() for t in texts]
    if prog == "auditctl":
        if set(texts) & {"-D", "-W", "-d"} or any(t == "-e" and n == "0" for t, n in zip(texts, texts[1:])):
            return "the audit rules deleted or auditing off"
        if any(t in ("-a", "-A") and "never" in n.lower().split(",") for t, n in zip(texts, texts[1:])):
            return "the audit system told to record nothing it matches"
    elif any(t.startswith("audit") and t.endswith(("_enable=no", "_enable=false", "_enable=0")) for t in lowered):
        return "the audit daemon disabled at boot"  # `sysrc auditd_enable=NO`
    elif prog == "audit" and "-t" in texts:
        return "the audit daemon told to stop"
    elif prog == "auditpol":
        if set(lowered) & {"/clear", "/remove"} or "/set" in lowered and any(t.endswith(":disable") for t in lowered):
            return "the audit policy cleared or disabled"
    elif prog == "wevtutil" and set(lowered[:1]) & {"sl", "set-log"} and "security" in lowered and \
            set(lowered) & {"/e:false", "/enabled:false"}:
        return "the Security event log disabled"
    return None


def rule_trail_off(c: Ctx) -> Optional[tuple]:
    """``systemctl stop auditd``, ``auditctl -D``, ``aws cloudtrail stop-logging``, ``net stop eventlog``."""
    prog = _name(c.prog)
    texts = c.texts[:24]
    said = _own_words(prog, texts)
    if said is None:
        words = [_name(prog)] + [_name(_CAMEL.sub("-", t)) for t in texts]
        if set(words) & _QUIET or set(words) & GENTLE_SIGNALS:  # `pkill -HUP auditd`: reopens its logs
            return None
        if prog in LIBRARY_PACKAGE_TOOLS:
            return None  # `gem uninstall paper_trail`: a library for an application's own audit log
        trail = next((w for w in words if _TRAIL.match(w)), None)
        if trail is None and "logging" in words and "sinks" in words:
            trail = "a logging sink"
        parts = {p for w in words for p in w.split("=")}
        off = parts & _OFF or {w for w in words if w.startswith(("stop-", "delete-", "remove-")) and
                               ("trail" in w or "audit" in w)}
        if trail is None or not off or trail == prog and not set(words[1:]) & _OFF:
            return None
        said = f"{trail}: {sorted(off)[0]}"
    return HIGH, f"switches off or deletes an audit trail ({said}): who does what from now on is not recorded " \
                 f"({c.text})"[:200]
