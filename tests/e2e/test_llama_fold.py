"""Folding against the real llama-cpp-python server (the `llama` extra), on a tiny model this
test writes that talks (bench/tiny_gguf.py's ``make_talking_gguf``: whatever it is asked, one
sentence again and again), so the conversation grows and folds as a real one does.

A local server serves one request at a time and keeps the last prompt it evaluated; its
log says, per request, how many prompt tokens it evaluated.  The ask after a fold must find
the folded conversation already there (sent for one token after the fold), and an ask that
comes while a fold runs must neither be cut short nor cut the summary short (llama-cpp-python
ends the stream in flight when another request comes).  Slow by nature: .ci/run installs
the extra and runs these after the default suite."""
from __future__ import annotations

import json
import sys
import threading
from pathlib import Path

import pytest

from tests.helpers import model_toml

pytestmark = pytest.mark.slow

WINDOW = 4096
SUMMARY_TOKENS = 48
BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))
try:
    from tiny_gguf import SENTENCE, LlamaServer, make_talking_gguf, prompt_evals
finally:
    sys.path.remove(str(BENCH))


@pytest.fixture(scope="module")
def llama(tmp_path_factory):
    """``python -m llama_cpp.server`` on the talking model (small: a token costs little)."""
    where = tmp_path_factory.mktemp("gguf")
    model = make_talking_gguf(where / "talking.gguf", n_embd=64, n_layer=2, n_ff=128, n_ctx=WINDOW)
    with LlamaServer(model, WINDOW, where / "server.log") as url:
        yield url, where / "server.log"


@pytest.fixture
def folds_done(monkeypatch):
    """Set once every fold started after an answer has ended (the daemon runs them on its
    background threads; a wait on the session's folding lock alone could come before one starts)."""
    from aish.app import after_answer

    pending = [0]
    cond = threading.Condition()
    start = after_answer.in_background

    def tracked(job, session, *args) -> None:
        def run(status) -> None:
            try:
                job(status)
            finally:
                with cond:
                    pending[0] -= 1
                    cond.notify_all()
        with cond:
            pending[0] += 1
        start(run, session, *args)

    monkeypatch.setattr(after_answer, "in_background", tracked)

    def wait() -> None:
        with cond:
            assert cond.wait_for(lambda: pending[0] == 0, timeout=120), "a fold did not end"

    return wait


def configure(config_file, url: str) -> None:
    config_file(model_toml("fast", url, "tiny", "max_tokens = 24\n")
                + f'[context]\nmax_turns = 4\nsummarize_on_evict = true\nsummarizer_model = "fast"\n'
                f"summarizer_max_tokens = {SUMMARY_TOKENS}\n")


def log_entries(service, conv: str) -> list:
    path = service.service.session(conv).log.path
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def count(entries: list, kind: str) -> int:
    return sum(1 for e in entries if e.get("type") == kind)


def whole_summary() -> str:
    """What the model says in SUMMARY_TOKENS tokens: a summary that was not cut short."""
    pieces = [SENTENCE[i % len(SENTENCE)] for i in range(SUMMARY_TOKENS)]
    return "".join("\n" if p == "<0x0A>" else p.replace("\u2581", " ") for p in pieces).strip()


@pytest.mark.timeout(600)
def test_the_ask_after_a_fold_finds_the_folded_conversation_in_the_servers_cache(llama, config_file, service,
                                                                                 folds_done):
    url, server_log = llama
    configure(config_file, url)
    conv = "fold-calm"
    after_fold: list = []  # (prompt tokens the server evaluated for the ask, the ask's prompt)
    folded = False  # a fold ran after the last answer
    for n in range(9):
        evaluated = len(prompt_evals(server_log))
        result = service.ask(f"question {n}: which process holds port {8000 + n}?", conv=conv)
        assert result.returncode == 0 and result.text.startswith("Run lsof -i :8080"), (n, result.stderr)
        usage = [e for e in log_entries(service, conv) if e.get("type") == "usage" and e.get("category") == "main"]
        if folded:
            after_fold.append((prompt_evals(server_log)[evaluated:], usage[-1]["est_prompt"]))
        folds = count(log_entries(service, conv), "evict")
        folds_done()  # the fold after this answer, and its warm-up of the server
        folded = count(log_entries(service, conv), "evict") > folds
    entries = log_entries(service, conv)
    assert count(entries, "summary") >= 2 and service.service.session(conv).conversation.summary
    assert after_fold, "no ask came after a fold"
    for evals, prompt in after_fold:
        # one request (no summary in front of it), and the server evaluated only the new question
        assert len(evals) == 1 and evals[0] < prompt / 2, (evals, prompt, after_fold)


@pytest.mark.timeout(600)
def test_asks_that_come_while_a_fold_runs_are_answered_in_full_and_no_summary_is_cut(llama, config_file,
                                                                                     service, folds_done):
    url, _ = llama
    configure(config_file, url)
    conv = "fold-quick"
    said = ""
    for n in range(10):  # no time to read: each ask comes as soon as the last answer is in
        result = service.ask(f"question {n}: which process holds port {8000 + n}?", conv=conv)
        assert result.returncode == 0 and result.text.startswith("Run lsof -i :8080"), (n, result.stderr)
        said += result.stderr
    folds_done()
    entries = log_entries(service, conv)
    summaries = [e["text"] for e in entries if e.get("type") == "summary"]
    assert summaries, "nothing folded"
    assert all(text == whole_summary() for text in summaries), summaries
    assert "without a summary" not in said, said
