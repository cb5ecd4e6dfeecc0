"""Evaluate the string values of Go test fixtures, without a Go toolchain.

The secret scanners written in Go keep their examples as Go expressions: string literals,
``+``, ``fmt.Sprintf``, ``[]string{...}``, ``append``, struct literals of test tables, and
(gitleaks) ``secrets.NewSecret(regex)`` which draws a random string matching a regex.  This
module understands that subset: ``GoValues(source).assignments()`` yields the names assigned in
a file with their values, and ``evaluate`` turns one expression into Python strings, lists and
dicts.  Anything outside the subset raises ``Unknown``: the caller skips that value and counts
it, so a measurement never silently rests on a misread fixture.

``sample(regex, rng)`` draws a string that matches a regex (Python's parser, bounded repeats):
what ``secrets.NewSecret`` does in gitleaks' generator.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterator

try:  # Python 3.11+
    from re import _constants as sre_c, _parser as sre_p  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as sre_c  # type: ignore[no-redef]
    import sre_parse as sre_p  # type: ignore[no-redef]


class Unknown(Exception):
    """An expression outside the understood subset."""


_TOKEN = re.compile(r"""
    (?P<ws>\s+|//[^\n]*|/\*[\s\S]*?\*/)
  | (?P<raw>`[^`]*`)
  | (?P<str>"(?:[^"\\\n]|\\.)*")
  | (?P<rune>'(?:[^'\\\n]|\\.)+')
  | (?P<num>\d[\w.]*)
  | (?P<name>[A-Za-z_]\w*)
  | (?P<op>\.\.\.|:=|==|!=|<=|>=|&&|\|\||<-|\+=|[-+*/%&|^<>=!(){}\[\],;:.])
""", re.VERBOSE)

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "'": "'", "a": "\a", "b": "\b",
            "f": "\f", "v": "\v", "0": "\0"}


def _unquote(literal: str) -> str:
    def one(m: re.Match) -> str:
        s = m.group(1)
        if s[0] in "xuU":
            return chr(int(s[1:], 16))
        if s[0] in "01234567" and len(s) == 3:
            return chr(int(s, 8))
        return _ESCAPES.get(s, "\\" + s)
    return re.sub(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3}|.)", one, literal[1:-1])


@dataclass
class Tok:
    kind: str
    text: str


def tokenize(source: str) -> list[Tok]:
    out = []
    for m in _TOKEN.finditer(source):
        kind = m.lastgroup or ""
        if kind != "ws":
            out.append(Tok(kind, m.group(0)))
    return out


# ---------------------------------------------------------------- random strings from a regex
def sample(pattern: str, rng: random.Random) -> str:
    """A string that matches ``pattern`` (repeats drawn between min and min+8)."""
    return "".join(_draw(sre_p.parse(pattern), rng))


_CATEGORY_CHARS = {
    sre_c.CATEGORY_DIGIT: "0123456789",
    sre_c.CATEGORY_WORD: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_",
    sre_c.CATEGORY_SPACE: " ",
}


def _charset(items: list, rng: random.Random) -> str:
    chars: list[str] = []
    negate = False
    for op, av in items:
        if op is sre_c.NEGATE:
            negate = True
        elif op is sre_c.LITERAL:
            chars.append(chr(av))
        elif op is sre_c.RANGE:
            chars.extend(chr(c) for c in range(av[0], av[1] + 1))
        elif op is sre_c.CATEGORY:
            chars.extend(_CATEGORY_CHARS.get(av, "a"))
    if negate:
        pool = [c for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" if c not in chars]
        return rng.choice(pool)
    return rng.choice(chars or ["a"])


def _draw(parsed: Any, rng: random.Random) -> Iterator[str]:
    for op, av in parsed:
        if op is sre_c.LITERAL:
            yield chr(av)
        elif op is sre_c.NOT_LITERAL:
            yield "a" if av != ord("a") else "b"
        elif op is sre_c.ANY:
            yield rng.choice("abcdefghijklmnopqrstuvwxyz0123456789")
        elif op is sre_c.IN:
            yield _charset(av, rng)
        elif op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT, getattr(sre_c, "POSSESSIVE_REPEAT", None)):
            low, high, sub = av
            high = low + 8 if high is sre_c.MAXREPEAT else high
            for _ in range(rng.randint(low, min(high, low + 8))):
                yield from _draw(sub, rng)
        elif op is sre_c.SUBPATTERN:
            yield from _draw(av[-1], rng)
        elif op is sre_c.BRANCH:
            yield from _draw(rng.choice(av[1]), rng)
        elif op is sre_c.CATEGORY:
            yield rng.choice(_CATEGORY_CHARS.get(av, "a"))
        elif op in (sre_c.AT, sre_c.ASSERT, sre_c.ASSERT_NOT):
            continue
        else:
            raise Unknown(f"regex op {op}")


# ---------------------------------------------------------------- expressions
def _sprintf(fmt: str, *args: Any) -> str:
    values = list(args)

    def one(m: re.Match) -> str:
        if m.group(0) == "%%":
            return "%"
        if not values:
            raise Unknown("Sprintf arguments")
        value = values.pop(0)
        if m.group(1) == "q":
            return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'
        return str(value)
    return re.sub(r"%[-+# 0-9.]*([svdqxXfgt])|%%", one, fmt)


def _sample_secrets(identifier: str, secret: str) -> list[str]:
    """gitleaks' ``utils.GenerateSampleSecrets``: the secret in each of its assignment syntaxes."""
    forms = [
        '{i}Token="{s}"', '{i}Token = "{s}"', "{i}Token={s}", "{i}Token = {s}",
        '{\n    "{i}_token": "{s}"\n}', '{"config.ini": "{I}_TOKEN={s}\\nBACKUP_ENABLED=true"}',
        "<{i}Token>\n    {s}\n</{i}Token>", "{i}_token: {s}", "{i}_token: '{s}'", '{i}_token: "{s}"',
        'string {i}Token = "{s}";', 'var {i}Token string = "{s}"', '{i}Token := "{s}"', "{i}Token := `{s}`",
        'String {i}Token = "{s}";', 'var {i}Token = "{s}"', '${i}Token .= "{s}"', "{i}Token = '{s}'",
        '{i}Token = "{s}"', 'System.setProperty("{I}_TOKEN", "{s}")', '  "{i}Token" => "{s}"',
        '{I}_TOKEN = "{s}"', '{I}_TOKEN := "{s}"', '{I}_TOKEN ::= "{s}"', '{I}_TOKEN :::= "{s}"',
        '{I}_TOKEN ?= "{s}"',
    ]
    return [f.replace("{i}", identifier).replace("{I}", identifier.upper()).replace("{s}", secret) for f in forms]


_REGEX_HELPERS = {
    "Numeric": "[0-9]{%s}", "Hex": "[a-f0-9]{%s}", "AlphaNumeric": "[a-z0-9]{%s}",
    "AlphaNumericExtendedShort": "[a-z0-9_-]{%s}", "AlphaNumericExtended": r"[a-z0-9=_\-]{%s}",
    "AlphaNumericExtendedLong": r"[a-z0-9\/=_\+\-]{%s}",
}


class GoValues:
    """The string-valued expressions of one Go file."""

    def __init__(self, source: str, *, seed: int = 0, env: dict | None = None) -> None:
        self.toks = tokenize(source)
        self.env: dict[str, Any] = dict(env or {})
        self.rng = random.Random(seed)
        self.funcs: dict[str, Callable[..., Any]] = {
            "fmt.Sprintf": _sprintf,
            "strings.Repeat": lambda s, n: s * int(n),
            "strings.Join": lambda items, sep: sep.join(items),
            "strings.ToUpper": str.upper, "strings.ToLower": str.lower,
            "strings.ReplaceAll": lambda s, a, b: s.replace(a, b),
            "string": lambda s: s, "[]byte": lambda s: s,
            "append": lambda base, *items: list(base or []) + list(items),
            "utils.GenerateSampleSecrets": _sample_secrets,
            "utils.GenerateSampleSecret": lambda i, s: f'{i}_api_token = "{s}"',
            "secrets.NewSecret": lambda pattern: sample(pattern, self.rng),
            "utils.Hex8_4_4_4_12": lambda: "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
        }
        for name, pattern in _REGEX_HELPERS.items():
            self.funcs["utils." + name] = lambda size, p=pattern: p % size

    # ------------------------------------------------------------ statements
    def assignments(self, start: int = 0, end: int | None = None) -> Iterator[tuple[str, Any, int]]:
        """(name, value or Unknown, token index) for each ``name := x`` / ``name = x`` / ``var name [T] = x``,
        in order; values are also kept in ``env`` for later expressions."""
        toks, end = self.toks, len(self.toks) if end is None else end
        i = start
        while i < end:
            t = toks[i]
            if t.kind == "name" and i + 1 < end and toks[i + 1].text in (":=", "=") and \
                    (i == 0 or toks[i - 1].text not in (".", ",")):
                j = i + 2
            elif t.kind == "name" and i > 0 and toks[i - 1].text == "var" and i + 2 < end:
                j = i + 1
                while j < end and toks[j].text != "=" and toks[j].text not in (";", ")") and j - i < 8:
                    j += 1
                if j >= end or toks[j].text != "=":
                    i += 1
                    continue
                j += 1
            else:
                i += 1
                continue
            name = t.text
            try:
                value, after = self.expr(j)
            except (Unknown, IndexError, ValueError, TypeError, re.error) as exc:
                value, after = Unknown(str(exc)), j + 1
            self.env[name] = value
            yield name, value, i
            i = max(after, i + 1)

    def function_bodies(self) -> Iterator[tuple[str, int, int]]:
        """(name, first token, end token) of each top-level ``func``."""
        toks = self.toks
        for i, t in enumerate(toks):
            if t.text == "func" and i + 1 < len(toks) and toks[i + 1].kind == "name":
                j = i
                while j < len(toks) and toks[j].text != "{":
                    j += 1
                close = self._matching(j)
                yield toks[i + 1].text, j + 1, close

    def _matching(self, i: int) -> int:
        pairs = {"{": "}", "(": ")", "[": "]"}
        stack = [pairs[self.toks[i].text]]
        j = i + 1
        while stack and j < len(self.toks):
            text = self.toks[j].text
            if text in pairs:
                stack.append(pairs[text])
            elif text == stack[-1]:
                stack.pop()
            j += 1
        return j - 1

    # ------------------------------------------------------------ expressions
    def evaluate(self, source: str) -> Any:
        saved = self.toks
        self.toks = tokenize(source)
        try:
            return self.expr(0)[0]
        finally:
            self.toks = saved

    def expr(self, i: int) -> tuple[Any, int]:
        value, i = self.primary(i)
        while i < len(self.toks) and self.toks[i].text == "+":
            right, i = self.primary(i + 1)
            if isinstance(value, Unknown) or isinstance(right, Unknown):
                raise Unknown("operand")
            value = value + right
        return value, i

    def primary(self, i: int) -> tuple[Any, int]:
        t = self.toks[i]
        if t.kind == "raw":
            return t.text[1:-1], i + 1
        if t.kind == "str":
            return _unquote(t.text), i + 1
        if t.kind == "num":
            return t.text, i + 1
        if t.text == "(":
            value, i = self.expr(i + 1)
            return value, i + 1
        if t.text == "[" or t.text in ("map", "struct"):
            return self.composite(i)
        if t.kind == "name":
            name, j = t.text, i + 1
            while j + 1 < len(self.toks) and self.toks[j].text == "." and self.toks[j + 1].kind == "name":
                name += "." + self.toks[j + 1].text
                j += 2
            if j < len(self.toks) and self.toks[j].text == "(":
                return self.call(name, j)
            if j < len(self.toks) and self.toks[j].text == "{" and name.rsplit(".", 1)[-1][:1].isupper():
                return self.braces(j)  # a struct literal: Type{...}
            if name in ("nil",):
                return [], j
            if name in self.env:
                value = self.env[name]
                if isinstance(value, Unknown):
                    raise value
                return value, j
            raise Unknown(name)
        raise Unknown(t.text)

    def call(self, name: str, i: int) -> tuple[Any, int]:
        args, i = self.arguments(i)
        fn = self.funcs.get(name)
        if fn is None:
            raise Unknown(name)
        return fn(*args), i

    def arguments(self, i: int) -> tuple[list, int]:
        args: list = []
        i += 1
        while self.toks[i].text != ")":
            value, i = self.expr(i)
            if self.toks[i].text == "...":
                args.extend(value)
                i += 1
            else:
                args.append(value)
            if self.toks[i].text == ",":
                i += 1
        return args, i + 1

    def composite(self, i: int) -> tuple[Any, int]:
        """``[]T{...}``, ``map[K]V{...}``, ``[]struct{...}{...}``: skip the type, read the braces."""
        while self.toks[i].text != "{" or self.toks[i - 1].text in ("struct", "interface"):
            if self.toks[i].text in ("[", "(") or (self.toks[i].text == "{"):
                i = self._matching(i)
            i += 1
        return self.braces(i)

    def braces(self, i: int) -> tuple[Any, int]:
        """Elements of ``{...}``: a list, or a dict for ``key: value`` elements (unknown ones dropped)."""
        close = self._matching(i)
        items: list = []
        keyed: dict = {}
        i += 1
        while i < close:
            key = None
            if self.toks[i].kind in ("name", "str") and self.toks[i + 1].text == ":":
                key = self.toks[i].text if self.toks[i].kind == "name" else _unquote(self.toks[i].text)
                i += 2
            try:
                if self.toks[i].text == "{":
                    value, j = self.braces(i)
                else:
                    value, j = self.expr(i)
            except (Unknown, IndexError, ValueError, TypeError, re.error) as exc:
                value, j = Unknown(str(exc)), self._skip_element(i, close)
            if key is None:
                items.append(value)
            else:
                keyed[key] = value
            i = j
            if i < close and self.toks[i].text == ",":
                i += 1
            elif i < close:
                i = self._skip_element(i, close)
        return (keyed if keyed else items), close + 1

    def _skip_element(self, i: int, close: int) -> int:
        while i < close and self.toks[i].text != ",":
            if self.toks[i].text in "([{":
                i = self._matching(i)
            i += 1
        return i + 1 if i < close else close
