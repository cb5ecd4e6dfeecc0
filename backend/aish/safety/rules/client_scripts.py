"""Effect: an interactive client's own commands, fed to it as a script or given as one quoted line.

Consoles, debuggers, flashers, WebDAV/FTP shells, BMC and storage admin tools read their own verbs
at a prompt; users feed them a heredoc, a here-string or an ``echo`` (``cadaver URL <<EOF rmcol
nightly``, ``JLinkExe … <<EOF erase``, ``ipmitool … shell <<< 'chassis power off'``) or give the line
as one argument (``mspdebug rf2500 "erase all"``, ``deluge-console "rm --remove_data *"``, ``tool
--batch 'delete pool tank'``).  Each line is judged as if typed after the program's name, by the same
rules and vocabulary that judge any program's subcommands, for every program (a known one too: its
rules read the line).  A quoted argument counts as a line only where it reads as a command: after an
option that takes one, or a verb that destroys first with an option or a scope (``all``, ``*``) after
it; a title, a message or a to-do item (``todo add "delete old files"``) is not a command.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.fed import fed_lines, is_fed
from aish.safety.verb_words import strength
from aish.safety.lazy_regex import lazy

# Options whose value is one of the program's own command lines.
_SCRIPT_OPTIONS = frozenset({"--batch", "-b", "--script", "-s", "-c", "--command", "--cmd", "-cmd", "-q", "--query",
                             "-x", "--exec", "--execute", "-e", "-ex", "--eval", "-C", "--commands", "-command"})
# Words before a quoted line that make it a name, a message or an item, not a command.
_RECORDING = frozenset({"add", "new", "create", "note", "log", "echo", "say", "print", "set", "commit", "send", "post",
                        "msg", "message", "reply", "comment", "title", "search", "find", "grep", "query", "ask",
                        "todo", "task", "remind", "notify", "alias", "label", "tag", "describe", "explain", "help",
                        "append", "write", "edit", "rename", "translate", "speak", "chat", "prompt"})
_SCOPES = frozenset({"all", "*", "everything", "*.*", "-a", "--all"})
_MAX_LINES = 12
_PROSE_OPTIONS = frozenset({"-m", "--message", "--title", "--body", "--description", "--comment", "--subject",
                            "--note", "--notes", "--summary", "--reason", "--label", "--desc", "--prompt", "--shell"})
# Database clients: their lines are statements, read by the SQL rules whole.
_STATEMENT_CLIENTS = re.compile(r"sql|db|mongo|redis|valkey|cqlsh|influx|clickhouse|cypher|gremlin|arangosh|"
                                r"surreal|dolt|neo4j|nebula|janus|orient|hbase|hive|beeline|impala|presto|trino")


_NOT_ACTIONS = frozenset({"quit", "exit", "bye", "open", "connect", "no", "show", "get", "list", "ls", "help"})
_CODE = lazy(r"[(){}=]")


def _line_reads_as_command(line: str, before: str) -> bool:
    """``erase all``, ``rm --remove_data *``: a destroying verb first, then an option or a final scope (``delete
    all docker images`` is a request in words, not a command)."""
    words = line.split()
    if len(words) < 2 or before.lower() in _RECORDING or before in _PROSE_OPTIONS or \
            not re.match(r"^[A-Za-z][\w-]*$", words[0]):
        return False
    verb = words[0].lower()
    return strength(verb) >= 3 and (any(w.startswith("-") for w in words[1:]) or words[-1].lower() in _SCOPES)


def _lines(c: Ctx, known: bool) -> list:
    lines = list(fed_lines(c)) if is_fed(c) else []
    if c.seg.fed_by > 1:  # `(echo erase; echo quit) | tool`: every echo of the group feeds it
        for feeder in c.chain[-8:-1]:
            words = [w.text for w in feeder.words]
            if words[:1] in (["echo"], ["printf"]):
                lines += [" ".join(t for t in words[1:] if not re.fullmatch(r"-[neE]+", t))]
    args = c.args[:32]
    for k, w in enumerate(args):
        before = args[k - 1].text if k else ""
        if not w.quoted or " " not in w.text.strip():
            continue
        if before in _SCRIPT_OPTIONS and before not in _PROSE_OPTIONS or \
                not known and _line_reads_as_command(w.text, before):
            lines += [part.strip() for part in re.split(r"\\n|\n|;", w.text) if part.strip()]
    return lines[:_MAX_LINES]


def rule_client_script(c: Ctx, known: bool, shell: bool = False) -> Optional[tuple]:
    """Each line a client is fed or given whole, judged as if typed after its name (code, statements and
    a negated setting, ``no shutdown``, are other rules' or nothing)."""
    if _STATEMENT_CLIENTS.search(c.prog.lower()):
        return None
    for line in _lines(c, known):
        if not re.match(r"[A-Za-z]", line) or line.split()[0].lower() in _NOT_ACTIONS or _CODE.search(line):
            continue
        if shell:  # `loksh <<EOF …`, `sqsh <<EOF shutdown …`: a shell's lines are commands of their own
            found = c.recurse(line)
            if found is not None and found[0] >= MEDIUM:
                return found[0], f"{found[1]}, fed to {c.prog}"
        words = " ".join(re.sub(r"[\"'`$()<>|&;]", "", w) for w in line.split())
        found = c.recurse(f"{c.prog} {words}")
        if found is not None and found[0] >= MEDIUM:
            return found[0], f"{found[1]}, given to {c.prog} as its own command"
    return None
