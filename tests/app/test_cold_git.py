"""A cold daemon's first ask in a repository: its ``git status`` runs while the service loads.

The git line of an ask (``git: repo ..., branch ..., clean``) needs one ``git status`` per
refresh, 10-50 ms of another process on a small repository and seconds on a large one.  On
a cold start the question arrives while the daemon still imports its service; the status
starts then, on the other core, and the ask collects it instead of running git again.
"""
from __future__ import annotations

import logging
import os
import subprocess
import threading
import time

from aish.daemon.__main__ import LazyService
from aish.ipc.protocol import Request
from tests.doubles import RecordingReply
from tests.stub_server import Reply, StubServer


def _repo(path):
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t", "HOME": str(path), "PATH": "/usr/bin:/bin"}
    path.mkdir()
    subprocess.run(["git", "-C", str(path), "init", "-q", "-b", "main"], check=True, env=env)
    (path / "a.txt").write_text("a\n")
    subprocess.run(["git", "-C", str(path), "add", "-A"], check=True, env=env)
    subprocess.run(["git", "-C", str(path), "commit", "-qm", "init"], check=True, env=env)


def _counting_git(tmp_path, monkeypatch):
    """``git`` on PATH that notes each run of ``status`` in a file, then runs the real one."""
    real = subprocess.run(["sh", "-c", "command -v git"], capture_output=True, text=True, check=True).stdout.strip()
    bin_dir, marks = tmp_path / "bin", tmp_path / "git-runs"
    bin_dir.mkdir()
    (bin_dir / "git").write_text(f'#!/bin/sh\ncase " $* " in *" status "*) echo run >> "{marks}";; esac\n'
                                 f'exec {real} "$@"\n')
    (bin_dir / "git").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    return marks


def _wait(predicate, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()


def test_the_first_ask_starts_git_status_before_the_service_is_built(config_file, tmp_path, monkeypatch):
    repo = tmp_path / "proj"
    _repo(repo)
    marks = _counting_git(tmp_path, monkeypatch)
    with StubServer(default=Reply(text="hello\n")) as stub:
        config_file(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n')
        lazy = LazyService(logging.getLogger("aish"), start=False)  # the service not built yet
        reply = RecordingReply()
        question = Request(id="q", kind="ask", conv="c", text="hi", cwd=str(repo), env={})
        asking = threading.Thread(target=lazy.handle, args=(question, reply), daemon=True)
        asking.start()
        started = _wait(lambda: marks.exists())
        lazy.start()  # now the service loads, and the ask goes on
        asking.join(60)
        try:
            assert started, "no git status ran while the service was not built"
            assert reply.full_text == "hello\n"
            sent = stub.requests[0]["body"]["messages"][-1]["content"]
            assert f"git: repo {repo}, branch main, clean" in sent
            assert marks.read_text().split() == ["run"]  # the ask took that status, no second run
        finally:
            lazy.close()
