"""Token counts for budgeting and estimates: the model's own tokenizer when its server has
one (asked through ``llm/tokenizer.py``, which finds the route and backs off from a server
that is down), the char/4 heuristic otherwise.

Why a per-text cache: the budget is re-checked before every ask over the whole
conversation; keyed by a hash of (endpoint, model, text), an ask sends only the
text that is new.  Counting never raises and never waits more than the
tokenize timeout (2 s): a slow or failing tokenizer falls back to char/4 and is
left alone for a while.  By default (``tokenize.use_endpoint`` unset) only local
servers are asked, whose counts the context window depends on; ``false`` means no
network at all, ``true`` asks clouds too.

Why a question is weighed by a bound (``defer``) until a decision needs its count: its count is
the one a request needs before it goes out, and asking the tokenizer then put a whole round
trip to the same server in front of every first byte; asking after the answer was a second
request to the server on every ask (13% of the daemon's work at 50 shells at once).
``upper_bound`` bounds its count from above in any llama.cpp tokenizer: far from the limits
that decides as the count would, so a question is counted (``settle``) only where the bound
would decide otherwise (near the budget or the window, a price, the fold, a context-length
error) or where an exact figure is wanted (a sample of the calibration, usage the server did
not report).  Any number of texts may be weighed by their bounds at once, in any request:
``weigh`` says whether a sum holds one.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Iterable, Optional

try:  # hashlib's own blake2b, without hashlib: its import loads OpenSSL (~2 ms of a cold first ask)
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - an interpreter built without it
    from hashlib import blake2b

from aish.config.schema import TokenizeConfig
from aish.llm import token_file
from aish.llm.events import Outgoing
from aish.llm.tokenizer import Tokenizers

CACHE_SIZE = 8192  # texts; a long conversation is a few hundred
# texts weighed by their bounds at once (the questions of the conversations in use); past it the
# oldest is counted when next weighed, as a text never seen
DEFERRED_MAX = 1024


def upper_bound(text: str) -> int:
    """At least the tokens of ``text`` in the tokenizers the tokenize routes serve (llama.cpp's).

    The worst case is a sentencepiece vocabulary that falls back to bytes: every byte one token,
    every space written as "▁" (3 bytes) and one more "▁" in front, then <s> (and </s>): a
    byte-only vocabulary on llama-cpp-python's server counts "free port 8080" as 22, not 14.
    A byte-level BPE (every token at least one byte) stays under it too."""
    return len(text.encode("utf-8", "surrogatepass")) + 2 * text.count(" ") + 5


def _digest(key: tuple, text: str) -> bytes:
    """The cache's key for ``text`` on one tokenizer: no text is kept, in memory or on disk."""
    return blake2b("\0".join((*key, text)).encode("utf-8", "replace"), digest_size=16).digest()


def heuristic(text: str) -> int:
    """A quarter of the UTF-8 byte length, rounded down: the estimate when no tokenizer answers."""
    if not text:
        return 0
    return len(text.encode("utf-8", "replace")) // 4


class TokenCounter:
    def __init__(self, cfg: Optional[TokenizeConfig] = None) -> None:
        self.cfg = cfg or TokenizeConfig()
        self.tokenizers = Tokenizers(self.cfg)  # the servers' own, over HTTP
        self._lock = threading.Lock()
        self._cache: OrderedDict[bytes, int] = OrderedDict()
        # the same text objects come back every ask (a conversation's turns, the system prompt):
        # a str caches its hash, so this is found without hashing the text again (the digest
        # cache below costs a pass over every kept turn per ask)
        self._recent: dict[tuple, int] = {}
        # texts weighed by their upper bound until ``settle`` counts them: (key, text) -> bound,
        # the oldest first
        self._deferred: dict[tuple, int] = {}
        # moves whenever a text leaves ``_deferred``: a kept sum that held a bound is good while
        # it has not moved (``weigh``)
        self._generation = 0
        # (key, text) being settled as a request sent it to that very server: not redacted again
        self._as_sent: set[tuple] = set()

    @property
    def calls(self) -> int:
        """HTTP tokenize requests made (probes included)."""
        return self.tokenizers.calls

    # ------------------------------------------------------------ public
    def count(self, model_cfg: Any, text: str) -> int:
        """Tokens in ``text`` for ``model_cfg``; never raises."""
        if not text:
            return 0
        try:
            return self._count(model_cfg, text)
        except Exception:  # a counter must never break an ask
            return heuristic(text)

    def count_messages(self, model_cfg: Any, messages: list) -> int:
        """Sum over message contents (and tool-call arguments), counted the same way as an answer."""
        return self.weigh(model_cfg, messages)[0]

    def weigh(self, model_cfg: Any, messages: list) -> tuple[int, bool]:
        """``count_messages``, and whether the sum holds a text weighed by its bound (``defer``).
        A whole conversation is weighed on every ask: texts counted before are looked up by
        the string itself, with the endpoint's key taken once; a conversation's messages that
        grew from the last ones weighed (``Outgoing``) add only the new messages to that sum,
        bounds and all, while none of the bounds in it has been settled since."""
        key = self._key(model_cfg)
        if not isinstance(messages, Outgoing) or not messages:
            return self._sum(model_cfg, key, messages or [])
        generation = self._generation  # (read first: a settle while summing makes the sum stale)
        base = messages.grown()
        kept = base.memo.get(("tokens", key)) if base is not None else None
        if kept is not None and kept[1] and kept[2] != generation:
            kept = None  # a bound it held may be a count now
        summed = messages.new if kept is not None else messages[1:]
        n, bounded = self._sum(model_cfg, key, summed)
        body = n + (kept[0] if kept is not None else 0)
        bounded = bounded or (kept is not None and kept[1])
        if self._settled(key):  # (char/4 stood in for a tokenizer that is down: counted again)
            messages.memo[("tokens", key)] = (body, bounded, generation)
        head, head_bounded = self._sum(model_cfg, key, messages[:1])
        return head + body, bounded or head_bounded

    def _settled(self, key: Optional[tuple]) -> bool:
        """Would every count for ``key`` come out the same again (no tokenizer down for now)?"""
        return key is None or self.tokenizers.settled(key)

    def _sum(self, model_cfg: Any, key: Optional[tuple], messages: list) -> tuple[int, bool]:
        """The messages' tokens, and whether a bound stood in for a count."""
        recent, deferred = self._recent, self._deferred
        total, bounded = 0, False
        for message in messages:
            if not isinstance(message, dict):
                continue
            content = message.get("content")
            if isinstance(content, str) and not message.get("tool_calls"):
                texts: list = [content] if content else []
            else:
                texts = _message_texts(message)
            for text in texts:
                known = recent.get((key, text)) if key is not None else None
                if known is None:
                    bounded = bounded or (key is not None and (key, text) in deferred)
                    known = self.count(model_cfg, text)
                total += known
        return total, bounded

    def defer(self, model_cfg: Any, text: str) -> bool:
        """Weigh ``text`` by ``upper_bound`` until ``settle`` (True), when its count would take a
        request now; False when it costs nothing (known, or never asked) or the tokenizer is not
        found yet (the first count finds it)."""
        key = self._key(model_cfg)
        if key is None or not text or (key, text) in self._recent:
            return False
        digest = _digest(key, text)
        with self._lock:
            if digest in self._cache or not self.tokenizers.ready(key):
                return False
            self._deferred[(key, text)] = upper_bound(text)
            if len(self._deferred) > DEFERRED_MAX:  # the oldest is counted when next weighed
                del self._deferred[next(iter(self._deferred))]
                self._generation += 1
        return True

    def deferred(self, model_cfg: Any, text: str) -> bool:
        """Is ``text`` weighed by its bound now?"""
        key = self._key(model_cfg)
        return key is not None and (key, text) in self._deferred

    def settle(self, model_cfg: Any, texts: Iterable, *, count: bool = True, sent: bool = False) -> int:
        """Count those of ``texts`` weighed by a bound (``count=False``: forget them instead, to be
        counted when next weighed: the question of an ask that failed); how many there were.
        ``sent``: the texts of a request to this model's server, as it went out (redacted): not
        scanned again."""
        key = self._key(model_cfg)
        if key is None or not self._deferred:
            return 0
        found = 0
        for text in texts:
            if not isinstance(text, str):
                continue
            with self._lock:
                deferred = self._deferred.pop((key, text), None)
                if deferred is not None:
                    self._generation += 1
            if deferred is None:
                continue
            found += 1
            if not count:
                continue
            if sent:
                self._as_sent.add((key, text))
            try:
                self.count(model_cfg, text)
            finally:
                self._as_sent.discard((key, text))
        return found

    def learn(self, model_cfg: Any, text: str, n: int) -> None:
        """``n`` tokens in ``text``, as its server told (an answer's ``completion_tokens``): the
        server's own tokenizer counted it while generating, so it is not asked again."""
        key = self._key(model_cfg)
        if key is None or not text or n <= 0:
            return
        digest = _digest(key, text)
        with self._lock:
            if digest not in self._cache:
                self._keep(digest, n)
            self._remember(key, text, self._cache[digest])

    # ------------------------------------------------------------ kept over restarts
    def save(self, path: Any) -> None:
        """Write the learned counts (``token_file``): a restarted daemon weighs a long
        conversation without one tokenize call per kept turn.  Never raises."""
        with self._lock:
            counts = list(self._cache.items())
        token_file.write(path, counts)

    def load(self, path: Any) -> None:
        """Take the counts a previous daemon saved (a missing or torn file: none).  Never raises."""
        counts = token_file.read(path, CACHE_SIZE)
        with self._lock:
            for digest, n in counts:
                self._cache.setdefault(digest, n)

    def supported(self, model_cfg: Any) -> Optional[bool]:
        """True: real counts; False: char/4 for good (or disabled); None: not probed yet."""
        key = self._key(model_cfg)
        return False if key is None else self.tokenizers.supported(key)

    # ------------------------------------------------------------ internals
    def _key(self, model_cfg: Any) -> Optional[tuple[str, str]]:
        if model_cfg is None or not getattr(model_cfg, "endpoint", ""):
            return None
        use = self.cfg.use_endpoint
        if use is None:  # by default a local server's own tokenizer, never a cloud's
            use = bool(getattr(model_cfg, "is_local", False))
        if not use:
            return None
        return (model_cfg.endpoint.rstrip("/"), getattr(model_cfg, "model", "") or "")

    def _count(self, model_cfg: Any, text: str) -> int:
        key = self._key(model_cfg)
        if key is None:
            return heuristic(text)
        recent = self._recent.get((key, text))
        if recent is not None:
            return recent
        if self._deferred:
            bound = self._deferred.get((key, text))
            if bound is not None:
                return bound
        digest = _digest(key, text)
        with self._lock:
            cached = self._cache.get(digest)
            if cached is not None:
                self._cache.move_to_end(digest)
                self._remember(key, text, cached)
                return cached
        n = self.tokenizers.count(key, model_cfg, text, redact=not (self._as_sent and (key, text) in self._as_sent))
        if n is None:
            return heuristic(text)
        with self._lock:
            self._keep(digest, n)
            self._remember(key, text, n)
        return n

    def _keep(self, digest: bytes, n: int) -> None:
        """Cache a count, the oldest going past ``CACHE_SIZE`` (the caller holds the lock)."""
        self._cache[digest] = n
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    def _remember(self, key: tuple, text: str, n: int) -> None:
        if len(self._recent) >= CACHE_SIZE:
            del self._recent[next(iter(self._recent))]  # the oldest
        self._recent[(key, text)] = n


def _message_texts(message: dict) -> list[str]:
    texts: list[str] = []
    content = message.get("content")
    if isinstance(content, str):
        texts.append(content)
    elif isinstance(content, list):  # content parts: count the text ones
        texts.extend(p.get("text") or "" for p in content if isinstance(p, dict))
    for call in message.get("tool_calls") or []:
        function = call.get("function") if isinstance(call, dict) else None
        if isinstance(function, dict):
            texts.append(f"{function.get('name') or ''} {function.get('arguments') or ''}")
    return [t for t in texts if t]
