"""A conversation reloaded after a restart is not redacted all over again (issue 26: scanning
its kept turns was about half of the reload's own cost), yet what newer rules recognise in an
old turn is still hidden: each logged turn carries the digest of the rules that redacted it,
and only a turn redacted under other rules (or by a daemon that tagged nothing) is scanned again."""
from __future__ import annotations

import json
from pathlib import Path

from aish.app import sessions
from aish.chat.session_log import log_path
from aish.safety import secret_formats, secret_rules, secrets
from tests.chat.test_request_identity import TOKEN, ask, body_of, same_as_scratch, scratch

URL = "https://alice:correct-horse-battery@git.example.com/team/repo.git"
NEW_SHAPE = "newco-" + "harbor-lantern-quiet-42"  # a token format this daemon's rules do not know


def scanned_texts(monkeypatch) -> list:
    seen: list = []
    real = secrets._find
    monkeypatch.setattr(secrets, "_find", lambda text: seen.append(text) or real(text))
    return seen


def test_turns_logged_under_the_same_rules_are_not_scanned_again(aish_env, monkeypatch):
    live = scratch("c")
    for i in range(6):
        ask(live, f"question {i}: the deploy fails with token {TOKEN}" if i == 2 else f"question {i}", f"answer {i}")
    restarted = scratch("c")
    seen = scanned_texts(monkeypatch)
    data = body_of(restarted)
    assert not [text for text in seen if "question" in text or "answer" in text], seen
    assert TOKEN not in data.decode() and b"<secret:1>" in data
    assert data == body_of(live)


def test_a_value_the_restarted_daemon_learns_rescans_only_the_turns_it_stands_in(aish_env, monkeypatch):
    """A question after the restart that holds a secret (a token in the working directory's
    name, in every question) had every turn taken as logged scanned again."""
    live = scratch("c")
    for i in range(6):
        ask(live, f"question {i}", f"answer {i}")
    restarted = scratch("c")
    seen = scanned_texts(monkeypatch)
    ask(restarted, f"and with {TOKEN}?", None)
    body_of(restarted)
    assert not [text for text in seen if "question" in text or "answer" in text], seen


def test_an_old_turn_is_scanned_again_once_the_rules_change(aish_env, monkeypatch):
    """A daemon whose rules recognise a shape the old one let through (an upgrade) hides it in
    the turns that the old one logged in clear."""
    live = scratch("c")
    ask(live, f"the build reads {NEW_SHAPE} from the env, then clones {URL}", "it does")
    ask(live, "and now?", "now it works")
    assert NEW_SHAPE in log_path("c").read_text()  # the old rules let it through
    new_shape = secret_formats.lazy(r"newco-[a-z-]+-[0-9]{2}")
    scan = secret_formats.scan
    monkeypatch.setattr(secret_formats, "scan",
                        lambda text: [*scan(text), *(m.span() for m in new_shape.finditer(text))])
    monkeypatch.setattr(secret_rules, "_digest", "0123456789abcdef")  # the rules' sources changed
    data = body_of(scratch("c"))
    assert NEW_SHAPE not in data.decode() and b"<secret:2>" in data
    assert b"https://alice:<secret:1>@git.example.com/team/repo.git" in data  # the old placeholder kept


def test_with_the_same_rules_an_old_turn_is_sent_as_logged(aish_env, monkeypatch):
    """The other side of the test above: without a change of digest, the turn is not scanned
    again (so the digest, not a scan, decides)."""
    live = scratch("c")
    ask(live, f"the build reads {NEW_SHAPE} from the env", "it does")
    new_shape = secret_formats.lazy(r"newco-[a-z-]+-[0-9]{2}")
    scan = secret_formats.scan
    monkeypatch.setattr(secret_formats, "scan",
                        lambda text: [*scan(text), *(m.span() for m in new_shape.finditer(text))])
    assert NEW_SHAPE in body_of(scratch("c")).decode()


def test_turns_an_older_daemon_logged_are_scanned_again(aish_env):
    """A log written before turns carried the digest (or by hand): every turn is scanned."""
    path = log_path("old")
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [{"type": "turn", "role": "user", "content": f"deploy with {TOKEN}"},
             {"type": "turn", "role": "assistant", "content": "done"}]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    data = body_of(sessions._rebuilt("old", None))
    assert TOKEN not in data.decode() and b"<secret:1>" in data


def test_a_value_learned_after_the_restart_is_hidden_in_the_turns_taken_as_logged(aish_env):
    """A turn taken as logged is scanned again once the restarted redactor learns a value (it
    may stand in that turn), as every turn was before."""
    value = "Zq8#vLm2$Rt9!wXe4"  # recognised only beside a secret's name
    live = scratch("c")
    ask(live, f"is {value} a good one?", "it is long")
    restarted = scratch("c")
    ask(restarted, f"export DB_PASSWORD='{value}'", None)  # learned here, after the restart
    assert value not in body_of(restarted).decode()


def test_a_url_password_turn_is_sent_the_same_after_a_restart(aish_env):
    """Redacted text scanned again gave ``https://<secret:<secret:2>``: the placeholder's colon
    read as a URL's password separator (the host hidden, the request unlike the live one's)."""
    live = scratch("c")
    ask(live, f"git clone {URL} fails", "check the host")
    data = same_as_scratch(live)
    assert b"https://alice:<secret:1>@git.example.com/team/repo.git" in data


def test_the_digest_covers_every_module_of_the_rules():
    package = Path(secrets.__file__).parent
    files = {path.name for path in package.glob("secret*.py")} - {"secret_rules.py"} | {"lazy_regex.py"}
    covered = {Path(__import__(name, fromlist=["_"]).__file__).name for name in secret_rules.rule_modules()}
    assert files <= covered, files - covered


def test_the_digest_changes_with_a_rule_module_source(monkeypatch):
    before = secret_rules.compute()
    real = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes",
                        lambda path: real(path) + (b"#" if path.name == "secret_formats.py" else b""))
    after = secret_rules.compute()
    assert before and after and before != after


def test_a_tool_calls_arguments_are_logged_redacted_and_sent_the_same_after_a_restart(aish_env):
    """The log on disk never holds a secret in clear: a tool call's arguments were logged as the
    model wrote them (only a turn's text was redacted)."""
    live = scratch("c")
    ask(live, "read the deploy config", None)
    call = {"id": "t1", "type": "function",
            "function": {"name": "read", "arguments": json.dumps({"header": f"Authorization: token {TOKEN}"})}}
    live.conversation.add_assistant("", tool_calls=[call])
    live.conversation.add_tool("t1", "done")
    live.conversation.add_assistant("it is read")
    assert TOKEN not in log_path("c").read_text()
    data = same_as_scratch(live)
    assert TOKEN not in data.decode()
    other = "glpat-" + "Xy7Qw3Er9Ty2Ui5Op1As"
    restarted = scratch("c")
    for session in (live, restarted):  # a new secret gets the number the live daemon gives it
        ask(session, f"and this one, {other}?", None)
    assert body_of(live) == body_of(restarted)
