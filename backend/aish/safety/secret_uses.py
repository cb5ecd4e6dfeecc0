"""Secrets where they are used: headers, cookies, URLs and the password options of commands.

``Authorization:`` and ``Bearer`` values (the scheme stays), cookie values (``Cookie:``,
``Set-Cookie:``, ``curl -b``), passwords and token user names in URLs (user and host stay),
and the password options of common commands: ``curl -u user:…`` (also on a continued line),
``mysql -p…``, ``sshpass -p``, ``redis-cli -a``, ``docker login -p``, ``mongo -p``,
``htpasswd -b``, ``openssl … pass:…``, ``ldapsearch -w``, ``sqlcmd -P``, ``smbclient -U u%p``
and SQL's ``IDENTIFIED BY '…'``.

Each rule starts from a literal found with ``str.find`` and works in a bounded window; an
option is searched for before its program (it is the rarer of the two in a long line), so a
text full of ``curl`` costs no more than one without.
"""
from __future__ import annotations

import bisect
import re
from typing import Iterator, Sequence

from aish.safety import secret_values as values
from aish.safety.lazy_regex import LazyRegex, lazy

Span = tuple[int, int]


def scan(text: str, lower: str) -> Iterator[Span]:
    yield from _headers(text, lower)
    yield from _cookies(text, lower)
    yield from _urls(text)
    yield from _commands(text, lower)


def find_all(haystack: str, needle: str) -> Sequence[int]:
    """Every index of ``needle`` in ``haystack`` (``str.find`` runs at memory speed).  A list, not
    a generator: most texts hold none of the ~30 literals looked for, and making a generator for
    each was most of the time a text without them took."""
    i = haystack.find(needle)
    if i < 0:
        return ()
    found = []
    while i >= 0:
        found.append(i)
        i = haystack.find(needle, i + 1)
    return found


_AUTH_HEADER = lazy(
    r"authorization\\?[\"'`]?[ \t]*[:=][ \t]*\\?[\"'`]?[ \t]*"
    r"(?:(?:bearer|basic|token|bot|digest|apikey|api-key|negotiate|"
    r"ntlm|sso-key|key|splunk|dsn|otoken|oauth|sharedkey|sharedaccesssignature|ssws|klaviyo-api-key|zoho-oauthtoken|"
    r"gateway-token|api-token|token-auth|hmac)[ \t]+)?(?P<s>[^\s'\"\\,]{6,}(?:,[^\s'\"\\,]+)*)", re.IGNORECASE)
_SCHEMES = frozenset("bearer basic token bot digest apikey api-key negotiate ntlm".split())
_BEARER = lazy(r"bearer[ \t]+(?P<s>[A-Za-z0-9+/_.~\-]{8,}=*)", re.IGNORECASE)


def _headers(text: str, lower: str) -> Iterator[Span]:
    for i in find_all(lower, "authorization"):
        m = _AUTH_HEADER.match(text, i)
        value = m.group("s") if m else ""
        if m and value.lower() not in _SCHEMES and values.is_literal_secret(value, quoted=False, minimum=6):
            yield m.span("s")
    for i in find_all(lower, "bearer"):
        if i and lower[i - 1].isalnum():
            continue
        m = _BEARER.match(text, i)
        if m and values.is_literal_secret(m.group("s"), quoted=True, minimum=8) and values.classes(m.group("s")) >= 2:
            yield m.span("s")


_COOKIE_START = lazy(r"(?:set-)?cookie\\?[\"']?[ \t]*(?:[:=][ \t]*|[ \t]+)\\?[\"']?", re.IGNORECASE)
_COOKIE_PAIR = lazy(r"[ \t]*(?P<n>[^=;\s\"']{1,128})=(?P<v>[^;\s\"'\\]{1,4096})[ \t]*;?")
_COOKIE_ATTRIBUTES = frozenset({"path", "domain", "expires", "max-age", "samesite", "priority", "version", "comment"})


def _cookies(text: str, lower: str) -> Iterator[Span]:
    starts = []
    for i in find_all(lower, "cookie"):
        if i and lower[i - 1].isalnum() and lower[max(0, i - 4):i] != "set-":
            continue
        m = _COOKIE_START.match(text, i)
        if m:
            starts.append(m.end())
    index = _CommandIndex(text)
    for i in find_all(text, " -b "):  # curl -b 'name=value; ...'
        if index.runs(("curl",), i):
            starts.append(i + 4 + (text[i + 4:i + 5] in ("'", '"')))
    for pos in starts:
        for _ in range(64):
            pair = _COOKIE_PAIR.match(text, pos)
            if pair is None:
                break
            value = pair.group("v")
            if pair.group("n").lower() not in _COOKIE_ATTRIBUTES and len(value) >= 8 and \
                    values.is_literal_secret(value, quoted=True, minimum=8) and values.classes(value) >= 2:
                yield pair.span("v")
            pos = pair.end()


_USERINFO = lazy(r"//(?P<user>[^\s:/@'\"<>]{1,256})?(?::(?P<pw>[^\s@/'\"<>]{1,256}))?@(?=[\w\[])")


def _urls(text: str) -> Iterator[Span]:
    for i in find_all(text, "://"):
        m = _USERINFO.match(text, i + 1)
        if m is None:
            continue
        pw, user = m.group("pw"), m.group("user")
        if pw and values.is_literal_secret(pw, quoted=True, minimum=3):
            yield m.span("pw")
        elif user and not pw and values.looks_random(user):
            yield m.span("user")  # a token used as the URL's user name


# ---------------------------------------------------------------- commands
_VALUE = r"(?:'(?P<s>[^'\n]+)'|\"(?P<s2>[^\"\n]+)\"|(?P<s3>[^\s'\"-][^\s'\"]*))"
_ATTACHED = r"(?:'(?P<s>[^'\n]+)'|\"(?P<s2>[^\"\n]+)\"|(?P<s3>[^\s'\"]+))"
# (option as found, its value, the programs it must belong to): the option is searched for (it is
# rarer than the program's name in a long line), then the program with rfind within the same command.
_OPTIONS: tuple[tuple[str, LazyRegex, tuple[str, ...]], ...] = tuple(
    (literal, lazy(value), tuple(programs.split())) for literal, value, programs in (
        (" -u", r" -u(?:[ \t]+|=)?[\"']?[^\s:'\"]*:(?P<s>[^\s'\"]+)", "curl"),
        ("--user", r"--user(?:[ \t]+|=)[\"']?[^\s:'\"%]*:(?P<s>[^\s'\"]+)", "curl wget"),
        (" -p", r" -p" + _ATTACHED, "mysql mysqldump mysqladmin mysqlimport mysqlcheck mysqlshow mariadb mariadb-dump"),
        (" -p", r" -p[ \t]*" + _VALUE, "sshpass login mongo mongosh mongodump mongorestore mongoexport mongoimport"),
        (" -a", r" -a[ \t]*" + _VALUE, "redis-cli valkey-cli keydb-cli"),
        (" -w", r" -w[ \t]*" + _VALUE, "ldapsearch ldapmodify ldapadd ldapdelete ldapwhoami ldappasswd ldapmodrdn"),
        (" -P", r" -P[ \t]*" + _VALUE, "sqlcmd bcp"),
        (" -U", r" -U[ \t]*[\"']?[^\s%'\"]+%(?P<s>[^\s'\"]+)", "smbclient rpcclient smbcacls"),
        ("pass:", r"pass:" + _ATTACHED, "openssl"),
    ))
_ANCHORED: tuple[tuple[str, LazyRegex], ...] = (
    ("htpasswd", lazy(r"htpasswd[ \t]+-[a-zA-Z]*b[a-zA-Z]*[ \t]+(?:-\S+[ \t]+){0,4}\S+[ \t]+\S+[ \t]+"
                            + _ATTACHED)),
    ("identified", lazy(r"(?i:identified[ \t]+(?:with[ \t]+\w+[ \t]+)?by[ \t]+)"
                              r"(?:'(?P<s>[^'\n]+)'|\"(?P<s2>[^\"\n]+)\")")),
)
_COMMAND_BREAK = lazy(r"(?<!\\)\n|[;|]|&&")
_WINDOW = 512


def _commands(text: str, lower: str) -> Iterator[Span]:
    index = _CommandIndex(text)
    for literal, value, programs in _OPTIONS:
        for i in find_all(text, literal):
            m = value.match(text, i)
            if m is None or not index.runs(programs, i):
                continue
            yield from _option_value(m)
    for literal, pattern in _ANCHORED:
        for i in find_all(lower if literal == "identified" else text, literal):
            if i and text[i - 1].isalnum():
                continue
            m = pattern.match(text, i)
            if m:
                yield from _option_value(m)


class _CommandIndex:
    """Where programs' names and command breaks are in a text, found once each (a text full of
    ``mysql -p`` asks the same question thousands of times)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._breaks: list[int] | None = None
        self._programs: dict[tuple[str, ...], list[tuple[int, int]]] = {}

    def runs(self, programs: tuple[str, ...], i: int) -> bool:
        """One of ``programs`` runs the command that holds position ``i`` (same line or continued)."""
        found = self._programs.get(programs)
        if found is None:
            found = sorted(span for program in programs for span in self._words(program))
            self._programs[programs] = found
        k = bisect.bisect_left(found, (i, 0)) - 1
        if k < 0 or i - found[k][1] > _WINDOW:
            return False
        if self._breaks is None:
            self._breaks = [m.start() for m in _COMMAND_BREAK.finditer(self.text)]
        b = bisect.bisect_left(self._breaks, found[k][1])
        return b == len(self._breaks) or self._breaks[b] >= i

    def _words(self, program: str) -> Iterator[Span]:
        """Where ``program`` stands as a word (``docker`` before ``login``)."""
        text = self.text
        for at in find_all(text, program):
            end = at + len(program)
            if (at and (text[at - 1].isalnum() or text[at - 1] in "-_")) or \
                    (end < len(text) and (text[end].isalnum() or text[end] in "-_")):
                continue
            if program == "login" and not text[max(0, at - 16):at].rstrip().endswith("docker"):
                continue
            yield at, end


def _option_value(m: re.Match) -> Iterator[Span]:
    group = next((g for g in ("s", "s2", "s3") if g in m.re.groupindex and m.group(g)), None)
    if group and values.is_literal_secret(m.group(group), quoted=True, minimum=3):
        yield m.span(group)
