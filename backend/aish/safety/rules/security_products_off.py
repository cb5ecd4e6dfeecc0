"""Effect: a security product switched off or blinded, for any product known by the words of its name.

Antivirus and EDR agents (``mdatp``, ``falconctl``, ``sentinelctl``, Sophos' ``savdctl``/``savconfig``,
``clamonacc``, ``wazuh-control``, Carbon Black's ``repcli``, Trend's ``dsa_control``, Cortex' ``cytool``),
host firewalls (``SuSEfirewall2``, OpenWrt's ``fw3``, ``ipchains``, ``ebtables``, ``shorewall``, ``csf``,
``apf``), mandatory access control (AppArmor's ``aa-*``) and audit daemons, told in their own words to stop
looking:

- a verb that switches them off (``off``, ``disable``, ``stop``, ``unload``, ``unprotect``, ``bypass 1``,
  ``teardown``), a firewall flushed (``flush``, ``-F``, ``clear``) or its policy set to accept
  (``ipchains -P input ACCEPT``);
- a protection setting given its off value (``savconfig set LiveProtection false``,
  ``dsa_control --selfprotect=0``);
- an exclusion added: of the whole machine (``mdatp exclusion folder add --path /``, high: nothing is scanned
  any more), of a path, a process or an extension (``mdatp exclusion process add --name bash``, medium);
  a build cache's exclusion stays quiet (``defences.exclusion_level``);
- every SELinux denial turned into a rule (``audit2allow -a -M all``, or fed every denial of the log,
  then ``semodule -i``): what the policy stopped is allowed.

Their everyday forms stay quiet: status, health, version, scans, updates, starting and reloading, an
exclusion of a build folder, a module built from one program's denials.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import HIGH, MEDIUM, Ctx, fragment
from aish.safety.rules.defences import CONTROLS as _PRODUCT, FIREWALL_CONTROLS as _FIREWALL
from aish.safety.rules.defences import exclusion_level, family_of
from aish.safety.rules.triggers import triggered_by

# Verbs that switch a product off, and their option spellings.
_OFF = frozenset({"off", "disable", "stop", "unload", "unprotect", "bypass", "teardown", "kill", "pause", "suspend",
                  "--disable", "--stop", "--unload", "--off", "-disable", "-stop", "--unprotect", "--bypass",
                  "--kill", "unprotect-all", "uninstall", "--uninstall", "-uninstall"})
_OFF_PREFIXES = ("--stop-", "--disable-", "--unload-", "-stop-", "-disable-")
_FLUSH = frozenset({"flush", "-f", "--flush", "clear", "-x"})  # `csf -x`: disable; `apf -f`: flush
_VALUES_OFF = frozenset({"false", "0", "no", "off", "disabled", "disable", "none"})
_PROTECTS = LazyRegex(r"protect|prevent|"
                      r"(^|[-_])(on-?access|real-?time|tamper|enforc\w*|shield)"
                      r"([-_ ]?(scan\w*|enabled?|mode|protection))?$",
                      re.IGNORECASE)
# A mode that watches without stopping: audit-only, detect-only, passive, permissive, complain, learning.
_MODE = LazyRegex(r"mode|enforcement|prevention|policy|action", re.IGNORECASE)
_WATCH_ONLY = frozenset({"audit", "auditmode", "audit-only", "audit_only", "detect", "detection", "detect-only",
                         "detectonly", "passive", "permissive", "complain", "monitor", "monitoring", "learning",
                         "report", "report-only", "reportonly", "log", "log-only", "logonly", "alert", "alert-only"})
_PASSIVE = LazyRegex(r"passive|permissive|audit[-_]?only|detect[-_]?only", re.IGNORECASE)
_EXCLUDES = LazyRegex(r"exclu|whitelist|allowlist|ignore", re.IGNORECASE)
_ADDS = frozenset({"add", "--add", "set", "create", "new", "append", "insert", "exclude", "whitelist", "allowlist"})
# The words of an exclusion's own command, around what it excludes.
_EXCLUSION_WORDS = frozenset({"exclusion", "exclusions", "folder", "file", "path", "process", "extension", "add", "set",
                              "create", "new", "append", "insert", "config", "exclude", "whitelist", "allowlist",
                              "sudo", "--add"})
_READS = frozenset({"status", "health", "version", "--version", "-v", "list", "-l", "-L", "show", "info", "--status",
                    "help", "--help", "-h", "start", "reload", "restart", "scan", "update", "check", "log", "logs"})
# Service managers, and their verbs that stop or unload a service.
_SERVICE_MANAGERS = frozenset({"launchctl", "systemctl", "service", "rc-service", "sc", "svcadm", "stop-service",
                               "sv", "initctl", "rcctl", "spsv", "set-service", "net", "net1", "dinitctl", "herd",
                               "rc-update", "update-rc.d", "chkconfig", "nssm", "supervisorctl"})
# Managers whose name is the verb (`Stop-Service -Name X`), or whose option says it (`Set-Service … -StartupType
# Disabled`, `update-rc.d X disable`, `chkconfig X off`).
_VERB_NAMED = frozenset({"stop-service", "spsv"})
_SETS_OFF = frozenset({"disabled", "stopped", "disable", "off", "del", "remove"})
_SERVICE_OFF = frozenset({"unload", "bootout", "stop", "disable", "mask", "kill", "remove", "-w", "delete"})
# What feeds audit2allow every denial: the whole log, or AVC records of every program.
_EVERY_DENIAL = LazyRegex(r"^(sudo )?((grep|egrep) (-\w+ )*['\"]?(denied|avc|type=avc)['\"]? \S*audit\.log|"
                          r"cat \S*audit\.log|"
                          r"ausearch\b(?!.*\s-(c|x|p|-comm|-executable)\b))", re.IGNORECASE)


@triggered_by(_PRODUCT, otherwise=False)
def may_be_product(c: Ctx) -> bool:
    """Is the program a security product, by its name?"""
    name = _name(c.prog)
    return bool(_PRODUCT.search(name)) or name in _SERVICE_MANAGERS and any(_PRODUCT.search(t) for t in c.texts)


def rule_product_off(c: Ctx) -> Optional[tuple]:
    name = _name(c.prog)
    texts = c.texts
    lowered = [t.lower() for t in texts]
    if name in _SERVICE_MANAGERS and not _PRODUCT.search(name):
        return _product_service_stopped(c, lowered)
    if name == "audit2allow":
        return None  # read on the whole line, with the module's install: every_denial_installed
    if not texts or lowered[0] in _READS and not set(lowered) & {"exclusion", "exclusions"}:
        return None
    stop_option = next((t for t in lowered if t.startswith(_OFF_PREFIXES)), None)  # `kesl-control --stop-t 1`
    if set(lowered[:3]) & _OFF or stop_option:
        verb = stop_option or next(t for t in lowered if t in _OFF)
        family = family_of(name)
        if "uninstall" in verb and family is not None and family.agent:
            return HIGH, f"{c.prog} {verb} removes the {family.what} agent: the machine is no longer watched or " \
                         f"protected ({c.text})"
        return MEDIUM, f"{c.prog} {verb}: the security product stops protecting this machine ({c.text})"
    if _FIREWALL.search(name) and lowered[:1] and lowered[0] in _FLUSH:
        return MEDIUM, f"{c.prog} {texts[0]} empties the firewall's rules: every packet passes ({c.text})"
    if _FIREWALL.search(name) and "-p" in lowered and "accept" in lowered:
        return MEDIUM, f"{c.prog} sets the firewall's policy to accept everything ({c.text})"
    for key, value in _settings(texts):
        if _PROTECTS.search(key) and value.lower() in _VALUES_OFF:
            return MEDIUM, f"{c.prog} sets {key} to {value}: the protection it names is switched off ({c.text})"
        if _MODE.search(key) and value.lower().strip("'\"") in _WATCH_ONLY or \
                _PASSIVE.search(key) and value.lower() in ("enabled", "enable", "true", "1", "on", "yes"):
            return MEDIUM, f"{c.prog} sets {key} to {value}: it only reports what it would have stopped ({c.text})"
    if any(_EXCLUDES.search(t) for t in lowered) and set(lowered) & _ADDS:
        return _excluded(c, texts)
    return None


def _excluded(c: Ctx, texts: list) -> Optional[tuple]:
    """An exclusion added (``mdatp exclusion folder add --path /tmp``, ``savconfig add ExcludeFilePaths /home/``):
    the whole machine is high, a build cache quiet, any other path, process or extension medium."""
    targets = [t for t in texts if not t.startswith("-") and t.lower() not in _EXCLUSION_WORDS and
               not _EXCLUDES.search(t)]
    if not targets:
        return None
    level, target = max((exclusion_level(t), t) for t in targets)
    if level == 2:
        return HIGH, f"{c.prog} excludes the whole machine from scanning: nothing is looked at any more ({c.text})"
    if level == 1:
        return MEDIUM, f"{c.prog} excludes {target} from scanning: what sits there or runs as it is not looked at " \
                       f"({c.text})"
    return None


def _product_service_stopped(c: Ctx, lowered: list) -> Optional[tuple]:
    """``launchctl unload /Library/LaunchDaemons/com.crowdstrike.falcond.plist``: the product's own service."""
    name = _name(c.prog)
    if not set(lowered[:2]) & _SERVICE_OFF and name not in _VERB_NAMED and \
            not (name in ("set-service", "update-rc.d", "chkconfig", "rc-update") and set(lowered) & _SETS_OFF):
        return None
    product = next((t for t in c.texts if _PRODUCT.search(t.rsplit("/", 1)[-1])), None)
    if product is None:
        return None
    return MEDIUM, f"{c.prog} stops the security product's service ({product}): it no longer protects this " \
                   f"machine ({c.text})"


def every_denial_installed(text: str, segs: list) -> Optional[tuple]:
    """``audit2allow -a -M all && semodule -i all.pp``: a module made of every denial on record, installed on
    the same line (built alone, or from one program's denials, it is how a policy is fixed, and stays quiet)."""
    if "audit2allow" not in text or "semodule" not in text:
        return None
    built = ""
    for k, seg in enumerate(segs):
        texts = [w.text for w in seg.words]
        if texts[:1] == ["sudo"]:
            texts = texts[1:]
        if texts[:1] == ["audit2allow"]:
            fed = " ".join(w.text for w in segs[k - 1].words) if k and seg.link in ("|", "|&") else ""
            every = "-a" in texts or "--all" in texts or bool(fed and _EVERY_DENIAL.search(fed))
            name = next((texts[i + 1] for i, t in enumerate(texts[:-1]) if t in ("-M", "--module")), "")
            name = name or next((t[2:] for t in texts if t.startswith("-M") and len(t) > 2), "")
            built = name if every and name else built
        elif texts[:1] == ["semodule"] and built and any(t.startswith(built) and t.endswith(".pp") for t in texts):
            return MEDIUM, "installs a policy module that allows every SELinux denial on record: what the policy " \
                           f"stopped is let through ({fragment(texts)})"
    return None


def _settings(texts: list) -> list:
    """(name, value) pairs: `--key=value`, `key=value`, `set KEY VALUE`, `KEY --value VALUE`."""
    out = []
    for k, t in enumerate(texts):
        if "=" in t:
            key, _, value = t.lstrip("-").partition("=")
            out.append((key, value))
        elif k + 1 < len(texts) and not texts[k + 1].startswith("-"):
            nxt = texts[k + 1]
            if t in ("--value", "-value", "-v") and k:
                out.append((texts[k - 1], nxt))
            elif k + 2 == len(texts) and not t.startswith("-") and t.lower() not in ("set", "config"):
                out.append((t, nxt))
    return out


def _name(prog: str) -> str:
    return re.sub(r"\.(exe|sh)$", "", prog.rsplit("/", 1)[-1].rsplit("\\", 1)[-1], flags=re.IGNORECASE).lower()
