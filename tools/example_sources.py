"""Read documented examples: one ``Example`` per command line an example page shows.

Example pages (tldr's) describe, for thousands of programs, what a whole command line does:
``- Delete a snapshot:`` above ```PROG snapshot {{[-D|--delete]}} {{name}}```.  The description
is the example's, not one word's: this parser only finds the program, the subcommand words the line
spells out and the options it gives; ``documented_table.example_entries`` decides which of them the
description is about.  Options that only change how the action is done (``--force``, ``--verbose``,
``--all``) are left out here: the rule reads those as scope or force.
"""
from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Iterator, Optional

from completion_sources import _WORD

# How an option changes the action rather than naming it: never the destructive word of an example.
MODIFIERS = frozenset("""
-f --force -y --yes --assume-yes -q --quiet -v --verbose -vv -vvv -h --help -V --version -i --interactive -n
--dry-run -r -R --recursive -a --all --everything -Force -Recurse -Confirm -WhatIf -Verbose --no-confirm
--noconfirm --confirm --non-interactive --auto-approve -auto-approve --permanent --permanently --hard --skip-trash
-skipTrash --silent
""".split())
_PLACEHOLDER = re.compile(r"\{\{(.*?)\}\}")
# {{[-d|--delete]}}: one option spelled two ways; {{[di|disk]}}: one subcommand spelled two ways
_ALTERNATIVES = re.compile(r"^\[((?:-{0,2}[A-Za-z][\w.:-]*)(?:\|-{0,2}[A-Za-z][\w.:-]*)+)\]$")
_OPERAND = "\x00"  # what a placeholder for a name, a path or a value becomes
_ENDS = re.compile(r"^(?:\||\|\||&&?|;|>>?|<|\d>.*|2>&1|&>.*|\$\(.*|`.*)$")
_PROMPTS = {"sudo", "doas"}


@dataclass(frozen=True)
class Example:
    """One documented example: the program, the subcommand path it spells out before any operand or
    option (each word with its other spellings: ``(("disk", "di"), ("unlink", "u"))``), its options
    (each with its other spellings), what its operands say (placeholders' text), and what the example's
    description says the whole line does."""

    prog: str
    path: tuple
    options: tuple
    operands: str
    description: str


def read_example(command: str, description: str, page: str) -> Optional[Example]:
    """The example's program (the page's, or a page named ``PROG-SUB``'s), the subcommand words before
    its first operand or option, and its options (modifiers such as ``--force`` left out); None when the
    line runs another program first (a pipe's start, a wrapper) or cannot be split."""
    said: list = []

    def placeholder(m: re.Match) -> str:
        alternatives = _ALTERNATIVES.match(m.group(1))
        if alternatives:
            return f" {alternatives.group(1)} "
        said.append(m.group(1))
        return f" {_OPERAND} "
    try:
        words = shlex.split(_PLACEHOLDER.sub(placeholder, command), posix=True)
    except ValueError:
        return None
    while words and words[0] in _PROMPTS:
        words = words[1:]
    if not words or not _WORD.match(words[0]):
        return None
    prog = words[0]
    if page.lower() != prog.lower() and not page.lower().startswith(prog.lower() + "-"):
        return None
    path: list = []
    options: list = []
    given_operand = False
    for word in words[1:]:
        if _ENDS.match(word):
            break  # a pipe, a redirection, the next command: not this program's words
        spellings = tuple(dict.fromkeys(w.split("=", 1)[0] for w in word.split("|")))
        if word == _OPERAND:
            given_operand = True
        elif word.startswith("-"):
            if all(re.fullmatch(r"--?[A-Za-z][\w.-]*", o) for o in spellings) and not set(spellings) <= MODIFIERS:
                options.append(spellings)
        elif not given_operand and not options and all(_WORD.match(w) for w in spellings):
            path.append(spellings)
        else:
            given_operand = True
            said.append(word)
    return Example(prog, tuple(path), tuple(dict.fromkeys(options)), " ".join(said), description)


def parse_tldr(text: str, page: str) -> Iterator[Example]:
    """The examples of one tldr page: each ``- Description:`` line and the ```command``` after it.  The
    description's key letters (``[d]elete``) are read as plain words."""
    description: Optional[str] = None
    for line in text.splitlines():
        if line.startswith("- "):
            description = re.sub(r"\[(\w+)\]", r"\1", line[2:].strip()).rstrip(":")
        elif line.startswith("`") and line.endswith("`") and len(line) > 2 and description:
            example = read_example(line[1:-1], description, page)
            if example:
                yield example
            description = None
