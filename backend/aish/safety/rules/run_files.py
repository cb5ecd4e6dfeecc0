"""Files whose lines the system runs later, and how to read the command out of a line (read by
``meaning``): a line written there is judged as the command it runs, with when it runs added to
the reason.  Crontabs (after the time fields, and the user in a system crontab), shells' start-up
files, systemd units (``ExecStart=``…), boot and login scripts (``/etc/rc.local``, init scripts,
network hooks, ``~/.ssh/rc``, X session files), desktop autostart entries (``Exec=``) and saved
firewall rules (``-A INPUT -j DROP`` in ``/etc/iptables/rules.v4`` is ``iptables -A INPUT -j DROP``
at the next boot), udev rules (``RUN+=``), apt's hooks (``Pre-Invoke``), logrotate scripts, ssh's
client commands (``ProxyCommand``), a key's forced ``command="…"`` in ``authorized_keys``, anacron's table,
the scripts cron's and periodic's hourly, daily, weekly and monthly folders run, launchd's and emond's property
lists (``<string>`` values), ``pam_exec.so``'s command, a ``.pth`` file's ``import`` lines, inittab's entries, a
repository's git hooks and pacman's hooks (``Exec =``).
"""
from __future__ import annotations

import re
import shlex
from typing import Callable, Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules import system_files
from aish.safety.rules.autostart_payloads import payload
from aish.safety.rules.common import MEDIUM


def _cron_command(line: str, system: bool) -> str:
    """The command of a crontab line (after five time fields, and the user in a system crontab)."""
    line = line.strip()
    if not line or line.startswith("#") or re.match(r"^\w+=", line):
        return ""
    if line.startswith("@"):
        parts = line.split(None, 2 if system else 1)
        return parts[-1] if len(parts) > (2 if system else 1) else ""
    parts = line.split(None, 6 if system else 5)
    return parts[-1] if len(parts) > (6 if system else 5) else ""


def user_cron_command(line: str) -> str:
    """The command of a line of a user's crontab ("" for a comment, a setting or a short line)."""
    return _cron_command(line, False)


_user_cron = user_cron_command


def _system_cron(line: str) -> str:
    return _cron_command(line, True)


def _as_is(line: str) -> str:
    return "" if line.lstrip().startswith("#") else line


def _unit_exec(line: str) -> str:
    m = re.match(r"^\s*Exec(?:Start|StartPre|StartPost|Stop|StopPost|Reload|Condition)?\s*=\s*[-@+!:|]*(.+)$", line)
    return m.group(1) if m else ""


def _desktop_exec(line: str) -> str:
    m = re.match(r"^\s*(?:Exec|TryExec)\s*=\s*(.+)$", line)
    return m.group(1) if m else ""


def _firewall_rule(line: str) -> str:
    line = line.strip()
    policy = re.match(r"^:(INPUT|FORWARD|OUTPUT)\s+(DROP|REJECT)\b", line)
    if policy:
        return f"iptables -P {policy.group(1)} {policy.group(2)}"
    return "iptables " + line if re.match(r"^-[AIP]\s", line) else ""


def _udev_run(line: str) -> str:
    """``RUN+="/bin/sh -c '…'"``, ``PROGRAM=="…"``, ``IMPORT{program}="…"``: what udev runs as root on the event."""
    m = re.search(r"\b(?:RUN(?:\{program\})?\+?=|PROGRAM==?|IMPORT\{program\}=)\s*\"((?:[^\"\\]|\\.)*)\"", line)
    return m.group(1).replace('\\"', '"') if m else ""


def _apt_hook(line: str) -> str:
    """``APT::Update::Pre-Invoke {"cmd";};``, ``DPkg::Post-Invoke {…}``: run as root at every apt run."""
    m = re.search(r"(?:Pre|Post)-Invoke(?:-Success)?\s*\{\s*\"((?:[^\"\\]|\\.)*)\"|"
                  r"Pre-Install-Pkgs\s*\{\s*\"((?:[^\"\\]|\\.)*)\"", line)
    return (m.group(1) or m.group(2) or "").replace('\\"', '"') if m else ""


_LOGROTATE_WORDS = frozenset("""daily weekly monthly yearly hourly rotate compress nocompress delaycompress
nodelaycompress
missingok nomissingok notifempty ifempty create nocreate copytruncate nocopytruncate copy nocopy
size maxsize minsize maxage minage dateext nodateext dateformat dateyesterday olddir noolddir
createolddir sharedscripts nosharedscripts postrotate prerotate firstaction lastaction preremove
endscript su include mail nomail compresscmd uncompresscmd compressext compressoptions extension
addextension tabooext start shred noshred shredcycles renamecopy""".split())


def _logrotate_script(line: str) -> str:
    """The lines of a logrotate script (``postrotate`` … ``endscript``): not its directives, paths and braces."""
    words = line.split()
    if not words or words[0].startswith(("#", "/", "{", "}", "\"")) or words[0] in _LOGROTATE_WORDS or \
            line.rstrip().endswith("{"):
        return ""
    return line


def _forced_command(line: str) -> str:
    """An ``authorized_keys`` line's ``command="…"``: what runs whenever that key logs in."""
    m = re.match(r'^\s*(?:[\w-]+(?:="(?:[^"\\]|\\.)*")?,)*command="((?:[^"\\]|\\.)*)"', line)
    return m.group(1).replace('\\"', '"') if m else ""


def _anacron(line: str) -> str:
    """An anacrontab line's command (after its period, delay and job name)."""
    parts = line.split(None, 3)
    return parts[3] if len(parts) == 4 and not line.lstrip().startswith("#") and "=" not in parts[0] else ""


def _plist_program(line: str) -> str:
    """A launchd or emond property list's ``<string>`` values on a line, a reverse-DNS label left out: the
    program and its arguments (``<string>/bin/sh</string><string>-c</string><string>…</string>``)."""
    strings = re.findall(r"<string>([^<]*)</string>", line)
    return " ".join(t for t in strings if "/" in t or " " in t or t.startswith("-"))


def _pam_exec(line: str) -> str:
    """A PAM line's ``pam_exec.so [options] COMMAND``: run as root at every login, password change or session."""
    m = re.search(r"\bpam_exec\.so\s+(?:(?:\w+=\S*|\w+)\s+)*?(/\S.*)$", line)
    return m.group(1) if m else ""


def _python_start(line: str) -> str:
    """A ``.pth`` line that Python runs at every start (it begins with ``import``), as the code it is."""
    return "python3 -c " + shlex.quote(line.strip()) if line.lstrip().startswith("import") else ""


def _pacman_exec(line: str) -> str:
    m = re.match(r"^\s*Exec\s*=\s*(.+)$", line)
    return m.group(1) if m else ""


def _inittab(line: str) -> str:
    """An inittab entry's process (``id:runlevels:action:process``)."""
    parts = line.strip().split(":", 3)
    return parts[3] if len(parts) == 4 and not line.lstrip().startswith("#") else ""


def _ssh_client_command(line: str) -> str:
    """``ProxyCommand …``, ``LocalCommand …``, ``KnownHostsCommand …``, ``Match exec "…"``: run at every ssh."""
    m = re.match(r"^\s*(?:ProxyCommand|LocalCommand|KnownHostsCommand)\s*[= ]\s*(.+)$|^\s*Match\s+.*\bexec\s+"
                 r"\"([^\"]+)\"", line, re.IGNORECASE)
    return (m.group(1) or m.group(2) or "") if m else ""


# A program run from a place nothing installs into: a temporary directory or a hidden one (`/tmp/.x/run`,
# `~/.cache/agent`, `/dev/shm/k`): what a dropped program leaves behind to start again.
_DROPPED = lazy(r"^(?:(?:sudo|nohup|env|exec|setsid|nice|/usr/bin/env)\s+(?:-\S+\s+)*)*['\"]?"
                r"((?:/tmp|/var/tmp|/dev/shm|/run/shm)/\S+|\S*/\.(?!local/|config/|cargo/|nvm/|rbenv/|pyenv/|"
                r"npm/|deno/|bun/|sdkman/|asdf/)[^/\s]+/\S+)")


def dropped_program(command: str) -> str:
    """The program a line runs from a temporary or hidden directory ("" when it runs none)."""
    m = _DROPPED.match(command.strip())
    return m.group(1) if m else ""


# A start-up line that ends or hangs every shell: `exit`, `logout`, `exec` of nothing, a kill of the shell or its
# parent, an endless loop or sleep, a process limit too small to start anything.
SHELL_ENDS = lazy(r"\s*(exit|logout|return\s+1\s*;?\s*exit|exec\s+(\S*/)?(false|true|nologin|sleep\b)|"
                  r"kill\s+(-9\s+|-KILL\s+|-s\s+KILL\s+|-HUP\s+)?(\$\$|\$PPID|\$\{PPID\}|0|-1)\s*($|;)|"
                  r"while\s+(true|:|\[\s*1\s*\])\s*;\s*do\s+(:|true|sleep\s+\d+)\s*;\s*done|"
                  r"sleep\s+(infinity|inf)|ulimit\s+-[a-zA-Z]*[uH]?u\s+[01]\b|"
                  r"ulimit\s+-[a-zA-Z]*n\s+[0-3]\b)\b.*|\s*exec\s+\S*/(false|true|nologin)\s*$")
STARTUP = re.compile(r"^(~/\.(bashrc|zshrc|profile|bash_profile|zprofile|zshenv|bash_login|bash_aliases|kshrc|mkshrc|"
                     r"cshrc|tcshrc|login|config/fish/config\.fish|config/fish/conf\.d/[^/]+\.fish)|"
                     r"/etc/(profile|bash\.bashrc|bashrc|zsh/(zshrc|zprofile|zshenv|zlogin)|zshrc|zprofile|zshenv|"
                     r"zlogin|csh\.cshrc|csh\.login|fish/config\.fish|fish/conf\.d/[^/]+\.fish|profile\.d/.*|"
                     r"environment))$")
# (file pattern, the command in one of its lines, when it runs)
RUN_FILES: list[tuple[re.Pattern, Callable[[str], str], str]] = [
    (re.compile(r"^(/etc/crontab|/etc/cron\.d/.*)$"), _system_cron, "each time cron runs it"),
    (re.compile(r"^/var/spool/cron/.*$"), _user_cron, "each time cron runs it"),
    (re.compile(r"^/etc/anacrontab$"), _anacron, "as root each time anacron runs it"),
    (re.compile(r"^(/etc/cron\.(hourly|daily|weekly|monthly)|(/usr/local)?/etc/periodic/(daily|weekly|monthly))/"
                r"[^/]+$"), _as_is, "as root every hour, day, week or month"),
    (STARTUP, _as_is, "at every shell start"),
    (re.compile(r"^(/etc|/lib|/usr/lib|/run)/systemd/(system|user)/[^/]+\.(service|socket|timer|path)(\.d/.*)?$|"
                r"^~/\.config/systemd/user/[^/]+\.(service|socket|timer|path)(\.d/.*)?$"), _unit_exec,
     "each time the service starts"),
    (re.compile(r"^(~/Library|/Library|/System/Library)/Launch(Agents|Daemons)/[^/]+\.plist$|"
                r"^(/private)?/etc/emond\.d/rules/[^/]+\.plist$"), _plist_program, "each time launchd starts it"),
    (re.compile(r"^/etc/(pam\.d/[^/]+|pam\.conf)$"), _pam_exec, "as root at every login"),
    (re.compile(r"^\S*/(site|dist)-packages/[^/]+\.pth$"), _python_start, "at every Python start"),
    (re.compile(r"^/etc/inittab$"), _inittab, "at every boot, by init"),
    (re.compile(r"(?i)^\S.*[\\/]start menu[\\/]programs[\\/]startup[\\/][^\\/]+\.(bat|cmd|vbs|js|ps1|wsf|hta)$"),
     _as_is,
     "at every logon"),
    (re.compile(r"(^|/)\.git/hooks/[^/]+$"), _as_is, "at git's events in that repository"),
    (re.compile(r"^/(etc/pacman\.d/hooks|usr/share/libalpm/hooks)/[^/]+\.hook$"), _pacman_exec,
     "as root at every pacman transaction"),
    (re.compile(r"^/etc/(rc\.local|rc\.d/rc\.local|init\.d/[^/]+|rc\d\.d/[^/]+|network/if-[\w-]+\.d/[^/]+|"
                r"NetworkManager/dispatcher\.d/.*|X11/Xsession\.d/.*|update-motd\.d/.*|ssh/sshrc)$|"
                r"^~/\.(ssh/rc|xinitrc|xprofile|xsession|xsessionrc|bash_logout|zlogout|zlogin)$"),
     _as_is, "at every boot or login"),
    (re.compile(r"^(~/\.config|/etc/xdg)/autostart/[^/]+\.desktop$"), _desktop_exec, "at every desktop login"),
    (re.compile(r"^~/\.config/(autostart-scripts|plasma-workspace/(env|shutdown))/[^/]+$"), _as_is,
     "at every desktop login"),
    (re.compile(r"^/etc/(iptables/rules\.v[46]|sysconfig/ip6?tables|iptables\.rules|iptables/iptables\.rules|"
                r"ufw/(user6?|before6?|after6?)\.rules)$"), _firewall_rule, "when the firewall rules are next loaded"),
    (re.compile(r"^/(etc|lib|usr/lib|run)/udev/rules\.d/[^/]+\.rules$"), _udev_run, "as root on each device event"),
    (re.compile(r"^/etc/apt/apt\.conf(\.d/[^/]+)?$"), _apt_hook, "as root at every apt run"),
    (re.compile(r"^/etc/logrotate\.(conf|d/[^/]+)$"), _logrotate_script, "as root at every log rotation"),
    (re.compile(r"(?i)^(\$profile(\.\w+)?|\S*[\\/](microsoft\.powershell_|microsoft\.vscode_)?profile\.ps1)$"), _as_is,
     "at every PowerShell start"),
    (re.compile(r"^(~|/root|/var/root|(/home|/Users)/[^/]+)/\.ssh/authorized_keys2?$"), _forced_command,
     "whenever that key logs in"),
    (re.compile(r"^(~/\.ssh/config|/etc/ssh/ssh_config(\.d/[^/]+)?)$"), _ssh_client_command, "at every ssh connection"),
]


# Programs that print a file as it is (what a redirect after them writes is the file's lines).
_PRINTERS = frozenset({"cat", "type", "gc", "get-content", "tac", "more"})
_TEMPORARY_FILE = lazy(r"(?i)^((/tmp|/var/tmp|/dev/shm|/run/shm|\$tmpdir|\$\{tmpdir\}|~/downloads)/|"
                       r"(%te?mp%|\$env:te?mp|\w:\\(windows\\)?te?mp)\\)")


def temporary_lines_run(seg, chain: list, paths: list) -> Optional[tuple]:
    """A temporary file's lines written into a file the system runs later (``cat /tmp/x >> ~/.bashrc``, ``cat
    /dev/shm/j | sudo tee -a /etc/cron.d/x``): whoever wrote the temporary file chooses what runs (medium)."""
    for source in [seg] + chain[-1:]:
        words = source.words
        if not words or words[0].text.lower() not in _PRINTERS:
            continue
        held = next((w.raw.strip("'\"") for w in words[1:] if _TEMPORARY_FILE.match(w.raw.strip("'\""))), "")
        if not held:
            continue
        for path in paths:
            spelled = system_files.spelled(re.sub(r"^(\$HOME|\$\{HOME\})(?=/)", "~", path))
            when = next((when for pattern, _, when in RUN_FILES if pattern.match(spelled)), "")
            if when:
                return MEDIUM, f"runs whatever {held} holds, {when} ({spelled})"
    return None


# A line that defines a name and runs nothing yet (`alias mkuser='sudo useradd -m'`, `f() { … }`, `export X=…`).
_DEFINES = lazy(r"^\s*(alias|abbr|function|export|setenv|set\s+-\w*x)\s|^\s*[\w.:-]+\s*\(\)")


# A command that is a variable of the writing shell (`RUN+="$RSHELL"`): what it held is what runs, and is not shown.
_BARE_VARIABLE = lazy(r"^\s*[\"']?\$\{?[A-Za-z_]\w*\}?[\"']?(\s|$)")


_WINDOWS_OPEN = lazy(r"(?i)\\users\\public\\|%te?mp%\\|\\appdata\\local\\temp\\|\\windows\\temp\\|\\downloads\\|"
                     r"\b\w:\\(temp|tmp)\\|^\\\\[\w.$-]+\\|\s\\\\[\w.$-]+\\")


def way_back(command: str) -> Optional[tuple]:
    """(level, what) when a run file's command is a way back in (``autostart_payloads``) or a bare variable; None
    for a definition."""
    if not command.strip() or _DEFINES.match(command):
        return None
    found = payload(command)
    if found is None and _BARE_VARIABLE.match(command):
        return MEDIUM, f"runs whatever {command.split()[0]} held when the line was written, unseen"
    place = _WINDOWS_OPEN.search(command) if found is None and "\\" in command else None
    if place is not None:  # a script's line in a Windows start-up place (Unix lines name /tmp for their output)
        return MEDIUM, f"runs a program from {place.group(0).strip(chr(92))}, which others can write"
    return found
