"""Effect: a record-keeping log switched off by a setting, in any tool's words.

Stopping the logger's service is ``monitors_off``' and ``trails_off``' to judge, and a syslog selector that throws
records away is ``guard_files``'; servers, databases and clouds also keep their records of who did what by a
setting of their own, and a setting switches them off:

- a key or option naming a record (``access_log``, ``httpLogging``, ``general_log``, ``log_statement``,
  ``log_connections``, ``audit_log``, ``flow-logs``, ``web-server-logging``, ``logFile.enabled``) given nothing or
  off (``off``, ``false``, ``0``, ``none``, ``$false``), a negative key given yes (IIS's ``dontLog``, MySQL's
  ``sql_log_off``), a negative option (``--no-enable-logging``, ``--no-enable-flow-logs``), in any spelling a command
  line gives them: ``/dontLog:true`` (``appcmd``), ``-Name dontLog -Value True`` (``Set-WebConfigurationProperty``),
  ``Key=access_logs.s3.enabled,Value=false`` (a cloud's attribute pairs), ``--web-server-logging off``,
  ``SET GLOBAL general_log = 'OFF'`` and ``ALTER SYSTEM SET log_statement = 'none'`` in a client's SQL;
- a bucket's access logging given an empty status (``put-bucket-logging --bucket-logging-status {}``);
- macOS' unified log told to keep nothing (``log config --mode level:off``, ``persist:off``);
- the trace session that feeds Windows' event log stopped or emptied (``logman stop EventLog-System -ets``);
- a database's audit switched off (``NOAUDIT``, ``ALTER SERVER AUDIT … STATE = OFF``, ``DROP SERVER AUDIT``,
  ``pgaudit.log = 'none'``): high, as an audit trail.

Medium otherwise.  Quiet: a tool's own verbosity (``--log-level off``, ``RUST_LOG=off``: no record of anyone),
logging switched on (``general_log = 'ON'``, ``dontLog:false``), reading (``log show``, ``log config --status``,
``logman query``).
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

_WORDS = ("dontlog", "_log", "log_", "logging", "logfile", "logman", "audit", "log config", "flow-logs", "syslog")
# A key that names a record kept of requests, statements, connections or flows (lowered, dashes and dots kept).
_RECORD_KEY = lazy(r"(?:access|http|request|general|statement|query|connection|flow|audit|web-?server|server|"
                   r"transaction|activity|security)[-_.]?log(?:s|ging|file)?\b|logfile\.enabled|^log_(?:statement|"
                   r"connections|disconnections|hostname)$|^pgaudit\.log$")
_NEGATIVE_KEY = lazy(r"^(?:dontlog|sql_log_off|nolog)$")
_NEGATIVE_OPTION = lazy(r"^--no-enable-(?:flow-)?log(?:s|ging)$|^--no-(?:access-|flow-)?log(?:s|ging)$|"
                        r"^--(?:disable|no)-[\w-]*sink$")
# An audit's switch, as a cmdlet's parameter or a key: `-AuditEnabled $false`, `-AuditDisabled $true`,
# `-UnifiedAuditLogIngestionEnabled $false`, `-AuditBypassEnabled $true`.
_AUDIT_SWITCH = lazy(r"audit\w*(enabled|disabled)$")
_OFF = frozenset({"off", "false", "0", "none", "no", "disabled", "$false", "{}", "''", "\"\"", ""})
_ON = frozenset({"on", "true", "1", "yes", "$true", "enabled"})
_SQL_OFF = lazy(r"\b(general_log|log_statement|pgaudit\.log|audit_log\w*|log_connections|log_disconnections|"
                r"server_audit_logging)\s*(?:=|\bto\b)\s*['\"]?(off|none|0|false)\b|\bsql_log_off\s*=\s*['\"]?(on|1)\b|"
                r"\bnoaudit\s+\w|\bserver\s+audit\b[^;]*\bstate\s*=\s*off|\bdrop\s+(?:server|database)\s+audit\b",
                re.IGNORECASE)
_PAIR = lazy(r"key=([\w.:-]+),\s*value=([^,\s]*)", re.IGNORECASE)
# Where a system logger or an audit writes (`--logdir`, `Syslog.global.logDir`, `audit_log_file`), given nothing.
_DESTINATION_KEY = lazy(r"log[-_]?(?:dir|file|path|host)$|logdir$")
_NOTHING = frozenset({"/dev/null", "nul", "", "none", "''", "\"\""})


@triggered_by(_WORDS, otherwise=False)
def may_switch_off(c: Ctx) -> bool:
    """Cheap: a log's or an audit's word on the line."""
    line = c.prog.lower() + " " + c.lowered
    return any(w in line for w in _WORDS)


def _key_off(key: str, value: str) -> bool:
    key = key.lower().lstrip("-/").rsplit("/", 1)[-1]
    value = value.strip().strip("'\"").lower()
    if _NEGATIVE_KEY.match(key):
        return value in _ON
    return bool(_RECORD_KEY.search(key)) and value in _OFF and "level" not in key


def _settings_off(texts: list) -> Optional[str]:
    """A record's key given off in the command line's spellings (``/k:v``, ``k=v``, ``--k v``, ``-Name k -Value v``,
    ``Key=k,Value=v``), or a negative option."""
    lowered = [t.lower() for t in texts]
    if "-name" in lowered and "-value" in lowered[:-1]:
        name = lowered[lowered.index("-name") + 1] if lowered.index("-name") + 1 < len(lowered) else ""
        if _key_off(name, lowered[lowered.index("-value") + 1]):
            return f"{name} set to {lowered[lowered.index('-value') + 1]}"
    for k, t in enumerate(lowered):
        if _NEGATIVE_OPTION.match(t):
            return t
        audit = _AUDIT_SWITCH.search(t.lstrip("-").split(":", 1)[0]) if t.startswith("-") and "audit" in t else None
        if audit and k + 1 < len(lowered) or audit and ":" in t:
            value = t.split(":", 1)[1] if ":" in t else lowered[k + 1]
            value = value.strip("'\"")
            negative = audit.group(1) == "disabled" or "bypass" in t
            if value in (_ON if negative else _OFF):
                return f"{texts[k]} {value}"
        for key, value in _PAIR.findall(t):
            if _key_off(key, value):
                return f"{key}={value}"
        for sep in (":", "="):
            if sep in t and t[:1] in "-/" or sep == "=" and "=" in t and "://" not in t:
                key, _, value = t.partition(sep)
                if key and _key_off(key, value):
                    return t
        if t.startswith("--") and k + 1 < len(lowered) and "=" not in t and _key_off(t, lowered[k + 1]):
            return f"{t} {lowered[k + 1]}"
    return None


def _destination_nothing(lowered: list) -> Optional[str]:
    """A system logger's or an audit's destination given nothing (``esxcli system syslog config set
    --logdir=/dev/null``, ``vim-cmd hostsvc/advopt/update Syslog.global.logDir string /dev/null``); a tool's own log
    file (``--log-file=/dev/null``) is its own business: the line must name the syslog or an audit."""
    if not any("syslog" in t or "audit" in t for t in lowered):
        return None
    for k, t in enumerate(lowered):
        key, eq, value = t.lstrip("-").partition("=")
        if not _DESTINATION_KEY.search(key.rsplit(".", 1)[-1]):
            continue
        values = [value] if eq else lowered[k + 1:k + 3]
        if any(v.strip("'\"") in _NOTHING - {""} or eq and v == "" for v in values):
            return f"{t} {'' if eq else ' '.join(lowered[k + 1:k + 3])}".strip()
    return None


def rule_logging_off(c: Ctx) -> Optional[tuple]:
    """``appcmd set config … /dontLog:true``, ``log config --mode level:off``, ``logman stop EventLog-System``,
    ``mysql -e "SET GLOBAL general_log = 'OFF'"``, ``aws elbv2 … Key=access_logs.s3.enabled,Value=false``."""
    prog = c.prog.lower().rsplit("/", 1)[-1].rsplit("\\", 1)[-1].removesuffix(".exe")
    texts = c.texts[:32]
    lowered = [t.lower() for t in texts]
    if set(lowered) & {"--help", "-h", "/?", "show", "query", "--status", "stream"}:
        return None
    said = None
    if prog == "log" and lowered[:1] == ["config"] and \
            any(m in t for t in lowered for m in ("level:off", "persist:off")):
        said = "macOS' unified log told to keep nothing"
    elif prog == "logman" and set(lowered[:1]) & {"stop", "delete", "update"} and \
            any(t.startswith("eventlog-") for t in lowered) and (lowered[0] != "update" or "--p" in lowered):
        said = "the trace session feeding the event log stopped"
    elif "--bucket-logging-status" in lowered[:-1] and \
            lowered[lowered.index("--bucket-logging-status") + 1].replace(" ", "") in ("{}", "''"):
        said = "the bucket's access logging emptied"
    sql = _SQL_OFF.search(" ".join(texts)) if said is None and ("log" in c.lowered or "audit" in c.lowered) else None
    if sql is not None:
        audit = "audit" in sql.group(0).lower()
        return (HIGH if audit else MEDIUM), f"switches a database's {'audit' if audit else 'log'} off " \
            f"({sql.group(0)}): what is done from now on is not recorded ({c.text})"[:200]
    said = said or _settings_off(texts) or _destination_nothing(lowered)
    if said is None:
        return None
    level = HIGH if "audit" in said.lower() or "security" in c.lowered and "eventlog" in c.lowered else MEDIUM
    return level, f"switches a log of what is done off ({said}): requests, statements or events are not recorded " \
                  f"from now on ({c.text})"[:200]
