"""Effect: a protected system file written by what is typed on the lines after a program's name (``write_channels``
reads the program's own words; here the program is interactive and the write is typed into it).

Public catalogues of file writes show interactive programs as a session: the program on one line, then what is
typed into it.  The shell's reading splits those lines into commands that mean nothing (``var fw=new
FileWriter('/etc/ld.so.preload');`` is cut at its brackets), so the whole text is read:

- code typed into an interpreter (``jjs``, ``irb``, ``node``, ``python3``, ``groovysh``) that writes a protected
  file, as ``write_channels`` reads a code string (a call that opens it to write, ``new FileWriter(F)``);
- an editor or a pager opened and its buffer saved (``ed /etc/sudoers⏎a⏎LINE⏎.⏎w``, ``nano F⏎LINE⏎^O``,
  ``emacs F⏎LINE⏎C-x C-s``): the typed lines are added to the file opened and read as ``meaning`` reads them
  appended (a hosts line is routine, a sudoers rule is not); a buffer saved as a protected file (``echo X |
  less⏎s F``, ``vim x⏎:w F``) replaces it.

A script fed to such a program by a here-string, a heredoc or an echo is read the same way (``ed -s F <<< 'w
/etc/ld.so.preload'``, ``echo '.output /etc/hosts' | sqlite3``), unless the program only stores or shows it.

The editor alone (``sudo vim /etc/hosts``), quit without saving, or saved with nothing typed stays quiet.
"""
from __future__ import annotations

import re
from typing import Callable, Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules import code_writes
from aish.safety.rules.common import fragment
from aish.safety.rules.common import Ctx
from aish.safety.rules.write_channels import WORDS, code_written, judged, level, meant, protected


def line_code_written(text: str, recurse: Callable) -> Optional[tuple]:
    """Code typed into an interactive interpreter on the lines after its name (``jjs⏎var fw=new
    FileWriter('/etc/ld.so.preload');``, ``irb⏎File.write("/etc/sudoers", …)``): the shell's reading splits such a
    line at its brackets, so each later line holding a protected place is read as code; a client's or a database's
    session too (``sftp h⏎get x /etc/cron.d/x``, ``sqlite3⏎.output /etc/hosts``).  A shell's own words on such a
    line (``>``, ``tee``, ``cp``) are the shell's rules' to judge."""
    if "\n" not in text or not any(w in text for w in WORDS):
        return None
    lines = text.splitlines()
    for line in lines[1:64]:
        if any(w in line for w in WORDS):
            found = code_written([line[:code_writes.LIMIT]], shell_words=False)
            verdict = meant(lines[0].split(" ", 1)[0][:40], found, "is given code that writes", fragment([line], 60),
                            recurse) if found else None
            if verdict is not None:
                return verdict
    return None


# A line that saves an interactive editor's or pager's buffer: vi's and ed's `w`/`:wq`/`ZZ`, Emacs' `C-x C-s`, nano's
# `^O`; with a path, the buffer is saved as that file (`:w F`, ed's `w F`, less's `s F`, Emacs' `C-x C-w F`).
_SAVE = lazy(r"^\s*(?::?(?:w|wq|x|write|wq!|w!|x!|update)|ZZ|C-x\s*C-s|C-x\s*s|\^[OSX]|\^K[XDS]|Ctrl[-+][OSX])\s*$",
             re.IGNORECASE)
_SAVE_AS = lazy(r"^\s*(?::?(?:w|write|saveas|sav)!?\s+|s\s*(?=/)|s\s+|C-x\s*C-w\s+)(?P<path>\S+)\s*$")
_NOT_TEXT = lazy(r"^\s*(?:[.aicq]|:?q!?|\^\[|ESC|Esc|<Esc>|C-x\s*C-c|\^X|i\w*)?\s*$")


def line_session_saved(text: str, recurse: Callable) -> Optional[tuple]:
    """An editor or a pager opened and its buffer saved on the lines after it (``ed /etc/sudoers⏎a⏎LINE⏎.⏎w``,
    ``emacs /etc/sudoers⏎LINE⏎C-x C-s``, ``echo LINE | less⏎s/etc/ld.so.preload``): the lines typed are added to
    the file opened, read as ``meaning`` reads them appended; a buffer saved as a protected file replaces it."""
    if "\n" not in text or not any(w in text for w in WORDS):
        return None
    lines = text.splitlines()[:64]
    first = lines[0].split()
    last = [w for w in lines[0].rsplit("|", 1)[-1].split() if w not in ("sudo", "doas", "command", "exec")]
    name = last[0].rsplit("/", 1)[-1] if last else "an editor"  # `echo LINE | less`: the pager saves
    for k, line in enumerate(lines[1:], 1):
        m = _SAVE_AS.match(line)
        if m and protected(m.group("path").strip("'\"")):
            path = m.group("path").strip("'\"")
            return level(path), f"{name} saves what it holds as {path}: a file that " \
                                f"decides who logs in or what runs is replaced ({fragment([line], 60)})"
        if _SAVE.match(line):
            opened = [w.strip("'\"") for w in first[1:] if protected(w)]
            if not opened:
                return None
            typed = "\n".join(t.strip().strip("'\"") for t in lines[1:k] if not _NOT_TEXT.match(t))
            if not typed:
                return None  # saved as it was opened: nothing typed into it
            return meant(name, (opened[-1], True, typed), "saves", fragment([line], 60), recurse)
    return None


# Programs that store or show what they are fed rather than run it (`cat <<EOF > notes`, `mail root <<EOF`).
_TEXT_SINKS = frozenset({"cat", "tee", "echo", "printf", "less", "more", "head", "tail", "grep", "wc", "sponge", "sort",
                         "base64", "column", "xclip", "xsel", "pbcopy", "wl-copy", "mail", "mailx", "sendmail", "mutt",
                         "write", "wall", "logger", "diff", "patch", "sed", "awk", "envsubst", "gpg", "openssl",
                         "ssh-keygen", "crontab", "at", "batch", "tr", "cut", "md5sum", "sha256sum", "jq", "yq",
                         "bash", "sh", "zsh", "dash", "ksh", "fish", "sudo", "ssh", "su", "docker", "kubectl"})


def may_feed(c: Ctx) -> bool:
    """Cheap: the program is fed a heredoc, a here-string or an echo's words (an interactive program's script)."""
    return bool(c.seg.redirects and any(r.body or r.op == "<<<" for r in c.seg.redirects) or
                c.chain and c.chain[-1].words and c.chain[-1].words[0].text in ("echo", "printf"))


def rule_fed_write(c: Ctx) -> Optional[tuple]:
    """``ed -s F <<< 'w /etc/ld.so.preload'``, ``tclsh <<< 'set f [open /etc/x w]…'``, ``echo '.output /etc/hosts' |
    sqlite3``: an interactive program's own script writes a protected file."""
    prog = c.prog.rsplit("/", 1)[-1]
    if prog in _TEXT_SINKS:
        return None
    fed = [r.body for r in c.seg.redirects if r.body]
    fed += [r.target.text for r in c.seg.redirects if r.op == "<<<" and r.target is not None]
    if c.chain and c.chain[-1].words and c.chain[-1].words[0].text in ("echo", "printf"):
        fed.append(" ".join(w.text for w in c.chain[-1].words[1:]).replace("\\n", "\n"))
    fed = [f[:code_writes.LIMIT] for f in fed if any(w in f for w in WORDS)]
    return judged(c, code_written(fed), "is fed a script that writes") if fed else None
