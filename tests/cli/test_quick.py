"""The CLI's fast path (``cli/quick.py``): the same words mean the same request as through
click, anything it does not know goes to click, and it loads none of what it does not use."""
from __future__ import annotations

import time

import pytest
from click.testing import CliRunner

from aish.cli import main as cli_main
from aish.cli import printer, quick
from tests.safety.forms import each_form

FORMS = [
    ["ask", "what", "is", "this"],
    ["ask", "--json", "why"],
    ["ask", "-c", "and", "then?"],
    ["ask", "--continue", "--no-stdin", "more"],
    ["ask", "--conv", "work", "hello", "there"],
    ["ask", "--conv=work", "hello"],
    ["ask", "hello", "--json"],
    ["reset"],
    ["status"],
    ["status", "--bogus"],
    ["route", "on"],
    ["cost"],
]


def _capture(monkeypatch) -> list:
    sent: list = []

    def fake_send(kind, **kw):
        sent.append((kind, kw))
        return {}

    monkeypatch.setattr(printer, "send", fake_send)
    monkeypatch.setattr(cli_main, "_send", fake_send)
    monkeypatch.setattr(printer, "stdin_text", lambda no_stdin: f"stdin:{no_stdin}")
    monkeypatch.setattr(cli_main, "stdin_text", lambda no_stdin: f"stdin:{no_stdin}")
    # a new CLI conversation is named by the second it starts in: both paths in the same one
    monkeypatch.setattr(time, "strftime", lambda fmt, *when: "20260101-000000")
    return sent


@pytest.mark.parametrize("argv", FORMS, ids=" ".join)
def test_the_fast_path_sends_what_click_sends(argv, monkeypatch, aish_env):
    sent = _capture(monkeypatch)
    assert quick.run(argv) == 0
    result = CliRunner().invoke(cli_main.cli, argv, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert len(sent) == 2
    assert sent[0] == sent[1]


@each_form("argv", [
    [], ["ask"], ["ask", "--help"], ["ask", "-h", "x"], ["ask", "--", "-x"], ["ask", "-x", "y"],
    ["ask", "--conv"], ["ask", "--conv", "--json", "q"], ["status", "--help"], ["route", "--", "on"],
    ["memory", "list"], ["config", "show"], ["doctor"], ["init", "zsh"], ["--version"], ["nosuch"],
])
def test_anything_else_is_left_to_click(argv):
    assert quick.parse(argv) is None


def test_the_verbs_click_runs_itself_are_left_to_click():
    assert quick._CLICK_ONLY == set(cli_main._CLI_SIDE)
    assert quick.parse(["mcp", "login", "https://example.test/mcp"]) is None


def test_an_error_exits_as_through_click(aish_env, capsys):
    """A bad conversation name: the same one line and exit status on both paths."""
    from aish.cli.outcome import guarded

    argv = ["ask", "--conv", "bad name!", "hi"]
    fast = quick.run(argv), capsys.readouterr().err
    slow = guarded(lambda: cli_main.cli.main(argv, standalone_mode=False)), capsys.readouterr().err
    assert fast == slow
    assert fast[0] != 0 and fast[1].startswith("aish: ") and fast[1].count("\n") == 1
