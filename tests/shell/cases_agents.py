"""The agents' bridge in a real shell: collected by test_zsh.py and test_bash.py.

An agent (the official MCP SDK's client, spawning ``aish mcp-server`` over stdio) reads the
shell, proposes commands, and hears back what the user did with each; the test is the user,
pressing keys in the tmux pane.
"""
from __future__ import annotations

import os
from pathlib import Path

from tests.shell.agent_client import NAME, AgentClient, text
from tests.shell.shellenv import PROMPT, prompt_line, wait_tapped
from tests.shell.tmux import wait_until


def _connected(sh, agent: AgentClient) -> None:
    """The agent is connected; the shell reports at its next prompt and its pane is read."""
    marker = Path(os.environ["AISH_RUNTIME_DIR"]) / "agents"
    wait_until(marker.exists, 20, "the agents marker")
    sh.tmux.keys("Enter")
    state = Path(os.environ["AISH_RUNTIME_DIR"]) / f"{sh.name}-{_pid(sh)}.state"
    wait_until(state.exists, 10, "the shell's state file")
    wait_tapped(sh)


def _pid(sh) -> str:
    return sh.tmux._tmux("display-message", "-p", "#{pane_pid}").strip()


def test_an_agent_reads_a_failure_and_its_fix_runs_on_enter(make_shell, model):
    sh = make_shell()
    with AgentClient() as agent:
        assert set(agent.tools()) >= {"shell_context", "last_output", "propose_command"}
        _connected(sh, agent)
        sh.ask("ls /aish-no-such-dir")
        sh.wait("No such file or directory")
        sh.wait_prompt("")

        context = agent.call("shell_context")
        data = context.structured_content
        assert not context.is_error, text(context)
        assert data["commands"][-1] == {"command": "ls /aish-no-such-dir", "exit": 2,
                                        "duration_ms": data["commands"][-1]["duration_ms"]}
        assert isinstance(data["commands"][-1]["duration_ms"], int)
        assert data["cwd"] == str(sh.home / "work") and data["status"] == 2
        assert data["shell"] == f"{sh.name}-{_pid(sh)}" and data["running"] is None
        assert "[2 " in text(context) and "ls /aish-no-such-dir" in text(context)

        output = agent.call("last_output")
        assert "No such file or directory" in output.structured_content["output"], text(output)
        assert output.structured_content["source"] == "tmux"
        assert output.structured_content["exit"] == 2

        # The fix lands on the prompt line with the agent's name and reason; Enter runs it.
        call = agent.start("propose_command", command="ls -d /tmp", reason="the directory is /tmp")
        screen = sh.wait_prompt("ls -d /tmp")
        assert f"[aish] {NAME} proposes: the directory is /tmp" in screen
        sh.tmux.keys("Enter")
        done = call.result(30)
        result = done.structured_content
        assert result["outcome"] == "ran" and result["ran"] == "ls -d /tmp" and not result["edited"]
        assert result["exit"] == 0 and isinstance(result["duration_ms"], int)
        assert result["output"] == "/tmp", text(done)
        screen = sh.wait(f"{NAME} was told: `ls -d /tmp` exited 0")
        sh.wait_prompt("")
        assert any("prompt line" in line for line in agent.progress), agent.progress

        # `? :agents` shows who is connected, what it read and what it proposed.
        sh.ask("? :agents")
        screen = sh.wait("`ls -d /tmp`: ran, exit 0")  # the last line (they come one by one)
        assert f"{NAME} (pid " in screen and "read the output of `ls /aish-no-such-dir`" in screen
        assert "proposals, oldest first" in screen


def test_dismissed_edited_high_risk_and_withdrawn_proposals(make_shell, model):
    sh = make_shell()
    with AgentClient() as agent:
        _connected(sh, agent)

        # Dismissed: Ctrl-C on the prompt line; nothing ran.
        call = agent.start("propose_command", command="echo dismissed-one", reason="say it")
        sh.wait_prompt("echo dismissed-one")
        sh.tmux.keys("C-c")
        result = call.result(30).structured_content
        assert result["outcome"] == "dismissed" and result["ran"] is None
        sh.wait(f"{NAME} was told you dismissed its proposal")
        sh.wait_prompt("")

        # Edited: the user changes it before Enter; the agent hears what really ran.
        call = agent.start("propose_command", command="echo one", reason="count")
        sh.wait_prompt("echo one")
        sh.tmux.keys("BSpace", "BSpace", "BSpace")
        sh.tmux.type("two")
        sh.tmux.keys("Enter")
        result = call.result(30).structured_content
        assert result["outcome"] == "ran" and result["edited"] is True
        assert result["proposed"] == "echo one" and result["ran"] == "echo two"
        assert result["exit"] == 0 and result["output"] == "two"
        sh.wait_prompt("")

        # High risk: the first Enter does not run it, the second does.
        call = agent.start("propose_command", command="git push --force origin main", reason="publish")
        screen = sh.wait_prompt("git push --force origin main")
        assert "[aish] high risk: force push" in screen
        sh.tmux.keys("Enter")
        sh.wait("press Enter again to run")
        assert not call.done()
        sh.tmux.keys("Enter")
        result = call.result(30).structured_content
        assert result["outcome"] == "ran" and result["exit"] != 0  # (not a repository here)
        assert result["safety"]["level"] == "high" and "not a git repository" in result["output"]
        sh.wait_prompt("")

        # Withdrawn by the agent (an MCP cancel): the line is cleared, the user is told.
        call = agent.start("propose_command", command="echo withdrawn-one", reason="maybe")
        sh.wait_prompt("echo withdrawn-one")
        agent.withdraw(call)
        sh.wait(f"{NAME} withdrew its proposal")
        # the line is cleared after the message shows (reading the screen of the message
        # itself raced the redraw): the wait for an empty prompt line is the check
        sh.wait(lambda s: prompt_line(s) == PROMPT.rstrip())



def test_a_proposal_run_while_the_pane_s_output_lags_reports_its_output(make_shell, model, aish_env, tmp_path):
    """The shell reports a proposal it ran at its next prompt, just after printing the command's
    end mark; the daemon reads the output from tmux's copy of the pane (through `cat`), which a
    loaded host delays: the mark was not there yet and the agent got no output ("could not
    tell where it starts").  A `cat` that holds every chunk 0.6 s makes the delay sure."""
    slow = tmp_path / "slow-cat"
    slow.mkdir()
    (slow / "cat").write_text("#!/usr/bin/env python3\nimport os, time\nwhile True:\n"
                              "    data = os.read(0, 65536)\n    if not data:\n        break\n"
                              "    time.sleep(0.6)\n    os.write(1, data)\n")
    (slow / "cat").chmod(0o755)
    sh = make_shell(extra_env={"PATH": f"{slow}:{aish_env / 'bin'}:{os.environ['PATH']}"})
    with AgentClient() as agent:
        _connected(sh, agent)
        for word in ("one", "two"):
            call = agent.start("propose_command", command=f"echo {word}", reason="count")
            sh.wait_prompt(f"echo {word}")
            sh.tmux.keys("Enter")
            result = call.result(30).structured_content
            assert result["outcome"] == "ran" and result["exit"] == 0, result
            assert result["output"] == word, result
            sh.wait_prompt("")

def test_busy_typing_and_one_proposal_per_shell(make_shell, model):
    sh = make_shell()
    with AgentClient() as agent:
        _connected(sh, agent)

        # A command runs: the proposal waits for the next prompt, then lands there.  The command
        # runs until the test has seen the proposal wait (a `sleep 2` could end first under load)
        gate = sh.home / "go-on"
        sh.ask(f"until [ -e {gate} ]; do sleep 0.05; done; echo slept")
        wait_until(lambda: agent.call("shell_context").structured_content["running"], 10, "running")
        call = agent.start("propose_command", command="echo after-sleep", reason="next")
        wait_until(lambda: any("waits for its prompt" in p for p in agent.progress), 10, "the busy note")
        assert "after-sleep" not in sh.tmux.screen()
        gate.touch()
        sh.wait_prompt("echo after-sleep")
        # One proposal per shell at a time.
        second = agent.call("propose_command", command="echo second", reason="too")
        assert second.is_error and "one proposal per shell at a time" in text(second)
        sh.tmux.keys("Enter")
        done = call.result(30)
        assert done.structured_content["output"] == "after-sleep", text(done)
        sh.wait_prompt("")

        # Typeahead: the user's half-typed line stays theirs; the proposal waits on the cycle key.
        sh.tmux.type("echo mine")
        call = agent.start("propose_command", command="echo theirs", reason="typed over")
        screen = sh.wait(lambda s: "kept your typing" in s and prompt_line(s) == PROMPT + "echo mine")
        assert "echo theirsecho mine" not in screen and "echo mineecho" not in screen
        sh.press("cycle")
        sh.wait_prompt("echo theirs")
        sh.tmux.keys("Enter")
        result = call.result(30).structured_content
        assert result["ran"] == "echo theirs" and result["output"] == "theirs"

        # Typeahead run as it is: the user's own command, not an edit of the proposal.
        sh.wait_prompt("")
        sh.tmux.type("echo own-line")
        typed_over = sum("was typing" in p for p in agent.progress)
        call = agent.start("propose_command", command="echo not-taken", reason="typed over")
        wait_until(lambda: sum("was typing" in p for p in agent.progress) > typed_over, 15, "kept typing")
        sh.wait(lambda s: "inserts the proposal: echo not-taken" in s and prompt_line(s) == PROMPT + "echo own-line")
        sh.tmux.keys("Enter")
        done = call.result(30)
        result = done.structured_content
        assert result["outcome"] == "dismissed" and result["ran"] is None, text(done)
        assert "ran a command of their own" in text(done)
        sh.wait(f"{NAME} was told you ran your own command, not its proposal")
