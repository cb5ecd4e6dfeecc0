"""Effect: files written over where a program is told to put its output.

An archive unpacked into ``/`` or ``/etc`` replaces the system's files with the archive's
(``tar xf backup.tar -C /``, ``unzip -o x.zip -d /``); a download saved as ``~/.bashrc`` or
``~/.ssh/authorized_keys`` replaces it (``curl -o``, ``wget -O``); ``dd of=`` a file of the
user's replaces that file.  The level is the target's (``content.overwrite_level``): a start-up
file is medium, keys and the system's own files high.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import BASE, HIGH, LETTER_READERS, LOW, MEDIUM, Ctx, describe, target, worst
from aish.safety.rules.content import overwrite_level
from aish.safety.shell_words import Word
from aish.safety.lazy_regex import lazy

_EXTRACTORS = {"tar", "gtar", "bsdtar", "unzip", "7z", "7za", "7zz", "unrar", "busybox"}
# Where each writes its output: tar's -C/--directory, unzip's -d, 7z's -o (fused: -o/).
_INTO = {"-C", "--directory", "-d", "--cd"}
# Options that name a download's or a converter's output file, by program (`-o` means other things elsewhere).
_OUTPUT_OPTIONS = {"curl": {"-o", "--output"}, "curlie": {"-o", "--output"}, "wget": {"-O", "--output-document"},
                   "aria2c": {"-o", "--out"}, "http": {"-o", "--output"}, "https": {"-o", "--output"},
                   "xh": {"-o", "--output"}, "openssl": {"-out"}, "sort": {"-o", "--output"},
                   "gpg": {"-o", "--output"}, "yt-dlp": {"-o", "--output"}, "pandoc": {"-o", "--output"},
                   "iwr": {"-OutFile", "-outfile"}, "Invoke-WebRequest": {"-OutFile", "-outfile"},
                   "base64": {"-o", "--output"}, "age": {"-o", "--output"}}
# Where software the admin installs by hand goes (Go's, Node's, a JDK's own instructions unpack their archive there):
# the archive's top folder lands inside; the system's own places keep their readings.
LOCAL_SOFTWARE = frozenset({"/usr/local", "/opt", "/usr/local/lib", "/usr/local/share", "/opt/homebrew"})
# The system's places an archive may be unpacked over.
_SYSTEM_KINDS = {"root": HIGH, "system-top": HIGH, "critical": HIGH, "system": MEDIUM, "home": MEDIUM}
_WIPING_SOURCES = {"/dev/zero", "/dev/urandom", "/dev/random"}
_IMAGE_LIKE = lazy(r"\.(img|iso|raw|bin|qcow2|vhdx?|vmdk|dmg|swap|swapfile)$|swap", re.IGNORECASE)


def rule_extract_into(c: Ctx) -> Optional[tuple]:
    """``tar xf a.tar -C /``, ``unzip -o a.zip -d /etc``, ``7z x a.7z -o/ -y``: the archive's files
    replace the system's."""
    texts = c.texts
    if not _extracts(c.prog, texts):
        return None
    places = [texts[k + 1] for k, t in enumerate(texts[:-1]) if t in _INTO]
    places += [t.split("=", 1)[1] for t in texts if t.startswith("--directory=")]
    places += [t[2:] for t in texts if c.prog.startswith("7z") and t.startswith("-o") and len(t) > 2]
    if not places and BASE.get() and not (c.prog == "unzip" and "-o" not in texts):
        places = [BASE.get()]  # `cd ~ && tar xf dotfiles.tar`: unpacked where the line stands
    best = None
    for place in places:
        if place.rstrip("/") in LOCAL_SOFTWARE:  # `sudo tar -C /usr/local -xzf go1.23.linux-amd64.tar.gz`: installed
            best = worst(best, (LOW, f"{c.prog} unpacks into {place}, where locally installed software lives "
                                     f"({c.text})"))
            continue
        kind = target(Word(place, place, has_var="$" in place)).kind
        level = _SYSTEM_KINDS.get(kind)
        if level is not None:
            best = worst(best, (level, f"{c.prog} unpacks over {describe(target(Word(place, place)))}: files there "
                                       f"are replaced by the archive's ({c.text})"))
    return best


def _extracts(prog: str, texts: list) -> bool:
    if prog in ("tar", "gtar", "bsdtar"):
        first = next((t for t in texts if not t.startswith("--")), "")
        return "--extract" in texts or "--get" in texts or bool(re.fullmatch(r"-?[a-zA-Z]*x[a-zA-Z]*", first)) or \
            any(re.fullmatch(r"-[a-zA-Z]*x[a-zA-Z]*", t) for t in texts)
    if prog == "unzip":
        return True
    if prog.startswith("7z") or prog == "unrar":
        return texts[:1] in (["x"], ["e"])
    return False


def rule_output_over(c: Ctx) -> Optional[tuple]:
    """``curl -o ~/.bashrc URL``, ``wget -O ~/.ssh/authorized_keys URL``: the output replaces the file."""
    names = _OUTPUT_OPTIONS.get(c.prog, set())
    texts = c.texts
    letters = {n[1] for n in names if len(n) == 2}
    outs = [texts[k + 1] for k, t in enumerate(texts[:-1]) if t in names or
            re.fullmatch(r"-[a-zA-Z]{2,6}", t) and t[-1] in letters]  # `curl -fsSLo FILE`
    outs += [t.split("=", 1)[1] for t in texts if "=" in t and t.split("=", 1)[0] in names]
    best = None
    for out in outs:
        t = target(Word(out, out, has_var="$" in out))
        level = overwrite_level(t) if t.kind != "home" else None
        if level is not None:
            best = worst(best, (level, f"{c.prog} writes its output over {describe(t)} ({c.text})"))
    return best


def rule_dd_over_own_file(c: Ctx) -> Optional[tuple]:
    """``dd if=/dev/zero of=~/important.db``: zeros or noise written over a file of the user's, or a write into
    it in place (``conv=notrunc``); not an image or a swap file it makes."""
    sources = {w.text[3:] for w in c.args if w.text.startswith("if=")}
    in_place = any(t.startswith("conv=") and "notrunc" in t for t in c.texts)
    if not sources & _WIPING_SOURCES and not in_place:
        return None  # a new file made from a stream or a disk: nothing of the user's is replaced
    for w in c.args:
        if w.text.startswith("of="):
            path = w.text[3:]
            kind = target(Word(path, w.raw[3:], has_var=w.has_var, glob=w.glob)).kind
            # an image of one's own filled with noise or zeros in place (`of=$HOME/vault.img conv=notrunc`): it
            # existed, and what it held is gone; an image a build makes or patches stays quiet
            wiped_in_place = in_place and bool(sources & _WIPING_SOURCES)
            if kind in ("user", "dot") and (not _IMAGE_LIKE.search(path) or wiped_in_place):
                return MEDIUM, f"dd overwrites {path} (what it held is lost) ({c.text})"
    return None


_EDITORS = {"ex", "vi", "vim", "nvim", "vim.basic", "vim.tiny", "view"}
# An editor's script that deletes every line: `%d`, `1,$d`, `g/^/d`, `%delete`.
_DELETE_ALL_LINES = lazy(r"(^|[|\s:])(%|1,\$)\s*d(elete)?\b|\bg/[^/]*/d\b")
_WRITES = lazy(r"(^|[|\s:])(x|wq?|wq!|x!|w!|exit|update)\s*($|\|)")


def rule_editor_script(c: Ctx) -> Optional[tuple]:
    """``ex -sc '%d|x' ~/.bashrc``: the editor deletes every line and saves: the file is emptied."""
    texts = c.texts
    script = " | ".join([texts[k + 1] for k, t in enumerate(texts[:-1]) if re.fullmatch(r"-[a-zA-Z]*c", t)] +
                        [t[1:] for t in texts if t.startswith("+") and len(t) > 1])
    if not (_DELETE_ALL_LINES.search(script) and _WRITES.search(script)):
        return None
    best = None
    files = [t for k, t in enumerate(texts) if not t.startswith(("-", "+")) and
             not (k and re.fullmatch(r"-[a-zA-Z]*c", texts[k - 1]))]
    for f in files:
        t = target(Word(f, f, has_var="$" in f))
        level = overwrite_level(t) or (MEDIUM if t.kind in ("user", "dot") else None)
        if level is not None:
            best = worst(best, (level, f"{c.prog} deletes every line of {describe(t)} and saves it ({c.text})"))
    return best


RULES: dict = {p: [rule_extract_into] for p in _EXTRACTORS - {"busybox"}}
for _p in _EDITORS:
    RULES[_p] = [rule_editor_script]
for _p in _OUTPUT_OPTIONS:
    RULES.setdefault(_p, []).append(rule_output_over)
RULES["dd"] = [rule_dd_over_own_file]


# Any program's output options (`eget … --to`, `tool get URL --output`): where a fetch or a build is written.
_ANY_OUTPUT = frozenset({"-o", "-O", "--output", "--to", "--out", "--output-file", "--outfile", "--output-document",
                         "--dest", "--destination"})
# What every login, sudo and script needs: a download or a build written over it replaces it for everyone.
_ESSENTIAL = frozenset({"sh", "bash", "dash", "sudo", "su", "doas", "login", "sshd", "passwd", "shadow", "sudoers",
                        "init", "systemd", "systemctl", "pkexec", "ssh", "mount", "ld-linux-x86-64.so.2"})


def may_write_essential(c: Ctx) -> bool:
    """Cheap: an output option and an essential file's name among the words."""
    low = c.lowered
    if "/" not in low or "-o" not in low and "--" not in low:  # `-o`, `-O`, `--output…`, `--to`, `--dest…`
        return False
    texts = c.texts[:32]
    return any(t.split("=", 1)[0] in _ANY_OUTPUT for t in texts) and \
        any(t.rstrip("/").rsplit("/", 1)[-1] in _ESSENTIAL for t in texts if t.startswith("/"))


def rule_output_over_essential(c: Ctx) -> Optional[tuple]:
    """``eget zyedidia/micro --to /usr/bin/sudo``, any program's output option naming a system file every login
    needs (sudo, sh, sshd, /etc/shadow): what it fetches or builds replaces it."""
    texts = c.texts[:32]
    # `ls -o /etc/shadow`, `[ -O /etc/passwd ]`: a reader's letter is a listing's or a test's, the path is read
    letters_read = c.prog in LETTER_READERS
    outs = [texts[k + 1] for k, t in enumerate(texts[:-1]) if t in _ANY_OUTPUT and not (letters_read and len(t) == 2)]
    outs += [t.split("=", 1)[1] for t in texts if "=" in t and t.split("=", 1)[0] in _ANY_OUTPUT]
    for out in outs:
        t = target(Word(out, out, has_var="$" in out))
        if out.startswith("/") and out.rstrip("/").rsplit("/", 1)[-1] in _ESSENTIAL and t.kind == "critical":
            return HIGH, f"{c.prog} writes its output over {describe(t)}, which every login needs ({c.text})"
    return None
