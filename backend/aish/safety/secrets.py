"""Secrets never leave the machine by accident: redact before sending, restore locally.

Everything sent to a model goes through ``Redactor.redact_messages``: API keys
of the common providers, ``Authorization:`` headers, JWTs, private key blocks,
``PASSWORD=``/``--token x``-style assignments and passwords in URLs are
replaced by placeholders ``<secret:N>``.  The structure around a secret
(variable and header names, URL user and host) stays, so the model can still
help.  A placeholder that comes back in an answer is put back locally
(``restore``, ``streaming_restorer``) so a suggested command works.

Why ``<secret:N>``: a model copies it verbatim (it reads as an opaque
placeholder, not as a variable to "fix" the way ``AISH_SECRET_1`` becomes
``$AISH_SECRET_1``); it holds no quote or backslash, so it survives inside
JSON strings and shell quotes; and if it is ever left unrestored on a command
line, ``<`` and ``>`` make the shell refuse the line instead of silently
sending a wrong credential.  Normal text does not contain it, and only
numbers this redactor issued are restored.

The mapping lives in memory for one conversation within one daemon
lifetime; ``to_dict`` deliberately holds no secret values, so after a
daemon restart a placeholder from an old turn is left as-is.
"""
from __future__ import annotations

import re
import threading
from typing import Callable

PLACEHOLDER = re.compile(r"<secret:(\d{1,9})>", re.IGNORECASE)
_PREFIX = "<secret:"
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")

# Values that are references or placeholders, not secrets.
_NOT_SECRET = re.compile(r"^(?:\$|<|\{\{|%\(|%[A-Z_]+%|\*+$|x{3,}$|\.\.\.|your[_-]|none$|null$|nil$|"
                         r"true$|false$|undefined$|changeme$|redacted$|example$|(?:id|src|source|env|type|target)=)", re.IGNORECASE)

_END = r"(?![A-Za-z0-9_\-])"
_VALUE = r"(?:'(?P<s>[^'\n]+)'|\"(?P<s2>[^\"\n]+)\"|(?P<s3>[^\s'\"-][^\s'\"]*))"


def _rule(literals: str, pattern: str, *, nocase: bool = False, boundary: bool = True,
          offset: int = 0) -> tuple:
    """(literals to find, regex matched ``offset`` chars before each find, case-insensitive,
    needs a word start)."""
    return (tuple(literals.split()), re.compile(pattern, re.IGNORECASE if nocase else 0), nocase,
            boundary, offset)


# Why literal finds first: a regex with (?i) or a lookbehind in front is tried at
# every position of the text (tens of ms per 100 KB); str.find of a literal runs
# at memory speed, and the regex only runs, anchored, where a literal was found.
_RULES = (
    # Provider tokens, recognisable anywhere by their prefix.
    # One literal per family keeps the number of text scans low (each absent literal is a full scan).
    _rule("sk", r"(?P<s>sk-(?=[A-Za-z0-9_\-]*\d)[A-Za-z0-9_\-]{20,}"  # OpenAI, Anthropic, OpenRouter
                r"|sk_(?:live|test)_[A-Za-z0-9]{10,})" + _END),  # Stripe secret key
    _rule("rk_", r"(?P<s>rk_(?:live|test)_[A-Za-z0-9]{10,})" + _END),  # Stripe restricted key
    _rule("whsec_ hf_ npm_ dckr_pat_ dop_v1_ shpat_",  # Stripe webhook, HuggingFace, npm, Docker...
          r"(?P<s>(?:whsec|hf|npm|dckr_pat|dop_v1|shpat)_[A-Za-z0-9_\-]{20,})" + _END),
    _rule("gh", r"(?P<s>gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})" + _END),  # GitHub
    _rule("gl", r"(?P<s>gl(?:pat|dt|rt|ptt|soat)-[A-Za-z0-9_\-]{20,})" + _END),  # GitLab
    _rule("xo xa", r"(?P<s>x(?:ox[a-z]|app)-[A-Za-z0-9\-]{10,})" + _END),  # Slack
    _rule("IA", r"(?P<s>A[KSBC]IA[A-Z0-9]{16})(?![A-Za-z0-9])", offset=2),  # AWS access key id
    _rule("AIza", r"(?P<s>AIza[0-9A-Za-z_\-]{35})" + _END),  # Google
    _rule("ya29. GOCSPX-", r"(?P<s>(?:ya29\.|GOCSPX-)[0-9A-Za-z_\-]{20,})" + _END),
    _rule("pypi-AgE", r"(?P<s>pypi-AgE[A-Za-z0-9_\-]{50,})" + _END),
    _rule("SG.", r"(?P<s>SG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,})" + _END),  # SendGrid
    _rule("eyJ", r"(?P<s>eyJ[A-Za-z0-9_\-]{10,}\.eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]*)" + _END),  # JWT
    # -----BEGIN ... PRIVATE KEY----- blocks (also JSON-escaped, also cut off before END).
    _rule("-----BEGIN", r"-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----\s*(?P<s>[\s\S]+?)\s*"
                        r"-----END \1PRIVATE KEY"
                        r"|-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----\s*"
                        r"(?P<s2>(?:[^\n-][^\n]*(?:\n|$))+)", boundary=False),
    # Headers: keep the header name and the scheme.
    _rule("authorization", r"authorization\s*:\s*(?:(?:bearer|basic|token|bot|digest|apikey|api-key|negotiate|"
                           r"ntlm|sso-key)\s+)?(?P<s>[^\s'\"\\,]{6,}(?:,[^\s'\"\\,]+)*)", nocase=True),
    _rule("cookie", r"cookie\s*:\s*(?P<s>[^\s'\"\\][^'\"\\\n]{5,})", nocase=True),
    # scheme://user:password@host -> keep user and host.
    _rule("://", r"://[^\s:/@'\"]*:(?P<s>[^\s@/'\"]+)@", boundary=False),
    _rule("/services/T", r"/services/T[A-Z0-9]+/B[A-Z0-9]+/(?P<s>[A-Za-z0-9]{20,})", boundary=False),
    # Program-specific password options.
    _rule("mysql mariadb", r"(?:mysql|mariadb)[\w\-]*\b[^\n;|&]*?\s-p"
                           r"(?:'(?P<s>[^'\n]+)'|\"(?P<s2>[^\"\n]+)\"|(?P<s3>[^\s'\"]+))"),
    _rule("sshpass", r"sshpass\s+-p\s*" + _VALUE),
    _rule("redis-cli", r"redis-cli\b[^\n;|&]*?\s-a\s*" + _VALUE),
    _rule("docker", r"docker\s+login\b[^\n;|&]*?\s-p\s*" + _VALUE),
    _rule("curl", r"curl\b[^\n;|&]*?\s(?:-u|--user)\s*['\"]?[^\s:'\"]*:(?P<s>[^\s'\"]+)"),
)

# A name that ends in a secret-ish word: DB_PASSWORD, GITHUB_TOKEN, apiKey, --api-key,
# aws_secret_access_key.  Found by literal (in the lowercased text), checked at the hit.
_KEYWORD_LITERALS = ("pass", "secret", "token", "key", "pwd", "credential")
_KEYWORD_AT = re.compile(r"(?:pass(?:word|wd|phrase)?|secret|token|key|pwd|credentials?)\d*(?![a-z0-9_\-])")
_KEY_OWNER = re.compile(r"(?:api|access|private|secret|auth)[_\-]?$")
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.")
_ASSIGN_TAIL = re.compile(
    r"(?P<q>[\"']?)(?P<op>[ \t]*(?<![=!<>])=(?!=)[ \t]*|[ \t]*:[ \t]*|[ \t]+)"
    r"(?:\"(?P<dq>[^\"\n]*)\"|'(?P<sq>[^'\n]*)'|(?P<bare>[^\s'\"`;&|<>(){}\[\],]+))")
_NETRC = re.compile(r"\blogin[ \t]+\S+[ \t]+$")  # .netrc: machine h login bob password x
_WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


class Redactor:
    """One per conversation, so the same secret always maps to the same placeholder."""

    def __init__(self, next_index: int = 1) -> None:
        self._by_value: dict[str, int] = {}
        self._by_index: dict[int, str] = {}
        self._next = max(1, int(next_index))
        self._long_values: list[str] = []  # known secrets long enough to redact anywhere
        self._lock = threading.Lock()
        self.count = 0  # secrets replaced so far (each replacement counts)

    # ------------------------------------------------------------ redact
    def redact(self, text: str) -> str:
        """Replace every secret in ``text`` by its placeholder; everything else stays."""
        if not text:
            return text
        lower = text.lower()
        if len(lower) != len(text):  # a few non-ASCII letters change length; keep offsets aligned
            lower = text.translate(_ASCII_LOWER)
        spans: list[tuple[int, int]] = []
        for literals, pattern, nocase, boundary, offset in _RULES:
            haystack = lower if nocase else text
            for literal in literals:
                i = haystack.find(literal, offset)
                while i >= 0:
                    at = i - offset
                    if not boundary or at == 0 or text[at - 1] not in _WORD_CHARS:
                        match = pattern.match(text, at)
                        if match:
                            self._collect(match, spans)
                    i = haystack.find(literal, i + 1)
        for literal in _KEYWORD_LITERALS:
            i = lower.find(literal)
            while i >= 0:
                self._assignment(text, lower, i, spans)
                i = lower.find(literal, i + 1)
        out = self._replace(text, spans)
        present = [v for v in self._long_values if v in out]
        if present:
            known = re.compile(r"(<secret:\d+>)|" + "|".join(re.escape(v) for v in present))
            out = known.sub(lambda m: m.group(0) if m.group(1) else self._placeholder(m.group(0)), out)
        return out

    def _collect(self, match: re.Match, spans: list) -> None:
        for name, value in match.groupdict().items():
            if name.startswith("s") and value:
                if self._plausible(value):
                    spans.append(match.span(name))
                return

    def _assignment(self, text: str, lower: str, i: int, spans: list) -> None:
        kw = _KEYWORD_AT.match(lower, i)
        if kw is None:
            return
        word = kw.group(0).rstrip("0123456789")
        before = lower[i - 1:i]
        if word == "pass" and before not in ("_", "-", "."):
            return
        if word == "pwd" and before not in ("_", "-"):
            return
        if word == "key" and not _KEY_OWNER.search(lower, max(0, i - 8), i):
            return
        start, end = i, kw.end()
        while start > 0 and text[start - 1] in _NAME_CHARS:
            start -= 1
        name = text[start:end]
        dashes = len(name) - len(name.lstrip("-"))
        tail = _ASSIGN_TAIL.match(text, end)
        if tail is None:
            return
        op = tail.group("op").strip()
        quoted_name = bool(tail.group("q")) and start > 0 and text[start - 1] == tail.group("q")
        if not op:  # "--token VALUE": only options take a value after a space
            netrc = name == "password" and _NETRC.search(text, max(0, start - 200), start)
            if not (dashes or netrc) or (tail.group("bare") or "").startswith("-"):
                return
        elif op == ":":
            line_start = text.rfind("\n", 0, start) + 1
            yaml_key = not text[line_start:start].strip(" \t-")
            header = "-" in name and not dashes  # X-Api-Key: ..., PRIVATE-TOKEN: ...
            if not (quoted_name or yaml_key or header or tail.group("dq") is not None
                    or tail.group("sq") is not None):
                return
        group = next(g for g in ("dq", "sq", "bare") if tail.group(g) is not None)
        value = tail.group(group)
        if group == "bare":
            after = text[tail.end(group):tail.end(group) + 1]
            if after in ("(", "[", ".") or value.lower() == name.lstrip("-").lower():
                return
            if op == ":" and value in ("|", ">", "|-", ">-"):
                return
        if self._plausible(value):
            spans.append(tail.span(group))

    @staticmethod
    def _plausible(value: str) -> bool:
        value = value.strip()
        return bool(value) and not _NOT_SECRET.match(value) and not PLACEHOLDER.search(value)

    def _replace(self, text: str, spans: list) -> str:
        if not spans:
            return text
        spans.sort()
        parts, pos = [], 0
        for start, end in spans:
            if start < pos:  # overlaps an earlier (wider or first) span
                continue
            parts.append(text[pos:start])
            parts.append(self._placeholder(text[start:end]))
            pos = end
        parts.append(text[pos:])
        return "".join(parts)

    def _placeholder(self, value: str) -> str:
        with self._lock:
            index = self._by_value.get(value)
            if index is None:
                index = self._next
                self._next += 1
                self._by_value[value] = index
                self._by_index[index] = value
                self._rebuild_known()
            self.count += 1
        return f"<secret:{index}>"

    def _rebuild_known(self) -> None:
        """Once seen, a secret (6+ chars) is redacted everywhere, even without its context."""
        self._long_values = sorted((v for v in self._by_value if len(v) >= 6), key=len, reverse=True)

    # ------------------------------------------------------------ restore
    def restore(self, text: str) -> str:
        """Put secrets back (suggested commands, displayed text); unknown placeholders stay."""
        if not text or "<" not in text:
            return text
        return PLACEHOLDER.sub(lambda m: self._by_index.get(int(m.group(1)), m.group(0)), text)

    def redact_messages(self, messages: list) -> list:
        """Copies of chat messages with ``content`` (and tool-call arguments) redacted."""
        out = []
        for message in messages:
            copy = dict(message)
            content = copy.get("content")
            if isinstance(content, str):
                copy["content"] = self.redact(content)
            elif isinstance(content, list):
                copy["content"] = [
                    {**part, "text": self.redact(part["text"])}
                    if isinstance(part, dict) and isinstance(part.get("text"), str) else part
                    for part in content]
            if copy.get("tool_calls"):
                calls = []
                for call in copy["tool_calls"]:
                    call = dict(call)
                    function = call.get("function")
                    if isinstance(function, dict) and isinstance(function.get("arguments"), str):
                        call["function"] = {**function, "arguments": self.redact(function["arguments"])}
                    calls.append(call)
                copy["tool_calls"] = calls
            out.append(copy)
        return out

    # ------------------------------------------------------------ state
    def to_dict(self) -> dict:
        """State safe to write anywhere: counters only, never a secret value."""
        return {"count": self.count, "next_index": self._next}

    @classmethod
    def from_dict(cls, data: dict) -> "Redactor":
        """A fresh redactor that keeps numbering after the old one (old placeholders stay as-is)."""
        redactor = cls(next_index=int(data.get("next_index", 1) or 1))
        redactor.count = int(data.get("count", 0) or 0)
        return redactor


class _StreamingRestorer:
    """Restores placeholders in streamed deltas; holds back only a possible placeholder start."""

    def __init__(self, redactor: Redactor) -> None:
        self._redactor = redactor
        self._held = ""

    def __call__(self, chunk: str) -> str:
        text = self._held + chunk
        self._held = ""
        cut = text.rfind("<")
        if cut >= 0 and len(text) - cut <= len(_PREFIX) + 9:
            tail = text[cut:].lower()
            if _PREFIX.startswith(tail) or (tail.startswith(_PREFIX) and tail[len(_PREFIX):].isdigit()):
                self._held = text[cut:]
                text = text[:cut]
        return self._redactor.restore(text)

    def flush(self) -> str:
        held, self._held = self._held, ""
        return self._redactor.restore(held)


def streaming_restorer(redactor: Redactor) -> Callable[[str], str]:
    """A callable for text deltas (with ``.flush()`` for the end of the stream)."""
    return _StreamingRestorer(redactor)


def mask(text: str) -> str:
    """``text`` for display: every secret shown as ``***`` (a status line, a listing).

    A fresh redactor each time, since nothing here is ever restored."""
    return PLACEHOLDER.sub("***", Redactor().redact(text))
