"""Routing, fallback, summaries, cost and safety through the daemon's Service, in process
(tests/in_process.py): the requests `aish` sends, against loopback model stubs; what a user
would see (stdout, stderr lines, exit status) and what the model servers received.  The
wire itself: tests/cli/test_cli_to_daemon.py (the CLI on the daemon's FIFOs) and tests/e2e
(daemon processes)."""
from __future__ import annotations

import json
import re
import time

import pytest

from aish.cli.exit_status import ExitStatus
from tests.helpers import closed_port_url, model_toml, question
from tests.stub_server import Reply, StubServer

SUMMARIZER_ROLE = "You keep the running memory of a conversation"


def is_summarizer(request: dict) -> bool:
    messages = request["body"]["messages"]
    return SUMMARIZER_ROLE in (messages[0].get("content") or "")


def cost_json(service, *args) -> dict:
    return json.loads(service.ok("cost", *args, "--json").stdout)


@pytest.fixture
def stub(config_file):
    """One llama.cpp-shaped stub serving `fast` (model m-fast) and `deep` (model m-deep)."""
    with StubServer(shape="llamacpp") as server:
        server.write = lambda extra="": config_file(
            model_toml("fast", server.url, "m-fast") + model_toml("deep", server.url, "m-deep") + extra)
        server.write()
        yield server


@pytest.fixture
def cloud(config_file):
    """A cloud-priced stub (`[models.cloud]`, local = false) and a `fast` on a closed port."""
    with StubServer(shape="openrouter") as server:
        server.write = lambda fast_url=None, extra="": config_file(
            model_toml("fast", fast_url or closed_port_url(), "m-fast")
            + model_toml("cloud", server.url, "m-cloud", "local = false\n") + extra)
        server.write()
        yield server


# ---------------------------------------------------------------------------- routing
TRACEBACK_Q = ("why does this fail?\nTraceback (most recent call last):\n"
               "  File \"x.py\", line 1\nKeyError: 'a'")


def test_route_on_sends_a_traceback_to_deep_and_off_keeps_fast(stub, service):
    assert "routing on" in service.ok("route", "on").stdout
    stub.queue(Reply(text="deep answer"))
    result = service.ok("ask", TRACEBACK_Q)
    assert stub.requests[-1]["body"]["model"] == "m-deep"
    assert "[aish] routed to deep" in result.stderr
    assert result.stdout.startswith("deep answer")

    service.ok("ask", "list files")  # default class: stays on the active model
    assert stub.requests[-1]["body"]["model"] == "m-fast"

    service.ok("route", "off")
    result = service.ok("ask", TRACEBACK_Q)
    assert stub.requests[-1]["body"]["model"] == "m-fast"
    assert "routed to" not in result.stderr


def test_route_check_and_classes(stub, service):
    lines = service.ok("route", "classes").stdout.splitlines()
    assert lines[0].startswith("[aish] routing off")
    assert {"  code -> deep", "  reasoning -> (keep active model)",
            "  default -> (keep active model)"} <= set(lines), lines
    off = service.ok("route", "check", TRACEBACK_Q).stdout.strip()
    assert off == "code -> deep (routing currently disabled)"
    assert service.ok("route", "check", "list files in /tmp").stdout.strip() == \
        "default -> (keep active model) (routing currently disabled)"
    service.ok("route", "on")
    assert service.ok("route", "check", TRACEBACK_Q).stdout.strip() == "code -> deep"
    assert service.ok("route", "classes").stdout.startswith("[aish] routing on")
    assert stub.requests == []  # classification is local: no model call


def test_route_on_refuses_when_code_maps_to_an_unconfigured_model(config_file, service):
    with StubServer() as server:
        config_file(model_toml("fast", server.url, "m-fast"))  # no [models.deep]
        result = service.verb("route", "on")
        assert result.returncode == ExitStatus.CONFIG
        assert "code -> deep" in result.stderr and "not configured" in result.stderr
        assert "routing off" in service.ok("route", "classes").stdout  # nothing changed


# ---------------------------------------------------------------------------- fallback
def test_fallback_on_off_refused_local_and_both_failing(cloud, service):
    result = service.ask("hi")  # off by default: the failure is reported
    assert result.returncode == ExitStatus.TRANSPORT and "Connection refused" in result.stderr
    assert result.stderr.rstrip().endswith(")") and "(error)" not in result.stderr  # no kind shown
    assert cloud.requests == [] and "retrying" not in result.stderr

    assert "fallback on" in service.ok("fallback", "on").stdout
    cloud.queue(Reply(text="from the cloud"))
    result = service.ok("ask", "hi")
    assert result.stdout.startswith("from the cloud")
    assert "[aish] local fast failed (connection refused); retrying via cloud\n" in result.stderr
    assert cloud.requests[-1]["body"]["model"] == "m-cloud"

    cloud.queue(Reply(status=503))
    result = service.ask("hi")
    assert result.returncode == 1
    errors = [line for line in result.stderr.splitlines() if line.startswith("aish:")]
    assert len(errors) == 1, result.stderr
    assert "refused" in errors[0].lower() and "503" in errors[0]
    assert "fast" in errors[0] and "cloud" in errors[0]

    service.ok("fallback", "off")
    result = service.ask("hi")
    assert result.returncode == ExitStatus.TRANSPORT and "retrying" not in result.stderr and len(cloud.requests) == 2


MODEL_NOT_FOUND = {"error": {"code": "model_not_found", "message": "model 'm-fast' not found"}}
FALLBACK_CASES = [  # (name, what the local server does, the status line's reason or None)
    ("503", Reply(status=503), "HTTP 503"),
    ("404-model", Reply(status=404, error_body=MODEL_NOT_FOUND), "HTTP 404, model not loaded"),
    ("cut-before-text", Reply(cut_after=0), "stream cut short"),
    ("400", Reply(status=400), None),
    ("401", Reply(status=401), None),
    ("api-error", Reply(stream_error_after=0), None),  # the server answered with an error
    ("cut-after-text", Reply(cut_after=2), None),  # text reached the user: a retry would repeat it
]


def test_fallback_retries_only_when_local_looks_down(cloud, service):
    with StubServer() as local:
        cloud.write(fast_url=local.url, extra="[routing]\nfallback = true\n")  # the file, not the verb
        for name, failure, reason in FALLBACK_CASES:
            seen, local_seen = len(cloud.requests), len(local.requests)
            local.queue(failure)
            if reason is not None:
                cloud.queue(Reply(text="from the cloud"))
            result = service.ask("hi")
            assert len(local.requests) == local_seen + 1, name
            if reason is None:
                assert result.returncode != 0 and len(cloud.requests) == seen, (name, result.stderr)
                assert "retrying" not in result.stderr, name
            else:
                assert result.returncode == 0 and result.stdout.startswith("from the cloud"), name
                assert f"[aish] local fast failed ({reason}); retrying via cloud\n" in result.stderr, name


# ---------------------------------------------------------------------------- summaries
def test_summary_of_evicted_turns_is_sent_and_survives_a_restart(stub, service, after_answers):
    """The fold runs once an answer is delivered, ahead of the next ask (which never waits
    for a summary): the next ask carries the summary instead of the evicted turns."""
    stub.write('[context]\nmax_turns = 2\nsummarize_on_evict = true\n')
    stub.queue(Reply(text="first answer"), Reply(text="second answer"),
               Reply(text="The user asked about pelicans."))  # the summarizer, after ask 2
    service.ok("ask", "remember the word pelican")
    service.ok("ask", "and now the word heron")
    requests = stub.wait_requests(3, timeout=30)
    assert is_summarizer(requests[2]) and "remember the word pelican" in \
        requests[2]["body"]["messages"][-1]["content"]
    assert requests[2]["body"]["model"] == "m-fast" and requests[2]["body"].get("max_tokens") == 300
    after_answers.wait()  # that fold is over (an ask during it uses the turns as they are:
    #                       the summary would reach only the next one)
    stub.queue(Reply(text="third answer"), Reply(text="Pelicans, then herons."))
    service.ok("ask", "and a third")
    requests = stub.wait_requests(5, timeout=30)
    system = requests[3]["body"]["messages"][0]["content"]
    assert "[earlier conversation summary]\nThe user asked about pelicans." in system
    contents = [m["content"] for m in requests[3]["body"]["messages"][1:]]
    assert "remember the word pelican" not in contents  # evicted, only the summary remains
    assert is_summarizer(requests[4])  # extends the summary
    assert "The user asked about pelicans." in requests[4]["body"]["messages"][-1]["content"]

    after_answers.wait()  # the fold after the third answer is over (and logged)
    service.restart()  # the summary is read back from the session log
    stub.queue(Reply(text="fourth answer"), Reply(text="Pelicans, herons, more."))
    service.ok("ask", "which birds?")
    requests = stub.wait_requests(7, timeout=30)
    assert "[earlier conversation summary]\nPelicans, then herons." in \
        requests[5]["body"]["messages"][0]["content"]
    deadline = time.monotonic() + 30  # the third summary is counted once it has answered
    while not re.search(r"fast\s+summarize\s+3 calls", detail := service.ok("cost", "detail").stdout):
        assert time.monotonic() < deadline, detail
        time.sleep(0.1)


def test_a_failing_summarizer_evicts_silently_with_one_status_line(stub, service, after_answers):
    stub.write('[context]\nmax_turns = 2\nsummarize_on_evict = true\n')
    stub.queue(Reply(text="first answer"), Reply(text="second answer"), Reply(status=500),
               Reply(text="third answer"))
    service.ok("ask", "remember the word pelican")
    service.ok("ask", "and now the word heron")
    stub.wait_requests(3, timeout=30)
    after_answers.wait()  # the fold after the second answer is over
    result = service.ok("ask", "and a third")  # says what the fold after the last answer did
    assert result.stdout.startswith("third answer")
    assert "[aish] context: summarizer failed; evicted" in result.stderr, result.stderr
    system = stub.wait_requests(4)[3]["body"]["messages"][0]["content"]
    assert "[earlier conversation summary]" not in system


# ---------------------------------------------------------------------------- cost
SUMMARY_RE = re.compile(r"^\[aish\] session usage: [\d,]+ calls?, prompt=[\d,]+ / completion=[\d,]+ "
                        r"tokens cost=\$(?:0|\d+\.\d{4,6}) "
                        r"\((?:cloud \$[\d.]+|local [\d,]+ calls?, free)(; estimated: [\d,]+ calls?)?\)$")


def test_cost_line_detail_reset_and_json(stub, service):
    service.ok("ask", "hi")
    service.ok("ask", "again")
    line = service.ok("cost").stdout.strip()
    assert SUMMARY_RE.match(line) and line.startswith("[aish] session usage: 2 calls,"), line

    detail = service.ok("cost", "detail").stdout.splitlines()
    assert detail[0] == "[aish] session usage detail:"
    # `~est=N` follows the reported prompt count when the local estimate differs by > 10 %: the
    # stub counts words and the estimate counts bytes, which part on path-heavy shell context
    assert re.match(r"^  fast  main  2 calls, [\d,]+(?: ~est=[\d,]+)? / [\d,]+ tokens, \$0 \(local\)$",
                    detail[1]), detail

    data = cost_json(service)
    assert data["calls"] == 2 and data["prompt"] > 0 and data["completion"] > 0
    assert stub.tokenize_calls > 0  # a local server's own tokenizer counts by default
    assert data["rows"][0]["est_shown"] is None  # and agrees with what it reported (template counted)
    detail_json = cost_json(service, "detail")
    assert [(r["model"], r["category"], r["calls"]) for r in detail_json["rows"]] == [("fast", "main", 2)]

    assert json.loads(service.ok("cost", "reset", "--json").stdout) == {"reset": True}
    assert cost_json(service)["calls"] == 0
    assert service.ok("cost").stdout.startswith("[aish] session usage: 0 calls,")
    assert "no calls yet" in service.ok("cost", "detail").stdout
    service.restart()  # the reset is in the session log: it holds across a restart
    assert cost_json(service)["calls"] == 0


def test_cost_detail_groups_by_model_and_category(stub, service):
    service.ok("route", "on")
    service.ok("ask", TRACEBACK_Q)
    service.ok("ask", "list files")
    service.ok("explain", "ls -la")
    rows = {(r["model"], r["category"]): r["calls"] for r in cost_json(service, "detail")["rows"]}
    assert rows == {("deep", "main"): 1, ("fast", "main"): 1, ("fast", "explain"): 1}
    text = service.ok("cost", "detail").stdout
    assert re.search(r"^  deep\s+main\s+1 call, ", text, re.M) and \
        re.search(r"^  fast\s+explain\s+1 call, ", text, re.M), text


def test_ledger_periods_survive_a_daemon_restart_and_cost_reset(stub, service):
    service.ok("ask", "hi")
    service.ok("ask", "again")
    service.restart()
    service.ok("cost", "reset")  # the session meter only; the ledger is history
    assert cost_json(service)["calls"] == 0
    for period in ("--today", "--week", "--all"):
        data = cost_json(service, period)
        assert (data["period"], data["calls"], data["conversations"]) == (period[2:], 2, 1), data
        assert [(r["model"], r["category"], r["calls"]) for r in data["rows"]] == [("fast", "main", 2)]
    today = service.ok("cost", "--today").stdout.strip()
    assert re.match(r"^\[aish\] usage today: 2 calls, prompt=[\d,]+ / completion=[\d,]+ tokens "
                    r"cost=\$0 \(local 2 calls, free\), 1 conversation$", today), today
    week = service.ok("cost", "detail", "--week").stdout
    assert week.startswith("[aish] usage last 7 days: 2 calls")
    assert re.search(r"^  fast\s+main\s+2 calls", week, re.M), week
    service.ok("ask", "from another shell", conv="other")
    assert re.search(r"usage today: 3 calls, .*, 2 conversations$", service.ok("cost", "--today").stdout.strip())


WARN_RE = re.compile(r"^\[aish\] session tokens [\d,]+ have crossed warn_at_tokens=10$", re.M)


def test_warn_at_tokens_warns_exactly_once(stub, service):
    stub.write('[cost]\nwarn_at_tokens = 10\n')
    first = service.ok("ask", "question 1").stderr
    assert len(WARN_RE.findall(first)) == 1, first
    stderr = "".join(service.ok("ask", f"question {n}").stderr for n in range(2, 4))
    service.restart()  # totals are rebuilt from the session log: still warned
    stderr += service.ok("ask", "question 4").stderr
    assert WARN_RE.findall(stderr) == [], stderr
    service.ok("cost", "reset")  # re-arms
    again = service.ok("ask", "question 5").stderr
    assert len(WARN_RE.findall(again)) == 1, again


def test_warn_at_dollars_warns_once_and_rearms_when_raised(config_file, service):
    with StubServer(shape="openrouter") as server:
        priced = model_toml("fast", server.url, "m", "local = false\n")
        config_file(priced + "[cost]\nwarn_at_dollars = 0.0001\n")
        stderr = [service.ok("ask", f"q{n}").stderr for n in range(3)]
        assert re.fullmatch(r"\[aish\] session cost \$0\.\d{4} has crossed "
                            r"warn_at_dollars=\$0\.0001\n", stderr[0]), stderr
        assert stderr[1:] == ["", ""]
        config_file(priced + "[cost]\nwarn_at_dollars = 0.0004\n")  # raised: armed again
        stderr = "".join(service.ok("ask", f"r{n}").stderr for n in range(3))
        assert stderr.count("has crossed warn_at_dollars=$0.0004") == 1, stderr


def test_reset_keeps_the_cost_totals(stub, service):
    service.ok("ask", "hi")
    assert service.ok("reset").returncode == 0
    assert cost_json(service)["calls"] == 1
    service.restart()  # rebuilt from the session log
    assert cost_json(service)["calls"] == 1


def test_openrouter_shape_reports_cost(config_file, service):
    with StubServer(shape="openrouter") as server:
        config_file(model_toml("fast", server.url, "m", "local = false\n"))
        service.ok("ask", "hi")
        data = cost_json(service)
        assert data["cost"] > 0 and data["estimated_calls"] == 0
        line = service.ok("cost").stdout.strip()
        assert SUMMARY_RE.match(line) and "cost=$0 " not in line, line
        row = service.ok("cost", "detail").stdout.splitlines()[1]
        assert "(local)" not in row and re.search(r"\$0\.\d*[1-9]", row), row


def test_server_without_usage_is_counted_as_estimated(stub, service):
    stub.queue(Reply(text="no usage here", usage=None))
    service.ok("ask", "hi")
    data = cost_json(service)
    assert data["calls"] == 1 and data["estimated_calls"] == 1 and data["completion"] > 0
    assert "estimated: 1 call)" in service.ok("cost").stdout
    assert "(local; estimated)" in service.ok("cost", "detail").stdout


def test_tokenize_endpoint_is_used_and_disagreement_shows_est(stub, service):
    stub.write('[tokenize]\nuse_endpoint = true\n')
    reported = {"prompt_tokens": 90000, "completion_tokens": 3, "total_tokens": 90003}
    stub.queue(Reply(text="ok", usage=reported))
    service.ok("ask", "hi there")
    assert stub.tokenize_calls > 0
    row = service.ok("cost", "detail").stdout.splitlines()[1]
    match = re.search(r"90,000 ~est=([\d,]+) / 3 tokens", row)
    assert match, row
    assert 0 < int(match.group(1).replace(",", "")) < 90000


# ---------------------------------------------------------------------------- safety
def test_destructive_command_is_flagged_high(stub, service):
    stub.queue(Reply(text="Clean up:\nCMD: rm -rf ~\n"), Reply(text="Clean up:\nCMD: rm -rf ~\n"))
    data = service.ok("ask", "clean my home").json()
    assert data["commands"] == ["rm -rf ~"]
    assert data["safety"][0]["level"] == "high" and data["safety"][0]["reason"]

    result = service.ok("ask", "clean my home")
    assert result.stdout.rstrip().splitlines()[-1] == "rm -rf ~"
    assert re.search(r"^\s*! high: \S", result.stderr, re.M), result.stderr


def test_explain_streams_and_leaves_the_conversation_alone(stub, service):
    stub.queue(Reply(text="tar: the archiver. -x extracts, -z gunzips, -f names the file."))
    result = service.ok("explain", "tar -xzf a.tgz")
    assert result.stdout.startswith("tar: the archiver. -x extracts")
    sent = json.dumps(stub.requests[-1]["body"]["messages"])
    assert "tar -xzf a.tgz" in sent

    service.ok("ask", "next question")
    contents = " ".join(str(m.get("content")) for m in stub.requests[-1]["body"]["messages"])
    assert "tar -xzf a.tgz" not in contents and "the archiver" not in contents
    assert question(stub.requests[-1]["body"]["messages"][-1]["content"]) == "next question"


def test_fix_outside_a_shell_has_nothing_to_fix_and_asks_nothing(stub, service):
    """`aish fix` in a terminal without aish's hooks knows no failed command: it said
    "exit unknown" to the model with no command at all."""
    done = service.verb("fix")
    assert done.returncode == ExitStatus.NOT_FOUND, (done.stdout, done.stderr)
    assert "nothing failed" in done.stderr and stub.requests == [], done.stderr


@pytest.mark.parametrize("argv", [["status", "--bogus"], ["reset", "now"], ["halt", "x"], ["diff", "HEAD"]])
def test_a_verb_that_takes_no_arguments_refuses_them(stub, service, argv):
    """`aish status --bogus` was accepted as `aish status`."""
    done = service.verb(*argv)
    assert done.returncode == ExitStatus.USAGE, (done.stdout, done.stderr)
    assert f"aish: '{argv[0]}' takes no arguments" in done.stderr, done.stderr
    assert "aish: aish" not in done.stderr, done.stderr  # the prefix once, not twice
