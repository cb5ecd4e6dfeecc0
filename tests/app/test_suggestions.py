from aish.app import suggestions
from aish.app.suggestions import extract_commands
from tests.safety.forms import each_form


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


# ---------------------------------------------------------------- answers without CMD: lines
from pathlib import Path  # noqa: E402

from aish.app.suggestions import clean_command, removed_note  # noqa: E402

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "answers.txt"


def corpus_cases() -> list[tuple[str, str, list[str]]]:
    cases, name, text, expect, in_expect = [], None, [], [], False
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if line.startswith("=== "):
            if name:
                cases.append((name, "\n".join(text) + "\n", expect))
            name, text, expect, in_expect = line[4:], [], [], False
        elif name is None:
            continue
        elif line == "--- expect":
            in_expect = True
        elif in_expect:
            expect.append(line.replace("%0A", "\n"))
        else:
            text.append(line)
    cases.append((name, "\n".join(text) + "\n", expect))
    # "[crlf]" in a name: the answer arrives with Windows line ends
    return [(n, t.replace("\n", "\r\n") if "[crlf]" in n else t, e) for n, t, e in cases]


@each_form("name, text, expected", corpus_cases())
def test_answer_corpus(name, text, expected):
    assert extract_commands(text) == expected, name


def test_corpus_covers_the_styles():
    names = " ".join(case[0] for case in corpus_cases())
    for style in ("no CMD line", "console", "unlabelled", "numbered steps", "alternatives", "inline code", "prose"):
        assert style in names


def test_invisible_and_bidi_characters_are_removed_and_named():
    command, removed = clean_command("ls\u200b -la\u202e /tmp\ufeff")
    assert command == "ls -la /tmp"
    assert removed == ["U+200B", "U+202E", "U+FEFF"]
    assert "3 invisible or text-direction characters (U+200B, U+202E, U+FEFF)" in removed_note(removed)
    assert clean_command("echo 'héllo wörld'") == ("echo 'héllo wörld'", [])


def test_a_suggestion_seen_before_is_not_read_again(monkeypatch):
    """Taking the commands out of an answer was mostly reading each ``CMD:`` line as the shell
    would (does it end there?); the same suggestion recurs across answers and shells, so a line
    read lately is not read again (issue 26, many shells).  Continued lines still are."""
    read: list = []

    class Counting(suggestions.CommandReader):
        def feed(self, line):
            read.append(line)
            return super().feed(line)

    monkeypatch.setattr(suggestions, "CommandReader", Counting)
    _forget_lines()
    answer = "Stop it:\nCMD: lsof -ti tcp:8080 | xargs kill\n"
    assert suggestions.extract_commands(answer) == suggestions.extract_commands(answer) == \
        ["lsof -ti tcp:8080 | xargs kill"]
    assert read == ["lsof -ti tcp:8080 | xargs kill"]
    looped = "CMD: for f in *.log; do\n  gzip \"$f\"\ndone\n"
    assert suggestions.extract_commands(looped) == suggestions.extract_commands(looped) == \
        ['for f in *.log; do\n  gzip "$f"\ndone']
    _forget_lines()


def _forget_lines() -> None:
    kept = getattr(suggestions, "_read_alone_kept", None)  # (none before lines were kept)
    if kept is not None:
        kept.cache_clear()
