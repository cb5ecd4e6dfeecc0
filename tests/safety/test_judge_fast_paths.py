"""The judge's shortcuts give what the full reading gives: a speed-up that changed a verdict would be
a silent miss, so each kept or skipped reading is compared with the reading it stands for, on every
word and program name of the corpora."""
from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from aish.safety import verb_words
from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules import action
from aish.safety.shell_words import segments

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


@functools.cache
def _corpus_words() -> tuple:
    """Every word and program name of the corpora, sorted (read when a case first asks: ~0.1 s of
    CPU, which collection paid in every xdist worker though one of them runs these cases)."""
    words, programs = set(), set()
    for path in sorted(CORPUS.rglob("*.txt")):
        if path.name.startswith("secrets_") or path.name == "answers.txt":
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            for seg in segments(re.sub(r"^\[[\w-]+\] ", "", line).replace("⏎", "\n")):
                texts = [w.text for w in seg.words]
                words.update(texts)
                if texts:
                    programs.add(texts[0].rsplit("/", 1)[-1])
    return sorted(words), sorted(programs)


def _words() -> list:
    return _corpus_words()[0]


def _programs() -> list:
    return _corpus_words()[1]


def test_the_corpora_give_enough_words_to_compare():
    assert len(_words()) > 5_000 and len(_programs()) > 1_500


def test_a_plain_word_is_split_as_the_full_reading_splits_it():
    pieces = {p.lower() for w in _words() for p in re.split(r"[\W_]+", w)}
    plain = [w for w in sorted(pieces) if w.isalnum() and w.islower()] + \
        ["deletelocalsnapshots", "unregistervm", "qdel", "é", "straße", "rm2"]
    assert len(plain) > 3_000
    assert [w for w in plain if verb_words._split(w) != verb_words._split_pieces(w)] == []


def test_a_program_name_read_once_is_read_as_afresh():
    fresh = action._name_verb.__wrapped__
    assert [p for p in _programs() + ["lxc-destroy", "pg_dropcluster", "vkpurge", "x.sh"]
            if action._name_verb(p) != fresh(p)] == []
    found = action.program_action("lxc-destroy", ["-n", "web"])
    found.nouns.append("changed")  # a caller adds to its nouns: the kept reading must not change
    assert action.program_action("lxc-destroy", ["-n", "web"]).nouns == ["lxc"]


def test_a_value_said_to_name_a_verb_is_what_its_parts_say():
    fresh = action.names_a_verb.__wrapped__
    assert [w for w in _words() if action.names_a_verb(w) != fresh(w)] == []


def _plain(found):  # type: ignore[no-untyped-def]
    return found.group() if isinstance(found, re.Match) else found


@pytest.mark.parametrize("method,args", [("search", ("xx ab12 yy",)), ("match", ("ab12",)),
                                         ("fullmatch", ("ab12",)), ("findall", ("ab1 ab2",)),
                                         ("sub", ("#", "ab1 ab2")), ("split", ("1ab2ab3",))])
def test_a_lazy_pattern_answers_as_the_pattern_before_and_after_it_is_compiled(method, args):
    compiled = re.compile(r"ab\d?", re.IGNORECASE)
    lazy = LazyRegex(r"ab\d?", re.IGNORECASE)
    before = getattr(lazy, method)(*args)  # compiles, then answers
    after = getattr(lazy, method)(*args)  # the pattern's own method, bound
    expected = getattr(compiled, method)(*args)
    assert _plain(before) == _plain(after) == _plain(expected)
    assert getattr(lazy, method) == getattr(lazy.compiled, method)


def test_the_trigger_index_wakes_exactly_the_rules_whose_words_are_in_the_line():
    """Read a piece at a time and kept per piece, the index must wake what a search of the whole line
    for each declared word would (the index is built on the first judgement of the process)."""
    from types import SimpleNamespace

    from aish.safety.assess import assess
    from aish.safety.rules import triggers

    assess("ls")
    declared = [triggers._words(gates) for gates in triggers._GATES]
    always = {n for n, words in enumerate(declared) if words is None}
    pairs = [(word, n) for n, words in enumerate(declared) for word in words or ()]
    lines = [" ".join(_words()[k:k + 7]) for k in range(0, len(_words()), 23)] + ["rm -rf x", "a  b", "x -g 0"]
    wrong = []
    for line in lines:
        prog, _, rest = line.partition(" ")
        c = SimpleNamespace(prog=prog, lowered=rest.lower())
        woken = triggers._wake(c)
        if woken is True:
            continue
        whole = (prog.lower() + " " + rest.lower())
        expected = always | {n for word, n in pairs if word in whole}
        if woken != expected:
            wrong.append(line)
    assert wrong == []
