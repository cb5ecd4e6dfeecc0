"""Approval policy and the question text."""
from __future__ import annotations

from aish.mcp import approval
from aish.config.schema import McpConfig
from aish.mcp.tools import McpTool


def _tool(annotations=None, trusted=False) -> McpTool:
    return McpTool(alias="notes", name="read_note", annotations=annotations, trusted=trusted)


def test_everything_needs_approval_by_default():
    assert approval.needs_approval("notes.read_note", _tool(), McpConfig(), set())


def test_auto_approve_exact_and_alias_star():
    def needs(*patterns: str) -> bool:
        return approval.needs_approval("notes.read_note", _tool(), McpConfig(auto_approve=list(patterns)), set())

    assert not needs("notes.read_note")
    assert not needs("notes.*")
    assert needs("notes.write")
    assert needs("note.*", "*")


def test_always_set_approves():
    assert not approval.needs_approval("notes.read_note", _tool(), McpConfig(), {"notes.read_note"})


def test_read_only_needs_opt_in_and_a_trusted_server():
    ro = {"readOnlyHint": True}
    opt_in = McpConfig(auto_approve_read_only_trusted=True)
    assert not approval.needs_approval("notes.read_note", _tool(ro, trusted=True), opt_in, set())
    assert approval.needs_approval("notes.read_note", _tool(ro, trusted=False), opt_in, set())
    assert approval.needs_approval("notes.read_note", _tool(ro, trusted=True), McpConfig(), set())
    writer = _tool({"readOnlyHint": False}, trusted=True)
    assert approval.needs_approval("notes.read_note", writer, opt_in, set())


def test_question_text():
    assert approval.question("notes.read_note", {"name": "todo"}, None) \
        == 'call notes.read_note {"name": "todo"}? [y/N/a]'
    assert approval.question("notes.read_note", {"name": "todo"}, {"readOnlyHint": True}) \
        == 'call notes.read_note {"name": "todo"} (read-only)? [y/N/a]'
    assert approval.question("notes.rm", {"a": 1, "b": [1, 2]}, {"destructiveHint": True}) \
        == 'call notes.rm {"a": 1, "b": [1, 2]} (destructive)? [y/N/a]'


def test_question_cuts_long_arguments_and_escapes_control_characters():
    q = approval.question("notes.write", {"text": "y" * 500}, None)
    assert len(q) < 300 and "(500 characters)" in q
    q = approval.question("notes.write", {"t": "a\u202eb"}, None)
    assert "\u202e" not in q and "\\u202e" in q


def test_interpret():
    assert approval.interpret("y") == "yes"
    assert approval.interpret("a") == "always"
    assert approval.interpret("n") == "no"
    assert approval.interpret(None) == "no"
    assert approval.interpret("") == "no"


def test_the_deciding_argument_is_never_hidden_behind_a_long_one():
    q = approval.question("fs.write_file", {"content": "x" * 5000, "path": "/etc/hosts"}, None)
    assert '"path": "/etc/hosts"' in q and len(q) < 400
    assert "5,000" in q and q.endswith("? [y/N/a/s]")


def test_every_short_argument_is_shown_whole_even_when_many():
    args = {f"k{i}": f"value-{i}" for i in range(12)}
    q = approval.question("fs.many", args, None)
    assert all(f'"k{i}": "value-{i}"' in q for i in range(12))
