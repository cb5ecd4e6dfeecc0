"""The daemon's protocol on real FIFOs: control lines, request files, frames, cancels,
questions, clients that vanish or stop reading, refused paths, errors and the log.

The daemon here is the real ``Server`` on a thread of the test process, serving the scripted
handler of ``tests/daemon/scripted_handler.py`` (chosen by the request text), with its log
written where the daemon writes it.  What only a daemon process can show (spawning, the
locks, signals, a killed client process, start-up) is in tests/e2e/test_daemon_process.py.
"""
from __future__ import annotations

import os
import subprocess
import threading
import time
from pathlib import Path

import pytest

from aish.daemon.client import Client
from aish.daemon import runtime, spawn
from aish.errors import DaemonError
from aish.ipc.protocol import Request, parse_frame
from tests import in_process
from tests.daemon.scripted_handler import handle


# ------------------------------------------------------------------ fixtures and helpers
@pytest.fixture
def events(tmp_path, monkeypatch):
    path = tmp_path / "events"
    path.mkdir()
    monkeypatch.setenv("AISH_TEST_EVENTS", str(path))
    return path


class ThreadDaemon(in_process.ThreadDaemon):
    """``Server`` with the scripted handler on a thread (tests/in_process.py)."""

    def __init__(self) -> None:
        super().__init__(handle)


@pytest.fixture
def daemon(events):
    served = ThreadDaemon()
    yield served.pid
    served.stop()


def rundir() -> Path:
    return Path(os.environ["AISH_RUNTIME_DIR"])


def log_text() -> str:
    return runtime.log_path().read_text(encoding="utf-8")


def wait_for(predicate, timeout: float = 3.0, step: float = 0.005):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    return predicate()


def cancel_time(events: Path, req_id: str, timeout: float = 2.0) -> float:
    path = events / f"{req_id}.cancel"
    assert wait_for(path.exists, timeout), f"handler never saw a cancel for {req_id}"
    return float(wait_for(path.read_text))


class RawClient:
    """Speaks the protocol by hand, as the shells do, to send what Client never would."""

    def __init__(self, name: str = "raw") -> None:
        self.fifo = rundir() / f"{name}.fifo"
        os.mkfifo(self.fifo, 0o600)
        self.fd = os.open(self.fifo, os.O_RDWR)
        self.buf = b""

    def send(self, line: str) -> None:
        fd = os.open(rundir() / "daemon.fifo", os.O_WRONLY | os.O_NONBLOCK)
        os.write(fd, line.encode())
        os.close(fd)

    def request(self, req_id: str, body: str) -> None:
        (rundir() / f"{req_id}.req").write_text(body)
        self.send(f"req {req_id}\n")

    def ask(self, req_id: str, text: str, **extra) -> None:
        body = f"v=1\nkind=ask\nreply={self.fifo}\ntext={text}\n"
        self.request(req_id, body + "".join(f"{k}={v}\n" for k, v in extra.items()))

    def frame(self, timeout: float = 3.0):
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            import select
            left = deadline - time.monotonic()
            assert left > 0, "no frame from the daemon"
            if select.select([self.fd], [], [], left)[0]:
                self.buf += os.read(self.fd, 65536)
        line, self.buf = self.buf.split(b"\n", 1)
        return parse_frame(line.decode())

    def until(self, req_id: str, tag: str):
        seen = []
        while True:
            frame = self.frame()
            if frame.id == req_id:
                seen.append(frame)
                if frame.tag == tag:
                    return seen

    def close(self) -> None:
        os.close(self.fd)
        os.unlink(self.fifo)


def ask(text: str, client: Client | None = None, **kw) -> tuple[list, dict]:
    frames: list = []
    client = client or Client(autostart=False)
    extra = kw.pop("extra", {})
    result = client.request(Request(text=text, extra=extra, **kw), on_frame=frames.append)
    return frames, result


# ------------------------------------------------------------------ tests
def dead_pid() -> int:
    """The pid of a process that has exited (a client that is gone)."""
    dead = subprocess.Popen(["true"])
    dead.wait()
    return dead.pid


def test_files_of_clients_that_are_gone_are_pruned_at_start(events):
    """bash cannot remove its reply FIFO at exit; a killed client removes nothing."""
    dead = dead_pid()
    rundir().mkdir(mode=0o700, parents=True, exist_ok=True)
    gone = [f"bash-{dead}.fifo", f"zsh-{dead}.fifo", f"py-{dead}-3.fifo",
            f"bash-{dead}-7-123.req", f"bash-{dead}.trap"]
    kept = [f"bash-{os.getpid()}.fifo", "notes.fifo", "bash-x.fifo"]
    for name in gone + kept:
        os.mkfifo(rundir() / name, 0o600)
    # a shell's state and the agents' marker, once every agent it names is gone (docs/agents.md)
    (rundir() / f"zsh-{dead}.state").write_text("v=1\nend=1\n")
    (rundir() / "agents").write_text(f"{dead} claude\n")
    gone += [f"zsh-{dead}.state", "agents"]
    served = ThreadDaemon()
    try:
        # serving starts once daemon.fifo has a reader; the sweep runs just after.
        assert wait_for(lambda: "removed 7 file(s)" in log_text())
        names = {p.name for p in rundir().iterdir()}
        assert not names & set(gone) and set(kept) <= names
    finally:
        served.stop()


def test_frames_of_one_request_in_order(daemon):
    frames, result = ask("echo a b c")
    assert [f.tag for f in frames] == ["S", "T", "T", "T", "C", "D"]
    assert frames[0].fields == ["[aish] echoing"]
    assert frames[4].fields == ["ls -l", "low", "-"]
    assert result == {"text": "a b c", "argv": []}


def test_asks_one_after_another_start_no_thread(daemon):
    """Starting a thread cost more CPU than most of an ask (at 50 shells at once): a warm
    daemon serves the next request on the thread that served the last, and watches every
    reply FIFO from one thread, so sequential asks leave the thread count where it was."""
    ask("threads")  # warm: the watch and the first worker start
    seen = [ask("threads")[1] for _ in range(10)]
    # (a client may send its next request before the last one's thread is idle again: on a
    # loaded machine that takes a second thread, now and then a third, never one per ask)
    assert len({answer["thread"] for answer in seen}) <= 5, seen
    assert max(a["alive"] for a in seen) - min(a["alive"] for a in seen) <= 4, seen


def _written_slowly(monkeypatch) -> None:
    """Files are seen before their text: ``Path.write_text`` makes the file empty, and writes
    its text 50 ms later (a loaded host between the open and the write)."""
    write_text = Path.write_text

    def slowly(path, data, *args, **kwargs):
        write_text(path, "", *args, **kwargs)
        time.sleep(0.05)
        return write_text(path, data, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", slowly)


@pytest.mark.parametrize("slow_writes", [False, True])
def test_work_after_the_answer_runs_on_its_thread_once_the_d_frame_is_sent(daemon, tmp_path, monkeypatch,
                                                                           slow_writes):
    """The fold after an answer: nobody waits for it, and no thread is handed the work.  The
    handler's mark appears whole (a loaded run once read it between its open and its write)."""
    if slow_writes:
        _written_slowly(monkeypatch)
    mark = tmp_path / "after"
    frames, result = ask(f"later {mark}")  # returns at the D frame, while the work still waits
    assert frames[-1].tag == "D" and not Path(f"{mark}.done").exists()
    Path(f"{mark}.go").write_text("")
    assert wait_for(lambda: Path(f"{mark}.done").exists(), timeout=10)
    assert Path(f"{mark}.done").read_text() == result["thread"]


def test_concurrent_clients_each_get_only_their_frames(daemon):
    results: dict = {}

    def one(n: int) -> None:
        words = " ".join(f"c{n}w{i}" for i in range(5))
        with Client(autostart=False) as client:  # all six meet before they echo
            results[n] = ask(f"meet 6 {words}", client, extra={"delay": "0.02"})

    start = time.monotonic()
    threads = [threading.Thread(target=one, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    elapsed = time.monotonic() - start
    assert sorted(results) == list(range(6))
    for n, (frames, _result) in results.items():
        text = "".join(f.fields[0] for f in frames if f.tag == "T")
        assert text == "".join(f"c{n}w{i} " for i in range(5))
        assert len({f.id for f in frames}) == 1 and frames[-1].tag == "D"
    # Serial would never meet (each waits 5 s for the others, then fails); concurrent, the
    # words interleave for about 0.1 s (room for a slow CI).
    assert elapsed < 2.0, f"requests were serialized ({elapsed:.2f}s)"


def test_malformed_input_gets_error_and_done_and_the_daemon_keeps_serving(daemon):
    raw = RawClient()
    try:
        raw.request("bad1", f"v=1\nkind=ask\nreply={raw.fifo}\nthis line has no equals\n")
        frames = raw.until("bad1", "D")
        assert [f.tag for f in frames] == ["E", "D"] and "key=value" in frames[0].fields[0]
        raw.request("old1", f"v=9\nreply={raw.fifo}\nkind=ask\n")
        frames = raw.until("old1", "D")
        assert frames[0].tag == "E" and "aish daemon stop" in frames[0].fields[2]  # the hint
        for line in ("hello world\n", "req ../../etc/passwd\n", "req missing-file\n",
                     "answer nobody q1 y\n", "cancel nobody\n", "x" * 5000 + "\n"):
            raw.send(line)
        raw.ask("ok1", "echo still here")
        assert raw.until("ok1", "D")[-1].fields[0] == '{"text": "still here", "argv": []}'
    finally:
        raw.close()
    assert runtime.is_running() == daemon
    assert "malformed control line" in log_text()


def test_a_nul_byte_in_a_path_gets_an_error_frame_not_an_exception(daemon):
    raw = RawClient()
    try:
        raw.request("nul1", f"v=1\nkind=ask\nreply={raw.fifo}\x00.x\ntext=echo hi\n")
        frames = raw.until("nul1", "D")
        assert [f.tag for f in frames] == ["E", "D"] and "NUL" in frames[0].fields[0]
        raw.request("nul2", f"v=1\nkind=ask\nreply={raw.fifo}\ncwd=/tmp\x00/x\ntext=echo hi\n")
        frames = raw.until("nul2", "D")
        assert [f.tag for f in frames] == ["E", "D"] and "cwd" in frames[0].fields[0]
        raw.request("nul3", "v=1\nkind=ask\nreply=/nowhere\x00\ntext=echo hi\n")
        raw.ask("ok3", "echo fine")
        raw.until("ok3", "D")
    finally:
        raw.close()
    assert wait_for(lambda: "nul3 refused" in log_text())
    assert "Traceback" not in log_text() and "outside its handler" not in log_text()


def test_untrusted_reply_paths_are_refused(daemon, tmp_path):
    outside = tmp_path / "outside.fifo"
    os.mkfifo(outside, 0o600)
    reader = os.open(outside, os.O_RDONLY | os.O_NONBLOCK)
    plain = rundir() / "plain-file"
    plain.write_text("")
    raw = RawClient()
    try:
        raw.request("out1", f"v=1\nkind=ask\nreply={outside}\ntext=echo leaked\n")
        raw.request("reg1", f"v=1\nkind=ask\nreply={plain}\ntext=echo leaked\n")
        raw.ask("ok2", "echo fine")
        raw.until("ok2", "D")
        assert wait_for(lambda: log_text().count("refused") >= 2)
        try:
            leaked = os.read(reader, 100)
        except BlockingIOError:  # a writer opened it but wrote nothing: also fine
            leaked = b""
        assert leaked == b""
        assert plain.read_text() == ""
    finally:
        raw.close()
        os.close(reader)


def test_cancel_line_reaches_the_handler_within_200ms(daemon, events):
    raw = RawClient()
    try:
        raw.ask("c1", "slow 5")
        raw.until("c1", "T")
        sent = time.time()
        raw.send("cancel c1\n")
        assert cancel_time(events, "c1") - sent < 0.2
        frames = raw.until("c1", "D")
        assert '"cancelled": true' in frames[-1].fields[0]
    finally:
        raw.close()


def test_the_reply_fifo_of_a_killed_client_is_removed_at_once(daemon, events):
    """Not at the next sweep (up to 10 min later): 5 clients whose process is gone vanish
    mid-answer (their reader closes, as a kill closes it), none of their FIFOs stays behind
    and each request is cancelled; a live client's FIFO is never touched.  (A real client
    process killed mid-answer: tests/e2e/test_daemon_process.py.)"""
    with Client(autostart=False) as alive:
        alive.request(Request(text="echo keep"), on_frame=lambda f: None)
        for n in range(5):
            gone = RawClient(f"py-{dead_pid()}-1")
            gone.ask(f"k{n}", "slow 5")
            assert gone.until(f"k{n}", "T")[-1].tag == "T" and gone.fifo.exists()
            os.close(gone.fd)  # the process is gone: its reader closes, its FIFO stays
            assert wait_for(lambda fifo=gone.fifo: not fifo.exists()), f"{gone.fifo.name} left behind"
            cancel_time(events, f"k{n}")
        assert alive.fifo.exists()
        assert alive.request(Request(text="echo still"), on_frame=lambda f: None)["text"] == "still"
    assert runtime.is_running() == daemon


def test_a_client_that_stops_reading_does_not_hang_the_daemon(events, monkeypatch):
    monkeypatch.setenv("AISH_DAEMON_STALL", "0.2")
    served = ThreadDaemon()
    raw = RawClient("stuck")  # holds its FIFO open but never reads: the pipe fills
    try:
        sent = time.time()
        raw.ask("f1", "flood")
        # the daemon keeps serving others meanwhile, and gives up on f1 after its stall bound
        assert ask("echo unaffected")[1]["text"] == "unaffected"
        assert 0.15 < cancel_time(events, "f1", timeout=5) - sent < 3
        assert runtime.is_running() == served.pid
    finally:
        raw.close()
        served.stop()


def test_approval_round_trip(daemon):
    with Client(autostart=False) as client:
        questions = []

        def answer(qid, question):
            questions.append((qid, question))
            return "a"

        result = client.request(Request(text="ask", interactive=True), on_frame=lambda f: None,
                                answer=answer)
        assert result == {"answer": "a"}
        assert questions and questions[0][1].startswith("call notes.read_note")
        start = time.monotonic()  # no answer: the question times out as a denial
        result = client.request(Request(text="ask 0.1", interactive=True), on_frame=lambda f: None,
                                answer=lambda qid, q: None)
        assert result == {"answer": None} and 0.08 < time.monotonic() - start < 2
        start = time.monotonic()  # a client that cannot answer is never asked
        frames, result = ask("ask 5", client, interactive=False)
        assert result == {"answer": None} and time.monotonic() - start < 1
        assert "Q" not in [f.tag for f in frames]


def test_handler_errors_become_one_line_and_tracebacks_stay_in_the_log(daemon):
    frames, result = ask("fail aish")
    assert [f.tag for f in frames] == ["E", "D"]
    # the error travels as its parts: message, kind, hint (docs/protocol.md, frames)
    assert frames[0].fields == ["model 'deep' is not configured", "config", "add [models.deep]"]
    assert result == {"error": "model 'deep' is not configured (add [models.deep])", "kind": "config",
                      "hint": "add [models.deep]"}
    frames, result = ask("fail boom")
    assert [f.tag for f in frames] == ["E", "D"]
    assert frames[0].fields[:2] == [f"internal error (details in {runtime.log_path()})", "internal"]
    assert result["kind"] == "internal"
    assert "boom" not in frames[0].fields[0] and "Traceback" in log_text()


def test_no_fd_leak_after_50_cancelled_requests(daemon, events):
    def fds() -> int:
        return len(os.listdir(f"/proc/{daemon}/fd"))

    ask("echo warm")
    before = fds()
    raw = RawClient()
    try:
        for n in range(50):
            raw.ask(f"leak{n}", "slow 5")
            raw.until(f"leak{n}", "T")
            raw.send(f"cancel leak{n}\n")
            raw.until(f"leak{n}", "D")
    finally:
        raw.close()
    for n in range(5):  # and clients that vanish mid-answer
        gone = RawClient(f"gone{n}")
        gone.ask(f"gone{n}", "slow 5")
        gone.until(f"gone{n}", "T")
        gone.close()
    assert wait_for(lambda: (events / "gone4.cancel").exists())
    assert wait_for(lambda: fds() <= before, timeout=3), f"{fds()} fds open, {before} before"


def test_refuses_a_runtime_dir_open_to_others(events, aish_env):
    os.chmod(rundir(), 0o755)
    with pytest.raises(DaemonError, match="chmod 700"):
        spawn.start()
    with pytest.raises(DaemonError):
        Client().request(Request(text="echo x"), on_frame=lambda f: None)


def test_refuses_a_symlinked_runtime_dir(events, tmp_path, monkeypatch):
    real = tmp_path / "real"
    real.mkdir(mode=0o700)
    link = tmp_path / "link"
    link.symlink_to(real)
    monkeypatch.setenv("AISH_RUNTIME_DIR", str(link))
    with pytest.raises(DaemonError, match="symlink"):
        spawn.start()




def test_request_lines_read_together_look_at_the_install_once(events):
    """A burst of shells asking at once: the lines one read brought are dispatched after one
    look at the install (a stat each was a GIL hand-off on the thread that hands every
    request on, 50 of them before the last request could start)."""
    served = ThreadDaemon()
    try:
        looks = []

        class Counted:
            def __init__(self, install) -> None:
                self.install = install

            def changed(self) -> bool:
                looks.append(1)
                return self.install.changed()

        served.server._install = Counted(served.server._install)
        lines = "".join(f"req burst{n}\n" for n in range(5))
        fd = os.open(rundir() / "daemon.fifo", os.O_WRONLY)
        try:
            os.write(fd, lines.encode())
        finally:
            os.close(fd)
        assert wait_for(lambda: log_text().count("request burst") >= 5), log_text()
        assert len(looks) == 1
    finally:
        served.stop()
