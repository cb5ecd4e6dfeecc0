"""The history is redacted once per turn, not again on every ask (issue 26: at 400 kept turns
re-redacting it was most of the daemon's time), and what a model sees does not change."""
from __future__ import annotations

from aish.safety import secrets
from aish.safety.secrets import Redactor

TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def _history(turns: int) -> list:
    return [{"role": "user" if i % 2 == 0 else "assistant",
             "content": f"turn {i}: deploy with token {TOKEN} please" if i % 7 == 0 else f"turn {i}: ls -la"}
            for i in range(turns)]


def test_each_turn_is_scanned_once_across_asks(monkeypatch):
    scanned: list = []
    real = secrets._find
    monkeypatch.setattr(secrets, "_find", lambda text: scanned.append(text) or real(text))
    r = Redactor()
    history = _history(40)
    first = r.redact_messages(history)
    assert len(scanned) == 40
    history.append({"role": "user", "content": "and now?"})
    second = r.redact_messages(history)
    assert len(scanned) == 41  # only the new turn
    assert second[:40] == first


def test_the_same_messages_and_count_as_redacting_afresh():
    once, fresh = Redactor(), Redactor()
    history = _history(30)
    for _ in range(3):
        assert once.redact_messages(history) == fresh.redact_messages([dict(m) for m in history])
    assert once.count == fresh.count and "<secret:1>" in once.redact_messages(history)[0]["content"]


def test_a_secret_learned_later_is_still_hidden_in_older_turns():
    """A value learned as a strong secret in a later turn is replaced where it stands alone in an
    earlier one from the next ask on, as redacting the whole history afresh does (that ask may
    go to another model)."""
    value = "Zq8#vLm2$Rt9!wXe4"
    history = [{"role": "user", "content": f"is {value} a good one?"}]
    r = Redactor()
    assert value in r.redact_messages(history)[0]["content"]  # alone, it is not recognised
    history.append({"role": "user", "content": f"export DB_PASSWORD='{value}'"})
    r.redact_messages(history)  # learned here
    history.append({"role": "user", "content": "thanks"})
    sent = r.redact_messages(history)
    assert sent[0]["content"] == "is <secret:1> a good one?"


def test_text_redacted_before_comes_back_unchanged_from_a_second_scan():
    """A rescan (a conversation read back from its log, under rules that changed) leaves the
    placeholders alone: a URL's password, an XML element's, a query's key were scanned again
    from the placeholder's colon on (``https://alice:<secret:<secret:2>``, the host hidden)."""
    texts = ["git clone https://alice:correct-horse-battery@git.example.com/team/repo.git",
             'psql "postgres://app:pg-secret-77@db.internal:5432/app"',
             "REDIS_URL=redis://:redispw123@cache:6379/0 ./worker",
             "<password>s3cr3t-Pa55</password>",
             'curl "https://maps.example.com/api/geocode?key=Zx9Lq2Vm7Rk4Pt8N&q=paris"',
             f"export DB_PASSWORD='Zq8#vLm2$Rt9!wXe4' and token {TOKEN}"]
    for text in texts:
        once = Redactor().redact(text)
        assert "<secret:1>" in once, text
        again = Redactor()
        again.reserve(once)
        assert again.redact(once) == once


def test_a_value_learned_later_rescans_only_the_texts_it_stands_in(monkeypatch):
    """A new value joining the known ones made every remembered text be scanned again (at 400
    kept turns, 400 scans; after a restart, every turn taken as logged, issue 26), though only
    a text holding it can change: the others are checked for it, not scanned."""
    scanned: list = []
    real = secrets._find
    monkeypatch.setattr(secrets, "_find", lambda text: scanned.append(text) or real(text))
    r = Redactor()
    value = "Zq8#vLm2$Rt9!wXe4"
    history = _history(30) + [{"role": "user", "content": f"is {value} a good one?"}]
    r.redact_messages(history)
    scanned.clear()
    history.append({"role": "user", "content": f"export DB_PASSWORD='{value}'"})  # learned here
    r.redact_messages(history)
    scanned.clear()
    history.append({"role": "user", "content": "thanks"})
    sent = r.redact_messages(history)  # the next ask: the older turn holding the value changes
    assert sorted(scanned) == sorted([f"is {value} a good one?", "thanks"])
    assert sent[30]["content"] == "is <secret:2> a good one?"
    fresh = Redactor()
    fresh.redact_messages([dict(m) for m in history[:-1]])
    assert fresh.redact_messages([dict(m) for m in history]) == sent  # as scanning them all
