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

The other readings of this class (``guards``, ``security_products_off``, ``protection_targets``) read
products' own control programs and a few names; this one is the table of the field's names crossed with
every tool's switching-off.  Status, listing, starting, restarting, reloading, installing, updating
signatures, scanning and a product's help stay quiet: none of them is a switching-off verb.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

# Stems one of which every product name below holds (the cheap gate: a substring of the lowered line).
_STEMS = ("msmpeng", "windefend", "wdfilter", "wdboot", "wdnis", "mssense", "mdatp", "defender", "sysmon",
          "crowdstrike", "falcon", "csagent", "sentinel", "carbonblack", "cbdaemon", "cbagent", "cb-psc",
          "cbsensor", "cbdefense", "traps", "cortex", "cyserver", "cylance", "sophos", "savd", "savservice",
          "eset_", "eset-", "esets", "ekrn", "mcafee", "trellix", "mfe", "masvc", "macmnsvc", "isec", "symantec",
          "sepmaster",
          "ccsvchst", "rtvscan", "kaspersky", "kesl", "klnagent", "avp", "bitdefender", "bdsec", "bdagent",
          "vsserv", "epsecurity", "trendmicro", "ds_agent", "tmlisten", "ntrtscan", "elastic-agent",
          "elastic-endpoint", "auditbeat", "winlogbeat", "packetbeat", "wazuh", "ossec", "osquery", "auditd",
          "audit.rules", "audisp", "velociraptor", "splunk", "falco", "tetragon", "apparmor", "selinux", "clamav",
          "clamd", "rkhunter", "chkrootkit", "fail2ban", "crowdsec", "lulu", "objective-see", "snitch", "obdev",
          "santa", "xprotect", "suricata", "snort", "zeek", "tripwire", "aide",
          "datadog", "nxlog", "tanium", "qualys", "ir_agent", "rapid7", "ampdaemon", "cisco-amp", "mbam",
          "malwarebytes", "cybereason", "minionhost", "huntress", "sysdig", "avast", "webroot", "wrsa",
          "harfang", "deepinstinct", "fortiedr", "forticlient", "gatekeeper")
# A name (or one of its parts) that names a product, matched whole after .exe/.service/.plist/.sys is cut.
_PRODUCT = LazyRegex(
    r"^(msmpeng|windefend|wdfilter|wdboot|wdnissvc|wdnisdrv|mssense|mdatp|windows ?defender|"
    r"sysmon(64|drv)?|crowdstrike|falcon[-_](sensor|lsm\w*|agent)|falcond|csfalcon\w*|csagent|"
    r"sentinel(one|agent|d|ctl|-agent|_agent)|carbonblack|cbdaemon|cbagentd|cb-psc-sensor|cbsensor|cbdefense|"
    r"traps(_pmd|d)?|cortex[-_ ]?xdr|cyserver|cylance\w*|sophos[-\w ]*|savd|savservice|"
    r"eset[-_]\w+|esets\w*|ekrn|mcafee\w*|trellix\w*|mfe(tp|esp|hidk|firek|tpd)\w*|masvc|macmnsvc|isec(tpd|av)|"
    r"symantec[-\w ]*|sepmasterservice|ccsvchst|rtvscan|kaspersky\w*|kesl\w*|klnagent|avp|bitdefender\w*|"
    r"bdsec\w*|bdagent|vsserv|epsecurityservice|trendmicro\w*|ds_agent|tmlisten|ntrtscan|"
    r"elastic-(agent|endpoint)|auditbeat|winlogbeat|packetbeat|wazuh[-\w]*|ossec[-\w]*|osquery[d\w]*|"
    r"auditd|audit\.rules|audisp[-\w]*|velociraptor[-_\w]*|splunk(d|forwarder|universalforwarder)?|"
    r"falco|falco-\w+|tetragon|apparmor|selinux|clamav[-\w]*|clamd|rkhunter|chkrootkit|fail2ban[-\w]*|"
    r"crowdsec[-\w]*|lulu|objective-see|littlesnitch\w*|little ?snitch|obdev|santad?|xprotect\w*|"
    r"suricata|snort|zeek|tripwire|aide|datadog-agent|nxlog|taniumclient|tanium|qualys-cloud-agent|ir_agent|"
    r"rapid7\w*|ampdaemon|cisco-amp\w*|mbamservice|malwarebytes|cybereason\w*|minionhost|huntress\w*|"
    r"sysdig|avast\w*|webroot|wrsa|harfanglab\w*|deepinstinct\w*|fortiedr\w*|forticlient\w*|"
    r"gatekeeper)$", re.IGNORECASE)
_SUFFIX = re.compile(r"\.(exe|service|plist|sys|kext|app|conf|timer|socket|d)$", re.IGNORECASE)
_PARTS = re.compile(r"[/\\:]")
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
             "fltmc": {"unload", "detach"}, "systemextensionsctl": {"uninstall"}}
_SOURCE_FIRST = frozenset({"mv", "move", "move-item", "rename-item", "ren", "rename"})  # the product is the source
_OWN_UNINSTALL = frozenset({"-uninstall", "--uninstall", "uninstall", "/uninstall"})
_SYSMON = LazyRegex(r"^sysmon(64)?$", re.IGNORECASE)  # whose `-u` uninstalls (`aide -u` updates its database)
GENTLE_SIGNALS = frozenset({"-hup", "-sighup", "-1", "-usr1", "-usr2", "-sigusr1", "-sigusr2", "-0", "hup", "usr1",
                             "--signal=hup", "-s0"})
_LOGS = LazyRegex(r"/log/|\.log(\.\d+)?$", re.IGNORECASE)  # a product's logs: the logs' own readings judge them
_MADE_UNRUNNABLE = frozenset({"chmod", "ln", "reg", "set-itemproperty", "new-itemproperty", "sp"})
_NO_RUN = LazyRegex(r"^(0+|[ugoa]*-[rw]*x[rw]*|a=|ugo=|=)$")  # no bit left, or the run bit taken
_OWN_OFF = frozenset({"stop", "disable", "unload", "kill", "off", "--stop", "--disable", "-stop", "-disable"})
_WORKLOADS = frozenset({"daemonset", "daemonsets", "ds", "daemonset.apps", "deployment", "deploy", "deployments",
                        "namespace", "ns", "statefulset", "sts", "-f", "--filename"})
_QUIET = frozenset({"status", "show", "list", "query", "qc", "start", "restart", "reload", "enable", "load",
                    "--help", "-h", "help", "--version", "version", "is-active", "print", "get", "info"})
_STOP_TYPE = LazyRegex(r"^(disabled|manual|stopped)$", re.IGNORECASE)


@triggered_by(_STEMS, otherwise=False)
def may_switch_off(c: Ctx) -> bool:
    """Cheap: a product's stem in the line, and words after the program (or a product's own name)."""
    if not c.texts:
        return False
    line = c.prog.lower() + " " + c.lowered
    return any(stem in line for stem in _STEMS)


def names_product(word: str) -> bool:
    """The word, or one of its parts between / \\ . :, names a security or monitoring product."""
    word = word.strip("'\"").rstrip("/\\*")
    if not word or word.startswith("-") and "=" not in word:
        return False
    word = word.rpartition("=")[2] if word.startswith("-") else word
    if _PRODUCT.match(_SUFFIX.sub("", word)):
        return True
    for part in _PARTS.split(word):
        part = _SUFFIX.sub("", part)
        pieces = part.split(".") if part.count(".") >= 2 else [part]  # a bundle id: com.objective-see.lulu
        if any(piece and _PRODUCT.match(piece) for piece in pieces):
            return True
    return False


def rule_monitor_off(c: Ctx) -> Optional[tuple]:
    prog = _name(c.prog)
    texts = c.texts[:48]
    low = [t.lower() for t in texts]
    if prog == "sudo" or set(low[:2]) & _QUIET and prog not in _KILLERS:
        return None
    how = _how(prog, texts, low)
    if how is None:
        return None
    verb, operands = how
    product = next((t for t in operands if names_product(t)), None)
    if product is None:
        return None
    return MEDIUM, f"{c.prog}{' ' + verb if verb else ''} switches off the security or monitoring product " \
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
            verb = next((t for t in low if t in verbs), None)
            return (verb, [t for t in positional if t.lower() != verb]) if verb else None
        if prog in _SOURCE_FIRST:
            positional = positional[:-1] if len(positional) > 1 else []
        placed = [t for t in positional if _SYSTEM_PLACE.match(t.strip("'\"")) and not _LOGS.search(t)]
        return ("", placed) if placed else None
    if prog in _MADE_UNRUNNABLE:
        return _made_unrunnable(prog, texts, low, positional)
    if _SYSMON.match(prog) and low[0] in ("-u", "/u", "-u:force"):
        return low[0], [prog]
    if names_product(prog) and (set(low[:2]) & _OWN_UNINSTALL or low[0] in _OWN_OFF or
                                low[0].startswith(("--disable", "-disable", "--stop"))):  # `sysmon -u force`
        return next((t for t in low[:2] if t in _OWN_UNINSTALL | _OWN_OFF), low[0]), [prog]
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
