"""Effect: a database statement handed to a program no rule names.

Database clients are many (``dolt sql -q``, ``wrangler d1 execute --command``, ``arangosh
--javascript.execute-string``, an HTTP query API's ``q=``, ``echo flush_all | nc host 11211``),
and what they run is in plain sight: an argument that *is* a statement (it starts with
``DROP``, ``TRUNCATE``, ``DELETE FROM``…, or calls a collection's ``drop()``) is judged by the
SQL rules whatever the program.  Statement text inside a message (``-m``, ``--title``) or
given to a program that only prints it is not run, and is not judged.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.programs import READ_ONLY
from aish.safety.rules.common import HIGH, MEDIUM, Ctx, worst
from aish.safety.rules.content import sql_finding
from aish.safety.rules.fed import fed_lines, is_fed
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

# An argument that is a destructive statement, not text that mentions one.
_STATEMENT = re.compile(
    r"^\s*(?:[\w.]+=)?\s*(?:(?:DROP\s+(?:TABLE|DATABASE|SCHEMA|KEYSPACE|COLLECTION|INDEX|VIEW|USER|ROLE|OWNED|"
    r"MEASUREMENT|SERIES|RETENTION|BUCKET|GRAPH|STREAM|TOPIC|SPACE|TAG|COLUMN|TABLESPACE|NAMESPACE)\b|"
    r"TRUNCATE\b|DELETE\s+FROM\b|"
    r"UPDATE\s+[\w.\"`\[\]]+\s+SET\b|ALTER\s+TABLE\b|FLUSH_?ALL\b|FLUSHDB\b|MATCH\s*\(|"
    r"(?:SCRIPT|FUNCTION)\s+FLUSH\b|RESET\s+(?:MASTER|BINARY\s+LOGS|REPLICA|SLAVE)\b|PURGE\s+(?:BINARY|MASTER)\s+LOGS\b|"
    r"SELECT\s+pg_terminate_backend\s*\(.*\bFROM\s+pg_stat_activity\b).*)$",
    re.IGNORECASE | re.DOTALL)
# Calls on a document store's database object (`db.dropDatabase()`, `db._drop("x")`, `db[c].drop()`), every
# vertex or edge of a graph dropped (Gremlin's `g.V().drop()`).
_DB_CALL = re.compile(r"\bdb(?:\.\w+(?:\([^()]*\))?|\[[^\]]*\])*\.(?:_?drop\w*|deleteMany|remove|_truncate|truncate|"
                      r"shutdownServer)\s*\(|\b(?:rs\.remove|sh\.removeShard)\s*\(|\bg\.[VE]\s*\(\s*\)\.drop\s*\(|"
                      r"\badminCommand\s*\(\s*\{\s*['\"]?(shutdown|dropDatabase|dropAllUsersFromDatabase)\b")
# Statements that empty what a server keeps or end its sessions (no SQL rule names them).
_SERVER_RESETS = lazy(r"^\s*(?:(?:SCRIPT|FUNCTION)\s+FLUSH|RESET\s+(?:MASTER|BINARY|REPLICA|SLAVE)|"
                      r"PURGE\s+(?:BINARY|MASTER)\s+LOGS|SELECT\s+pg_terminate_backend)\b", re.IGNORECASE)
# A query language's statement that empties the whole store, written in capitals as a statement is (`gsql 'DROP ALL'`,
# `CLEAR GRAPH STORE -HARD`, SPARQL's `CLEAR ALL`, `DELETE EVERYTHING`): not prose that mentions dropping all of it.
_EVERYTHING = re.compile(r"^\s*(?:DROP|CLEAR|DELETE|PURGE|REMOVE|WIPE|TRUNCATE)\s+(?:ALL|EVERYTHING|DEFAULT|"
                         r"(?:GRAPH\s+)?STORE)(?:\s+-?[A-Z_]+)*\s*;?\s*$")
# A data store's command given as separate words (`redis-cli SCRIPT FLUSH`).
_SPLIT_COMMAND = lazy(r"^(SCRIPT|FUNCTION)\s+FLUSH\b|^CLUSTER\s+RESET\b|^ACL\s+DELUSER\b", re.IGNORECASE)
# Options whose value is prose for people, not a statement for a program.
_PROSE = {"-m", "--message", "--title", "-t", "--body", "-b", "--description", "-d", "--comment", "--subject",
          "-s", "--note", "--notes", "--summary", "--reason", "--label"}
_MESSAGE = {"-m", "--message", "--title", "--comment", "--subject", "--note", "--summary", "--reason"}
_NOT_RUN = READ_ONLY | {"git", "hg", "svn", "jj", "gh", "glab", "sed", "perl", "tee", "xclip", "xsel", "pbcopy",
                        "wl-copy", "notify-send", "say", "espeak", "zenity", "kdialog", "logger", "wall", "write"}
# Programs that run the text they are fed (`echo flush_all | nc localhost 11211`).
_STDIN_CLIENT = re.compile(r"^(nc|ncat|netcat|socat|telnet|openssl)$|sql|db|mongo|redis|valkey|cqlsh|influx|"
                           r"clickhouse|arangosh|cypher|surreal|dolt|memcach|console|gremlin|graph|neo4j|nebula|kuzu|"
                           r"orient|janus")


# Code handed to a framework's runner that deletes records (`rails runner "User.destroy_all"`,
# `manage.py shell -c "Order.objects.all().delete()"`, `tinker --execute "DB::table('t')->delete()"`).
_ORM_DELETE = re.compile(r"(?<=[\w)\]])\.(?:destroy_all|delete_all|really_destroy!|destroy!?|truncate)\b(?!\w)|"
                         r"\bobjects(?:\.all\(\)|\.filter\([^)]*\))?\.delete\(\)|->(?:delete|truncate|forceDelete)\(\)|"
                         r"::truncate\(\)|\.drop_table\b|\.remove\(\{\s*\}\)")
_GENERATED = lazy(r"\bSELECT\b.{0,200}?['\"]\s*(DROP\s+(?:TABLE|DATABASE|SCHEMA|VIEW|INDEX|USER)|TRUNCATE|"
                  r"DELETE\s+FROM)\b", re.IGNORECASE | re.DOTALL)


# A request body: JSON strings that are statements (`{"sql": "DROP …"}`, `["DELETE FROM t"]`), a search index's
# delete request (`{"delete": {"query": "*:*"}}`, `<delete><query>*:*</query></delete>`), a switch that deletes
# everything (`{"drop_all": true}`).
_JSON_STRING = lazy(r'"((?:[^"\\]|\\.){4,2000})"')
_KEY_BEFORE = lazy(r'"(\w+)"\s*:\s*$')
_PROSE_KEYS = frozenset({"text", "message", "msg", "title", "body", "description", "content", "comment", "summary",
                         "subject", "note", "notes", "markdown", "html", "caption", "label", "name"})
_INDEX_DELETE = lazy(r'"delete"\s*:\s*[{\[]|<delete>', re.IGNORECASE)
_MATCH_ALL = lazy(r"\*:\*|match_all")
_ACTION_VALUE = lazy(r'"(?:action|operation|op|cmd|command)"\s*:\s*"(delete|purge|drop|wipe|destroy|truncate|'
                     r'remove|erase|delete_all|purge_all|drop_all)"', re.IGNORECASE)
_DROP_SWITCH = lazy(r'"(?:drop|delete|purge|wipe|truncate|destroy|erase)[_-]?(?:all|everything|data|'
                    r'databases?|tables?)?"\s*:\s*(?:true|1|"yes")', re.IGNORECASE)


def _cypher_read(statement: str) -> bool:
    """Cypher's ``MATCH (n) RETURN count(n)``: a read; ``MATCH (n) DETACH DELETE n`` and ``SET``/``REMOVE`` write."""
    return re.match(r"\s*MATCH\s*\(", statement, re.IGNORECASE) is not None and \
        re.search(r"\b(DELETE|REMOVE|SET)\b", statement, re.IGNORECASE) is None


def _body(text: str, c: Ctx) -> Optional[tuple]:
    """What a JSON or XML request body asks the server to delete."""
    best = None
    for m in _JSON_STRING.finditer(text[:20000]):
        key = _KEY_BEFORE.search(text, max(0, m.start() - 40), m.start())
        if key is not None and key.group(1).lower() in _PROSE_KEYS:
            continue  # `{"text": "DELETE FROM users ran"}`: a message about a statement
        value = m.group(1).replace('\\"', '"')
        if (_STATEMENT.match(value) and not _cypher_read(value)) or _DB_CALL.search(value):
            best = worst(best, sql_finding(value, c.text) or
                         (MEDIUM, f"{c.prog} sends a statement that deletes data ({c.text})"))
    if best is None and _INDEX_DELETE.search(text):
        wide = bool(_MATCH_ALL.search(text))
        best = (HIGH if wide else MEDIUM), f"{c.prog} sends a delete request{' for every document' if wide else ''}" \
            f" ({c.text})"
    switch = (_DROP_SWITCH.search(text) or _ACTION_VALUE.search(text)) if best is None else None
    if switch is not None:
        best = MEDIUM, f"{c.prog} sends a request that deletes data ({switch.group(0)}) ({c.text})"
    return best


@triggered_by("{", "[", "<", _STATEMENT, _DB_CALL, _ORM_DELETE, _STDIN_CLIENT, "all", "everything", "default", "store")
def rule_statement_argument(c: Ctx) -> Optional[tuple]:
    """Judge an argument (or text piped in) that is a destructive database statement."""
    if c.prog in _NOT_RUN:
        return None
    best = None
    texts = c.texts
    for k, t in enumerate(texts):
        if t[:1] in ("{", "[", "<") and not (k and texts[k - 1] in _MESSAGE):
            best = worst(best, _body(t, c))  # a request body (`curl -d '{"sql": …}'`)
            continue
        if k and texts[k - 1] in _PROSE or t.startswith("-") and "=" not in t:
            continue
        statement = t.split("=", 1)[1] if t.startswith("-") else t
        if (_STATEMENT.match(statement) and not _cypher_read(statement)) or _DB_CALL.search(statement):
            call = _DB_CALL.search(statement)
            found = sql_finding(statement, c.text)
            if found is None and call is not None:
                said = call.group(0).rstrip("( ")
                found = MEDIUM, f"{c.prog} calls {said}: it drops or stops the database ({c.text})"
            elif found is None and _SERVER_RESETS.match(statement):  # `RESET MASTER`: what the SQL rules do not name
                said = " ".join(statement.split()[:2])
                found = MEDIUM, f"{c.prog} runs {said}: it deletes what the server keeps or ends its sessions " \
                    f"({c.text})"
            best = worst(best, found)
        elif _EVERYTHING.match(statement):
            said = " ".join(statement.split()[:2])
            best = worst(best, (HIGH, f"{c.prog} runs {said}: the store's graphs, tables or records go ({c.text})"))
        elif (orm := _ORM_DELETE.search(statement)) is not None:
            best = worst(best, (MEDIUM, f"{c.prog} runs code that deletes records ({orm.group(0)}) ({c.text})"))
    client = best is None and bool(_STDIN_CLIENT.search(c.prog.lower()))  # read once, asked three times
    if client and len(texts) > 1:
        for k in range(min(len(texts) - 1, 6)):  # `redis-cli -h cache SCRIPT FLUSH`: the words are the command
            joined = " ".join(texts[k:])
            if not texts[k].startswith("-") and _SPLIT_COMMAND.match(joined):
                said = " ".join(texts[k:k + 2])
                return MEDIUM, f"{c.prog} runs {said}: it deletes what the server keeps ({c.text})"
    if client:
        for feeder in c.chain[-1:]:
            query = " ".join(w.text for w in feeder.words[1:])
            m = _GENERATED.search(query)
            if m:  # `psql -Atc "SELECT 'DROP TABLE ' || tablename …" | psql`: the query writes the statements
                return HIGH, f"runs the {m.group(1).upper()} statements the query before it writes ({c.text})"
    if client and is_fed(c):
        for fed in fed_lines(c):  # `echo 'DROP …' | psql`, `cqlsh <<< "DROP KEYSPACE x"`, a heredoc
            if _STATEMENT.match(fed) or _DB_CALL.search(fed):
                best = worst(best, sql_finding(fed, c.text))
    return best
