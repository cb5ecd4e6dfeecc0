"""Many files moved or copied onto one fixed name, in any batch tool's words (rules/onto_one_name.py)."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command", [
    "find . -name '*.log' -exec mv {} /tmp/all.log \\;",
    "find ~/Documents -type f -execdir cp {} ~/merged.txt \\;",
    'fd -e log -x mv {} all.log',
    'ls *.csv | xargs -I F mv F out.csv',
    'find . -name "*.txt" -print0 | xargs -0 -I {} mv {} notes.txt',
    'parallel mv {} merged.csv ::: *.csv',
    "zmv -f '(*).txt' 'all.txt'",
    "zcp '*.jpg' 'photo.jpg'",
    "rename -f 's/.*/all.txt/' *",
])
def test_many_files_onto_one_name_are_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "find . -name '*.log' -exec mv {} /tmp/logs/ \\;",
    "find . -name '*.log' -exec mv {} /tmp/logs \\;",
    "find . -name '*.log' -exec mv {} {}.bak \\;",
    "find . -name '*.log' -exec cp {} /backup/{}.old \\;",
    'fd -e jpg -x convert {} {.}.png',
    'ls *.csv | xargs -I F cp F /backup/',
    'ls | xargs -I F mv F F.bak',
    'ls *.txt | xargs -I F cp F /backup/F',
    'printf "%s\\n" a b | xargs mv -t /backup',
    'parallel gzip {} ::: *.log',
    "zmv '(*).txt' '$1.md'",
    "zmv -W '*.txt' '*.md'",
    "rename 's/\\.jpeg$/.jpg/' *.jpeg",
])
def test_batch_renames_that_keep_each_name_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
