"""Classic shapes of round 18 read for any program (rules/loop_files.py, records_cleared.py, delete.py's
find -exec chmod, age_reapers.py): one table per mechanism, each failing on the tree before them."""
from __future__ import annotations

from tests.safety.kept import assess


def _flagged(command: str) -> bool:
    verdict = assess(command)
    return verdict is not None and verdict.level in ("medium", "high")


# A loop over files found or globbed whose body empties each one (`: > "$f"`, `> "$f"`).
EACH_EMPTIED = ["while read -r f; do : > \"$f\"; done < <(find /var/www -name '*.php')",
                "find /var/www -name '*.php' | while read -r f; do : > \"$f\"; done",
                "for f in $(find /var/www -name '*.html'); do > \"$f\"; done",
                "for f in /var/log/*.log; do : > \"$f\"; done",
                "find /opt/app -name '*.conf' | while read -r c; do > \"$c\"; done"]
EACH_QUIET = ["find /tmp -name '*.log' | while read f; do : > \"$f\"; done",
              "for f in *.txt; do mv \"$f\" \"${f%.txt}.md\"; done",
              "while read -r f; do md5sum \"$f\"; done < <(find /var/www -name '*.php')",
              "for f in /var/log/*.log; do tail -n 1 \"$f\"; done"]
# The setuid bit stripped from every program under a system root.
SETUID_STRIPPED = ["find / -perm -4000 -exec chmod u-s {} +", "find /usr/bin -perm -4000 -exec chmod u-s {} \\;",
                   "find / -perm /6000 -type f -exec chmod a-s {} +"]
SETUID_QUIET = ["find /home/me/bin -perm -4000 -exec chmod u-s {} +", "find / -perm -4000 -type f",
                "find /usr/bin -perm -4000 -exec ls -l {} +"]
# A reader's own clearing option; an age-based cleaner given seconds.
RECORDS_CLEARED = ["lastlog --clear --user root", "lastlog -C -u alice", "faillog --reset",
                   "tmpreaper --all --force 1s /home/shared", "tmpwatch --all 1s /srv/shared"]
RECORDS_QUIET = ["lastlog", "lastlog --user root", "faillog -u bob", "tmpreaper 240 /tmp",
                 "tmpreaper --test 1s /home/shared"]


def test_a_loop_emptying_each_file_found_is_flagged():
    assert not [c for c in EACH_EMPTIED if not _flagged(c)] + [c for c in EACH_QUIET if _flagged(c)]


def test_setuid_stripped_under_a_system_root_is_flagged():
    assert not [c for c in SETUID_STRIPPED if not _flagged(c)] + [c for c in SETUID_QUIET if _flagged(c)]


def test_records_cleared_by_their_reader_and_reapers_given_seconds_are_flagged():
    assert not [c for c in RECORDS_CLEARED if not _flagged(c)] + [c for c in RECORDS_QUIET if _flagged(c)]
