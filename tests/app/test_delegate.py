"""Delegation: `DELEGATE:` lines followed only for allowed models, depth 1, costed as `delegate`."""
from __future__ import annotations

from aish.app.ask import run_ask
from tests.doubles import RecordingReply
from aish.llm.events import Usage
from tests.app.test_ask import Script, make, req, text


def test_an_allowed_handoff_runs_returns_and_is_followed_once():
    script = Script(text("Let me check.\nDELEGATE: deep: count the lines of a.txt\n", Usage(10, 5, 15)),
                    text("42 lines"),
                    text("It has 42 lines.\nDELEGATE: deep: again\nCMD: wc -l a.txt\n", Usage(30, 7, 37)))
    env, session = make(script, {"delegate": {"allow": ["deep"]}})
    reply = RecordingReply()
    result = run_ask(env, session, req("how long is a.txt?"), reply)
    assert [name for name, _, _ in script.seen] == ["fast", "deep", "fast"]  # depth 1: no 4th call
    assert "DELEGATE: <model>: <task>" in script.seen[0][1][0]["content"]
    assert script.seen[1][1][-1]["content"] == "count the lines of a.txt"
    back = script.seen[2][1][-1]["content"]
    assert "[delegated to deep: count the lines of a.txt]\n42 lines" in back
    assert [t.role for t in session.conversation.turns] == ["user", "assistant", "user", "assistant"]
    assert "42 lines" in reply.full_text and result.commands == ["wc -l a.txt"]
    assert any("delegated to deep" in s for s in reply.statuses)
    assert "delegate" in str(session.usage.to_json())
    assert result.usage["prompt_tokens"] == 40  # the main model's two calls


def test_delegation_is_off_by_default_and_limited_to_allowed_models():
    script = Script(text("DELEGATE: deep: do it\n"))
    env, session = make(script)
    run_ask(env, session, req(), RecordingReply())
    assert len(script.seen) == 1
    assert "DELEGATE" not in script.seen[0][1][0]["content"]

    script = Script(text("DELEGATE: cloud: do it\n"))
    env, session = make(script, {"delegate": {"allow": ["deep"]}})
    reply = RecordingReply()
    run_ask(env, session, req(), reply)
    assert len(script.seen) == 1
    assert any("DELEGATE to cloud ignored: not in delegate.allow" in s for s in reply.statuses)
