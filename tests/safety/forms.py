"""One case per table of forms: ``@each_form`` instead of ``@pytest.mark.parametrize`` for the
big tables of commands (or texts) the judge and the redactor are checked against, and the other
tables of pure calls (a router's classes, answers' commands, control lines, the CLI's fast path).

A table of a few hundred forms was a few hundred cases, and each case cost pytest and its xdist
workers about 2 ms of CPU of their own (setup, reports sent to the controller and read back),
more than judging the form itself.  ``each_form`` runs the test's body once for every row, in one
case, and checks every row whatever the others do: the case fails naming EVERY failing row, each
with its own assertion message (the form's verdict, and the call that set what was expected,
``reaches(command, 'high')`` or ``stays_quiet(command)``).

    @each_form("command,at_least", [
        ("vagrant destroy -f", "high"),
        ...
    ])
    def test_programs_with_no_rule(command, at_least):
        assert reaches(command, at_least), judged(command)

The arguments are the same as parametrize's (names, rows); the body, fixtures included, is
unchanged.  Keep ``parametrize`` where a row does real setup of its own (files, repositories) or
is slow by itself (a corpus file): there a case per row costs little next to the row's work."""
from __future__ import annotations

import functools
import inspect
import re
from pathlib import Path
from typing import Any, Callable, Sequence, Union

import pytest

# a failing table prints at most this many characters of one row's message
MESSAGE_LIMIT = 2_000


def each_form(argnames: Union[str, Sequence[str]], rows: Sequence[Any]) -> Callable:
    """The decorated test as one case that runs its body for every row of ``rows``."""
    names = [name.strip() for name in argnames.split(",")] if isinstance(argnames, str) else list(argnames)
    table = list(rows)
    if not table:
        raise ValueError("each_form: an empty table checks nothing")

    def decorate(test: Callable) -> Callable:
        signature = inspect.signature(test)
        missing = [name for name in names if name not in signature.parameters]
        if missing:
            raise TypeError(f"{test.__name__} takes no argument named {', '.join(missing)}")

        @functools.wraps(test)
        def every_form(*args: Any, **fixtures: Any) -> None:
            failures = []
            for row in table:
                values = (row,) if len(names) == 1 else tuple(row)
                try:
                    test(*args, **fixtures, **dict(zip(names, values)))
                except Exception as error:  # an assertion, or the judge raising: both are the row's failure
                    failures.append((row, error))
            if failures:
                pytest.fail(failed_rows(failures, len(table)), pytrace=False)

        # pytest asks the signature which fixtures to pass: the table's names are not fixtures
        every_form.__signature__ = signature.replace(  # type: ignore[attr-defined]
            parameters=[p for name, p in signature.parameters.items() if name not in names])
        every_form.forms = len(table)  # type: ignore[attr-defined]  # counted by tests/safety/test_forms.py
        return every_form

    return decorate


def failed_rows(failures: list, total: int) -> str:
    """Every failing row, then its message indented under it."""
    lines = [f"{len(failures)} of {total} forms failed:"]
    for row, error in failures:
        message = str(error) if isinstance(error, AssertionError) else f"{type(error).__name__}: {error}"
        if len(message) > MESSAGE_LIMIT:
            message = message[:MESSAGE_LIMIT] + " ..."
        lines.append(f"- {row!r}")
        lines.extend(f"    {line}" for line in message.splitlines())
    return "\n".join(lines)


_CLASS_TAG = re.compile(r"^\[[\w-]+\]\s*")


def loud_and_quiet(path: Path) -> tuple[list[str], list[str]]:
    """A corpus file's commands (``[class] command`` lines, the tag dropped; ``#`` comments skipped), split into
    those the judge flags medium or high and the rest."""
    from tests.safety.kept import assess

    loud: list[str] = []
    quiet: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            command = _CLASS_TAG.sub("", line)
            verdict = assess(command)
            (loud if verdict is not None and verdict.level in ("medium", "high") else quiet).append(command)
    return loud, quiet


def corpus_floor(path: Path, floor: float, at_least: int) -> None:
    """At least ``at_least`` commands in the file, and at least ``floor`` of them flagged (the misses listed)."""
    loud, missed = loud_and_quiet(path)
    assert len(loud) + len(missed) >= at_least
    assert len(loud) / (len(loud) + len(missed)) >= floor, "\n".join(missed)


def flagged(command: str) -> bool:
    """The judge rates the command medium or high."""
    from tests.safety.kept import assess

    verdict = assess(command)
    return verdict is not None and verdict.level in ("medium", "high")


def table_holds(table: tuple) -> None:
    """A (loud, quiet) pair of lists: every loud command flagged, every quiet one not; all failures listed."""
    loud, quiet = table
    failures = [f"missed: {c}" for c in loud if not flagged(c)] + [f"loud: {c}" for c in quiet if flagged(c)]
    assert not failures, "\n".join(failures)


def misjudged(loud: list, quiet: list) -> list:
    """Each line of ``loud`` the judge leaves below medium and each of ``quiet`` it flags, said as which."""
    from tests.safety.kept import assess

    def level(line: str) -> object:
        verdict = assess(line)
        return verdict.level if verdict else None

    wrong = [f"quiet, should be flagged: {line}" for line in loud if level(line) not in ("medium", "high")]
    return wrong + [f"flagged, should be quiet: {line} ({level(line)})" for line in quiet
                    if level(line) in ("medium", "high")]
