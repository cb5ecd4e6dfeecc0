"""The line reader that decides where a command ends, as a shell does."""
from __future__ import annotations

from aish.safety.shell_input import CommandReader
from tests.safety.forms import each_form


def read(text: str) -> tuple[bool, str]:
    reader = CommandReader()
    for line in text.split("\n"):
        reader.feed(line)
    return reader.complete, reader.command()


@each_form("text", [
    "ls", "echo $((1<<20))", "cat <<< word", "echo 'a # b' # c \\", "f() { echo; }", "x=$(date)",
    "cat <<EOF\nbody\nEOF", "if true; then\n  echo\nfi", "a |\n\n  b", "(( i = 1 << 2 ))",
    "case x in\n (a) echo ;;\nesac", "echo \"$(cat <<EOF\nx\nEOF\n)\"",
])
def test_complete(text):
    assert read(text)[0], text


@each_form("text", [
    "ls \\", "echo 'open", "cat <<EOF\nbody", "for x in a; do", "ls &&", "ls |", "{ echo", "echo $(date",
    "echo \"a \\", "while true\ndo",
])
def test_incomplete(text):
    assert not read(text)[0], text


def test_continuations_join_as_the_shell_joins_them():
    assert read("rm -rf ./cache \\\n  > /dev/null")[1] == "rm -rf ./cache > /dev/null"
    assert read("echo a\\\nb")[1] == "echo ab"
    assert read('echo "a \\\n  b"')[1] == 'echo "a   b"'
    assert read("echo 'a \\\nb'")[1] == "echo 'a \\\nb'"
    assert read("cat <<EOF\nx \\\ny\nEOF")[1] == "cat <<EOF\nx \\\ny\nEOF"
