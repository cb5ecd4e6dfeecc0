"""Explaining the command on the prompt line, piece by piece, without changing it."""
from __future__ import annotations

from aish.app.explain import explain_messages, split_pieces


def test_pieces_follow_the_shell_grammar():
    command = "tar -xzf a.tgz | grep -v \"x y\" > out.txt 2>&1 && echo $(date +%F); ls"
    assert split_pieces(command) == ["tar", "-xzf", "a.tgz", "|", "grep", "-v", '"x y"', "> out.txt",
                                     "2>&1", "&&", "echo", "$(date +%F)", ";", "ls"]


def test_pieces_of_a_broken_line_are_best_effort():
    assert split_pieces("echo 'unbalanced") == ["echo", "'unbalanced"]
    assert split_pieces("") == []


def test_messages_ask_for_pieces_and_forbid_suggestions():
    messages = explain_messages("find . -name '*.py' -delete", "zsh")
    assert [m["role"] for m in messages] == ["system", "user"]
    system, user = messages[0]["content"], messages[1]["content"]
    assert "zsh" in system and "piece by piece" in system
    assert "CMD:" in system and "Do not suggest" in system
    assert "find . -name '*.py' -delete" in user
    assert "- -delete" in user and "- '*.py'" in user


def test_unknown_shell_is_named_generically():
    assert "shell" in explain_messages("ls", "fish")[0]["content"]
    assert "fish" not in explain_messages("ls", "fish")[0]["content"]
