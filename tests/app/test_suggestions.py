from aish.app.suggestions import extract_commands


def test_every_cmd_line_in_order_inside_and_outside_fences():
    text = "Try this:\nCMD: ls -la\n```sh\nCMD: du -sh * | sort -h\n```\nor\n  CMD: find . -size +1M\n"
    assert extract_commands(text) == ["ls -la", "du -sh * | sort -h", "find . -size +1M"]


def test_backticks_and_bullets_are_stripped():
    text = "- CMD: `git status`\n`CMD: git log --oneline`\n* CMD: echo 'a `b` c'"
    assert extract_commands(text) == ["git status", "git log --oneline", "echo 'a `b` c'"]


def test_no_command_and_empty_cmd_lines():
    assert extract_commands("Just prose. The CMD: prefix mid-line does not count.") == []
    assert extract_commands("CMD:\nCMD:   \n") == []


def test_mid_sentence_cmd_is_not_a_command_but_line_start_is():
    assert extract_commands("use CMD: rm -rf / never\nCMD: true") == ["true"]
