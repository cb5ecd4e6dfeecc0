"""Fixes drafted in the background after a failure, replayed by the fix key."""
from __future__ import annotations

import os
import stat

from aish.app import fix
from aish.app import service as service_mod
from aish.config.load import from_dict
from aish.ipc.protocol import HistoryEntry, Request
from tests.doubles import RecordingReply
from aish.llm.events import AskResult
from tests.stub_server import Reply, StubServer

FAILED = [HistoryEntry("ls /definitely-missing", 2, 3)]


def req(mode, status=2, history=FAILED, conv="z1"):
    return Request(kind="prepare" if mode == "prepare" else "ask", mode=mode, conv=conv, status=status,
                   history=list(history), shell="zsh")


def model(url, **extra):
    lines = "".join(f"{k} = {v}\n" for k, v in extra.items())
    return f'[models.fast]\nendpoint = "{url}"\nmodel = "m"\n{lines}'


def test_draft_is_ready_with_a_marker_and_the_fix_key_replays_it_without_a_model_call(config_file):
    svc = service_mod.Service()
    with StubServer(default=Reply(text="Path is wrong.\nCMD: ls /tmp\n")) as stub:
        config_file(model(stub.url))
        assert svc.handle(req("prepare"), RecordingReply()).text == "ready"
        marker = svc.drafts.marker("z1")
        assert stat.S_IMODE(os.stat(marker).st_mode) == 0o600
        assert "fix it" in stub.requests[0]["body"]["messages"][-1]["content"].lower()
        reply = RecordingReply()
        result = svc.handle(req("fix"), reply)
        assert len(stub.requests) == 1  # no second model call
    assert result.commands == ["ls /tmp"] and reply.commands[0][0] == "ls /tmp"
    assert reply.statuses[0] == "fix drafted in the background by fast"
    assert not marker.exists()
    turns = svc.session("z1").conversation.turns
    assert [t.role for t in turns] == ["user", "assistant"] and "exit 2" in turns[0].content


def test_a_draft_for_another_command_is_not_used(config_file):
    svc = service_mod.Service()
    with StubServer(default=Reply(text="CMD: ls /tmp\n")) as stub:
        config_file(model(stub.url))
        svc.handle(req("prepare"), RecordingReply())
        later = [*FAILED, HistoryEntry("make", 1, 5)]
        svc.handle(req("fix", status=1, history=later), RecordingReply())
        assert len(stub.requests) == 2


def test_cloud_model_is_never_drafted_unless_always(config_file):
    svc = service_mod.Service()
    with StubServer(default=Reply(text="CMD: ls\n")) as stub:
        config_file(model(stub.url, local="false"))
        assert svc.handle(req("prepare"), RecordingReply()).text == "not allowed"
        config_file(model(stub.url, local="false") + '[fix]\nprepare = "always"\n')
        assert svc.handle(req("prepare"), RecordingReply()).text == "ready"
        config_file(model(stub.url) + '[fix]\nprepare = "off"\n')
        assert svc.handle(req("prepare"), RecordingReply()).text == "not allowed"
        assert svc.handle(req("prepare", status=0), RecordingReply()).text == "not allowed"


def test_never_while_another_answer_streams_and_a_question_cancels_a_draft(tmp_path):
    cfg = from_dict({"models": {"fast": {"endpoint": "http://127.0.0.1:9", "model": "m"}}})
    drafts = fix.Drafts(lambda: tmp_path)
    drafts.user_answer_starts()
    assert drafts.prepare(cfg, req("prepare"), lambda r, rep: pytest_fail(), None) == "busy"
    drafts.user_answer_ends()

    def run(r, reply):
        drafts.user_answer_starts()  # the user asks something while the draft streams
        assert reply.cancel.cancelled
        return AskResult(text="partial"), "q"

    assert drafts.prepare(cfg, req("prepare"), run, None) == "cancelled"
    assert drafts.take(req("fix")) is None and not drafts.marker("z1").exists()


def pytest_fail():
    raise AssertionError("a draft must not start while an answer streams")
