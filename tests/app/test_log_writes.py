"""An ask's session log costs few system calls (issue 26, many shells): the file is kept open
(``O_APPEND``) rather than opened and closed per entry, and the usage and answer entries an
answer ends with are one write; the bytes on disk and the replay are as before."""
from __future__ import annotations

import os

from aish.app import service as service_mod
from aish.chat.session_log import SessionLog
from aish.ipc.protocol import Request
from tests.doubles import RecordingReply
from tests.stub_server import Reply, StubServer


class _Counted:
    """Counts ``os.open`` and ``os.write`` on the session logs (``*.jsonl``)."""

    def __init__(self, monkeypatch) -> None:
        self.opens = 0
        self.writes: list[bytes] = []
        self._fds: set[int] = set()
        real_open, real_write = os.open, os.write

        def counted_open(path, flags, *args, **kwargs):
            fd = real_open(path, flags, *args, **kwargs)
            if str(path).endswith(".jsonl"):
                self.opens += 1
                self._fds.add(fd)
            else:
                self._fds.discard(fd)
            return fd

        def counted_write(fd, data):
            try:
                target = os.readlink(f"/proc/self/fd/{fd}")
            except OSError:
                target = ""
            if fd in self._fds or target.endswith(".jsonl"):
                self.writes.append(bytes(data))
            return real_write(fd, data)

        monkeypatch.setattr(os, "open", counted_open)
        monkeypatch.setattr(os, "write", counted_write)


def test_an_ask_writes_its_log_twice_and_opens_it_at_most_once(config_file, monkeypatch, after_answers):
    """The question when it arrives (a daemon that dies mid-answer still finds it), then the
    usage and the answer together: two writes, not three opens, writes and closes."""
    with StubServer(default=Reply(text="fine")) as stub:
        config_file(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\nlocal = false\n')
        svc = service_mod.Service()
        svc.handle(Request(kind="ask", text="first", conv="w"), RecordingReply())
        after_answers.wait()
        counted = _Counted(monkeypatch)
        for text in ("second", "third"):
            svc.handle(Request(kind="ask", text=text, conv="w"), RecordingReply())
            after_answers.wait()
    assert counted.opens == 0  # the log of a conversation in use stays open
    assert len(counted.writes) == 4, [w[:60] for w in counted.writes]
    kinds = [[line.split(b'"type": ')[1][:10] for line in w.splitlines()] for w in counted.writes]
    assert kinds[1] == [b'"usage", "', b'"turn", "r'] and kinds[0] == [b'"turn", "r']
    lines = svc.session("w").log.path.read_text().splitlines()
    assert len(lines) == 9  # three asks, three entries each: nothing lost
    again = service_mod.Service().session("w")
    assert [t.content for t in again.conversation.turns][-1] == "fine"
    assert "3 calls" in again.usage.summary_line()


def test_a_log_removed_while_open_is_made_again(aish_env):
    """Someone deletes the file while the daemon runs: the next entry makes it again, as an
    open per entry did (never written into a file no name reaches)."""
    log = SessionLog("gone")
    log.append({"type": "reset"})
    log.path.unlink()
    log.append({"type": "summary", "text": "s"})
    assert [e["type"] for e in log.entries()] == ["summary"]


def test_appends_after_a_rewrite_go_to_the_new_file(aish_env):
    log = SessionLog("rw")
    log.append({"type": "reset"})
    log.rewrite([{"type": "summary", "text": "a"}])
    log.append({"type": "summary", "text": "b"})
    assert [e["text"] for e in log.entries()] == ["a", "b"]


def test_entries_held_together_are_one_write_in_order(aish_env, monkeypatch):
    log = SessionLog("held")
    counted = _Counted(monkeypatch)
    with log.together():
        log.append({"type": "summary", "text": "1"})
        log.append({"type": "summary", "text": "2"})
        assert log.path.exists() is False or log.path.read_text() == ""
    log.append({"type": "summary", "text": "3"})
    assert len(counted.writes) == 2 and counted.writes[0].count(b"\n") == 2
    assert [e["text"] for e in log.entries()] == ["1", "2", "3"]
    assert oct(log.path.stat().st_mode & 0o777) == "0o600"


def test_entries_held_are_written_when_the_ask_fails(aish_env):
    log = SessionLog("boom")
    try:
        with log.together():
            log.append({"type": "summary", "text": "kept"})
            raise RuntimeError("the stream broke")
    except RuntimeError:
        pass
    assert [e["text"] for e in log.entries()] == ["kept"]


def test_a_forgotten_log_closes_its_file(aish_env):
    """A conversation the daemon forgets (more than it keeps in memory) keeps no descriptor: the
    moment its last reference goes, without waiting for the cyclic garbage collector (whose full
    pass here, over the whole test process, was 0.05-0.09 s)."""
    log = SessionLog("forgotten")
    log.append({"type": "reset"})
    fd = log._fd
    assert fd is not None and os.readlink(f"/proc/self/fd/{fd}").endswith("forgotten.jsonl")
    del log
    try:
        target = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        target = ""
    assert not target.endswith("forgotten.jsonl")
