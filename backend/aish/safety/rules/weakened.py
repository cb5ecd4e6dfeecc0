"""Protections switched off in desktop and service settings, in any settings tool's words.

Each class is a setting's meaning, not a program: the screen lock off (``gsettings``, ``dconf``,
``defaults``, ``kwriteconfig``, ``xfconf-query``), login protections dropped from PAM
(``authselect disable-feature``, ``pam-auth-update --disable``), a firewall that lets everything in
by default, network-wide filters and ban lists turned off (``pihole disable``, ``fail2ban`` ignoring
every address), the kernel's CPU mitigations off on its command line, a mail relay opened to
everyone, an alarm disarmed, every alert silenced, Go's checksum database off, git trusting every
directory or storing credentials in plain text, kernel hardening switches reset by ``sysctl``.
Reading a setting stays quiet; so does switching a protection on.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.baseline_switches import kernel_args
from aish.safety.rules import boot_args
from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.lazy_regex import lazy

_SETTINGS_TOOLS = frozenset("gsettings dconf defaults kwriteconfig5 kwriteconfig6 kwriteconfig xfconf-query "
                            "gconftool-2 gconftool plutil kreadconfig5".split())
_LOCK_KEY = lazy(r"(lock[-_/]?enabled|lock[-_]?screen|autolock|askforpassword|lock[-_]?on[-_]?suspend|"
                 r"lockonresume|lock[-_]?after[-_]?suspend|require[-_]?password|screensaver[-_]?lock)",
                 re.IGNORECASE)
_LOCK_DISABLER = lazy(r"disable[-_]?lock[-_]?screen|disable[-_]?lock|disablescreenlock", re.IGNORECASE)
_OFF = lazy(r"^(false|0|no|off|-int\s*0|-bool\s*(false|no)|'false'|\"false\")$", re.IGNORECASE)
_ON = lazy(r"^(true|1|yes|on)$", re.IGNORECASE)
_READS = frozenset("get read list list-keys list-recursively dump describe monitor watch read-type -l --list".split())

# Kernel command-line words that switch a protection off.
_KERNEL_OFF = boot_args.RISKY  # a protection off, a root shell or a rescue boot
_KERNEL_LINE_TOOLS = re.compile(r"^(kernelstub|grubby|grub2?-editenv|rpm-ostree|ostree|bootctl|kernel-install|"
                                r"sdbootutil|bootupctl|zipl|update-grub|grub-mkconfig|refind-mkdefault|"
                                r"efibootmgr|kexec|systemd-boot|kargs)$")
# Mail relay settings that open it to anyone.
_OPEN_RELAY = lazy(r"\bmynetworks\s*=\s*[^#]*\b0\.0\.0\.0/0|\bmynetworks\s*=\s*[^#]*::/0|"
                   r"\bsmtpd_(relay|recipient)_restrictions\s*=\s*permit\s*$|relay_domains\s*=\s*\*",
                   re.IGNORECASE)
_DISARM = lazy(r"(^|[._/ -])(alarm_)?disarm(ed)?\b|\block[./]unlock\b")
_EVERY_ADDRESS = lazy(r"^(0\.0\.0\.0/0|::/0|0/0|\*|any|0\.0\.0\.0/1)$")
# Hardening switches a `sysctl` write resets.
_SYSCTL_OFF = lazy(r"(kernel\.randomize_va_space|kernel\.yama\.ptrace_scope|kernel\.kptr_restrict|"
                   r"kernel\.dmesg_restrict|kernel\.unprivileged_bpf_disabled|fs\.protected_(symlinks|"
                   r"hardlinks|regular|fifos)|kernel\.perf_event_paranoid|net\.ipv4\.tcp_syncookies|"
                   r"kernel\.modules_disabled|user\.max_user_namespaces)\s*=\s*(0|-1)\b")
_GO_CHECKS_OFF = lazy(r"^(GOSUMDB=off|GONOSUMDB=.*\*|GONOSUMCHECK=1|GONOSUMCHECK=on|GOINSECURE=.*\*|"
                      r"GOFLAGS=.*-insecure|GONOSUMDB=.+|GOFLAGS=.*-mod=mod.*-insecure)$")
# A silence's matcher that matches every alert: `alertname=~".+"`, `severity=~'.*'`.
_MATCH_ALL = lazy(r"=~\s*['\"]?\.[*+]['\"]?\s*$|^['\"]?\{?\s*\w+\s*=~\s*['\"]?\.[*+]")


def _settings_lock_off(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    lowered = [t.lower() for t in texts]
    if set(lowered) & _READS and not set(lowered) & {"set", "write", "-s", "--set"}:
        return None
    joined = " ".join(texts)
    words = joined.replace("=", " ").split()
    for k, w in enumerate(words):
        value = [v for v in words[k + 1:k + 6] if v not in ("-s", "--set", "-t", "--type", "bool", "-n", "--create")]
        following = " ".join(value[:2]) if value[:1] in (["-int"], ["-bool"]) else (value[0] if value else "")
        if _LOCK_KEY.search(w) and not _LOCK_DISABLER.search(w) and _OFF.match(following):
            return MEDIUM, f"switches the screen lock off: anyone at the machine gets the session ({c.text})"
        if _LOCK_DISABLER.search(w) and (_ON.match(following) or following.lower() in ("-bool true", "-int 1")):
            return MEDIUM, f"switches the screen lock off: anyone at the machine gets the session ({c.text})"
    return None


def rule_weakened(c: Ctx) -> Optional[tuple]:
    """A protection switched off by a setting, whichever tool writes it."""
    prog = c.prog.lower().removesuffix(".exe")
    texts = c.texts
    lowered = [t.lower() for t in texts]
    joined_lower = " ".join(lowered)
    if prog in _SETTINGS_TOOLS:
        return _settings_lock_off(c)
    if prog == "authselect" and lowered[:1] == ["disable-feature"] and len(lowered) > 1:
        return MEDIUM, f"takes {texts[1]} out of every login's PAM stack ({c.text})"
    if prog == "pam-auth-update" and set(lowered) & {"--disable", "--remove"}:
        return MEDIUM, f"takes a module out of every login's PAM stack ({c.text})"
    if prog == "ufw" and lowered[:2] == ["default", "allow"] and (len(lowered) == 2 or lowered[2] in ("incoming",
                                                                                                     "routed")):
        return HIGH, f"lets every inbound connection through the firewall ({c.text})"
    if prog in ("firewall-cmd", "firewall-offline-cmd"):
        if any(t in ("--set-default-zone=trusted", "--set-target=accept") for t in lowered) or \
                any(a == "--set-default-zone" and b == "trusted" for a, b in zip(lowered, lowered[1:])):
            return HIGH, f"lets every inbound connection through the firewall ({c.text})"
    if prog in ("pihole", "pi-hole", "blocky", "adguardhome", "nextdns") and \
            ("disable" in lowered or "stop" in lowered or "-s" in lowered and "stop" in lowered):
        return MEDIUM, f"turns off the network's ad and malware filtering for every device ({c.text})"
    if prog == "fail2ban-client":
        if "addignoreip" in lowered and any(_EVERY_ADDRESS.match(t) for t in lowered):
            return MEDIUM, f"fail2ban ignores every address: nobody is banned any more ({c.text})"
        if lowered[:1] == ["stop"] or ("unban" in lowered or "unbanip" in lowered) and "--all" in lowered:
            return MEDIUM, f"fail2ban stops or lifts every ban: brute-force protection is off ({c.text})"
    if prog == "postconf" and any(_OPEN_RELAY.search(t) for t in texts):
        return HIGH, f"opens the mail server as a relay for anyone: it will send spam ({c.text})"
    if prog == "sysctl" and any(_SYSCTL_OFF.search(t.replace(" ", "")) for t in texts):
        return MEDIUM, f"switches a kernel hardening setting off ({c.text})"
    if prog == "amtool" and lowered[:2] in (["silence", "add"], ["silence", "create"]) and \
            any(_MATCH_ALL.search(t) for t in texts[2:]):
        return MEDIUM, f"silences every alert: nobody is told when something breaks ({c.text})"
    if prog == "git" and "config" in lowered[:3]:
        joined = " ".join(lowered)
        if re.search(r"\bsafe\.directory\s+['\"]?\*['\"]?(\s|$)", joined):
            return MEDIUM, f"git trusts repositories owned by anyone: their hooks can run as you ({c.text})"
        if re.search(r"\bremote\.\S+\.mirror\s+['\"]?(true|1|yes|on)\b", joined):
            return MEDIUM, f"every later push from this clone mirrors: remote branches missing here are deleted " \
                           f"({c.text})"
        if re.search(r"\bcredential\.helper\s+['\"]?store\b", joined):
            return MEDIUM, f"git keeps passwords and tokens in a plain-text file ({c.text})"
    if prog in ("go", "export", "setx", "set", "env") and any(_GO_CHECKS_OFF.match(t) for t in texts):
        return MEDIUM, f"turns Go's checksum database off: modules are no longer checked against it ({c.text})"
    if (_KERNEL_LINE_TOOLS.match(prog) or "grub" in prog or "karg" in " ".join(lowered[:2])) and \
            any(_KERNEL_OFF.search(" " + t) for t in kernel_args(texts)[0]):  # removing `selinux=0` protects
        return MEDIUM, f"switches a kernel protection off on its command line ({c.text})"
    if ("arm" in joined_lower or "unlock" in joined_lower) and _DISARM.search(joined_lower) and \
            prog not in ("echo", "printf", "grep", "rg", "man", "cat", "less"):
        return MEDIUM, f"disarms an alarm system or unlocks a door ({c.text})"
    return None


NAMES = _SETTINGS_TOOLS | {"authselect", "pam-auth-update", "ufw", "firewall-cmd", "firewall-offline-cmd", "pihole",
                           "blocky", "adguardhome", "nextdns", "fail2ban-client", "postconf", "sysctl", "amtool",
                           "go", "export", "setx", "git"}


def rule_assignments(c: Ctx) -> Optional[tuple]:
    """``GOSUMDB=off go get …``: an assignment before the command turns the checks off for it."""
    for w in c.seg.words:
        if "=" not in w.text or w.text.startswith("-"):
            break
        if _GO_CHECKS_OFF.match(w.text):
            return MEDIUM, f"turns Go's checksum database off: modules are no longer checked against it ({c.text})"
    return None
