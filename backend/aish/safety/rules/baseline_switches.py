"""Effect: a security baseline's switch undone: a service, account, boot or platform control the hardening
benchmarks require, turned the other way by the tool made for it (the settings themselves, by name and value:
``baseline_values``).

- Logging, auditing and the clock stopped (``timedatectl set-ntp false``, macOS ``audit -t``, ``launchctl
  bootout`` of auditd or XProtect).
- macOS: Gatekeeper's own preferences, the firewall's stealth mode off, AMFI off in ``nvram boot-args``,
  ``pwpolicy`` requirements zeroed, a user's secure token taken, automatic login set, remote control for all.
- A protecting kernel argument removed (``grubby --remove-args lockdown=integrity``); an AppArmor profile linked
  into ``disable/``; a shell installed setuid; files created writable by everyone (``umask 000``).
- Servers of clear-text logins installed or started (telnetd, rsh, tftp, NIS; ``dism /enable-feature`` of SMB1
  or Telnet), a service account given a login shell, ``net user … /passwordreq:no``, an interface put in
  firewalld's trusted zone.

Taking the weak value away (``--remove-args selinux=0``, ``usermod -s /usr/sbin/nologin www-data``) and every
read stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import HIGH, MEDIUM, Ctx


def _option(texts: list, names: tuple) -> str:
    """The value after any of NAMES (``-s X`` or ``--shell=X``)."""
    for k, t in enumerate(texts):
        head, eq, rest = t.partition("=")
        if head in names and eq:
            return rest
        if t in names and k + 1 < len(texts):
            return texts[k + 1]
    return ""


_MAC_DEFAULTS = lazy(r"\b(GatekeeperDisabled\s+(-bool\s+)?(true|yes|1)|GKAutoRearm\s+(-bool\s+)?(false|no|0)|"
                     r"com\.apple\.alf(\.plist)?\s+stealthenabled\s+(-int\s+|-bool\s+)?(0|false)|"
                     r"EnableAssessment\s+(-bool\s+)?(false|no|0))\b", re.IGNORECASE)
_BOOT_ARGS_OFF = lazy(r"amfi_get_out_of_my_way=(1|0x1)|cs_enforcement_disable=1|amfi=0x?\d*[1-9]|"
                      r"-disable_(aslr|kaslr)|kext-dev-mode=1", re.IGNORECASE)
_WEAK_POLICY = lazy(r"\b(minChars|requiresAlpha|requiresNumeric|maxFailedLoginAttempts|usingHistory)\s*=\s*0\b|"
                    r"\bmaxMinutesUntilChangePassword\s*=\s*0\b", re.IGNORECASE)
_AUDIT_DAEMONS = lazy(r"com\.apple\.(auditd|syslogd|securityd|XProtect\w*|MRT\w*|security\.syspolicy|"
                      r"ManagedClient|endpointsecurityd)\b|\b(auditd|syslogd)\.plist\b", re.IGNORECASE)
_SHELLS_AND_INTERPRETERS = lazy(r"^(/usr)?(/local)?/s?bin/(ba|z|da|k|c|tc|fi|mk|a)?sh$|"
                                r"^(/usr)?(/local)?/bin/(python[\d.]*|perl[\d.]*|ruby[\d.]*|node|php[\d.]*|"
                                r"lua[\d.]*|env|busybox|vim?|find|awk|gawk|less|more|nano|tclsh|expect)$")
_SETUID_MODE = lazy(r"^0?[2467][0-7]{3}$|^[ugo]*\+[rwx]*s")
_SMB1_FEATURE = lazy(r"(/featurename:|-featurename\s+)['\"]?(smb1protocol[\w-]*|telnetserver|tftp)\b", re.IGNORECASE)

# Kernel arguments that protect: removing one switches its protection off.
_KERNEL_PROTECTING = lazy(r"^(lockdown=\w+|module\.sig_enforce=1|selinux=1|enforcing=1|apparmor=1|"
                          r"security=(selinux|apparmor|landlock\S*)|lsm=\S+|audit=1|init_on_(alloc|free)=1|"
                          r"slab_nomerge|pti=on|page_alloc\.shuffle=1|randomize_kstack_offset=(1|on)|"
                          r"ima_appraise=enforce|iommu=force|intel_iommu=on|efi=disable_early_pci_dma)$")
_KERNEL_REMOVERS = frozenset({"--remove-args", "-d", "--delete-options", "--delete", "--delete-if-present"})


def kernel_args(texts: list) -> tuple:
    """(added, removed): the kernel arguments a boot-entry tool is told to add and to remove."""
    added: list = []
    removed: list = []
    for k, t in enumerate(texts):
        head, eq, rest = t.partition("=")
        if t.startswith("-") and eq and head in _KERNEL_REMOVERS | {"--args", "--append", "--append-if-missing",
                                                                    "-a", "--add-options"}:
            (removed if head in _KERNEL_REMOVERS else added).extend(rest.strip("'\"").split())
        elif t in _KERNEL_REMOVERS and k + 1 < len(texts):
            removed.extend(texts[k + 1].strip("'\"").split())
        elif not (k and texts[k - 1] in _KERNEL_REMOVERS):
            added.extend(t.strip("'\"").split())
    return added, removed


# Servers of clear-text logins and files, which the benchmarks want absent.
_PLAINTEXT_SERVERS = lazy(r"^(telnetd|inetutils-telnetd|telnet-server|telnet-server-\w+|rsh-server|"
                          r"rsh-redone-server|tftpd|tftpd-hpa|tftp-server|atftpd|ypserv|talkd|inetutils-talkd|"
                          r"(telnet|rsh|rlogin|rexec|tftp|ypserv|talk|ntalk)\.(socket|service)|"
                          r"telnet-server|telnetserver|tftp)$", re.IGNORECASE)
_INSTALLERS = frozenset({"apt", "apt-get", "aptitude", "dnf", "yum", "zypper", "apk", "pacman",
                         "install-windowsfeature",
                         "enable-windowsoptionalfeature", "add-windowsfeature"})
_DEBUG_SHELL = lazy(r"^(debug-shell(\.service)?|systemd\.debug[-_]shell(=(1|yes|true|on|tty\d+))?|rd\.shell=1)$")
_CONTAINER_UNCONFINED = lazy(r"(^|\s)(--privileged(=true)?|--cap-add[= ](all|sys_admin)|--security-opt[= ]"
                             r"(seccomp|apparmor|label)[=:](unconfined|disable))(\s|$)", re.IGNORECASE)
_HOST_ROOT = lazy(r"(^|\s)(-v|--volume|--mount)[= ]\S*?(^|[\s=,])?(source=)?/:|(^|\s)--pid[= ]host(\s|$)")
_REMOTE_GROUPS = lazy(r"^(remote desktop users|remote management users|\S*\\remote desktop users)$", re.IGNORECASE)
_GUEST_LIKE = lazy(r"^(guest|guests|everyone|anonymous( logon)?|authenticated users|domain users|users|nobody)$",
                   re.IGNORECASE)
_REDUCED_BOOT = lazy(r"(^|\s)(-n|--enable-custom-mdm|-k|--enable-kexts|-a|--disable-boot-args-restriction|"
                     r"-c|--disable-kernel-ctrr|-s|--disable-ssv)(\s|$)")
_BCD_WEAK = lazy(r"loadoptions\s+\S*disable_integrity_checks|(^|\s)/?debug\s+on\b|integrityservices\s+disable|"
                 r"\bdisableelamdrivers\s+(yes|on|true)\b", re.IGNORECASE)
_TINY_VACUUM = lazy(r"--vacuum-(time=\d+(s|sec|m|min|ms|us)?|size=\d+[bk]?|files=[01])$", re.IGNORECASE)

# Accounts that run services and never log in: a login shell given to one is a way in.
SYSTEM_ACCOUNTS = lazy(r"^(nobody|www-data|daemon|bin|sys|games|man|lp|mail|news|uucp|proxy|backup|list|irc|gnats|"
                       r"nginx|apache|httpd|ftp|sshd|_apt|messagebus|postfix|dnsmasq|systemd-[\w-]+|tss|"
                       r"avahi|colord|polkitd|rpc|rpcuser|tcpdump|sync|halt|shutdown|operator|adm)$")
_LOGIN_SHELL = lazy(r"(^|/)(ba|z|da|k|mk|c|tc|fi|a)?sh$")
NAMES = frozenset({"timedatectl", "defaults", "socketfilterfw", "nvram", "sysadminctl",
                   "pwpolicy", "audit", "launchctl", "ln", "install", "ginstall", "dism", "net", "firewall-cmd",
                   "grubby", "kernelstub", "rpm-ostree", "umask",
                   "systemctl", "usermod", "chsh", "kickstart", "docker", "podman", "nerdctl", "kubectl",
                   "bcdedit", "csrutil", "bputil", "auditctl", "journalctl", "add-localgroupmember"} | _INSTALLERS)


def rule_switched_off(c: Ctx) -> Optional[tuple]:
    """A benchmark's service, account, boot or platform switch turned the weak way."""
    prog = c.prog.lower().removesuffix(".exe")
    texts = c.texts
    joined = " ".join(texts)
    if prog == "timedatectl" and texts[:1] == ["set-ntp"] and texts[1:2] and texts[1].lower() in ("false", "0", "no",
                                                                                                   "off"):
        return MEDIUM, f"stops synchronising the clock: logs, certificates and Kerberos drift ({c.text})"
    if prog == "defaults" and "write" in texts[:2] and _MAC_DEFAULTS.search(joined):
        return MEDIUM, f"switches Gatekeeper or the firewall's stealth mode off ({c.text})"
    if prog == "socketfilterfw" and re.search(r"--setstealthmode\s+off|--setallowsigned(app)?\s+on\s+--setblockall",
                                              joined):
        return MEDIUM, f"the macOS firewall answers probes again: the machine is visible on every network ({c.text})"
    if prog == "nvram" and _BOOT_ARGS_OFF.search(joined):
        return HIGH, f"boots macOS with code-signing enforcement (AMFI) or ASLR off ({c.text})"
    if prog == "sysadminctl" and "-securetokenoff" in c.lowered:
        return MEDIUM, f"takes a user's secure token away: they can no longer unlock FileVault ({c.text})"
    if prog == "pwpolicy" and re.search(r"-set(global)?policy|-setaccountpolicies", joined) and \
            _WEAK_POLICY.search(joined):
        return MEDIUM, f"zeroes a password or lockout requirement ({c.text})"
    if prog == "audit" and texts[:1] == ["-t"]:
        return MEDIUM, f"stops the macOS audit daemon: nothing is audited ({c.text})"
    if prog == "launchctl" and re.search(r"\b(unload|bootout|disable|remove)\b", joined) and \
            _AUDIT_DAEMONS.search(joined):
        return MEDIUM, f"stops macOS auditing, logging or malware protection ({c.text})"
    if prog == "ln" and any(t.rstrip("/").startswith("/etc/apparmor.d/disable") for t in texts[1:]):
        return MEDIUM, f"disables an AppArmor profile: what it confined runs unchecked ({c.text})"
    if prog in ("install", "ginstall"):
        return _setuid_install(c)
    if prog == "dism" and "/enable-feature" in c.lowered and _SMB1_FEATURE.search(joined):
        return MEDIUM, f"switches on SMB1, Telnet or TFTP, protocols without protection ({c.text})"
    if prog == "net" and texts[:1] and texts[0].lower() == "user" and \
            re.search(r"/passwordreq:no\b", c.lowered):
        return HIGH, f"lets the account log in without a password ({c.text})"
    if prog == "firewall-cmd":
        return _trusted_zone(c)
    return _opened_ways_in(c, prog)


def _opened_ways_in(c: Ctx, prog: str) -> Optional[tuple]:
    texts = c.texts
    if prog in ("grubby", "kernelstub", "rpm-ostree"):
        removed = [a for a in kernel_args(texts)[1] if _KERNEL_PROTECTING.match(a)]
        if removed:
            return MEDIUM, f"takes {removed[0]} off the kernel's command line: its protection is off at the next " \
                f"boot ({c.text})"
    if prog == "umask" and texts and re.fullmatch(r"0?[0-7]?[0-7]?[0145]", texts[-1]):
        return MEDIUM, f"files created from now on are writable by everyone ({c.text})"
    if prog in _INSTALLERS and (prog.endswith("feature") or set(c.lowered.split()) & {"install", "add", "-s",
                                                                                      "-i", "in"}) or \
            prog == "systemctl" and set(texts[:3]) & {"enable", "start", "unmask", "restart"}:
        served = [t for t in texts if _PLAINTEXT_SERVERS.match(t.strip("'\""))]
        if served:
            return MEDIUM, f"serves {served[0]}: logins or files in clear text, without a password for some " \
                f"({c.text})"
    if prog in ("usermod", "chsh"):
        shell = _option(texts, ("-s", "--shell"))
        who = [t for k, t in enumerate(texts) if not t.startswith("-") and (k == 0 or texts[k - 1] not in
                                                                            ("-s", "--shell", "-g", "-G", "-d", "-u"))]
        if shell and _LOGIN_SHELL.search(shell) and who and SYSTEM_ACCOUNTS.match(who[-1]):
            return MEDIUM, f"gives the service account {who[-1]} a login shell: a way in ({c.text})"
    if prog == "sysadminctl" and re.search(r"-autologin\s+set\b", " ".join(texts)):
        return MEDIUM, f"logs the machine in by itself: anyone at it gets the account ({c.text})"
    return _confinement_or_logs(c, prog)


def _confinement_or_logs(c: Ctx, prog: str) -> Optional[tuple]:
    texts = c.texts
    joined = " ".join(texts)
    if prog in ("systemctl", "grubby", "kernelstub", "rpm-ostree") and \
            (prog != "systemctl" or set(texts[:3]) & {"enable", "start", "unmask"}) and \
            any(_DEBUG_SHELL.match(t) for t in (texts if prog == "systemctl" else kernel_args(texts)[0])):
        return HIGH, f"opens systemd's debug shell: a root shell on tty9 without a password ({c.text})"
    if prog in ("docker", "podman", "nerdctl") and set(texts[:2]) & {"run", "create"} and \
            _CONTAINER_UNCONFINED.search(joined) and _HOST_ROOT.search(joined):
        return MEDIUM, f"runs a container unconfined with the host's root or processes: it owns the host ({c.text})"
    if prog == "kubectl" and texts[:1] == ["label"] and \
            re.search(r"pod-security\.kubernetes\.io/enforce(=privileged\b|-(\s|$))", joined):
        return MEDIUM, f"lets privileged pods into the namespace: pod security is off ({c.text})"
    if prog == "bcdedit" and _BCD_WEAK.search(joined):
        return MEDIUM, f"boots Windows with driver signature checks or its kernel debugger open ({c.text})"
    if prog == "csrutil" and texts[:1] == ["enable"] and "--without" in texts:
        return MEDIUM, f"leaves parts of System Integrity Protection off ({c.text})"
    if prog == "bputil" and _REDUCED_BOOT.search(joined):
        return MEDIUM, f"lowers the Mac's boot security: unsigned kernel extensions or policies may load ({c.text})"
    if prog == "auditctl" and re.search(r"(^|\s)-a\s+(never,task|task,never)(\s|$)", joined):
        return MEDIUM, f"tells the audit system to record no system call at all ({c.text})"
    if prog == "journalctl" and any(_TINY_VACUUM.match(t) for t in texts):
        return MEDIUM, f"deletes nearly the whole system journal: the logs of what happened are gone ({c.text})"
    if prog in ("net", "add-localgroupmember"):
        names = [t.strip("'\"") for t in texts]
        if any(_REMOTE_GROUPS.match(n) for n in names) and any(_GUEST_LIKE.match(n) for n in names) and \
                ("/add" in c.lowered or prog == "add-localgroupmember"):
            return MEDIUM, f"lets everyone log in remotely ({c.text})"
    if prog == "kickstart" and "-allusers" in c.lowered and re.search(r"-privs\s+-all\b", c.lowered):
        return HIGH, f"gives every user full remote control of the Mac ({c.text})"
    return None


def _setuid_install(c: Ctx) -> Optional[tuple]:
    lowered = c.texts
    mode = _option(lowered, ("-m", "--mode"))
    mode = mode or next((t.split("=", 1)[1] for t in lowered if t.startswith("--mode=")), "")
    sources = [t for k, t in enumerate(lowered) if not t.startswith("-") and
               (k == 0 or lowered[k - 1] not in ("-m", "--mode", "-o", "-g", "--owner", "--group", "-t"))]
    if mode and _SETUID_MODE.match(mode) and any(_SHELLS_AND_INTERPRETERS.match(s) for s in sources[:-1]):
        return HIGH, f"installs a shell or an interpreter setuid: anyone who runs it is its owner ({c.text})"
    return None


def _trusted_zone(c: Ctx) -> Optional[tuple]:
    lowered = [t.lower() for t in c.texts]
    trusted = "--zone=trusted" in lowered or any(a == "--zone" and b == "trusted" for a, b in zip(lowered, lowered[1:]))
    moves = any(t.split("=", 1)[0] in ("--change-interface", "--add-interface", "--change-zone", "--add-source",
                                       "--change-source") for t in lowered)
    if trusted and moves:
        return MEDIUM, f"puts an interface or a source in the trusted zone: the firewall lets everything in " \
            f"from it ({c.text})"
    return None
