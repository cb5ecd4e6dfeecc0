"""Effect: a security baseline's control put back to its weak value, in whichever tool writes it.

The hardening benchmarks (CIS, the STIGs, Microsoft's security baselines) are lists of settings with
the value that protects; each one, set the other way, is the weakening this judges, by the setting's
name and value rather than by the program:

- Kernel switches (``sysctl -w``, ``sysctl KEY=VALUE``, a line in ``/etc/sysctl.d``, a write to
  ``/proc/sys/…``): core dumps of setuid programs (``fs.suid_dumpable=2``), kexec, BPF JIT hardening,
  ICMP redirects and source routing accepted, reverse-path filtering off, martians unlogged.
- Windows registry values (``reg add … /v NAME /d VALUE``, ``Set-ItemProperty -Name NAME -Value VALUE``,
  ``Set-GPRegistryValue -ValueName``): LSA protection and Credential Guard off, LM hashes and NTLMv1,
  anonymous enumeration, SMB signing off, SMB1 on, AutoRun, auto-logon, PowerShell logging off.
- Windows Defender's preferences given their off value (``Set-MpPreference -PUAProtection Disabled``,
  ``-EnableNetworkProtection Disabled``, ``-MAPSReporting 0``, a threat's default action ``Allow``).
- macOS: Gatekeeper's own preferences, the firewall's stealth mode off, AMFI switched off in the boot
  arguments, a user's secure token taken away, password policies zeroed.
- Logging, auditing and time sources stopped (``timedatectl set-ntp false``, macOS ``audit -t``,
  ``launchctl bootout … auditd``), an AppArmor profile linked into ``disable/``, SMB1 enabled by
  ``dism``, a shell or an interpreter installed setuid (``install -m 4755 /bin/sh …``).

The same settings given their protective values, and every read, stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules import baseline_switches
from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

# sysctl key (dots) -> (weak values, what the weak value does)
_SYSCTL: dict = {
    "kernel.randomize_va_space": ({"0"}, "address-space randomisation off"),
    "kernel.yama.ptrace_scope": ({"0"}, "any process may trace (and read) another of the same user"),
    "kernel.kptr_restrict": ({"0"}, "kernel addresses shown to every user"),
    "kernel.dmesg_restrict": ({"0"}, "the kernel log readable by every user"),
    "kernel.unprivileged_bpf_disabled": ({"0"}, "BPF programs loadable by every user"),
    "kernel.kexec_load_disabled": ({"0"}, "another kernel may be loaded at run time"),
    "kernel.perf_event_paranoid": ({"-1"}, "performance events open to every user"),
    "fs.suid_dumpable": ({"1", "2"}, "setuid programs dump their memory (and secrets) to core files"),
    "fs.protected_symlinks": ({"0"}, "symlink races in shared directories allowed"),
    "fs.protected_hardlinks": ({"0"}, "hard links to others' files allowed"),
    "fs.protected_fifos": ({"0"}, "FIFO races in shared directories allowed"),
    "fs.protected_regular": ({"0"}, "file races in shared directories allowed"),
    "vm.mmap_min_addr": ({"0"}, "NULL-pointer exploits allowed"),
    "net.core.bpf_jit_harden": ({"0"}, "BPF JIT hardening off"),
    "vm.unprivileged_userfaultfd": ({"1"}, "userfaultfd open to every user (a kernel exploit's helper)"),
    "net.ipv4.tcp_syncookies": ({"0"}, "SYN-flood protection off"),
    "net.ipv4.icmp_echo_ignore_broadcasts": ({"0"}, "answers broadcast pings (smurf amplification)"),
    "net.ipv4.icmp_ignore_bogus_error_responses": ({"0"}, "bogus ICMP errors logged and trusted"),
}
# per-interface keys: net.ipv4.conf.{all,default,IF}.KEY, net.ipv6.conf.{…}.KEY
_CONF_KEYS: dict = {
    "accept_redirects": ({"1"}, "routes rewritten by any host's ICMP redirect"),
    "secure_redirects": ({"1"}, "routes rewritten by a gateway's ICMP redirect"),
    "send_redirects": ({"1"}, "the host sends ICMP redirects like a router"),
    "accept_source_route": ({"1"}, "source-routed packets accepted"),
    "rp_filter": ({"0"}, "spoofed source addresses accepted"),
    "log_martians": ({"0"}, "impossible addresses no longer logged"),
    "accept_ra": ({"1", "2"}, "routes taken from any router advertisement"),
}
_CONF_KEY = lazy(r"^net\.ipv[46]\.conf\.[\w@.-]+\.(\w+)$")


def weak_sysctl(key: str, value: str) -> Optional[str]:
    """What setting KEY to VALUE weakens, or None (KEY with dots or slashes)."""
    key = key.strip().strip("'\"").replace("/", ".").lower()
    value = value.strip().strip("'\"").split()[0] if value.strip().strip("'\"") else ""
    entry = _SYSCTL.get(key)
    if key == "kernel.core_pattern" and re.match(r"\|\s*(/tmp/|/var/tmp/|/dev/shm/|/home/|~)", value):
        return f"{key}={value}: every crash runs that program as root"
    if entry is None:
        m = _CONF_KEY.match(key)
        entry = _CONF_KEYS.get(m.group(1)) if m else None
    if entry is not None and value in entry[0]:
        return f"{key}={value}: {entry[1]}"
    return None


_SYSCTL_LINE = lazy(r"^\s*-?\s*([a-z][\w.@/-]+)\s*=\s*(-?\S+)", re.MULTILINE)


def weak_sysctl_text(text: str) -> Optional[str]:
    """A weakening ``KEY = VALUE`` line in a sysctl configuration text."""
    return next((w for m in _SYSCTL_LINE.finditer(text) if (w := weak_sysctl(m.group(1), m.group(2)))), None)


class _SysctlText:
    """A content pattern for ``meaning``'s file table: ``search`` finds a weakening line."""

    @staticmethod
    def search(text: str) -> Optional[str]:
        return weak_sysctl_text(text)


class _ProcValue:
    """The value written into one ``/proc/sys`` file, judged as its key."""

    def __init__(self, key: str) -> None:
        self.key = key

    def search(self, text: str) -> Optional[str]:
        return weak_sysctl(self.key, text) if text.strip() else None


_SYSCTL_FILES = re.compile(r"^(/etc/sysctl\.conf|/etc/sysctl\.d/.*|/usr/lib/sysctl\.d/.*|/run/sysctl\.d/.*)$")
_PROC_KEYS = sorted(set(_SYSCTL) | {f"net.ipv{v}.conf.{i}.{k}" for v in (4, 6) for i in ("all", "default")
                                    for k in _CONF_KEYS})
# Files whose lines open a service to anyone (read by ``meaning``'s table of what a write means).
FILES: list = [
    (_SYSCTL_FILES, [(_SysctlText, MEDIUM, "switches a kernel hardening setting off at every boot")], None, ""),
    (re.compile(r"^/etc/samba/smb\.conf$"),
     [(re.compile(r"^\s*(guest\s+ok|public)\s*=\s*yes|^\s*map\s+to\s+guest\s*=\s*bad\s+user|"
                  r"^\s*null\s+passwords\s*=\s*yes", re.IGNORECASE | re.MULTILINE), MEDIUM,
       "lets anyone use the share without a password"),
      (re.compile(r"^\s*(server\s+min\s+protocol\s*=\s*(NT1|LANMAN\d?|CORE)|(lanman|ntlm)\s+auth\s*=\s*yes)",
                  re.IGNORECASE | re.MULTILINE), MEDIUM, "lets clients in with SMB1 or LM/NTLMv1 passwords")],
     None, ""),
    (re.compile(r"^(/usr/local)?/etc/snmp/snmpd\.conf$"),
     [(re.compile(r"^\s*rw(community6?|user)\s+\S+|^\s*rocommunity6?\s+public\s*$", re.IGNORECASE | re.MULTILINE),
       MEDIUM, "lets anyone who knows the community string read or change the device over SNMP")], None, ""),
    (re.compile(r"^/etc/(vsftpd/)?vsftpd\.conf$"),
     [(re.compile(r"^\s*(anonymous_enable|anon_upload_enable|anon_mkdir_write_enable|anon_other_write_enable)\s*="
                  r"\s*YES", re.IGNORECASE | re.MULTILINE), MEDIUM, "lets anonymous users log in or upload")],
     None, ""),
    (re.compile(r"^/etc/sysconfig/init$"),
     [(re.compile(r"^\s*SINGLE\s*=\s*\S*sushell", re.MULTILINE), HIGH,
       "single-user mode gives a root shell without asking for a password")], None, ""),
    (re.compile(r"^/etc/hosts\.allow$"),
     [(re.compile(r"^\s*(ALL|sshd|in\.telnetd|vsftpd|portmap|rpcbind)\s*:\s*(ALL|\*|0\.0\.0\.0/0)\s*$",
                  re.IGNORECASE | re.MULTILINE), MEDIUM, "lets every host reach the wrapped services (hosts.allow)")],
     None, ""),
    (re.compile(r"^/etc/security/pwquality\.conf(\.d/.*)?$"),
     [(re.compile(r"^\s*minlen\s*=\s*[0-7]\s*$", re.MULTILINE), MEDIUM, "allows passwords of a few characters")],
     None, ""),
    (re.compile(r"^/etc/security/faillock\.conf$"),
     [(re.compile(r"^\s*deny\s*=\s*0\s*$", re.MULTILINE), MEDIUM, "no lockout after failed logins: guessing is free")],
     None, ""),
    (re.compile(r"^/etc/ssh/sshd_config(\.d/.*)?$"),
     [(re.compile(r"^\s*(PermitUserEnvironment|HostbasedAuthentication)\s*[= ]\s*yes|^\s*IgnoreRhosts\s*[= ]\s*no",
                  re.IGNORECASE | re.MULTILINE), MEDIUM, "lets users' environment or trusted hosts past ssh's checks")],
     None, ""),
    (re.compile(r"^(/usr/lib|/etc)/ssl/openssl\.cnf$|^/etc/pki/tls/openssl\.cnf$|^/etc/crypto-policies/.*"),
     [(re.compile(r"SECLEVEL\s*=\s*0|@SECLEVEL=0|MinProtocol\s*=\s*(SSLv3|TLSv1(\.[01])?)\s*$",
                  re.IGNORECASE | re.MULTILINE), MEDIUM, "lets TLS fall back to protocols and keys that are broken")],
     None, ""),
    (re.compile(r"^/etc/login\.defs$"),
     [(re.compile(r"^\s*UMASK\s+0?[0-7]?[0-7]?[0145]\s*$", re.MULTILINE), MEDIUM,
       "new users' files are writable by everyone")], None, ""),
] + [(re.compile("^/proc/sys/" + re.escape(k.replace(".", "/")) + "$"),
      [(_ProcValue(k), MEDIUM, "switches a kernel hardening setting off")], None, "") for k in _PROC_KEYS]


# Registry value name (lowered) -> (weak values, what it does)
_REGISTRY: dict = {
    "runasppl": ({0}, "LSA protection off: lsass' memory (and its passwords) readable"),
    "lsacfgflags": ({0}, "Credential Guard off"),
    "enablevirtualizationbasedsecurity": ({0}, "virtualisation-based security off"),
    "hypervisorenforcedcodeintegrity": ({0}, "memory integrity (HVCI) off"),
    "lmcompatibilitylevel": ({0, 1, 2}, "LM and NTLMv1 answers sent: their hashes crack in minutes"),
    "nolmhash": ({0}, "LM password hashes stored"),
    "restrictanonymous": ({0}, "anonymous users may list accounts and shares"),
    "restrictanonymoussam": ({0}, "anonymous users may list accounts"),
    "everyoneincludesanonymous": ({1}, "anonymous users get Everyone's rights"),
    "restrictnullsessaccess": ({0}, "anonymous null sessions reach shares and pipes"),
    "smartscreenenabled": ({"off"}, "SmartScreen off"),
    "requiresecuritysignature": ({0}, "SMB signing no longer required"),
    "requiresignorseal": ({0}, "secure channel signing no longer required"),
    "smb1": ({1}, "SMB1 switched on"),
    "autoadminlogon": ({1}, "Windows logs in by itself, with a password kept in the registry"),
    "nodrivetypeautorun": ({0}, "AutoRun on for every drive"),
    "noautorun": ({0}, "AutoRun on"),
    "enablescriptblocklogging": ({0}, "PowerShell script logging off"),
    "enablemodulelogging": ({0}, "PowerShell module logging off"),
    "allowinsecureguestauth": ({1}, "SMB guest logons without a password allowed"),
    "localaccounttokenfilterpolicy": ({1}, "remote UAC filtering off: local admins get full rights over the network"),
    "disableipsourcerouting": ({0}, "source-routed packets accepted"),
    "enableicmpredirect": ({1}, "routes rewritten by ICMP redirects"),
    "safedllsearchmode": ({0}, "DLLs loaded from the current directory first"),
    "enableplaintextpassword": ({1}, "passwords sent to SMB servers in clear text"),
    "spynetreporting": ({0}, "Defender's cloud protection off"),
    "submitsamplesconsent": ({2}, "Defender sends no samples: new malware goes unseen"),
    "puaprotection": ({0}, "Defender lets potentially unwanted apps in"),
    "tamperprotection": ({0, 4}, "Defender's tamper protection off"),
    "disableonaccessprotection": ({1}, "Defender's on-access scanning off"),
    "disablescanonrealtimeenable": ({1}, "Defender's real-time scanning off"),
    "disableblockatfirstseen": ({1}, "Defender's block at first sight off"),
    "promptonsecuredesktop": ({0}, "UAC prompts on the normal desktop, where programs can click them"),
    "securitylayer": ({0}, "Remote Desktop without TLS"),
    "minencryptionlevel": ({1}, "Remote Desktop with weak encryption"),
    "allowunencryptedtraffic": ({1}, "WinRM in clear text"),
    "allowbasic": ({1}, "WinRM's Basic authentication (passwords in clear)"),
}
_REG_WRITERS = frozenset({"reg", "set-itemproperty", "sp", "new-itemproperty", "set-gpregistryvalue",
                          "set-gprefregistryvalue"})


def _number(value: str):
    v = value.strip().strip("'\"").lower().lstrip("$")
    try:
        return int(v, 0)
    except ValueError:
        return v


def _option(lowered: list, names: tuple, positional: int = -1) -> str:
    """The value after any of NAMES (``-Name X`` or ``-Name:X``), or the POSITIONAL-th bare word."""
    for k, t in enumerate(lowered):
        head, colon, rest = t.partition(":")
        if head in names:
            return rest if colon and rest else (lowered[k + 1] if k + 1 < len(lowered) else "")
    if positional >= 0:
        bare = [t for k, t in enumerate(lowered) if not t.startswith(("-", "/")) and
                (k == 0 or not lowered[k - 1].startswith("-") or lowered[k - 1].count(":"))]
        return bare[positional] if positional < len(bare) else ""
    return ""


def _registry(c: Ctx, prog: str) -> Optional[tuple]:
    lowered = [t.lower() for t in c.texts]
    if prog == "reg":
        if lowered[:1] != ["add"]:
            return None
        name, value = _option(lowered, ("/v", "-v")), _option(lowered, ("/d", "-d"))
    elif prog.startswith("set-gp"):
        name, value = _option(lowered, ("-valuename",)), _option(lowered, ("-value",))
    else:
        name, value = _option(lowered, ("-name",), 1), _option(lowered, ("-value",), 2)
    name = name.strip("'\"")
    path_value = _registry_by_path(c.lowered, name, value)
    if path_value:
        return path_value[0], f"{path_value[1]} ({c.text})"
    entry = _REGISTRY.get(name)
    if entry and value and _number(value) in entry[0]:
        return MEDIUM, f"sets {name.strip(chr(39) + chr(34))} to {value.strip(chr(39) + chr(34))}: {entry[1]} " \
            f"({c.text})"
    return None


_IFEO = lazy(r"image\W?file\W?execution\W?options")
_OLD_PROTOCOL = lazy(r"schannel\W*protocols\W*(ssl\W?[23]\.0|tls\W?1\.[01]|pct\W?1\.0)")


def _registry_by_path(lowered: str, name: str, value: str) -> Optional[tuple]:
    """Values whose meaning depends on their key: a debugger attached to a program, an old protocol on."""
    if name == "debugger" and value and _IFEO.search(lowered):
        return HIGH, "runs another program in place of this one (the sticky-keys backdoor: cmd.exe at the logon screen)"
    if name == "defaultpassword" and value and "winlogon" in lowered:
        return MEDIUM, "keeps a logon password in the registry in clear text"
    if _OLD_PROTOCOL.search(lowered) and (name == "enabled" and _number(value) not in (0, "") or
                                          name == "disabledbydefault" and _number(value) == 0):
        return MEDIUM, "switches on an SSL/TLS version that is broken"
    return None


# Defender preference (lowered, without the dash) -> weak values
_DEFENDER: dict = {
    "mapsreporting": {"0", "disabled"}, "submitsamplesconsent": {"2", "neversend"},
    # (2, AuditMode: the protection only reports what it would have blocked)
    "puaprotection": {"0", "disabled", "2", "auditmode"},
    "enablecontrolledfolderaccess": {"0", "disabled", "2", "auditmode"},
    "enablenetworkprotection": {"0", "disabled", "2", "auditmode"},
    "attacksurfacereductionrules_actions": {"0", "disabled", "2", "auditmode"},
    "highthreatdefaultaction": {"6", "9", "allow", "noaction"},
    "severethreatdefaultaction": {"6", "9", "allow", "noaction"},
    "moderatethreatdefaultaction": {"6", "9", "allow", "noaction"},
    "lowthreatdefaultaction": {"6", "9", "allow", "noaction"},
    "unknownthreatdefaultaction": {"6", "9", "allow", "noaction"},
    "threatiddefaultaction_actions": {"6", "9", "allow", "noaction"},
}


def _defender(c: Ctx) -> Optional[tuple]:
    lowered = [t.lower().strip("'\"") for t in c.texts]
    for k, t in enumerate(lowered):
        head, colon, rest = t.lstrip("-").partition(":")
        weak = _DEFENDER.get(head) if t.startswith("-") else None
        values = (rest if colon else (lowered[k + 1] if k + 1 < len(lowered) else "")).split(",")
        if weak and any(v.strip("'\"") in weak for v in values):
            return MEDIUM, f"sets Defender's {c.texts[k].lstrip('-')} the weak way: a protection is off ({c.text})"
    return None


NAMES = frozenset({"sysctl", "set-mppreference", "add-mppreference"} | _REG_WRITERS)


@triggered_by(NAMES, baseline_switches.NAMES, otherwise=False)
def may_weaken(c: Ctx) -> bool:
    prog = c.prog.lower().removesuffix(".exe")
    return prog in NAMES or prog in baseline_switches.NAMES


def rule_baseline_weakened(c: Ctx) -> Optional[tuple]:
    """A benchmark's setting given the value it forbids, by whichever tool writes it."""
    prog = c.prog.lower().removesuffix(".exe")
    texts = c.texts
    if prog == "sysctl":
        pairs = [t.split("=", 1) for t in texts if "=" in t and not t.startswith("-")]
        weak = next((w for k, v in pairs if (w := weak_sysctl(k, v))), None)
        return (MEDIUM, f"switches a kernel hardening setting off ({weak}) ({c.text})") if weak else None
    if prog in _REG_WRITERS:
        return _registry(c, prog)
    if prog in ("set-mppreference", "add-mppreference"):
        return _defender(c)
    return baseline_switches.rule_switched_off(c)
