"""Stopping whatever a listing names, in any program's words.

``docker stop $(docker ps -q)``, ``docker ps -q | xargs docker stop``, ``for vm in $(virsh list
--name); do virsh shutdown $vm; done``, ``virsh list --name | while read vm; do virsh undefine
"$vm"; done``: the names are computed when the line runs, and the listing names every running
container, VM, process or session.  The targets come from a listing when an operand is a
substitution of one, ``xargs`` is fed by a pipeline that starts with one, or the operand is a loop
variable bound to one earlier on the line (``for NAME in $(…)``, ``… | while read NAME``).  The
verb decides: stopping, killing, powering off or deleting is flagged; reading, logging or
restarting is not.  A listing of one (``docker ps -lq``, ``pgrep -n``) is not a listing.
"""
from __future__ import annotations

import re
from contextvars import ContextVar
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.shell_words import Segment
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

# Loop variables bound to a listing earlier on the line being judged: {name: listing text}.
LOOP_LISTS: ContextVar = ContextVar("aish_safety_loop_lists", default=None)

# Programs whose output is a list of running things.
_LISTERS = frozenset({"ps", "pgrep", "pidof", "jobs", "lsof", "fuser", "tasklist", "pstree", "screen", "qstat",
                      "squeue", "bjobs", "runningvms"})
# Every process's directory: `/proc/[0-9]*`, `/proc/[1-9]*`, `/proc/*`.
_EVERY_PROCESS = lazy(r"^/proc/(\[[0-9-]+\]\*?|\*)/?$")
# A cgroup's files that list its processes.
_CGROUP_PROCESSES = ("cgroup.procs", "cgroup.threads", "/tasks")
# Programs that list windows, with the word that makes them list (none: the name alone).
_WINDOW_LISTERS = {"wmctrl": frozenset({"-l", "-lp", "-lx", "-lG", "-lpG", "-lxp"}), "xdotool": frozenset({"search"}),
                   "kdotool": frozenset({"search"}), "xdo": frozenset({"id"}), "hyprctl": frozenset({"clients"}),
                   "bspc": frozenset({"query"}), "xlsclients": frozenset(), "lswt": frozenset(),
                   "wlrctl": frozenset({"list"})}
# Subcommand words that list (`docker ps`, `virsh list`, `tmux ls`, `systemctl list-units`, `VBoxManage list vms`).
_LIST_WORDS = lazy(r"^(ps|ls|list|list-\w+|ids|names|global-status|status|runningvms|vms|get|-ls|-list|"
                   r"ls-\w+|instances|containers|sessions|domains|jobs)$")
# A listing of one: the newest, the oldest, the latest.
_ONE = lazy(r"^(--latest|-n|-o|--newest|--oldest|-\w*l\w*q|-l|-lq|-ql)$")
_LIST_OPTIONS = frozenset({"--status-all", "--list", "-list", "--list-all", "-ls", "--running"})
_STOP_VERBS = frozenset({"stop", "kill", "halt", "shutdown", "poweroff", "power-off", "destroy", "terminate",
                         "kill-session", "kill-server", "kill-window", "kill-pane", "suspend", "down", "undefine",
                         "delete", "rm", "remove", "destroy-vm", "stop-instances", "terminate-instances",
                         "quit", "exit", "reset", "acpipowerbutton", "deallocate", "instance-stop",
                         "stop-db-instance", "stop-db-cluster", "suspend-vm", "server-stop",
                         # paused, frozen or switched off for good: every one of them stops serving
                         "pause", "freeze", "hibernate", "stopp", "force-stop", "disable", "mask", "unmonitor"})
# A program whose name ends in the verb (`lxc-stop -n $c`, `qvm-kill`).
_VERB_NAME = re.compile(r"[-_](stop|kill|destroy|shutdown|poweroff|halt|delete|remove)$")
_SIGNALLERS = frozenset({"kill", "pkill", "skill", "killall"})
_GENTLE = re.compile(r"^-(0|HUP|SIGHUP|1|USR1|SIGUSR1|USR2|SIGUSR2|CONT|SIGCONT|WINCH|SIGWINCH|s0|s\s*HUP)$")
_EVERY = frozenset({"-a", "--all", "all"})
_MAX_BOUND = 16


def bind_loops(seg: Segment, chain: list) -> None:
    """Remember a loop variable bound to a listing (``for vm in $(virsh list)``, ``… | while read vm``)."""
    words = seg.words
    if not words:
        return
    first = words[0].text
    if first == "for" and len(words) >= 4 and words[2].text == "in":
        listing = next((s for w in words[3:] for s in w.subs if is_listing(s)), None) or \
            next((w.text for w in words[3:] if _EVERY_PROCESS.match(w.text)), None)
        if listing:
            _bind([words[1].text], listing)
    elif first == "read" and chain and chain[0].words:
        names = [w.text for w in words[1:] if re.fullmatch(r"[A-Za-z_]\w*", w.text)]
        listing = " ".join(w.text for w in chain[0].words)
        if names and is_listing(listing):
            _bind(names, listing)


def _bind(names: list, listing: str) -> None:
    bound = dict(LOOP_LISTS.get() or {})
    if len(bound) < _MAX_BOUND:
        bound.update({n: listing for n in names})
        LOOP_LISTS.set(bound)


def is_listing(text: str) -> bool:
    """Does this command (the head of a substitution or a pipeline) list running things?"""
    head = text.split("|", 1)[0].split()
    while head and (head[0] in ("sudo", "doas", "command") or "=" in head[0]):
        head = head[1:]
    if not head:
        return False
    prog = head[0].rsplit("/", 1)[-1]
    rest = head[1:]
    if any(_ONE.match(t) for t in rest) and (prog in ("pgrep", "docker", "podman", "nerdctl") or
                                             "ps" in rest[:1]):
        return False
    if prog in _LISTERS:
        return prog not in ("pgrep", "pidof") or bool(rest)
    if _EVERY_PROCESS.match(prog):  # `for p in /proc/[0-9]*`: every process's directory
        return True
    if prog in ("cat", "head", "tail", "sort") and any(t.endswith(_CGROUP_PROCESSES) for t in rest):
        return True  # `cat /sys/fs/cgroup/user.slice/cgroup.procs`: every process in the cgroup
    if prog in _WINDOW_LISTERS and (not _WINDOW_LISTERS[prog] or _WINDOW_LISTERS[prog] & set(rest)):
        return True  # every window: `wmctrl -l`, `xdotool search --name .`, `bspc query -N`
    operands = [t for t in rest if not t.startswith("-")][:3]
    return any(_LIST_WORDS.match(t) for t in operands) or prog.endswith(("ls", "list", "_status", "select")) or \
        not _LIST_OPTIONS.isdisjoint(rest)


def from_listing(c: Ctx) -> str:
    """The listing this command's operands come from ("" when they are written out)."""
    bound = LOOP_LISTS.get() or {}
    for w in c.args:
        for sub in w.subs:
            if is_listing(sub):
                return sub
        if bound and w.has_var:
            name = re.match(r"^\$\{?([A-Za-z_]\w*)", w.text)
            if name and name.group(1) in bound:
                return bound[name.group(1)]
    if c.xargs and c.chain and c.chain[0].words:
        head = " ".join(w.text for w in c.chain[0].words)
        if is_listing(head):
            return head
    return ""


# A listing's filter that keeps only what has ended or what nothing uses (every key of a filter narrows the rest)
_ENDED_ONLY = lazy(r"(?:-f|--filter|--field-selector)[\s=]+['\"]?(?:status=(?:exited|created|dead)|dangling=(?:true|1)|"
                   r"status\.phase==?(?:Failed|Succeeded))\b")


@triggered_by(_SIGNALLERS, _VERB_NAME, _STOP_VERBS)
def rule_stops_listed(c: Ctx) -> Optional[tuple]:
    """A stop, kill, power-off or delete of every one a listing names, or of every one (``podman stop -a``)."""
    prog = c.prog.lower()
    operands = [t.lower() for t in c.texts if not t.startswith("-")][:4]
    named = _VERB_NAME.search(prog)
    verb = prog if prog in _SIGNALLERS or named else next((t for t in operands if t in _STOP_VERBS), "")
    if not verb or any(_GENTLE.match(t) for t in c.texts):
        return None
    listing = from_listing(c)
    if listing and _ENDED_ONLY.search(listing):
        return None  # `docker rm $(docker ps -aq -f status=exited)`: only what has ended (the program's rule says)
    if listing:
        said = c.prog if verb == prog else f"{c.prog} {verb}"
        return MEDIUM, f"{said} acts on every one '{listing[:40]}' lists ({c.text})"
    if verb in operands[:2] and verb in ("stop", "kill") and not _EVERY.isdisjoint(c.texts[1:]):
        return MEDIUM, f"{c.prog} {verb} stops every one it runs ({c.text})"
    return None
