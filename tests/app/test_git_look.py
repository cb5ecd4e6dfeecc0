"""One ask looks at its repository's ``.git`` once (issue 26, many shells): the project root's
walk finds it, and the git line reuses that finding instead of looking again."""
from __future__ import annotations

import os

from aish.app import service as service_mod
from aish.ipc.protocol import Request
from tests.app.test_cold_git import _repo
from tests.doubles import RecordingReply
from tests.stub_server import Reply, StubServer


def test_one_ask_stats_dot_git_once(config_file, tmp_path, monkeypatch, after_answers):
    repo = tmp_path / "repo"
    _repo(repo)
    deep = repo / "src" / "app"
    deep.mkdir(parents=True)
    with StubServer(default=Reply(text="ok")) as stub:
        config_file(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\nlocal = false\n')
        svc = service_mod.Service()
        svc.handle(Request(kind="ask", text="warm", conv="g", cwd=str(deep)), RecordingReply())
        after_answers.wait()
        looks: list[str] = []
        real_stat = os.stat

        def counting_stat(path, *args, **kwargs):
            if os.fspath(path).endswith(os.sep + ".git"):
                looks.append(os.fspath(path))
            return real_stat(path, *args, **kwargs)

        monkeypatch.setattr(os, "stat", counting_stat)
        reply = RecordingReply()
        svc.handle(Request(kind="ask", text="where am I", conv="g", cwd=str(deep)), reply)
        after_answers.wait()
        monkeypatch.undo()
    assert looks == [str(repo / ".git")], looks
    assert "git: repo" in str(stub.requests[-1]["body"]["messages"])  # the git line is still sent
