"""Effect: a protected system file written through a program's write channel, whatever the program is.

Every program has its own way to write a file, and an attacker's catalogue of them (one per program: an output
option, a log option, a positional destination, a write inside a code string) turns each into a way to change what
decides who logs in, what runs at boot and what every program loads.  The program is unknown to the rules; what
is known is WHERE the write lands and THAT the program writes there:

- the target is a file in ``system_targets.SYSTEM_FILE`` (sudoers, PAM, sshd, passwd/shadow/group, hosts, crontabs,
  systemd units, ld.so.preload, profile scripts, the boot loader's, root's start-up files, any ``authorized_keys``);
  its worst reading decides the level: who logs in or what every program loads (sudoers, PAM, shadow, passwd,
  ``authorized_keys``, sshd, ld.so.preload) high, the rest medium;
- the channel is an option named for output, logs, dumps, saves, reports or exports (``--log F``, ``-L F``,
  ``-w F``, ``--result-file=F``, ``-fprintf F``, ``--save F``), a destination operand of a program whose name or
  verb says it copies, moves, installs, downloads, puts, saves, writes, exports or dumps (``lwp-download URL F``,
  ``aws s3api get-object … F``), an address that opens the file for writing (``create:F``, ``open:F,creat``), or
  a string of code that writes it (a redirect, an editor's ``:w F``/``w F``, ``.output F``, ``dump value "F"``,
  ``\\openout…=F``, a call that opens or writes it, as ``code_writes`` reads).

Quiet as classes: reading (``-i``, ``--input``, ``-f``, ``--config`` name a source; ``cat``, ``grep``, ``diff``,
``stat``, ``ls`` and the other readers whose ``-L``/``-w``/``-o`` mean something else), an editor opening the file,
a copy *from* a system file (a backup), validation, a program named for making the file it writes
(``grub-mkconfig -o /boot/grub/grub.cfg``), and everything written under a build directory or ``/tmp``.
"""
from __future__ import annotations

import re
from typing import Callable, Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules import code_writes
from aish.safety.rules.fed_shells import SHELLS
from aish.safety.rules.common import HIGH, LETTER_READERS, MEDIUM, Ctx
from aish.safety.rules.system_targets import SYSTEM_FILE
from aish.safety.rules.triggers import triggered_by
from aish.safety.rules.written_options import MAKER, own_file

WORDS = ("/etc/", "/root/", "authorized_keys", "/boot/", "/var/spool/cron", "systemd/system")
# Whose change decides who logs in or what every program loads: the worst reading of any write there is high.
# What else runs as root or at every login, beyond ``SYSTEM_FILE``: zsh's system start-up files, root's other shell
# files, the scripts login, apt, logrotate, udev, polkit, the network manager and the desktop run, init scripts.
_MORE = lazy(r"^(/private)?/etc/(zsh/(zshrc|zshenv|zprofile|zlogin)|zshrc|zshenv|zprofile|zlogin|update-motd\.d/.+|"
             r"apt/apt\.conf\.d/.+|logrotate\.d/.+|udev/rules\.d/.+|polkit-1/(rules\.d|localauthority)/.+|"
             r"init\.d/.+|rc\d?\.d/.+|xdg/autostart/.+|NetworkManager/dispatcher\.d/.+|sudo\.conf|gshadow|"
             r"subuid|subgid|csh\.(cshrc|login)|ssh/sshrc)$|^/root/\.(zshrc|zprofile|zshenv|zlogin|bash_login|"
             r"config/autostart/.+|ssh/rc)$")
_TUNING = lazy(r"/etc/systemd/(logind|journald|resolved|timesyncd)\.conf|/etc/sysctl\.")
_WORST = lazy(r"sudoers|shadow|passwd|pam\.|authorized_keys|sshd_config|ld\.so\.preload")
# The parts an option's name is made of when it names the file written (`--log-file`, `--result-file`, `-fprintf`).
_OUT_PARTS = frozenset({"out", "output", "outfile", "outpath", "outputfile", "log", "logfile", "logpath", "dump",
                        "dumpfile", "save", "saveas", "saveto", "write", "writeto", "fprint", "fprintf", "fprint0",
                        "export", "result", "report", "record", "capture", "logto", "tee", "append"})
_NOT_THE_FILE = frozenset({"level", "format", "fmt", "type", "dir", "directory", "prefix", "in", "input", "from",
                           "source", "src", "config", "conf", "template", "max", "size", "mode", "rotate", "lines",
                           "filter", "only", "no", "disable", "color", "colour", "timeout", "verbose"})
_PARTS = lazy(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
# One letter that names an output or a log file for most programs that take it (`-o F`, `-O F`, `-L F`, `-w F`,
# `-E F`); `-l F` only with more after it (`rlwrap -l F cmd`, `tftp -g -l F host`: alone it is a listing's)...
_LETTERS = frozenset("oOLwEl")
# A program named for copying, moving, installing, fetching or saving (a part of its name, or its verb).
_COPY_PARTS = frozenset({"cp", "copy", "copyto", "mv", "move", "moveto", "install", "download", "dl", "fetch", "get",
                         "put", "save", "write", "export", "dump", "pull", "sync", "mirror", "saveas", "store",
                         "restore", "extract", "dup", "clone"})
_COPY_ENDING = lazy(r"(?<=[a-z0-9])(cp|copy|mv|download|fetch|get|put|save|dump|sync|mirror)$")
# A program named for recording a session or a command's output: its file operand is what it writes
# (`script -q -c CMD F`, `ttyrec F`, `asciinema rec F`).
_RECORDER_PARTS = frozenset({"script", "rec", "record", "ttyrec", "termrec", "logsave"})
_NOT_COPY = frozenset({"apt", "apt-get", "aptitude", "dnf", "yum", "zypper", "pacman", "apk", "brew", "pip", "pip3",
                       "pipx", "npm", "pnpm", "yarn", "gem", "cargo", "go", "snap", "flatpak", "nix", "nix-env",
                       "conda", "mamba", "port", "pkg", "opkg", "emerge", "xbps-install", "guix", "dpkg", "rpm",
                       "git", "nuget", "make", "cmake", "ninja", "meson", "visudo", "sudoedit", "diff", "cmp"})
_APPENDED = lazy(r">>|\btee\s+-a|\bappend\b", re.IGNORECASE)
_FOLDER_OPTIONS = frozenset({"-d", "--dir", "--directory", "-P", "--directory-prefix", "--output-dir", "--outdir",
                             "--out-dir", "--dest-dir", "--destination-dir", "--target-dir", "--save-dir",
                             "--download-dir"})
_NAME_OPTIONS = frozenset({"-o", "-O", "--out", "--output", "--output-document", "--name", "--filename",
                           "--output-file", "--save-as"})
_RENAME_TO = lazy(r"^s(?P<d>[^\w\s])(?:(?!(?P=d)).)*(?P=d)(?P<to>/(?:(?!(?P=d)).)+)(?P=d)")
# An admin's own unit (not one boot or logins stand on: those are CRITICAL_FILE's, judged by `content`).
_ADMIN_UNIT = lazy(r"^/etc/systemd/(system|user)/(?![^/]*(sshd?|systemd-|dbus|getty|login|audit|[Nn]etwork|polkit|"
                   r"\.target))[^/]+\.(service|timer|socket|path|mount|automount|slice)$")
_EVERYDAY_COPIERS = frozenset({"cp", "mv", "install", "rsync", "ditto", "scp", "gcp", "gmv", "ginstall"})
_OPTION_VERBS = frozenset({"get", "copytolocal", "movetolocal", "cp", "mv", "put", "copyfromlocal", "download"})
_READ_VERBS = frozenset({"get", "show", "list", "ls", "cat", "read", "diff", "check", "validate", "lint", "verify",
                         "test", "status", "info", "inspect", "view", "print", "stat", "help"})
# An address that opens a file to write: `create:F`, `open:F,creat`, `gopen:F,append`.
_ADDRESS = lazy(r"^(?:create|creat|(?:g?open|file):(?=[^,]*,(?:[^,]*,)*\s*(?:creat|append|trunc|wronly|rdwr)))"
                r":?(?P<path>/[^,]+)", re.IGNORECASE)
# A write inside a string of code, the path in it marked \x00: a redirect, an editor's or sed's write command,
# sqlite's `.output`, gdb's `dump`, TeX's `\openout`, `tee`, `dd of=`, a copy's destination.
_CODE_WRITE = lazy(r"""(?:^|[:;|{}/\n])\s*(?:w|write|wq|x|saveas|sav|save)!?\s+["']?\x00|"""
                   r"""\.(?:output|once|save|backup|dump)\s+["']?\x00|\b(?:dump|append)\s+(?:binary\s+)?"""
                   r"""(?:value|memory|\w+)\s+["']?\x00|openout[^=\x00]{0,40}=\s*\x00|"""
                   r"""(?:Writer|OutputStream|FileStream)\s*\(\s*["']?\x00|"""
                   r"""\bset\s+(?:print|output|table|logfile)\s+["']\x00|"""
                   r"""\b(?:error_log|access_log|\w*log_?file|pid_?file|dump_?file)\s*[=\s]\s*["']?\x00|"""
                   r"""\b(?:get|mget|fetch|download|lcp)\s+(?:-\w+\s+)*\S+\s+["']?\x00""", re.IGNORECASE)
# The same in a shell's words inside the string (a redirect, tee, dd's of=, a copy): read in a program's own string,
# not on a line of its own, where the shell's rules judge it.
_SHELL_WRITE = lazy(r"""(?<![<=!])>>?\|?\s*["']?\x00|\btee\s+(?:-a\s+)?["']?\x00|\bof=["']?\x00|"""
                    r"""\b(?:cp|mv|install|copy)\s+(?:-\w+\s+)*\S+\s+["']?\x00""", re.IGNORECASE)
_PATH_IN = lazy(r"""(?:/etc/|/root/|/boot/|/var/spool/cron|/(?:usr/)?lib/systemd/system/|[\w.~/-]*/\.ssh/)"""
                r"""[\w.@%+/-]*""")


@triggered_by(WORDS, otherwise=False)
def may_reach(c: Ctx) -> bool:
    """Cheap: a protected place among the words."""
    low = c.lowered
    return any(w in low for w in WORDS)


def protected(path: str, more: bool = True) -> bool:
    """A file in the table (not a folder named as one, nor a tuning file whose breaking values ``meaning`` reads)."""
    path = path.strip().strip("'\"")
    return bool(path) and (SYSTEM_FILE.search(path) is not None or more and _MORE.search(path) is not None) and \
        not path.endswith("/") and not _TUNING.search(path)


def level(path: str) -> int:
    return HIGH if _WORST.search(path) else MEDIUM


def _output_name(name: str) -> bool:
    """``name`` (without its dashes) is an option naming the file written (`log-file`, `outFile`, `fprintf`)."""
    if not name or len(name) > 24:
        return False
    parts = [p.lower() for p in _PARTS.findall(name)]
    return bool(parts) and not any(p in _NOT_THE_FILE for p in parts) and any(p in _OUT_PARTS for p in parts)


def _by_option(prog: str, texts: list) -> Optional[str]:
    """The protected file an output or log option is given: ``--log F``, ``--log=F``, ``-L F``, ``-oG=F``."""
    reader = prog in LETTER_READERS
    for k, t in enumerate(texts):
        if not t.startswith("-") or len(t) < 2:
            continue
        name, eq, value = t.lstrip("-").partition("=")
        if "/" in name and not t.startswith("--"):  # `-o/etc/x`, `-L/etc/x`: the letter with its file fused
            name, eq, value = name[0], "=", t[2:]
        if len(name) == 1 and not t.startswith("--"):
            if name not in _LETTERS or reader and name != "E" or name == "l" and (eq or k + 2 >= len(texts)):
                continue
        elif len(name) == 2 and (name[0] == "o" and name[1].isupper() or name[0] == "L" and not reader):
            pass  # `-oG F`: the output option with its format fused; `-Lf F`: a log's kind with it
        elif not _output_name(name):
            continue
        if not eq and k + 1 < len(texts):
            value = texts[k + 1]
        if protected(value):
            return value.strip("'\"")
    return None


def _by_folder(texts: list) -> Optional[str]:
    """A folder and a name given apart (`aria2c -d /etc/cron.d -o x URL`, `wget -P /etc/cron.d URL/x`), or an
    archiver's rename rule that sends every member to one path (`tar c --xform 's@.*@/etc/x@' … | tar x -P`)."""
    folder = name = None
    for k, t in enumerate(texts):
        key, eq, value = t.partition("=")
        if not eq and k + 1 < len(texts):
            value = texts[k + 1]
        if key in _FOLDER_OPTIONS:
            folder = value.strip("'\"").rstrip("/")
        elif key in _NAME_OPTIONS and "/" not in value:
            name = value.strip("'\"")
        elif key.lstrip("-") in ("xform", "transform"):
            m = _RENAME_TO.match(value.strip("'\""))
            if m and protected(m.group("to")):
                return m.group("to")
    if folder and folder.startswith("/") and not name:
        url = next((t for t in texts if "://" in t), "")
        name = url.rstrip("/").rsplit("/", 1)[-1] if url else None
    path = f"{folder}/{name}" if folder and name else None
    return path if path and protected(path) else None


def _copy_named(prog: str) -> bool:
    """A part of the name says it copies or fetches (`lwp-download`, `s3-cp`), or the name ends so (`gsget`)."""
    low = prog.lower()
    return low not in _NOT_COPY and (any(p in _COPY_PARTS for p in re.split(r"[-_.]", low)) or
                                     bool(_COPY_ENDING.search(low)))


def _by_destination(prog: str, texts: list) -> Optional[str]:
    """The last operand of a program named (or told by its verb) to copy, fetch or save: ``lwp-download URL F``."""
    if prog.lower() in _NOT_COPY:
        return None
    operands = [t for k, t in enumerate(texts) if not t.startswith("-")]
    if not operands:
        return None
    verb = operands[0].lower()
    if verb in _READ_VERBS:
        return None
    verb_parts = set(re.split(r"[-_.:]", verb))  # the first operand: a recorder's verb (`asciinema rec F`)
    name_parts = set(re.split(r"[-_.]", prog.lower()))
    if name_parts & _RECORDER_PARTS or verb_parts & _RECORDER_PARTS:
        recorded = [o for o in operands if protected(o)]
        if recorded:
            return recorded[0].strip("'\"")
    nested = next((k for k, o in enumerate(operands[:3]) if set(re.split(r"[-_.:]", o.lower())) & _COPY_PARTS), None)
    if nested is not None:  # `rclone copyto`, `aws s3 cp`, `az storage blob download … -f F`: the verb's operands
        operands = operands[nested + 1:]
    elif not _copy_named(prog) and not any(t.lstrip("-").lower() in _OPTION_VERBS for t in texts if t[:1] == "-"):
        return None  # `hdfs dfs -get SRC F`, `-copyToLocal`: the verb as an option
    if len(operands) < 2:
        return None
    dest = operands[-1]
    dest = dest[len("file://"):] if dest.startswith("file:///") else dest
    if dest.strip("'\"").rstrip("/") in ("/etc/systemd/system", "/etc/systemd/user"):  # the unit folder: into it
        dest = dest.strip("'\"").rstrip("/") + "/" + operands[-2].strip("'\"").rstrip("/").rsplit("/", 1)[-1]
    # the everyday copiers' drop-ins (`sudo cp x /etc/logrotate.d/app`) and an admin's own unit (`cp myapp.service
    # /etc/systemd/system/myapp.service`: a service installed) are their own rules' to judge
    everyday = prog in _EVERYDAY_COPIERS
    if not protected(dest, more=not everyday) or everyday and _ADMIN_UNIT.match(dest.strip("'\"")) or \
            any(protected(o) for o in operands[:-1]):
        return None  # a backup of the system's file, or a copy between its own places
    return dest.strip("'\"")


# A stream's or a handle's own write given the path as its data (`sys.stdout.write('/etc/passwd')`,
# `f.write("/etc/x")`): the path is what is written, not where.
_DATA_CALL = lazy(r"""(?:^|[^\w.])[a-z_][\w.]*\.(?:write|writelines|print|println|puts|send|emit)\s*\(\s*["']$""")


def _as_data(code: str, path: str) -> bool:
    at = code.find(path)
    return at > 0 and bool(_DATA_CALL.search(code[max(0, at - 80):at]))


def _redirected(code: str, path: str) -> bool:
    at = code.find(path)
    return at >= 0 and bool(_SHELL_WRITE.search(code[:at] + "\x00" + code[at + len(path):]))


def code_written(texts: list, shell_words: bool = True) -> Optional[tuple]:
    """(path, appended?, code) for a protected file written by a string of code among the words (a redirect,
    ``:w F``, ``.output F``, ``open("F", "w")``), or by an address that opens it to write (``create:F``,
    ``open:F,creat``); ``shell_words=False``: a line of its own, whose redirects and copies the shell's rules read."""
    for t in texts[:48]:
        m = _ADDRESS.match(t)
        if m and protected(m.group("path")):
            return m.group("path"), ",append" in t.lower(), ""
        if len(t) < 8 or protected(t):
            continue
        for found in _PATH_IN.finditer(t[:code_writes.LIMIT]):
            path = found.group(0)
            if not protected(path):
                continue
            marked = t[:found.start()] + "\x00" + t[found.end():]
            written = _CODE_WRITE.search(marked) or (_SHELL_WRITE.search(marked) if shell_words else None)
            if written:
                return path, bool(_APPENDED.search(written.group(0))), t
        if "'" in t or '"' in t or "(" in t or "[" in t:
            for path, appended in code_writes.writes(t):
                if protected(path) and not _as_data(t, path) and (shell_words or not _redirected(t, path)):
                    return path, appended, t
    return None


def judged(c: Ctx, found: Optional[tuple], how: str, output: bool = False) -> Optional[tuple]:
    """A write over the file at its worst reading; a line appended to it as ``meaning`` reads a shell's ``>>``
    (a hosts line or a profile script's ``export`` is routine; a sudoers rule or a cron line that runs a dropped
    program is not)."""
    if found is None:
        return None
    prog = c.prog.rsplit("/", 1)[-1]
    if output and _makes(prog, found[0]):
        return None  # a program's output named for the file it exists to make; a code string is no such output
    return meant(prog, found, how, c.text, c.recurse)


def meant(prog: str, found: tuple, how: str, shown: str, recurse: Callable) -> Optional[tuple]:
    path, appended, code = found
    if appended:
        from aish.safety.rules.meaning import written_meaning  # meaning reads writers, which read code: read late
        meant = written_meaning(path, True, code_writes.text_written(code), recurse)
        return (meant[0], f"{meant[1]}, written by {prog}") if meant is not None and meant[0] >= MEDIUM else None
    return level(path), f"{prog} {how} {path}: a file that decides who logs in or what runs is changed ({shown})"


def _makes(prog: str, path: str) -> bool:
    """The program exists to make that file (`grub-mkconfig -o /boot/grub/grub.cfg`); a name that only shares a
    word with a login file (`ssh -E /etc/pam.d/sshd`) makes nothing there."""
    return own_file(prog, path) and (level(path) < HIGH or bool(MAKER.search(prog.lower())))


def rule_write_channel(c: Ctx) -> Optional[tuple]:
    """``screen -L /etc/shadow …``, ``find / -fprintf /etc/cron.d/x …``, ``lwp-download URL /etc/cron.d/x``,
    ``socat -u … open:/etc/passwd,creat``, ``gdb -ex 'dump value "/etc/sudoers" …'``: the program writes a file
    whose content decides who logs in or what runs."""
    texts = c.texts[:64]
    prog = c.prog.rsplit("/", 1)[-1]
    path = _by_option(prog, texts)
    if path is not None:
        return judged(c, (path, False, ""), "writes its output or log over", output=True)
    path = _by_destination(prog, texts) or _by_folder(texts)
    if path is not None:
        return judged(c, (path, False, ""), "puts what it copies or fetches at", output=True)
    if prog in SHELLS:
        return None  # a shell's string is judged as the commands it runs, its redirects as a shell's
    return judged(c, code_written(texts), "is told by a string of code or an address to write")
