"""Vendor suites name every command prefix + verb + noun (a parallel file system's `mm…`, a warehouse's
`gp…`, a data grid's `i…`, a storage array's `…rmvdisk`): the verb between a short prefix and a noun
is read as the verb, for suites nobody lists."""
from __future__ import annotations

from aish.safety.verb_words import split_word
from tests.safety.test_long_tail import judged, reaches, stays_quiet
from tests.safety.forms import each_form


@each_form("command", [
    "mmdeldisk gpfs1 nsd7",
    "mmdelnode -N compute12",
    "qxdeletesystem --instance prod",
    "zkremovecluster analytics",
    "idelvault finance",
    "storctl rmvdisk -force data02",
    "xqpurgeall",
])
def test_a_verb_between_a_suites_prefix_and_a_noun_is_read(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "ollama create mymodel -f Modelfile",
    "mmlsfs gpfs1",
    "gpstate -s",
    "ils /tempZone/home/alice",
    "autoremovefiles --help",
])
def test_words_that_only_contain_a_verb_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("word,parts", [
    ("mmdelfs", ["mm", "del", "fs"]),
    ("gpdeletesystem", ["gp", "delete", "system"]),
    ("modelfile", ["modelfile"]),  # `del` after a syllable is part of a word
    ("autoremove", ["autoremove"]),  # a package tool's own word, not a prefix and a verb
])
def test_the_split_of_suite_words(word: str, parts: list) -> None:
    assert split_word(word) == parts
