"""Effect: records deleted by ORM or console code an application's runner executes against its database.

Frameworks run a line of their own language inside the application, with its database connection:
``rails runner``/``gitlab-rails runner``/``rake runner``, ``manage.py shell -c``, ``artisan tinker
--execute``, ``mix run -e``, a release's ``eval``, ``drush php:eval``/``ev``, ``wp eval``, ``bench
execute``, ``hanami runner``, and consoles fed a line (``odoo shell <<< "…"``, ``echo … | rails c``).
``statements`` knows the plainest calls (``.destroy_all``, ``objects.all().delete()``); this reads the
rest of each framework's way of deleting: a block handed the destroy method (``each(&:destroy)``,
``find_each(&:destroy!)``), ``Schema::drop``, Odoo's ``unlink()``, Drupal's and WordPress's delete
functions (``node_delete_multiple``, ``->delete($nodes)``, ``wp_delete_post``), Frappe's
``frappe.db.truncate``/``delete_doc``, Sequel's and Hanami's clears, and SQL that drops, truncates or
deletes written inside the code (``connection.execute("TRUNCATE users")``, ``SQL.query!(Repo, "DROP …")``).

Only code a runner executes is read: the same words in a commit message or a grep stay quiet, and so
do reads (``puts User.count``) and cache clears.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.rules.fed import fed_lines, is_fed
from aish.safety.verb_words import split_word
from aish.safety.verbs import HEAVY, LIGHT_NOUNS

# Deleting calls in the frameworks' own words.
_DELETES = LazyRegex(r"&:(destroy|delete)!?|\.unlink\(\s*\)|Schema::drop(IfExists)?\s*\(|\.drop_all\s*\(|"
                     r"\b(node|user|entity|comment|taxonomy_term|file|wp)_delete(_multiple|_post|_user|_term|"
                     r"_attachment|_comment|_site|_blog)?\s*\(|->delete\(\s*\$|\bfrappe\.(db\.truncate|db\.delete|"
                     r"delete_doc)\b|Repository(\.new)?\.clear\b|\bDB\[[^\]]+\]\.(delete|truncate)\b|"
                     r"\.drop_table\s*\(|\.remove_all\b|\.delete_many\s*\(|\.deleteMany\s*\(|"
                     r"(\)|\bquery|\bobjects)\.delete\(\s*\)|\b[A-Z]\w*\.delete\(\s*\)\.execute\(|::destroy\s*\(|"
                     r"\btruncate\s*:\s*true\b|\.synchronize\(\s*true\s*\)|\.(drop|dropCollection|dropDatabase)\(\s*\)|"
                     r"call_command\(\s*['\"](flush|reset_db|sqlflush)\b|"
                     r"Artisan::call\(\s*['\"](migrate:(fresh|reset|refresh|rollback)|db:wipe)\b|"
                     r"Rake::Task\[\s*['\"]db:(drop|reset|purge|schema:load|truncate_all)\b|"
                     r"DatabaseTasks\.(drop|purge|truncate)\w*|\bknex\([^)]*\)(\.\w+\([^)]*\))*\.(del|truncate)\(",
                     re.IGNORECASE)
# A file object deleted (`new File("/tmp/x").delete()`, `Paths.get(p).toFile().delete()`), not a query's records.
_FILE_DELETE = LazyRegex(r"\b(?:File|Path|Paths\.get|toFile)\s*\([^()]*\)\s*\.delete\(\s*\)")
# SQL that deletes, written inside the code as a string.
_SQL_INSIDE = LazyRegex(r"""["'`]\s*(DROP\s+(TABLE|DATABASE|SCHEMA)|TRUNCATE\b|DELETE\s+FROM\b)""", re.IGNORECASE)
# SQL a console is fed, as its own line.
_FED_SQL = LazyRegex(r"^\s*(DROP\s+(TABLE|DATABASE|SCHEMA)|TRUNCATE\b|DELETE\s+FROM\b)", re.IGNORECASE)
# Words that hand the next argument to the application as code.
_RUNS_CODE = frozenset({"run", "db:seed", "runscript", "runner", "r", "eval", "ev", "php:eval", "php-eval",
                        "execute", "-e", "--execute", "--eval",
                        "-c", "--command", "rpc", "scr", "php:script", "eval-file"})
# Consoles that read code on their standard input.
_CONSOLES = frozenset({"console", "c", "shell", "tinker", "iex", "dbshell"})
# Programs whose arguments are prose or are searched, not run.
_NOT_RUN = frozenset({"git", "hg", "grep", "rg", "ag", "echo", "printf", "sed", "awk", "jj", "gh", "glab"})


_HEADS = _RUNS_CODE | _CONSOLES


@triggered_by(_HEADS, ("--execute=", "--command="), otherwise=False)
def may_run_code(c: Ctx) -> bool:
    """Is a word that hands code to the application among the first words?"""
    if c.prog.lower() in _NOT_RUN:
        return False
    if not _HEADS.isdisjoint(t.lower() for t in c.texts[:4]):
        return True
    low = c.lowered  # one search of the line before a look at every word
    return ("--execute=" in low or "--command=" in low) and \
        any(t.startswith(("--execute=", "--command=")) for t in c.texts)


def rule_console_code(c: Ctx) -> Optional[tuple]:
    """Code a runner executes, or a console is fed, that deletes records or drops tables."""
    head = {t.lower() for t in c.texts[:4]}
    feeder = [w.text.lower() for w in c.chain[-1].words] if c.chain else []
    if "dbshell" in head and set(feeder) & _WRITES_FLUSH:  # `manage.py sqlflush | manage.py dbshell`
        return MEDIUM, f"{c.prog} dbshell runs the statements that empty every table ({c.text})"
    named = _task_named(c, head)
    if named is not None:
        return MEDIUM, f"{c.prog} runs {named}, whose name says it destroys data ({c.text})"
    code = [t.split("=", 1)[1] if t.startswith(("--execute=", "--command=")) else t for t in c.texts] \
        if head & _RUNS_CODE or any(t.startswith(("--execute=", "--command=")) for t in c.texts) else []
    if head & _CONSOLES and is_fed(c):
        code = code + fed_lines(c)  # `odoo shell <<< "…"`, `manage.py dbshell <<< 'DROP TABLE t;'`
    fed = fed_lines(c) if head & _CONSOLES and is_fed(c) else []
    for text in code:
        found = _DELETES.search(text) or _SQL_INSIDE.search(text) or (_FED_SQL.search(text) if text in fed else None)
        if found is not None and found.group(0) == ").delete()" and _FILE_DELETE.search(text):
            continue  # `new File("/tmp/x").delete()`: a file, judged by its path (code_effects), not records
        if found is not None:
            return MEDIUM, f"{c.prog} runs application code that deletes records ({found.group(0).strip()}) " \
                f"({c.text})"
    return None


# Django's commands that print the statements emptying every table.
_WRITES_FLUSH = frozenset({"sqlflush", "sqlclear", "sqlreset"})
# Words of a script's or a seeder's name that say it destroys (`wipe.exs`, `TruncateAllSeeder`).
_DESTROYS = HEAVY | {"purge", "delete_all", "deleteall", "wipeout"}
_TASK_WORDS = frozenset({"runner", "r", "run", "runscript", "db:seed", "eval-file", "scr", "php:script"})


def _task_named(c: Ctx, head: set) -> Optional[str]:
    """A script or class handed to a runner whose name says it destroys (`mix run priv/repo/wipe.exs`, `artisan
    db:seed --class=TruncateAllSeeder`, `rails runner script/purge_all_accounts.rb`)."""
    if not head & _TASK_WORDS:
        return None
    for k, t in enumerate(c.texts):
        name = t.split("=", 1)[1] if t.startswith("--class=") else t
        if name.startswith("-") or k and c.texts[k - 1] not in _TASK_WORDS and not t.startswith("--class="):
            continue
        base = re.sub(r"\.(exs|rb|py|php|js|ts|sh)$", "", name.rsplit("/", 1)[-1])
        words = split_word(base)
        if set(words) & _DESTROYS and not set(words) & LIGHT_NOUNS:
            return name
    return None

