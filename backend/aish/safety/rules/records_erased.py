"""Effect: the system's records erased (logs, audit trails, login records, journals, shell histories), by any program.

What is known is WHERE records live and THAT a command erases what is there; the program is not known (an
attacker's catalogue has one way per program, a held-back set another).  Built generic in both, as
``write_channels`` is for protected files:

- WHERE (``_PLACE``): ``/var/log/**`` (and macOS's ``/private/var/log``), ``/var/adm``, ``/var/audit``,
  ``/var/account``, ``/run/utmp``, the volatile journal ``/run/log/journal``, macOS's unified log store
  (``/var/db/diagnostics``, ``/var/db/uuidtext``), ``/Library/Logs``, Windows' ``winevt\\Logs``, ``System32\\LogFiles``,
  ``C:\\Windows\\Logs``, IIS's ``inetpub\\logs``, any ``.evtx``, every program's dot history file
  (``.NAME_history``, ``.NAME_hist``), vim's ``.viminfo`` (less's ``.lesshst`` holds searches: quiet), what a
  desktop keeps of what was run, opened and connected to (Prefetch, Recent and jump lists, Amcache, SRUM, the
  remote desktop client's cache and ``Default.rdp``, ``recently-used.xbel``, macOS' QuarantineEventsV2),
  remote-access tools' connection logs (TeamViewer, AnyDesk, a VNC server's: traces of who got in).  The traces
  of who got in (``_WHO_GOT_IN``: auth.log, secure, wtmp/btmp/utmp/lastlog/faillog, sulog, the audit logs,
  Security.evtx, a whole log root) are high, the rest medium;
- THAT (``_erasure``): a redirect that writes over one (``: >``, ``echo >``, ``printf '' >``, ``cmd >``: read by
  ``content.redirect`` through ``written_over``, for every redirect, a command before it or not); a program,
  a verb or an option whose words say it removes, empties or clears (``gio trash``, ``Clear-Content``,
  ``tar --remove-files``, ``-exec rm``); ``/dev/null`` or ``/dev/zero`` as its other operand or its input
  (``cp``, ``ln -sf``, ``install``, ``dd if=``, ``mount --bind``, ``sponge … < /dev/null``); a copy or move that
  lands on one (a forged record: ``mv /tmp/clean /var/log/wtmp``); an in-place edit (a selective wipe:
  ``sed -i '/10.0.0.5/d'``, ``perl -pi``, ``awk -i inplace``); a file system mounted over a log root; holes
  punched in one (``fallocate --punch-hole``).

Quiet as classes: reading (the readers of ``programs.READ_ONLY`` whatever their words, ``tail``, ``less``,
``grep remove /var/log/dpkg.log``), copies and moves *from* a record (backups, exports), log rotation by its
own tool, appending (``>>``), help and dry runs, and the user's own app logs (a project's ``logs/``,
``~/.cache``, ``~/Library/Logs``: not under a system root).  Rotated archives (``auth.log.1``, ``*.gz``) are
not raised here: deleting old archives is how disks are freed, and the delete rules keep them medium.
"""
from __future__ import annotations

import fnmatch
import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.programs import READ_ONLY
from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.ages import older_than
from aish.safety.rules.triggers import triggered_by

# The words a place's path holds (lowered, as typed): the reading's trigger.
WORDS = ("/var/log", "var/adm", "/var/audit", "/var/account", "utmp", "wtmp", "btmp", "lastlog", "/run/log",
         "diagnostics", "uuidtext", "/logs", "\\logs", "winevt", "logfiles", ".evtx", "_hist", "history",
         "viminfo", "dbshell", "shada", "prefetch", "recent", "amcache", "sru", "terminal server client",
         "default.rdp", "recently-used", "quarantineevents", "teamviewer", ".trace", ".vnc",
         "security", "terminalservices")
_REMOTE_ACCESS = (r"teamviewer[^/]*\.log$|(?:^|/)teamviewer/connections(?:_incoming)?\.txt$|"
                  r"(?:^|/)ad(?:_svc)?\.trace$|(?:^|/)anydesk/connection_trace\.txt$|(?:^|/)\.vnc/[^/]+\.log$")
_PLACE = lazy(r"^(?:/private)?/var/(?:log|adm|audit|account)(?:/|$)|^/(?:var/)?run/(?:utmpx?$|log/journal)|"
              r"^(?:/private)?/var/db/(?:diagnostics|uuidtext)(?:/|$)|^/library/logs(?:/|$)|"
              r"(?:^|/)(?:system32/(?:winevt/logs|logfiles)|windows/logs|inetpub/logs)(?:/|$)|\.evtx$|"
              r"(?:^|/)\.[\w.-]+_hist(?:ory)?$|"  # any program's: .bash_history, .gdb_history, .octave_hist
              r"(?:^|/)(?:\.zhistory|\.histfile|fish_history|consolehost_history\.txt|\.viminfo|\.dbshell|"
              r"repl_history\.jl)$|(?:^|/)shada/main\.shada$|(?:^|/)\.?ipython/profile_[^/]+/history\.sqlite$|"
              # what a desktop keeps of what was run, opened and connected to (Prefetch, Recent and jump lists,
              # Amcache, SRUM, the remote desktop client's cache and last connection, recently-used.xbel, macOS'
              # download history) and remote-access tools' connection logs (TeamViewer, AnyDesk, a VNC server's)
              r"^(?:/windows)?/prefetch(?:/|$)|(?:^|/)microsoft/windows/recent(?:/|$)|"
              r"(?:^|/)appcompat/programs/amcache\.hve$|(?:^|/)system32/sru(?:/|$)|"
              r"(?:^|/)terminal server client/cache(?:/|$)|(?:^|/)default\.rdp$|(?:^|/)recently-used\.xbel$|"
              r"(?:^|/)com\.apple\.launchservices\.quarantineeventsv2$|" + _REMOTE_ACCESS)
_WHO_GOT_IN = lazy(_REMOTE_ACCESS + r"|auth\.log|/secure(?:$|[.-])|[wbu]tmpx?(?:$|\.)|lastlog|faillog|tallylog|"
                   r"sulog|authlog|/audit(?:/|$)|^/var/audit|security\.evtx|^(?:/private)?/var/(?:log|adm)/?\*?$|"
                   r"winevt/logs/?\*?(?:\.evtx)?$")
# Windows event logs of who got in, named as a channel (`wevtutil cl Security`, `Clear-EventLog -LogName Security`).
_WHO_CHANNELS = frozenset({"security", "microsoft-windows-terminalservices-localsessionmanager/operational",
                           "microsoft-windows-terminalservices-remoteconnectionmanager/operational"})
_WHO_NAMES = ("auth.log", "secure", "wtmp", "btmp", "lastlog", "faillog", "tallylog", "sulog", "authlog", "wtmpx")
_ARCHIVE = lazy(r"\.(?:gz|xz|bz2|zst|lz4|z|old|bak|\d+)$|-\d{8}$")
# Words a program's name or its verb is made of when it removes, empties or clears what it is given.
_ERASING = frozenset({"rm", "del", "erase", "remove", "delete", "unlink", "shred", "srm", "wipe", "truncate",
                      "clear", "clean", "purge", "trash", "zap", "nuke", "destroy", "rip", "empty", "rmdir", "rd",
                      "ri", "clc", "scrub"})
# ... and an option's (`--remove-source-files`, `--remove-files`, `-delete`, `--punch-hole`).
_OPTION_ERASING = frozenset({"delete", "remove", "clear", "purge", "wipe", "erase", "truncate", "punch", "collapse",
                             "shred", "unlink", "empty"})
# Deleters named as the command a finder or a pipe runs on each match (`-exec rm {} \;`, `fd … -x shred`).
_RUN_DELETERS = frozenset({"rm", "unlink", "shred", "srm", "wipe", "truncate", "del", "remove-item", "clear-content"})
_COPIERS = frozenset({"cp", "mv", "copy", "move", "install", "ditto", "gcp", "gmv", "rsync", "copy-item",
                      "move-item", "cpi", "mi", "xcopy", "robocopy", "scp", "rclone", "sponge"})
_EDITORS = frozenset({"sed", "gsed", "perl", "ruby", "awk", "gawk", "sd", "rpl", "replace"})
_MOUNTERS = frozenset({"mount", "mount.tmpfs", "mount_tmpfs"})
# Programs that write what they read into their file operand: given nothing to read, the record is emptied
# (`sponge /var/log/auth.log < /dev/null`); a mailer or a reader given no input only sends or reads it.
_STDIN_WRITERS = frozenset({"sponge", "tee", "dd", "pv", "mbuffer", "buffer", "cat", "cp", "install", "write",
                            "save", "out-file", "set-content", "add-content"})
_NOTHING = frozenset({"/dev/null", "/dev/zero", "nul", "$null", "if=/dev/null", "if=/dev/zero"})
_SAFE = frozenset({"--help", "-h", "--dry-run", "-whatif", "--version", "/?"})
_PARTS = re.compile(r"[-_.:]")
_ROOT = lazy(r"^(?:/private)?/var/(?:log|adm|audit|account)/?$")
_DRIVE = re.compile(r"^(?:[a-z]:|%systemroot%|\$env:systemroot|\$env:windir|%windir%)(?=/)")


def _path(text: str) -> str:
    p = _DRIVE.sub("", text.strip("'\"").replace("\\", "/").lower())
    return p[len("/windows"):] if p.startswith("/windows/system32/") else p


def place(text: str) -> Optional[str]:
    """The record ``text`` names (its path lowered, slashes forward), or None: a place in the table, not an archive."""
    if not text or text[0] == "-" and "=" not in text:
        return None
    p = _path(text.split("=", 1)[1] if text.startswith(("-", "of=")) and "=" in text else text)
    return p if _PLACE.search(p) and not _ARCHIVE.search(p) else None


def _level(p: str) -> int:
    if _WHO_GOT_IN.search(p):
        return HIGH
    folder, _, name = p.rpartition("/")
    if any(ch in name for ch in "*?[") and _ROOT.match(folder):  # `/var/log/*.log` takes auth.log too
        return HIGH if any(fnmatch.fnmatchcase(record, name) for record in _WHO_NAMES) else MEDIUM
    return MEDIUM


@triggered_by(WORDS, otherwise=False)
def may_erase(c: Ctx) -> bool:
    """Cheap: a record's place among the words."""
    low = c.lowered
    return any(w in low for w in WORDS)


def may_be_fed(c: Ctx) -> bool:
    """Cheap: xargs fed by a pipe (the words' trigger does not see the feeder's words)."""
    return c.xargs and bool(c.chain)


def _in_place(prog: str, lowered: list) -> bool:
    """An editor told to write its file back (`sed -i`, `sed -i.bak`, `perl -pi`, `awk -i inplace`)."""
    return prog in _EDITORS and any(t.startswith(("-i", "--in-place")) or t == "inplace" or
                                    prog in ("perl", "ruby") and re.fullmatch(r"-[a-z]*i\w*", t) is not None
                                    for t in lowered)


def _erasure(c: Ctx) -> Optional[str]:
    """How the command erases the records its operands name, or None."""
    prog = c.prog.lower().rsplit("/", 1)[-1].removesuffix(".exe")
    texts = c.texts
    lowered = [t.lower() for t in texts]
    if prog in READ_ONLY or set(lowered) & _SAFE:
        return None
    name_parts = set(_PARTS.split(prog))
    operands = [t for t in lowered if not t.startswith("-")]
    verb = set(_PARTS.split(operands[0])) if operands and not place(operands[0]) else set()
    if name_parts & _ERASING or verb & _ERASING:
        return f"{c.prog} removes or empties it"
    for t in lowered:
        if t.startswith("-") and set(_PARTS.split(t.lstrip("-").split("=", 1)[0])) & _OPTION_ERASING:
            return f"{t} removes or empties it"
    if set(lowered) & _RUN_DELETERS:
        return "each match is deleted"
    if set(lowered) & _NOTHING or (name_parts & _STDIN_WRITERS or prog in _STDIN_WRITERS) and \
            any(r.op == "<" and r.target is not None and r.target.text in _NOTHING for r in c.seg.redirects):
        return "it is replaced by nothing"
    if (name_parts | verb) & _COPIERS or prog in _COPIERS:
        if any(o.startswith("trash:") for o in operands):
            return "it is moved to the trash"
        dest = operands[-1] if len(operands) >= 2 else ""
        if place(dest) and not dest.endswith(("/", "\\")) and not _ROOT.match(_path(dest)) and \
                not set(lowered) & {"-d", "--directory"}:  # into a folder, or `install -d`: no record replaced
            return "another file is put in its place"
    if _in_place(prog, lowered):
        return "lines are deleted from it in place"
    if prog in _MOUNTERS and ("tmpfs" in lowered or set(lowered) & {"--bind", "bind", "--rbind"}) or \
            "bindfs" in name_parts:  # not `mount /dev/sdb1 /var/log`: a log partition of its own
        return "a file system is mounted over it (its records hidden)"
    return None


def _channel_cleared(c: Ctx) -> bool:
    """A who-got-in event log named as a channel, and a name or verb that clears or removes it (`cl` too)."""
    lowered = [t.lower().strip("'\"") for t in c.texts]
    if not any(x in _WHO_CHANNELS for t in lowered for x in t.split(",")):
        return False
    operands = [t for t in lowered if not t.startswith("-")]
    words = set(_PARTS.split(c.prog.lower().removesuffix(".exe"))) | \
        (set(_PARTS.split(operands[0])) | {operands[0]} if operands else set())
    return bool(words & _ERASING or "cl" in words) and not set(lowered) & _SAFE


def who_got_in(path: str) -> bool:
    """A trace of who got in (``delete_level`` and ``overwrite_level`` raise a system file's loss to high for it:
    code's `os.remove('/var/log/secure')`, `File.truncate("/var/log/auth.log", 0)`)."""
    p = place(path)
    return p is not None and _level(p) == HIGH


def written_over(text: str) -> Optional[tuple]:
    """A redirect's target that is a record: (level, what is erased); ``content.redirect`` asks it for every ``>``."""
    p = place(text)
    if p is None:
        return None
    level = _level(p)
    what = "a record of who got in" if level == HIGH else "the system's records"
    return level, f"erases {what}: {p}"


def rule_records_erased(c: Ctx) -> Optional[tuple]:
    """A record's place named as an operand (or by the pipe feeding xargs), and a command that erases it."""
    records = [p for p in (place(w.raw if "\\" in w.raw else w.text) for w in c.args) if p]
    if not records and c.xargs and c.chain:  # `ls /var/log/*.log | xargs truncate -s0`: the feeder names them
        records = [p for p in (place(w.text) for w in c.chain[-1].words[1:]) if p]
    how = _erasure(c) if records else None
    if not how and _channel_cleared(c):
        records, how = ["the Security event log"], "the log is cleared"
    if not how:
        return None
    level = max(HIGH if p.startswith("the ") else _level(p) for p in records)
    worst_place = max(records, key=_level)
    older = older_than(c.texts) if c.prog == "find" else ""
    if older:  # `find /var/log -name '*.gz' -mtime +7 -delete`: the retention logrotate keeps, not every record
        return MEDIUM, f"removes the logs {older} under {worst_place} ({how}) ({c.text})"[:200]
    what = "a record of who got in" if level == HIGH else "the system's records"
    return level, f"erases {what}: {worst_place} ({how}) ({c.text})"[:200]

