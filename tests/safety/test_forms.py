"""tests/safety/forms.py: a table checked in one case still fails, naming every failing row."""
from __future__ import annotations

import inspect

import pytest

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


def test_every_failing_row_is_named_with_its_verdict_and_what_was_expected():
    @each_form("command,at_least", [
        ("rm -rf ~", "high"),
        ("ls -la", "medium"),          # fails: judged nothing
        ("git status", "high"),        # fails too: all of them are reported, not the first
        ("git push --force origin main", "medium"),
    ])
    def table(command, at_least):
        assert reaches(command, at_least), judged(command)

    with pytest.raises(pytest.fail.Exception) as failed:
        table()
    message = str(failed.value)
    assert message.startswith("2 of 4 forms failed:"), message
    assert "- ('ls -la', 'medium')" in message and "- ('git status', 'high')" in message, message
    assert "'ls -la' -> None" in message, message  # the verdict
    assert "reaches('git status', 'high')" in message, message  # what was expected
    assert "rm -rf" not in message and "push" not in message, message


def test_a_row_that_raises_is_a_failing_row_and_the_others_still_run():
    seen = []

    @each_form("text", ["a", "b", "c"])
    def table(text):
        seen.append(text)
        if text == "b":
            raise KeyError("boom")

    with pytest.raises(pytest.fail.Exception) as failed:
        table()
    assert seen == ["a", "b", "c"]
    assert "1 of 3 forms failed:\n- 'b'\n    KeyError: 'boom'" in str(failed.value)


def test_a_passing_table_passes_and_fixtures_are_passed_through():
    @each_form("command", ["ls", "git log --oneline -3", "cat README.md"])
    def table(tmp_path, command):
        assert tmp_path == "the fixture"
        assert stays_quiet(command), judged(command)

    assert list(inspect.signature(table).parameters) == ["tmp_path"]  # what pytest asks for
    assert table.forms == 3
    table(tmp_path="the fixture")


def test_a_table_that_names_no_argument_of_the_test_or_holds_nothing_is_refused():
    with pytest.raises(TypeError, match="no argument named command"):
        each_form("command", ["ls"])(lambda text: None)
    with pytest.raises(ValueError, match="empty table"):
        each_form("command", [])
