"""A command fanned out to many hosts, by any remote executor: judged inside, raised for the fan-out.

``salt '*' system.reboot``, ``bolt command run … --targets all``, ``clush -g web …``, ``ansible all
-m reboot``, ``psexec \\\\* …``, ``knife ssh 'role:web' …``, ``fab -H a,b -- …``, PowerShell's
``Invoke-Command -ComputerName (Get-Content list) { … }``: the inner command is judged as typed,
and a stop, reboot, kill or delete on every host is one level worse than on one (a single
``systemctl stop x`` is routine; the same on a whole group takes a service down everywhere).
Cloud CLIs' forced instance stops are here too (``--force``, ``--ForceStop``,
``--discard-local-ssd``: the instance's memory or local disks are lost).
"""
from __future__ import annotations

import re
from typing import Callable, Optional

from aish.safety.rules.common import HIGH, LOW, MEDIUM, Ctx, skip_opts
from aish.safety.lazy_regex import lazy

# What a stop, restart or delete says, as the first words of the inner command.
_STOPPING = lazy(r"(^|[\s;&|'\"/])(shutdown|reboot|poweroff|halt|init\s+[06]|systemctl\s+(stop|kill|disable|mask|"
                 r"reboot|poweroff|halt)|service\s+\S+\s+stop|kill|pkill|killall|rm\s+-|rmdir|"
                 r"restart-computer|stop-computer|stop-service|stop-process|remove-item|format|"
                 r"del\s|rd\s|docker\s+(stop|rm|kill)|sv\s+(down|stop)|"
                 r"\w+ctl\s+stop|\S+\s+stop(\s|$))", re.IGNORECASE)
_SALT_POWER = lazy(r"^(system|win_system)\.(reboot|poweroff|shutdown|halt|set_reboot_required_witnessed)$|"
                   r"^(service|win_service|systemd_service)\.(stop|disable|kill|mask)$|"
                   r"^(file\.remove|file\.absent|pkg\.remove|pkg\.purge|user\.delete|lvm\.lvremove|"
                   r"cmd\.run|cmd\.shell|cmd\.script|cmd\.exec_code|cmd\.run_all|cmd\.powershell)$")
_SALT_RUNS = {"cmd.run", "cmd.shell", "cmd.run_all", "cmd.powershell"}
_BROAD_TARGETS = lazy(r"^(['\"]?\*['\"]?|all|['\"]all['\"]|@\S+|\\\\\*|\S+,\S+|\S*[*\[\]].*|\$\w+|.*\.txt)$")
_ANSIBLE_STOP_MODULES = lazy(r"^(ansible\.(builtin|windows)\.)?(reboot|win_reboot)$")
_ANSIBLE_RUNS = lazy(r"^(ansible\.(builtin|windows)\.)?(shell|command|raw|win_shell|win_command|script)$")


def _raised(found: Optional[tuple], inner: str, where: str, c: Ctx) -> Optional[tuple]:
    """The inner finding one level up for the fan-out; a stop or delete judged low or quiet is medium."""
    if found is not None and found[0] >= MEDIUM:
        return min(found[0] + 1, HIGH), f"{found[1]} {where}"
    if _STOPPING.search(inner):
        return MEDIUM, f"{c.prog} runs `{' '.join(inner.split()[:6])}` {where} ({c.text})"
    return None


def _after(texts: list, names: tuple) -> str:
    return next((texts[k + 1] for k, t in enumerate(texts[:-1]) if t in names), "")


def rule_fanned_out(c: Ctx) -> Optional[tuple]:
    """A remote executor's inner command, raised for running on many hosts."""
    prog = c.prog.lower().removesuffix(".exe")
    texts = c.texts
    inner, where = "", "on every host"
    if prog in ("salt", "salt-ssh", "salt-call"):
        ops = [t for t in skip_opts(c.args, {"-t", "--timeout", "-b", "--batch-size", "--out", "-E", "-G", "-N",
                                             "-C", "-L", "-I", "-S", "--async"})]
        if prog == "salt-call":
            ops = ["local"] + ops
        opts = [t for t in texts if t.startswith("-")]
        targeted = any(o in ("-G", "-N", "-C", "-E", "-L", "-I", "-S") for o in opts)  # the target is their value
        function = next((t for t in ops[0 if targeted else 1:] if _SALT_POWER.match(t)), "")
        if function in _SALT_RUNS or function.startswith("cmd.exec"):
            inner = " ".join(ops[ops.index(function) + 1:][:1])
        elif function:
            broad = bool(ops and _BROAD_TARGETS.match(ops[0])) or targeted
            level = HIGH if broad and function.split(".")[1] in ("reboot", "poweroff", "shutdown", "halt") else MEDIUM
            return level, f"salt runs {function} {'on every host the target names' if broad else 'on a host'} " \
                          f"({c.text})"
    elif prog == "bolt" and texts[:2] == ["command", "run"] and len(texts) > 2:
        inner = texts[2]
        where = f"on every target ({_after(texts, ('--targets', '-t', '--target')) or 'the inventory'})"
    elif prog == "bolt" and texts[:2] == ["task", "run"] and len(texts) > 2 and re.search(r"reboot|shutdown",
                                                                                           texts[2]):
        return HIGH, f"bolt runs the {texts[2]} task on every target ({c.text})"
    elif prog == "ansible":
        module = _after(texts, ("-m", "--module-name"))
        if _ANSIBLE_STOP_MODULES.match(module):
            return HIGH, f"ansible reboots every host the pattern names ({c.text})"
        args = _after(texts, ("-a", "--args"))
        if module and not _ANSIBLE_RUNS.match(module) and re.search(r"state=(stopped|absent|killed)", args):
            return MEDIUM, f"ansible's {module} module stops or removes something on every host ({c.text})"
        inner = args if _ANSIBLE_RUNS.match(module or "command") else ""
    elif prog in ("clush", "pdsh", "pssh", "parallel-ssh", "mussh", "dsh", "knife", "fab", "prsh", "pash",
                  "orgalorg", "xpanes"):
        if prog == "knife":
            rest = skip_opts(c.args[1:], {"-x", "--ssh-user", "-a", "--attribute", "-i", "-P", "-C"})
            inner = rest[1] if texts[:1] == ["ssh"] and len(rest) > 1 else ""
        elif prog == "fab" and "--" in texts:
            inner = " ".join(texts[texts.index("--") + 1:])
        elif prog == "mussh":
            inner = _after(texts, ("-c",))
        else:
            rest = skip_opts(c.args, {"-h", "-H", "-w", "-l", "-p", "-t", "-o", "-e", "-O", "-x", "-g", "-f", "-X",
                                      "-R", "-u", "-B"})
            inner = " ".join(rest)
    elif prog in ("psexec", "psexec64", "paexec"):
        hosts = c.args[0].raw if c.args else ""  # `\\host`: the shell's escapes are not Windows'
        if hosts.startswith(("\\\\", "@")):
            broad = hosts in ("\\\\*", "\\*") or hosts.startswith("@") or "," in hosts
            rest = skip_opts([w for w in c.args[1:]], {"-u", "-p", "-w", "-n", "-c", "-f", "-v", "-h", "-i",
                                                       "-accepteula"})
            inner = " ".join(rest)
            where = "on every computer the list names" if broad else f"on {hosts}"
            if not broad:
                found = c.recurse(inner) if inner else None
                return (found[0], f"{found[1]} {where}") if found else None
    if not inner:
        return None
    return _raised(c.recurse(inner), inner, where, c)


# PowerShell's fan-out: `Invoke-Command -ComputerName (Get-Content l) { … }`, `-Session $s -ScriptBlock { … }`.
_PS_FANOUT = lazy(r"\bInvoke-Command\b(?P<opts>[^{]*?)(-ScriptBlock\s*)?\{(?P<body>.*)\}",
                  re.IGNORECASE | re.DOTALL)
_PS_MANY = lazy(r"-(ComputerName|Cn|Session|VMName|HostName)\s*(\(|\$|@\(|\S+\s*,)", re.IGNORECASE)
_PS_POWER = lazy(r"\b(Restart|Stop)-Computer\b[^;|]*-ComputerName\s*(\(|\$|@\(|\S+\s*,)", re.IGNORECASE)


def rule_fanned_out_line(text: str, recurse: Callable[[str], Optional[tuple]]) -> Optional[tuple]:
    """The PowerShell spellings, judged on the whole line (the parser splits at their parentheses)."""
    lowered = text.lower()
    if "-computer" not in lowered and "invoke-command" not in lowered:
        return None
    if _PS_POWER.search(text):
        return HIGH, f"restarts or stops every computer the list names ({' '.join(text.split()[:6])}…)"
    m = _PS_FANOUT.search(text)
    if m is None:
        return None
    body = m.group("body").strip()
    many = bool(_PS_MANY.search(m.group("opts")))
    found = recurse(body)
    where = "on every computer the list names" if many else "on another computer"
    if not many:
        return (found[0], f"{found[1]} {where}") if found and found[0] > LOW else None
    if found is not None and found[0] >= MEDIUM:
        return min(found[0] + 1, HIGH), f"{found[1]} {where}"
    if _STOPPING.search(body):
        return MEDIUM, f"runs `{' '.join(body.split()[:5])}` {where}"
    return None


# Cloud CLIs' stops that lose what the instance held.
_FORCED_STOP = lazy(r"\b(stop-instances|stopinstances?|instances stop|vm (stop|deallocate)|server stop|"
                    r"stop-db-instance|stop-db-cluster|compute instances stop|instance action|--action\s+stop)\b"
                    r".*(--force\b|--forcestop(\s+|=)true|--discard-local-ssd|--hibernate\b|--skip-shutdown)|"
                    r"\b(droplet-action|server-action|instance-action)\s+(power-off|power_off|power-cycle|reset)\b",
                    re.IGNORECASE)


def rule_forced_stop(c: Ctx) -> Optional[tuple]:
    joined = " ".join(c.texts)
    if _FORCED_STOP.search(joined):
        return MEDIUM, f"{c.prog} stops instances by force: what is in memory or on local disks is lost ({c.text})"
    return None


NAMES = ("salt", "salt-ssh", "salt-call", "bolt", "ansible", "clush", "pdsh", "pssh", "parallel-ssh", "mussh", "dsh",
         "knife", "fab", "prsh", "pash", "orgalorg", "psexec", "psexec.exe", "psexec64", "psexec64.exe", "paexec")
RULES: dict = {p: [rule_fanned_out] for p in NAMES}
RULES["mco"] = [lambda c: (MEDIUM, f"mco stops or restarts something on every host the filter matches ({c.text})")
                if set(c.texts) & {"stop", "shutdown", "reboot", "poweroff", "halt", "kill"} else None]
for _p in ("aws", "aliyun", "gcloud", "az", "oci", "tccli", "ibmcloud", "openstack", "hcloud", "doctl"):
    RULES.setdefault(_p, []).append(rule_forced_stop)
