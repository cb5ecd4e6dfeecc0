import json

from aish.chat import restore
from aish.chat.conversation import Conversation
from aish.chat.session_log import SessionLog


def chars4(text):
    return len(text) // 4


def make(n_pairs, log=None):
    conv = Conversation("t", log)
    for i in range(n_pairs):
        conv.add_user(f"question {i}")
        conv.add_assistant(f"answer {i}")
    return conv


def roles(messages):
    return [m["role"] for m in messages]


def test_messages_alternate_with_one_system_message():
    conv = make(2)
    conv.add_user("unanswered (cancelled)")
    conv.add_user("next question")
    msgs = conv.to_messages("SYS")
    assert roles(msgs) == ["system", "user", "assistant", "user", "assistant", "user"]
    assert msgs[-1]["content"] == "unanswered (cancelled)\n\nnext question"


def test_summary_rendered_inside_the_system_message():
    conv = make(1)
    conv.summary = "user asked about ports"
    msgs = conv.to_messages("SYS")
    assert sum(m["role"] == "system" for m in msgs) == 1
    assert msgs[0]["content"].endswith("[earlier conversation summary]\nuser asked about ports")


def test_eviction_by_max_turns_oldest_first_with_status():
    conv = make(5)
    lines = []
    evicted = conv.enforce_budget(max_turns=3, budget_tokens=10_000, count=chars4, status=lines.append)
    assert evicted == 4
    assert [t.content for t in conv.turns][0] == "question 2"
    assert lines and "evicted 4" in lines[0]


def test_eviction_by_token_budget_keeps_newest_exchange():
    conv = Conversation("t")
    conv.add_user("x" * 400)
    conv.add_assistant("y" * 400)
    conv.add_user("z" * 40)
    conv.enforce_budget(max_turns=20, budget_tokens=50, count=chars4)
    assert [t.content[0] for t in conv.turns] == ["z"]


def test_a_newest_exchange_alone_over_the_budget_evicts_nothing():
    """Evicting every earlier turn cannot make room for it: they stay, and the user hears why."""
    conv = Conversation("t")
    conv.add_user("x" * 400)
    conv.add_assistant("y" * 400)
    conv.add_user("z" * 400)
    said = []
    assert conv.enforce_budget(max_turns=20, budget_tokens=50, count=chars4, status=said.append) == 0
    assert [t.content[0] for t in conv.turns] == ["x", "y", "z"]
    assert said == ["context: this question alone is over context.budget_tokens (50 tokens): "
                    "earlier turns kept"]


def test_tool_turns_evicted_with_their_exchange():
    conv = Conversation("t")
    conv.add_user("q1")
    conv.add_assistant("", tool_calls=[{"id": "c1", "type": "function",
                                        "function": {"name": "n__t", "arguments": "{}"}}])
    conv.add_tool("c1", "result")
    conv.add_assistant("done")
    conv.add_user("q2")
    conv.enforce_budget(max_turns=1, budget_tokens=10_000, count=chars4)
    assert roles(conv.to_messages("S")) == ["system", "user"]


def test_summarize_modes_first_additive_and_compress():
    calls = []

    def summarize(prior, turns):
        calls.append((prior, None if turns is None else len(turns)))
        if turns is None:
            return "short"
        return (prior or "") + "S" * 30

    conv = make(3)
    conv.enforce_budget(max_turns=2, budget_tokens=10_000, count=chars4, summarize=summarize,
                        max_summary_chars=50)
    assert calls == [(None, 2)] and conv.summary == "S" * 30
    conv.add_user("q")
    conv.add_assistant("a")
    conv.enforce_budget(max_turns=2, budget_tokens=10_000, count=chars4, summarize=summarize,
                        max_summary_chars=50)
    assert calls[1] == ("S" * 30, 2)
    assert calls[2] == ("S" * 60, None)  # over max_summary_chars: compress
    assert conv.summary == "short"


def test_failed_summarizer_means_silent_eviction_with_one_status():
    conv = make(3)
    lines = []
    conv.enforce_budget(max_turns=1, budget_tokens=10_000, count=chars4,
                        summarize=lambda p, t: None, status=lines.append)
    assert conv.summary is None and len(conv.turns) == 2
    assert len(lines) == 1 and "summarizer failed" in lines[0]


def test_replay_rebuilds_turns_summary_and_resets(aish_env):
    log = SessionLog("replay-me")
    conv = make(3, log)
    conv.enforce_budget(max_turns=2, budget_tokens=10_000, count=chars4, summarize=lambda p, t: "sum")
    conv.add_user("after")
    restored = Conversation("replay-me", SessionLog("replay-me"))
    restore.replay(restored)
    assert [t.content for t in restored.turns] == [t.content for t in conv.turns]
    assert restored.summary == "sum"
    conv.reset()
    again = Conversation("replay-me", SessionLog("replay-me"))
    restore.replay(again)
    assert again.turns == [] and again.summary is None
    lines = log.path.read_text().splitlines()
    assert all(json.loads(line)["type"] for line in lines)


def test_torn_last_line_is_skipped(aish_env):
    log = SessionLog("torn")
    log.append({"type": "turn", "role": "user", "content": "kept"})
    with open(log.path, "a") as handle:
        handle.write('{"type": "turn", "role": "assis')
    conv = Conversation("torn", SessionLog("torn"))
    restore.replay(conv)
    assert [t.content for t in conv.turns] == ["kept"]


def test_a_line_torn_inside_a_character_is_skipped(aish_env):
    """A daemon killed while writing ``é`` leaves half of it: the rest of the log is read (the
    reading stopped at a decoding error that reached the ask)."""
    log = SessionLog("torn-char")
    log.append({"type": "turn", "role": "user", "content": "déjà vu"})
    log.append({"type": "turn", "role": "assistant", "content": "kept"})
    with open(log.path, "ab") as handle:
        handle.write('{"type": "turn", "role": "user", "content": "caf'.encode() + "é".encode()[:1])
    conv = Conversation("torn-char", SessionLog("torn-char"))
    restore.replay(conv)
    assert [t.content for t in conv.turns] == ["déjà vu", "kept"]


def test_odd_lines_are_skipped_one_by_one(aish_env):
    """Lines are parsed together; lines that would parse together but not alone are read one
    by one (what a line says is never taken from its neighbour)."""
    log = SessionLog("odd")
    log.append({"type": "turn", "role": "user", "content": "first"})
    with open(log.path, "a") as handle:
        handle.write('{"type": "turn", "role": "assistant", "content": "a"}, {"type": "reset"}\n')
        handle.write('[1, 2]\n"text"\n')
    log.append({"type": "turn", "role": "assistant", "content": "second"})
    conv = Conversation("odd", SessionLog("odd"))
    restore.replay(conv)
    assert [t.content for t in conv.turns] == ["first", "second"]


def test_a_question_its_daemon_died_on_is_not_glued_to_the_next(aish_env):
    """The log of a killed daemon ends with (or holds) a user turn and no answer: after
    a restart the next question is sent alone, not merged with the dead one."""
    log = SessionLog("crash")
    for role, content in (("user", "q1"), ("assistant", "a1"), ("user", "died on this"),
                          ("user", "q3"), ("assistant", "a3"), ("user", "died again")):
        log.append({"type": "turn", "role": role, "content": content})
    conv = Conversation("crash", SessionLog("crash"))
    restore.replay(conv)
    assert [t.content for t in conv.turns][:4] == ["q1", "a1", "q3", "a3"]
    conv.drop_unanswered("no answer")  # what an ask does first
    conv.add_user("next")
    assert [m["content"] for m in conv.to_messages("sys")] == ["sys", "q1", "a1", "q3", "a3", "next"]


def test_eviction_with_slack_goes_below_the_limit_so_it_comes_in_batches():
    conv = Conversation("t")
    for n in range(9):
        conv.add_user(f"q{n}")
        conv.add_assistant(f"a{n}")
    assert conv.enforce_budget(max_turns=8, budget_tokens=10_000, count=chars4, slack=0.25) == 6
    assert len(conv.exchanges()) == 6
    conv.add_user("q9")
    conv.add_assistant("a9")
    assert conv.enforce_budget(max_turns=8, budget_tokens=10_000, count=chars4, slack=0.25) == 0
    conv.add_user("q10")
    assert conv.enforce_budget(max_turns=8, budget_tokens=10_000, count=chars4) == 0


def test_a_conversation_is_only_the_transcript():
    """Usage, redactor, attachments, sent history, approvals, the norris task and the answer
    lock are the shell's Session (app/sessions.py), not the transcript's."""
    conv = Conversation("t")
    for attr in ("usage", "redactor", "attachments", "sent_history", "task", "always_approved", "lock"):
        assert not hasattr(conv, attr), attr


def test_a_system_message_and_tool_schemas_over_the_budget_are_named_not_the_question():
    """With many MCP tools the schemas (counted with the system message) can fill the budget
    by themselves: the line says so and names the fix, not "this question"."""
    conv = Conversation("t")
    conv.add_user("x" * 40)
    conv.add_assistant("y" * 40)
    conv.add_user("z" * 40)
    said = []
    conv.enforce_budget(max_turns=20, budget_tokens=50, count=chars4, system_prompt="s" * 400,
                        status=said.append)
    assert said == ["context: the system message and the tools' schemas alone take 100 of "
                    "context.budget_tokens (50 tokens): offer fewer tools (enabled_tools / disabled_tools "
                    "of a server) or raise the budget"], said
