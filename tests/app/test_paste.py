"""A big paste: what one ask may carry is capped (context.max_question_chars), the cut is
said, and earlier turns are never evicted to make room for a paste the model cannot take."""
from __future__ import annotations

from aish.app import receipt
from aish.app.ask import run_ask
from aish.ipc.protocol import Request
from tests.app.test_ask import Script, make, text
from tests.doubles import RecordingReply

PASTE = "".join(f"line {i:06d} of a pasted log\n" for i in range(8000))  # 224 KB


def conversation_then(question: str, stdin: str = "", raw=None):
    script = Script(*(text(f"answer {i}\n") for i in range(4)))
    env, conv = make(script, raw)
    for i in range(3):
        run_ask(env, conv, Request(id=f"r{i}", kind="ask", text=f"short question {i}", shell="zsh"),
                RecordingReply())
    reply = RecordingReply()
    run_ask(env, conv, Request(id="big", kind="ask", text=question, stdin=stdin, shell="zsh"), reply)
    return script.seen[-1][1], reply.statuses, conv


def test_a_200kb_question_is_cut_to_the_cap_and_the_conversation_stays():
    body, statuses, conv = conversation_then(PASTE)
    newest = body[-1]["content"]
    assert len(newest) < 13_000 and newest.startswith("line 000000")
    assert newest.rstrip().endswith("line 007999 of a pasted log")
    assert "characters left out by aish" in newest
    cut = [s for s in statuses if s.startswith("question cut:")]
    assert len(cut) == 1 and cut[0].startswith(
        "question cut: 224,000 characters is over context.max_question_chars (12,000): sent the first 5,9")
    assert [m["content"] for m in body if m["role"] == "user"][:3] == [f"short question {i}" for i in range(3)]
    assert not [s for s in statuses if "evicted" in s]
    assert cut[0] in receipt.last(conv).notes


def test_piped_input_is_capped_too():
    body, statuses, _ = conversation_then("review this", stdin=PASTE)
    assert len(body[-1]["content"]) < 13_000 and body[-1]["content"].startswith("review this")
    assert any(s.startswith("question cut:") for s in statuses)


def test_the_cap_is_configurable():
    body, statuses, _ = conversation_then(PASTE, raw={"context": {"max_question_chars": 500_000,
                                                                  "budget_tokens": 200_000}})
    assert len(body[-1]["content"]) == len(PASTE) and not [s for s in statuses if "cut" in s]


def test_a_question_alone_over_the_budget_never_evicts_the_earlier_turns():
    """Raised cap, small budget: the turns before cannot make room for it, so they stay."""
    body, statuses, _ = conversation_then(PASTE[:40_000], raw={"context": {"max_question_chars": 100_000}})
    assert [m["content"] for m in body if m["role"] == "user"][:3] == [f"short question {i}" for i in range(3)]
    assert any("alone is over context.budget_tokens" in s for s in statuses), statuses
