"""Effect: a system file written over through any program's option that says where it writes.

Programs name their output, log, dump or save file in their own words: ``-o``, ``-oG=F``, ``--outFile F``,
``--output-file=F``, ``-Logfile F``, ``--dump-bin F``, ``-fprintf F``, ``--save-to F``; a wrapper's too (``strace -o
F``, ``ltrace --output=F``), and a program named for saving or dumping by its ``-f``/``--file``/``-w``
(``iptables-save -f F``, ``tcpdump -w F``). Given a file every login, boot or program needs (``/etc/shadow``,
``/etc/ld.so.preload``, ``/etc/pam.d/*``, ``sudo`` itself, root's ``authorized_keys``), whatever the program writes
(a scan's report, a trace, a log, a build) replaces it: the system no longer boots, nobody logs in, or a stranger's
line now decides who does. The option is read by what its name is made of, so programs no rule names are judged too;
the target decides: only a file whose loss ``content.overwrite_level`` rates high (never a log directory, ``/tmp``
or a project file), and not one named for the program nor by a program named for making (``grub-mkconfig -o
/boot/grub/grub.cfg``, ``mkinitramfs -o /boot/initrd.img-6.1`` make the file they exist to make); disks are
``devices``'s.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import HIGH, LETTER_READERS, Ctx, describe, target
from aish.safety.rules.content import overwrite_level
from aish.safety.rules.triggers import triggered_by
from aish.safety.shell_words import Word

# Where a file the system cannot lose lives (a necessary part of every target this rule flags).
_PLACES = ("/etc/", "/boot/", "/bin/", "/sbin/", "/lib", "/usr/", "/root/", "authorized_keys")
# The parts an output option's name is made of: `out`, `outfile`, `output-file`, `log-file`, `dump-bin`, `save-to`.
_OUTPUT_PART = frozenset({"out", "output", "outfile", "outpath", "outputfile", "log", "logfile", "logpath", "dump",
                          "dumpfile", "save", "saveas", "saveto", "write", "writeto", "fprint", "fprintf", "fprint0",
                          "dest", "destination", "to", "o"})
# Parts that make the option a reading or a choice of format, not the file written (`--log-level`, `--out-format`).
_NOT_THE_FILE = frozenset({"level", "format", "fmt", "type", "dir", "directory", "prefix", "in", "input", "from",
                           "source", "src", "config", "conf", "template", "max", "size", "mode"})
_PARTS = lazy(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
MAKER = lazy(r"^(mk|make|gen|update|build|create|new)|[-_](mk|make|gen|update|build|create|new)")
# A program named for saving or dumping (`iptables-save`, `pg_dump`, `tcpdump`): its file option is what it writes.
_SAVER = lazy(r"save|dump|export|backup|record|capture", re.IGNORECASE)
_SAVER_FILE = frozenset({"f", "file", "w", "result-file", "r"})
_PLAIN_WRAPPERS = frozenset({"sudo", "doas", "env", "nohup", "nice", "command", "exec", "run0", "pkexec"})
_NMAP_STYLE = lazy(r"-o[A-Z]$")  # `-oN F`, `-oG=F`: the output option with its format fused


@triggered_by(_PLACES, otherwise=False)
def _place_in_line(c: Ctx) -> bool:
    line = c.lowered
    return len(c.texts) >= 2 and any(place in line for place in _PLACES)


def may_write(c: Ctx) -> bool:
    """Cheap: a system place among the words, the command's or its wrapper's (`strace -o /etc/x ls`)."""
    extra = len(c.seg.words) - len(c.words)
    if extra > 0 and any(place in w.text for w in c.seg.words[:extra] for place in _PLACES):
        return True
    return _place_in_line(c)


def _is_output(name: str) -> bool:
    """``name`` (without its dashes) is an option naming the file written."""
    if not name or len(name) > 24:
        return False
    parts = [p.lower() for p in _PARTS.findall(name)]
    if not parts or any(p in _NOT_THE_FILE for p in parts):
        return False
    return any(p in _OUTPUT_PART for p in parts)


def _values(texts: list, saver: bool, reader: bool = False) -> list:
    """The values of the line's output options: the next word, or after ``=``; a saver's file option too."""
    out = []
    for k, t in enumerate(texts[:48]):
        if t.startswith("--") or t.startswith("-") and len(t) > 1:
            name, eq, value = t.lstrip("-").partition("=")
            output = _is_output(name) if not (len(name) == 2 and _NMAP_STYLE.match("-" + name)) else True
            if output and not t.startswith("--") and len(name) == 1 and (name != "o" or reader):
                output = False
            if saver and name in _SAVER_FILE:
                output = True
            if output:
                if eq:
                    out.append(value)
                elif k + 1 < len(texts):
                    out.append(texts[k + 1])
    return out


def own_file(prog: str, path: str) -> bool:
    """The program exists to write that file: the path names it (its name's first part, 3 letters or more), or its
    name says it makes things (`mkinitramfs -o /boot/initrd.img`, `grub-mkimage -o …`, `update-…`, `gen…`)."""
    name = prog.rsplit("/", 1)[-1].lower()
    stem = re.split(r"[-_.]", name, maxsplit=1)[0]
    return len(stem) >= 3 and stem in path.lower() or bool(MAKER.search(name))


def rule_written_by_option(c: Ctx) -> Optional[tuple]:
    """``nmap -oG=/etc/shadow host``, ``strace -o /etc/ld.so.preload ls``, ``tsc a.ts --outFile /etc/pam.d/su``:
    the program's output replaces a file the system cannot lose."""
    words = c.seg.words if len(c.seg.words) > len(c.words) else c.words  # `strace -o F ls`, `time -o F cmd`
    names = [w.text.rsplit("/", 1)[-1] for w in words if not w.text.startswith("-") and "=" not in w.text]
    prog = next((n for n in names if n not in _PLAIN_WRAPPERS), c.prog)
    for value in _values([w.text for w in words[1:]], bool(_SAVER.search(prog)), prog in LETTER_READERS):
        value = value.strip("'\"")
        if not value.startswith(("/", "~")):
            continue
        t = target(Word(value, value, has_var="$" in value))
        if t.kind in ("root", "home", "system-top", "device"):
            continue  # a directory given as the place (`--out /usr`), not a file written over; disks: devices.py
        if own_file(prog, value):
            continue  # `grub-mkconfig -o /boot/grub/grub.cfg`: making that file is the program's job
        if overwrite_level(t) == HIGH:
            return HIGH, f"{prog} writes its output over {describe(t)} ({c.text})"
    return None
