"""Norris through the daemon's Service, in process (tests/in_process.py), against a loopback
stub that plans.

The requests are the CLI's: `aish norris GOAL` starts a task, `aish norris --ran STATUS MS CMD`
is the report the shell's precmd hook sends after a step ran.  What the user would see
(stdout, stderr) and what the planner received (the stub's recorded requests) are checked.
"""
from __future__ import annotations

import json

import pytest

from aish.cli.exit_status import ExitStatus
from tests.helpers import closed_port_url, model_toml
from tests.stub_server import Reply, StubServer, prompt_tokens


@pytest.fixture
def planner(config_file):
    """`fast` (m-fast) and `deep` (m-deep) on one stub; routing on, code questions -> deep."""
    with StubServer(shape="llamacpp") as server:
        server.write = lambda extra="", context="", routing="auto = true\n": config_file(
            model_toml("fast", server.url, "m-fast") + model_toml("deep", server.url, "m-deep")
            + f'[routing]\n{routing}[context]\nsummarize_on_evict = true\n{context}' + extra)
        server.write()
        yield server


def steps(result) -> list[str]:
    """The commands the CLI printed (each a step put on the prompt line)."""
    return [line for line in result.stdout.splitlines() if line and not line[0].isupper()]


def test_three_steps_to_the_end_never_rerouted_no_summary_costed_as_norris(planner, service):
    # A goal that the router would send to `deep` (a traceback): the task stays on `fast`.
    goal = "fix this Traceback (most recent call last): KeyError in build.py"
    planner.queue(Reply("First look.\nCMD: ls build"), Reply("CMD: python3 build.py"),
                  Reply("CMD: git status"), Reply("DONE: build fixed and checked"))
    first = service.ok("norris", goal)
    assert "ls build" in first.stdout
    second = service.ok("norris", "--ran", "0", "12", "ls", "build")
    assert "python3 build.py" in second.stdout
    third = service.ok("norris", "--ran", "0", "340", "python3", "build.py")
    assert "git status" in third.stdout
    last = service.ok("norris", "--ran", "0", "5", "git", "status")
    assert "norris: done: build fixed and checked" in last.stderr
    requests = planner.wait_requests(4)
    assert [r["body"]["model"] for r in requests] == ["m-fast"] * 4  # never re-routed
    for r in requests:
        system = r["body"]["messages"][0]["content"]
        assert system.rstrip().split("\n\n")[-1].startswith("[NORRIS MODE]")
        assert "[earlier conversation summary]" not in system and "[background]" not in system
    # each report reached the planner with its status and duration
    fourth = requests[3]["body"]["messages"]
    assert "Step 3 ran: `git status`" in fourth[-1]["content"]
    assert "exit status 0, 5 ms" in fourth[-1]["content"]
    state = service.ok("norris").stdout
    assert "norris: done" in state and "ran [0 340ms] python3 build.py" in state
    # the system message stays byte-identical over the task (a local server's prefix cache)
    assert len({r["body"]["messages"][0]["content"] for r in requests}) == 1
    detail = json.loads(service.ok("cost", "detail", "--json").stdout)
    assert [(r["model"], r["category"], r["calls"]) for r in detail["rows"]] == [("fast", "norris", 4)]
    assert "norris" in service.ok("cost", "detail").stdout


def test_a_failing_step_then_fixed_and_three_failures_halt(planner, service):
    planner.queue(Reply("CMD: make"), Reply("make needs a target.\nCMD: make all"),
                  Reply("DONE: built"))
    service.ok("norris", "build the project")
    fixed = service.ok("norris", "--ran", "2", "30", "make")
    assert "make all" in fixed.stdout
    request = planner.wait_requests(2)[1]["body"]["messages"]
    assert "exit status 2" in request[-1]["content"]
    assert "done: built" in service.ok("norris", "--ran", "0", "40", "make", "all").stderr

    planner.queue(Reply("CMD: false"), Reply("CMD: false"), Reply("CMD: false"))
    service.ok("norris", "fail three times")
    service.ok("norris", "--ran", "1", "1", "false")
    service.ok("norris", "--ran", "1", "1", "false")
    halted = service.ok("norris", "--ran", "1", "1", "false")
    assert "norris: halted: 3 failed steps in a row (last: `false` exited 1)" in halted.stderr
    assert len(planner.wait_requests(6, timeout=30)) == 6  # no planner call after the third failure


def test_max_steps_and_halt_verb_and_halt_line(planner, service):
    planner.write('[norris]\nmax_steps = 2\n')
    planner.queue(Reply("CMD: echo 1"), Reply("CMD: echo 2"))
    service.ok("norris", "count")
    service.ok("norris", "--ran", "0", "1", "echo", "1")
    stopped = service.ok("norris", "--ran", "0", "1", "echo", "2")
    assert "norris: halted: max steps (2) reached" in stopped.stderr
    assert len(planner.wait_requests(2)) == 2

    planner.queue(Reply("CMD: rm -rf build"))
    service.ok("norris", "clean up")
    assert "halted after 1 step: clean up" in service.ok("halt").stdout   # never "1 steps"
    assert "halted" in service.ok("norris").stdout
    ignored = service.ok("norris", "--ran", "0", "1", "rm", "-rf", "build")  # a late report plans nothing
    assert ignored.stdout.strip() == ""
    assert "no task is running" in service.ok("halt").stdout

    planner.queue(Reply("I will not touch that.\nHALT: the goal needs root"))
    assert "norris: halted: the goal needs root" in service.ok("norris", "format the disk").stderr


def test_resume_after_a_daemon_restart(planner, service):
    planner.queue(Reply("CMD: mkdir out"), Reply("CMD: touch out/x"), Reply("DONE: made"))
    service.ok("norris", "make out/x")
    service.restart()
    resumed = service.ok("norris", "resume")  # the waiting step comes back without a planner call
    assert "mkdir out" in resumed.stdout
    assert len(planner.requests) == 1
    assert "touch out/x" in service.ok("norris", "--ran", "0", "3", "mkdir", "out").stdout
    service.ok("halt")
    service.restart()
    again = service.ok("norris", "resume")  # halted: plans anew from the transcript kept in the log
    assert "norris: done: made" in again.stderr
    messages = planner.wait_requests(3, timeout=30)[2]["body"]["messages"]
    assert any("Step 1 ran: `mkdir out`" in m["content"] for m in messages)
    assert messages[-1]["content"] == "Continue with the next step."
    refused = service.verb("norris", "resume")  # a finished task is not resumed
    assert refused.returncode == ExitStatus.NOT_FOUND
    assert refused.stderr.strip() == "aish: no task to resume in this shell (start one: ? :norris GOAL)"


def test_fallback_retries_one_step_without_switching_the_planner(config_file, service):
    with StubServer(shape="openrouter") as cloud:
        config_file(model_toml("fast", closed_port_url(), "m-fast")
                    + model_toml("cloud", cloud.url, "m-cloud", "local = false\n")
                    + "[routing]\nfallback = true\n")
        cloud.queue(Reply("CMD: uname -a"))
        first = service.ok("norris", "which kernel")
        assert "uname -a" in first.stdout
        assert "this step only" in first.stderr
        state = service.ok("norris").stdout
        assert "model fast" in state  # the planner is still fast
        detail = service.ok("cost", "detail").stdout
        assert "cloud" in detail and "norris" in detail


def test_max_dollars_halts_before_the_next_planner_call(config_file, service):
    with StubServer(shape="openrouter") as cloud:
        config_file('default_model = "cloud"\n'
                    + model_toml("cloud", cloud.url, "m-cloud", "local = false\n")
                    + "[norris]\nmax_dollars = 0.0001\n")
        cloud.queue(Reply("CMD: df -h"))
        service.ok("norris", "check the disks")
        stopped = service.ok("norris", "--ran", "0", "9", "df", "-h")
        assert "norris: halted: max dollars ($0.0001) reached" in stopped.stderr
        assert len(cloud.requests) == 1
        assert "norris" in service.ok("cost", "detail").stdout


def test_max_dollars_halts_before_a_planner_call_whose_estimate_would_cross_it(config_file, service):
    """The same estimate as the cost caps: a priced model's next call is weighed before it is sent."""
    with StubServer(shape="openrouter") as cloud:
        config_file('default_model = "cloud"\n'
                    + model_toml("cloud", cloud.url, "m-cloud", "local = false\nprice_in = 3.0\nprice_out = 15.0\n")
                    + "[norris]\nmax_dollars = 0.01\n")
        halted = service.ok("norris", "check the disks")
        assert cloud.requests == []
        assert "norris: halted: cloud: this call (~$0.06" in halted.stderr, halted.stderr
        assert "past norris.max_dollars = $0.0100" in halted.stderr


def test_bad_norris_config_is_one_line_naming_the_fix(config_file, service):
    config_file('[norris]\nautorun = "always"\n')
    result = service.verb("norris", "anything")
    assert result.returncode != 0
    assert 'norris.autorun must be "off" or "safe", got \'always\'' in result.stderr


def test_a_medium_step_gets_the_second_opinion_costed_as_probe(planner, service):
    planner.write('[safety]\nllm_model = "deep"\n')
    planner.queue(Reply("CMD: rm -rf ~/junk"), Reply("LEVEL: high - deletes a home directory tree"))
    result = service.ok("norris", "remove the junk dir")
    assert "rm -rf ~/junk" in result.stdout
    assert "high: deletes a home directory tree (second opinion" in result.stderr
    requests = planner.wait_requests(2)
    assert [r["body"]["model"] for r in requests] == ["m-fast", "m-deep"]
    rows = {(r["model"], r["category"]): r["calls"]
            for r in json.loads(service.ok("cost", "detail", "--json").stdout)["rows"]}
    assert rows == {("fast", "norris"): 1, ("deep", "probe"): 1}


def test_the_planner_sees_no_background_that_an_ask_sees(planner, service):
    service.ok("remember", "I use fd, not find")
    planner.queue(Reply("first answer"))
    service.ok("ask", "where are the pelican files")
    asked = planner.wait_requests(1)[0]["body"]["messages"][0]["content"]
    assert "[background]" in asked and "I use fd" in asked  # an ask has the memory block
    planner.queue(Reply("CMD: fd pelican"))
    service.ok("norris", "find the pelican files")
    system = planner.wait_requests(2)[1]["body"]["messages"][0]["content"]
    assert "[background]" not in system and "I use fd" not in system
    assert "[earlier conversation summary]" not in system
    assert norris_mode_tail() + "\n" in system  # then the note on the task's data (test_norris_autorun.py)


def norris_mode_tail() -> str:
    from aish.app.norris import _MODE

    return _MODE.format(goal="find the pelican files")


def test_resume_after_a_limit_gives_the_task_a_fresh_allowance(planner, service):
    planner.write('[norris]\nmax_steps = 1\n')
    planner.queue(Reply("CMD: echo 1"), Reply("CMD: echo 2"))
    service.ok("norris", "count")
    stopped = service.ok("norris", "--ran", "0", "1", "echo", "1")
    assert "norris: halted: max steps (1) reached" in stopped.stderr
    resumed = service.ok("norris", "resume")  # the user chose to go on: the limit counts from here
    assert "echo 2" in resumed.stdout and "max steps" not in resumed.stderr
    assert len(planner.wait_requests(2)) == 2


def test_a_step_the_rules_do_not_know_gets_the_second_opinion(planner, config_file, service):
    """An unknown program with write-looking options is judged by the second opinion (costed
    probe) before it may be proposed, as any ask's suggestion is."""
    planner.write('[safety]\nllm_model = "deep"\n[norris]\nautorun = "safe"\n')
    planner.queue(Reply("CMD: frobnicate --overwrite --all"),  # (`--delete --all` is the rules' own: high)
                  Reply("LEVEL: high - overwrites every frob"))
    first = service.ok("norris", "tidy the frobs")
    assert "frobnicate --overwrite --all" in first.stdout and "overwrites every frob" in first.stderr
    rows = {r["category"] for r in json.loads(service.ok("cost", "detail", "--json").stdout)["rows"]}
    assert "probe" in rows


def test_a_real_summary_stays_out_of_the_planners_request(planner, service, after_answers):
    """The conversation has a rolling summary (asks evicted into it); the task's planner
    never sees it, in its system message or anywhere else."""
    shell = "zsh-norris-summary"
    planner.write(context="max_turns = 2\n", routing="auto = false\n")
    planner.queue(Reply("first answer"), Reply("second answer"), Reply("The user asked about pelicans."))
    service.ok("ask", "remember the word pelican", conv=shell)
    service.ok("ask", "and now the word heron", conv=shell)
    planner.wait_requests(3, timeout=30)  # the fold after the second answer
    after_answers.wait()  # is over before the third ask (an ask during a fold uses the turns
    #                       as they are)
    planner.queue(Reply("third answer"), Reply("The user asked about pelicans and herons."))
    service.ok("ask", "and a third", conv=shell)
    planner.wait_requests(5, timeout=30)
    planner.queue(Reply("CMD: ls"))
    service.ok("norris", "list the files", conv=shell)
    requests = planner.wait_requests(6, timeout=30)
    assert "[earlier conversation summary]\nThe user asked about pelicans." in \
        requests[3]["body"]["messages"][0]["content"]  # the summary exists and asks carry it
    planner_messages = requests[5]["body"]["messages"]
    assert "[NORRIS MODE]" in planner_messages[0]["content"]
    assert not any("pelican" in str(m.get("content")) for m in planner_messages)


@pytest.mark.parametrize("overflow", ["llama-cpp-python", "llama.cpp"])
def test_a_task_that_outgrows_the_window_keeps_planning(config_file, service, overflow):
    """The planner's transcript grows by a report per step; once it outgrew the server's
    window, every next planner call failed and the task halted with "the planner failed"."""
    with StubServer(tokenize="llama-cpp-python", owned_by="me") as server:
        server.n_ctx, server.overflow = 1024, overflow
        config_file(model_toml("fast", server.url, "tiny") + "[norris]\nmax_steps = 20\n")
        server.queue(*[Reply(f"Next.\nCMD: echo step{n}") for n in range(12)])
        service.ok("norris", "print twelve long lines")
        said = ""
        for n in range(11):
            ran = ["printf", "%s\\n", f"step{n}"] + ["longword"] * 60
            result = service.ok("norris", "--ran", "0", "7", *ran)
            assert f"echo step{n + 1}" in result.stdout, (n, result.stderr)
            assert "halted" not in result.stderr, (n, result.stderr)
            said += result.stderr
    sent = [r["body"]["messages"] for r in server.requests if prompt_tokens(r["body"]["messages"]) < 1024]
    last = sent[-1]
    assert "Goal: print twelve long lines" in last[1]["content"]  # the goal is never folded away
    assert "Step 11 ran:" in last[-1]["content"] and "longword" in last[-1]["content"]
    assert any("step3" in m["content"] for m in last), "earlier steps are kept as one line each"
    state = service.ok("norris").stdout
    assert "norris: waiting" in state and "step 12 of" in state
    assert "norris: the task outgrew fast's 1,024-token window: " in said and "kept as one line each" in said, said
