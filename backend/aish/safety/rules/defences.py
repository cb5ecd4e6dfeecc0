"""The field of defences as one table: the security products and features of every OS by the names they go
by, and one vocabulary of what switches them off.

Every reading of the class "a defence switched off, blinded or taken away" asks this module what names a
defence (``monitors_off``: any tool's switching-off of a product named here; ``security_products_off``: a
product's own control program told to stop looking; ``guards``: protections in tools' settings), so a
product added here is known to all of them.

A row is a family of the field: what it is, and its names as every surface shows them (a service, a
process, a package, a driver or minifilter, a kernel extension, a part of a bundle id, an install
directory), each matched whole after ``.exe``/``.service``/``.plist``/``.sys``/``.kext``… is cut; a name
ending in ``*`` goes on in letters, digits, ``-``, ``_`` or spaces (``falcon-sensor*``, ``Sophos Anti-Virus``), and
``~`` is an optional ``-``, ``_`` or space (``windows~defender``).  ``CONTROLS`` are the
products' own control programs by the words of their names (read by ``security_products_off``).
"""
from __future__ import annotations

import re
from typing import NamedTuple, Optional

from aish.safety.lazy_regex import LazyRegex


class Family(NamedTuple):
    what: str  # what the family is, in the words a verdict may use
    names: str  # its names, separated by spaces (`*`: the name goes on; `~`: an optional separator)
    agent: bool = False  # an agent that watches or protects the machine as a whole (antivirus, EDR, telemetry)


AGENT = True


FIELD: tuple = (
    Family("Microsoft Defender",
           "msmpeng mpcmdrun windefend wdfilter wdboot wdnissvc wdnisdrv wddevflt mssecflt mssense mdatp mdcoresvc "
           "windows~defender windows-defender* wdav*", AGENT),
    Family("Windows protections", "defender mpssvc wscsvc securityhealthservice sense smartscreen tamperprotection "
                                  "bitlocker eventlog"),
    Family("host firewalls", "firewall firewalld ufw nftables iptables ip6tables netfilter-persistent "
                             "iptables-persistent shorewall shorewall6 shorewall-lite csf lfd apf ferm pf sshguard"),
    Family("device and application control", "usbguard fapolicyd"),
    Family("Sysmon", "sysmon* sysmondrv", AGENT),
    Family("CrowdStrike Falcon", "crowdstrike* falcon-sensor* falcon_sensor* falcon-lsm* falcon_lsm* falcon-agent* "
                                 "falcon_agent* falcond falconctl csfalcon* csagent csdevicecontrol", AGENT),
    Family("SentinelOne", "sentinelone* sentinelagent* sentineld sentinelctl sentinel-agent sentinel_agent", AGENT),
    Family("Carbon Black", "carbonblack* repcli cbdaemon cbagentd cb-psc-sensor cbsensor cbdefense cbk7 cbstream",
           AGENT),
    Family("Cortex XDR / Traps", "traps traps_pmd trapsd cortex~xdr cytool cyserver cyprotectdrv*", AGENT),
    Family("Cylance", "cylance*", AGENT),
    Family("Sophos", "sophos* savd savdctl savconfig savservice sophosed savonaccess hmpalert", AGENT),
    Family("ESET", "eset eset-* eset_* esets* ekrn ehdrv", AGENT),
    Family("McAfee / Trellix", "mcafee* trellix* mfetp* mfeesp* mfehidk* mfefirek* mfetpd* masvc macmnsvc isectpd "
                               "isecav", AGENT),
    Family("Symantec / Broadcom", "symantec* sepmasterservice ccsvchst rtvscan symefa* srtsp*", AGENT),
    Family("Kaspersky", "kaspersky* kesl* klnagent avp klif", AGENT),
    Family("Bitdefender", "bitdefender* bdsec* bdagent vsserv epsecurityservice", AGENT),
    Family("Trend Micro", "trendmicro* ds_agent dsa_control tmlisten ntrtscan tmcomm tmevtmgr", AGENT),
    Family("Elastic", "elastic-agent elastic-endpoint auditbeat winlogbeat packetbeat", AGENT),
    Family("Wazuh / OSSEC", "wazuh* ossec*", AGENT),
    Family("osquery", "osquery*", AGENT),
    Family("Linux audit", "audit auditd audit.rules audisp*"),
    Family("telemetry",  # Velociraptor, Splunk, Datadog, NXLog, Tanium, Qualys, Rapid7
           "velociraptor* splunk splunkd splunkforwarder splunkuniversalforwarder datadog-agent nxlog taniumclient "
           "tanium qualys-cloud-agent ir_agent rapid7*", AGENT),
    Family("runtime security", "falco falco-* tetragon sysdig", AGENT),
    Family("mandatory access control", "apparmor selinux"),
    Family("ClamAV", "clamav* clamd clamonacc freshclam", AGENT),
    Family("fail2ban, CrowdSec", "fail2ban* crowdsec*"),
    Family("macOS firewalls and guards", "lulu objective-see littlesnitch* little~snitch obdev santa santad santactl "
                                         "santa-driver xprotect* "
                                         "gatekeeper endpointsecurity*"),
    Family("network intrusion detection", "suricata snort zeek"),
    Family("integrity checkers", "tripwire aide"),
    # Cisco AMP, Malwarebytes, Cybereason, Huntress, Avast, Webroot, HarfangLab, Deep Instinct, Fortinet
    Family("endpoint protection",
           "ampdaemon cisco-amp* ciscoamp* immunet* mbamservice malwarebytes cybereason* minionhost huntress* avast* "
           "webroot wrsa harfanglab* deepinstinct* fortiedr* forticlient*", AGENT),
    # Dr.Web, Avira, AVG, Norton, F-Secure/WithSecure, G DATA, Emsisoft, Comodo, Panda, ZoneAlarm, HitmanPro
    Family("desktop antivirus",
           "drweb* avira* avguard avgsvc avgwd norton* f-secure* fsecure* withsecure* fshoster* fsaua gdata* "
           "avkservice emsisoft* a2service comodo* cmdagent psanhost pavfnsvr zonealarm* hitmanpro*", AGENT),
    # Zscaler, Netskope, Tenable, Lacework, Prisma Cloud, Aqua, Wiz, Uptycs, Jamf Protect, Defender for Identity
    Family("cloud and container security",
           "zscaler* zsatunnel netskope* stagentsvc nessusagent nessus-agent lacework* twistlock* aqua-enforcer "
           "aquasec* tracee kunai wiz-sensor* uptycs* osquery-uptycs jamf-protect* jamfprotect* aatpsensor*", AGENT),
    Family("Linux malware, rootkit and integrity scanners (maldet, rkhunter, samhain, AFICK)",
           "maldet linux-malware-detect maldetect rkhunter chkrootkit samhain* afick"),
)

# The products' own control programs, by the words of their names (searched in a program's name).
CONTROLS = LazyRegex(r"mdatp|wdav|defender|mpcmdrun|falconctl|falcon-sensor|crowdstrike|^sentinel|sophos|"
                     r"^sav(dctl|config|scan|d|update)$|^clam|ossec|wazuh|mcafee|^mfe|isecav|dsa_control|ds_agent|"
                     r"^esets?([-_]|$)|kesl|^kav\d|^kav[-_]|kaspersky|bitdefender|cylance|carbonblack|^repcli$|"
                     r"^cytool$|osquery|auditbeat|^falco$|tetragon|sysmon|tripwire|symantec|^smc$|forticlient|trellix|"
                     r"drweb|(^|[-_])[xe]dr([-_]|$)|(^|[-_])(endpoint|antivirus|anti-?malware)([-_]|$)|^sensorctl$|"
                     r"^aa-|apparmor|firewall|^fw\d*$|ipchains|ebtables|arptables|shorewall|^csf$|^apf$|^ufw-|"
                     r"^ferm$|opensnitch|socketfilterfw|^auditctl$|^auditd$|^audit2allow$", re.IGNORECASE)
FIREWALL_CONTROLS = LazyRegex(r"firewall|^fw\d*$|ipchains|ebtables|arptables|shorewall|^csf$|^apf$|^ufw-|^ferm$",
                              re.IGNORECASE)


def _pattern(name: str) -> str:
    out = "[-_ ]?".join(re.escape(piece) for piece in name.rstrip("*").split("~"))
    return out + r"[-\w ]*" if name.endswith("*") else out


def _stem(name: str) -> str:
    """The literal start every spelling of the name holds (the cheap gate's word)."""
    return max(reversed(name.rstrip("*").split("~")), key=len)


NAMES: tuple = tuple(name for family in FIELD for name in family.names.split())
PRODUCT = LazyRegex(r"^(" + "|".join(_pattern(n) for n in NAMES) + r")$", re.IGNORECASE)
# One of these occurs in the lowered line of every command naming a product (the readings' trigger words).
STEMS: tuple = tuple(dict.fromkeys(_stem(n).lower() for n in NAMES))
_SUFFIX = re.compile(r"\.(exe|service|plist|sys|kext|app|conf|timer|socket|d|inf)$", re.IGNORECASE)
_PARTS = re.compile(r"[/\\:]")


def names_product(word: str, paths: bool = True) -> bool:
    """Does the word, or a part of a path (unless ``paths`` is false), a bundle id or an option's value, name a
    product of the field?"""
    word = word.strip("'\"").rstrip("/\\*")
    if not word or word.startswith("-") and "=" not in word:
        return False
    word = word.rpartition("=")[2]  # `--name=falcon-sensor`, `name="Cylance PROTECT"`
    if PRODUCT.match(_SUFFIX.sub("", word)):
        return True
    for part in _PARTS.split(word) if paths else (word,):
        part = _SUFFIX.sub("", part)
        pieces = part.split(".") if part.count(".") >= 2 else [part]  # a bundle id: com.objective-see.lulu
        if any(piece and PRODUCT.match(piece) for piece in pieces):
            return True
    return False


def family_of(word: str) -> Optional[Family]:
    """The family of the product a word (or a part of it) names, or None."""
    word = _SUFFIX.sub("", word.strip("'\"").rstrip("/\\*").lower())
    return next((family for family, pattern in _FAMILIES.get() if pattern.search(word)), None)


class _Compiled:
    """Each family with one pattern of its names, compiled on first use (a verdict's reason is rare)."""

    def __init__(self) -> None:
        self._families: Optional[list] = None

    def get(self) -> list:
        if self._families is None:
            self._families = [(family, re.compile(r"(^|[/\\:.=])(" + "|".join(_pattern(n.lower()) for n in
                                                                              family.names.split()) + r")($|[/\\:.])"))
                              for family in FIELD]
        return self._families


_FAMILIES = _Compiled()


# What switches a defence off, in every surface's words: verbs, their option spellings, off values.
OFF_VERBS = frozenset({"stop", "disable", "disabled", "mask", "kill", "uninstall", "remove", "purge", "erase",
                       "delete", "off", "clear", "unload", "del", "teardown", "unprotect", "bypass", "pause",
                       "suspend", "deactivate", "unregister", "detach"})
OFF_VALUES = frozenset({"false", "0", "no", "off", "disabled", "disable", "none", "$false"})

# Exclusions: what a product is told not to look at.  The whole machine is nothing looked at (high); a build's
# output or a package manager's cache, which Microsoft's and the EDR vendors' performance guides tell developers
# to exclude (a Dev Drive's `node_modules`, `target`, `.gradle`, Docker's layers), is everyday; any other path,
# process or file extension is one blind spot where a payload can sit (medium).
_WHOLE = LazyRegex(r"^(/|/\*|\*|\*\.\*|[a-z]:\\?|[a-z]:\\\*|\\|%systemdrive%\\?|\$env:systemdrive\\?)$", re.IGNORECASE)
_BUILD_CACHE = LazyRegex(r"(^|[/\\])(node_modules|\.git|target|build|dist|out|obj|\.gradle|\.m2|\.cache|\.npm|"
                         r"\.yarn|\.pnpm-store|\.nuget|packages|\.venv|venv|__pycache__|\.tox|deriveddata|"
                         r"\.cargo|\.rustup|go[/\\]pkg|vcpkg|\.ccache|\.sccache|bazel-\w+|docker|containerd|"
                         r"\.terraform|\.next|\.angular|bin[/\\](debug|release))([/\\]\*?)?$", re.IGNORECASE)


def exclusion_level(target: str) -> int:
    """How much an exclusion of ``target`` (a path, a process, an extension) blinds the product: 2 (high) for
    the whole machine, 0 for a build cache, 1 (medium) for anything else."""
    target = target.strip("'\"")
    if _WHOLE.match(target.rstrip("/") or "/"):
        return 2
    return 0 if _BUILD_CACHE.search(target.rstrip("/\\")) else 1


_REMOVING = re.compile(r"^(remove|delete|del|rm|-r|--remove|--delete)$|^remove-", re.IGNORECASE)


def exclusion_removed(prog: str, texts: list) -> bool:
    """``Remove-MpPreference -ExclusionPath C:\\Temp``, ``mdatp exclusion folder remove --path /tmp``: an exclusion
    taken back, the product looks there again (protection turned on, not off)."""
    return bool(_REMOVING.match(prog) or any(_REMOVING.match(t) for t in texts[:4])) and \
        any("exclusion" in t.lower() for t in texts[:4])
