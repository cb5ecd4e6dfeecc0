"""Fixtures of the app cases."""
from __future__ import annotations

import pytest

from tests.doubles import AfterAnswers


@pytest.fixture
def after_answers(monkeypatch) -> AfterAnswers:
    """Wait for the work each answer leaves for after it (``after_answers.wait()``)."""
    return AfterAnswers(monkeypatch)
