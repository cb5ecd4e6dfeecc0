"""The verdicts kept per test process (``kept.py``) are those a fresh judgement gives: on a sample of the
corpora, in other homes, users and directories, with every rule asked, and for a case that patches."""
from __future__ import annotations

import os
import random
import re
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from aish.safety.assess import Verdict, assess
from aish.safety.rules import triggers
from tests.safety import kept

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


def _sample(count: int) -> list:
    lines = []
    for path in [CORPUS / "everyday.txt", CORPUS / "destructive.txt", *sorted((CORPUS / "fresh").glob("*.txt"))]:
        lines += [re.sub(r"^\[[\w-]+\] ", "", line).replace("⏎", "\n") for line in
                  path.read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")]
    return random.Random(22).sample(lines, count)


@contextmanager
def _environment(**values: str) -> Iterator[None]:
    """Set variables without ``monkeypatch`` (which would pause the memo: conftest.py)."""
    before = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def test_a_kept_verdict_is_the_one_a_fresh_judgement_gives():
    sample = _sample(30) + ["rm -rf /home/zed", "rm -rf /srv/data", "del /s /q C:\\Users\\zed", "rm -rf usr"]
    wrong = []
    for environment, cwd in [({}, ""), ({"HOME": "/home/zed"}, ""), ({"HOME": "/srv/data", "USER": "zed"}, "/"),
                             ({"USERNAME": "zed"}, "/etc")]:
        with _environment(**environment):
            for line in sample:
                fresh = assess(line, cwd)
                first, again = kept.assess(line, cwd), kept.assess(line, cwd)  # judged or kept, then kept
                if not fresh == first == again:
                    wrong.append((environment, cwd, line, fresh, first, again))
    with triggers.checked() as missed_fresh:
        fresh = [assess(line, "/srv") for line in sample]
    with triggers.checked() as missed_kept:
        first, again = [kept.assess(line, "/srv") for line in sample], [kept.assess(line, "/srv") for line in sample]
    wrong += [line for line, a, b, c in zip(sample, fresh, first, again) if not a == b == c]
    assert wrong == [] and missed_fresh == missed_kept == []
    assert sum(verdict is not None for verdict in fresh) > 10  # verdicts to compare, not only silences


def test_the_key_holds_the_home_the_user_and_the_directory():
    with _environment(HOME="/root", USER="root"):
        theirs = kept.assess("rm -rf /home/zed")
    with _environment(HOME="/home/zed", USER="root"):
        yours = kept.assess("rm -rf /home/zed")
    with _environment(HOME="/root", USERNAME="zed"):
        windows = kept.assess("del /s /q C:\\Users\\zed")
    assert "another user's home" in theirs.reason and "your home" in yours.reason and "your home" in windows.reason
    assert kept.assess("rm -rf usr", "/").level == "high" and kept.assess("rm -rf usr", "/tmp/x").level != "high"


def test_with_every_rule_asked_a_line_is_judged_so_and_its_misses_listed_each_time():
    line = "kept-test-tool --frob 1"
    calls = []

    class Judge:  # a rule that answers where its words are absent, as checked() would list it
        _TIME_BUDGET = 1.0

        @staticmethod
        def assess(command: str, cwd: str = "") -> Verdict:
            calls.append(triggers._missed is not None)
            if triggers._missed is not None:
                triggers._missed.append(("some.rule", command))
                return Verdict("high", "asked anyway")
            return Verdict("low", "the index")

    real, kept.judge = kept.judge, Judge
    outer, triggers._missed = triggers._missed, None  # not under the slow case's checked() (conftest.py)
    try:
        for _ in range(2):
            with triggers.checked() as missed:
                assert kept.assess(line).reason == "asked anyway"
            assert missed == [("some.rule", line)]
        assert kept.assess(line).reason == "the index"  # a line with a miss: not taken for the index's verdict
        with triggers.every_rule_runs():
            assert kept.assess(line).reason == "the index" and calls == [True, False, False]
    finally:
        kept.judge, triggers._missed = real, outer


def test_a_judgement_that_may_have_been_cut_short_is_not_kept():
    calls = []

    class Judge:
        @staticmethod
        def assess(command: str, cwd: str = "") -> None:
            calls.append(command)

    real, budget = kept.judge, kept._MAY_BE_CUT
    kept.judge, kept._MAY_BE_CUT = Judge, 0.0  # every judgement "took" its budget
    try:
        kept.assess("kept-test-slow x")
        kept.assess("kept-test-slow x")
    finally:
        kept.judge, kept._MAY_BE_CUT = real, budget
    assert calls == ["kept-test-slow x"] * 2


def test_a_case_that_patches_judges_afresh(monkeypatch):
    assert kept.paused
    calls = []
    monkeypatch.setattr(kept.judge, "assess", lambda command, cwd="": calls.append(command))
    kept.assess("ls -la")
    kept.assess("ls -la")
    assert calls == ["ls -la"] * 2


def test_a_case_that_does_not_patch_keeps():
    assert not kept.paused
