"""Test doubles shared by the test modules (not shipped in the package)."""
from __future__ import annotations

from typing import Optional

from aish.ipc.cancel import CancelToken


class RecordingReply:
    """A Reply that records everything; answers questions from a script (tests, --json)."""

    def __init__(self, answers: Optional[list] = None, variables: Optional[dict] = None,
                 texts: Optional[list] = None) -> None:
        self.cancel = CancelToken()
        self.texts: list[str] = []
        self.statuses: list[str] = []
        self.warnings: list[str] = []
        self.commands: list[tuple] = []
        self.questions: list[str] = []
        self.tasks: list[str] = []
        self.proposals: list[tuple] = []
        self._answers = list(answers or [])
        self._variables = variables
        self._texts = list(texts or [])
        self.prompts: list[str] = []  # what input() asked
        self.variables_asked = 0

    def text(self, chunk: str) -> None:
        self.texts.append(chunk)

    def status(self, line: str) -> None:
        self.statuses.append(line)

    def warning(self, line: str) -> None:
        self.warnings.append(line)

    def command(self, command: str, level: Optional[str] = None, reason: Optional[str] = None) -> None:
        self.commands.append((command, level, reason))

    def task(self, state: str) -> None:
        self.tasks.append(state)

    def proposal(self, state: str, command: str = "") -> None:
        self.proposals.append((state, command))

    def ask(self, question: str, timeout: float) -> Optional[str]:
        self.questions.append(question)
        return self._answers.pop(0) if self._answers else None

    def input(self, prompt: str, timeout: float) -> Optional[str]:
        self.prompts.append(prompt)
        return self._texts.pop(0) if self._texts else None

    def variables(self, timeout: float) -> Optional[dict]:
        self.variables_asked += 1
        return None if self._variables is None else dict(self._variables)

    @property
    def full_text(self) -> str:
        return "".join(self.texts)


class CharTokens:
    """The token counter as it counts without a tokenizer: characters / 4, no network."""

    calls = 0

    def count(self, model, text):
        return len(text or "") // 4

    def count_messages(self, model, messages):
        return sum(self.count(model, m.get("content") or "") for m in messages)

    def weigh(self, model, messages):
        return self.count_messages(model, messages), False  # no bound stands in for a count

    def supported(self, model):
        return False

    def learn(self, model, text, n):
        """Nothing to learn: without a tokenizer the count is characters / 4 (as TokenCounter)."""

    def defer(self, model, text):
        """Nothing to put off: no count takes a request (as TokenCounter without a tokenizer)."""
        return False

    def settle(self, model, texts, *, count=True, sent=False):
        """Nothing was put off."""
        return 0

    def deferred(self, model, text):
        return False


class AfterAnswers:
    """Counts the work each answer leaves for after it (app/after_answer.py: the fold, the log's
    compaction) until it has run, so a case waits for that work itself.  Waiting on the
    session's folding lock instead raced: the lock is free both before a fold starts and after
    it ends."""

    def __init__(self, monkeypatch) -> None:
        import threading

        from aish.app import after_answer
        self._done = threading.Condition()
        self._pending = 0
        real = after_answer.in_background

        def tracked(job, session, log, defer=None):
            with self._done:
                self._pending += 1

            def counted(status):
                try:
                    job(status)
                finally:
                    with self._done:
                        self._pending -= 1
                        self._done.notify_all()
            real(counted, session, log, defer)
        monkeypatch.setattr(after_answer, "in_background", tracked)

    def wait(self, timeout: float = 30.0) -> None:
        with self._done:
            assert self._done.wait_for(lambda: self._pending == 0, timeout), "the work after an answer did not end"
