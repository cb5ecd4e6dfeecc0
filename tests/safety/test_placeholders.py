"""Placeholders in answers (safety/placeholders.py): ``<name>`` is the part the user fills in, not two
redirections. A shell refuses a line whose placeholder's ``>`` has no word after it, so only the filled
reading can run; where the line also parses as redirections, the worse of the two readings stands."""
from __future__ import annotations

from aish.safety.placeholders import filled
from tests.safety.forms import each_form, table_holds
from tests.safety.kept import assess

# Before: `rm -r <directory>` was judged as `rm -r` reading from a file (quiet); `rclone sync … --dry-run` as a
# sync writing to a file named `--dry-run` (medium); `rsync … <dst>/` as a redirection over / (high).
FILLED_IN = (
    ["rm -r <directory>", "rm -rf <dir>", "sudo rm -rf ~/<folder>",
     "rmdir --ignore-fail-on-non-empty <dir> && rm -rf <dir>", "shred -u <file>",
     "dd if=<image> of=/dev/<disk>", "aws s3 rm s3://<bucket>/<key>",
     "sc config <vuln-service> binpath= \"net user backdoor Passw0rd! /add\"",
     "chmod -R 777 <dir>", "find <dir> -type f -delete", "git clean -fdx <path>"],
    ["rclone sync <source> <dest> --dry-run", "rsync -avn --delete <src>/ <dst>/", "kill -9 <PID>",
     "docker logs -f <container>", "git checkout <branch>", "ssh -i <key> <user>@<host>", "cp <src> <dst>",
     "tar czf <archive>.tar.gz <dir>", "kubectl logs <pod> -n <namespace>", "psql -h <host> -U <user> <db>",
     "curl -H \"Authorization: Bearer <token>\" https://api.example.com/v1/me", "echo \"<html>\" > index.html",
     "git log --format=<fmt>", "mkdir -p <dir>/logs"])


def test_placeholders_are_read_as_the_words_they_stand_for():
    table_holds(FILLED_IN)


def test_a_redirection_the_shell_would_run_still_counts():
    # `<in>` then a word: a shell reads `cat < in > /etc/passwd`; both readings are possible, the worse stands
    verdict = assess("cat <in> /etc/passwd")
    assert verdict is not None and verdict.level == "high", verdict


@each_form("text,reading,refused", [
    ("rm -r <directory>", "rm -r directory", True),
    ("rclone sync <source> <dest>", "rclone sync source dest", True),
    ("kill <pid>; echo done", "kill pid; echo done", True),
    ("cat <in> out", "cat in out", False),
    ("aws s3 rm s3://<bucket>/<key>", "aws s3 rm s3://bucket/key", True),
    ("echo '<b>' \"<i>\" <name>", "echo '<b>' \"<i>\" name", True),
])
def test_the_filled_reading(text, reading, refused):
    got = filled(text)
    assert got is not None and (got.text, got.refused) == (reading, refused), got


@each_form("text", ["cat <<EOF\nx\nEOF", "cat <<<\"$x\"", "diff <(ls a) <(ls b)", "echo $((1<<20))", "sort < in > out",
                    "cmd <a>>log", "echo '<html>'", "x=$(<file)", "cmd <&3"])
def test_heredocs_redirections_and_quoted_tags_are_no_placeholders(text):
    assert filled(text) is None, filled(text)


def test_a_redirection_into_a_directory_writes_nothing():
    # `> /` and `> /etc/` fail with "Is a directory": nothing is overwritten (was high: "overwrites /")
    table_holds((["echo x > /etc/passwd", "cat key > /etc/ssh/sshd_config"], ["echo x > /etc/", "cat a >/"]))
