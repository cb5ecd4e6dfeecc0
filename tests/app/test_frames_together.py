"""An answer whose events arrived together is written to the shell together (issue 26, many
shells): one text frame for every text event already received, where each event was a write
to the shell's FIFO (and a wake-up of the shell) of its own."""
from __future__ import annotations

from aish.app import after_answer
from tests.in_process import InProcessDaemon
from tests.stub_server import Reply

ANSWER = "Use lsof to find it, then stop it.\nCMD: lsof -ti tcp:8080 | xargs kill\n"


def test_text_events_received_together_are_one_text_frame(stub, monkeypatch):
    monkeypatch.setattr(after_answer, "in_background", lambda *a, **k: None)
    stub.default = Reply(text=ANSWER, chunk_size=8, together=True)  # 9 text events, one write
    outcome = InProcessDaemon("together").ok("ask", "which process holds port 8080?")
    assert outcome.reply.texts == [ANSWER]
    assert outcome.commands == ["lsof -ti tcp:8080 | xargs kill"]


def test_a_secret_restored_across_events_received_together_is_whole(stub, monkeypatch):
    """The placeholder the model echoes, cut across events, comes back as the value."""
    monkeypatch.setattr(after_answer, "in_background", lambda *a, **k: None)
    stub.default = Reply(text="Run: export TOKEN=<secret:1> now", chunk_size=3, together=True)
    daemon = InProcessDaemon("restore")
    outcome = daemon.ok("ask", "set TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789 please")
    assert "ghp_abcdefghijklmnopqrstuvwxyz0123456789" in "".join(outcome.reply.texts)
    assert len(outcome.reply.texts) == 1
