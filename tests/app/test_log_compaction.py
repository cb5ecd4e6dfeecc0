"""The session log stays short while the daemon runs (a snapshot plus a tail), so reloading a
conversation is bounded whatever its age (issue 26); and a compacted log, like the appended
one, never holds a secret in clear."""
from __future__ import annotations

from aish.app import after_answer
from aish.app import service as service_mod
from aish.ipc.protocol import Request
from tests.doubles import AfterAnswers, RecordingReply
from tests.stub_server import Reply, StubServer

SECRET = "sk-proj-" + "Qw7" * 16


def ask(svc, text, conv):
    svc.handle(Request(kind="ask", text=text, conv=conv), RecordingReply())


def test_a_log_compacted_while_the_daemon_runs_holds_no_secret(config_file, monkeypatch):
    """The turns in memory are as typed; their snapshot is redacted as each appended line is."""
    monkeypatch.setattr(after_answer, "COMPACT_TAIL", 3)
    after = AfterAnswers(monkeypatch)
    with StubServer(default=Reply(text="ok")) as stub:
        config_file(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n')
        svc = service_mod.Service()
        ask(svc, f"why is OPENAI_API_KEY={SECRET} rejected", "s")
        after.wait()
        ask(svc, "and now?", "s")
        after.wait()
    log = svc.session("s").log.path.read_text()
    assert svc.session("s").log.appended < 3  # it was rewritten
    assert SECRET not in log and "OPENAI_API_KEY=" in log


def test_the_log_is_compacted_while_the_daemon_runs(config_file, monkeypatch):
    monkeypatch.setattr(after_answer, "COMPACT_TAIL", 12)
    settled = AfterAnswers(monkeypatch)
    with StubServer(default=Reply(text="ok")) as stub:
        config_file(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\nlocal = false\n'
                    "[context]\nmax_turns = 3\n")
        svc = service_mod.Service()
        longest = 0
        for i in range(30):
            ask(svc, f"question {i}", "long")
            settled.wait()
            longest = max(longest, len(svc.session("long").log.path.read_text().splitlines()))
        session = svc.session("long")
        turns = [(t.role, t.content) for t in session.conversation.turns]
        totals = session.usage.summary_line()
        # 30 asks log ~4 entries each (question, answer, usage, evictions): far more than a snapshot
        # (totals, 3 exchanges) and a tail of 12
        assert longest <= 12 + 3 * 2 + 4 + 4, longest
        after = service_mod.Service().session("long")  # a restart reads the short log
    assert [(t.role, t.content) for t in after.conversation.turns] == turns
    assert after.usage.summary_line() == totals and "30 calls" in totals


def test_a_long_conversation_is_not_rewritten_whole_every_few_asks(aish_env, monkeypatch):
    """A snapshot is rewritten once its tail is as long as itself (and at least ``COMPACT_TAIL``):
    the entries copied per ask stay the same at 1,200 kept turns as at 10, and a reload still
    reads at most about twice what it keeps (issue 26: every 400 entries a conversation of N turns
    was rewritten whole, N/130 entries per ask)."""
    from aish.app import sessions
    from aish.chat.session_log import SessionLog

    written: list = []
    rewrite = SessionLog.rewrite
    monkeypatch.setattr(SessionLog, "rewrite", lambda log, entries: (written.append(len(entries)),
                                                                     rewrite(log, entries))[1])
    session = sessions._rebuilt("long", None)
    conv = session.conversation
    for i in range(600):  # 1,200 kept turns
        conv.add_user(f"question {i}")
        conv.add_assistant(f"answer {i}")
    session.compact()
    written.clear()
    asks = 600
    for i in range(asks):  # an ask logs its question, its answer and its usage
        conv.add_user(f"and then {i}?")
        conv.add_assistant("ok")
        session.log.append({"type": "usage", "model": "m", "usage": {}})
        after_answer.compact_if_long(session)
    assert written, "the log was never compacted"
    assert sum(written) / asks <= 6, written
    lines = len(session.log.path.read_text().splitlines())
    assert lines <= 2 * len(conv.turns) + after_answer.COMPACT_TAIL + 8, lines
    assert [t.content for t in sessions._rebuilt("long", None).conversation.turns] == [t.content for t in conv.turns]


def test_a_conversation_of_few_kept_turns_reloads_from_a_short_log(aish_env):
    """A conversation that keeps 20 turns is a snapshot of ~20 entries; its tail grew to 400
    entries (130 asks) before a rewrite, so a restart replayed ~15x what it keeps: 220 entries on
    average, 66 of them usage entries added up one by one (issue 26: half of the reload's own
    cost).  The tail is now bounded by the snapshot's length or ``COMPACT_TAIL`` (64)."""
    from aish.app import sessions

    session = sessions._rebuilt("short", None)
    conv = session.conversation
    longest = 0
    for i in range(300):  # an ask logs its question, its usage and its answer; 10 exchanges kept
        conv.add_user(f"question {i}")
        session.log.append({"type": "usage", "model": "m", "usage": {"prompt_tokens": 10}})
        conv.add_assistant(f"answer {i}")
        if len(conv.turns) > 20:
            conv.apply_eviction(conv.turns[:2], None)
        after_answer.compact_if_long(session)
        longest = max(longest, len(session.log.path.read_text().splitlines()))
    assert longest <= 24 + 64 + 4, longest
    again = sessions._rebuilt("short", None)
    assert [t.content for t in again.conversation.turns] == [t.content for t in conv.turns]
