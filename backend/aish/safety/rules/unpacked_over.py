"""Effect: an archive or a backup unpacked over live files with every overwrite answered yes, for any
extractor (``7z x -aoa … -o/var/www/html``, ``unrar x -o+ a.rar /``, ``dar -x b -R / -w``, ``ouch
decompress … --yes --dir ~``, ``rdiff-backup -r now --force backup ~``, ``cd / && cpio -idmu < r.cpio``).

What decides is where it lands: the root, the system's directories, a home or a web root (the site
served from there is replaced).  Into a project, a temp or a new directory it stays quiet, and without
an overwrite option most extractors ask before replacing anything.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Optional

from aish.safety.rules.common import BASE, HIGH, MEDIUM, Ctx, describe, target
from aish.safety.shell_words import Word
from aish.safety.lazy_regex import lazy

# The verb that unpacks: a subcommand (`x`, `extract`, `decompress`, `restore`) or an option.
_VERBS = {"x", "e", "d", "extract", "decompress", "unpack", "restore", "uncompress", "expand", "unarchive", "xf", "xvf",
          "-x", "--extract", "--restore", "--copy-back", "--decompress", "--unpack"}
_EXTRACTOR_NAME = re.compile(r"^(un(zip|rar|ar|arj|ace|alz|7z|zstd|xz|lzma|lz4|squashfs|cab|compress|archive|tar|"
                             r"zpaq|lha|lzh)\w*|aunpack|\w*extract\w*|\w*unpack\w*|expand|wimapply|wimlib-imagex)$")
# Names that say the program unpacks and nothing else: into the system's own places they replace without asking.
_UNPACKS_ONLY = lazy(r"extract|unpack|^expand$|^wimapply$")
# Answers every "overwrite?" with yes.
_OVERWRITE_ALL = {"-aoa", "-o+", "-y", "--yes", "-f", "--force", "--overwrite", "-w", "-O", "-u", "--force-overwrite",
                  "--overwrite-all", "--unlink-first", "-U", "--force-non-empty-directories", "--replace", "-F",
                  "--assume-yes", "-oa", "--no-confirm", "--overwrite-existing", "-ow", "/y", "-force",
                  "--overwrite-files", "--overwrite-directories"}
_CPIO_IN = lazy(r"-[a-z]{2,6}")
_TAR_X = lazy(r"-?x[a-z]{0,3}")
_KEEPS = {"-k", "--keep", "--keep-old-files", "--skip-old-files", "-aos", "-o-", "--no-overwrite", "-n"}
# Options whose value is where the files land.
_INTO = {"-C", "--directory", "-d", "--dir", "--cd", "-R", "-X", "--target", "--target-dir", "--output-dir",
         "--output", "-o", "--dest", "--destination", "--into", "--to", "--extract-to", "--restore-to",
         "--target-directory", "--outdir", "-od", "--root", "-to"}
_ARCHIVE = lazy(r"\.(7z|zip|rar|tar|t?gz|tgz|bz2|xz|zst|lz4?|lzh|lha|arj|cab|xar|pkg|cpio|dar|iso|ace|zpaq|"
                r"pax|a|ar|deb|rpm|sqsh|squashfs|wim|jar|war)(\.\d+)?$", re.IGNORECASE)
_WEB_ROOT = lazy(r"^(/var/www|/srv/(www|http|html)|/usr/share/nginx/html|/usr/local/www|/var/lib/nginx/html|"
                 r"/usr/local/apache2/htdocs|/opt/lampp/htdocs|[Cc]:\\inetpub)")
_LEVELS = {"root": HIGH, "system-top": HIGH, "critical": HIGH, "system": MEDIUM, "home": MEDIUM, "userhome": MEDIUM}


def _places(raws: list) -> list:
    """Where the files land, as typed (a Windows path keeps its backslashes)."""
    lowered = [t.lower() for t in raws]
    places = [raws[k + 1] for k, t in enumerate(raws[:-1]) if t in _INTO]
    for t, low in zip(raws, lowered):
        name, eq, value = t.partition("=")
        if eq and (name in _INTO or name == "-w"):  # lha's `-w=DIR`
            places.append(value)
        elif re.match(r"^-o[/~$]", t):  # 7z's fused `-o/var/www`
            places.append(t[2:])
        elif low.startswith("/applydir:"):  # `dism /Apply-Image … /ApplyDir:C:\`
            places.append(t.split(":", 1)[1])
    return places


# Every word that can make a verb below (the `-r` of a backup tool's restore among them): a line with none, no fused
# letters that can unpack, an extractor's name or pax is left at once.
_VERB_WORDS = frozenset(_VERBS | {"/apply-image", "-r"})


@lru_cache(maxsize=16384)  # as many names as table._program keeps
def _extractor_named(prog: str) -> bool:
    return bool(_EXTRACTOR_NAME.match(prog.lower()))


def rule_unpacked_over(c: Ctx) -> Optional[tuple]:
    low = c.lowered
    if not ("u" in low and "i" in low or "x" in low and "f" in low) and _VERB_WORDS.isdisjoint(low.split(" ")) and \
            c.prog != "pax" and not _extractor_named(c.prog):
        return None  # no verb, no fused letters (cpio's hold `u` and `i`, tar's `x` and `f`), no extractor's name
    return _unpacked_over_in_full(c)


def _unpacked_over_in_full(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    lowered = [t.lower() for t in texts]
    verb = next((t for t in lowered[:3] if t in _VERBS), None) or \
        next((t for t in lowered if t in ("-x", "--extract", "--restore", "--copy-back", "/apply-image")), None) or \
        next((t for t in lowered if t == "-r" and re.search("backup|restore", c.prog)), None)  # rdiff-backup -r
    fused = next((t for t in texts if len(t) < 8 and "u" in t and "i" in t and _CPIO_IN.fullmatch(t)), None)  # -idmu
    # tar's and lha's fused letters (`-xpf`, `xvf`, `xf`): they replace what is there without asking
    fused = fused or next((t for t in texts[:3] if "x" in t and "f" in t and _TAR_X.fullmatch(t)), None)
    named = _extractor_named(c.prog)
    if verb is None and fused is None and not named and c.prog != "pax":
        return None
    raws = [w.raw.strip("'\"") if "\\" in w.raw else w.text for w in c.args]
    if set(texts) & _KEEPS:
        return None  # told to keep what is there
    places = _places(raws)
    bare_o = any(t == "-o" and (k + 1 == len(texts) or texts[k + 1].startswith("-")) for k, t in enumerate(texts))
    overwrites = fused is not None or bool(set(texts) & _OVERWRITE_ALL) or bare_o or verb == "/apply-image"
    # `cd / && borg extract repo::x`, `cd / && pax -r -f x.pax`: unpacked into the root, replacing as it goes
    if not overwrites and BASE.get() == "/" and not places and \
            (lowered[:1] == ["extract"] or c.prog == "pax" and "-r" in texts):
        overwrites, places = True, ["/"]
    if not places:
        operands = [t for k, t in enumerate(raws) if not t.startswith("-") and t.lower() not in _VERBS and
                    "=" not in t and not (k and raws[k - 1] in _INTO)]
        places = [t for t in operands[-1:] if not _ARCHIVE.search(t) and "://" not in t]
    if not places and BASE.get():
        places = [BASE.get()]  # `cd / && cpio -idmu < root.cpio`: unpacked where the line stands
    best: Optional[tuple] = None
    for place in places:
        t = target(Word(place, place, has_var="$" in place))
        level = _LEVELS.get(t.kind) or (MEDIUM if _WEB_ROOT.match(place) else None)
        if level is not None and not overwrites and (level < HIGH or not _UNPACKS_ONLY.search(c.prog.lower())):
            continue  # without an overwrite option most extractors ask; into the system's own places they replace
        if level is not None and (best is None or level > best[0]):
            where = describe(t) if t.kind in _LEVELS else f"the web root {place}"
            best = level, f"{c.prog} unpacks over {where}, replacing what is there ({c.text})"
    return best
