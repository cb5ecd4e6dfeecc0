"""``AnyCase`` answers exactly what ``re.IGNORECASE`` answers, on ASCII and other text, and
refuses patterns whose lowering would change what they match."""
from __future__ import annotations

import re

import pytest

from aish.safety.any_case import AnyCase
from tests.safety.forms import each_form

PATTERNS = [r"stop|halt|^svc|^at\b|-[dcrsD]\b|ConsoleKit", r"(^|[._:-])power$", r"^(state|status)=(down|drain)$",
            r"(?<!in)put$|(^|[-_])send$", r"\.(bin|img|tar\.md5)$", r"[^a-z]x\d+\w*"]
TEXTS = ["STOP", "Stop-Service", "svc -d", "xsvc", "at now", "AT", "kill -D", "-d", "consolekit", "CONSOLEKIT",
         "ipmi.POWER", "xpower", "State=Down", "STATUS=drain", "input", "OUTPUT", "x-send", "SEND", "a.BIN",
         "b.Tar.Md5", "1X23", "_x9", "", "ſtop", "STOP ſ", "K", "İ", "ıt", "power\n", "Sτop", "é-dé", "ß",
         "кill", "x-SEND", "po\u0301wer"]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_the_answer_is_ignorecase_s(pattern):
    fast, slow = AnyCase(pattern), re.compile(pattern, re.IGNORECASE)
    for text in TEXTS + [t.upper() for t in TEXTS] + [t.lower() for t in TEXTS]:
        assert fast.occurs_in(text) == bool(slow.search(text)), (pattern, text)
        assert fast.starts(text) == bool(slow.match(text)), (pattern, text)


@each_form("pattern", [r"\Bstop", r"\Sx", r"[A-z]", r"\x41", r"(?-i:x)", "ſtop", r"(a)\1"])
def test_patterns_whose_case_matters_are_refused(pattern):
    with pytest.raises(ValueError):
        AnyCase(pattern)
