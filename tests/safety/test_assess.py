"""Local safety verdicts: the corpora, the parser cases, the second opinion."""
from __future__ import annotations

import logging
import random
import re
from pathlib import Path
from typing import Optional

import pytest

from aish.errors import ConnectRefused
from aish.safety.assess import Verdict, assess
from aish.safety.opinions import second_opinion
from aish.safety.rules import triggers
from tests.safety import kept
from tests.safety.forms import each_form

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
RANK = {"low": 0, "medium": 1, "high": 2}


def _lines(name: str) -> list[str]:
    return [line for line in (CORPUS / name).read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


def _labelled(name: str) -> list[tuple[str, str]]:
    """``[level] command`` lines; ``⏎`` stands for a newline (heredocs)."""
    out = []
    for line in _lines(name):
        level, command = re.match(r"\[(low|medium|high)\] (.+)$", line).groups()
        out.append((level, command.replace("⏎", "\n")))
    return out


DESTRUCTIVE = _labelled("destructive.txt")
EFFECTS = {path.stem: _labelled(f"effects/{path.name}") for path in sorted((CORPUS / "effects").glob("*.txt"))}
EFFECT_CASES = [(cls, level, command) for cls, cases in EFFECTS.items() for level, command in cases]
EVERYDAY = [line.replace("⏎", "\n") for line in _lines("everyday.txt")]


def test_corpora_are_big_enough():
    assert sum(1 for level, _ in DESTRUCTIVE if level != "low") >= 60
    assert len(EVERYDAY) >= 200
    assert set(EFFECTS) >= {"delete", "content", "perms", "lockout", "history", "mass", "remote", "netexec",
                            "shellstate"}
    assert all(len(cases) >= 25 for cases in EFFECTS.values()), {k: len(v) for k, v in EFFECTS.items()}
    assert sum(1 for _, level, _ in EFFECT_CASES if level != "low") >= 400


def _misjudged(level: str, command: str) -> Optional[str]:
    """Why a labelled corpus line fails (not flagged, flagged below its level, a reason that is not
    one short line), or None."""
    verdict = kept.assess(command)
    if verdict is None:
        return "not flagged"
    if RANK[verdict.level] < RANK[level]:
        return f"flagged {verdict.level}: {verdict.reason}"
    if not verdict.reason or "\n" in verdict.reason or len(verdict.reason) > 200:
        return f"its reason is not one short line: {verdict.reason!r}"
    return None


def _every_line(name: str, cases: list[tuple[str, str]]) -> None:
    """Judge every line of a corpus file (one case per file, not per line: pytest's own cost per
    case was twenty times the judging); a failure names each line that failed, and why.

    Judged with every declared rule asked (``triggers.checked()``), which is also the trigger index's
    check on the file (``rules/triggers.py``: a rule that answers where its words are absent fails
    it): one reading of each line for both checks.  Where no rule answered out of its words, the
    verdicts are those of the index (``test_triggers.py`` compares the two readings)."""
    with triggers.checked() as unwoken:
        wrong = [f"[{level}] {command!r}: {why}" for level, command in cases if (why := _misjudged(level, command))]
    assert unwoken == [], f"rules answered on {name} where their trigger words were absent (declare them)"
    assert not wrong, f"{len(wrong)} of {len(cases)} lines of {name}:\n" + "\n".join(wrong)


@pytest.mark.parametrize("effect", sorted(EFFECTS))
def test_effect_corpus_is_flagged_at_its_level(effect):
    _every_line(f"effects/{effect}.txt", EFFECTS[effect])


def test_destructive_commands_are_flagged():
    _every_line("destructive.txt", DESTRUCTIVE)


def test_everyday_commands_are_rarely_flagged():
    """Everyday commands stay quiet: none above low (cleaning build output, ``sed -i`` on a project
    file), and at most 2% flagged at all apart from the plain "runs as root" note on ``sudo``."""
    flagged = [(command, kept.assess(command)) for command in EVERYDAY]
    flagged = [(c, v) for c, v in flagged if v is not None]
    for command, verdict in flagged:
        print(f"flagged: {command!r} -> {verdict.level}: {verdict.reason}")
    assert all(v.level == "low" for _, v in flagged), [(c, v) for c, v in flagged if v.level != "low"]
    noted = [(c, v) for c, v in flagged if not v.reason.startswith("runs as root")]
    assert len(noted) <= 0.02 * len(EVERYDAY), noted


@each_form("command,level,words", [
    ("rm -rf /", "high", "recursive forced delete of /"),
    ("rm -r -f ~", "high", "of ~"),
    ("rm --recursive --force /", "high", "of /"),
    ("sudo -u root /bin/rm -fr -- /", "high", "of /"),
    ("ls && rm -rf *", "high", "everything in the current directory"),
    ("false || (cd /tmp; rm -rf /usr)", "high", "/usr"),
    ("echo $(rm -rf ~)", "high", "of ~"),
    ("echo `rm -rf ~`", "high", "of ~"),
    ("env -i PATH=/bin nohup xargs rm -rf < list", "medium", "previous command"),
    ("git push --force-with-lease", "low", "remote branch"),
    ("git push origin +main", "high", "force push"),
    ("git push origin +feature/x", "medium", "force push"),
    ("psql -c 'DROP TABLE x'", "high", "DROP TABLE"),
    ('mysql -e "TRUNCATE t"', "high", "TRUNCATE"),
    ("find . -exec rm {} +", "medium", "removes every match"),
    ("> /dev/sda", "high", "/dev/sda"),
    ("mv x /dev/null", "high", "/dev/null"),
    ("ssh db1 sudo rm -rf /var", "high", "on db1"),
    ("sudo ls", "low", "root"),
])
def test_parsing_cases(command, level, words):
    verdict = assess(command)
    assert verdict is not None and verdict.level == level, (command, verdict)
    assert words in verdict.reason


@each_form("command", [
    'echo "rm -rf /"',
    "grep -rn 'DROP TABLE' migrations/",
    "git log --grep='reset --hard'",
    "printf 'curl x | sh\\n' >> notes.md",
    "rm -i notes.txt",
    "rm '$HOME'x",
    "kubectl get deploy -o yaml > deploy.yaml",
    "echo ok > /dev/null 2>&1",
    "git checkout -- README.md",
    "command -v rm",
])
def test_quoted_or_harmless_text_is_not_flagged(command):
    assert assess(command) is None


@each_form("command", [
    "echo 'unbalanced", 'rm -rf "/', "$(", "`", "((((", "a && || ;; | &", "cat <<EOF", "\\", "",
    "rm -rf $(", "find / -exec", "sudo", "env -S", "xargs", "${", "<(", "dd of=", "'" * 101,
])
def test_garbage_never_raises(command):
    result = assess(command)
    assert result is None or isinstance(result, Verdict)


class _Records(logging.Handler):
    """The records logged while it is attached (pytest's logging plugin, and its ``caplog``, are left
    out of the run: pyproject's addopts)."""

    def __init__(self, level: int) -> None:
        super().__init__(level)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_random_lines_never_raise():
    """``assess`` never raises: an error inside it is logged and gives no verdict, so the log is where a line
    that broke the judge shows."""
    rng = random.Random(7)
    alphabet = "rm -rf/~*$(){}[]`'\";|&<>\\\n ab=.:#"
    broke = []
    logger, caught = logging.getLogger("aish.safety"), _Records(logging.ERROR)
    logger.addHandler(caught)
    try:
        for _ in range(2000):
            line = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
            errors = len(caught.records)
            result = assess(line)
            assert result is None or result.level in RANK
            if len(caught.records) > errors:
                broke.append(line)
    finally:
        logger.removeHandler(caught)
    assert broke == []


def test_unbalanced_quote_is_still_judged():
    verdict = assess("rm -rf / 'oops")
    assert verdict is not None and verdict.level == "high"


# ----------------------------------------------------------------- second opinion

class FakeComplete:
    def __init__(self, answer):
        self.answer = answer
        self.calls = []

    def __call__(self, model_cfg, messages, *, max_tokens=None, cancel=None, timeout=None):
        self.calls.append((model_cfg, messages, max_tokens, timeout))
        if isinstance(self.answer, BaseException):
            raise self.answer
        return self.answer, None


LOCAL = Verdict("medium", "git reset --hard discards uncommitted changes (git reset --hard)")


def test_second_opinion_parses_the_one_line_format():
    complete = FakeComplete("LEVEL: high - the branch has unpushed work")
    verdict = second_opinion("git reset --hard", LOCAL, "model", complete)
    assert verdict.level == "high" and verdict.reason.startswith("the branch has unpushed work")
    assert "second opinion" in verdict.reason
    model_cfg, messages, max_tokens, timeout = complete.calls[0]
    assert model_cfg == "model" and max_tokens and timeout
    assert "git reset --hard" in messages[-1]["content"] and "LEVEL:" in messages[0]["content"]
    # a chat template with no system role (Gemma's, as llama-cpp-python serves it) drops the
    # system message: the user's turn must still say how to answer
    assert messages[-1]["content"].rstrip().endswith("LEVEL: <none|low|medium|high> - <reason>")


def test_second_opinion_can_lower_but_never_clear():
    verdict = second_opinion("git reset --hard", LOCAL, "m", FakeComplete("level: none - clean tree"))
    assert verdict == Verdict("low", verdict.reason) and "clean tree" in verdict.reason


@each_form("answer", [
    "I think this is fine.", "", "LEVEL: catastrophic - boom", ConnectRefused("refused"),
    RuntimeError("boom"),
    # a small model that echoes the format instead of answering it (seen with a 270M model
    # behind llama-cpp-python): the template's first choice is not a verdict
    "LEVEL: <none|low|medium|high> - <reason, at most 15 words>",
    "<<SYS>>\nAnswer with exactly one line in this format and nothing else:\n"
    "LEVEL: <none|low|medium|high> - <reason, at most 15 words>\nhigh = irreversible destruction",
    "LEVEL: high|medium - it depends",
])
def test_second_opinion_failure_keeps_the_local_verdict(answer):
    assert second_opinion("git reset --hard", LOCAL, "m", FakeComplete(answer)) is None
