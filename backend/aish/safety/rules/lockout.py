"""Effect: takes down access or services.  Remote access (sshd, network interfaces, routes,
the network lease), firewall policy, accounts and credentials, immutable flags on system
files, unmounting, removing packages the system runs on.  (Stopping processes and the
machine itself: ``stopping``; services through a service manager: ``service_units``.)

Over ssh the user is one command away from losing the machine, so anything that cuts
remote access is high even though nothing is deleted."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules import baseline_switches, firewall_flush
from aish.safety.rules.common import HIGH, LOW, MEDIUM, SEVERE, Ctx, describe, parse_opts, target, worst
from aish.safety.rules.service_units import rule_service
from aish.safety.lazy_regex import lazy

_CORE_PACKAGES = lazy(r"^(openssh-server|openssh|ssh|sudo|systemd|systemd-sysv|libc6|glibc|libc-bin|musl|"
                      r"glibc-[\w-]+|busybox|aaa_base|aaa_glibc-solibs|libc|libc6-\w+|base-system|"
                      r"bash|coreutils|apt|dpkg|rpm|dnf|yum|pacman|python3|python3-minimal|"
                      r"linux-image.*|linux-generic|linux|linux-lts|linux-zen|linux-hardened|linux-firmware|kernel|kernel-core|grub.*|shim.*|init|"
                      r"network-manager|NetworkManager|netplan\.io|ifupdown|iproute2|util-linux|"
                      r"login|passwd|pam|libpam.*|base-files|base|filesystem|xorg|ubuntu-desktop|"
                      r"gnome-shell|zsh|sed|grep|tar|gzip|mount)(:\w+)?$")
# Listings of what nothing needs any more (orphans, leftover configuration): removing them is routine.
_ORPHANS = lazy(r"pacman\s+-Q\w*(dt|td)\w*|deborphan|package-cleanup\s+--(leaves|orphans)|"
                r"\^rc\b|dnf\s+repoquery\s+--unneeded|apt-mark\s+showauto")
_EVERY = {"~i", "?installed", "'~i'", "~i~M", "installed", ".*", "'.*'", "*"}


def _value(joined: str, *names: str) -> str:
    m = re.search(r"(?:^|\s)(?:" + "|".join(re.escape(n) for n in names) + r")[\s=]+(\S+)", joined)
    return m.group(1) if m else ""


def _drops_the_way_in(joined: str) -> bool:
    """An iptables rule on INPUT (or OUTPUT) that drops or rejects what ssh needs: no port other than
    ssh, no particular source, not only loopback, ICMP, UDP or invalid packets."""
    if not re.search(r"(-A|-I|--append|--insert)\s+(INPUT|OUTPUT|PREROUTING)\b", joined) or \
            not re.search(r"(-j|--jump)\s+(DROP|REJECT)", joined):
        return False
    port = _value(joined, "--dport", "--dports", "--destination-port", "--sport")
    source = _value(joined, "-s", "--source", "-d", "--destination")
    proto = _value(joined, "-p", "--protocol").lower()
    iface = _value(joined, "-i", "--in-interface", "-o", "--out-interface")
    if port and not re.search(r"(^|[,:])(22|ssh)($|[,:])", port) or iface == "lo" or "INVALID" in joined:
        return False
    if proto and proto not in ("tcp", "all", "6"):
        return False
    if source and source not in ("0.0.0.0/0", "::/0", "0/0", "any"):
        return False
    return "--state" not in joined or "NEW" in joined


def rule_firewall(c: Ctx) -> Optional[tuple]:
    p, texts = c.prog, c.texts
    joined = " ".join(texts)
    if p in ("iptables", "ip6tables", "iptables-legacy", "iptables-nft"):
        flags, values, _ = parse_opts(c.args, frozenset({"-P", "--policy", "-A", "--append", "-I", "--insert",
                                                         "-t", "--table", "-j", "--jump", "-p", "-s", "-d",
                                                         "--dport", "-i", "-o", "-D", "-F", "-X", "-m"}))
        if re.search(r"(^|\s)(-P|--policy)\s+(INPUT|FORWARD|OUTPUT)\s+(DROP|REJECT)", joined):
            return HIGH, f"sets the default firewall policy to drop: remote access stops ({c.text})"
        if _drops_the_way_in(joined):
            return HIGH, f"drops incoming traffic, ssh included: remote access stops ({c.text})"
        if re.search(r"--dport\s+22\b.*-j\s+(DROP|REJECT)", joined):
            return HIGH, f"blocks ssh ({c.text})"
        if flags & {"F", "--flush", "X", "--delete-chain", "Z"} - {"Z"}:
            return MEDIUM, f"flushes the firewall rules ({c.text})"
        return None
    if p in ("iptables-restore", "ip6tables-restore", "ipset") and (p != "ipset" or texts[:1] in (["flush"],
                                                                                               ["destroy"])):
        return MEDIUM, f"replaces the firewall rules wholesale ({c.text})"
    if p == "nft":
        if re.search(r"\b(add|insert)\s+rule\b.*\binput\b", joined) and re.search(r"\b(drop|reject)\s*$", joined) \
                and (not re.search(r"\bdport\b", joined) or re.search(r"\bdport\s+(22|ssh|\{[^}]*\b22\b)", joined)) \
                and not re.search(r"\b(saddr|iif(name)?\s+\"?lo\b|ct\s+state\s+invalid)", joined):
            return HIGH, f"drops incoming traffic, ssh included: remote access stops ({c.text})"
        if texts[:2] in (["flush", "ruleset"], ["delete", "table"], ["flush", "table"]) or texts[:1] == ["-f"]:
            return MEDIUM, f"flushes or replaces the firewall rules ({c.text})"
        if re.search(r"policy\s+drop", joined):
            return HIGH, f"sets a drop policy: remote access may stop ({c.text})"
        return None
    if p == "ufw":
        if texts[:1] == ["default"] and re.search(r"\b(deny|reject)\b", joined) and "outgoing" not in texts:
            return HIGH, f"ufw denies incoming by default: without an ssh rule remote access stops ({c.text})"
        rule = texts[texts.index("delete") + 1:] if "delete" in texts[:2] else None
        if rule is not None:  # `ufw delete allow 80`: what goes is what the rule did
            said = " ".join(rule)
            if rule[:1] in (["allow"], ["limit"]):
                return (HIGH, f"ufw delete removes the rule that lets ssh in: remote access may stop ({c.text})") \
                    if re.search(r"\b(22|ssh|OpenSSH)\b", said) else None  # the firewall is only stricter
            if rule[:1] in (["deny"], ["reject"]):
                return LOW, f"ufw delete removes a rule that kept {' '.join(rule[1:])} out ({c.text})"
            if rule[:1] and rule[0].isdigit():
                return MEDIUM, f"ufw delete {rule[0]} removes that numbered rule: if it let ssh in, remote access " \
                    f"stops ({c.text})"
            return None
        if re.search(r"\b(deny|reject)\b.*\b(22|ssh|OpenSSH)\b", joined):
            return HIGH, f"ufw blocks ssh ({c.text})"
        if texts[:1] == ["disable"] or texts[:2] == ["--force", "disable"]:
            return HIGH, f"ufw disable switches the firewall off: every port is open to the network ({c.text})"
        if texts[:1] == ["reset"] or texts[:1] == ["--force"] and texts[1:2] == ["reset"]:
            return MEDIUM, f"ufw {texts[-1]} throws away the firewall rules ({c.text})"
        if texts[-1:] == ["enable"]:
            return LOW, f"enables the firewall: check ssh is allowed first ({c.text})"
        return None
    if p == "firewall-cmd":
        if "--panic-on" in texts:
            return HIGH, f"firewall panic mode drops all traffic ({c.text})"
        if re.search(r"--remove-(service|port)=?(ssh|22)", joined) or "--set-default-zone=drop" in texts \
                or "--set-default-zone=block" in texts or re.search(r"--zone[= ](drop|block)\b", joined) and \
                re.search(r"--(change|add)-(interface|source)", joined):
            return HIGH, f"removes ssh from the firewall ({c.text})"
        return None
    if p == "pfctl":
        if "-d" in texts:
            return HIGH, f"pfctl -d switches the packet filter off: every port is open to the network ({c.text})"
        if any(t in ("-F", "-Fa") for t in texts) and not firewall_flush.reloads(texts):
            return MEDIUM, f"flushes or disables the packet filter ({c.text})"
    return None


def rule_network(c: Ctx) -> Optional[tuple]:
    p, texts = c.prog, c.texts
    joined = " ".join(texts)
    if p == "ip":
        if re.search(r"\blink\s+set\s+(dev\s+)?(?!lo\b)\S+.*\bdown\b", joined):
            return HIGH, f"takes a network interface down: remote access over it stops ({c.text})"
        if re.search(r"\blink\s+(del|delete)\s+(dev\s+)?(?!lo\b)\S+", joined):
            return MEDIUM, f"deletes a network interface ({c.text})"
        if re.search(r"\b(addr|address|a)\s+(flush|del|delete)\b", joined) and " lo" not in joined:
            return HIGH, f"removes the interface's addresses: remote access stops ({c.text})"
        if re.search(r"\b(route|r)\s+(flush|del|delete)\b.*\b(default|all|table)\b|"
                     r"\b(route|rule)\s+flush\b(?!\s+cache\b)", joined):  # the route cache is only a cache
            return HIGH, f"removes the routes: the machine goes off the network ({c.text})"
        return None
    if p in ("ifconfig",) and "down" in texts and texts[:1] != ["lo"]:
        return HIGH, f"takes a network interface down ({c.text})"
    if p in ("ifdown",) and texts and texts[-1] != "lo":
        return HIGH, f"takes a network interface down ({c.text})"
    if p == "route" and texts[:1] in (["del"], ["delete"], ["flush"], ["-n"]) and \
            ("default" in texts or texts[:1] == ["flush"]):
        return HIGH if texts[:1] != ["-n"] else None, f"removes the default route ({c.text})"
    if p == "nmcli" and (re.search(r"\bnetworking\s+off\b|\bradio\s+(all|wifi)\s+off\b", joined)
                         or re.search(r"\b(con|connection|c|dev|device|d)\s+(down|delete|del|disconnect)\b", joined)):
        return HIGH if "networking off" in joined else MEDIUM, f"takes the network down ({c.text})"
    if p in ("rmmod", "modprobe") and (p == "rmmod" or "-r" in texts):
        return MEDIUM, f"unloads a kernel module (a driver in use stops working) ({c.text})"
    return None


def rule_accounts(c: Ctx) -> Optional[tuple]:
    p, texts = c.prog, c.texts
    flags, values, pos = parse_opts(c.args, frozenset({"-s", "--shell", "-G", "--groups", "-e", "--expiredate",
                                                       "-E", "-g", "--gid", "-d", "--home", "-u", "-c", "-M",
                                                       "-m", "-I", "-W", "-n", "-x"}))
    who = pos[-1].text if pos else "a user"
    root = who in ("root", "$USER", "${USER}", "$LOGNAME", "$(whoami)", "`whoami`")
    if p in ("userdel", "deluser", "luserdel") and not pos and c.xargs:  # `cut -f1 leavers.csv | xargs userdel -r`
        return MEDIUM, f"deletes every account its input names ({c.text})"
    if p in ("userdel", "deluser", "luserdel") and pos:
        if p == "deluser" and len(pos) == 2:
            return (HIGH if pos[1].text in ("sudo", "wheel", "admin") else MEDIUM,
                    f"removes {pos[0].text} from the group {pos[1].text} ({c.text})")
        level = HIGH if root else MEDIUM
        home_too = flags & {"r", "--remove", "--remove-home", "--remove-all-files", "f"}
        extra = " and their home directory" if home_too else ""
        return level, f"deletes the account {who}{extra} ({c.text})"
    if p in ("groupdel", "delgroup") and pos:
        return (HIGH if pos[-1].text in ("sudo", "wheel", "admin", "root") else MEDIUM,
                f"deletes the group {pos[-1].text} ({c.text})")
    if p == "usermod":
        if flags & {"L", "--lock"} or (values.get("-e") or values.get("--expiredate", "x")) in ("0", "1", "1970-01-01"):
            return (HIGH if root else MEDIUM), f"locks the account {who} ({c.text})"
        shell = values.get("-s") or values.get("--shell") or ""
        if re.search(r"(nologin|false)$", shell) and not baseline_switches.SYSTEM_ACCOUNTS.match(who):
            return (HIGH if root else MEDIUM), f"takes the login shell away from {who} ({c.text})"
        if ("G" in flags or "--groups" in flags) and not flags & {"a", "--append"}:
            return MEDIUM, (f"usermod -G without -a replaces all of {who}'s groups (sudo access included) "
                            f"({c.text})")
        return None
    if p == "passwd" and flags & {"l", "--lock", "d", "--delete", "e", "--expire"}:
        return (HIGH if root or not pos else MEDIUM), f"locks, expires or empties the password of {who} ({c.text})"
    if p == "chage" and (values.get("-E") in ("0", "1") or values.get("-M") == "0"):
        return MEDIUM, f"expires the account {who} ({c.text})"
    if p == "gpasswd" and flags & {"d", "--delete", "M", "--members"}:
        if any(w.text in ("sudo", "wheel", "admin", "root") for w in pos):
            return HIGH, f"takes {who}'s admin group away (sudo stops working) ({c.text})"
        return MEDIUM, f"changes who is in a group (possibly sudo) ({c.text})"
    if p == "chsh" and re.search(r"(nologin|false)$", values.get("-s", "") or values.get("--shell", "")):
        return MEDIUM, f"takes the login shell away ({c.text})"
    if p in ("chpasswd", "chgpasswd"):
        return MEDIUM, f"sets passwords from input ({c.text})"
    if p == "ssh-keygen" and flags & {"f"} and not flags & {"l", "y", "R", "F", "H", "E"}:
        path = values.get("-f", "")
        if re.search(r"/etc/ssh/ssh_host_|^~?/?\.ssh/id_|/\.ssh/id_", path):
            return LOW, f"writes a key at {path}; an existing key there is replaced ({c.text})"
    if p == "gpg" and any(t.startswith("--delete-secret") or t == "--delete-keys" for t in texts):
        return MEDIUM, f"deletes private keys from the keyring ({c.text})"
    if p == "security" and texts[:1] and texts[0] in ("delete-keychain", "delete-certificate", "delete-identity"):
        return MEDIUM, f"deletes keychain entries ({c.text})"
    if p == "ssh-add" and flags & {"D"}:
        return LOW, f"forgets every key in the ssh agent ({c.text})"
    return None


def rule_immutable(c: Ctx) -> Optional[tuple]:
    """``chattr +i``/``chflags schg`` on system files: updates and logins start failing."""
    texts = c.texts
    mode = next((t for t in texts if re.fullmatch(r"[+-=][aAcCdDeFijmPsStTux]+|s?u?schg|noschg|uchg|nouchg", t)), "")
    if not mode or not re.search(r"[ia]|schg|uchg", mode):
        return None
    rec = "-R" in texts
    best = None
    for w in c.args:
        if w.text.startswith(("-", "+", "=")) or w.text == mode:
            continue
        t = target(w)
        if t.kind in SEVERE + ("critical", "system", "dot-critical"):
            level = HIGH if rec or t.kind in SEVERE + ("critical",) else MEDIUM
            best = worst(best, (level, f"{c.prog} {mode} on {describe(t)}: system updates and logins can fail "
                                       f"({c.text})"))
        elif rec:
            level = MEDIUM if t.path.startswith("/") and t.kind not in ("temp", "sink") else LOW
            best = worst(best, (level, f"{c.prog} {mode} -R on {t.shown}: nothing under it can change ({c.text})"))
    return best


def rule_mount(c: Ctx) -> Optional[tuple]:
    p = c.prog
    flags, values, pos = parse_opts(c.args, frozenset({"-o", "--options", "-t", "--types", "-O"}))
    if p == "umount":
        if flags & {"a", "--all"} or any(w.text in ("/", "/usr", "/home", "/boot", "/var", "/boot/efi") for w in pos):
            return HIGH, f"unmounts filesystems the system runs on ({c.text})"
        return None
    if p == "mount" and re.search(r"\bremount\b.*\bro\b|\bro\b.*\bremount\b", values.get("-o", "") or
                                  values.get("--options", "")) and any(w.text == "/" for w in pos):
        return HIGH, f"makes the root filesystem read-only ({c.text})"
    if p == "swapoff" and flags & {"a", "--all"}:
        return LOW, f"turns swap off (memory-hungry processes may be killed) ({c.text})"
    return None


def rule_packages(c: Ctx) -> Optional[tuple]:
    """Removing the packages the system boots, logs in or is reached with."""
    p, texts = c.prog, c.texts
    verbs = {"apt": {"remove", "purge", "autoremove"}, "apt-get": {"remove", "purge", "autoremove"},
             "aptitude": {"remove", "purge"}, "dnf": {"remove", "erase", "autoremove"},
             "yum": {"remove", "erase", "autoremove"}, "zypper": {"remove", "rm"}, "apk": {"del"},
             "snap": {"remove"}, "pkg": {"delete", "remove"}, "emerge": {"--unmerge", "-C", "--depclean"},
             "brew": set(), "pip": set(), "opkg": {"remove"}, "slackpkg": {"remove"}, "eopkg": {"remove", "rm"},
             "xbps-remove": {"*"}, "removepkg": {"*"}, "pkg_delete": {"*"}, "pkgrm": {"*"},
             "urpme": {"*"}, "swremove": {"*"}}  # urpmi's erase, HP-UX's remover
    if p in ("pacman", "yay", "paru"):
        if not any(re.fullmatch(r"-R\w*|--remove", t) for t in texts):
            return None
        pkgs = [t for t in texts if not t.startswith("-")]
    elif p in ("dpkg", "rpm", "nix-env"):
        if not any(t in ("-r", "--remove", "-P", "--purge", "-e", "--erase", "--uninstall") for t in texts):
            return None
        pkgs = [t for t in texts if not t.startswith("-")]
        if any(t.startswith(("--force-all", "--force-remove-essential", "--nodeps")) for t in texts):
            return MEDIUM, f"force-removes packages others depend on ({c.text})"
    elif p in verbs and verbs[p]:
        pos = [t for t in texts if not t.startswith("-")]
        if not pos or pos[0] not in verbs[p] and not (p == "emerge" and set(texts) & verbs[p]) and "*" not in verbs[p]:
            return None
        pkgs = pos if p == "emerge" and pos[0] not in verbs[p] or "*" in verbs[p] else pos[1:]  # `emerge -C ATOM`
    else:
        return None
    if any(t.startswith(("--force-broken-world", "--force-depends", "--force-removal-of-dependent", "--nodeps",
                         "--force-remove-essential")) for t in texts) or p == "xbps-remove" and "-F" in texts:
        core = [x for x in pkgs if _CORE_PACKAGES.match(x.rsplit("/", 1)[-1])]
        return (HIGH if core else MEDIUM), f"force-removes packages others depend on ({c.text})"
    if p in ("pkg", "pkg_delete") and any(t in ("--all", "-a") or re.fullmatch(r"-[a-zA-Z]*a[a-zA-Z]*", t)
                                          for t in texts) or "--all" in texts and p in ("pacman", "pkg", "dnf"):
        return HIGH, f"removes every installed package ({c.text})"
    if p == "snap" and "--purge" in texts:
        return MEDIUM, f"snap remove --purge deletes the snap's data too (no snapshot is kept) ({c.text})"
    if any(x in _EVERY for x in pkgs):  # aptitude's, port's and nix-env's "every one"
        return HIGH, f"removes every installed package ({c.text})"
    core = [x for x in pkgs if _CORE_PACKAGES.match(x.rsplit("/", 1)[-1]) or x.startswith("*") or x == "'*'"]
    if core:
        return HIGH, f"removes {', '.join(core[:3])}, which the system boots, logs in or is reached with ({c.text})"
    if (c.xargs or any(w.subs for w in c.args)) and not any(_ORPHANS.search(sub) for w in c.args for sub in w.subs):
        return MEDIUM, f"removes every package a list computed at run time names (core ones too) ({c.text})"
    return None


def rule_boot(c: Ctx) -> Optional[tuple]:
    p, texts = c.prog, c.texts
    if p == "efibootmgr" and any(t in ("-B", "--delete-bootnum") for t in texts):
        return HIGH, f"deletes a boot entry: the machine may not boot ({c.text})"
    if p == "bootctl" and texts[:1] == ["remove"]:
        return HIGH, f"removes the boot loader from the EFI partition: the machine may not boot ({c.text})"
    if p in ("grub-install", "grub2-install") and any(w.text.startswith("/dev/") for w in c.args):
        return MEDIUM, f"rewrites the boot loader of {texts[-1]} ({c.text})"
    return None


RULES = {"systemctl": [rule_service], "service": [rule_service],
         "rc-service": [rule_service], "sv": [rule_service], "rc-update": [rule_service],
         "update-rc.d": [rule_service], "chkconfig": [rule_service], "launchctl": [rule_service],
         "iptables": [rule_firewall], "ip6tables": [rule_firewall], "iptables-legacy": [rule_firewall],
         "iptables-nft": [rule_firewall], "iptables-restore": [rule_firewall],
         "ip6tables-restore": [rule_firewall], "ipset": [rule_firewall], "nft": [rule_firewall],
         "ufw": [rule_firewall], "firewall-cmd": [rule_firewall], "pfctl": [rule_firewall],
         "ip": [rule_network], "ifconfig": [rule_network], "ifdown": [rule_network], "route": [rule_network],
         "nmcli": [rule_network], "rmmod": [rule_network], "modprobe": [rule_network],
         "chattr": [rule_immutable], "chflags": [rule_immutable],
         "umount": [rule_mount], "mount": [rule_mount], "swapoff": [rule_mount],
         "efibootmgr": [rule_boot], "bootctl": [rule_boot], "grub-install": [rule_boot], "grub2-install": [rule_boot]}
for _p in ("userdel", "deluser", "luserdel", "groupdel", "delgroup", "usermod", "passwd", "chage", "gpasswd",
           "chsh", "chpasswd", "chgpasswd", "ssh-keygen", "gpg", "security", "ssh-add"):
    RULES[_p] = [rule_accounts]
for _p in ("apt", "apt-get", "aptitude", "dnf", "yum", "zypper", "apk", "snap", "pkg", "emerge", "pacman",
           "yay", "paru", "dpkg", "rpm", "nix-env", "opkg", "slackpkg", "eopkg", "xbps-remove", "removepkg",
           "pkg_delete", "pkgrm", "urpme", "swremove"):
    RULES[_p] = [rule_packages]
