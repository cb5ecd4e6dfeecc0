"""Per-program rules for ``safety.assess``, files and disks: ``rm``, ``find``, ``dd``, ``mkfs``...

Tools and services (``git``, SQL clients, ``kubectl``, cloud CLIs) are in
``safety_tools.py``, which also holds the program -> rule table.

Each rule gets the unwrapped words of one simple command and returns a
finding ``(rank, reason)`` (0 low, 1 medium, 2 high) or None.  Options are
parsed the way the programs parse them (bundled ``-rf``, ``-r -f``,
``--recursive``, ``--``), because that is where a grep goes wrong.  Reasons
are one line: what happens, to what, and the fragment that does it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Optional

from aish.safety.shell_words import Redirect, Segment, Word

LOW, MEDIUM, HIGH = 0, 1, 2

_DEVICE = re.compile(r"^/dev/(sd[a-z]|nvme\d|hd[a-z]|vd[a-z]|xvd[a-z]|mmcblk\d|disk\d|rdisk\d|"
                     r"md\d|mapper/|dm-\d|loop\d|sr\d|fd\d|root\b|mtdblock)")
_SYSTEM_TOP = {"bin", "boot", "dev", "etc", "home", "lib", "lib32", "lib64", "libx32", "opt", "proc",
               "root", "sbin", "srv", "sys", "tmp", "usr", "var", "mnt", "media", "snap", "run",
               "System", "Library", "Applications", "Users", "Volumes", "private"}
_SYSTEM_FILES = re.compile(r"^/(etc/(passwd|shadow|group|gshadow|sudoers|fstab|hosts)$|boot/)")
@dataclass
class Ctx:
    prog: str
    words: list  # Word, the program first
    args: list  # Word, after the program
    seg: Segment
    chain: list  # Segments piping into this one
    sudo: bool
    xargs: bool
    depth: int
    recurse: Callable[[str], Optional[tuple]]  # judge a nested command text
    check: Callable[[list], Optional[tuple]]  # judge nested command words

    @property
    def text(self) -> str:
        return fragment([w.raw for w in self.words])


def fragment(parts: list, limit: int = 60) -> str:
    text = " ".join(parts)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def parse_opts(args: list, valued: frozenset = frozenset()) -> tuple:
    """(set of short letters and long names seen, {option: value}, positional Words)."""
    flags: set = set()
    values: dict = {}
    positional: list = []
    i = 0
    while i < len(args):
        w = args[i]
        t = w.text
        i += 1
        if t == "--":
            positional.extend(args[i:])
            break
        if t.startswith("--") and len(t) > 2:
            name, eq, val = t.partition("=")
            flags.add(name)
            if not eq and name in valued and i < len(args):
                val, i = args[i].text, i + 1
            values[name] = val
        elif t.startswith("-") and len(t) > 1 and not t[1].isdigit():
            for k, letter in enumerate(t[1:]):
                flags.add(letter)
                if "-" + letter in valued:
                    rest = t[k + 2:]
                    if not rest and i < len(args):
                        rest, i = args[i].text, i + 1
                    values["-" + letter] = rest
                    break
        else:
            positional.append(w)
    return flags, values, positional


# ----------------------------------------------------------------- paths

def path_kind(word: Word) -> Optional[str]:
    """'root', 'home', 'system', 'cwd-all', 'var' (starts with a variable), 'var-inside' or None."""
    t = word.text
    if word.has_var and re.match(r"^\$(\{?HOME\}?)(/\*?|/\.\*)?/*$", t):
        return "home"
    stripped = t.rstrip("/") or "/"
    if stripped in ("/", "/*", "/.*", "/.") or re.fullmatch(r"/+(\.\.?/*)*\*?", t):
        return "root"
    if stripped in ("~", "~/*", "~/.*") or re.fullmatch(r"~[a-z_][\w-]*/?\*?", t):
        return "home"
    if t in ("*", ".*", "./*", ".", "./", "..", "../", "../*", "./.*", "* .*") and (word.glob or "*" not in t):
        return "cwd-all"
    if word.has_var and t.startswith(("$", "`")):
        return "var"
    if t.startswith("/"):
        parts = [p for p in stripped.split("/") if p and p != "."]
        if parts and parts[0] in _SYSTEM_TOP and (len(parts) == 1 or (len(parts) == 2 and parts[1] == "*")
                                                   or (parts[0] in ("usr", "etc", "var", "boot")
                                                       and len(parts) == 2)):
            return "system"
    if word.has_var:
        return "var-inside"
    return None


def is_device(path: str) -> bool:
    return bool(_DEVICE.match(path))


# ----------------------------------------------------------------- rules

def rule_rm(c: Ctx) -> Optional[tuple]:
    flags, _, targets = parse_opts(c.args)
    rec = bool(flags & {"r", "R", "--recursive"})
    force = bool(flags & {"f", "--force"})
    what = ("recursive forced delete" if rec and force else "recursive delete" if rec
            else "forced delete" if force else "delete")
    if "--no-preserve-root" in flags:
        return HIGH, f"{what} with --no-preserve-root ({c.text})"
    best = (MEDIUM, f"{what} of paths read from the previous command ({c.text})") if c.xargs and rec else None
    for t in targets:
        kind = path_kind(t)
        level = None
        if kind in ("root", "home", "system"):
            level = HIGH if rec or kind == "system" else MEDIUM
        elif kind == "cwd-all":
            level = HIGH if rec else MEDIUM
            what_t = "everything in the current directory" if t.text != ".." else "the parent directory"
            best = _max(best, (level, f"{what} of {what_t} ({c.text})"))
            continue
        elif kind == "var":
            level = HIGH if rec else MEDIUM if force else None
            if level is not None:
                best = _max(best, (level, f"{what} of {t.text}, a path from a variable that may be "
                                          f"empty or wrong ({c.text})"))
            continue
        elif rec:
            level = MEDIUM
        elif _SYSTEM_FILES.match(t.text):
            level = HIGH
        if level is not None:
            best = _max(best, (level, f"{what} of {t.text} ({c.text})"))
    return best


def rule_find(c: Ctx) -> Optional[tuple]:
    roots = []
    i = 0
    while i < len(c.args) and not c.args[i].text.startswith(("-", "(", "!")):
        roots.append(c.args[i])
        i += 1
    critical = next((r.text for r in roots if path_kind(r) in ("root", "home", "system")), None)
    best = None
    rest = c.args[i:]
    for j, w in enumerate(rest):
        if w.text == "-delete":
            where = critical or (roots[0].text if roots else ".")
            best = _max(best, (HIGH if critical else MEDIUM, f"find -delete removes every match under {where} ({c.text})"))
        elif w.text in ("-exec", "-execdir", "-ok", "-okdir"):
            inner = []
            for x in rest[j + 1:]:
                if x.text in (";", "+"):
                    break
                inner.append(x)
            found = c.check(inner)
            progs = {x.text.rsplit("/", 1)[-1] for x in inner[:3]}
            prog = next((p for p in ("rm", "unlink", "shred") if p in progs), None)
            where = critical or (roots[0].text if roots else ".")
            if prog:
                found = (HIGH if critical else MEDIUM,
                         f"find {w.text} {prog} removes every match under {where} ({c.text})")
            elif found is not None and found[0] >= MEDIUM and critical:
                found = (HIGH, f"{found[1]} for every match under {critical}")
            best = _max(best, found)
    return best


def rule_dd(c: Ctx) -> Optional[tuple]:
    for w in c.args:
        if w.text.startswith("of=") and is_device(w.text[3:]):
            return HIGH, f"dd writes straight to the device {w.text[3:]} (its data is lost) ({c.text})"
    return None


def rule_mkfs(c: Ctx) -> Optional[tuple]:
    dev = next((w.text for w in c.args if w.text.startswith("/dev/")), "a device")
    return HIGH, f"{c.prog} erases {dev} ({c.text})"


def rule_partition(c: Ctx) -> Optional[tuple]:
    flags, _, pos = parse_opts(c.args)
    texts = [w.text for w in c.args]
    if flags & {"l", "--list", "p", "--print", "d", "--dump"} and c.prog != "parted":
        return None
    if c.prog == "parted" and not set(texts) & {"mklabel", "rm", "mkpart", "resizepart"}:
        return None
    if c.prog == "sgdisk" and not flags & {"Z", "--zap-all", "o", "--clear", "z", "--zap", "d", "--delete"}:
        return None
    dev = next((t for t in texts if t.startswith("/dev/")), "a disk")
    return (HIGH if c.prog in ("parted", "sgdisk", "sfdisk") else MEDIUM,
            f"{c.prog} rewrites the partition table of {dev} ({c.text})")


def rule_shred(c: Ctx) -> Optional[tuple]:
    _, _, pos = parse_opts(c.args, frozenset({"-n", "-s", "--iterations", "--size", "--random-source"}))
    dev = next((w.text for w in pos if is_device(w.text)), None)
    if dev:
        return HIGH, f"shred overwrites the device {dev} ({c.text})"
    return MEDIUM, f"shred overwrites {', '.join(w.text for w in pos) or 'files'} beyond recovery ({c.text})"


def rule_truncate(c: Ctx) -> Optional[tuple]:
    _, values, pos = parse_opts(c.args, frozenset({"-s", "--size", "-r", "--reference"}))
    size = values.get("-s") or values.get("--size") or ""
    if size.startswith("+"):
        return None
    return MEDIUM, f"truncate cuts {', '.join(w.text for w in pos) or 'a file'} to {size or 'a size'} ({c.text})"


def rule_mv(c: Ctx) -> Optional[tuple]:
    _, _, pos = parse_opts(c.args, frozenset({"-t", "-S", "--target-directory", "--suffix"}))
    if len(pos) >= 2 and pos[-1].text == "/dev/null":
        return HIGH, f"moves {pos[0].text} to /dev/null (it is gone) ({c.text})"
    if any(path_kind(w) in ("root", "home", "system") for w in pos[:-1]):
        return HIGH, f"moves a system or home directory away ({c.text})"
    return None


def rule_write_to_device(c: Ctx) -> Optional[tuple]:
    dev = next((w.text for w in c.args if is_device(w.text)), None)
    if dev and (c.prog != "cp" or c.args[-1].text == dev):
        return HIGH, f"{c.prog} writes straight to the device {dev} ({c.text})"
    return None


def rule_chmod(c: Ctx) -> Optional[tuple]:
    flags, _, pos = parse_opts(c.args, frozenset({"--reference", "--from"}))
    rec = bool(flags & {"R", "--recursive"})
    if c.prog == "chmod" and pos and pos[0].text.startswith("-"):
        pos = pos[1:]
    mode = pos[0].text if pos and c.prog in ("chmod", "chown", "chgrp") else ""
    targets = pos[1:] if pos else []
    if "--reference" in flags:
        targets = pos
    crit = next((t.text for t in targets if path_kind(t) in ("root", "home", "system")), None)
    if crit and (rec or path_kind(Word(crit, crit)) == "root"):
        return HIGH, f"{c.prog}{' -R' if rec else ''} {mode} on {crit} breaks the system or your account ({c.text})"
    if c.prog == "chmod" and rec and re.fullmatch(r"0?777|a\+rwx|[ugoa]*o[ugoa]*\+[rwx]*w[rwx]*|o\+w", mode):
        return MEDIUM, f"makes everything under {targets[0].text if targets else 'it'} world-writable ({c.text})"
    return None


def redirect(red: Redirect) -> Optional[tuple]:
    if red.target is None or not red.op.lstrip("0123456789&").startswith(">"):
        return None
    target = red.target.text
    if is_device(target):
        return HIGH, f"writes straight to the device {target} (its data is lost) ({red.op} {target})"
    if ">>" not in red.op and _SYSTEM_FILES.match(target):
        return HIGH, f"overwrites {target} ({red.op} {target})"
    return None


def _max(a: Optional[tuple], b: Optional[tuple]) -> Optional[tuple]:
    if b is None:
        return a
    return b if a is None or b[0] > a[0] else a
