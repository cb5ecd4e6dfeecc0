"""A small, forgiving parser for one line of POSIX shell, for judging commands.

Why not ``shlex``: the safety check and ``:explain`` need more than words.
They need to know where one command ends (``&&``, ``||``, ``;``, ``|``,
``&``, newlines, parentheses), which words were quoted (``'$HOME'`` is not a
variable), what command substitutions run (``$( )``, backticks, ``<( )``:
their bodies execute too, so they are parsed as well), where redirections
point (``> /dev/sda``) and what heredocs feed in.  And it must never raise:
a model can suggest a line with an unbalanced quote, which is parsed
best-effort (the open quote runs to the end of the line).

It does not expand anything: ``Word.text`` is the word with quotes removed
and expansions kept literally (``"$HOME/x"`` -> ``$HOME/x``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional
from aish.safety.lazy_regex import lazy

# Longest first, so ``&&`` wins over ``&`` and ``<<<`` over ``<<``.
_CONTROL = ("&&", "||", ";;", "|&", ";", "|", "&", "(", ")", "\n")
_REDIRECT = ("&>>", "<<<", "<<-", ">>", ">|", "&>", ">&", "<&", "<>", "<<", ">", "<")
_META = " \t\n;&|<>()"
# Inside double quotes a backslash escapes only these (`"rm -rf \`x\`"` is a backtick, not a substitution).
_DQ_ESCAPE = lazy(r'\\([$`"\\\n])')


def _unescaped(m: re.Match) -> str:
    return "" if m.group(1) == "\n" else m.group(1)


_PLAIN = re.compile(r"[^ \t\n;&|<>()\\'\"$`*?\[]+")


@dataclass
class Word:
    text: str  # quotes removed, expansions literal
    raw: str  # as typed
    quoted: bool = False  # some part was quoted
    has_var: bool = False  # an unquoted or double-quoted $ expansion or substitution
    glob: bool = False  # an unquoted * ? or [
    subs: list = field(default_factory=list)  # bodies of $( ), backticks, <( ), >( )


@dataclass
class Redirect:
    op: str  # ">", ">>", "2>", "<<", ...
    target: Optional[Word]  # None for a heredoc
    body: str = ""  # heredoc text


@dataclass
class Segment:
    """One simple command and the control operator that joined it to the one before."""

    words: list = field(default_factory=list)
    redirects: list = field(default_factory=list)
    link: Optional[str] = None  # None (first), "|", "|&", "&&", "||", ";", "&", "(", ")"
    fed_by: int = 0  # piped from a ( ) or { } group: how many commands before it the group holds

    @property
    def argv(self) -> list:
        return [w.text for w in self.words]


@dataclass
class Token:
    kind: str  # "word" | "op" | "redir"
    value: object  # Word | str | Redirect
    raw: str


# ----------------------------------------------------------------- tokenizer

def _balanced(s: str, i: int, open_: str = "(", close: str = ")") -> int:
    """Index just past the ``close`` matching an already-consumed ``open_`` at ``i - 1``."""
    depth, n = 1, len(s)
    while i < n:
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if c == "'":
            j = s.find("'", i + 1)
            i = n if j < 0 else j + 1
            continue
        if c == '"':
            i = _skip_double(s, i + 1)
            continue
        if c == open_:
            depth += 1
        elif c == close:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


def _skip_double(s: str, i: int) -> int:
    n = len(s)
    while i < n:
        c = s[i]
        if c == "\\":
            i += 2
        elif c == '"':
            return i + 1
        elif s.startswith("$(", i):
            i = _balanced(s, i + 2)
        else:
            i += 1
    return n


def _read_word(s: str, i: int) -> tuple:
    """Read one word starting at ``i``; returns (Word, end)."""
    plain = _PLAIN.match(s, i)
    if plain:  # most words are one run of ordinary characters up to a space, an operator or the end
        end = plain.end()
        if end == len(s) or s[end] in _META:
            text = plain.group()
            return Word(text, text), end
    return _read_word_in_full(s, i)


def _read_word_in_full(s: str, i: int) -> tuple:
    """``_read_word`` for any word (quotes, escapes, expansions, globs)."""
    n, start = len(s), i
    out: list[str] = []
    word = Word("", "")
    while i < n:
        plain = _PLAIN.match(s, i)  # a run of ordinary characters, taken at once
        if plain:
            out.append(plain.group())
            i = plain.end()
            continue
        c = s[i]
        if c in _META:
            if c in "<>" and i + 1 < n and s[i + 1] == "(" and i == start:
                end = _balanced(s, i + 2)
                word.subs.append(s[i + 2:end - 1])
                word.has_var = True
                out.append(s[i:end])
                i = end
                continue
            break
        if c == "\\":
            if i + 1 < n and s[i + 1] == "\n":
                i += 2
                continue
            out.append(s[i + 1:i + 2])
            word.quoted = True
            i += 2
        elif c == "'" or (c == "$" and s.startswith("$'", i)):
            j = i + (2 if c == "$" else 1)
            k = s.find("'", j)
            k = n if k < 0 else k
            out.append(s[j:k])
            word.quoted = True
            i = k + 1
        elif c == '"':
            end = _skip_double(s, i + 1)
            inner = s[i + 1:end - 1] if end <= n and s[end - 1:end] == '"' else s[i + 1:end]
            _scan_expansions(inner, word)
            out.append(_DQ_ESCAPE.sub(_unescaped, inner))  # bash: \$ \` \" \\ and a line's end, in one pass
            word.quoted = True
            i = end
        elif c == "$" and s.startswith("$(", i):
            end = _balanced(s, i + 2)
            word.subs.append(s[i + 2:end - 1])
            word.has_var = True
            out.append(s[i:end])
            i = end
        elif c == "$" and s.startswith("${", i):
            end = _balanced(s, i + 2, "{", "}")
            word.has_var = True
            out.append(s[i:end])
            i = end
        elif c == "$" and i + 1 < n and (s[i + 1].isalnum() or s[i + 1] in "_@*#?!$-"):
            word.has_var = True
            out.append(c)
            i += 1
        elif c == "`":
            k = s.find("`", i + 1)
            k = n if k < 0 else k
            word.subs.append(s[i + 1:k])
            word.has_var = True
            out.append(s[i:k + 1])
            i = k + 1
        else:
            if c in "*?[":
                word.glob = True
            out.append(c)
            i += 1
    word.text = "".join(out)
    word.raw = s[start:i]
    return word, i


def _scan_expansions(inner: str, word: Word) -> None:
    """Record ``$VAR`` and ``$( )``/backticks inside a double-quoted part."""
    i, n = 0, len(inner)
    while i < n:
        c = inner[i]
        if c == "\\":
            i += 2
            continue
        if inner.startswith("$(", i):
            end = _balanced(inner, i + 2)
            word.subs.append(inner[i + 2:end - 1])
            word.has_var = True
            i = end
            continue
        if c == "`":
            k = inner.find("`", i + 1)
            k = n if k < 0 else k
            word.subs.append(inner[i + 1:k])
            word.has_var = True
            i = k + 1
            continue
        if c == "$" and i + 1 < n and (inner[i + 1].isalnum() or inner[i + 1] in "_{@*#?!$-"):
            word.has_var = True
        i += 1


def tokenize(s: str) -> list:
    """Split a command line into words, control operators and redirections."""
    tokens: list[Token] = []
    pending_heredocs: list[Redirect] = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c in " \t":
            i += 1
            continue
        if c == "\\" and s.startswith("\\\n", i):
            i += 2
            continue
        if c == "#" and (not tokens or s[i - 1] in " \t\n;&|()"):
            k = s.find("\n", i)
            i = n if k < 0 else k
            continue
        if c == "\n":
            tokens.append(Token("op", "\n", "\n"))
            i += 1
            for doc in pending_heredocs:
                i = _read_heredoc(s, i, doc)
            pending_heredocs = []
            continue
        fd, begin = "", i
        if c.isdigit():
            j = i
            while j < n and s[j].isdigit():
                j += 1
            if j < n and s[j] in "<>":
                fd, i = s[i:j], j
                c = s[i]
        if c in "<>&" and not (c in "<>" and s.startswith("(", i + 1)):
            op = next((o for o in _REDIRECT if s.startswith(o, i)), None)
            if op is not None:
                i += len(op)
                while i < n and s[i] in " \t":
                    i += 1
                if op in ("<<", "<<-"):
                    delim, i = _read_word(s, i)
                    red = Redirect(fd + op, None, "")
                    red.target = Word(delim.text.strip(), delim.raw)
                    pending_heredocs.append(red)
                else:
                    target, i = _read_word(s, i) if i < n and s[i] not in _META else (None, i)
                    red = Redirect(fd + op, target)
                tokens.append(Token("redir", red, s[begin:i].rstrip()))
                continue
        if c in ";&|()":
            op = next(o for o in _CONTROL if s.startswith(o, i))
            tokens.append(Token("op", op, op))
            i += len(op)
            continue
        word, i = _read_word(s, i)
        tokens.append(Token("word", word, word.raw))
    return tokens


def _read_heredoc(s: str, i: int, doc: Redirect) -> int:
    delim = doc.target.text if doc.target else ""
    lines: list[str] = []
    n = len(s)
    while i < n:
        k = s.find("\n", i)
        line = s[i:] if k < 0 else s[i:k]
        i = n if k < 0 else k + 1
        if (line.lstrip("\t") if doc.op.endswith("-") else line) == delim:
            break
        lines.append(line)
    doc.body = "\n".join(lines)
    return i


# ----------------------------------------------------------------- segments

_RESERVED_LEAD = {"if", "then", "else", "elif", "do", "while", "until", "!", "{", "}", "time"}
_RESERVED_ALONE = {"fi", "done", "esac", "}", "{"}


# A line of plain words, spaces and the operators `;`, `&`, `|` only (no quote, escape, expansion, glob,
# redirection, group or comment): most lines.  Its words and operators are read by one pattern.
_SIMPLE_LINE = re.compile(r"[^\n()<>\\'\"$`*?\[#{}]*")
_SIMPLE_TOKEN = re.compile(r"(&&|\|\||;;|\|&|[;|&])|[^ \t;&|]+")


def segments(command: str) -> list:
    """Split into simple commands; reserved words that open a compound are dropped."""
    if _SIMPLE_LINE.fullmatch(command):
        out: list[Segment] = []
        current = Segment()
        for m in _SIMPLE_TOKEN.finditer(command):
            op = m.group(1)
            if op is None:
                text = m.group()
                current.words.append(Word(text, text))
            else:
                _close(current, out)
                current = Segment(link=op)
        _close(current, out)
        return out
    return _segments_in_full(command)


def _segments_in_full(command: str) -> list:
    """``segments`` for any line."""
    out: list[Segment] = []
    current = Segment()
    opened: list = []  # where each ( ) or { } group still open starts, in `out`
    closed = None  # where the group just closed starts, while a pipe may still follow it
    for token in tokenize(command):
        if token.kind == "word":
            word = token.value
            if not current.words and not word.quoted and word.text == "{":
                opened.append(len(out))
            current.words.append(word)
            closed = None
        elif token.kind == "redir":
            current.redirects.append(token.value)
        else:
            closes = token.value == ")" or (len(current.words) == 1 and current.words[0].text == "}" and
                                            not current.words[0].quoted)
            _close(current, out)
            current = Segment(link=token.value)
            if closes and opened:
                closed = opened.pop()
            if token.value in ("|", "|&") and closed is not None:
                current.fed_by = len(out) - closed  # `(crontab -l; echo …) | crontab -`: the whole group feeds it
            if token.value != ")":
                closed = None
            if token.value == "(":
                opened.append(len(out))
    _close(current, out)
    return out


def _close(seg: Segment, out: list) -> None:
    while seg.words and seg.words[0].text in _RESERVED_LEAD and not seg.words[0].quoted:
        seg.words.pop(0)
    while seg.words and seg.words[-1].text in _RESERVED_ALONE and not seg.words[-1].quoted:
        seg.words.pop()
    if seg.words or seg.redirects:
        out.append(seg)


def pieces(command: str) -> list:
    """The pieces as typed (words, operators, redirections with their targets)."""
    out = []
    for token in tokenize(command):
        if token.kind == "op" and token.value == "\n":
            continue
        out.append(token.raw)
    return out
