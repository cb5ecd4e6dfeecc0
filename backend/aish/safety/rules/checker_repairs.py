"""Effect: a data file's checker told to repair it, which truncates or drops what it cannot read.

Data stores ship checkers for their files; told to fix, they cut the file at the first bad record
(``redis-check-aof --fix`` truncates the append-only file there, and ``valkey-``/``keydb-check-aof``
do the same), or rebuild every database's tables dropping rows they cannot read (``mysqlcheck --repair
--all-databases``; one table repaired is routine).  Checking
only stays quiet; linters' ``--fix`` (files of code, not data) are not checkers of a data file.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import MEDIUM, Ctx

# A data file's checker by name: `redis-check-aof`, `check-rdb`, `mysqlcheck`, `aria_chk`, `db_verify`.
_CHECKER = lazy(r"(^|[-_])check[-_]?(aof|rdb|db|data|table|tables|index|journal|wal|log|store|file)$|"
                r"^(my|mysql|maria|mariadb|aria|isam|myisam|db|sql|table|mongo)[-_]?(check|chk)$|(^|[-_])(aof|rdb)[-_]?check$",
                re.IGNORECASE)
# Checkers of tables (rows rebuilt): judged only over every database.
_TABLE_CHECKER = lazy(r"^(my|mysql|maria|mariadb|aria|isam|myisam|sql|table)[-_]?(check|chk)$|check[-_]?tables?$",
                      re.IGNORECASE)
_FIX = frozenset("--fix --repair --recover --auto-repair --truncate --safe-recover -r -o --force-fix".split())


def rule_checker_repair(c: Ctx) -> Optional[tuple]:
    """A data file's checker told to fix: what it cannot read is cut off."""
    prog = re.sub(r"\.(exe|sh)$", "", c.prog.lower())
    if not _CHECKER.search(prog):
        return None
    said = next((t for t in c.texts if t in _FIX or t.split("=", 1)[0] in _FIX), None)
    if said is None:
        return None
    every = " on every database" if set(c.texts) & {"--all-databases", "-A"} else ""
    if _TABLE_CHECKER.search(prog) and not every:  # one table repaired is routine (`mysqlcheck --repair db t`)
        return None
    return MEDIUM, f"{c.prog} {said} rewrites the data file{every}, cutting off what it cannot read ({c.text})"
