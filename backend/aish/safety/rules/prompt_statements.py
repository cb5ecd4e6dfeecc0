"""Effect: a database statement typed at a client's prompt, given as a line of its own.

Manuals of database shells (SQL consoles, HBase, InfluxQL, cloud warehouses) show their
statements bare: ``DROP SEQUENCE ids;``, ``drop 'events'``, ``TRUNCATE orders;``.  Such a line
is the statement, whatever object kind it names, so it is judged as SQL.  ``truncate`` with no
option at all is not coreutils' (which needs ``-s`` or ``-r``) but SQL's: every row goes.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.content import sql_finding

# Words that begin a statement that destroys, typed at a prompt.
PROMPT_WORDS = frozenset({"drop", "truncate", "delete", "update", "alter", "flushall", "flushdb"})
# `DROP <kind> [IF EXISTS] name …`: any kind a database has (a sequence, a stage, a measurement).
_DROP = re.compile(r"^drop\s+([a-z_]+\s+){1,3}(if\s+exists\s+)?[\w.\"`\[\]$-]+(\s*,.*|\s+\w+.*)?;?$",
                   re.IGNORECASE | re.DOTALL)
_QUOTED = re.compile(r"^['\"]\w[^'\"]*['\"]$")  # HBase's `drop 'events'`: a table named right after the verb
_STATEMENT = re.compile(r"^(drop\s+(table|database|schema|index|view|user|collection|keyspace)|truncate\s+table|"
                        r"delete\s+from|update\s+\S+\s+set|alter\s+table|flushall|flushdb)\b", re.IGNORECASE)
# A shell program named `drop` or `update` takes paths and options, not object kinds.
_NOT_SQL = re.compile(r"(^|\s)(-\S|[~/.]\S*/)")


def rule_prompt_statement(c: Ctx) -> Optional[tuple]:
    """``DROP SEQUENCE ids;``, ``drop 'events'``, ``TRUNCATE orders;``, ``drop table users`` at a prompt."""
    line = " ".join(w.text for w in c.words)
    if _STATEMENT.match(line):
        return sql_finding(line, c.text)
    word = c.prog.lower()
    if word == "truncate" and c.texts and not any(t.startswith("-") for t in c.texts):
        return HIGH, f"TRUNCATE empties the table {c.texts[-1].rstrip(';')}: every row goes ({c.text})"
    if word != "drop" or _NOT_SQL.search(" ".join(c.texts)):
        return None
    if _DROP.match(line):
        return sql_finding(line, c.text)
    if len(c.args) == 1 and _QUOTED.match(c.args[0].raw):
        return MEDIUM, f"drop removes the table {c.args[0].raw} and what it holds ({c.text})"
    return None
