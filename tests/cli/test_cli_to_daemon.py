"""The CLI to the daemon, in this process: ``aish`` (``tests/helpers.py``'s ``aish_here``) sends
its request over the daemon's real FIFOs to the daemon's ``Server`` on a thread serving the
real ``Service`` (the ``wired`` fixture), and prints the frames and exits as ``aish`` does.

What is checked here is what the CLI and the daemon say to each other and what the user then
sees: error lines and exit statuses, verbs as the widgets send them, conversations by name,
stdin as context, a server that only sends keep-alives.  What needs daemon processes
(spawning, the locks, signals, a killed daemon, upgrades, cold starts) is in tests/e2e.
"""
from __future__ import annotations

import itertools
import os
import re
import time
from pathlib import Path

from aish.cli.exit_status import ExitStatus
from tests.helpers import aish_here, here_ok, model_toml, question
from tests.stub_server import Reply, StubServer

SECRET = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def user_turns(request: dict) -> list:
    """The questions, without the shell context that travels in front of each."""
    return [question(m["content"]) for m in request["body"]["messages"] if m["role"] == "user"]


# ------------------------------------------------------------------ errors
def test_an_error_is_one_line_and_exits_with_the_status_of_its_kind(config_file, wired):
    """The E frame carries the kind; the CLI exits with its status (tests/cli/test_exits.py has
    the whole table; "no model configured" is tests/app/test_service.py's)."""
    config_file('[models.fast]\nendpoint = "http://127.0.0.1:9"\nmodel = "m"\n')
    result = aish_here("ask", "hi")
    assert result.returncode == ExitStatus.TRANSPORT, result
    assert "transport: Connection refused" in result.stderr and "127.0.0.1:9" in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_keep_alive_comments_alone_end_the_ask_naming_the_server(config_file, wired):
    """A server that sends only keep-alive comments: the user once waited 300 s and was told
    the *daemon* did not answer."""
    with StubServer() as stub:
        config_file(model_toml("fast", stub.url, "tiny", "read_timeout = 0.25\n"))
        stub.queue(Reply(hang=True, ping_every=0.05))  # five a read timeout
        start = time.monotonic()
        result = aish_here("ask", "hello")
        assert time.monotonic() - start < 30
        assert result.returncode == ExitStatus.TIMEOUT == 7, result
        assert "sent only keep-alive comments" in result.stderr, result
        assert stub.url in result.stderr and "daemon" not in result.stderr
        assert stub.wait_disconnects(1, timeout=5) == 1  # the server stops generating for nobody


# ------------------------------------------------------------------ verbs as the widgets send them
def test_shell_help_and_an_unknown_verb_through_the_daemon(stub, wired):
    """`? :help` and `? :nope` travel as verb requests over the FIFO, as the widgets send them."""
    from aish.daemon.client import Client
    from aish.ipc.protocol import Request
    from aish.ipc.verbs import VERBS

    def send(*argv):
        frames = []
        with Client(autostart=False) as client:
            client.request(Request(kind="verb", conv="e2e", argv=list(argv)),
                           on_frame=lambda f: frames.append((f.tag, " ".join(f.fields))), timeout=30)
        return frames

    text = "".join(field for tag, field in send(":help") if tag == "T")
    assert {line.split()[0] for line in text.splitlines() if re.match(r"  \S", line)} == \
        {verb.name for verb in VERBS}
    errors = [field for tag, field in send(":nope") if tag == "E"]
    assert errors == ["unknown verb 'nope' not_found 'aish help' lists them"]  # message, kind, hint


def test_memory_edit_goes_through_the_editor_and_is_redacted_when_stored(stub, wired, tmp_path):
    here_ok("remember", "I use fd")
    editor = tmp_path / "editor.sh"
    editor.write_text(f"#!/bin/sh\necho 'token {SECRET}' >> \"$1\"\nsed -i 's/fd/ripgrep/' \"$1\"\n")
    editor.chmod(0o700)
    result = here_ok("memory", "edit", env={"EDITOR": str(editor), "VISUAL": str(editor)})
    assert "memory now holds 2 facts" in result.stdout
    listing = here_ok("memory", "list").stdout
    assert "1. I use ripgrep" in listing and "2. token ***" in listing
    assert SECRET not in (Path(os.environ["AISH_STATE_DIR"]) / "memory.json").read_text()


# ------------------------------------------------------------------ conversations
def test_continue_named_and_shell_conversations(stub, wired, monkeypatch):
    from aish.cli import conversations

    # each `aish` is a process of its own, whose pid makes its new conversation's name its
    # own (tests/e2e/test_reliability.py's concurrent asks); here every call shares one pid
    calls, new = itertools.count(), conversations.new
    monkeypatch.setattr(conversations, "new", lambda: f"{new()}-{next(calls)}")
    aish_here("ask", "remember the word pelican")
    aish_here("ask", "-c", "what was the word?")
    assert user_turns(stub.requests[-1]) == ["remember the word pelican", "what was the word?"]
    aish_here("ask", "a fresh question")
    assert user_turns(stub.requests[-1]) == ["a fresh question"]
    aish_here("ask", "--conv", "work", "first at work")
    aish_here("ask", "unrelated")
    aish_here("ask", "--conv", "work", "second at work")
    assert user_turns(stub.requests[-1]) == ["first at work", "second at work"]
    shell = {"AISH_CONV": "zsh-4242-1700000000"}  # what the shell integration exports
    aish_here("ask", "from the shell", env=shell)
    aish_here("ask", "again from the shell", env=shell)
    assert user_turns(stub.requests[-1]) == ["from the shell", "again from the shell"]
    bad = aish_here("ask", "--conv", "no/slashes", "x")
    assert bad.returncode != 0 and "--conv" in bad.stderr and "Traceback" not in bad.stderr


# ------------------------------------------------------------------ stdin
def test_stdin_is_context_from_a_pipe_or_a_file_never_from_a_terminal_or_a_read_loop(stub, wired, tmp_path):
    reader, writer = os.pipe()
    os.write(writer, b"diff --git a/x b/x\n+new line\n")
    os.close(writer)
    with open(reader) as pipe:
        aish_here("ask", "--conv", "s0", "review", stdin=pipe)
    assert "+new line" in stub.requests[-1]["body"]["messages"][-1]["content"]

    # `printf 'one\ntwo\nthree\n' | while read -r w; do aish ask --no-stdin "q $w"; done`: the
    # loop's words stay the loop's
    reader, writer = os.pipe()
    os.write(writer, b"one\ntwo\nthree\n")
    os.close(writer)
    with open(reader) as pipe:
        for word in iter(pipe.readline, ""):
            aish_here("ask", "--no-stdin", f"q {word.strip()}", stdin=pipe)
    assert [user_turns(r)[-1] for r in stub.requests[-3:]] == ["q one", "q two", "q three"]

    context = tmp_path / "context.txt"
    context.write_text("context from a file\n")
    with open(context) as fh:
        aish_here("ask", "--conv", "s1", "with a file", stdin=fh)
    assert "context from a file" in user_turns(stub.requests[-1])[-1]
    master, slave = os.openpty()
    try:
        with open(slave, closefd=False) as terminal:
            result = aish_here("ask", "--conv", "s2", "from a terminal", stdin=terminal)
    finally:
        os.close(master)
        os.close(slave)
    assert result.returncode == 0 and user_turns(stub.requests[-1]) == ["from a terminal"]


# ------------------------------------------------------------------ aish mcp-server
def test_mcp_server_without_the_sdk_says_so_in_one_line_and_stdout_stays_clean(stub, wired, monkeypatch):
    """stdout is the MCP channel: nothing but the SDK's messages may ever go there."""
    import signal
    import sys

    class NoSdk:
        """An import path where the SDK is not installed (``import mcp`` fails)."""

        @staticmethod
        def find_spec(name, path=None, target=None):
            if name == "mcp" or name.startswith("mcp."):
                raise ImportError("no SDK here", name="mcp")
            return None

    for name in [name for name in sys.modules if name == "mcp" or name.startswith("mcp.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(sys, "meta_path", [NoSdk(), *sys.meta_path])
    handlers = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGHUP)}
    try:
        done = aish_here("mcp-server")  # its agent: stdin at its end at once
    finally:
        for signum, handler in handlers.items():
            signal.signal(signum, handler)
    assert done.returncode != 0 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        "aish: aish mcp-server needs the MCP Python SDK (mcp is missing) (python3 -m pip install 'mcp>=2.3')"]
