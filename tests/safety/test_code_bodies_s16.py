"""Code bodies read to the end of what they say: a shell command joined to a home expression by the
language's own concatenation (PHP's and Perl's ``.``, Lua's ``..``, ``+``), several pieces long; a Common
Lisp pathname literal (``#p"/srv/data/"``) handed to a delete."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command,at_least", [
    ("php -r 'exec(\"rm -rf \" . getenv(\"HOME\"));'", "high"),
    ("php8.2 -r 'passthru(\"rm -rf \" . getenv(\"HOME\") . \"/projects\");'", "medium"),
    ("lua -e 'os.execute(\"rm -rf \" .. os.getenv(\"HOME\"))'", "high"),
    ("lua5.3 -e 'os.execute(\"rm -rf \" .. os.getenv(\"HOME\") .. \"/work\")'", "medium"),
    ("perl -e 'system(\"rm -rf \" . $ENV{HOME})'", "high"),
    ("sbcl --eval '(uiop:delete-directory-tree #p\"/srv/data/\" :validate t)' --quit", "medium"),
    ("ccl --eval '(uiop:delete-directory-tree #P\"~/\" :validate t)'", "high"),
])
def test_joined_commands_and_pathnames(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "php -r 'system(\"echo \" . getenv(\"HOME\"));'",
    "lua -e 'os.execute(\"ls \" .. os.getenv(\"HOME\"))'",
    "perl -e 'system(\"du -sh \" . $ENV{HOME})'",
    "sbcl --eval '(print (uiop:directory-files #p\"/srv/data/\"))'",
])
def test_their_reads_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
