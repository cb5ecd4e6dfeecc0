"""Answering a tool's approval question from the shell, in both shells.

A real MCP server (plain JSON, in-process) and the real daemon: the daemon sends a `Q`
frame, the shell reads a whole answer line from the terminal (y, yes, n, no, a, always;
Enter = no) and none of its keys may reach the command line.
"""
from __future__ import annotations

import json

import pytest

from aish.mcp.bridge import DENIED

from tests.mcp_servers.plain_json_server import PlainServer
from tests.stub_server import Reply
from tests.shell.shellenv import PROMPT
from tests.shell.tmux import wait_until

ECHO = Reply(tool_calls=[{"name": "tools__echo", "arguments": '{"text": "hi"}'}])


@pytest.fixture
def tools(stub, config_file):
    server = PlainServer()
    config_file(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n'
                f'[mcp]\napproval_timeout = 3\n[mcp.servers.tools]\nurl = "{server.url}"\n')
    yield server
    server.stop()


def calls(server: PlainServer) -> int:
    return server.methods().count("tools/call")


def test_approval_reads_a_line_cancels_and_times_out(make_shell, stub, tools):
    sh = make_shell()
    stub.queue(Reply(text="Started.\n"))
    sh.ask("? start the daemon")        # it connects its MCP servers in the background
    sh.wait("Started.")
    wait_until(lambda: "tools/list" in tools.methods(), 15, "the daemon to list the tools")

    # `yes` + Enter: approved, and neither `es` nor the Enter reaches the command line.
    stub.queue(ECHO, Reply(text="Done.\nCMD: echo one\n"))
    sh.ask("? first")
    sh.wait("[y/N/a]")
    sh.tmux.type("yes")
    sh.tmux.keys("Enter")
    screen = sh.wait_prompt("echo one")
    assert calls(tools) == 1
    assert "[y/N/a] yes" in screen and "command not found" not in screen, screen
    # the answer shows once, where it was typed (zsh's cooked terminal echoed it a second time)
    assert not [row for row in screen.splitlines() if row.strip() == "yes"], screen

    # `y` + Enter: approved, and the suggestion still lands on the line.
    sh.tmux.keys("C-u")
    stub.queue(ECHO, Reply(text="Done.\nCMD: echo two\n"))
    sh.ask("? second")
    sh.wait(lambda s: s.count("[y/N/a]") == 2)
    sh.tmux.type("y")
    sh.tmux.keys("Enter")
    sh.wait_prompt("echo two")
    assert calls(tools) == 2

    # Enter alone is no.
    sh.tmux.keys("C-u")
    stub.queue(ECHO, Reply(text="Denied then.\nCMD: echo three\n"))
    sh.ask("? third")
    sh.wait(lambda s: s.count("[y/N/a]") == 3)
    sh.tmux.keys("Enter")
    screen = sh.wait_prompt("echo three")
    assert calls(tools) == 2
    assert "denied" in screen

    # Ctrl-C at the question cancels the request; what is typed next is a new command line.
    sh.tmux.keys("C-u")
    stub.queue(ECHO)
    sh.ask("? fourth")
    sh.wait(lambda s: s.count("[y/N/a]") == 4)
    sh.tmux.keys("C-c")
    screen = sh.wait_prompt("")
    assert "[aish] cancelled" in screen, screen
    sh.ask("echo after-$((6*7))")
    screen = sh.wait("after-42")
    assert calls(tools) == 2
    assert "error" not in screen.lower(), screen

    # No answer within approval_timeout (3 s): denied, said so, and the prompt is back.
    stub.queue(ECHO, Reply(text="Nobody answered.\nCMD: echo five\n"))
    sh.ask("? fifth")
    sh.wait(lambda s: s.count("[y/N/a]") == 5)
    screen = sh.wait_prompt("echo five", timeout=15)
    assert "no answer" in screen and "denied" in screen, screen
    assert calls(tools) == 2
    # The cancelled question was taken back: neither it nor a "denial" of its tool call
    # is in the conversation the model sees next (the third's real denial is).
    sent = json.dumps(stub.requests[-1]["body"]["messages"])
    assert "third" in sent and "fourth" not in sent, sent
    assert sent.count(DENIED) == 2, sent                  # the third's and the fifth's
    assert PROMPT + "echo one" not in sh.tmux.history()


def test_s_at_the_question_shows_the_whole_call_and_asks_again(make_shell, stub, tools):
    """A long argument is cut in the question; `s` prints the call whole, then the same question
    comes back, and the short argument beside it was never hidden."""
    sh = make_shell()
    long_text = "start-" + "x" * 400 + "-end"
    stub.queue(Reply(tool_calls=[{"name": "tools__echo",
                                  "arguments": f'{{"text": "{long_text}", "mode": "fast"}}'}]),
               Reply(text="Echoed.\nCMD: echo done\n"))
    sh.ask("? echo something long")
    screen = sh.wait("[y/N/a/s]", timeout=30)
    joined = screen.replace("\n", "")  # the question wraps at the terminal's width
    assert '"mode": "fast"' in joined and "-end" not in joined, screen
    sh.tmux.type("s")
    sh.tmux.keys("Enter")
    sh.wait(lambda s: s.count("[y/N/a/s]") == 2 and "-end" in s.replace("\n", ""))
    sh.tmux.type("y")
    sh.tmux.keys("Enter")
    sh.wait_prompt("echo done")
    assert calls(tools) == 1


def test_a_servers_question_is_typed_at_the_prompt(make_shell, stub, config_file):
    """Elicitation: a stdio server (the SDK's) asks a form while its tool runs; the text fields
    are typed in the shell (I frames), the yes/no ones answered like an approval."""
    from tests.mcp_servers import stdio_argv

    command = ", ".join(f'"{a}"' for a in stdio_argv())
    config_file(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n'
                f'[mcp]\nauto_approve = ["notes.*"]\nconnect_wait = 90\n'  # a loaded machine starts it slowly
                f'[mcp.servers.notes]\ncommand = [{command}]\n')
    sh = make_shell()
    stub.queue(Reply(tool_calls=[{"name": "notes__ask_user", "arguments": "{}"}]),
               Reply(text="Done.\nCMD: echo asked\n"))
    sh.ask("? ask me")
    sh.wait("notes: Name:", timeout=60)
    sh.tmux.type("my todo")
    sh.tmux.keys("Enter")
    sh.wait("notes: Count:")
    sh.tmux.type("3")
    sh.tmux.keys("Enter")
    sh.wait("notes: Ok? [y/N]")
    sh.tmux.type("y")
    sh.tmux.keys("Enter")
    sh.wait('to notes? [y/N]')
    sh.tmux.type("y")
    sh.tmux.keys("Enter")
    sh.wait_prompt("echo asked", timeout=30)
    tools = [m for r in stub.requests for m in r["body"]["messages"] if m["role"] == "tool"]
    assert [m["content"] for m in tools] == ["accepted my todo x3 ok=True"]


def test_ctrl_c_while_a_tool_runs_stops_it_on_the_server(make_shell, stub, config_file, tmp_path):
    """Ctrl-C during an approved call: the prompt is back at once, the server hears
    notifications/cancelled (its handler is cancelled), and the shell works on."""
    from tests.mcp_servers import stdio_argv

    command = ", ".join(f'"{a}"' for a in stdio_argv())
    config_file(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n'
                f'[mcp]\nauto_approve = ["notes.*"]\nconnect_wait = 90\n'
                f'[mcp.servers.notes]\ncommand = [{command}]\ntimeout = 120\n')
    marker = tmp_path / "cancelled"
    arguments = json.dumps({"seconds": 100, "marker": str(marker)})
    sh = make_shell()
    stub.queue(Reply(tool_calls=[{"name": "notes__wait_for_cancel", "arguments": arguments}]))
    sh.ask("? wait for it")
    sh.wait("waiting", timeout=60)                     # its progress, as a status line
    sh.tmux.keys("C-c")
    screen = sh.wait_prompt("", timeout=15)
    assert "[aish] cancelled" in screen, screen
    wait_until(lambda: marker.exists() and marker.read_text() == "cancelled", 15,
               "the server to hear the cancel")
    sh.ask("echo after-$((6*7))")
    sh.wait("after-42")
