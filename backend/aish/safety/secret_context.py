"""Secrets found by the name in front of them, in whichever assignment syntax is there.

The names: every occurrence of a secret word (``pass``, ``secret``, ``token``, ``key`` ...,
``secret_names.LITERALS``) is read as the whole name around it, judged by
``secret_names.strength``, and the value after it is read in whichever syntax is there:

    NAME=v  export NAME="v"  NAME ?= v  NAME := v  NAME ::= v  name = 'v'  name: v  "name": "v"
    $name .= "v"  'name' => 'v'  name := `v`  <name>v</name>  name="v" (attribute)  --name v
    setProperty("NAME", "v")  if (name == "v")  if ("v" == name)  PASSWORD 'v'  name - 'v'
    - name: NAME / value: v   {"name": "NAME", "value": "v"}   <add key="Name" value="v"/>

The value must be a literal (``secret_values``): references, placeholders, paths and code are
left alone, and how sure the name is decides how random the value must look.  Headers,
cookies, URLs and commands are in ``secret_uses``.

Every rule works in a bounded window around a literal found with ``str.find``: the time is
linear in the text whatever it holds (no regex is run from every position of a long line).
"""
from __future__ import annotations

import re
from typing import Iterator, Optional

from aish.safety import secret_names as names
from aish.safety import secret_uses
from aish.safety import secret_values as values
from aish.safety.lazy_regex import lazy

Span = tuple[int, int]

MAX_NAME = 64
MAX_VALUE = 1024
_OPERATOR = lazy(
    r"(?P<close>(?:\\?[\"'`\]]){0,2})"
    r"(?P<type>[ \t]*:?[ \t]*(?:string|String|str|&'static str|&str|\[\]byte|const char[ \t]*\*)(?=[ \t]*=))?"
    r"(?P<sp1>[ \t]{0,16})"
    r"(?P<op>:::=|::=|:=|\?\?=|\?=|\+=|\.=|\|\|=|===|!==|==|!=|=>|=|:|,|>|\(|-(?=[ \t]))?(?P<sp2>[ \t]{0,16})")
_CODE_OPS = frozenset({":=", "=>", "==", "!=", "===", "!==", ",", "+="})
_PAIR_FIELD = lazy(r"(?:name|key|Name|Key|NAME|KEY)[\"']?[ \t]*(?:=|:)[ \t]*\\?[\"']?$|<(?:name|key)>$")
_PAIR_VALUE = lazy(r"(?:value\\?[\"']?[ \t]*(?:=|:)[ \t]*|<value>)", re.IGNORECASE)
_REVERSED = lazy(r"([\"'])(?P<v>[^\"'\n]{1,256})\1[ \t]*(?:===|!==|==|!=)[ \t]*$")
_NETRC = lazy(r"\blogin[ \t]+\S+[ \t]+$")
_STATEMENT = lazy(r"(?:^|[\n;{(]|\b(?:set|SET|with|WITH|by|BY|ENCRYPTED|encrypted))[ \t]*$")
_QUOTES = "\"'`"
_CONCATENATED = lazy(r"[ \t]*(?:\+|\.(?=[ \t]*\$)|%(?![>}]))")


def scan(text: str, lower: str) -> Iterator[Span]:
    """Spans of values that the context shows to be secrets."""
    yield from _names(text, lower)
    yield from secret_uses.scan(text, lower)


# ---------------------------------------------------------------- names and their values
_NAME_RUN = lazy(r"[A-Za-z0-9_.\-]{0,%d}" % MAX_NAME)


def _names(text: str, lower: str) -> Iterator[Span]:
    hits = [i for literal in names.LITERALS for i in secret_uses.find_all(lower, literal)]
    if not hits:
        return
    hits.sort()
    backwards = text[::-1]  # the name's start is found by matching the reversed text
    size = len(text)
    done = 0  # hits before this index were part of a name or value already read
    for i in hits:
        if i < done:
            continue
        start = i - _run_length(backwards, size - i)
        end = i + _run_length(text, i)
        name = text[start:end].rstrip(".")
        end = start + len(name)
        done = end
        strength = names.strength(name)
        if strength is None:
            continue
        span = _value_after(text, start, end, name, strength) or _value_before(text, start, name, strength) \
            or _pair_value(text, lower, start, end, strength)
        if span:
            done = max(done, span[1])
            yield span



def _run_length(text: str, pos: int) -> int:
    m = _NAME_RUN.match(text, pos)
    return m.end() - pos if m else 0


def _value_after(text: str, start: int, end: int, name: str, strength: names.Strength) -> Optional[Span]:
    m = _OPERATOR.match(text, end)
    if m is None:  # every part is optional: it always matches
        return None
    op = m.group("op")
    if op is None and not m.group("sp1"):
        return None
    read = _read_value(text, m.end(), xml=op == ">", query=text[start - 1:start] in ("?", "&"))
    if read is None:
        return None
    vstart, vend, quoted = read
    value = text[vstart:vend]
    before = text[start - 1:start] if start else ""
    name_quoted = bool(before) and before in _QUOTES and before in m.group("close")
    if op == "-" and not quoted:
        return None  # "token - 'x'" is a quoted value; "token - word" is prose
    if op is None:  # "--token VALUE", "password 'x'", "LicenseKey VALUE"
        option = name.startswith("-")
        netrc = names.words(name) == ("password",) and _NETRC.search(text, max(0, start - 200), start)
        statement = quoted and _STATEMENT.search(text, max(0, start - 64), start)  # password "x"; PASSWORD 'x'
        if not (option or statement or netrc or values.looks_random(value, 12)) or value.startswith("-"):
            return None
    elif op == ",":
        if not (name_quoted and quoted and before != "`" and text[start - 2:start - 1] in ("(", "[")):
            return None  # setProperty("NAME", "value"), not a list of names
    elif op in ("==", "!=", "===", "!==", "(") and not quoted:
        return None  # a comparison with a variable; a call with one
    elif op == ">" and before != "<":
        return None
    elif op == ":" and not quoted and value.startswith(("//", "/")) and "\n" not in value:
        return None  # a URL scheme or a path, not a value
    if not quoted and values.is_identifier(value) and (op in _CODE_OPS or (op == "=" and m.group("sp1"))):
        return None  # code: api_key = api_key, token := tok
    if not quoted and op == ":" and values.is_code_name(value):
        return None  # an object literal in code: { password: urlPassword }
    if quoted and _CONCATENATED.match(text, vend + 1):
        return None  # "prefix" + variable: a piece of an expression
    if op == "(" and not (values.looks_random(value, 12) or strength == names.Strength.STRONG
                          and values.classes(value) >= 2):
        return None  # createToken('NAME', ...): a call with a word
    if not _acceptable(value, quoted, name, strength):
        return None
    return vstart, vend


def _value_before(text: str, start: int, name: str, strength: names.Strength) -> Optional[Span]:
    """``if ("value" == password)``"""
    if not text[max(0, start - 8):start].rstrip().endswith(("==", "!=")):
        return None
    m = _REVERSED.search(text, max(0, start - 300), start)
    if m is None or m.end() != start or not _acceptable(m.group("v"), True, name, strength):
        return None
    return m.span("v")


def _pair_value(text: str, lower: str, start: int, end: int, strength: names.Strength) -> Optional[Span]:
    """``- name: DB_PASSWORD`` then ``value: x`` (Kubernetes, JSON name/value lists, .NET config)."""
    before = lower[max(0, start - 16):start]
    if ("name" not in before and "key" not in before) or not _PAIR_FIELD.search(text, max(0, start - 16), start):
        return None
    at = lower.find("value", end, end + 200)
    m = _PAIR_VALUE.match(text, at - 1 if at > 0 and text[at - 1] == "<" else at) if at >= 0 else None
    if m is None or text.count("\n", end, m.start()) > 2:
        return None
    read = _read_value(text, m.end(), xml=m.group(0).startswith("<"))
    if read is None or not _acceptable(text[read[0]:read[1]], read[2], text[start:end], strength):
        return None
    return read[0], read[1]


def _acceptable(value: str, quoted: bool, name: str, strength: names.Strength) -> bool:
    words = names.words(name)
    password = any(w.startswith("pass") or w.endswith(("password", "passwd", "pwd")) for w in words)
    minimum = values.MIN_PASSWORD if password else values.MIN_TOKEN
    if not values.is_literal_secret(value, quoted=quoted, minimum=minimum):
        return False
    if value.lower().replace("-", "_") in (name.lower().lstrip("-$").replace("-", "_"), words[-1] if words else ""):
        return False  # api_key=api_key, password: password
    if value.lower().endswith(" bytes"):
        return False
    if strength == names.Strength.WEAK:
        return values.looks_random(value)
    if strength == names.Strength.MEDIUM:
        digits_or_symbols = any(c.isdigit() or not c.isalnum() and c not in "_-./$" for c in value)
        return values.looks_random(value, 12) or (len(value) >= 8 and digits_or_symbols
                                                   and values.classes(value) + (not value.isalnum()) >= 2)
    return True


def _read_value(text: str, pos: int, *, xml: bool = False, query: bool = False) -> Optional[tuple[int, int, bool]]:
    """(start, end, quoted) of the value at ``pos``: quoted, an XML element's text, or bare
    (in a URL's query, a bare value ends at the next ``&name=``)."""
    if pos >= len(text):
        return None
    if xml:
        close = text.find("<", pos, pos + MAX_VALUE)
        if close < 0 or not text.startswith("</", close):
            return None  # an element's text ends at its closing tag
        raw = text[pos:close]
        lead = len(raw) - len(raw.lstrip())
        body = raw.strip()
        return (pos + lead, pos + lead + len(body), True) if body else None
    c = text[pos]
    if c in "@rbu" and text[pos + 1:pos + 2] in ('"', "'"):  # C# @"...", Python r'...'
        pos, c = pos + 1, text[pos + 1]
    if c == "\\" and text[pos + 1:pos + 2] == '"':  # JSON inside a JSON string: \"value\"
        close = text.find('\\"', pos + 2, pos + 2 + MAX_VALUE)
        if close < 0 or "\n" in text[pos:close]:
            return None
        return pos + 2, close, True
    if c in _QUOTES:
        close = text.find(c, pos + 1, pos + 1 + MAX_VALUE)
        if close < 0 or (c != "`" and "\n" in text[pos:close]):
            return None
        return pos + 1, close, True
    bare = _BARE.match(text, pos)
    if bare is None:
        return None
    end = bare.end()
    raw = bare.group(0)
    for stop in ("\\n", "\\r", "\\t", ";"):  # an escaped newline ends a value inside a JSON string
        cut = raw.find(stop)
        if cut >= 0:
            end = min(end, pos + cut)
    if query and "&" in raw:
        amp = _QUERY_NEXT.search(text, pos, end)
        if amp:
            end = amp.start()
    comma = _NEXT_KEY.search(text, pos, end)  # minified code, flow YAML: a,b:c / x,"y":
    if comma:
        end = comma.start()
    while end > pos and text[end - 1] in ",;:":
        end -= 1
    for opening, closing in ("()", "[]", "{}"):
        while end > pos and text[end - 1] == closing and text.count(opening, pos, end) < text.count(closing, pos, end):
            end -= 1
    return (pos, end, False) if end > pos else None


_QUERY_NEXT = lazy(r"&[\w.\-\[\]]{1,64}=")
_NEXT_KEY = lazy(r",[\"']?[\w$.\-]{1,64}[\"']?[:=]")
_BARE = lazy(r"[^\s\"'`]{1,%d}" % MAX_VALUE)
