"""Classic loss in everyday media, file and notes tools: originals written over where they stand.

- lossy edits in place: ``mogrify`` without ``-path``/``-format``, ``convert x.jpg … x.jpg``, ``sips``,
  ``jpegoptim --max``/``--strip-all`` without a destination, ``pngquant --force --ext .png``,
  ``gifsicle --batch`` with a lossy step; tags or metadata erased (``id3v2 -D``, ``eyeD3 --remove-all``,
  ``metaflac --remove-all``, ``exiftool -all= -overwrite_original``);
- renames told to overwrite (``rename -f``, ``perl-rename --force``);
- duplicate finders told to delete without asking, and their generated scripts run (``rmlint.sh -d``);
- archives unpacked with overwrite into home, a home folder or another user's home (``unrar x -o+ …
  ~/Documents/``, ``unzip -o … -d ~/Pictures``, ``7z x -aoa -o~/x``, ``bsdtar -xf … -C /home/alice``,
  ``cpio -idu -D ~``);
- a sync forced in one direction (``unison … -force ROOT``);
- version control told to discard local work (``cvs update -C``, ``pijul reset``, a bare ``bzr revert``
  or ``fossil revert``, ``darcs revert -a``, ``jj restore``);
- ``cat other > data.csv`` (a data file or a document replaced by a copy of another file);
- bookmark, notes and task managers deleting everything without asking (``buku -d --tacit``, ``task
  rc.confirmation=off delete``), ``mdeltree`` on a FAT image.
Writing new files stays quiet: ``mogrify -format png x.jpg``, ``jpegoptim -d out/``, ``tar -xf a.tar``
into a new directory, ``unzip x.zip`` without ``-o``.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx, target
from aish.safety.rules.documents import is_document
from aish.safety.rules.outputs import LOCAL_SOFTWARE
from aish.safety.shell_words import Word
from aish.safety.lazy_regex import lazy

_LOSSY_IM = frozenset("-resize -scale -thumbnail -quality -strip -crop -colors -depth -sample -resample -posterize "
                      "-monochrome -shave -trim -extent -adaptive-resize -liquid-rescale -blur -colorspace "
                      "-type -compress -quantize -interlace -rotate -auto-orient".split())
_TAGGERS = {
    "id3v2": re.compile(r"^(-D|--delete-all|-d|--delete-v2|-s|--delete-v1)$"),
    "mid3v2": re.compile(r"^(-D|--delete-all|--delete-v1|--delete-v2)$"),
    "eyed3": re.compile(r"^--remove-(all|v1|v2|all-images|all-comments|all-lyrics)$"),
    "metaflac": re.compile(r"^--remove-all(-tags)?$|^--remove$"),
    "id3tool": re.compile(r"^(-r|--remove)$"), "id3convert": re.compile(r"^(-s|--strip)$"),
    "kid3-cli": re.compile(r"^remove\b"),
}
_CONVERTERS = frozenset("cwebp cjxl avifenc heif-enc ffmpeg avconv sox vips cjpeg djpeg guetzli gs qpdf".split())
_DELETES_INPUT = lazy(r"^--(delete|remove|rm)[-_](input|source|original)s?([-_]files?)?$")
_RENAMERS = frozenset("rename perl-rename prename file-rename rename.pl renamer".split())
_ARCHIVERS = frozenset("unrar rar unzip 7z 7za 7zz bsdtar tar gtar cpio unar".split())
_SYNCS = frozenset("unison unison-gtk".split())
_DATA_EXT = lazy(r"\.(db|sqlite3?|mdb|accdb|xlsx?|ods|docx?|odt|pptx?|csv|tsv|pst|kdbx|ledger|beancount|"
                 r"parquet|numbers|pages|key)$", re.IGNORECASE)


def _operands(c: Ctx) -> list:
    return [w for w in c.args if not w.text.startswith("-")]


def _flags(c: Ctx) -> set:
    return {t for t in c.texts if t.startswith("-")}


def _image_in_place(c: Ctx, prog: str, texts: list) -> Optional[str]:
    flags = _flags(c)
    if prog in ("mogrify", "gm-mogrify") or prog in ("magick", "gm") and texts[:1] == ["mogrify"]:
        where = texts[texts.index("-path") + 1] if "-path" in texts[:-1] else ""
        if flags & {"-format", "-help", "-version", "-list"} or where and where.rstrip("/") not in (".", ""):
            return None  # written as new files elsewhere or in another format
        if flags & _LOSSY_IM:
            return "mogrify writes the resized or recompressed images over the originals"
    if prog in ("convert", "magick", "gm") and flags & _LOSSY_IM:
        names = [t for t in texts if not t.startswith("-") and re.search(r"\.\w{2,5}$", t)]
        if len(names) >= 2 and names[-1] in names[:-1]:
            return f"{prog} writes the result over its own input {names[-1]}"
    if prog == "sips" and flags & {"-Z", "-z", "--resampleWidth", "--resampleHeight", "-s", "--setProperty",
                                   "--resampleHeightWidthMax"} and not flags & {"--out", "-o"}:
        return "sips changes the images in place"
    if prog == "jpegoptim" and not {f.split("=")[0] for f in flags} & {"-d", "--dest", "-n", "--noaction", "--stdout",
                                                                       "-h", "--help"} and (
            any(re.match(r"^(-m\d*|--max(=.*)?|-S\d*|--size(=.*)?|-s|--strip-all|--strip-\w+)$", t) for t in texts)):
        return "jpegoptim recompresses or strips the originals in place"
    if prog == "pngquant" and any(t in ("--ext", "--ext=.png") for t in texts) and (
            ".png" in texts or "--ext=.png" in texts) and flags & {"-f", "--force"}:
        return "pngquant writes the reduced images over the originals"
    if prog == "gifsicle" and flags & {"-b", "--batch"} and any(
            t.startswith(("--lossy", "--colors", "-k", "--scale", "--resize", "--crop", "--delete", "--reduce"))
            for t in texts):
        return "gifsicle --batch writes the reduced animations over the originals"
    if prog == "exiftool" and "-overwrite_original" in texts and any(re.match(r"^-(all|\w+:all|gps:all)=$", t)
                                                                     for t in texts):
        return "exiftool erases the files' metadata with no backup"
    if prog in _CONVERTERS:
        out = next((texts[k + 1] for k, t in enumerate(texts[:-1]) if t in ("-o", "--output", "-out", "--outfile")),
                   texts[-1] if prog in ("ffmpeg", "avconv", "sox") and texts and texts[-2:-1] != ["-i"] else "")
        outputs = {"-o", "--output", "-out", "--outfile"}
        inputs = [texts[k + 1] for k, t in enumerate(texts[:-1]) if t == "-i"] if prog in ("ffmpeg", "avconv") else \
            [t for k, t in enumerate(texts[:-1]) if not t.startswith("-") and not (k and texts[k - 1] in outputs)]
        if out and out in inputs:
            return f"{prog} writes its output over its own input {out}"
    if prog == "pngcrush" and "-ow" in texts and any(t.startswith("-rem") for t in texts):
        return "pngcrush strips chunks from the originals in place"
    if prog == "mat2" and "--inplace" in texts:
        return "mat2 strips the documents' metadata in place"
    if any(_DELETES_INPUT.match(t) for t in texts):
        return f"{prog} deletes the originals once converted"
    tagger = _TAGGERS.get(prog)
    if tagger is not None and any(tagger.match(t) for t in texts):
        return f"{prog} erases the files' tags"
    return None


def _dest_matters(w: Word) -> bool:
    """Home, a folder of home, another user's home, a system directory: what is there is written over."""
    if w.text.rstrip("/") in LOCAL_SOFTWARE:  # `tar xf jdk.tar.gz -C /opt`: software installed by hand goes there
        return False
    return target(w).kind in ("home", "user", "userhome", "system", "system-top", "root", "critical", "dot-critical")


def _archive_over(c: Ctx, prog: str, texts: list) -> Optional[str]:
    flags = _flags(c)
    overwrite = False
    dest: Optional[Word] = None
    words = list(c.args)
    if prog in ("unrar", "rar", "unar"):
        overwrite = bool(flags & {"-o+", "-y", "-f", "-u"}) or prog == "unar" and "-f" in flags
        ops = _operands(c)
        dest = ops[2] if len(ops) > 2 and ops[0].text in ("x", "e") else None
        if prog == "unar":
            dest = next((words[k + 1] for k, w in enumerate(words[:-1]) if w.text in ("-o", "-output-directory")),
                        None)
    elif prog == "unzip":
        overwrite = "-o" in flags or any(re.fullmatch(r"-[a-zA-Z]*o[a-zA-Z]*", t) for t in flags)
        dest = next((words[k + 1] for k, w in enumerate(words[:-1]) if w.text == "-d"), None)
    elif prog in ("7z", "7za", "7zz"):
        overwrite = bool(flags & {"-aoa", "-y"})
        dest = next((Word(w.text[2:], w.raw[2:], has_var=w.has_var) for w in words
                     if w.text.startswith("-o") and len(w.text) > 2), None)
    elif prog in ("bsdtar", "tar", "gtar"):
        extract = any(t.startswith("-") and not t.startswith("--") and "x" in t or t == "--extract" or
                      not t.startswith("-") and k == 0 and "x" in t for k, t in enumerate(texts))
        overwrite = extract and not flags & {"-k", "--keep-old-files", "--skip-old-files", "--keep-newer-files"}
        dest = next((words[k + 1] for k, w in enumerate(words[:-1]) if w.text in ("-C", "--directory")), None)
    elif prog == "cpio":
        overwrite = any(re.fullmatch(r"-[a-zA-Z]*i[a-zA-Z]*", t) and "u" in t for t in flags) or \
            "--unconditional" in flags
        dest = next((words[k + 1] for k, w in enumerate(words[:-1]) if w.text in ("-D", "--directory")), None)
    if overwrite and dest is not None and _dest_matters(dest):
        return f"{prog} unpacks over {dest.text}, writing over the files already there"
    return None


_VCS_DISCARD = (
    ("cvs", re.compile(r"^(update|up|upd)\b.*(\s-C\b|\s-\w*C\w*\b)")),
    ("pijul", re.compile(r"^reset\b")),
    ("bzr", re.compile(r"^revert\s*$|^revert\s+(--no-backup\s*)?$|^clean-tree\b.*--force")),
    ("brz", re.compile(r"^revert\s*$|^revert\s+(--no-backup\s*)?$|^clean-tree\b.*--force")),
    ("fossil", re.compile(r"^revert\s*$|^clean\b.*(--force|-f\b)|^(update|checkout)\b.*--force")),
    ("darcs", re.compile(r"^(revert|rev)\b.*(\s-a\b|--all)|^obliterate\b.*(\s-a\b|--all)")),
    ("jj", re.compile(r"^restore\s*$|^restore\s+(--from\s+\S+\s*)?$")),
    ("got", re.compile(r"^(revert|rv)\b.*\s-R\b")),
    ("svn", re.compile(r"^revert\b.*(--depth[ =]infinity|\s-R\b)|^cleanup\b.*--remove-(unversioned|ignored)")),
    ("hg", re.compile(r"^(update|up|checkout|co)\b.*(\s-C\b|--clean)|^revert\b.*(--all|\s-a\b)")),
    ("sl", re.compile(r"^(update|goto|checkout)\b.*(\s-C\b|--clean)|^revert\b.*(--all|\s-a\b)")),
)


def rule_media_loss(c: Ctx) -> Optional[tuple]:
    """An original written over in place, or a tool's own 'delete everything' told not to ask."""
    prog = c.prog.lower().removesuffix(".exe")
    if prog not in NAMES and not prog.startswith(("czkawka", "rmlint")) and prog not in ("sh", "bash") and \
            prog != "cat" and not any(t.startswith(("--delete-", "--remove-", "--rm-")) for t in c.texts):
        return None
    if prog == "cat":
        return rule_copied_over(c)
    texts = c.texts
    said = _image_in_place(c, prog, texts)
    if said is None and prog in _ARCHIVERS:
        said = _archive_over(c, prog, texts)
    if said is None and (prog in _RENAMERS and _flags(c) & {"-f", "--force"} or prog == "mmv" and "-d" in texts):
        said = f"{prog} -f renames over any file that already has the new name"
    if said is None and prog in _SYNCS and any(t in ("-force", "--force") for t in texts):
        said = "unison -force makes one side win: changes made on the other side are lost"
    if said is None and prog in ("jdupes", "fdupes") and any(
            re.fullmatch(r"-[a-zA-Z]*d[a-zA-Z]*", t) for t in texts) and any(
            re.fullmatch(r"-[a-zA-Z]*N[a-zA-Z]*", t) or t == "--noprompt" for t in texts):
        said = f"{prog} deletes every duplicate but the first, without asking"
    if said is None and prog == "rdfind" and re.search(r"-deleteduplicates\s+(true|1)", " ".join(texts)):
        said = "rdfind deletes the duplicates it finds"
    if said is None and prog == "fclones" and texts[:1] in (["remove"], ["dedupe"]) and "--dry-run" not in texts:
        said = "fclones removes the duplicates the group lists"
    if said is None and prog.startswith("czkawka") and any(t in ("-D", "--delete-method") for t in texts):
        said = "czkawka deletes the duplicates it finds"
    if prog in ("sh", "bash") and texts[:1] and re.search(r"(^|/)rmlint\w*\.sh$", texts[0]):
        prog, texts = texts[0].rsplit("/", 1)[-1], texts[1:]  # `sh rmlint.sh -d`
    if said is None and prog.startswith("rmlint") and prog.endswith(".sh") and "-d" in texts:
        said = "the generated rmlint script deletes every duplicate it lists, without asking"
    if said is None and prog in {p for p, _ in _VCS_DISCARD}:
        joined = " ".join(t for t in texts if t not in ("-q", "-Q", "--quiet"))
        if any(p == prog and rx.search(joined) for p, rx in _VCS_DISCARD):
            said = f"{prog} discards local changes that were never committed"
    if said is None and prog == "buku" and any(t in ("-d", "--delete") for t in texts) and "--tacit" in texts and \
            not any(re.fullmatch(r"\d[\d,-]*", t) for t in texts):
        said = "buku deletes every bookmark without asking"
    unconfirmed = re.search(r"rc\.confirmation[:=](off|no|0)", " ".join(texts))
    if said is None and prog in ("task", "taskwarrior") and unconfirmed and any(t in ("delete", "del", "purge")
                                                                                for t in texts):
        said = f"{prog} deletes tasks without asking"
    if said is None and prog == "mdeltree":
        said = "mdeltree deletes a directory tree on the disk or image"
    return (MEDIUM, f"{said} ({c.text})") if said else None


def rule_copied_over(c: Ctx) -> Optional[tuple]:
    """``cat template.csv > customers.csv``: a data file or a document replaced by a copy of another file."""
    words = c.seg.words
    if c.prog != "cat" or len(words) != 2 or words[1].text.startswith("-") or c.chain:
        return None
    for red in c.seg.redirects:
        if red.op not in (">", ">|") or red.target is None:
            continue
        dest = red.target.text
        if dest != words[1].text and (_DATA_EXT.search(dest) or is_document(target(red.target).path)):
            return MEDIUM, f"replaces {dest} with a copy of {words[1].text} (cat {words[1].text} > {dest})"
    return None


NAMES = (_CONVERTERS | {"pngcrush", "mat2", "mmv", "mogrify", "gm-mogrify", "magick", "gm", "convert", "sips",
                        "jpegoptim", "pngquant", "gifsicle", "exiftool",
          "jdupes", "fdupes", "rdfind", "fclones", "buku", "task", "taskwarrior", "mdeltree"} | set(_TAGGERS) |
         _RENAMERS | _ARCHIVERS | _SYNCS | {p for p, _ in _VCS_DISCARD})
