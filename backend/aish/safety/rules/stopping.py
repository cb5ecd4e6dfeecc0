"""Effect: stops things broadly.  Killing every process of a name, a pattern or whatever
listens on a port; the machine itself (``shutdown``, ``init 0``, desktop helpers, updates
applied with a reboot).

A signal that only asks (``-0``) or nudges (``-HUP``, ``-USR1``, ``-CONT``) stops nothing:
it is not flagged, except where the target is a session or the whole system.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules import supervisor_stops
from aish.safety.rules.common import HIGH, LOW, MEDIUM, Ctx, parse_opts, positionals
from aish.safety.rules.service_units import units_verdict
from aish.safety.lazy_regex import lazy

# Signals that end nothing (or only pause it for a moment).
_GENTLE = {"0", "HUP", "SIGHUP", "1", "USR1", "SIGUSR1", "10", "USR2", "SIGUSR2", "12", "CONT", "SIGCONT", "18",
           "WINCH", "SIGWINCH", "28", "INFO", "SIGINFO", "ALRM", "SIGALRM", "14", "PWR"}
_SESSIONS = lazy(r"^(sshd?|systemd|init|dbus-daemon|NetworkManager|login|Xorg|Xwayland|gnome-shell|kwin.*|"
                 r"plasmashell|sway|Hyprland|loginwindow|WindowServer|launchd|tmux|tmux: server|screen|"
                 r"bash|zsh|sh|fish|-bash|-zsh|gdm.*|sddm|lightdm|explorer\.exe|winlogon\.exe|csrss\.exe)$")
# Substitutions and feeders that list processes by name or port.
_FINDS_PROCESSES = lazy(r"^\s*(sudo\s+)?(pgrep|pidof|lsof|fuser|ps|ss|netstat|pgrep\.exe|tasklist)\b|"
                        r"^\s*cat\s+\S*\*\S*\.pid\b|"  # every pid file a glob matches
                        r"^\s*(sudo\s+)?cat\s+\S*(cgroup\.procs|cgroup\.threads|/tasks)\b")  # a cgroup's
# A service's main pid asked of the manager: `systemctl show -p MainPID --value docker`.
_MAIN_PID = lazy(r"^\s*(?:sudo\s+)?systemctl\s+show\b.*\bMainPID\b.*?\s([\w@.-]+)\s*$")
# One daemon's pid file read: `cat /run/sshd.pid`, `cat /var/run/docker.pid` (its name says which daemon).
_PID_FILE = lazy(r"^\s*(?:(?:sudo\s+)?(?:cat|head -1|head -n ?1)\s+|<\s*)['\"]?/\S*?/([\w.-]+?)\.pid['\"]?\s*$")
_BY_PORT = lazy(r"-i\s*:?\s*\d|-i\s*tcp|tcp:\d|:\d{2,5}\b|/tcp|/udp|--port|sport|dport")
# Updates that restart the machine when done.
_UPDATE_REBOOT = {"softwareupdate": ({"-R", "--restart"}, set()), "rpm-ostree": ({"-r", "--reboot"}, set()),
                  "bootc": ({"--apply"}, set()), "ostree": ({"--reboot"}, set()),
                  "transactional-update": (set(), {"reboot"}), "dnf": (set(), {"reboot"}),
                  "dnf5": (set(), {"reboot"}), "fwupdmgr": ({"--force"}, set()), "install-windowsupdate":
                  ({"-autoreboot"}, set()), "get-windowsupdate": ({"-autoreboot"}, set()),
                  "usoclient": (set(), {"startinstall", "restartdevice"}), "pkcon": ({"--reboot"}, set())}
# Desktop and session helpers: the option or word that ends the session or the machine.
_DESKTOP = {"gnome-session-quit": {"--power-off", "--reboot", "--logout"},
            "xfce4-session-logout": {"--halt", "--reboot", "--logout", "--suspend", "--hibernate", "-h", "-r", "-l"},
            "cinnamon-session-quit": {"--power-off", "--reboot", "--logout"},
            "mate-session-save": {"--shutdown", "--logout"}, "lxqt-leave": {"--shutdown", "--reboot", "--logout"},
            "lxsession-logout": {"*"}, "lxde-logout": {"*"}, "wlogout": {"*"},
            "enlightenment_remote": {"-exit", "-halt", "-reboot", "-suspend", "-hibernate", "-logout"},
            "xfce4-session": set(), "budgie-session": {"--logout"}}


def _signal(texts: list, named_by: tuple = ("-s", "--signal", "-n")) -> str:
    """The signal a kill-like command sends ("" when none is named: TERM)."""
    for k, t in enumerate(texts):
        if t in named_by and k + 1 < len(texts):
            return texts[k + 1].upper().removeprefix("SIG")
        m = re.fullmatch(r"-(?:s|-signal=)?(SIG)?([A-Za-z]+[0-9]*|\d+)", t)
        if m and (m.group(1) or m.group(2).isupper() or m.group(2).isdigit()):
            return m.group(2).upper()
    return ""


def rule_power(c: Ctx) -> Optional[tuple]:
    p, texts = c.prog, c.texts
    if p in ("shutdown", "reboot", "poweroff", "halt"):
        if p == "shutdown" and any(t.lower() in ("-c", "/a") for t in texts):
            return None  # cancels a pending shutdown
        return MEDIUM, f"shuts down or reboots the machine ({c.text})"
    if p in ("init", "telinit") and texts[:1] and texts[0] in ("0", "6", "1", "s", "S"):
        return MEDIUM, f"changes the runlevel: shutdown, reboot or single-user ({c.text})"
    if p == "acpiconf" and any(re.fullmatch(r"-s\s*[1-5]|[1-5]", t) for t in texts) and "-s" in "".join(texts):
        return MEDIUM, f"acpiconf puts the machine to sleep or powers it off ({c.text})"  # FreeBSD's ACPI states
    if p in ("openrc", "runsvchdir", "rc") and texts[-1:] and texts[-1] == "single":
        return HIGH, f"{p} single switches to single-user: every service stops, the network and ssh too ({c.text})"
    if p in ("openrc", "runsvchdir", "rc") and texts[-1:] and texts[-1] in ("shutdown", "reboot", "off", "halt"):
        return MEDIUM, f"{p} {texts[-1]} takes the machine down ({c.text})"
    if p == "uadmin" and texts[:1] and texts[0] in ("1", "2", "5"):
        return MEDIUM, f"uadmin {texts[0]} reboots, shuts down or dumps the system ({c.text})"  # Solaris, illumos
    return None


# Options that take a value, by program: pkill's `-s` is a session and `-o`, `-n` are flags (oldest, newest);
# macOS' desktop parts launchd starts again at once: `killall Finder` is how a setting written by `defaults` is applied
# (asked to quit; killed outright, `-KILL`, a copy in progress in Finder is cut off: medium as any name).
_RELAUNCHED = frozenset({"Finder", "Dock", "SystemUIServer", "ControlCenter", "NotificationCenter", "cfprefsd",
                         "Spotlight", "TouchBarServer", "WindowManager"})
# killall's `-s` is the signal and `-g` a flag (the named process's whole group).
_KILL_VALUED = {"pkill": frozenset("-u --euid -U --uid -g --pgroup -G --group -P --parent -s --session -t --terminal "
                                   "-F --pidfile --signal --ns --nslist".split()),
                "killall": frozenset("-u --user -s --signal -o --older-than -y --younger-than -n --ns -Z "
                                     "--context".split())}
_KILL_VALUED_OTHERS = frozenset({"-u", "--user", "-s", "--signal", "-t", "-U", "-g", "-G", "-P", "-o", "-y", "-n",
                                 "--older-than", "--younger-than"})


def rule_kill(c: Ctx) -> Optional[tuple]:
    p, texts = c.prog, c.texts
    signal = _signal(texts, ("--signal",) if p == "pkill" else ("-s", "--signal", "-n"))
    gentle = signal in _GENTLE
    if p == "kill":
        pids = [w for w in c.args if not re.fullmatch(r"-(\d+|[A-Z]+[A-Z0-9]*|SIG[A-Z]+|s|n|l|L)", w.text)
                and w.text not in ("-s", "-n", signal)]
        pid_texts = [w.text for w in pids]
        if "-1" in texts[1:] or (texts and texts[-1] == "-1" and len(texts) >= 2) or "-1" in pid_texts:
            return (None if signal == "0" else (HIGH, f"kills every process you can signal ({c.text})"))
        if "1" in pid_texts and not gentle:
            return HIGH, f"signals init: the machine goes down ({c.text})"
        if "0" in pid_texts and not gentle:
            return MEDIUM, f"kills every process in this process group, your shell included ({c.text})"
        if any(t in ("-$$", "-$PPID", "-${PPID}") for t in pid_texts) and not gentle:  # `kill -- -$$`
            return MEDIUM, f"kills every process in this shell's group, the shell included ({c.text})"
        if any(t in ("$$", "$PPID", "${PPID}", "$$$") for t in pid_texts) and not gentle:
            return MEDIUM, f"kills this shell session ({c.text})"
        if gentle:
            return None
        after_dashes = texts[texts.index("--") + 1:] if "--" in texts else []
        group = next((t for t in after_dashes if re.fullmatch(r"-\d+", t) and t != "-1"), None)
        if group:  # `kill -9 -- -12345`: a negative pid after `--` is a process group
            return MEDIUM, f"kills every process in the group {group[1:]} ({c.text})"
        for w in pids:
            for sub in w.subs:
                named = _PID_FILE.match(sub) or _MAIN_PID.match(sub)
                if named is not None:  # `kill -9 $(cat /run/sshd.pid)`: judged by the daemon the file names
                    found = units_verdict(c, p, "kill" if not gentle else "reload", [named.group(1)])
                    if found is not None:
                        return found
                if _FINDS_PROCESSES.match(sub):
                    what = "whatever listens on a port" if _BY_PORT.search(sub) else "every process the search finds"
                    return MEDIUM, f"kills {what} ({c.text})"
        if c.xargs and any(f.words and _FINDS_PROCESSES.match(" ".join(x.text for x in f.words)) for f in c.chain):
            feeder = " ".join(x.text for f in c.chain for x in f.words)
            what = "whatever listens on a port" if _BY_PORT.search(feeder) else "every process the search finds"
            return MEDIUM, f"kills {what} ({c.text})"
        return None
    if p in ("killall", "pkill", "skill", "slay"):
        # -HUP, -9, -SIGTERM are signals; -P, -U, -G are options
        args = [w for w in c.args if not re.fullmatch(r"-(\d+|[A-Z][A-Z0-9+-]+)", w.text)]
        flags, values, pos = parse_opts(args, _KILL_VALUED.get(p, _KILL_VALUED_OTHERS))
        names = [w.text for w in pos]
        user = values.get("-u") or values.get("--user") or values.get("-U") or values.get("--euid") or \
            values.get("--uid")
        if any(_SESSIONS.match(n) for n in names) and not (gentle and signal != "HUP"):
            if signal == "HUP" and not any(n in ("bash", "zsh", "sh", "fish", "sshd", "ssh") for n in names):
                return None
            system = any(n.startswith(("ssh", "system", "init", "launchd", "login", "Window", "dbus")) for n in names)
            return (HIGH if system else MEDIUM), f"kills {', '.join(names)}: sessions or the system go down ({c.text})"
        if gentle:
            return None
        if user in ("root", "0"):
            return HIGH, f"kills every process of root: the system goes down ({c.text})"
        if user:
            return MEDIUM, f"kills every process of a user, sessions included ({c.text})"
        scope = next((o for o in ("-t", "-g", "-G", "-P", "-s", "--terminal", "--pgroup", "--parent", "--session")
                      if values.get(o)), None)
        if scope and p == "pkill" or scope == "-t" and p in ("skill", "slay"):
            return MEDIUM, f"kills every process of that terminal, group, parent or session ({c.text})"
        if names in (["."], [".*"], ["-1"]) or (p == "pkill" and names and names[0] in (".", ".*", "")):
            return HIGH, f"kills every process ({c.text})"
        if names and p == "killall" and signal not in ("KILL", "9") and all(n in _RELAUNCHED for n in names):
            return LOW, f"restarts {', '.join(names)}: the system starts it again at once ({c.text})"
        if names:
            how = "matching" if "f" in flags or p == "pkill" else "named"
            return MEDIUM, f"kills every process {how} {', '.join(names)[:40]} ({c.text})"
        return None
    if p == "killall5":
        return HIGH, f"kills every process ({c.text})"
    return None


# Batch schedulers: the options or words that cancel every job of a user, an account, a queue or all.
_JOB_CANCELLERS = {"scancel": {"-u", "--user", "-A", "--account", "-p", "--partition", "--me"},
                   "bkill": {"0", "-u"}, "qdel": {"all", "-u"}, "condor_rm": {"-all", "-a", "-constraint"},
                   "qselect": set(), "oarddel": {"--array"}, "flux": set()}


def rule_job_cancel(c: Ctx) -> Optional[tuple]:
    """``scancel -u $USER``, ``bkill 0``, ``qdel all``: every job of a user or a queue is killed."""
    if {t.split("=", 1)[0] for t in c.texts} & _JOB_CANCELLERS.get(c.prog, set()):
        return MEDIUM, f"{c.prog} cancels every job it matches, running ones included ({c.text})"
    if c.xargs and c.prog in _JOB_CANCELLERS and any(f.words and f.words[0].text in _JOB_LISTINGS for f in c.chain):
        return MEDIUM, f"{c.prog} cancels every job the listing names ({c.text})"  # `qselect -u $USER | xargs qdel`
    if c.prog in _JOB_CANCELLERS and any(w.subs and any(j in " ".join(w.subs) for j in _JOB_LISTINGS) for w in c.args):
        return MEDIUM, f"{c.prog} cancels every job the listing names ({c.text})"  # `qdel $(qselect -u bob)`
    return None


_JOB_LISTINGS = {"qselect", "squeue", "qstat", "bjobs", "condor_q", "oarstat"}


def rule_fuser(c: Ctx) -> Optional[tuple]:
    """``fuser -k 8080/tcp``, ``fuser -km /mnt``: kills whatever uses a port or a filesystem."""
    flags, _, pos = parse_opts(c.args, frozenset({"-n", "--namespace", "-s"}))
    if not flags & {"k", "--kill"} or _signal(c.texts) in _GENTLE - {""}:
        return None
    what = ", ".join(w.text for w in pos)[:40] or "it"
    return MEDIUM, f"kills every process using {what} ({c.text})"


def rule_taskkill(c: Ctx) -> Optional[tuple]:
    """Windows: ``taskkill /IM name /F``, ``Stop-Process -Name``, ``wmic process … delete``."""
    texts = [t.lower() for t in c.texts]
    if c.prog.lower() in ("taskkill", "taskkill.exe"):
        if "/im" in texts or "/fi" in texts:
            return MEDIUM, f"kills every process matching a name or filter ({c.text})"
        return None
    if c.prog.lower() in ("wmic", "wmic.exe") and "process" in texts and ("delete" in texts or "terminate" in texts):
        return MEDIUM, f"kills every process the query matches ({c.text})"
    if c.prog.lower() in ("stop-process", "spps", "kill") and \
            any("get-nettcpconnection" in t or "get-netudpendpoint" in t for t in texts):
        return MEDIUM, f"kills whatever listens on a port ({c.text})"  # `-Id (Get-NetTCPConnection …).OwningProcess`
    if c.prog.lower() in ("stop-process", "spps", "kill") and any(t in ("-name", "-processname") for t in texts):
        return MEDIUM, f"kills every process of a name ({c.text})"
    if c.prog.lower() in ("stop-process", "spps") and c.chain:
        return MEDIUM, f"kills every process the pipe lists ({c.text})"
    return None


def rule_windows_session(c: Ctx) -> Optional[tuple]:
    """``tskill NAME``, ``logoff SESSION``: every process of a name, or a whole session, ends."""
    names = [t for t in c.texts if not t.startswith(("/", "-"))]
    if c.prog.lower() in ("tskill", "tskill.exe") and names and not names[0].isdigit():
        return MEDIUM, f"kills every process named {names[0]} ({c.text})"
    if c.prog.lower() in ("logoff", "logoff.exe"):
        return MEDIUM, f"logs a session off: what runs in it stops, unsaved work is lost ({c.text})"
    return None


def rule_kill_port(c: Ctx) -> Optional[tuple]:
    """``kill-port 3000``, ``npx kill-port``: whatever listens there goes."""
    ports = [t for t in c.texts if not t.startswith("-")]
    return (MEDIUM, f"kills whatever listens on {', '.join(ports)[:30] or 'a port'} ({c.text})") if ports else None


def rule_fkill(c: Ctx) -> Optional[tuple]:
    """``fkill safari``, ``fkill :8080``: every process of a name, or whatever listens on a port
    (a bare pid is one process, as ``kill 1337`` is; no argument asks interactively)."""
    given = [t for t in c.texts if not t.startswith("-")]
    ports = [t for t in given if t.startswith(":")]
    if ports:
        return MEDIUM, f"kills whatever listens on {', '.join(ports)[:30]} ({c.text})"
    names = [t for t in given if not t.isdigit()]
    if names:
        return MEDIUM, f"kills every process named {', '.join(names)[:40]} ({c.text})"
    return None


# tmux commands whose last operand is a shell command run in the new window or pane.
_TMUX_RUNS = frozenset({"new", "new-session", "neww", "new-window", "splitw", "split-window", "respawnp",
                        "respawn-pane", "respawnw", "respawn-window", "run", "run-shell"})
_TMUX_VALUED = frozenset({"-s", "-n", "-t", "-c", "-e", "-x", "-y", "-F", "-l", "-f"})


def rule_tmux(c: Ctx) -> Optional[tuple]:
    if c.texts[:1] and c.texts[0] in _TMUX_RUNS:  # `tmux new -d 'sleep 300 && sudo reboot'`
        operands = positionals(c.args[1:], set(_TMUX_VALUED))
        found = c.recurse(" ".join(operands)) if operands else None
        if found is not None and found[0] >= MEDIUM:
            return found[0], f"{found[1]}, run by tmux"
    if c.texts[:1] in (["kill-server"],):
        return MEDIUM, f"ends every tmux session and what runs in them ({c.text})"
    if c.texts[:1] in (["kill-session"], ["kill-ses"]) and "-a" in c.texts:
        return MEDIUM, f"ends every other tmux session and what runs in them ({c.text})"
    return None


def rule_desktop(c: Ctx) -> Optional[tuple]:
    """Desktop helpers that log out, power off or reboot (``gnome-session-quit --power-off``)."""
    words = _DESKTOP.get(c.prog)
    if words is None:
        return None
    said = next((t for t in c.texts if t in words), None)
    if said is None and "*" in words and c.texts:
        said = c.texts[0]
    if said is None and "*" in words:
        said = c.prog
    if said is None:
        return None
    return MEDIUM, f"{c.prog} {said}: the session or the machine stops, unsaved work is lost ({c.text})"


def rule_update_reboot(c: Ctx) -> Optional[tuple]:
    """Updates applied with a restart (``softwareupdate -i -a -R``, ``rpm-ostree upgrade --reboot``)."""
    options, words = _UPDATE_REBOOT.get(c.prog.lower(), (set(), set()))
    texts = c.texts
    if texts[:1] and (texts[0] in ("refresh", "verify", "security") or texts[0].startswith("get-")):
        return None  # `fwupdmgr refresh --force`: metadata fetched again, nothing installed
    lowered = {t.lower() for t in texts}
    short = {f"-{x}" for t in texts if t.startswith("-") and not t.startswith("--") and len(t) <= 5 for x in t[1:]}
    if lowered & {o.lower() for o in options} or short & options or lowered & words or \
            lowered & {"--reboot", "--auto-reboot", "-autoreboot", "--restart-after"}:
        return MEDIUM, f"{c.prog} installs updates and restarts the machine ({c.text})"
    return None


RULES = {"shutdown": [rule_power], "reboot": [rule_power], "poweroff": [rule_power], "halt": [rule_power],
         "init": [rule_power], "telinit": [rule_power], "acpiconf": [rule_power], "uadmin": [rule_power],
         "runsvchdir": [rule_power], "openrc": [rule_power],
         "kill": [rule_kill], "killall": [rule_kill], "pkill": [rule_kill], "skill": [rule_kill],
         "killall5": [rule_kill], "fuser": [rule_fuser], "kill-port": [rule_kill_port], "fkill": [rule_fkill],
         "fkill-cli": [rule_fkill], "tmux": [rule_tmux],
         "tskill": [rule_windows_session], "logoff": [rule_windows_session], "taskkill": [rule_taskkill],
         "taskkill.exe": [rule_taskkill], "wmic": [rule_taskkill],
         "Stop-Process": [rule_taskkill], "stop-process": [rule_taskkill], "spps": [rule_taskkill],
         **{p: [rule_job_cancel] for p in ("scancel", "bkill", "qdel", "condor_rm")},
         **{p: [supervisor_stops.rule_supervisor_shutdown] for p in supervisor_stops.SUPERVISORS}}
for _p in _DESKTOP:
    RULES[_p] = [rule_desktop]
for _p in _UPDATE_REBOOT:
    RULES.setdefault(_p, []).append(rule_update_reboot)
RULES["Install-WindowsUpdate"] = [rule_update_reboot]
