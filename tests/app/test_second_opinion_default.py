"""The second opinion on by default with a local model: only for commands the rules do not
know that look like they write, after the answer (never delaying it), cached, costed ``probe``."""
from __future__ import annotations

import threading
import time

import pytest

from aish.app.ask import AskEnv, run_ask
from aish.app.sessions import Session
from aish.config.load import from_dict
from aish.cost.usage import UsageTotals
from aish.errors import ConfigError
from aish.ipc.protocol import Request
from aish.safety.opinions import Opinions
from aish.safety.secrets import Redactor
from tests.app.test_ask import Script, Tokens, text
from tests.doubles import RecordingReply

LOCAL = {"main": {"endpoint": "http://127.0.0.1:9", "model": "qwen"}}
CLOUD = {"main": {"endpoint": "https://api.example.invalid", "model": "gpt"}}


class ProbeScript(Script):
    """The ask's own calls are scripted; a safety probe (its system message) goes to ``probe``."""

    def __init__(self, *calls, probe):
        super().__init__(*calls)
        self.probe = probe
        self.probes = []

    def stream(self, model, messages, tools=None, cancel=None, **kw):
        if messages and "You rate how dangerous a shell command is" in messages[0]["content"]:
            self.probes.append(messages[-1]["content"])
            answer = self.probe()
            yield from text(answer)
            return
        yield from super().stream(model, messages, tools=tools, cancel=cancel, **kw)


def _ask(models, answers, probe, safety=None, opinions=None):
    cfg = from_dict({"models": models, "default_model": "main", **({"safety": safety} if safety else {})})
    script = ProbeScript(*[text(a) for a in answers], probe=probe)
    opinions = opinions or Opinions()
    env = AskEnv(config=cfg, tokens=Tokens(), stream=script.stream, opinions=opinions)
    conv = Session("t", usage=UsageTotals(), redactor=Redactor())
    results = []
    for _ in answers:
        reply = RecordingReply()
        req = Request(id="r", kind="ask", text="q", shell="zsh", cwd="/tmp", env_complete=True)
        results.append((run_ask(env, conv, req, reply), reply))
        opinions.settle(10)  # background probes land before the next ask
    return results, script, conv


def test_an_unknown_writer_is_probed_after_the_answer_and_the_cached_opinion_serves_the_next_time():
    answer = "Sync it.\nCMD: frobctl sync --overwrite prod-data\n"
    results, script, conv = _ask(LOCAL, [answer, answer], lambda: "LEVEL: high - overwrites the prod data")
    first, second = results
    assert first[1].commands[0][1] is None  # the first answer went out with the local verdict (none)
    assert len(script.probes) == 1 and "frobctl sync --overwrite prod-data" in script.probes[0]
    assert second[1].commands[0][1] == "high" and "overwrites the prod data" in second[1].commands[0][2]
    rows = conv.usage.rows()
    assert any(r.get("category") == "probe" for r in rows), rows


def test_the_probe_never_delays_the_answer():
    gate = threading.Event()

    def slow_probe():
        gate.wait(10)
        return "LEVEL: low - fine"

    start = time.monotonic()
    opinions = Opinions()
    cfg = from_dict({"models": LOCAL, "default_model": "main"})
    script = ProbeScript(text("CMD: frobctl apply --force\n"), probe=slow_probe)
    env = AskEnv(config=cfg, tokens=Tokens(), stream=script.stream, opinions=opinions)
    conv = Session("t", usage=UsageTotals(), redactor=Redactor())
    reply = RecordingReply()
    run_ask(env, conv, Request(id="r", kind="ask", text="q", shell="zsh", cwd="/tmp"), reply)
    assert time.monotonic() - start < 5 and reply.commands and not gate.is_set()
    gate.set()
    opinions.settle(10)
    assert opinions.cached("main", "frobctl apply --force").level == "low"


@pytest.mark.parametrize("command", ["ls -la", "rm -rf build", "git status", "frobctl list", "rm -rf ~"])
def test_known_or_read_only_commands_are_not_probed(command):
    _, script, _ = _ask(LOCAL, [f"CMD: {command}\n"], lambda: "LEVEL: high - x")
    assert script.probes == []


def test_a_cloud_default_model_or_off_means_no_probe():
    answer = "CMD: frobctl sync --overwrite prod-data\n"
    _, script, _ = _ask(CLOUD, [answer], lambda: "LEVEL: high - x")
    assert script.probes == []
    _, script, _ = _ask(LOCAL, [answer], lambda: "LEVEL: high - x", safety={"second_opinion": "off"})
    assert script.probes == []


def test_second_opinion_takes_auto_or_off():
    base = {"models": LOCAL, "default_model": "main"}
    assert from_dict(base).safety.second_opinion == "auto"
    with pytest.raises(ConfigError, match="safety.second_opinion"):
        from_dict({**base, "safety": {"second_opinion": "sometimes"}})
