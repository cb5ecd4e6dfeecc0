"""Effect: a setting named in one word and given its value in another, judged by what the pair means.

The tables of weak and breaking settings (``baseline_values``, ``kernel_breaks``, ``boot_args``,
``protections_off``) read ``NAME=VALUE`` as one word.  Configuration tools, appliance and vendor CLIs
spell the same pair in separate words, and a program no rule names says it the same way as one that
has a rule:

- ``key=NAME value=VALUE`` (``pyinfra … server.sysctl key=kernel.randomize_va_space value=0``);
- ``-Name NAME -Value VALUE`` and ``--key NAME --value VALUE`` (``Set-DbaSpConfigure -Name
  XPCmdShellEnabled -Value 1``);
- ``NAME = VALUE`` in three words (``svccfg -s ssh setprop general/enabled = false``);
- a setting verb followed by the name and the value (``set``, ``setprop``, ``setenv``, ``regsetval``,
  ``setvar``; or a program named for one, ``fw_setenv bootargs '… init=/bin/sh'``).

The pair is then judged as the one word would be: a kernel hardening switch or a breaking kernel
setting (``kernel.randomize_va_space 0``), a kernel command line into a root shell or with a protection
off, a protection's switch set off (``…security.enabled false``), a weakness switched on (``xp_cmdshell``,
``PermitRootLogin``, ``DisableAntiSpyware``), a login turned away (``login=false``, ``account_locked=true``)
or let in without asking (``ttylogin=0``).  The same settings given their protective values, reading
them, and names of no meaning stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules import baseline_values, boot_args, kernel_breaks
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_SET_VERBS = frozenset({"set", "/set", "-set", "setprop", "setenv", "regsetval", "setvar", "set-option", "setopt",
                        "setparam", "setval", "set-value", "setvalue", "set-property", "setproperty", "config-set"})
_NAME_OPTIONS = frozenset({"-name", "--name", "-valuename", "--valuename", "-propertyname", "--key", "-key", "key",
                           "name", "--setting", "-setting",
                           "--property", "-property", "--param", "--parameter", "-parameter", "--variable",
                           "option", "--option", "setting", "property", "variable", "param", "--policy", "-policy",
                           "--account-policy"})
# Programs whose short options name a setting and give its value (Samba's `pdbedit -P "min password length" -C 0`,
# the short forms of `--account-policy NAME --value N`).
_SHORT_PAIRS = {"pdbedit": ("-p", "-c")}
_VALUE_OPTIONS = frozenset({"-value", "--value", "-val", "--val", "value", "val", "-configvalue", "--to", "-to"})
_READS = frozenset({"get", "show", "list", "print", "getprop", "listprop", "query", "read", "--get", "--list",
                    "describe", "test", "status", "check", "verify", "export", "dump", "info"})
_BOOT_NAMES = lazy(r"^(bootargs|boot[-_]?args|kernelopts|kernel[-_]?opts|kernel[-_]?cmdline|cmdline|"
                   r"kargs|extra[-_]?args|append|kernel[-_]?args|boot[-_]?options|grub_cmdline_linux"
                   r"(_default)?|optargs|mmcargs|linux[-_]?args)$", re.IGNORECASE)
_TAKEN_AWAY = ("--remove", "--delete", "--unset", "unset", "remove", "delete", "del", "-r", "--del")
_BUILDS = lazy(r"configure|autogen|cmake|meson|bootstrap|make|setup\.py|pip|cargo|build")
_AUDIT_KEY = lazy(r"^audit(ing|d|log|logging|policy|mode|trail)?[-_]?(enabled?|on|state)?$")
# Group policies titled for switching a protection off (``Turn off Microsoft Defender Antivirus``), set Enabled.
_POLICY_OFF = lazy(r"^(turn off|disable|do not (allow|scan|check|send|use)|prevent|remove)\b.*\b(defender|"
                   r"antivirus|anti-?spyware|firewall|smartscreen|real-?time|tamper|uac|user account control|"
                   r"audit\w*|bitlocker|automatic updates?|windows update|signature|script scanning|"
                   r"behavior monitoring|credential guard|virtualization based security|lsa protection)")
_CMDLET_NAME = lazy(r"^(set|new|add|update|enable|disable|register|grant|install|edit|invoke|start|stop|"
                    r"suspend|remove|clear|reset|import|initialize|switch|use|write)-[a-z]", re.IGNORECASE)
_VALUE_WORDS = frozenset({"false", "$false", "0", "no", "off", "disabled", "disable", "none", "true", "$true", "1",
                          "yes", "on", "enabled", "enable", "y", "deny", "drop", "reject", "permit", "allow", "never"})
_SWITCH_OPTION = lazy(r"^--?(enable|disable)[-_]([a-z][\w-]*)$")
_REMOTE_SWITCH = re.compile(r"^(ssh|sshd|openssh|rdp|winrm|telnet|remote[-_]?desktop)[-_]?(enabled?|start|service|"
                            r"run|on|allowed|server)?$")
_MIN_LENGTH = re.compile(r"^(min(imum)?[-_]?password[-_]?length|minpasswordlength|minpwlen|minlen|minlength|"
                         r"pass_min_len|password[-_]?min[-_]?length)$")
_LOCKOUT = lazy(r"^(lockout[-_]?threshold|lockoutbadcount|deny|max[-_]?(login|auth)[-_]?(tries|attempts|"
                r"retries)|bad[-_]?lockout[-_]?attempts?)$")
_DEFAULT_IN = re.compile(r"^(default[-_]?(inbound[-_]?)?(action|policy)|input[-_]?policy|inbound[-_]?policy|"
                         r"default[-_]?incoming|input)$")
_OFF = frozenset({"false", "$false", "0", "no", "off", "disabled", "disable", "none"})
_ON = frozenset({"true", "$true", "1", "yes", "on", "enabled", "enable", "y"})
# Names whose ON value is the weakness (a name's letters only, lowered).
_WEAK_ON = re.compile(r"^(xp_?cmdshell(enabled)?|oleautomationprocedures(enabled)?|adhocdistributedqueries"
                      r"(enabled)?|permitrootlogin|rootpasswordauth|rootlogin|permitemptypasswords|"
                      r"allowemptypasswords?|nullpasswords?|anonymous(access|login|auth)?(enabled)?|guestaccess|"
                      r"disable(antispyware|antivirus|realtimemonitoring|behaviormonitoring|ioavprotection|"
                      r"scriptscanning|firewall|uac|lua|defender|tamperprotection|selinux|apparmor|audit\w*|"
                      r"signatureverification|signing|authentication|auth|security\w*)|insecure\w*|"
                      r"skip[-_]?grant[-_]?tables|allow[-_]?unsigned\w*|trust[-_]?all\w*|passwordneverexpires|"
                      r"passwordnotrequired|allowblankpasswords?|nullok|noautoupdate|disable\w*updates?\w*|"
                      r"noautorebootwithloggedonusers)$")
# Names whose OFF value is the weakness, beyond ``protections_off``'s words.
_WEAK_OFF = re.compile(r"^(enablelua|consentpromptbehavioradmin|ttylogin|selinux|apparmor|aslr|"
                       r"randomize[-_]?va[-_]?space|firewall(enabled)?|enablefirewall|secureboot(enabled)?|"
                       r"enablesecureboot|realtimeprotection|tamperprotection|smartscreen(enabled)?|"
                       r"requirepassword|passwordrequired|(root)?passwordprotect\w*|stonith[-_]?enabled|"
                       r"audit(ing|d)?(enabled)?|gatekeeper|sip|csrutil|extendedprotection\w*|protectedfrom\w*)$")
# Names whose OFF value turns logins away (a lockout), and whose ON value does.
_LOGIN_OFF = lazy(r"^(login|rlogin|remotelogin|sshlogin|allowlogin|logins?enabled|ssh(d)?|"
                  r"remoteaccess|newconnectionallowed|allownewconnections|connectionsallowed)$")
_LOGIN_ON = re.compile(r"^(account_?locked|locked|nologin|denylogin|disablelogin|logindisabled|"
                       r"stop[-_]?all[-_]?resources|maintenance[-_]?mode)$")

_REMOTE_SERVICE = lazy(r"(^|[\s:/'\"])(ssh|sshd|openssh|dropbear|winrm|termservice|rdp|telnet)([\s:'\"]|$)")


def _letters(name: str) -> str:
    """The setting's last part, lowered: ``general/enabled`` -> ``enabled``, ``sys0.maxuproc`` -> ``maxuproc``."""
    name = name.strip().strip("'\"").lower().replace(" ", "_")  # `min password length`: a policy's name in words
    return re.split(r"[./:@\[\]]", name.rstrip("./"))[-1] if name else ""


def _known_key(key: str) -> bool:
    return any(p.match(key) for p in (_DEFAULT_IN, _MIN_LENGTH, _REMOTE_SWITCH, _WEAK_ON, _WEAK_OFF, _LOGIN_ON)) \
        and key not in ("input", "ssh", "sshd", "rdp", "telnet", "winrm", "login", "sip")


def pairs(prog: str, texts: list) -> list:
    """(name, value) pairs spelled in separate words, in the forms the docstring lists."""
    out = []
    low = [t.lower() for t in texts]
    named = [t.split("=", 1)[1] for t in low if "=" in t and t.split("=", 1)[0] in ("key", "name", "setting")]
    valued = [t.split("=", 1)[1] for t, raw in zip(low, texts) if "=" in t and t.split("=", 1)[0] == "value"]
    if named and valued:
        out.append((named[0], valued[0]))
    short = _SHORT_PAIRS.get(prog.lower())
    value_at = next((k for k, t in enumerate(low[:-1])
                     if t in _VALUE_OPTIONS or short and texts[k] == short[1].upper()), None)
    if value_at is not None:  # `-Name GPO -ValueName NoAutoUpdate -Value 1`: each name option with the value
        out += [(texts[k + 1], texts[value_at + 1]) for k, t in enumerate(low[:-1])
                if (t.split(":", 1)[0] in _NAME_OPTIONS or short and texts[k] == short[0].upper()) and k != value_at]
    if _CMDLET_NAME.match(prog):  # a cmdlet's `-Parameter Value` and `-Parameter:Value`
        for k, t in enumerate(texts):
            if t.startswith("-") and len(t) > 2:
                name, colon, value = t[1:].partition(":")
                if colon and value:
                    out.append((name, value))
                elif k + 1 < len(texts) and not texts[k + 1].startswith("-"):
                    out.append((name, texts[k + 1]))
    for k in range(len(low) - 1):  # `… default-action deny`, `… ssh-enabled no`: a key of known meaning and its value
        following = low[k + 1].strip("'\"")
        if (following in _VALUE_WORDS or following.isdigit()) and "=" not in low[k] and \
                not low[k].startswith("-") and _known_key(_letters(low[k])):
            out.append((texts[k], texts[k + 1]))
    for k in range(1, len(texts) - 1):
        if texts[k] == "=":
            out.append((texts[k - 1], texts[k + 1]))
    verb_at = -1 if prog.lower().endswith(("setenv", "_set", "-set", "setprop")) else \
        next((k for k, t in enumerate(low) if t in _SET_VERBS), None)
    if verb_at is not None:
        rest = [t for t in texts[verb_at + 1:] if not t.startswith("-") or t == "-"]
        rest = [t for t in rest if t != "-"]
        if prog.lower() == "nircmd" or (rest and rest[0].lower() in ("dword", "sz", "reg_dword", "reg_sz")):
            rest = rest[1:]
        for k in range(len(rest) - 1):
            if "=" not in rest[k]:
                out.append((rest[k], rest[k + 1]))
    return out


# What a boot command does: boot, run a script or another variable, load or fetch a kernel, name a device.
_BOOTS = lazy(r"boot|\brun\b|load|tftp|dhcp|source|pxe|\bnand\b|\bmmc|\busb|\bsf\b|\bubi|\bscsi|"
              r"\bnvme|\bsata|\bvirtio|\$\{?\w")


def judge(name: str, value: str, root: bool = False, remote: bool = False, auditing: str = "") -> Optional[str]:
    """What setting NAME to VALUE does, when it weakens, breaks or locks out; None otherwise."""
    value_l = value.strip().strip("'\"").lower()
    said = baseline_values.weak_sysctl(name, value) or kernel_breaks.breaking(name, value)
    if said:
        return said
    key = _letters(name)
    if key in ("bootcmd", "bootcommand", "boot_cmd", "altbootcmd", "boottargets") and \
            (value_l == "" or not _BOOTS.search(value_l)):  # `fw_setenv bootcmd 'echo halted'`
        return f"{key} set to {value_l or 'nothing'}: the board has no command to boot with"
    if key in ("maxuproc", "max_user_processes", "maxproc", "nproc", "maxprocperuid") and value_l.isdigit() and \
            int(value_l) < 32:
        return f"{key} set to {value_l}: users cannot start the processes a login needs"
    if key in ("dhcp", "dhcp4", "dhcpenabled", "usedhcp") and value_l in _OFF:
        return f"{key} set to {value_l}: the interface stops asking for its address"
    risky = boot_args.RISKY.search(value) if _BOOT_NAMES.match(key) else None
    if risky:
        return f"{name} holds {risky.group(0).strip()}: the next boot is unsafe"
    if value_l in _OFF and (_WEAK_OFF.match(key) or _WEAK_OFF.match(name.lower().replace(".", "_"))):
        return f"{key} set to {value_l}: a protection is switched off"
    if value_l in _ON and _POLICY_OFF.match(name.strip().strip("'\"").lower()):
        return f"the policy {name.strip(chr(39) + chr(34))!r} set to {value_l}: a protection is switched off"
    if value_l in _ON and _WEAK_ON.match(key):
        return f"{key} set to {value_l}: a weakness is switched on"
    if value_l in _ON and key in ("rlogin", "remotelogin") and root:
        return f"{key} set to {value_l} for root: root may log in from the network"
    if _MIN_LENGTH.match(key) and value_l.isdigit() and int(value_l) < 8:
        return f"{key} set to {value_l}: passwords of a few characters are accepted"
    if _LOCKOUT.match(key) and value_l == "0":
        return f"{key} set to 0: no lockout after failed logins, guessing is free"
    if _DEFAULT_IN.match(key) and value_l in ("deny", "drop", "reject"):
        return f"{key} set to {value_l}: incoming connections are refused unless a rule lets ssh in"
    if value_l in ("permit", "allow", "all", "any", "everyone") and re.match(r"^access[-_]?(provider|control|"
                                                                              r"policy|mode)?$", key):
        return f"{key} set to {value_l}: every account may log in"
    if value_l in _OFF | {"never", "nevernotify"} and ("uac" in key or key in ("enablelua", "consentprompt") or
                                                        (auditing == "uac" and key == "level")):
        return f"{key} set to {value_l}: UAC is off, programs get administrator rights unasked"
    if value_l in _OFF and (_AUDIT_KEY.match(key) or key in ("success", "failure") and auditing == "audit"):
        return f"{key} set to {value_l}: what happens on the machine is no longer audited"
    if value_l in _OFF and _LOGIN_OFF.match(key):
        return f"{key} set to {value_l}: logins are turned away"
    if value_l in _ON and _LOGIN_ON.match(key):
        return f"{key} set to {value_l}: " + ("every resource stops" if "stop" in key else "logins are turned away")
    if value_l in _OFF and _REMOTE_SWITCH.match(key):
        return f"{key} set to {value_l}: the remote login service is off, the way in is closed"
    parts = set(re.split(r"[./:@\[\]_-]", name.lower()))
    if value_l in _OFF and key in ("enabled", "enable", "autostart", "active") and \
            (remote or parts & {"ssh", "sshd", "openssh", "rdp", "winrm"}):
        return f"{name} set to {value_l} on the remote login service: the way in is closed"
    return None


_GATE_WORDS = ("=", "set", "name", "key", "value", "enable", "disable", "pdbedit")


@triggered_by(_GATE_WORDS, otherwise=False)
def may_pair(c: Ctx) -> bool:
    """Cheap: two words or more, one of the gate's words in the line, the first words no reading verb."""
    if not c.texts or set(c.texts[:2]) & _READS:
        return False
    line = c.prog.lower() + " " + c.lowered
    return any(w in line for w in _GATE_WORDS)


def rule_setting_pair(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:64]  # a setting, a target or a verb is among the first words: long lines are not read
    if set(t.lower() for t in texts[:3]) & _READS:
        return None
    root = "root" in texts
    remote = bool(_REMOTE_SERVICE.search(c.lowered[:2000]))
    auditing = "audit" if "audit" in c.prog.lower() else "uac" if "uac" in c.prog.lower() else ""
    for name, value in pairs(c.prog, texts):
        said = judge(name, value, root, remote, auditing)
        if said:
            return MEDIUM, f"{c.prog}: {said} ({c.text})"
    if ("able-" in c.lowered or "able_" in c.lowered) and not _BUILDS.search(c.prog.lower()):
        for t in texts:  # `--enable-nullok`, `--disable-selinux`: the option is the pair, read by the weak tables
            m = _SWITCH_OPTION.match(t.lower())
            key = m.group(2).replace("-", "_") if m else ""
            if m and ((m.group(1) == "enable" and _WEAK_ON.match(key)) or
                      (m.group(1) == "disable" and _WEAK_OFF.match(key))):
                return MEDIUM, f"{c.prog} {t}: a protection is switched off or a weakness on ({c.text})"
    if any(t.lower().startswith(_TAKEN_AWAY) for t in texts):
        return None  # `grubby --remove-args selinux=0`: the weakening is taken away
    for t in texts:  # one word `NAME=VALUE` whose name a table knows (`kernel.randomize_va_space=0`)
        name, eq, value = t.partition("=")
        if eq and value and not name.startswith("-"):
            said = judge(name, value, root, remote, auditing)
            if said:
                return MEDIUM, f"{c.prog}: {said} ({c.text})"
    return None
