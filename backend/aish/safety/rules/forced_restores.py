"""Effect: a backup restored OVER the live data, told not to refuse, for programs no rule names.

A restore tool usually refuses to write where data is (a non-empty data directory, an existing
database or VM).  The option that makes it go ahead anyway is what makes it destructive: the live
data is replaced by the backup, and what changed since is lost.

- the restore is said by the program's name (``ghe-restore``, ``qmrestore``, ``Restore-SqlDatabase``),
  a subcommand (``gitlab-backup restore``, ``pgbackrest … restore``, ``neo4j-admin load``), or an option
  (``xtrabackup --copy-back``, ``rdiff-backup -r now``);
- the going ahead by an option or a setting: ``--force``, ``force=yes``, ``--force-non-empty-directories``,
  ``--overwrite-*``, ``-replace=all``, ``-ReplaceDatabase``, ``--delta`` (pgBackRest rewrites the live data
  directory in place), ``--drop``, ``--rm``, ``--full`` (InfluxDB replaces every bucket);
- a destination that is new or temporary (``--target /tmp/r``, a last operand under ``/tmp``) keeps the
  live data: quiet.

Medium; high when the destination named is home, the root or a system directory."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import HIGH, MEDIUM, Ctx, Target, classify, describe
from aish.safety.rules.triggers import triggered_by

# Build tools whose `restore` fetches a project's packages.
PACKAGE_RESTORERS = frozenset({"dotnet", "nuget", "msbuild", "paket", "dotnet-restore", "nuget-restore"})
_PROJECT_FILES = (".sln", ".csproj", ".fsproj", ".vbproj", "packages.config", ".slnx")
# Where database servers keep their live data (`/var/lib/postgresql/16/main`, `/var/lib/mysql`).
_DATA_DIR = LazyRegex(r"^/var/lib/(postgresql|pgsql|mysql|mariadb|mongodb|redis|elasticsearch|opensearch|cassandra|"
                      r"clickhouse|influxdb|neo4j|couchdb|etcd)(/|$)|^/var/opt/mssql(/|$)")
# One of these is in every line this rule judges (a plain substring test before anything is read).
_SAID = ("restor", "recover", "-back", "backup", "load", "import", "fetch")
_RESTORE_NAME = LazyRegex(r"(restore|recover)$|^restore-|^(restore|recover)[-_]", re.IGNORECASE)
_RESTORE_OPERANDS = frozenset({"restore", "recover", "backup-fetch", "backup-restore", "restore-backup", "copy-back",
                               "copy-back-and-apply-log", "move-back"})
_RESTORE_OPTIONS = frozenset({"--copy-back", "--move-back", "--restore", "-restore", "--restore-as-of", "--recover"})
_LOADS = frozenset({"load", "import"})  # a dump loaded: only with a backup named on the line
_BACKUP_HINT = LazyRegex(r"backup|\.dump$|\.bak$|\.snap$|^--from", re.IGNORECASE)
# Options and settings that tell a restore to replace what is there.
_GO_AHEAD = LazyRegex(r"^(--?force([-_][\w-]+)?|-with-?replace|--?overwrite([-_][\w-]+)?|"
                      r"-?-?replace(database)?(=\w+)?|--delta|"
                      r"--drop|--rm|--full|--clean|--wipe|-delete|--delete[\w-]*|--force-non-empty-directories|"
                      r"(force|replace|overwrite)=(yes|true|1|all|always))$", re.IGNORECASE)
_GO_AHEAD_VALUED = frozenset({"--overwrite", "--force", "-overwrite", "--replace"})
_LISTS = frozenset({"-l", "--list", "list", "ls", "info", "show", "status", "--help", "-h"})
_NO = frozenset({"false", "no", "0", "never", "off"})
_WHERE = frozenset({"--target", "-t", "--to", "--dest", "--destination", "--target-dir", "--restore-path", "--into",
                    "-C", "--directory", "--root", "--output-dir", "--path", "-D", "--pgdata", "--datadir"})
_SAFE_PLACES = frozenset({"temp", "output", "project"})
_LIVE = frozenset({"root", "system-top", "home", "critical", "system", "user", "userhome"})


def named_for_restoring(prog: str) -> bool:
    """``mongorestore``, ``ghe-restore``, ``restore-db``: a program whose name says it restores."""
    return bool(_RESTORE_NAME.search(prog))


@triggered_by(_SAID)
def rule_forced_restore(c: Ctx) -> Optional[tuple]:
    """A restore, load or copy-back told to go ahead over existing data."""
    line = c.prog.lower() + " " + c.lowered
    if not any(word in line for word in _SAID) or restores_packages(c):
        return None
    texts = c.texts
    if not restore_said(c) or set(texts) & _LISTS:
        return None
    go = _going_ahead(c)
    if go is None:
        datadir = next((t.split("=", 1)[-1] for t in texts if _DATA_DIR.match(t.split("=", 1)[-1])), None)
        if datadir is None:
            return None
        return MEDIUM, f"{c.prog} restores into {datadir}, a database's live data directory: what it holds " \
            f"now is written over ({c.text})"
    where = _destination(texts)
    if where is not None:
        kind = classify(where)
        if kind in _SAFE_PLACES and where.startswith(("/tmp", "/var/tmp", "./", "tmp")) or kind == "temp":
            return None  # put back somewhere new: the live data stays
        if kind in _LIVE:
            shown = describe(Target(kind, where, where))
            return HIGH, f"{c.prog} restores over {shown}, told to replace what is there ({go}) ({c.text})"
    return MEDIUM, f"{c.prog} restores a backup over the live data, told to replace it ({go}): what changed " \
        f"since is lost ({c.text})"


def restore_said(c: Ctx) -> bool:
    """The program's name, a subcommand or an option says restore (or recover, copy back, load a backup)."""
    texts = c.texts
    operands = [t.lower() for t in texts if not t.startswith("-") and "=" not in t][:4]
    return bool(_RESTORE_NAME.search(c.prog)) or bool(set(operands) & _RESTORE_OPERANDS) or \
        any(re.match(r"^(restore|recover)[-_]", op) for op in operands[:2]) or \
        any(t.split("=", 1)[0] in _RESTORE_OPTIONS for t in texts) or \
        "-r" in texts and "backup" in c.prog.lower() or \
        bool(set(operands[:2]) & _LOADS) and any(_BACKUP_HINT.search(t) for t in texts)


def restores_packages(c: Ctx) -> bool:
    """``dotnet restore --force``, ``nuget restore x.sln -Force``: a build's dependencies fetched again, no data."""
    prog = re.sub(r"\.exe$", "", c.prog.lower())
    return prog in PACKAGE_RESTORERS or any(t.lower().endswith(_PROJECT_FILES) for t in c.texts)


def _going_ahead(c: Ctx) -> Optional[str]:
    texts = c.texts
    for k, t in enumerate(texts):
        nxt = texts[k + 1].lower() if k + 1 < len(texts) else ""
        if t.lower() in _GO_AHEAD_VALUED and nxt in _NO:
            continue  # `--overwrite false`
        if _GO_AHEAD.match(t) and t.split("=", 1)[-1].lower() not in _NO:
            return t
        if t == "-f" and _RESTORE_NAME.search(c.prog) and not re.search(r"/|\.[a-z]\w{0,5}$", nxt):
            return t  # `ghe-restore -f HOST` (vgcfgrestore's `-f FILE` names a file)
    return None


def _destination(texts: list) -> Optional[str]:
    for k, t in enumerate(texts):
        if t in _WHERE and k + 1 < len(texts):
            return texts[k + 1]
        if t.split("=", 1)[0] in _WHERE and "=" in t:
            return t.split("=", 1)[1]
    paths = [t for t in texts if t.startswith(("/", "~")) and not t.startswith("-")]
    return paths[-1] if len(paths) >= 2 else None  # `duplicity restore URL /home/alice`: the last path is written
