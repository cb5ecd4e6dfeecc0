"""Effect: a security or monitoring product switched off, by any verb and any tool.

Generic in WHERE and THAT: the target is any product of the field known by its name or a part of it
(a service, a process, a package, a driver, a bundle id, a directory: ``cbdaemon``, ``SepMasterService``,
``/opt/CrowdStrike``, ``com.objective-see.lulu``, ``SplunkForwarder``, ``traps_pmd``); the effect is any
way of switching it off, said by whatever tool does it:

- a service manager's stop, disable, mask, unload or delete (``systemctl``, ``service``, ``rc-service``,
  ``chkconfig X off``, ``update-rc.d``, ``sv down``, ``s6-svc -d``, ``launchctl unload/bootout/remove``,
  ``sc stop/delete/config … start= disabled``, ``net stop``, ``supervisorctl stop``, ``docker stop``);
- its process killed (``kill``, ``pkill``, ``killall``, ``taskkill /IM``, ``Stop-Process -Name``);
- its package removed (``apt purge``, ``dnf erase``, ``rpm -e``, ``dpkg -r``, ``pacman -R``, ``apk del``,
  ``brew uninstall``, ``snap remove``, ``choco``/``winget uninstall``, ``wmic product … call uninstall``,
  ``helm uninstall``, ``kubectl delete daemonset``);
- its binary, directory or configuration moved or deleted (``rm -rf /opt/sentinelone``, ``mv …/falcond``);
- its kernel part unloaded (``rmmod``, ``modprobe -r``, ``kextunload``, ``fltmc unload/detach``);
- its own uninstall switch (``sysmon -u``, ``Sysmon64.exe -u force``).

The field's names are one table (``defences``), shared with ``security_products_off`` (products' own control
programs); any other tool or cmdlet with a taking word and a product's whole name (a driver, a bundle id, a
feature: ``fltmc detach``, ``Uninstall-WindowsFeature Windows-Defender``) and a security update (KB) taken away
are read here too.  An agent taken off the machine (its package, its uninstaller, its directory) is high; stopped,
it is medium.  Status, listing, starting, restarting, reloading, installing, updating signatures, scanning and a
product's help stay quiet: none of them is a switching-off verb.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.programs import LIBRARY_PACKAGE_TOOLS
from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.defences import STEMS, exclusion_removed, family_of, names_product
from aish.safety.rules.triggers import triggered_by

# Where a product is installed: a file tool's operand must be there (a clone of a product's source is not).
_SYSTEM_PLACE = LazyRegex(r"^(/(opt|etc|usr|var|lib|Library|Applications|System|sbin|bin)(/|$)|"
                          r"[A-Za-z]:\\(Program ?Files|ProgramData|Windows)|%Program|\$env:Program)", re.IGNORECASE)

# Tools by what they do, and the words that make them switch a thing off.
_SERVICE_OFF = {"systemctl": {"stop", "disable", "mask", "kill"}, "service": {"stop"},
                "rc-service": {"stop"}, "rc-update": {"del", "delete"}, "update-rc.d": {"disable", "remove"},
                "chkconfig": {"off", "--del"}, "sv": {"down", "stop", "d", "kill", "force-stop"},
                "s6-svc": {"-d", "-k"}, "launchctl": {"unload", "bootout", "remove", "disable", "stop", "kill"},
                "sc": {"stop", "delete", "config"}, "net": {"stop"}, "net1": {"stop"},
                "supervisorctl": {"stop", "remove"}, "initctl": {"stop"}, "rcctl": {"stop", "disable"},
                "svcadm": {"disable"}, "docker": {"stop", "kill", "rm"}, "podman": {"stop", "kill", "rm"},
                "stop-service": set(), "spsv": set(), "set-service": set(), "sysrc": set()}
_KILLERS = frozenset({"kill", "pkill", "killall", "taskkill", "stop-process", "spps", "skill", "tskill"})
_REMOVERS = {"apt": {"remove", "purge", "autoremove"}, "apt-get": {"remove", "purge", "autoremove"},
             "yum": {"remove", "erase"}, "dnf": {"remove", "erase"}, "zypper": {"remove", "rm"},
             "rpm": {"-e", "--erase"}, "dpkg": {"-r", "-P", "--remove", "--purge"}, "apk": {"del"},
             "pacman": set(), "brew": {"uninstall", "remove", "rm"}, "snap": {"remove"},
             "port": {"uninstall"}, "pkg": {"delete", "remove"}, "choco": {"uninstall"},
             "winget": {"uninstall", "remove"}, "msiexec": {"/x", "/uninstall", "-x"},
             "wmic": {"uninstall"}, "helm": {"uninstall", "delete", "del"}, "kubectl": {"delete"},
             "uninstall-package": set(), "remove-item": set(), "rm": set(), "del": set(), "rmdir": set(),
             "unlink": set(), "shred": set(), "erase": set(), "rd": set(), "ri": set(),
             "mv": set(), "move": set(), "move-item": set(), "rename-item": set(), "ren": set(), "rename": set(),
             "rmmod": set(), "kextunload": set(), "modprobe": {"-r", "--remove"}, "kmutil": {"unload"},
             "fltmc": {"unload", "detach"}, "systemextensionsctl": {"uninstall"},
             "profiles": {"remove", "-R"}}  # macOS: a product's configuration profile (its MDM settings) removed
_KERNEL_TOOLS = frozenset({"rmmod", "kextunload", "modprobe", "kmutil", "fltmc", "systemextensionsctl"})
_SOURCE_FIRST = frozenset({"mv", "move", "move-item", "rename-item", "ren", "rename"})  # the product is the source
_OWN_UNINSTALL = frozenset({"-uninstall", "--uninstall", "uninstall", "/uninstall"})
_SYSMON = LazyRegex(r"^sysmon(64)?$", re.IGNORECASE)  # whose `-u` uninstalls (`aide -u` updates its database)
GENTLE_SIGNALS = frozenset({"-hup", "-sighup", "-1", "-usr1", "-usr2", "-sigusr1", "-sigusr2", "-0", "hup", "usr1",
                             "--signal=hup", "-s0"})
_SETTINGS_FILE = LazyRegex(r"\.(conf|plist|service|rules|json|xml|ya?ml|ini|cfg|db)$", re.IGNORECASE)
_SPARE = LazyRegex(r"(\.(bak|orig|old|save|swp|rpmsave|rpmnew|dpkg-old|dpkg-dist|ucf-old)|~)$", re.IGNORECASE)  # a copy
_LOGS = LazyRegex(r"/log/|\.log(\.\d+)?$", re.IGNORECASE)  # a product's logs: the logs' own readings judge them
_MADE_UNRUNNABLE = frozenset({"chmod", "ln", "reg", "set-itemproperty", "new-itemproperty", "sp"})
_NO_RUN = LazyRegex(r"^(0+|[ugoa]*-[rw]*x[rw]*|a=|ugo=|=)$")  # no bit left, or the run bit taken
_OWN_OFF = frozenset({"stop", "disable", "unload", "kill", "off", "--stop", "--disable", "-stop", "-disable"})
_WORKLOADS = frozenset({"daemonset", "daemonsets", "ds", "daemonset.apps", "deployment", "deploy", "deployments",
                        "namespace", "ns", "statefulset", "sts", "-f", "--filename"})
_QUIET = frozenset({"status", "show", "list", "query", "qc", "start", "restart", "reload", "enable", "load",
                    "--help", "-h", "help", "--version", "version", "is-active", "print", "get", "info"})
_STOP_TYPE = LazyRegex(r"^(disabled|manual|stopped)$", re.IGNORECASE)
# Any other tool's words that take a product away or switch it off (a kernel extension, a driver, a feature).
_TAKES = frozenset({"unload", "uninstall", "detach", "disable", "disabled", "remove", "kill", "delete", "rm",
                    "stop", "mask", "purge", "erase", "off", "clear", "del", "teardown", "-unload", "--unload",
                    "-uninstall", "--uninstall", "/uninstall", "/delete-driver", "/remove-device", "--remove",
                    "-remove", "unregister", "deactivate", "--deactivate", "--disable", "--stop", "--flush", "-stop",
                    "-disable", "--kill"})
_TAKING_NAME = LazyRegex(r"unload|uninstall|detach|^(stop|disable|uninstall|remove)-")
_READS_ANY = frozenset({"status", "show", "list", "-l", "--show", "query", "get", "info", "--status", "get-service",
                        "qc"})
_VALUE_OPTIONS = frozenset({"--value", "-value", "-v", "--set", "set"})
_OWN_RULES = frozenset({"iptables", "ip6tables", "pf"})
_KB = LazyRegex(r"(^|[^a-z])kb\d{6,8}($|[^\d])", re.IGNORECASE)
_KB_VERB = LazyRegex(r"remove|uninstall|hide|block|deny|decline|reject|^-?-?delete", re.IGNORECASE)


_STEM = LazyRegex("|".join(re.escape(stem) for stem in STEMS))  # one search, not a loop over ~190 words


@triggered_by(STEMS, "kb", "profiles", otherwise=False)
def may_switch_off(c: Ctx) -> bool:
    """Cheap: a product's stem (or a KB number's letters) in the line, and words after the program."""
    if not c.texts:
        return False
    # `rule_monitor_off` reads the program and its first 48 words only (every finding names the product, the update
    # or `profiles` there): a longer line's rest is not searched (`rm -rf` of 2,000 names wakes every reading).
    words = c.lowered if len(c.texts) <= _READ else " ".join(c.texts[:_READ]).lower()
    line = c.prog.lower() + " " + words
    return "kb" in line or "profiles" in line or _STEM.search(line) is not None


_READ = 48  # the words of a command read for a product


def rule_monitor_off(c: Ctx) -> Optional[tuple]:
    prog = _name(c.prog)
    texts = c.texts[:_READ]
    low = [t.lower() for t in texts]
    if "kb" in c.lowered:
        update = _update_taken(c, texts, low)
        if update:
            return update
    if prog == "profiles" and ("-D" in texts or low[:2] == ["remove", "-all"]):
        return MEDIUM, f"{c.prog} removes every configuration profile: the security products' settings and " \
                       f"permissions given by management go with them ({c.text})"
    if prog == "sudo" or set(low[:2]) & _QUIET and prog not in _KILLERS:
        return None
    if prog == "ufw" and "delete" in low[:2]:
        return None  # `ufw delete allow 80`: one rule removed, judged by what it did (lockout)
    how = _how(prog, texts, low)
    if how is None:
        return None
    verb, operands = how
    product = next((t for t in operands if names_product(t)), None)
    if product is None:
        return None
    product = product.rpartition("=")[2].strip("'\"")  # `name="Sophos Endpoint Agent"`: the name
    said = c.prog if not verb or verb == prog else f"{c.prog} {verb}"
    family = family_of(product)
    if family is not None and family.agent and _removes(prog, verb) and \
            (prog not in _REMOVERS or _REMOVERS[prog] or _installed_whole(product)):
        return HIGH, f"{said} removes {product}, the {family.what} agent: the machine is no longer watched or " \
                     f"protected ({c.text})"[:200]
    return MEDIUM, f"{said} switches off the security or monitoring product " \
                   f"{product}: the machine is no longer watched ({c.text})"[:200]


def _how(prog: str, texts: list, low: list) -> Optional[tuple]:
    """(the verb said, the words that may name the product) when the tool switches something off."""
    positional = [t for t in texts if not t.startswith("-") or "=" in t and t.startswith("--")]
    if prog in _SERVICE_OFF:
        verbs = _SERVICE_OFF[prog]
        if prog in ("stop-service", "spsv"):
            return prog, texts
        if prog in ("set-service", "sysrc"):
            off = any(_STOP_TYPE.match(t) or t.lower().endswith(("=no", "=\"no\"")) for t in texts)
            return ("disabled", texts) if off else None
        if prog == "sc" and low[:1] == ["config"]:
            off = any(t == "disabled" or t.endswith("=disabled") for t in low)
            return ("config start= disabled", texts[1:]) if off else None
        if prog == "chkconfig" and ("off" in low or "--del" in low):
            return "off", texts
        verb = next((t for t in low[:3] if t in verbs), None)
        return (verb, [t for t in texts if t.lower() != verb]) if verb else None
    if prog in _KILLERS:
        if set(low) & GENTLE_SIGNALS:
            return None  # `pkill -HUP auditd`: told to reopen its logs or reload, not ended
        return "", [t for t in texts if not re.match(r"^-?\d+$|^-\w+$|^/\w+$", t)]
    if prog in _REMOVERS:
        verbs = _REMOVERS[prog]
        if prog == "pacman":
            return ("-R", positional) if any(re.match(r"^-R\w*$", t) for t in texts) else None
        if prog == "wmic":
            return ("call uninstall", texts) if "uninstall" in low and "call" in low else None
        if prog == "kubectl" and "delete" in low:
            return ("delete", positional) if set(low) & _WORKLOADS else None
        if verbs:
            verb = next((t for t in texts if t in verbs or t.lower() in verbs), None)  # dpkg's -P is not -p
            return (verb, [t for t in positional if t != verb and t.lower() != verb]) if verb else None
        if prog in ("rmmod", "kextunload"):
            return "", positional  # a kernel part by its name or bundle id: `kextunload -b com.crowdstrike.sensor`
        if prog in _SOURCE_FIRST:
            positional = positional[:-1] if len(positional) > 1 else []
        placed = [t for t in positional if _SYSTEM_PLACE.match(t.strip("'\"")) and not _LOGS.search(t) and
                  not _SPARE.search(t)]
        return ("", placed) if placed else None
    if prog in _MADE_UNRUNNABLE:
        return _made_unrunnable(prog, texts, low, positional)
    if _SYSMON.match(prog) and low[0] in ("-u", "/u", "-u:force"):
        return low[0], [prog]
    if names_product(prog) and (set(low[:2]) & _OWN_UNINSTALL or low[0] in _OWN_OFF or
                                low[0].startswith(("--disable", "-disable", "--stop"))):  # `sysmon -u force`
        return next((t for t in low[:2] if t in _OWN_UNINSTALL | _OWN_OFF), low[0]), [prog]
    return _other_tool(prog, low, texts)


def _installed_whole(path: str) -> bool:
    """A file tool's operand that is the product itself (its directory, binary or bundle), not one of its files."""
    last = re.split(r"[/\\]", path.strip("'\"").rstrip("/\\"))[-1]
    return not _SETTINGS_FILE.search(last) and family_of(last) is not None


def _removes(prog: str, verb: str) -> bool:
    """Is the product taken off the machine (its package, its files, its own uninstaller), not stopped?"""
    if prog in _REMOVERS:
        return prog not in _SOURCE_FIRST and prog not in _KERNEL_TOOLS and prog != "profiles"
    return "uninstall" in verb or verb in ("/x", "purge", "erase", "-u", "/u", "-u:force")  # `sysmon64 -u force`


def _other_tool(prog: str, low: list, texts: list) -> Optional[tuple]:
    """Any other tool or cmdlet with a taking word, given a product by its whole name or identifier: a bundle id,
    a driver, a minifilter, a feature (``kextunload -b com.crowdstrike.sensor``, ``fltmc detach SysmonDrv C:``,
    ``pnputil /delete-driver csagent.inf``, ``Uninstall-WindowsFeature Windows-Defender``, ``ufw --force
    disable``).  Paths' parts are not read here: ``git rm docs/falco`` is a project's folder."""
    if prog in LIBRARY_PACKAGE_TOOLS or prog in _OWN_RULES or set(low) & _READS_ANY or exclusion_removed(prog, low):
        return None  # `pip uninstall osquery`: the bindings; `iptables -F`: the firewall's own rules judge it
    verb = next((t for k, t in enumerate(low) if t in _TAKES and not (k and low[k - 1] in _VALUE_OPTIONS)), None) or \
        (prog if _TAKING_NAME.search(prog) else None)
    if verb is None:
        return None  # (`mdatp config passive-mode --value disabled`: a setting's value, read by its own program's rule)
    if names_product(prog, paths=False):
        return verb, [prog]
    return verb, [t for t in texts if not t.startswith(("-", "/")) and t.lower() != verb and
                  names_product(t, paths=False)]


def _update_taken(c: Ctx, texts: list, low: list) -> Optional[tuple]:
    """A security update taken away by any update module or package tool (``Remove-WindowsUpdate -KBArticleID
    KB5034441``, ``Hide-WindowsUpdate``, ``Deny-WsusUpdate``, ``dism /Remove-Package /PackageName:…KB…``,
    ``choco uninstall KB…``): the hole it closed is open again, and a hidden one is never offered."""
    kb = next((t for t in texts if _KB.search(t)), None)
    if kb and (_KB_VERB.search(c.prog) or any(_KB_VERB.search(t) for t in low)):
        return MEDIUM, f"{c.prog} takes the security update {kb} away: the hole it closed is open again ({c.text})"
    return None


def _made_unrunnable(prog: str, texts: list, low: list, positional: list) -> Optional[tuple]:
    """Its binary's run bits taken (``chmod 000``, ``chmod a-x``), its unit linked to /dev/null by hand (``ln -s
    /dev/null …/falcon-sensor.service``), its service's start type set to 4, disabled, in the registry."""
    if prog == "chmod":
        mode = next((t for t in texts if _NO_RUN.match(t)), None)
        placed = [t for t in positional if t != mode and _SYSTEM_PLACE.match(t.strip("'\""))]
        return (mode, placed) if mode and placed else None
    if prog == "ln":
        return ("-s /dev/null", positional[1:]) if positional[:1] == ["/dev/null"] and len(positional) == 2 else None
    started = _value_after(low, ("/v", "-name")) == "start" and _value_after(low, ("/d", "-value")) == "4"
    services = [t for t in texts if "\\services\\" in t.lower()]
    return ("Start = 4 (disabled)", [t.lower().partition("\\services\\")[2] for t in services]) \
        if started and services else None


def _value_after(low: list, options: tuple) -> str:
    index = next((k for k, t in enumerate(low[:-1]) if t in options), None)
    return "" if index is None else low[index + 1].strip("'\"")


def _name(prog: str) -> str:
    return re.sub(r"\.exe$", "", prog.rsplit("/", 1)[-1].rsplit("\\", 1)[-1], flags=re.IGNORECASE).lower()
