"""Effect: what a write means where it lands.  A line appended to sudoers, sshd or PAM
configuration, ``/etc/ld.so.preload``, a crontab or a shell's start-up file does whatever
that file makes of it; OS security features switched off (SELinux, Gatekeeper, SIP,
AppArmor, ASLR, TLS checks, X access control); the network lease released.

The content comes from the same line: ``echo``/``printf`` arguments, a heredoc, a
here-string, or what is piped into ``tee``.  A command written into a crontab or an rc
file is judged as a command, with when it runs added to the reason.
"""
from __future__ import annotations

import re
from typing import Callable, Optional

from aish.safety.rules import baseline_values, guard_files, guard_settings, host_keys, open_servers, resolution, \
    system_files, updates_off
from aish.safety.rules import startup_folders
from aish.safety.rules.common import HIGH, LOW, MEDIUM, Ctx, fragment, worst
from aish.safety.rules.run_files import RUN_FILES, SHELL_ENDS, STARTUP, dropped_program, temporary_lines_run, \
    way_back
from aish.safety.rules.secret_perms import secret_redirected_to_served
from aish.safety.rules.writers import edits
from aish.safety.unwrap import unwrap
from aish.safety.lazy_regex import lazy

# (file pattern, [(content pattern, level, what it means)], level of any other write, what that means)
_FILES: list = [
    (re.compile(r"^(/private)?/etc/sudoers(\.d/.*)?$"),
     [(re.compile(r"!authenticate|NOPASSWD:\s*ALL\b|ALL\s*=\s*\(\s*ALL[^)]*\)\s*(NOPASSWD:\s*)?ALL\b|"
                 r"NOPASSWD:[^\n]*?(/|\s)(ba|z|k|c|tc|da|fi|a)?sh\b|"  # a shell, or a program that gives one
                 r"NOPASSWD:[^\n]*/(vim?|nvim|nano|emacs|ed|less|more|man|env|python[\d.]*|perl|ruby|node|php|lua|"
                 r"find|awk|gawk|tee|su|sudo|dd|tar|zip|git|rsync|cp|mv|chmod|chown|install|bash|docker|nmap|"
                 r"crontab|systemd-run|journalctl)(\s*(,|$)|\s+\*)", re.IGNORECASE | re.MULTILINE), HIGH,
       "lets a user run anything as root (sudoers)"),
      # commands named with their arguments: sudo allows those alone, without asking for a password
      (re.compile(r"NOPASSWD:\s*/\S+\s+[^\s,*]", re.IGNORECASE), MEDIUM,
       "lets a user run the commands it names as root without a password (sudoers)"),
      (re.compile(r"NOPASSWD", re.IGNORECASE), HIGH,
       "lets a user run a program as root without a password, with any arguments (sudoers)")],
     MEDIUM, "a bad line in sudoers breaks sudo for everyone"),
    (re.compile(r"^/etc/ssh/sshd_config(\.d/.*)?$"),
     [(re.compile(r"PermitEmptyPasswords\s*[= ]\s*yes|AuthorizedKeysFile\s*[= ]\s*/dev/null", re.IGNORECASE), HIGH,
       "lets anyone log in over ssh"),
      (re.compile(r"PermitRootLogin\s*[= ]\s*yes|PasswordAuthentication\s*[= ]\s*yes|"
                  r"StrictModes\s*[= ]\s*no|UsePAM\s*[= ]\s*no", re.IGNORECASE),
       MEDIUM, "weakens ssh logins (root or passwords allowed)")],
     MEDIUM, "changes how ssh logins work; a mistake locks you out"),
    (re.compile(r"^/etc/(pam\.d/.*|security/.*|pam\.conf)$"),
     [(re.compile(r"pam_permit\.so"), HIGH, "lets anyone log in without a password (pam_permit)"),
      (re.compile(r"pam_deny\.so"), HIGH, "stops every login (pam_deny)")],
     MEDIUM, "changes how logins are checked; a mistake locks everyone out"),
    (re.compile(r"^/etc/ld\.so\.preload$"), [], HIGH, "loads a library into every program (ld.so.preload)"),
    (re.compile(r"^/etc/(environment|security/pam_env\.conf)$|^~/\.pam_environment$"),
     [(re.compile(r"^\s*(export\s+)?LD_(PRELOAD|LIBRARY_PATH)\s*=", re.MULTILINE), HIGH,
       "loads a library into every program started after login")], None, ""),
    # your own authorized_keys is yours to extend (ssh-copy-id does it); root's or another user's is a way in
    (re.compile(r"^(/root|/var/root|~root)/\.ssh/authorized_keys2?$"),
     [(re.compile(r"(ssh|ecdsa|sk)-[\w@.-]+\s+AAAA"), HIGH, "lets whoever holds that key log in as root")],
     MEDIUM, "changes who may log in as root over ssh"),
    (re.compile(r"^(/home|/Users)/[^/]+/\.ssh/authorized_keys2?$|^~[a-z_][\w-]*/\.ssh/authorized_keys2?$"),
     [(re.compile(r"(ssh|ecdsa|sk)-[\w@.-]+\s+AAAA"), MEDIUM, "lets whoever holds that key log in as that user")],
     MEDIUM, "changes who may log in as that user over ssh"),
    (re.compile(r"^/etc/passwd$"), [(re.compile(r"^[^:\n]*::0:0:|:x?:0:0:", re.MULTILINE), HIGH,
                                      "adds an account with root's powers")],
     MEDIUM, "a bad line in /etc/passwd locks users out"),
    (re.compile(r"^/proc/sys/kernel/(randomize_va_space|yama/ptrace_scope|kptr_restrict|dmesg_restrict)$"),
     [(re.compile(r"^\s*0\s*$"), MEDIUM, "switches a kernel protection off")], None, ""),
    (re.compile(r"^/etc/sysctl\.(conf|d/.*)$"),
     [(re.compile(r"randomize_va_space\s*=\s*0|ptrace_scope\s*=\s*0"), MEDIUM, "switches a kernel protection off")],
     None, ""),
    (re.compile(r"^/etc/selinux/config$"), [(re.compile(r"SELINUX\s*=\s*(disabled|permissive)"), MEDIUM,
                                             "switches SELinux off")], None, ""),
    (re.compile(r"^/etc/default/grub(\.d/.*)?$|^/boot/(grub2?/grub\.cfg|cmdline\.txt|loader/entries/.*)$|"
                r"^/etc/kernel/cmdline$"),
     [(re.compile(r"\b(selinux=0|enforcing=0|apparmor=0|security=none|lockdown=none|module\.sig_enforce=0)"),
       MEDIUM, "the machine boots with a security feature off")], None, ""),
    (re.compile(r"^/etc/hosts\.deny$"),
     [(re.compile(r"^\s*(ALL|sshd|sshd2?)\s*:\s*(ALL|\*|0\.0\.0\.0/0|\[::\]/0)\b", re.IGNORECASE | re.MULTILINE), HIGH,
       "refuses every connection to these services, yours included (hosts.deny)")], None, ""),
    (re.compile(r"^/etc/apt/(sources\.list(\.d/.*)?|apt\.conf(\.d/.*)?)$"),
     [(re.compile(r"trusted\s*=\s*yes|AllowUnauthenticated|Verify-Peer\s+\"?false", re.IGNORECASE), MEDIUM,
       "installs packages nobody signed")], None, ""),
    (re.compile(r"^/etc/systemd/journald\.conf(\.d/.*)?$"),
     [(re.compile(r"^\s*Storage\s*=\s*none", re.IGNORECASE | re.MULTILINE), MEDIUM, "the system keeps no logs")],
     None, ""),
    (re.compile(r"^/etc/exports(\.d/.*)?$"),
     [(re.compile(r"^\s*/(home|root|etc)?/?\s+(\*|0\.0\.0\.0/0)\(|no_root_squash", re.MULTILINE), HIGH,
       "shares a file system with every host (NFS exports)")], None, ""),
    (re.compile(r"^(/usr/local)?/etc/doas\.conf$"),
     [(re.compile(r"\bnopass\b", re.IGNORECASE), HIGH, "lets a user run commands as root without a password (doas)")],
     MEDIUM, "a bad line in doas.conf breaks doas for everyone"),
    # clients' configuration files: certificate or signature checks switched off for every download
    (re.compile(r"^(~/\.(curlrc|wgetrc|npmrc|yarnrc(\.yml)?|condarc|gemrc|gitconfig|pip/pip\.conf|config/pip/pip\.conf|"
                r"bundle/config|docker/daemon\.json|config/git/config)|_curlrc|/etc/(wgetrc|npmrc|pip\.conf|gitconfig|"
                r"dnf/dnf\.conf|yum\.conf|yum\.repos\.d/.*|zypp/.*|pacman\.conf|docker/daemon\.json))$"),
     [(re.compile(r"^\s*(-k|--insecure|insecure)\s*$|check_certificate\s*=\s*off|strict-ssl\s*=\s*false|"
                  r"ssl_?verify\s*[=:]\s*[\"']?(0|false|no|off)\b|ssl_verify_mode[\"']?\s*[=:]\s*[\"']?0|"
                  r"trusted-host\s*=|gpgcheck\s*=\s*0|SigLevel\s*=\s*Never|enableStrictSsl\s*:\s*false|"
                  r"insecure-registries", re.IGNORECASE | re.MULTILINE), MEDIUM,
       "turns certificate or signature checks off for every download")], None, ""),
]
_FILES += host_keys.FILES + resolution.FILES + open_servers.FILES + updates_off.FILES + baseline_values.FILES + \
    system_files.FILES + guard_settings.FILES + guard_files.FILES
_ECHO_OPTION = lazy(r"-[neE]+")
_HOME_VARIABLE = lazy(r"^(\$HOME|\$\{HOME\})(?=/)")


def content_of(seg, chain: list) -> str:
    """What a segment writes: echo/printf words, a heredoc or here-string, or what a pipe feeds ``tee``."""
    sources = [seg] + ([chain[-1]] if chain else [])
    texts = []
    for s in sources:
        words = s.words
        if words and words[0].text.lower() in _PS_WRITERS:  # Add-Content -Path P -Value '…'
            lowered = [w.text.lower() for w in words]
            values = [words[k + 1].text for k, t in enumerate(lowered[:-1]) if t == "-value"]
            if not values:  # `Add-Content PATH 'line'`: the value is the second positional
                plain = [w.text for k, w in enumerate(words[1:], 1) if not w.text.startswith("-") and
                         not lowered[k - 1].startswith("-")]
                values = plain[1:2]
            texts += [v.replace("`t", "\t").replace("`n", "\n") for v in values]
        words = unwrap(words)[0] if words and words[0].text == "sudo" else words  # `sudo echo 1 > /proc/sys/…`
        if words and words[0].text in ("echo", "printf", "print"):
            texts.append(" ".join(w.text for w in words[1:] if not _ECHO_OPTION.fullmatch(w.text)))
        texts += [r.body for r in s.redirects if r.body]
        texts += [r.target.text for r in s.redirects if r.op == "<<<" and r.target is not None]
    if not texts:
        return ""  # most commands write nothing they name
    return "\n".join(t.replace("\\n", "\n").replace("\\t", "\t") for t in texts)


def _path(word) -> str:
    """The path a word names; a Windows path as typed (the shell's reading eats its backslashes)."""
    return word.raw.strip("'\"") if "\\" in word.raw else word.text


def written_files(seg) -> list:
    """(path, appended?) for every file this segment writes by redirection, ``tee`` or PowerShell's
    ``Add-Content``/``Set-Content``/``Out-File``."""
    out = []
    for red in seg.redirects:
        if red.target is not None and red.op.lstrip("0123456789&").startswith(">") and not red.op.endswith("&"):
            out.append((_path(red.target), ">>" in red.op))
    words = seg.words
    if words:
        inner = unwrap(words)[0]
        if inner and inner[0].text in ("tee", "sponge"):
            append = any(w.text in ("-a", "--append") for w in inner[1:])
            out += [(w.text, append) for w in inner[1:] if not w.text.startswith("-")]
        elif inner and inner[0].text.lower() in _PS_WRITERS:
            texts = [w.text.lower() for w in inner]
            path = next((_path(inner[k + 1]) for k, t in enumerate(texts[:-1]) if t in ("-path", "-filepath",
                                                                                      "-literalpath")),
                        next((_path(w) for w in inner[1:] if not w.text.startswith("-")), ""))
            out += [(path, texts[0] in ("add-content", "ac") or "-append" in texts)] if path else []
    return out


_PS_WRITERS = {"add-content", "ac", "set-content", "sc", "out-file"}


def rule_write_meaning(seg, chain: list, recurse: Callable[[str], Optional[tuple]]) -> Optional[tuple]:
    """Judge a write by where it lands and what it says."""
    files = written_files(seg)
    read: list = []  # what the segment writes, read once and only where a write or an editor needs it

    def fed() -> str:
        if not read:
            read.append(content_of(seg, chain))
        return read[0]

    changed = edits(seg, fed)
    if not files and not changed:
        return None  # most commands: no redirect, no editor, and their words never read
    text = fed()
    best = secret_redirected_to_served(seg, files)
    if not text and files:  # `cat /tmp/x >> ~/.bashrc`: what a temporary file holds, run later
        best = worst(best, temporary_lines_run(seg, chain, [p for p, _ in files]))
    for path, append, what_in in [(p, a, text) for p, a in files] + [(p, None, t) for p, t in changed]:
        best = worst(best, written_meaning(path, append, what_in, recurse))
        best = worst(best, startup_folders.script_written(path, seg))
    return best


# A shell's start-up file names tool homes (~/.fzf, ~/.asdf) all the time: only a temporary place counts there.
_TEMPORARY = ("/tmp/", "/var/tmp/", "/dev/shm/", "/run/shm/")


def written_meaning(path: str, append: Optional[bool], what_in: str,
                    recurse: Callable[[str], Optional[tuple]]) -> Optional[tuple]:
    """What ``what_in`` means written to ``path``: appended (True), overwritten (False) or edited (None, only
    what the text says counts); lines of a file the system runs later are judged as the commands they run."""
    best = None
    path = system_files.spelled(_HOME_VARIABLE.sub("~", path))  # C:\…\hosts, /root/.profile
    for pattern, meanings, default, why in _FILES:
        if not pattern.match(path):
            continue
        found = next(((lvl, what) for rx, lvl, what in meanings if rx.search(what_in)), None)
        if found is None and default is not None and append:
            found = (default, why)
        if found is not None:
            how = "edits" if append is None else ">>" if append else ">"
            said = f": {fragment([what_in.strip()], 40)}" if what_in.strip() else ""  # `cat x >> /etc/fstab`
            best = worst(best, (found[0], f"{found[1]} ({how} {path}{said})"))
    for pattern, command_of, when in RUN_FILES:
        if not pattern.match(path):
            continue
        for line in what_in.splitlines()[:200]:
            if pattern is STARTUP and SHELL_ENDS.match(line):
                best = worst(best, (MEDIUM, f"every new shell ends or hangs at once ({path}: {line.strip()[:40]})"))
            command = command_of(line)
            inner = recurse(command) if command.strip() else None
            marked = way_back(command)  # a shell handed out, an account made…
            if marked is not None:
                best = worst(best, (marked[0], f"{marked[1]}, {when} ({path})"))
            if inner is not None and inner[0] >= MEDIUM:
                best = worst(best, (inner[0], f"{inner[1]}, {when} ({path})"))
            elif command.strip() and dropped_program(command) and \
                    (pattern is not STARTUP or dropped_program(command).startswith(_TEMPORARY)):
                best = worst(best, (MEDIUM, f"runs {dropped_program(command)} from a temporary or hidden "
                                            f"place, {when} ({path})"))
    return best


def rule_sshd_options(c: Ctx) -> Optional[tuple]:
    """``sshd -o PermitRootLogin=yes``: a server started with the settings the configuration would hold."""
    texts = c.texts
    options = [texts[k + 1] for k, t in enumerate(texts[:-1]) if t == "-o"] + \
        [t[2:] for t in texts if t.startswith("-o") and len(t) > 2]
    text = "\n".join(o.replace("=", " ", 1) for o in options)
    for pattern, meanings, _, _ in _FILES:
        if text and pattern.match("/etc/ssh/sshd_config"):
            found = next(((lvl, what) for rx, lvl, what in meanings if rx.search(text)), None)
            if found:
                return found[0], f"{found[1]} ({c.text})"
    return None


# ----------------------------------------------------------------- security features switched off
SECURITY_SERVICES = lazy(r"^(apparmor|auditd|firewalld|fail2ban|selinux\w*|clamav\w*|clamd|falcon-sensor|"
                         r"osqueryd|wazuh-agent|crowdstrike\w*|sshguard|aide\w*|rkhunter|ufw|nftables|"
                         r"iptables|netfilter-persistent|"
                         # the logs and the clock an audit relies on
                         r"r?syslogd?|rsyslog|syslog-ng|systemd-journald|system-log|metalog|socklog[\w-]*|sysklogd|"
                         r"klogd|chronyd?|ntpd?|ntpsec|openntpd|"
                         r"systemd-timesyncd|tripwire|falco|sysmon\w*|ossec\w*)(\.service|\.timer|\.socket)?$")


def rule_security_off(c: Ctx) -> Optional[tuple]:
    p, texts = c.prog, c.texts
    joined = " ".join(texts)
    lowered = joined.lower()
    reason = None
    if p == "setenforce" and texts[:1] and texts[0].lower() in ("0", "permissive"):
        reason = "switches SELinux enforcement off"
    elif p == "spctl" and re.search(r"--master-disable|--global-disable|--disable", joined):
        reason = "switches Gatekeeper off: unsigned apps run"
    elif p == "csrutil" and "disable" in texts:
        return HIGH, f"switches System Integrity Protection off: the system's files and kernel are open to any " \
                     f"root process ({c.text})"
    elif p == "fdesetup" and "disable" in texts:
        reason = "switches FileVault disk encryption off"
    elif p in ("aa-teardown", "aa-disable") or p == "apparmor_parser" and "-R" in texts:
        reason = "unloads AppArmor profiles"
    elif p == "auditctl" and re.search(r"(^|\s)(-e\s*0|-D)(\s|$)", joined):
        reason = "switches the audit log off or deletes its rules"
    elif p == "sysctl" and re.search(r"randomize_va_space\s*=\s*0|ptrace_scope\s*=\s*0|kptr_restrict\s*=\s*0", joined):
        reason = "switches a kernel protection off"
    elif p == "git" and re.search(r"\bconfig\b.*\bhttp\.sslverify\s+(false|0|no)\b", lowered):
        reason = "switches TLS certificate checks off for git"
    elif p in ("npm", "yarn", "pnpm") and re.search(r"\bconfig\s+set\s+strict-ssl\s+false\b", lowered):
        reason = "switches TLS certificate checks off for the package manager"
    elif p == "xhost" and texts[:1] and texts[0] == "+":
        reason = "lets any host connect to your X display (and read your keystrokes)"
    elif p == "defaults" and re.search(r"LSQuarantine\s+-bool\s+(false|no|0)", joined, re.IGNORECASE):
        reason = "switches macOS download quarantine off"
    elif p == "defaults" and re.search(r"com\.apple\.alf(\.plist)?\s+globalstate\s+(-int\s+)?0\b", joined):
        return HIGH, f"switches the macOS firewall off: every incoming connection reaches every program ({c.text})"
    elif p == "defaults" and re.search(r"askForPassword\s+(-int\s+|-bool\s+)?(0|false|no)\b", joined):
        reason = "lets the screen unlock without a password"
    elif p == "pwpolicy" and re.search(r"-clearaccountpolicies|-setglobalpolicy\s+\S*(minChars=0|"
                                        r"maxFailedLoginAttempts=0)", joined):
        reason = "clears the password and lockout policies"
    elif p == "launchctl" and re.search(r"\b(unload|bootout|disable|remove)\b.*(com\.apple\.alf|socketfilterfw|"
                                        r"XProtect|com\.apple\.MRT)", joined):
        reason = "switches the macOS firewall or malware protection off"
    elif p == "authselect" and "select" in texts and "minimal" in texts:
        reason = "reduces logins to local files: network accounts and their checks stop"
    elif p in ("systemctl", "service") and re.search(r"\b(stop|disable|mask)\b", joined) and \
            any(SECURITY_SERVICES.match(t) for t in texts):
        reason = "stops a security service"
    elif p == "mokutil" and "--disable-validation" in texts:
        reason = "switches Secure Boot validation off"
    return (MEDIUM, f"{reason} ({c.text})") if reason else None


# ----------------------------------------------------------------- the network lease released
def rule_lease(c: Ctx) -> Optional[tuple]:
    p, texts = c.prog, c.texts
    joined = " ".join(texts)
    if p in ("dhclient", "dhclient3") and re.search(r"(^|\s)(-r|-x|--release)(\s|$)", joined) or \
            p == "dhcpcd" and re.search(r"(^|\s)(-k|-x|--release|--exit)(\s|$)", joined) or \
            p == "udhcpc" and "-R" in texts or p == "ipconfig" and texts[:1] in (["set"],) and "NONE" in texts:
        return HIGH, f"releases the network lease: the machine drops off the network ({c.text})"
    if p == "networkctl" and texts[:1] in (["down"],):
        return HIGH, f"takes network links down: remote access over them stops ({c.text})"
    if p == "networksetup" and re.search(r"-set(networkserviceenabled|airportpower)\s+\S+\s+off", joined):
        return HIGH, f"switches a network service off ({c.text})"
    if p == "rfkill" and texts[:1] == ["block"]:
        return HIGH if any(t in ("all", "wlan", "wifi") for t in texts[1:]) else MEDIUM, \
            f"switches the radio off: wireless connections drop ({c.text})"
    if p in ("wpa_cli",) and any(t in ("disconnect", "terminate") for t in texts) or \
            p == "iwconfig" and re.search(r"txpower\s+off", joined):
        return HIGH, f"drops the wireless connection ({c.text})"
    if p in ("tailscale", "zerotier-cli") and texts[:1] in (["down"], ["leave"], ["logout"]) or \
            p == "wg-quick" and texts[:1] == ["down"]:
        return LOW, f"takes the VPN down: a session over it is cut ({c.text})"
    return None


RULES: dict = {}
for _p in ("setenforce", "spctl", "csrutil", "fdesetup", "aa-teardown", "aa-disable", "apparmor_parser", "auditctl",
           "sysctl", "git", "npm", "yarn", "pnpm", "xhost", "defaults", "systemctl", "service", "mokutil",
           "authselect", "pwpolicy", "launchctl"):
    RULES[_p] = [rule_security_off]
for _p in ("dhclient", "dhclient3", "dhcpcd", "udhcpc", "networkctl", "networksetup", "rfkill", "wpa_cli", "iwconfig",
           "tailscale", "zerotier-cli", "wg-quick"):
    RULES.setdefault(_p, []).append(rule_lease)
RULES["sshd"] = [rule_sshd_options]
