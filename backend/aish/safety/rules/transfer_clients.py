"""Effect: files deleted on another machine by a file transfer client's own commands.

FTP, SFTP, SMB and WebDAV clients have a command language of their own: ``rm``, ``mrm``
(many), ``del``, ``mdelete``, ``deltree`` (their ``rmdir`` removes an empty directory only).  It
reaches the client as a one-shot line
(``lftp -e 'mrm *.log; bye'``, ``smbclient -c 'deltree x'``), as lines fed on standard input
(``sftp -b - host <<< 'rm …'``, ``printf 'mdelete …' | ftp``) or typed at its prompt, where a
manual shows the command alone (``mrm path/*.txt``).  Any of those commands with something to
delete is judged medium: the files are on a server, with no trash to take them back from.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx, fragment
from aish.safety.rules.exfil import secret_path
from aish.safety.shell_words import Word
from aish.safety.rules.fed import fed_lines

CLIENTS = frozenset({"lftp", "ftp", "sftp", "psftp", "ncftp", "tnftp", "yafc", "smbclient", "cadaver", "gftp",
                     "pftp", "netkit-ftp", "inetutils-ftp", "busybox-ftp", "lftpget"})
# The clients' delete commands (a leading `m` is "many": `mrm`, `mdel`, `mdelete`).  `rmdir` and `mrmdir` are not
# among them: the server refuses a directory that is not empty, so nothing is lost.
DELETES = frozenset({"rm", "mrm", "del", "mdel", "delete", "mdelete", "deltree", "rmtree", "rmr", "unlink"})
# Commands only ever typed at a client's prompt (a shell has no program by these names).
PROMPT_ONLY = frozenset({"mrm", "mdel", "deltree"})
_ONE_SHOT = frozenset({"-e", "-c", "--command", "-x", "--execute"})
_PREFIXES = frozenset({"glob", "!", "-"})  # lftp's `glob rm …`, `-rm` (go on on error)


def _deleting(line: str) -> str:
    """The delete command of one client line with something to delete, or ""."""
    words = line.split()
    while words and words[0].lower() in _PREFIXES:
        words = words[1:]
    if not words:
        return ""
    verb = words[0].lower().lstrip("-")
    operands = [w for w in words[1:] if not w.startswith("-")]
    return verb if verb in DELETES and operands else ""


def rule_client_deletes(c: Ctx) -> Optional[tuple]:
    """``lftp -e 'mrm *.log'``, ``smbclient -c 'deltree x'``, ``sftp -b - h <<< 'rm …'``, ``mrm *.txt``."""
    if c.prog in PROMPT_ONLY:
        if _deleting(" ".join([c.prog] + c.texts)):
            return MEDIUM, f"{c.prog} deletes files on the server it is connected to ({c.text})"
        return None
    lines = [s for k, t in enumerate(c.texts[:-1]) if t in _ONE_SHOT for s in re.split(r"[;\n]", c.texts[k + 1])]
    for line in lines + fed_lines(c):
        verb = _deleting(line.strip())
        if verb:
            return MEDIUM, f"{c.prog} is told to {verb} '{fragment([line.strip()], 40)}' on the server ({c.text})"
        sent = _uploading(line.strip())
        if sent:  # `sftp -b - h <<< 'put /etc/shadow'`: the lines fed on standard input, read as a one-shot's
            return HIGH if sent == "high" else MEDIUM, f"{c.prog} is told to upload '{fragment([line.strip()], 40)}'" \
                f": keys or credentials sent to another machine ({c.text})"
    return None


def _uploading(line: str) -> str:
    """The worst secret a `put`/`mput` line of a client uploads, or ""."""
    words = line.split()
    if len(words) < 2 or words[0].lower().lstrip("-") not in ("put", "mput", "reput"):
        return ""
    return next((found for found in (secret_path(Word(w, w)) for w in words[1:] if not w.startswith("-")) if found),
                "")


RULES = {p: [rule_client_deletes] for p in CLIENTS | PROMPT_ONLY}
