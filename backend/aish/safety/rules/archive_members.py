"""Effect: members deleted from an archive the user keeps.

Archivers delete what is inside an archive with a letter or word of their own: 7-Zip's and
RAR's ``d`` command, zip's ``-d``/``--delete``, tar's ``--delete``.  The members are gone from
the only copy the user may have (a backup, a mail archive); reading, listing, extracting and
adding stay quiet, and so does an archive under a temporary or build directory."""
from __future__ import annotations

from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx, target

# Archivers whose first operand is a command letter (`7z d a.7z x`, `rar d a.rar x`).
_COMMAND_LETTER = frozenset({"7z", "7za", "7zr", "7zz", "7z.exe", "rar", "rar.exe", "winrar", "lha", "lhasa"})
# Archivers whose delete is an option.
_DELETE_OPTION = {"zip": {"-d", "--delete"}, "tar": {"--delete"}, "gtar": {"--delete"}, "gnutar": {"--delete"}}


def rule_archive_members(c: Ctx) -> Optional[tuple]:
    """``7z d photos.7z raw/x``, ``zip -d site.zip about.html``, ``tar --delete -f b.tar x``."""
    prog = c.prog.lower()
    texts = c.texts
    if prog in _COMMAND_LETTER:
        operands = [w for w in c.args if not w.text.startswith("-")]
        if len(operands) < 2 or operands[0].text.lower() != "d":
            return None
        archive = operands[1]
    elif set(texts) & _DELETE_OPTION.get(prog, set()):
        archive = _archive_of(c, prog)
        if archive is None:
            return None
    else:
        return None
    if target(archive).kind in ("temp", "output"):
        return None
    return MEDIUM, f"{c.prog} deletes members from the archive {archive.text}: they are gone from it ({c.text})"


def _archive_of(c: Ctx, prog: str):
    """The archive a zip or tar delete edits: tar's ``-f``/``--file`` value, zip's first operand."""
    args = c.args
    for k, w in enumerate(args):
        if prog != "zip" and (w.text in ("-f", "--file") or w.text.startswith("-") and not w.text.startswith("--")
                              and w.text.endswith("f")) and k + 1 < len(args):
            return args[k + 1]
        if prog != "zip" and w.text.startswith("--file="):
            return w
    operands = [w for w in args if not w.text.startswith("-")]
    return operands[0] if operands and prog == "zip" else None
