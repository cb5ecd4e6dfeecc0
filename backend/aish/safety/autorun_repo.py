"""Does the repository a ``git`` step runs in name a program in its own configuration?

A repository's ``.git/config`` travels with it (an unpacked archive, a copied directory, a
tool that writes it), and git runs what it names on commands that only read: the
``core.fsmonitor`` hook on every ``git status``, a pager on ``git log``, a diff ``textconv``
or a ``clean`` filter while comparing files.  So a read-only subcommand is harmless only in a
repository whose configuration names no program; one that does makes the step wait for the
user.  Only the repository's own files are read (its config, a linked worktree's, those of
its submodules, which ``git status`` enters): the user's global configuration is theirs.
Anything that cannot be read or placed also waits.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Optional
from aish.safety.lazy_regex import lazy

RUNS = "the repository's own configuration runs a program"
# Keys whose value is a program (or a file of more keys) git may start on a read: section.key,
# or section.*.key for the keys that sit under a named subsection.
_PROGRAM_KEYS = frozenset({
    "core.fsmonitor", "core.pager", "core.editor", "core.sshcommand", "core.gitproxy", "core.askpass",
    "core.hookspath", "diff.external", "diff.tool", "sequence.editor", "gpg.program", "credential.helper",
    "interactive.difffilter", "include.path", "uploadpack.packobjectshook",
})
_PROGRAM_SUBKEYS = frozenset({
    "diff.command", "diff.textconv", "filter.clean", "filter.smudge", "filter.process", "merge.driver",
    "gpg.program", "includeif.path", "credential.helper", "difftool.cmd", "mergetool.cmd",
})
_ANY_KEY = frozenset({"pager"})  # pager.<command> = program
_OFF = frozenset({"", "false", "no", "off", "0"})
_GIT_LFS = lazy(r"^git-lfs (clean|smudge|filter-process)( -- %f| --skip -- %f| --skip)?$")
_PLAIN_PAGER = lazy(r"^(less|more|cat)(\s+-[A-Za-z]+)*$")
_SECTION = lazy(r'^\[\s*([A-Za-z0-9.-]+)\s*(?:"((?:[^"\\]|\\.)*)")?\s*\]')
_KEY = lazy(r"^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$")
_MAX_BYTES = 1 << 20  # a config larger than this is not read through: the step waits
_MAX_SUBMODULES = 200
_STORES = {"objects", "refs", "logs", "lfs", "hooks", "info"}


def configured_program(base: Optional[str], git_options: list) -> str:
    """Why ``git`` run in ``base`` with ``git_options`` (its global options, ``-C`` and
    ``--git-dir`` included) may run a program its repository names, or ``""``."""
    if base is None:
        return f"{RUNS}: the directory it runs in is not known"
    place, gitdir = Path(base), None
    for k, word in enumerate(git_options):
        value = git_options[k + 1] if k + 1 < len(git_options) else ""
        if word == "-C" and value:
            place = place / os.path.expanduser(value)
        elif word.startswith("--git-dir="):
            gitdir = place / os.path.expanduser(word.split("=", 1)[1])
        elif word == "--git-dir" and value:
            gitdir = place / os.path.expanduser(value)
    if gitdir is None:
        gitdir = _find_gitdir(place)
        if gitdir is None:
            return ""  # no repository: git says so and runs nothing
    try:
        configs = _config_files(gitdir)
        for config in configs:
            key = _program_key(config)
            if key:
                return f"{RUNS} ({key})"
    except (OSError, UnicodeDecodeError, ValueError) as err:
        return f"{RUNS}: its configuration cannot be read ({type(err).__name__})"
    return ""


def _find_gitdir(start: Path) -> Optional[Path]:
    """The repository directory git would use from ``start``: the nearest ``.git`` above it, a
    directory or a file naming one (``gitdir: PATH``, as worktrees and submodules have)."""
    here = Path(os.path.abspath(start))
    for folder in (here, *here.parents):
        dot_git = folder / ".git"
        if dot_git.is_dir():
            return dot_git
        if dot_git.is_file():
            text = dot_git.read_text(encoding="utf-8", errors="replace")[:4096]
            target = text.partition("gitdir:")[2].strip()
            if not target:
                return None  # git stops at a .git file it cannot follow, and runs nothing
            return (folder / target) if not os.path.isabs(target) else Path(target)
        if (folder / "HEAD").is_file() and (folder / "objects").is_dir() and (folder / "config").is_file():
            return folder  # a bare repository, or the step runs inside .git itself
    return None


def _config_files(gitdir: Path) -> list:
    """The repository's own configuration files: its config, the shared one of a linked
    worktree (``commondir``), ``config.worktree``, and each submodule's."""
    dirs = [gitdir]
    common = gitdir / "commondir"
    if common.is_file():
        target = common.read_text(encoding="utf-8").strip()
        dirs.append(gitdir / target if not os.path.isabs(target) else Path(target))
    files = []
    for folder in dirs:
        files += [folder / "config", folder / "config.worktree"]
        modules = folder / "modules"
        if modules.is_dir():
            files += _submodule_configs(modules)
    return [f for f in files if f.exists()]


def _submodule_configs(modules: Path) -> list:
    """Each submodule's config under ``modules`` (nested ones too), not entering their object
    stores."""
    found = []
    for root, dirs, names in os.walk(modules):
        dirs[:] = [d for d in dirs if d not in _STORES]
        if "config" in names:
            found.append(Path(root) / "config")
            if len(found) > _MAX_SUBMODULES:
                raise ValueError("too many submodules")
    return found


def _program_key(config: Path) -> str:
    """The first key of ``config`` that names a program to run, ``section.sub.key`` in git's
    own case rules (sections and keys in any case, subsections as written)."""
    if config.stat().st_size > _MAX_BYTES:
        raise ValueError("configuration too large")
    section, sub = "", None
    lines = config.read_text(encoding="utf-8").splitlines()
    k = 0
    while k < len(lines):
        line = lines[k].strip()
        k += 1
        while line.endswith("\\") and k < len(lines):  # a value continued on the next line
            line = line[:-1] + lines[k].strip()
            k += 1
        if not line or line[0] in "#;":
            continue
        header = _SECTION.match(line)
        if header:
            name, quoted = header.group(1).lower(), header.group(2)
            if quoted is not None:
                section, sub = name, quoted
            else:  # [section] or the older [section.subsection]
                section, _, rest = name.partition(".")
                sub = rest or None
            line = line[header.end():].strip()  # `[core] fsmonitor = x` on one line
            if not line or line[0] in "#;":
                continue
        entry = _KEY.match(line)
        if not entry or not section:
            continue
        key, value = entry.group(1).lower(), _value(entry.group(2))
        full = f"{section}.{sub}.{key}" if sub is not None else f"{section}.{key}"
        if _names_program(section, sub, key, value):
            return full
    return ""


def _names_program(section: str, sub: Optional[str], key: str, value: str) -> bool:
    if (sub is None and f"{section}.{key}" in _PROGRAM_KEYS) or section in _ANY_KEY:
        return not _harmless_value(f"{section}.{key}" if sub is None else section, value)
    if sub is not None and f"{section}.{key}" in _PROGRAM_SUBKEYS:
        return not (section == "filter" and _GIT_LFS.match(value))  # `git lfs install --local`
    return False


def _harmless_value(key: str, value: str) -> bool:
    """``core.fsmonitor = false``, ``core.pager = less -R``: settings that start nothing
    beyond what git starts anyway (``true`` is git's own built-in monitor)."""
    if key == "core.fsmonitor":
        return value.lower() in _OFF or value.lower() in ("true", "yes", "on", "1")
    if key in ("core.pager", "pager"):
        return value.lower() in _OFF or bool(_PLAIN_PAGER.match(value))
    return False


def _value(raw: Optional[str]) -> str:
    """A value without its comment and quotes (enough to tell ``false`` and ``less -R``)."""
    if raw is None:
        return "true"  # a bare key is a boolean true
    out, quoted = [], False
    for ch in raw:
        if ch == '"':
            quoted = not quoted
            continue
        if ch in "#;" and not quoted:
            break
        out.append(ch)
    return "".join(out).strip()
