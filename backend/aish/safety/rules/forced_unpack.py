"""Effect: an unpacker or decompressor told to force, for programs the overwrite rule does not name.

``lzop -d -f backup.tar.lzo``, ``pzstd -d -f db.tar.zst``, ``uncompress -f report.csv.Z``, ``unar -f
photos.rar``, ``zpaq x site.zpaq -force``, ``Expand-Archive … -Force``: the files it writes replace the ones
already there without a word.  Read as a class: an operand named like an archive or a compressed file, a sign
that it is unpacked (``-d``/``--decompress``, ``-x``/``x``/``extract``, or a name that says so: ``un…``,
``…unpack``, ``expand…``) and a force (``-f``, ``--force``, ``-force``, ``--overwrite``).  Where ``-f`` names
the archive (``xar -x -f a.xar``, ``pax -r -f a.pax``) it is not a force; output to standard output, into a
directory named for it (as the overwrite rule has it for extractors) and packing stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx, target
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_ARCHIVE = lazy(r"\.(tar|tgz|tbz2?|txz|tzst|gz|bz2|bz3|xz|lz|lz4|lzo|lzma|lrz|zst|z|zip|rar|7z|zpaq|arj|cab|"
                r"cpio|lha|lzh|sz|br|xar|pax|zipx|tlz)$", re.IGNORECASE)
_DECOMPRESS = frozenset({"-d", "--decompress", "--uncompress"})
_EXTRACT = frozenset({"-x", "--extract", "x", "e", "extract", "decompress", "unpack"})
_NAME = lazy(r"^un|unpack|unzip|unar|extract|expand|decompress", re.IGNORECASE)
_FORCES = frozenset({"--force", "-force", "--overwrite"})
_STDOUT = frozenset({"-c", "--stdout", "--to-stdout"})
_OUTPUTS = frozenset({"-o", "--output", "-C", "-destinationpath", "--outdir", "-O", "--output-dir"})


_ENDINGS = tuple("." + e for e in ("tar tgz tbz tbz2 txz tzst gz bz2 bz3 xz lz lz4 lzo lzma lrz zst z zip rar 7z "
                                  "zpaq arj cab cpio lha lzh sz br xar pax zipx tlz").split())


@triggered_by(_ENDINGS, otherwise=False)
def may_unpack(c: Ctx) -> bool:
    """Cheap: a force is spelled and an operand looks like an archive."""
    low = c.lowered
    return ("-f" in low or "overwrite" in low) and any(t.endswith(_ENDINGS) for t in low.split())


def rule_forced_unpack(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    lowered = [t.lower() for t in texts]
    if set(lowered) & _STDOUT:
        return None
    archives = [t for t in texts if not t.startswith("-") and _ARCHIVE.search(t)]
    named = bool(_NAME.search(c.prog.removesuffix(".exe")))
    decompress = named or bool(set(lowered) & _DECOMPRESS)
    extract = bool(set(lowered[:3]) & _EXTRACT)
    if not (decompress or extract):
        return None
    force = next((t for t in texts if t.lower() in _FORCES), None)
    if force is None and "-f" in texts:
        i = texts.index("-f")
        names_archive = i + 1 < len(texts) and texts[i + 1] in archives
        if decompress and (not names_archive or len(archives) == 1 and not extract):
            force = "-f"
        elif not names_archive:
            force = "-f"
    if force is None:
        return None
    for i, t in enumerate(lowered[:-1]):
        if t in _OUTPUTS and (texts[i + 1] not in (".", "./", ".\\") or
                              target(c.args[i + 1]).kind in ("temp", "output")):
            return None  # unpacked into a directory of its own (into a system one is `outputs`' business)
    return MEDIUM, f"{c.prog} {force} unpacks over files that exist without asking ({c.text})"
