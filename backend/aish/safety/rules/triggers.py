"""Which rules a command can wake, found once per command from the words each rule declares.

Most rules that run on every command (the broad classes, the vocabulary's fallbacks) leave at once
when the line holds none of a few words, and asked one by one those first lines were most of what an
everyday command cost.  A rule declares what can make it fire with ``@triggered_by``: words, or the
gate pattern its own first line searches (its words are derived from the pattern, so the two cannot
drift apart).  The first command judged builds one index over every declaration, from each word's
first three letters to the rules it wakes; each command's line is then read once against it, and a
declared rule whose words are not in the line answers None (or ``otherwise``) without being called.

A declaration must be a *necessary* condition: the rule never answers unless one of its words
occurs in the lowered line, the program's name and its arguments joined by spaces (``prog + " " +
" ".join(c.texts)``).  A rule that also reads other text (the raw words, the pipe's feeders,
redirects, heredoc bodies) declares nothing and runs on every command.  A line that is not ASCII
wakes every rule: there a case-insensitive pattern matches letters that lowering does not give
(U+017F, a long s, matches ``s``).  ``every_rule_runs()`` switches the index off, and ``checked()``
asks every rule anyway and lists those that answered where their words were absent (the tests
run the corpora and every safety table that way).
"""
from __future__ import annotations

import contextlib
import functools
import importlib
import inspect
from typing import Any, Callable, Iterator, Optional, TypeVar, Union

try:  # Python 3.11+
    _sre: Any = importlib.import_module("re._constants")
    _sre_parse: Any = importlib.import_module("re._parser")
except ImportError:  # Python 3.10
    _sre = importlib.import_module("sre_constants")
    _sre_parse = importlib.import_module("sre_parse")

F = TypeVar("F", bound=Callable[..., Any])
_REPEATS = tuple(getattr(_sre, name) for name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT")
                 if hasattr(_sre, name))
_ATOMIC = getattr(_sre, "ATOMIC_GROUP", None)

_GATES: list = []  # what each declared rule gave @triggered_by, by rule number
_NAMES: list = []  # the declared rules' qualified names, by rule number
# (three letters -> [(word, rule number)], {short word: [rule numbers]}, [(word with a space, rule number)],
#  rules with no word, {piece of a line: rule numbers its words wake}, rules indexed)
_index: Optional[tuple] = None
_PIECES_KEPT = 60_000  # pieces of lines whose words are kept (about 11 MB at most, as 20,000 frozensets took)
_NOTHING: tuple = ()
_PIECES_READ = 256  # a line with more distinct pieces wakes every rule
_everything = False  # every_rule_runs(): the index is not asked
_missed: Optional[list] = None  # checked(): where a rule whose words were absent answered anyway


def triggered_by(*gates: Any, otherwise: Any = None) -> Callable[[F], F]:
    """Run the decorated rule only for lines holding one of ``gates``: words (any case; a program's
    name counts, it is part of the line), collections of words, or compiled patterns
    (``re.Pattern``, ``AnyCase``, ``LazyRegex``) whose words are derived on first use.  A pattern
    with no word every match must hold wakes its rule on every line (and fails
    ``tests/safety/test_triggers.py``): declare words instead."""
    if not gates:
        raise ValueError("triggered_by needs words or patterns")

    def decorate(rule: F) -> F:
        number = len(_GATES)
        _GATES.append(gates)
        _NAMES.append(f"{rule.__module__}.{rule.__qualname__}")

        def asked_anyway(c: Any, *args: Any, **kwargs: Any) -> Any:
            answer = rule(c, *args, **kwargs)  # checked(): asked anyway, and told if it answers
            if answer != otherwise and _missed is not None:
                _missed.append((_NAMES[number], c.prog + " " + " ".join(c.texts)))
            return answer

        # Most rules take the command alone: their wrapper takes it alone too (no *args/**kwargs to pack and
        # unpack on every command, ~50 of them a command), and finds what the line woke as an attribute.
        if _takes_one_argument(rule):
            def gated_one(c: Any) -> Any:
                try:
                    woken = c._woken
                except AttributeError:
                    woken = None
                if woken is None:
                    woken = c._woken = _wake(c)
                if woken is True or number in woken:
                    return rule(c)
                if _missed is None:
                    return otherwise
                return asked_anyway(c)
            gated: Callable[..., Any] = gated_one
        else:
            def gated_any(c: Any, *args: Any, **kwargs: Any) -> Any:
                try:
                    woken = c._woken
                except AttributeError:
                    woken = None
                if woken is None:
                    woken = c._woken = _wake(c)
                if woken is True or number in woken:
                    return rule(c, *args, **kwargs)
                if _missed is None:
                    return otherwise
                return asked_anyway(c, *args, **kwargs)
            gated = gated_any
        functools.update_wrapper(gated, rule)
        gated.trigger_number = number  # type: ignore[attr-defined]  # for the tests, and chains of rows
        gated.trigger_otherwise = otherwise  # type: ignore[attr-defined]  # what a skip answers
        return gated  # type: ignore[return-value]

    return decorate


def _takes_one_argument(rule: Callable[..., Any]) -> bool:
    """Is ``rule`` a plain function of one positional parameter (no defaults, no *args, no keywords)?"""
    code = getattr(rule, "__code__", None)
    return code is not None and code.co_argcount == 1 and not code.co_kwonlyargcount and \
        not code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS)


@contextlib.contextmanager
def every_rule_runs() -> Iterator[None]:
    """Judge with every declared rule asked, as before the index (tests compare the two)."""
    global _everything
    before, _everything = _everything, True
    try:
        yield
    finally:
        _everything = before


@contextlib.contextmanager
def checked() -> Iterator[list]:
    """Ask every declared rule even where its words are absent, and list (rule, line) for each
    that answered there anyway: its declaration misses a form (verdicts are those of every rule)."""
    global _missed
    before, _missed = _missed, []
    try:
        yield _missed
    finally:
        _missed = before


def woken(c: Any) -> Union[bool, set]:
    """The numbers of the declared rules this command's line wakes, found once per command (as the first
    declared rule asked finds them); True when every rule is to be asked: the index is off, the line is not
    ASCII, or ``checked()`` asks every rule anyway.  A chain of rows reads it once to skip, without a call,
    each row whose declared gate the line cannot wake (``rule_number`` gives a declared function's number)."""
    if _missed is not None:
        return True
    found = getattr(c, "_woken", None)
    if found is None:
        found = c._woken = _wake(c)
    return found


class _Everything:
    """What ``asked`` gives when every rule is to be asked: it holds every number."""

    def __contains__(self, number: object) -> bool:
        return True


EVERYTHING = _Everything()


def asked(c: Any) -> Any:
    """``woken``, as something that holds a number for each declared rule to be asked (``EVERYTHING`` when
    every rule is): a dispatch asks ``NUMBER in asked`` inline, without a call, then the rule's wrapper itself
    (which, under ``checked()``, asks it anyway and lists it where it answered out of its words)."""
    if _missed is not None:
        return EVERYTHING
    found = getattr(c, "_woken", None)
    if found is None:
        found = c._woken = _wake(c)
    return EVERYTHING if found is True else found


def number_of(function: Any, skipped: Any = None) -> int:
    """``rule_number``, for a dispatch that skips ``function`` by its number: one that declared nothing (or whose
    skip would not answer ``skipped``) is an error at import, not a rule never asked."""
    number = rule_number(function, skipped)
    if number is None:
        raise ValueError(f"{getattr(function, '__qualname__', function)} is not declared to be skipped as {skipped!r}")
    return number


def rule_number(function: Any, skipped: Any = None) -> Optional[int]:
    """A declared function's number in the index (what ``woken`` holds), or None: it declared nothing, or a skip
    of it answers other than ``skipped`` (a caller skipping it without a call gives ``skipped`` in its place)."""
    number = getattr(function, "trigger_number", None)
    if number is None or bool(getattr(function, "trigger_otherwise", None)) != bool(skipped):
        return None
    return number


def gates_of(*functions: Any) -> tuple:
    """What declared rules gave ``@triggered_by``, together: a reading that answers only through them declares the
    union (``@triggered_by(*gates_of(a, b))``), and skips its own call where none of theirs would run."""
    gates: tuple = ()
    for function in functions:
        number = rule_number(function)
        if number is None:
            raise ValueError(f"{getattr(function, '__qualname__', function)} declares no words that skip it as None")
        gates += _GATES[number]
    return gates


def declared() -> dict:
    """Each declared rule's qualified name and its lowered words (None: a gate gave no word, the
    rule wakes on every line)."""
    return {name: _words(gates) for name, gates in zip(_NAMES, _GATES)}


def _words(gates: tuple) -> Optional[frozenset]:
    words: set = set()
    for gate in gates:
        if isinstance(gate, str):
            words.add(gate.lower())
        elif isinstance(gate, (set, frozenset, tuple, list, dict)):
            words.update(w.lower() for w in gate)
        else:
            derived = pattern_words(gate)
            if not derived:
                return None
            words.update(derived)
    return frozenset(words) if words and "" not in words else None


def _wake(c: Any) -> Union[bool, set]:
    """The numbers of the declared rules whose words occur in this command's line (True: all).

    Words with no space are looked for a piece at a time (the text between spaces: such a word occurs
    in the line exactly when it occurs in one of its pieces); a word with a space in the line where a
    piece holds its longest part (a candidate the pieces wake, one set test for a line that has none),
    and pieces come back (``sudo``, ``-f``, ``--all``, a project's paths), so what each piece wakes
    is kept: a command whose pieces were all seen before is read with one lookup per piece."""
    line = c.prog.lower() + " " + c.lowered
    if _everything or not line.isascii():
        return True
    index = _index if _index is not None and _index[-1] == len(_GATES) else _build()
    by_letters, short, spaced, always, pieces, _ = index
    distinct = set(line.split(" "))
    if len(distinct) > _PIECES_READ:
        return True  # `rm -rf` with thousands of names: each rule's own first lines are as quick
    woken = set(always)
    for piece in distinct:
        found = pieces.get(piece)
        if found is None:
            found = _piece_wakes(piece, by_letters, short)
            if len(pieces) >= _PIECES_KEPT:
                pieces.clear()
            pieces[piece] = found
        if found:
            woken.update(found)
    candidates = woken.intersection(spaced)  # a word with a space whose longest part a piece holds
    if candidates:
        woken.difference_update(spaced)
        for candidate in candidates:
            word, number = spaced[candidate]
            if word in line:
                woken.add(number)
    return woken


def _piece_wakes(piece: str, by_letters: dict, short: dict) -> tuple:
    """The rule numbers whose words occur in one piece (no space in it): words of one or two letters
    found by the piece's own letters and pairs of letters (one lookup each, not a search per short word),
    longer ones through their first three letters."""
    found: list = []
    for letter in set(piece):
        numbers = short.get(letter)
        if numbers:
            found += numbers
    for i in range(len(piece) - 1):
        numbers = short.get(piece[i:i + 2])
        if numbers:
            found += numbers
    for i in range(len(piece) - 2):
        starting = by_letters.get(piece[i:i + 3])
        if starting:
            for word, number in starting:  # a loop, not a list comprehension (its own frame at each hit: 11% more)
                if piece.startswith(word, i):
                    found.append(number)
    return tuple(set(found)) if found else _NOTHING  # a tuple: a third of a frozenset's memory


def _build() -> tuple:
    """The index over every declaration so far (rebuilt if a rule module was imported since)."""
    global _index
    by_letters: dict = {}
    short: dict = {}  # a word of one or two letters -> the rules it wakes
    spaced: dict = {}  # a candidate's number (below 0) -> (a word with a space, the rule it wakes)
    always = set()

    def index(word: str, number: int) -> None:
        if len(word) < 3:
            short.setdefault(word, []).append(number)
        else:
            by_letters.setdefault(word[:3], []).append((word, number))

    for number, gates in enumerate(_GATES):
        words = _words(gates)
        if words is None:
            always.add(number)
            continue
        for word in words:
            if " " not in word:
                index(word, number)
            elif word == " ":
                always.add(number)  # every line holds one: the program's name, a space, its words
            else:  # looked for in the line only where a piece holds its longest part (a candidate's number wakes)
                candidate = -1 - len(spaced)
                spaced[candidate] = (word, number)
                part = max(word.split(" "), key=len)
                if part:
                    index(part, candidate)
                else:
                    always.add(candidate)  # spaces only: looked for in every line
    _index = (by_letters, short, spaced, frozenset(always), {}, len(_GATES))
    return _index


def _source(gate: Any) -> tuple:
    """A gate's pattern text and flags, whatever wraps it."""
    inner = getattr(gate, "_any", None)  # AnyCase: its case-insensitive pattern
    if inner is not None:
        return inner.pattern, inner.flags
    return gate.pattern, getattr(gate, "flags", 0)


def pattern_words(gate: Any) -> Optional[frozenset]:
    """Lowered words one of which every match of ``gate`` holds, or None when the pattern has none
    (an optional part, a character class, a back reference).  Lowering keeps it necessary: a match
    in the original text shows its words, lowered, in the lowered line."""
    pattern, flags = _source(gate)
    if isinstance(pattern, bytes):
        return None
    return _required(_sre_parse.parse(pattern, flags))


def _required(items: Any) -> Optional[frozenset]:
    """The best word set of a sequence: a run of literals, or a part that must match."""
    best: Optional[frozenset] = None
    run: list = []
    candidates: list = []
    for op, av in list(items) + [(None, None)]:
        if op is _sre.LITERAL:
            run.append(chr(av))
            continue
        if run:
            candidates.append(frozenset({"".join(run).lower()}))
            starts = _starts([(op, av)]) if op is not None else None
            if starts:  # `-[dxr]`, `\.[*+]`, `k0+`, `-(d|-rm)`: the run and each way what follows it starts
                candidates.append(frozenset("".join(run).lower() + start for start in starts))
            run = []
        if op is _sre.SUBPATTERN:
            candidates.append(_required(av[3]))
        elif op is _sre.BRANCH:
            branches = [_required(b) for b in av[1]]
            if all(branches):
                candidates.append(frozenset().union(*branches))  # type: ignore[arg-type]
        elif op in _REPEATS and av[0] >= 1:
            candidates.append(_required(av[2]))
        elif _ATOMIC is not None and op is _ATOMIC:
            candidates.append(_required(av))
    for found in candidates:
        if found and (best is None or _strength(found) > _strength(best)):
            best = found
    return best


_CLASS_CHARS = 8  # a character class of more letters than this is not spelled out
_STARTS = 32  # nor a part that can start in more ways than this


def _starts(items: Any) -> Optional[frozenset]:
    """Lowered texts one of which every match of the sequence starts with, or None: its leading literals (and the
    character a small class after them allows), or the ways its first part (a class, a group, a branch, a repeat
    of at least one) starts."""
    items = list(items)
    run = ""
    for op, av in items:
        if op is not _sre.LITERAL:
            break
        run += chr(av).lower()
    if run:
        following = items[len(run)] if len(run) < len(items) else (None, None)
        chars = _class_chars(following[1]) if following[0] is _sre.IN else None
        return frozenset(run + char for char in chars) if chars else frozenset({run})
    if not items:
        return None
    op, av = items[0]
    found: Optional[frozenset] = None
    if op is _sre.IN:
        found = _class_chars(av)
    elif op is _sre.SUBPATTERN:
        found = _starts(av[3])
    elif op is _sre.BRANCH:
        branches = [_starts(b) for b in av[1]]
        found = frozenset().union(*branches) if all(branches) else None  # type: ignore[arg-type]
    elif op in _REPEATS and av[0] >= 1:
        found = _starts(av[2])
    return found if found and len(found) <= _STARTS else None


def _class_chars(items: Any) -> Optional[frozenset]:
    """The lowered characters a class of literals (and short ranges) allows, or None: a negated or wide class."""
    chars: set = set()
    for op, av in items:
        if op is _sre.LITERAL:
            chars.add(chr(av).lower())
        elif op is _sre.RANGE and av[1] - av[0] < _CLASS_CHARS:
            chars.update(chr(code).lower() for code in range(av[0], av[1] + 1))
        else:
            return None
    return frozenset(chars) if len(chars) <= _CLASS_CHARS else None


def _strength(words: frozenset) -> tuple:
    """Longer shortest words first (three letters reach the index), then fewer words."""
    return min(len(w) for w in words), -len(words)


__all__ = ["triggered_by", "every_rule_runs", "checked", "declared", "pattern_words", "woken", "rule_number", "asked",
           "number_of", "EVERYTHING", "gates_of"]
