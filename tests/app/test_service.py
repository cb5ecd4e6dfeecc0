"""The daemon's application object, in process: config reload, detection, conversations."""
import socket

import pytest

from aish.app import daemon_state, service as service_mod
from aish.errors import ConfigError
from aish.ipc.protocol import Request
from tests.doubles import RecordingReply
from tests.stub_server import Reply, StubServer


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def ask(svc, text="hi", conv="t"):
    reply = RecordingReply()
    return svc.handle(Request(kind="ask", text=text, conv=conv), reply), reply


def test_a_server_started_after_the_daemon_is_found_on_the_next_ask(monkeypatch, aish_env):
    monkeypatch.delenv("AISH_CONFIG")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(aish_env / "xdg"))
    port = free_port()
    monkeypatch.setenv("AISH_DETECT_PORTS", f"llama.cpp:{port}")
    monkeypatch.setattr(daemon_state, "REDETECT_SECONDS", 0.0)
    svc = service_mod.Service()
    with pytest.raises(ConfigError, match="no model configured"):
        ask(svc)
    with StubServer(port=port, default=Reply(text="found you"), owned_by="llamacpp"):
        result, reply = ask(svc)
    assert result.text == "found you"
    assert any(s.startswith("using llama.cpp at") for s in reply.statuses)


def test_config_edits_apply_to_the_next_ask_and_errors_name_the_key(config_file):
    svc = service_mod.Service()
    with StubServer(default=Reply(text="one")) as first, StubServer(default=Reply(text="two")) as second:
        config_file(f'[models.fast]\nendpoint = "{first.url}"\nmodel = "m"\n')
        assert ask(svc)[0].text == "one"
        config_file(f'[models.fast]\nendpoint = "{second.url}"\nmodel = "m"\n# edited\n')
        assert ask(svc)[0].text == "two"
        config_file('[models.fast]\nendpoint = "http://x"\nmodel = "m"\nbogus = 1\n')
        with pytest.raises(ConfigError, match="unknown key 'models.fast.bogus'"):
            ask(svc)


def test_each_shell_has_its_own_conversation(config_file):
    svc = service_mod.Service()
    with StubServer(default=Reply(text="ok")) as stub:
        config_file(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n')
        ask(svc, "from zsh", conv="zsh-1")
        ask(svc, "from bash", conv="bash-2")
        contents = [m["content"] for m in stub.requests[-1]["body"]["messages"]]
    assert "from bash" in contents and "from zsh" not in contents


def test_session_log_on_disk_holds_no_secret(config_file):
    secret = "sk-proj-" + "Zx9" * 16
    svc = service_mod.Service()
    with StubServer(default=Reply(text="ok")) as stub:
        config_file(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n')
        ask(svc, f"why is OPENAI_API_KEY={secret} rejected", conv="s")
        assert secret not in str(stub.requests[-1]["body"])
    log = svc.session("s").log.path.read_text()
    assert secret not in log and "OPENAI_API_KEY=" in log


def test_a_long_session_log_is_compacted_and_keeps_turns_summary_and_totals(config_file, monkeypatch,
                                                                           after_answers):
    from aish.app import sessions as session_mod

    monkeypatch.setattr(session_mod, "COMPACT_AFTER_ENTRIES", 10)
    with StubServer(default=Reply(text="ok")) as stub:
        config_file(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\nlocal = false\n'
                    "[context]\nmax_turns = 3\n")
        first = service_mod.Service()
        for i in range(8):
            ask(first, f"question {i}", conv="long")
        before = first.session("long")
        after_answers.wait()  # the fold after the last answer is done
        turns = [(t.role, t.content) for t in before.conversation.turns]
        totals = before.usage.summary_line()
        lines_before = len(before.log.path.read_text().splitlines())
        second = service_mod.Service()  # a daemon restart
        after = second.session("long")
        assert [(t.role, t.content) for t in after.conversation.turns] == turns
        assert after.usage.summary_line() == totals and "8 calls" in totals
        assert len(after.log.path.read_text().splitlines()) < lines_before
        ask(second, "after compaction", conv="long")
        after_answers.wait()
        third = service_mod.Service().session("long")
        assert third.conversation.turns[-2].content == "after compaction" and "9 calls" in third.usage.summary_line()


def test_idle_sessions_leave_memory_but_come_back_from_their_log(config_file, monkeypatch):
    from aish.app import sessions as session_mod

    monkeypatch.setattr(session_mod, "MAX_SESSIONS", 4)
    with StubServer(default=Reply(text="ok")) as stub:
        config_file(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n')
        svc = service_mod.Service()
        for i in range(6):
            ask(svc, f"shell {i} question", conv=f"zsh-{i}")
        assert len(svc.sessions) <= 4 and "zsh-0" not in svc.sessions
        ask(svc, "back again", conv="zsh-0")
        contents = [m["content"] for m in stub.requests[-1]["body"]["messages"]]
    assert "shell 0 question" in contents


def test_a_verb_that_is_an_ask_runs_a_new_request_and_leaves_the_one_it_got(config_file):
    svc = service_mod.Service()
    with StubServer(default=Reply(text="ls: lists files")) as stub:
        config_file(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n')
        request = Request(kind="verb", conv="t", argv=["explain", "ls", "-l"])
        result = svc.handle(request, RecordingReply())
        assert "ls -l" in stub.requests[-1]["body"]["messages"][-1]["content"]
    assert result.text == "ls: lists files"
    assert (request.kind, request.mode, request.buffer) == ("verb", "question", "")  # untouched


def test_request_kinds_and_control_words_dispatch_through_tables():
    from aish.daemon.server import Server

    svc = service_mod.Service()
    assert set(svc.handlers) == {"ask", "prepare", "verb", "watch"}
    assert set(Server.CONTROL) == {"req", "cancel", "answer", "retire", "watch"}


def test_prepare_is_its_own_kind_and_answers_with_why_not(config_file):
    svc = service_mod.Service()
    config_file('[models.fast]\nendpoint = "http://127.0.0.1:9"\nmodel = "m"\n[fix]\nprepare = "off"\n')
    result = svc.handle(Request(kind="prepare", conv="t", status=1), RecordingReply())
    assert result.text == "not allowed"


def test_two_remembers_at_once_keep_both_facts(config_file):
    """One Memory per daemon: its lock then covers every writer (rebuilt per request, it did not)."""
    import threading

    config_file('[models.fast]\nendpoint = "http://127.0.0.1:9"\nmodel = "m"\n[memory]\nmax_facts = 200\n'
                'max_chars = 100000\n')
    svc = service_mod.Service()

    def remember(who):
        for n in range(25):
            svc.verb(Request(kind="verb", conv=f"c{who}", argv=["remember", f"fact {who}-{n}"]),
                     RecordingReply())

    threads = [threading.Thread(target=remember, args=(who,)) for who in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    listing = RecordingReply()
    svc.verb(Request(kind="verb", conv="c0", argv=["memory", "list"]), listing)
    assert len(listing.full_text.splitlines()) == 100, listing.full_text
    assert svc.memory() is svc.memory()
