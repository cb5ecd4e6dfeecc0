"""Effect: a user's files lost in the everyday ways a folder is emptied or written over.

Mechanisms no single rule saw, each judged by where it lands:

- every entry of one of the user's own folders deleted at once, by a glob or by a listing fed back
  to ``rm`` (``rm ~/Documents/*``, ``ls ~/Pictures | xargs -I{} rm ~/Pictures/{}``); downloads, caches
  and a project's output stay quiet;
- a directory's *contents* copied or synced over home, a configuration directory or a personal
  folder (``cp -a skel/. ~``, ``rsync -a ~/dotfiles/ ~/``, ``ditto backup ~``, ``Copy-Item -Recurse
  -Force .\\backup\\* $HOME``, ``xcopy /E /Y``): every file of the same name is replaced;
- deletes said by other tools: archivers that delete what they pack (``zip -m``, ``7z a -sdel``,
  ``rar m``), ``fd … -x rm``, ``sed -i d`` (every line), ``osascript`` emptying the Trash;
- replacements: ``ln -sf`` over a document, every ``find`` match moved onto one file name,
  ``unison -batch -prefer`` (the other side's changes lost in every conflict).
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx, describe, parse_opts, target, worst
from aish.safety.rules.into_dir import into_directory
from aish.safety.rules.content import overwrite_level
from aish.safety.rules.delete import delete_level, fed_paths
from aish.safety.shell_words import Word
from aish.safety.lazy_regex import lazy

# The user's own folders whose files are documents, photos, music: not a download area or a cache.
_PERSONAL = lazy(r"^~/(Documents|Desktop|Pictures|Photos|Music|Videos|Movies|Dropbox|OneDrive|Nextcloud|"
                 r"Google Drive|Sync|notes|Notes|Obsidian|Books|Mail|Maildir|thesis|Work|work)(/[^*?]*)?"
                 r"/[^/]*[*?][^/]*$")
_PERSONAL_ROOT = lazy(r"^~/(Documents|Desktop|Pictures|Photos|Music|Videos|Movies|notes|Notes|Obsidian)(/.*)?$")
_CONTENTS_OVER = {"home", "dot", "dot-critical", "dot-rc", "userhome"}


def _personal_glob(word: Word, fed: bool) -> str:
    text = word.text.replace("{}", "*") if fed else word.text
    if word.has_var or "*" not in text and "?" not in text:
        return ""
    path = target(Word(text, text)).path
    path = re.sub(r"^(\$HOME|\$\{HOME\})(?=/)", "~", path)
    return path if _PERSONAL.match(path) else ""


def rule_folder_emptied(c: Ctx) -> Optional[tuple]:
    """``rm ~/Documents/*``: every document in the folder, one by one."""
    if not c.xargs and not any(("*" in t or "?" in t) for t in c.texts):
        return None
    _, _, targets = parse_opts(c.args)
    fed = [w for w in fed_paths(c.chain) if "*" in w.text or "?" in w.text] if c.xargs else []
    for w in targets + fed:  # `rm ~/Documents/*`, `ls ~/Documents/*.odt | xargs rm`
        path = _personal_glob(w, c.xargs)
        if path:
            return MEDIUM, f"deletes every matching file in {path.rsplit('/', 1)[0]} ({c.text})"
    return None


def _contents(src: str, prog: str) -> bool:
    """Is ``src`` a directory's contents (``dir/.``, ``dir/*``; rsync's ``dir/``), or a dotted directory?"""
    if prog == "ditto":
        return True  # ditto always copies the source directory's contents
    if prog == "mv":
        return src.endswith("/*")  # `mv ~/Downloads/* ~/Documents/`: same names there are replaced
    if src.endswith(("/.", "/*")) or prog == "rsync" and src.endswith("/"):
        return True
    name = src.rstrip("/").rsplit("/", 1)[-1]
    return name.startswith(".") and name not in (".", "..") and not src.endswith("/")


_CP_VALUED = frozenset({"-t", "--target-directory", "-S", "--suffix"})
_RSYNC_VALUED = frozenset({"-e", "--rsh", "--exclude", "--include", "--filter", "-f", "--backup-dir", "--files-from"})


def rule_contents_over(c: Ctx) -> Optional[tuple]:
    """A directory's contents copied over home or a configuration directory."""
    flags, values, pos = parse_opts(c.args, _RSYNC_VALUED if c.prog == "rsync" else _CP_VALUED)
    if c.prog in ("cp", "gcp") and not flags & {"r", "R", "a", "--recursive", "--archive"} or \
            c.prog == "rsync" and not flags & {"r", "a", "--recursive", "--archive"}:
        return None
    if flags & {"n", "--no-clobber", "--update", "u", "--ignore-existing", "i", "--interactive", "b", "--backup"}:
        return None  # nothing replaced, asked first, or kept aside
    dest_text = values.get("-t") or values.get("--target-directory")
    sources = pos if dest_text else pos[:-1]
    dest = Word(dest_text, dest_text) if dest_text else (pos[-1] if len(pos) >= 2 else None)
    if dest is None or not sources:
        return None
    d = target(dest)
    if d.kind not in _CONTENTS_OVER and not _PERSONAL_ROOT.match(re.sub(r"^(\$HOME|\$\{HOME\})(?=/)", "~", d.path)):
        return None
    if any(_contents(s.text, c.prog) for s in sources):
        return MEDIUM, (f"copies a directory's contents over {d.shown}: files of the same name there are replaced "
                        f"({c.text})")
    return None


def rule_windows_contents_over(c: Ctx) -> Optional[tuple]:
    """``Copy-Item -Recurse -Force .\\backup\\* $HOME``, ``xcopy /E /Y D:\\backup %USERPROFILE%``."""
    prog = c.prog.lower().removesuffix(".exe")
    raws = [w.raw.strip("'\"") for w in c.args]
    lowered = [r.lower() for r in raws]
    if prog == "xcopy":
        if "/y" not in lowered or not {"/e", "/s"} & set(lowered):
            return None
        pos = [r for r in raws if not r.startswith("/")]
        sources_ok = True
    else:
        if not any(t in ("-recurse", "-r") for t in lowered):
            return None
        valued = {"-path", "-literalpath", "-destination", "-filter", "-include", "-exclude"}
        named = {lowered[k]: raws[k + 1] for k in range(len(raws) - 1) if lowered[k] in valued}
        pos = [r for k, r in enumerate(raws) if not r.startswith("-") and not (k and lowered[k - 1] in valued)]
        src = named.get("-path") or named.get("-literalpath") or (pos[0] if pos else "")
        rest = [r for r in pos if r != src]
        dest = named.get("-destination") or (rest[0] if rest else "")
        pos = [src, dest] if src and dest else []
        sources_ok = bool(src) and src.endswith(("\\*", "/*", "\\.", "/."))
    if len(pos) < 2 or not sources_ok:
        return None
    d = target(Word(pos[-1], pos[-1], has_var="$" in pos[-1]))
    if d.kind in _CONTENTS_OVER:
        return MEDIUM, (f"copies a directory's contents over {d.shown}: files of the same name there are replaced "
                        f"({c.text})")
    return None


# ----------------------------------------------------------------- deletes said by other tools
def rule_archiver_deletes(c: Ctx) -> Optional[tuple]:
    """``zip -m``, ``7z a -sdel``, ``rar m``/``-df``: the files are deleted once packed, judged as their delete."""
    texts = c.texts
    prog = c.prog.lower()
    if prog == "zip" and any(re.fullmatch(r"-[a-zA-Z]*m[a-zA-Z]*", t) or t == "--move" for t in texts) or \
            prog.startswith("7z") and "-sdel" in texts or \
            prog in ("rar", "winrar") and (texts[:1] in (["m"], ["mf"]) or "-df" in texts):
        sources = [w for w in c.args if not w.text.startswith("-")][2 if prog.startswith(("7z", "rar", "win"))
                                                                     else 1:]
        return _judged_delete(c, sources, "packs the files into an archive and deletes them")
    return None


def rule_fd_exec_delete(c: Ctx) -> Optional[tuple]:
    """``fd . ~/Downloads -x rm -rf``: every match under the search paths deleted."""
    texts = c.texts
    k = next((i for i, t in enumerate(texts) if t in ("-x", "--exec", "-X", "--exec-batch")), None)
    if k is None or k + 1 >= len(texts) or texts[k + 1].rsplit("/", 1)[-1] not in _DELETERS:
        return None
    valued = {"-e", "--extension", "-t", "--type", "-E", "--exclude", "-d", "--max-depth", "-S", "--size",
              "--changed-within", "--changed-before", "-j", "--threads", "-c", "--color", "--owner"}
    before = [w for i, w in enumerate(c.args[:k]) if not w.text.startswith("-") and
              not (i and c.args[i - 1].text in valued)]
    return _judged_delete(c, before[1:], "deletes every match") if len(before) > 1 else None


_DELETERS = {"rm", "shred", "unlink", "srm", "wipe"}


def _judged_delete(c: Ctx, words: list, what: str) -> Optional[tuple]:
    best = None
    for w in words:
        t = target(w)
        level = delete_level(t, True)
        if t.kind in ("project", "all") or level is None:
            continue
        best = worst(best, (level, f"{what} under {describe(t)} ({c.text})"))
    return best


def rule_sed_empties(c: Ctx) -> Optional[tuple]:
    """``sed -i d f``, ``sed -i '1,$d' f``: every line deleted, the file left empty."""
    texts = c.texts
    if not any(t == "-i" or t.startswith(("-i", "--in-place")) and not t.startswith("--in-place=") or
               re.fullmatch(r"-[a-zA-Z]*i[a-zA-Z]*", t) for t in texts):
        return None
    scripts = [texts[k + 1] for k, t in enumerate(texts[:-1]) if t in ("-e", "--expression")]
    operands = [w for w in c.args if not w.text.startswith("-") and w.text not in scripts]
    if not scripts and operands:
        scripts, operands = [operands[0].text], operands[1:]
    if not scripts or not all(_ALL_LINES.fullmatch(s) for s in scripts):
        return None
    best = None
    for w in operands:
        t = target(w)
        level = overwrite_level(t) or (MEDIUM if t.kind in ("user", "dot") else None)
        if level is not None:
            best = worst(best, (level, f"sed deletes every line of {describe(t)} ({c.text})"))
    return best


_ALL_LINES = lazy(r"\s*(1\s*,\s*\$\s*)?d\s*;?\s*")


def rule_link_over_document(c: Ctx) -> Optional[tuple]:
    """``ln -sf x ~/Documents/thesis.tex``: the document is replaced by a link."""
    flags, _, pos = parse_opts(c.args, frozenset({"-t", "--target-directory", "-S", "--suffix"}))
    if not flags & {"f", "--force"} or flags & {"b", "--backup"} or len(pos) < 2:
        return None
    dest = pos[-1].text
    path = re.sub(r"^(\$HOME|\$\{HOME\})(?=/)", "~", target(pos[-1]).path)
    if not dest.endswith("/") and re.match(r"^~/(Documents|Desktop|Pictures|Music|Videos|notes|Notes|Dropbox)/"
                                           r".+\.[A-Za-z0-9]{1,5}$", path):
        return MEDIUM, f"replaces your document {path} with a link: what it held is lost ({c.text})"
    return None


def rule_many_onto_one(c: Ctx) -> Optional[tuple]:
    """``find … -exec mv {} ~/Pictures/photo.jpg \\;``: every match moved onto one name, all but the last lost."""
    args = c.args
    if c.prog == "find":  # the command after -exec, up to its `;` or `+`
        k = next((i for i, w in enumerate(args) if w.text in ("-exec", "-execdir", "-ok")), None)
        if k is None or k + 1 >= len(args) or args[k + 1].text.rsplit("/", 1)[-1] != "mv":
            return None
        args = args[k + 2:]
        args = args[:next((i for i, w in enumerate(args) if w.text in (";", "+")), len(args))]
    _, _, pos = parse_opts(args, frozenset({"-t", "--target-directory", "-S", "--suffix"}))
    if len(pos) < 2 or not any("{}" in w.text for w in pos[:-1]):
        return None
    dest = pos[-1]
    name = dest.text.rstrip("/").rsplit("/", 1)[-1]
    if "{}" in dest.text or dest.has_var or dest.text.endswith("/") or not re.search(r"\.[A-Za-z0-9]{1,5}$", name) or \
            into_directory(dest, pos[:-1]) is not None:
        return None
    return MEDIUM, f"moves every match onto the one name {dest.text}: all but the last are lost ({c.text})"


def rule_trash_emptied(c: Ctx) -> Optional[tuple]:
    """``osascript -e 'tell application "Finder" to empty the trash'``."""
    if any(re.search(r"\bempty\s+(the\s+)?trash\b", t, re.IGNORECASE) for t in c.texts):
        return MEDIUM, f"empties the Trash: what was in it is gone ({c.text})"
    return None


def rule_unison_prefers(c: Ctx) -> Optional[tuple]:
    """``unison -batch -prefer A A B``: every conflict resolved for one side without a question."""
    texts = c.texts
    if any(t in ("-batch", "-auto") or t.startswith("-batch=") for t in texts) and \
            any(t in ("-prefer", "-force") or t.startswith(("-prefer=", "-force=")) for t in texts):
        return MEDIUM, f"unison overwrites the other side's changes in every conflict without asking ({c.text})"
    return None


RULES: dict = {"rm": [rule_folder_emptied], "mv": [rule_many_onto_one, rule_contents_over],
               "find": [rule_many_onto_one],
               "ln": [rule_link_over_document], "osascript": [rule_trash_emptied], "unison": [rule_unison_prefers],
               "sed": [rule_sed_empties], "gsed": [rule_sed_empties],
               "fd": [rule_fd_exec_delete], "fdfind": [rule_fd_exec_delete],
               **{p: [rule_contents_over] for p in ("cp", "gcp", "rsync", "ditto")},
               **{p: [rule_archiver_deletes] for p in ("zip", "7z", "7za", "7zz", "rar")},
               **{p: [rule_windows_contents_over] for p in ("Copy-Item", "copy-item", "cpi", "xcopy", "xcopy.exe")}}
