"""The fact store: redacted before it is written, capped, 0600, rendered as `[background]`."""
from __future__ import annotations

import json
import stat

import pytest

from aish.context.memory import HEADER, Memory, parse_summary
from aish.errors import AishError

SECRET = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def test_add_list_forget_and_render(tmp_path):
    memory = Memory(tmp_path)
    assert memory.render() == ""
    memory.add("I use fd,   not find")
    memory.add("prod is eu-west-1")
    memory.add("prod is eu-west-1")  # the same fact twice is kept once
    assert memory.facts() == ["I use fd, not find", "prod is eu-west-1"]
    assert memory.render() == f"{HEADER}\n- (fact) I use fd, not find\n- (fact) prod is eu-west-1"
    assert memory.forget(1) == "I use fd, not find"
    assert memory.facts() == ["prod is eu-west-1"]
    with pytest.raises(AishError, match="no fact 5"):
        memory.forget(5)


def test_a_secret_is_never_written(tmp_path):
    memory = Memory(tmp_path)
    stored = memory.add(f"my github token is {SECRET}")
    raw = (tmp_path / "memory.json").read_text()
    assert SECRET not in raw and SECRET not in stored and "***" in stored
    assert stat.S_IMODE((tmp_path / "memory.json").stat().st_mode) == 0o600


def test_caps_refuse_with_a_hint_and_keep_the_list(tmp_path):
    memory = Memory(tmp_path, max_facts=2, max_chars=100)
    memory.add("one")
    memory.add("two")
    with pytest.raises(AishError, match="memory is full") as err:
        memory.add("three")
    assert "forget" in err.value.hint
    assert memory.facts() == ["one", "two"]
    with pytest.raises(AishError, match="characters"):
        Memory(tmp_path, max_facts=9, max_chars=100).add("x" * 120)


def test_empty_fact_and_broken_file_are_one_line_errors(tmp_path):
    memory = Memory(tmp_path)
    with pytest.raises(AishError, match="nothing to remember"):
        memory.add("   ")
    (tmp_path / "memory.json").write_text("{not json")
    with pytest.raises(AishError, match="cannot read"):
        memory.facts()


def test_replace_and_parse_summary(tmp_path):
    memory = Memory(tmp_path)
    assert memory.replace(["a", "", "- (fact) b", "a"]) == ["a", "b"]
    assert json.loads((tmp_path / "memory.json").read_text()) == {"facts": ["a", "b"]}
    assert parse_summary("Here:\n- uses fd\n-   \n- prod eu-west-1\n") == ["uses fd", "prod eu-west-1"]
