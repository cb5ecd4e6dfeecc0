"""Effect: a statement or command typed at a data store's prompt, given as a line of its own.

Manuals of database shells (SQL consoles, HBase, InfluxQL, cloud warehouses), key-value
stores, coordination services and HTTP consoles show what is typed there bare:
``DROP SEQUENCE ids;``, ``drop 'events'``, ``TRUNCATE orders;``, ``DEL session:42``,
``delete /config/app``, ``DELETE /orders-2024``, ``MATCH (n) DELETE n``.  Such a line is the
statement, whatever object kind it names: SQL is judged as SQL, and a store's own delete of a
key, a node, an index or a path is medium (high on every one: ``DELETE _all``).  ``truncate``
with no option at all is not coreutils' (which needs ``-s`` or ``-r``) but SQL's: every row goes.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.content import sql_finding
from aish.safety.lazy_regex import lazy

# A key-value store's deletes, as its manuals spell them (in capitals: lower case, `unlink` is coreutils').
_KEY_DELETES = frozenset({"DEL", "UNLINK", "SREM", "ZREM", "HDEL", "XDEL", "LREM", "GETDEL", "JSON.DEL"})
# Words no shell program has, that begin a delete at a store's prompt (ZooKeeper's `delete`, `rmr`; an HTTP
# console's `DELETE /index`; Cypher's `MATCH … DELETE`).
_STORE_WORDS = frozenset({"delete", "rmr", "match"})
# Verbs no shell program is named for, that begin a line at a manager's prompt (a VM shell's `destroy web01`,
# a queue console's `purge queue orders`, Perforce's `obliterate`; `erase`, also cmd's, is read both ways).
_VERB_LINES = frozenset({"destroy", "purge", "remove", "obliterate", "nuke", "terminate", "deprovision",
                         "decommission", "expunge", "erase"})
# Words that begin a statement that destroys, typed at a prompt.
PROMPT_WORDS = frozenset({"drop", "truncate", "delete", "update", "alter", "flushall", "flushdb", "clean",
                          "format"}) | _STORE_WORDS | {w.lower() for w in _KEY_DELETES} | _VERB_LINES
# `DROP <kind> [IF EXISTS] name …`: any kind a database has (a sequence, a stage, a measurement).
_DROP = lazy(r"^drop\s+([a-z_]+\s+){1,3}(if\s+exists\s+)?[\w.\"`\[\]$-]+(\s*,.*|\s+\w+.*)?;?$",
             re.IGNORECASE | re.DOTALL)
_QUOTED = lazy(r"^['\"]\w[^'\"]*['\"]$")  # HBase's `drop 'events'`: a table named right after the verb
_STATEMENT = lazy(r"^(drop\s+(table|database|schema|index|view|user|collection|keyspace)|truncate\s+table|"
                  r"delete\s+from|update\s+\S+\s+set|alter\s+table|flushall|flushdb)\b", re.IGNORECASE)
# A shell program named `drop` or `update` takes paths and options, not object kinds.
_NOT_SQL = lazy(r"(^|\s)(-\S|[~/.]\S*/)")
_EVERY = {"_all", "*", "/*", "_all/"}
_KEY = lazy(r"^[\w:{}.@#|-]+$")  # a key, not a Windows path (`DEL C:\x`, `DEL /?`, `DEL *.tmp`)


def rule_prompt_statement(c: Ctx) -> Optional[tuple]:
    """``DROP SEQUENCE ids;``, ``drop 'events'``, ``TRUNCATE orders;``, ``DEL k``, ``delete /app`` at a prompt."""
    line = " ".join(w.text for w in c.words)
    if _STATEMENT.match(line):
        return sql_finding(line, c.text)
    word = c.prog.lower()
    if word == "truncate" and c.texts and not any(t.startswith("-") for t in c.texts):
        return HIGH, f"TRUNCATE empties the table {c.texts[-1].rstrip(';')}: every row goes ({c.text})"
    if c.prog in _KEY_DELETES:
        keys = c.texts[1:] if c.prog in ("SREM", "ZREM", "HDEL", "LREM", "XDEL") else c.texts
        if keys and all(_KEY.match(k) and not re.fullmatch(r"\w+\.\w{1,4}", k) for k in c.texts):
            return MEDIUM, f"{c.prog} deletes {keys[0]} from the store it is typed at ({c.text})"
        return None
    if word in _VERB_LINES:
        return _verb_line(c)
    partitioner = _partitioner_line(c, word)
    if partitioner is not None:
        return partitioner
    if word in _STORE_WORDS:
        return _store_delete(c, word, line)
    if word != "drop" or _NOT_SQL.search(" ".join(c.texts)):
        return None
    if _DROP.match(line):
        return sql_finding(line, c.text)
    if len(c.args) == 1 and _QUOTED.match(c.args[0].raw):
        return MEDIUM, f"drop removes the table {c.args[0].raw} and what it holds ({c.text})"
    return None


def _verb_line(c: Ctx) -> Optional[tuple]:
    """``destroy web01``, ``purge queue orders`` typed at a manager's prompt: judged as that verb after any
    program's name, so what it acts on decides (``remove package htop`` stays quiet)."""
    if "/" in c.words[0].text or "\\" in c.words[0].text or not c.texts or c.texts[0].startswith("-"):
        return None
    if c.prog.lower() == "erase" and any("\\" in w.raw or "." in w.text or "*" in w.text for w in c.args):
        return None  # cmd's `erase tmp\\notes.txt`, `erase *.bak`: files, judged as `del` judges them
    found = c.recurse(" ".join([_AT_PROMPT, c.words[0].text.lower()] + [w.raw for w in c.args]))
    if found is None or found[0] < MEDIUM:
        return None
    return found[0], found[1].replace(f"{_AT_PROMPT} ", "")


_AT_PROMPT = "console"  # a program name no rule knows: the vocabulary reads the verb after it


def _partitioner_line(c: Ctx, word: str) -> Optional[tuple]:
    """A disk partitioner's prompt (DISKPART): ``clean [all]``, ``delete partition|volume|disk``,
    ``format fs=ntfs quick`` erase the disk or volume selected before.  Typed, not run from a path."""
    if "/" in c.words[0].text or "\\" in c.words[0].text:
        return None
    texts = [t.lower() for t in c.texts]
    if word == "clean" and texts in ([], ["all"]):
        return HIGH, f"clean erases the selected disk's partitions{' and overwrites every sector' if texts else ''} " \
                     f"({c.text})"
    if word == "delete" and texts[:1] and texts[0] in _PARTITIONER_OBJECTS and len(texts) <= 3:
        return HIGH, f"delete {texts[0]} removes the selected {texts[0]} and what it holds ({c.text})"
    if word == "format" and any(t.startswith("fs=") for t in texts):
        return HIGH, f"format writes a new empty filesystem over the selected volume ({c.text})"
    return None


_PARTITIONER_OBJECTS = {"partition", "volume", "disk", "part", "vol"}


def _store_delete(c: Ctx, word: str, line: str) -> Optional[tuple]:
    """ZooKeeper's ``delete /node`` and ``rmr /node``, an HTTP console's ``DELETE /index``, Cypher's
    ``MATCH (n) DELETE n``."""
    if word == "match":
        m = re.search(r"\b(DETACH\s+)?DELETE\s+\w", line, re.IGNORECASE)
        return (MEDIUM, f"MATCH … DELETE deletes every node or relation the pattern matches ({c.text})") if m else None
    operands = [t for t in c.texts if not t.startswith("-")]
    if len(operands) != 1 or len(c.texts) > 2:
        return None
    what = operands[0]
    if what in _EVERY or what == "/":
        return HIGH, f"{c.prog} {what} deletes every index or node of the store it is typed at ({c.text})"
    if not re.match(r"^/?[\w.*-]+(/[\w.*{}-]*)*/?$", what):
        return None
    return MEDIUM, f"{c.prog} deletes {what} in the store it is typed at ({c.text})"
