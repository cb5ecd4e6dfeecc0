"""Safety in an ask: the second opinion over HTTP (`responses`) and the loopback stub, counted as
`probe`; the preview travelling with the warning and in the JSON."""
from __future__ import annotations

import json

import responses

from aish.app.ask import AskEnv, run_ask
from aish.app.sessions import Session
from aish.config.load import from_dict
from aish.cost.usage import UsageTotals
from aish.ipc.protocol import Request
from tests.doubles import RecordingReply
from aish.llm import broker
from aish.safety.opinions import Opinions
from aish.safety.secrets import Redactor
from tests.app.test_ask import Script, Tokens, text
from tests.stub_server import Reply, StubServer


MODELS = {"main": {"endpoint": "http://main.invalid", "model": "big"},
          "judge": {"endpoint": "http://judge.invalid", "model": "small"}}


def _ask(answer, complete, judge_endpoint=None):
    models = dict(MODELS)
    if judge_endpoint:
        models["judge"] = {"endpoint": judge_endpoint, "model": "small"}
    cfg = from_dict({"models": models, "default_model": "main",
                     "safety": {"llm_model": "judge", "llm_timeout": 10}})
    script = Script(text(answer), side_models=["judge"])
    script.complete = complete  # the second opinion's model answers through it
    env = AskEnv(config=cfg, tokens=Tokens(), stream=script.stream, opinions=Opinions())
    session = Session("t", usage=UsageTotals(), redactor=Redactor())
    reply = RecordingReply()
    req = Request(id="r", kind="ask", text="q", shell="zsh", cwd="/tmp", env_complete=True)
    return run_ask(env, session, req, reply), reply, session


@responses.activate
def test_second_opinion_goes_over_http_as_a_probe_and_reaches_the_command_frame():
    body = "".join(f"data: {json.dumps(c)}\n\n" for c in [
        {"choices": [{"delta": {"content": "LEVEL: high - unpushed work on main"}}]},
        {"choices": [], "usage": {"prompt_tokens": 30, "completion_tokens": 9}}]) + "data: [DONE]\n\n"
    responses.add(responses.POST, "http://judge.invalid/v1/chat/completions", body=body,
                  content_type="text/event-stream")
    result, reply, session = _ask("CMD: git reset --hard\nCMD: ls\n", broker.chat_complete)
    sent = json.loads(responses.calls[0].request.body)
    assert sent["model"] == "small" and "git reset --hard" in sent["messages"][-1]["content"]
    assert len(responses.calls) == 1  # `ls` is not asked about
    command, level, reason = reply.commands[0]
    assert level == "high" and reason.startswith("unpushed work on main (second opinion")
    assert result.safety[1]["level"] is None
    rows = session.usage.rows()
    assert any(r.get("category") == "probe" and r.get("model") == "judge" for r in rows), rows


def test_second_opinion_against_the_loopback_stub():
    with StubServer() as stub:
        stub.queue(Reply(text="LEVEL: high - deletes the acme cluster web and its data"))
        result, reply, _ = _ask("CMD: acme clusters delete web\n", broker.chat_complete,
                                judge_endpoint=stub.url)  # medium locally: a second opinion is asked
        assert "acme clusters delete web" in stub.requests[-1]["body"]["messages"][-1]["content"]
    assert reply.commands[0][1] == "high" and "deletes the acme cluster web" in reply.commands[0][2]


def test_preview_travels_with_the_warning_and_in_json():
    result, reply, _ = _ask('CMD: rm -rf "$DIR"/*\n', lambda *a, **k: ("LEVEL: high - x", None))
    entry = result.safety[0]
    assert entry["level"] == "high" and "would run: rm -rf /*" in entry["preview"]
    assert "would run: rm -rf /*" in reply.commands[0][2]


def test_explain_warns_with_the_level_and_the_preview_first(tmp_path):
    (tmp_path / "a.log").touch()
    (tmp_path / "b.log").touch()
    script = Script(text("rm: remove."))
    cfg = from_dict({"models": MODELS, "default_model": "main"})
    env = AskEnv(config=cfg, tokens=Tokens(), stream=script.stream)
    session = Session("t", usage=UsageTotals(), redactor=Redactor())
    reply = RecordingReply()
    run_ask(env, session, Request(id="r", kind="ask", mode="explain", buffer="rm -rf *",
                               cwd=str(tmp_path), env_complete=True), reply)
    assert reply.warnings[0].startswith("high: ")
    assert reply.warnings[1] == f"would touch: * matches 2 entries in {tmp_path}"


def _ask_asking_the_shell(answer, variables):
    """An interactive shell's request: `vars=ask`, its variables only on request."""
    cfg = from_dict({"models": MODELS, "default_model": "main"})
    script = Script(text(answer))
    env = AskEnv(config=cfg, tokens=Tokens(), stream=script.stream)
    session = Session("t", usage=UsageTotals(), redactor=Redactor())
    reply = RecordingReply(variables=variables)
    req = Request(id="r", kind="ask", text="q", shell="bash", cwd="/tmp", vars_on_request=True)
    return run_ask(env, session, req, reply), reply


def test_the_shell_is_asked_for_its_variables_once_and_only_for_a_flagged_command():
    result, reply = _ask_asking_the_shell('CMD: rm -rf "$TARGET"/*\nCMD: rm -rf "$TARGET"/.cache\n',
                                          {"TARGET": "/srv/data", "API_TOKEN": None})
    assert reply.variables_asked == 1
    assert "would run: rm -rf /srv/data/*" in result.safety[0]["preview"]
    _, quiet = _ask_asking_the_shell("CMD: ls -la\n", {"TARGET": "/srv/data"})
    assert quiet.variables_asked == 0   # nothing flagged: the shell spends nothing on it


def test_a_shell_that_cannot_send_its_variables_still_gets_its_warning():
    result, reply = _ask_asking_the_shell('CMD: rm -rf "$TARGET"/*\n', None)
    assert reply.variables_asked == 1
    assert result.safety[0]["level"] == "high" and reply.commands[0][1] == "high"
