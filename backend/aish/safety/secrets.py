"""Secrets never leave the machine by accident: redact before sending, restore locally.

The public interface (docs/secrets.md):

- ``Redactor``: one per conversation.  ``redact(text)`` replaces every secret by a placeholder
  ``<secret:N>``; ``redact_messages(messages)`` does it to chat messages (content, text parts,
  tool-call arguments); ``restore(text)`` puts the secrets back in a whole text and
  ``restorer()`` in a stream of chunks split anywhere (even inside a placeholder).  The same
  value keeps its number for the redactor's life, so text redacted once (a stored turn) and
  text redacted later agree.
- ``find_secrets(text)``: the spans, for callers that only need to know where secrets are.
- ``mask(text)``: every secret shown as ``***`` (status lines, listings).

What is a secret is decided by the field's knowledge of token formats (``secret_formats``:
the issuers' prefixes and shapes) and by context (``secret_context``: the value of a secret
name in any assignment syntax, headers, cookies, URLs, password options of commands).  A
value found once that is distinctive enough (``secret_values.strong``) is also replaced where
it appears later as a whole word without its context; a weak one (``postgres`` after
``POSTGRES_PASSWORD:``) only where the context shows it.

Placeholders cannot collide with text that is already there: a ``<secret:N>`` present in an
input is never issued as a new number, and if it names a number this redactor already issued
it is itself replaced (so restoring gives the text back exactly).  Only the exact spelling
issued here is restored (``<SECRET:1>`` or ``<secret:01>`` stay as they are).

Why ``<secret:N>``: a model copies it verbatim (it reads as an opaque placeholder, not as a
variable to "fix" the way ``AISH_SECRET_1`` becomes ``$AISH_SECRET_1``); it holds no quote or
backslash, so it survives JSON strings and shell quotes; left unrestored on a command line,
``<`` and ``>`` make the shell refuse the line rather than send a wrong credential.

The mapping lives in memory; ``to_dict`` holds counters only, never a secret value.
"""
from __future__ import annotations

import threading
from typing import Callable, Iterable, Optional

from aish.llm.events import Outgoing
from aish.safety import secret_context, secret_formats, secret_random
from aish.safety.lazy_regex import lazy
from aish.safety.secret_values import strong

PLACEHOLDER = lazy(r"<secret:([1-9][0-9]{0,8})>")
_PREFIX = "<secret:"
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_MAX_KNOWN = 256  # values replaced wherever they stand alone (each one costs a scan of every text)
_MAX_KNOWN_LENGTH = 512
_MAX_MEMO = 4096  # texts remembered as redacted (a long conversation's kept turns fit)
_WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


def find_secrets(text: str) -> list[tuple[int, int]]:
    """Sorted, non-overlapping ``(start, end)`` spans of the secrets in ``text``."""
    return [(start, end) for start, end, _ in _find(text)]


def _find(text: str) -> list[tuple[int, int, bool]]:
    """Spans with whether each is an issuer's format (always worth replacing everywhere).

    A placeholder already in the text (text redacted before, read back from a log) is opaque to
    the rules: they see a filler of its length, and a span within it is no secret.  Read as it is,
    its colon was a URL's password separator (``https://alice:<secret:1>@host`` scanned again gave
    ``https://alice:<secret:<secret:2>``, the host hidden)."""
    if not text:
        return []
    holes = [m.span() for m in PLACEHOLDER.finditer(text)] if _PREFIX in text else []
    if holes:
        text = _filled(text, holes)
    lower = text.lower()
    if len(lower) != len(text):  # a few non-ASCII letters change length; keep offsets aligned
        lower = text.translate(_ASCII_LOWER)
    spans = [(start, end, True) for start, end in secret_formats.scan(text)]
    spans.extend((start, end, False) for start, end in secret_context.scan(text, lower))
    spans.extend((start, end, False) for start, end in secret_random.scan(text))
    if holes:
        spans = [span for span in spans if not any(a <= span[0] and span[1] <= b for a, b in holes)]
    return _merge(spans)


def _filled(text: str, holes: list[tuple[int, int]]) -> str:
    """``text`` with each hole filled with ``x`` (no rule takes a run of one letter for a secret)."""
    parts, pos = [], 0
    for start, end in holes:
        parts.append(text[pos:start])
        parts.append("x" * (end - start))
        pos = end
    parts.append(text[pos:])
    return "".join(parts)


def _merge(spans: Iterable[tuple[int, int, bool]]) -> list[tuple[int, int, bool]]:
    merged: list[list] = []
    for start, end, known in sorted(s for s in spans if s[1] > s[0]):
        if merged and start < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
            merged[-1][2] = merged[-1][2] or known
        else:
            merged.append([start, end, known])
    return [(s, e, k) for s, e, k in merged]


class Redactor:
    """One per conversation, so the same secret always maps to the same placeholder."""

    def __init__(self, next_index: int = 1) -> None:
        self._by_value: dict[str, int] = {}
        self._by_index: dict[int, str] = {}
        self._next = max(1, int(next_index))
        self._foreign: set[int] = set()  # numbers seen in inputs that this redactor did not issue
        self._known: list[str] = []  # strong values, longest first: replaced wherever they stand alone
        self._lock = threading.Lock()
        self.count = 0  # secrets replaced so far (each replacement counts)
        # a history's texts as last redacted: (known values' generation, redacted, replacements);
        # the same string object comes back every ask, so a lookup is a pointer compare
        self._memo: dict[str, tuple[int, str, int]] = {}
        self._generation = 0  # bumped when a value joins _known: older redactions may change
        self._joined: list[str] = []  # the values that joined _known, in order (generation N: N joined)

    # ------------------------------------------------------------ redact
    def redact(self, text: str) -> str:
        """Replace every secret in ``text`` by its placeholder; everything else stays."""
        if not text:
            return text
        spans = _find(text)
        extra: list[tuple[int, int, bool]] = []
        if _PREFIX in text:
            extra.extend((start, end, False) for start, end in self._present_placeholders(text))
        for start, end, issued in spans:  # learn this text's secrets first: a second copy may stand alone
            self._learn(text[start:end], issued)
        with self._lock:
            known = [v for v in self._known if v in text]
        for value in known:
            extra.extend((start, end, True) for start, end in _standalone(text, value))
        if extra:
            spans = _merge(spans + extra)
        if not spans:
            return text
        parts, pos = [], 0
        for start, end, _ in spans:
            parts.append(text[pos:start])
            parts.append(self._placeholder(text[start:end]))
            pos = end
        parts.append(text[pos:])
        return "".join(parts)

    @property
    def generation(self) -> int:
        """Bumped whenever a value joins the known ones: a text redacted before it may hold that
        value in clear (the session log rewrites such lines, ``app/after_answer.py``)."""
        return self._generation

    def reserve(self, text: str) -> None:
        """Placeholders ``text`` already holds (a conversation rebuilt from its log by a new
        redactor) are left as they are, and new secrets are numbered after the highest of them,
        as the redactor that wrote them would have numbered them."""
        if _PREFIX not in text:
            return
        with self._lock:
            for m in PLACEHOLDER.finditer(text):
                number = int(m.group(1))
                if number not in self._by_index:
                    self._foreign.add(number)
                    self._next = max(self._next, number + 1)

    def _present_placeholders(self, text: str) -> list[tuple[int, int]]:
        """Placeholders already in the input: never issued anew; one of ours is replaced itself."""
        collide = []
        with self._lock:
            for m in PLACEHOLDER.finditer(text):
                number = int(m.group(1))
                if number in self._by_index:
                    collide.append(m.span())
                else:
                    self._foreign.add(number)
        return collide

    def _learn(self, value: str, issued: bool = False) -> int:
        """The number of ``value``, issued now if it is new (never one already in an input).
        ``issued``: an issuer's format, replaced wherever it stands alone from now on."""
        with self._lock:
            index = self._by_value.get(value)
            if index is None:
                while self._next in self._foreign:
                    self._next += 1
                index = self._next
                self._next += 1
                self._by_value[value] = index
                self._by_index[index] = value
                if (issued or strong(value)) and len(value) <= _MAX_KNOWN_LENGTH and not PLACEHOLDER.fullmatch(value):
                    self._known.append(value)
                    self._joined.append(value)
                    self._generation += 1
                    if len(self._known) > _MAX_KNOWN:
                        self._known.remove(min(self._known, key=self._by_value.__getitem__))  # the oldest
                    self._known.sort(key=len, reverse=True)
            return index

    def _placeholder(self, value: str) -> str:
        index = self._learn(value)
        with self._lock:
            self.count += 1
        return f"<secret:{index}>"

    def redact_once(self, text: str) -> str:
        """``redact(text)`` for a text that comes back (a conversation's turns, sent again on
        every ask): scanned once, then remembered while no value that joined the known ones
        since stands in it (only such a value changes what a scan gives: the rules see the
        same text; at 400 kept turns a new value had every turn scanned again).  The count
        grows as if it were redacted again."""
        memo = self._memo.get(text)
        if memo is not None and memo[0] != self._generation and \
                not any(value in text for value in self._joined[memo[0]:]):
            memo = self._memo[text] = (self._generation, memo[1], memo[2])
        if memo is not None and memo[0] == self._generation:
            if memo[2]:
                with self._lock:
                    self.count += memo[2]
            return memo[1]
        before = self.count
        redacted = self.redact(text)  # what it learned itself was consulted: current as of now
        if len(self._memo) >= _MAX_MEMO:
            del self._memo[next(iter(self._memo))]  # the oldest: folded turns go first
        self._memo[text] = (self._generation, redacted, self.count - before)
        return redacted

    def rules(self) -> Optional[str]:
        """The digest of the rules this redactor applies (``secret_rules``), to tag what it
        redacted: a daemon with the same rules takes such text as redacted (``take_as_redacted``)."""
        from aish.safety import secret_rules

        return secret_rules.digest()

    def take_as_redacted(self, text: str) -> None:
        """``text`` is what a redactor with these rules made of it (a turn logged redacted, read
        back after a restart): remembered as its own redaction by a redactor that knew no value,
        so it is not scanned again unless a known value stands in it (``redact_once``)."""
        if not text:
            return
        with self._lock:
            if len(self._memo) >= _MAX_MEMO:
                del self._memo[next(iter(self._memo))]
            self._memo.setdefault(text, (0, text, 0))

    def redact_messages(self, messages: list) -> list:
        """Copies of chat messages with ``content`` (and tool-call arguments) redacted, each
        text scanned once across calls (``redact_once``).  A conversation's messages that grew
        from the last ones redacted (``Outgoing``) reuse that redacted list and redact only
        the new messages: the same result while no new value joined the known ones (then
        everything is redacted again, as an older text may hold the new value)."""
        if not isinstance(messages, Outgoing):
            return [self._redact_message(m) for m in messages]
        generation = self._generation
        base = messages.grown()
        kept = base.memo.get("redacted") if base is not None else None
        if kept is not None and kept[0] == generation:
            _, previous, replaced = kept
            out = Outgoing([self._redact_message(messages[0])], previous)
            out.extend(previous[1:])
            previous.base = None  # one level is all a step reuses
            if replaced:
                with self._lock:
                    self.count += replaced  # as if redacted again (``redact_once``)
            tail = messages.new
        else:
            out, replaced = Outgoing([self._redact_message(messages[0])]), 0
            tail = messages[1:]
        before = self.count
        out.extend(self._redact_message(m) for m in tail)
        messages.memo["redacted"] = (generation, out, replaced + self.count - before)
        return out

    def _redact_message(self, message: dict) -> dict:
        copy = dict(message)
        content = copy.get("content")
        if isinstance(content, str):
            copy["content"] = self.redact_once(content)
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
        return copy

    # ------------------------------------------------------------ restore
    def restore(self, text: str) -> str:
        """Put secrets back (suggested commands, displayed text); other placeholders stay."""
        if not text or _PREFIX not in text:
            return text
        return PLACEHOLDER.sub(lambda m: self._by_index.get(int(m.group(1)), m.group(0)), text)

    def restorer(self) -> "Restorer":
        """A restorer for a stream of chunks (``restorer(chunk)`` ..., then ``.flush()``)."""
        return Restorer(self)

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


def _standalone(text: str, value: str) -> Iterable[tuple[int, int]]:
    """Occurrences of ``value`` that are whole words (never a piece of a longer word)."""
    i = text.find(value)
    while i >= 0:
        end = i + len(value)
        if (i == 0 or text[i - 1] not in _WORD or value[0] not in _WORD) and \
                (end == len(text) or text[end] not in _WORD or value[-1] not in _WORD):
            yield i, end
        i = text.find(value, i + 1)


class Restorer:
    """Restores placeholders in streamed text; holds back only a tail that may start one."""

    def __init__(self, redactor: Redactor) -> None:
        self._redactor = redactor
        self._held = ""

    def __call__(self, chunk: str) -> str:
        text = self._held + chunk
        self._held = ""
        cut = text.rfind("<")
        if cut >= 0 and len(text) - cut <= len(_PREFIX) + 9:
            tail = text[cut:]
            if _PREFIX.startswith(tail) or (tail.startswith(_PREFIX) and tail[len(_PREFIX):].isdigit()):
                self._held = tail
                text = text[:cut]
        return self._redactor.restore(text)

    def flush(self) -> str:
        held, self._held = self._held, ""
        return self._redactor.restore(held)


def streaming_restorer(redactor: Redactor) -> Callable[[str], str]:
    """``redactor.restorer()`` (kept for callers written before it)."""
    return redactor.restorer()


def mask(text: str) -> str:
    """``text`` for display: every secret shown as ``***`` (nothing is ever restored)."""
    parts, pos = [], 0
    for start, end in find_secrets(text):
        parts.append(text[pos:start])
        parts.append("***")
        pos = end
    parts.append(text[pos:])
    return "".join(parts)
