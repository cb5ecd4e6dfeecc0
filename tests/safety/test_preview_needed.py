"""A flagged command the preview can say nothing about is not previewed (issue 26, many shells):
no variable, substitution, home, glob or redirection to expand and no program whose targets are
counted or whose context is read leaves the preview nothing to add, yet it parsed the command
again and the judge asked the shell for its variables first (a round trip to the shell for
every flagged suggestion, ``kill`` over a port's listeners included)."""
from __future__ import annotations

from pathlib import Path

import pytest

from aish.app.judge import judge
from aish.app.model_call import Caller
from aish.ipc.protocol import Request
from aish.safety import preview as preview_mod
from aish.safety.preview import ShellView, may_note, preview
from tests.app.test_ask import Script, make
from tests.doubles import RecordingReply

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


def _commands() -> list:
    lines = []
    for name in ("destructive.txt", "everyday.txt", "answers.txt"):
        for line in (CORPUS / name).read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                lines.append(line.split("] ", 1)[1] if line.startswith("[") else line)
    return lines


def _rich_view(tmp_path) -> ShellView:
    """Every place a preview looks, there: files, directories, a repository, variables."""
    home = tmp_path / "home"
    for where in (tmp_path, home):
        (where / ".git").mkdir(parents=True)
        (where / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
        for name in ("build", "out", "src", "usr", "x"):
            (where / name).mkdir()
            (where / name / "f").write_text("x")
        for name in ("file", "a.log", "data.db", "notes.txt"):
            (where / name).write_text("x")
    env = {"HOME": str(home), "DIR": str(tmp_path / "out"), "AWS_PROFILE": "p", "TF_WORKSPACE": "w",
           "KUBECONFIG": str(home / "kube"), "PATH": "/usr/bin"}
    return ShellView(cwd=str(tmp_path), env=env, complete=True)


def test_a_command_with_nothing_to_preview_is_not_parsed_again(monkeypatch, tmp_path):
    parsed: list = []
    parse = preview_mod.segments
    monkeypatch.setattr(preview_mod, "segments", lambda text: parsed.append(text) or parse(text))
    view = _rich_view(tmp_path)
    assert preview("lsof -ti tcp:8080 | xargs kill", view) is None
    assert parsed == []
    assert preview("rm -rf out", view) is not None and parsed == ["rm -rf out"]


def test_the_shell_is_not_asked_for_its_variables_when_the_preview_needs_none():
    env, session = make(Script())
    reply = RecordingReply(variables={"HOME": "/home/u"})
    req = Request(id="r", kind="ask", text="q", shell="zsh", cwd="/tmp", vars_on_request=True)
    (level, _, shown), = judge(Caller(env, session), ["lsof -ti tcp:8080 | xargs kill"], req, reply)
    assert level == "medium" and shown is None
    assert reply.variables_asked == 0
    (level, _, shown), = judge(Caller(env, session), ['rm -rf "$DIR"/*'], req, reply)
    assert reply.variables_asked == 1 and "would run" in shown  # one that needs them: asked, as before


def test_whatever_may_note_leaves_out_has_no_preview(tmp_path):
    """Over the corpora's commands, in a view where every file and variable a preview reads is
    there: a command ``may_note`` says no to has no preview."""
    view = _rich_view(tmp_path)
    left_out = [command for command in _commands() if not may_note(command)]
    assert len(left_out) > 300  # (most commands have nothing to preview)
    assert [command for command in left_out if preview(command, view) is not None] == []


@pytest.mark.parametrize("command", [
    "r''m -rf out", "\\rm -rf out", "r\\\nm -rf out", "/bin/rm -rf out", "sudo rm -r out", 'command "rm" -r x',
    "echo hi > file", "cat <(ls)", "ls ~", "ls *.log", "echo $DIR", "echo `id`", "git push", "k delete pod x",
    "terraform destroy", "xargs shred -u < list",
])
def test_a_program_or_expansion_the_preview_reads_is_always_previewed(command, tmp_path):
    assert may_note(command)
    if command.startswith(("r", "\\rm", "/bin/rm", "sudo", "echo hi", "git", "terraform")):
        assert preview(command, _rich_view(tmp_path)) is not None
