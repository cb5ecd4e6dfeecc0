"""Effect: files written over by force, for any program.

A command that creates or copies files normally refuses to replace what is there, or asks
first; told to force, the files already at its destination are lost without a word.  Three
spellings of that, whatever the program:

- a generator or scaffolder told to force (``rails new blog --force``, ``ng generate component
  x --force``, ``dotnet new webapi --force``, ``npm create x -- --force``): the project files it
  would generate are written over the ones the user has edited;
- an option named for overwriting (``--overwrite``, ``--force-overwrites``, ``--allow-overwrite=true``,
  ``-overwrite``): quiet when its value turns it off, on a package tool (``pacman --overwrite GLOB``
  names files a package may take over) or when every operand is temporary or build output;
- Windows' ``/Y`` on a copy, move or registry export, and PowerShell's ``-Force`` on the aliases of
  ``Move-Item`` and ``Copy-Item`` (``mv``, ``mi``, ``cpi``…): the prompt before overwriting is gone.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.programs import READ_ONLY
from aish.safety.rules.common import MEDIUM, Ctx, target
from aish.safety.shell_words import Word
from aish.safety.verbs import PACKAGE_TOOLS
from aish.safety.winpaths import typed_text
from aish.safety.lazy_regex import lazy

# First words that make files from a template: what they write over is the user's work.
_GENERATES = frozenset({"new", "create", "generate", "g", "scaffold", "init", "c", "startproject", "startapp",
                        "bootstrap", "template", "gen"})
# `artisan make:model`, `console make:entity`, `generate:controller`: a framework's generating commands.
_GENERATING_PREFIXES = ("make:", "generate:", "g:", "scaffold:")
_FORCE = frozenset({"--force", "-force", "--overwrite"})
# An option named for overwriting, and the words that turn it off.
_OVERWRITE_OPTION = lazy(r"^--?(?:force-|allow-|always-)?(overwrite|overwrites|clobber|overwrite-all|"
                         r"overwrite-existing|overwrite-files?|overwrite-output)(?:=(.*))?$", re.IGNORECASE)
_OFF = {"false", "no", "0", "off", "never", "none"}
# Windows copies and moves (and `reg export/save/copy`), whose `/Y` drops the prompt before overwriting.
_WINDOWS_COPIES = frozenset({"copy", "xcopy", "move", "copy.exe", "xcopy.exe", "move.exe"})
_WINDOWS_RUNNERS = frozenset({"wine", "wine64", "wineconsole", "wine-stable", "wine-development"})
_REG_WRITES = frozenset({"export", "save", "copy"})
# PowerShell's moves and copies by any alias (`mv`, `cp` and `move`, `copy` are aliases there too).
_POWERSHELL_MOVES = frozenset({"move-item", "copy-item", "mv", "mi", "move", "cp", "cpi", "copy", "cpp"})
_OUTPUT_OPTIONS = frozenset({"-o", "--output", "-O", "--out", "--output-file", "--outfile", "--dest", "-d"})
# Unix moves and copies (`-f`, `--force`, `--remove-destination`), compressors whose `-f` replaces an
# existing output, extractors told to overwrite every file (7-Zip's `-aoa`, RAR's `-o+`).
_MOVERS = frozenset({"mv", "cp", "gmv", "gcp"})
_MOVER_FORCE = frozenset({"--force", "--remove-destination"})
_COMPRESSORS = frozenset({"gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd", "lz4", "lzip",
                          "pigz", "pbzip2", "brotli", "lzma", "unlzma"})
_EXTRACTORS = {"7z": {"-aoa"}, "7za": {"-aoa"}, "7zz": {"-aoa"}, "7zr": {"-aoa"}, "unrar": {"-o+"}, "rar": {"-o+"},
               "unzip": set(), "tar": {"--overwrite"}, "bsdtar": {"--overwrite"}, "gtar": {"--overwrite"}}
_SYNCS = frozenset({"mirror", "sync", "bisync"})
_HARMLESS_KINDS = frozenset({"temp", "output"})


def rule_forced_overwrite(c: Ctx) -> Optional[tuple]:
    """Files written over by force: a generator told to force, an option named for overwriting, ``/Y`` or
    ``-Force`` on a Windows copy or move."""
    texts = c.texts
    if not texts or c.prog in READ_ONLY:
        return None
    prog = c.prog.lower()
    if prog in _WINDOWS_RUNNERS and len(texts) > 1:  # `wine xcopy … /Y`: the Windows program it runs
        prog, texts = texts[0].lower(), texts[1:]
    if prog in _WINDOWS_COPIES or prog in _POWERSHELL_MOVES or prog in ("reg", "reg.exe"):
        lowered = [t.lower() for t in texts]
        if "/y" in lowered and (prog in _WINDOWS_COPIES or prog in ("reg", "reg.exe") and lowered[0] in _REG_WRITES):
            if "/-y" not in lowered and not _into_own_place(c, prog, lowered):
                return MEDIUM, f"{prog} /Y writes over files that exist without asking ({c.text})"
        if "-force" in lowered and prog in _POWERSHELL_MOVES and "-Force" in texts or \
                prog in ("move-item", "copy-item") and "-force" in lowered:
            return MEDIUM, f"{prog} -Force writes over the destination if it exists ({c.text})"
    forced = _unix_forced(prog, texts) if prog in _MOVERS or prog in _COMPRESSORS or prog in _EXTRACTORS else None
    if forced is not None:
        dest = [w for w in c.args if not w.text.startswith("-")]
        if dest and (target(dest[-1]).kind in _HARMLESS_KINDS or dest[-1].text.endswith(("/", "\\"))):
            return None  # into a directory (a file of the same name is all it could replace), temp or build output
        if prog in _EXTRACTORS and (len(dest) > 2 or prog.startswith("7z") and any(t.startswith("-o") for t in texts) or
                                    prog != "unzip" and "-C" in texts or prog == "unzip" and "-d" in texts):
            return None  # extracted into a directory of its own (where into a system one is `outputs`' business)
        return MEDIUM, f"{c.prog} {forced} writes over files that exist without asking ({c.text})"
    joined = " ".join(texts)
    if "-f" not in joined and "overwrite" not in joined.lower() and "clobber" not in joined.lower():
        return None  # neither a force nor an overwrite is spelled
    generated = _generator_forced(prog, texts)
    if generated is not None:
        return MEDIUM, f"{c.prog} {generated} writes over the files already at its destination ({c.text})"
    option = _overwrite_option(texts)
    if option is None or prog in PACKAGE_TOOLS or set(texts[:2]) & _SYNCS:
        return None  # a mirror or sync updates what changed at the destination: its business
    operands = [w for w in c.args if not w.text.startswith("-") and ("/" in w.text or "." in w.text)]
    explicit = option.lower().startswith(("--force-", "--allow-"))
    if len(operands) < 2 and not set(texts) & _OUTPUT_OPTIONS and not explicit:
        return None  # one file and no output named: converted in place (`nkf -w --overwrite f`), not written over
    if operands and target(operands[-1]).kind in _HARMLESS_KINDS:
        return None  # the destination (written last) is temporary or build output
    return MEDIUM, f"{c.prog} {option} writes over files that exist without asking ({c.text})"


def _into_own_place(c: Ctx, prog: str, lowered: list) -> bool:
    """``xcopy .\\assets .\\dist\\assets /E /I /Y``, ``copy /y x.dll build\\``: into a directory (a file of the same
    name is all it could replace), temporary or build output, as for a Unix ``cp -f``."""
    operands = [typed_text(w) for w in c.args if not w.text.startswith(("/", "-"))]
    if len(operands) < 2:
        return False
    dest = operands[-1]
    kind = target(Word(dest, dest)).kind
    if kind in ("root", "system-top", "system", "critical"):
        return False  # Windows' own files written over
    return kind in _HARMLESS_KINDS or dest.endswith(("\\", "/")) or prog.startswith("xcopy") and "/i" in lowered


def _unix_forced(prog: str, texts: list) -> Optional[str]:
    """The forcing option of a move, a copy, a compressor or an extractor told to replace what exists."""
    if prog in _MOVERS or prog in _COMPRESSORS:
        extra = _MOVER_FORCE if prog in _MOVERS else frozenset({"--force"})
        return next((t for t in texts if t in extra or re.fullmatch(r"-[a-z0-9]{0,3}f[a-z0-9]{0,3}", t)),
                    None)
    if prog == "unzip":  # `-o` alone or in a bundle (`-oq`); `-d DIR` is decided by where it extracts
        return next((t for t in texts if re.fullmatch(r"-[a-zA-Z]{0,3}o[a-zA-Z]{0,3}", t)), None)
    if prog in _EXTRACTORS:
        return next((t for t in texts if t.lower() in _EXTRACTORS[prog]), None)
    return None


def _generator_forced(prog: str, texts: list) -> Optional[str]:
    """The generating word (``new``, ``generate``…) of a command told to force, or None."""
    words = [t for t in texts if not t.startswith("-")]
    verb = next((w for w in words[:2] if w in _GENERATES or w.startswith(_GENERATING_PREFIXES) or
                 "." in w and _GENERATES.intersection(w.split("."))), None)  # `mix phx.gen.json`
    if verb is None and prog.startswith("create-"):
        verb = prog
    if verb is None:
        return None
    if any(t in _FORCE for t in texts):
        return verb
    # `-f` is force only last on the line after a first-word generator (`gh pr new -f` fills a title in,
    # `kubectl create -f -` reads a file)
    return verb if texts[-1] == "-f" and words[:1] == [verb] else None


def _overwrite_option(texts: list) -> Optional[str]:
    """An option named for overwriting that is not turned off (``--overwrite``, ``--allow-overwrite=true``)."""
    for t in texts:
        if not t.startswith("-") or "overwrite" not in t.lower() and "clobber" not in t.lower():
            continue
        m = _OVERWRITE_OPTION.match(t)
        if m and (m.group(2) is None or m.group(2).lower() not in _OFF):
            return t
    return None
