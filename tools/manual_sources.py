"""Read manual pages (as ``man`` prints them) into documented words: one ``Entry`` per option.

A manual page describes each option of its program under it, indented: ``-a, --all`` at the
paragraph indent (seven spaces) and ``Erase all available signatures.`` deeper on the next lines,
or after two spaces on the same line (``--raw  Use the raw format``).  This parser only finds those
options and their descriptions; ``documented_table.py`` decides what a description means.  Options
that only change how the action is done (``-f``, ``--force``) are left out, as in examples.
Subcommands are left out: pages lay them out too many ways to tell a command from a term list.
"""
from __future__ import annotations

import re
from typing import Iterator

from completion_sources import _WORD, Entry
from example_sources import MODIFIERS

_ITEM = re.compile(r"^ {7}(-\S.*?)(?: {2,}(\S.*))?$")  # an option at the paragraph indent
_NAME = re.compile(r"(?:^|[\s,|{])(--?[A-Za-z][\w.-]*)")
_OPTIONAL = re.compile(r"\[[^\]]*\]")  # `-a [-f|--format F]`: options that go with it, described elsewhere
_BODY = re.compile(r"^ {8,}(\S.*)$")


def parse_man(text: str, prog: str) -> Iterator[Entry]:
    """Entries of one manual page: each option line (``-f, --force``, ``-o, --offset offset``,
    ``--output=list``) with the sentence that follows it, its other spellings keyed alike."""
    if not _WORD.match(prog):
        return
    lines = text.replace("\u2010", "-").splitlines()  # man's hyphen where a line was broken
    for i, line in enumerate(lines):
        item = _ITEM.match(line)
        if not item:
            continue
        names = list(dict.fromkeys(_NAME.findall(_OPTIONAL.sub(" ", item.group(1)))))
        if sum(1 for n in names if n[1] != "-") > 1 or sum(1 for n in names if n[1] == "-") > 2:
            continue  # a usage line (`-f H {-C|--create} --type L --disk D`), not one option's spellings
        names = [n for n in names if not n.startswith("--no-") and n not in MODIFIERS]
        body = [item.group(2)] if item.group(2) else []
        for following in lines[i + 1:i + 6]:
            text_line = _BODY.match(following)
            if not text_line:
                break
            body.append(text_line.group(1))
        description = re.sub(r"-\s+(?=[a-z])", "", " ".join(body)) if body else ""
        if not description:
            continue
        for name in names:
            yield Entry(prog, name, description)
