"""Redaction before anything is sent, and restoring placeholders locally."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Optional


from aish.safety.secrets import Redactor, streaming_restorer

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


def corpus_lines(name: str) -> list[str]:
    """Non-comment lines; "~~" is dropped (it keeps fake tokens from looking real in the repo)."""
    lines = (CORPUS / name).read_text(encoding="utf-8").splitlines()
    return [line.replace("~~", "") for line in lines if line.strip() and not line.startswith("#")]


POSITIVE = corpus_lines("secrets_positive.txt")
NEGATIVE = corpus_lines("secrets_negative.txt")


def test_corpora_are_big_enough():
    assert len(POSITIVE) >= 40 and len(NEGATIVE) >= 40
    assert all("«" in line for line in POSITIVE)


def _not_redacted(marked: str) -> Optional[str]:
    """Why a «marked» corpus line fails (a secret survived, no placeholder, not restored), or None."""
    secrets = re.findall("«(.*?)»", marked)
    line = marked.replace("«", "").replace("»", "")
    redactor = Redactor()
    redacted = redactor.redact(line)
    survived = [secret for secret in secrets if secret in redacted]
    if survived:
        return f"{survived!r} survived in {redacted!r}"
    if "<secret:" not in redacted or redactor.count < len(secrets):
        return f"{redactor.count} placeholders for {len(secrets)} secrets: {redacted!r}"
    if redactor.restore(redacted) != line:
        return f"restored as {redactor.restore(redacted)!r}"
    return None


# One case per corpus file, not per line (pytest's own cost per case was ten times the
# redaction); a failure names each line that failed, and why.
def test_every_secret_is_replaced_and_restored():
    wrong = [f"{marked!r}: {why}" for marked in POSITIVE if (why := _not_redacted(marked))]
    assert not wrong, f"{len(wrong)} of {len(POSITIVE)} lines of secrets_positive.txt:\n" + "\n".join(wrong)


def test_everyday_text_is_left_alone():
    wrong = [f"{line!r} -> {redacted!r}" for line in NEGATIVE if (redacted := Redactor().redact(line)) != line]
    assert not wrong, f"{len(wrong)} of {len(NEGATIVE)} lines of secrets_negative.txt:\n" + "\n".join(wrong)


def test_structure_stays_so_the_model_can_help():
    r = Redactor()
    assert r.redact("export OPENAI_API_KEY=sk-proj-" + "abc123DEF456ghi789JKL0") == "export OPENAI_API_KEY=<secret:1>"
    assert r.redact("curl -H 'Authorization: Bearer abcdef123456' https://x.test") == \
        "curl -H 'Authorization: Bearer <secret:2>' https://x.test"
    assert r.redact("psql postgres://app:pw-99@db.test:5432/app") == "psql postgres://app:<secret:3>@db.test:5432/app"
    assert r.redact("mysql -u root -p'my pw' shop") == "mysql -u root -p'<secret:4>' shop"


def test_same_secret_same_placeholder_also_without_context():
    r = Redactor()
    first = r.redact("DB_PASSWORD=hunter2-long ./run")
    later = r.redact("it fails with: login as app using hunter2-long")
    assert first == "DB_PASSWORD=<secret:1> ./run"
    assert later.endswith("using <secret:1>") and r.count == 2


def test_multiline_private_key_block_keeps_its_frame():
    body = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\nAAAAMwAAAAtzc2gtZWQyNTUxOQAAACD"
    text = f"key:\n-----BEGIN OPENSSH PRIVATE KEY-----\n{body}\n-----END OPENSSH PRIVATE KEY-----\nok"
    r = Redactor()
    out = r.redact(text)
    assert "AAAAMwAAAAtzc2g" not in out and "b3BlbnNz" not in out
    assert "-----BEGIN OPENSSH PRIVATE KEY-----\n<secret:1>\n-----END OPENSSH PRIVATE KEY-----" in out
    assert r.restore(out) == text
    cut = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA1234\nabcdEFGH5678\n\nafter"
    assert "MIIEp" not in r.redact(cut) and "after" in r.redact(cut)


def test_restore_leaves_unknown_and_foreign_placeholders():
    r = Redactor()
    r.redact("TOKEN=abc123xyz")
    assert r.restore("a <secret:1> b <secret:9> c") == "a abc123xyz b <secret:9> c"
    assert Redactor().restore("<secret:1>") == "<secret:1>"


def test_redact_messages_copies_and_covers_tool_call_arguments():
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    messages = [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": f"why does {token} fail"},
        {"role": "assistant", "content": "", "tool_calls": [
            {"id": "c1", "type": "function",
             "function": {"name": "gh__auth", "arguments": json.dumps({"token": token})}}]},
        {"role": "tool", "tool_call_id": "c1", "content": [{"type": "text", "text": f"got {token}"}]},
    ]
    original = json.dumps(messages)
    r = Redactor()
    sent = r.redact_messages(messages)
    assert json.dumps(messages) == original  # the input is untouched
    assert token not in json.dumps(sent)
    assert json.loads(sent[2]["tool_calls"][0]["function"]["arguments"]) == {"token": "<secret:1>"}
    assert sent[0] == messages[0] and sent[3]["content"][0]["text"] == "got <secret:1>"


def test_state_holds_no_secret_and_keeps_numbering():
    r = Redactor()
    r.redact("PASSWORD=correct-horse TOKEN=battery-staple")
    state = r.to_dict()
    assert "correct-horse" not in json.dumps(state) and "battery-staple" not in json.dumps(state)
    fresh = Redactor.from_dict(state)
    assert fresh.restore("<secret:1>") == "<secret:1>"  # after a restart an old placeholder stays
    assert fresh.redact("PASSWORD=new-one-here") == "PASSWORD=<secret:3>"


def test_streaming_restorer_handles_every_split():
    r = Redactor()
    r.redact("TOKEN=abc123xyz")
    text = "run: curl -H 'X: <secret:1>' x <secr and <secret:77> and <"
    expected = r.restore(text)
    for cut in range(len(text) + 1):
        for cut2 in range(cut, len(text) + 1, 7):
            restore = streaming_restorer(r)
            out = restore(text[:cut]) + restore(text[cut:cut2]) + restore(text[cut2:]) + restore.flush()
            assert out == expected


def test_streaming_restorer_holds_back_only_a_placeholder_prefix():
    r = Redactor()
    r.redact("TOKEN=abc123xyz")
    restore = streaming_restorer(r)
    assert restore("use <b>bold</b> and <sec") == "use <b>bold</b> and "
    assert restore("ret:1> now") == "<secret:1> now".replace("<secret:1>", "abc123xyz")
    assert restore("a < b") == "a < b"
    assert restore("x <secret:") == "x "
    assert restore.flush() == "<secret:"


def test_100kb_of_everyday_text_is_left_alone():
    """Its speed is measured by bench/bench_secrets.py, not here (no timed unit tests)."""
    lines = NEGATIVE + corpus_lines("everyday.txt")
    text = "\n".join(lines)
    text = (text * (100_000 // len(text) + 1))[:100_000]
    r = Redactor()
    assert r.redact(text) == text and r.count == 0
