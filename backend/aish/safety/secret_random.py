"""A generated credential after any name: ``mixpanel: M0UXRQ2DBF5rEJ1qlJTgJvwGqUJ7D8TQ``.

Most of the long tail of services issue keys with no prefix, and people store them under the
service's name (``MIXPANEL=…``, ``"invoiceocean": "…"``, ``liveagent '…'``) rather than a
secret word.  Such a value is taken for a secret by its shape alone, when all of this holds:

- it stands where a value stands: right after a name and ``=``, ``:``, a quote or a space;
- the name is not one of an identifier, a hash or a version (``id``, ``uuid``, ``sha256``,
  ``digest``, ``checksum``, ``integrity``, ``etag``, ``fingerprint``, ``version``, ``commit``
  ...: those values look random and are not secret);
- the value looks generated (``secret_values.looks_random`` with a higher bar: 20+
  characters, several classes, no pronounceable words) and is not a hex digest, a UUID, a
  base64 public key blob (``AAAA…``) or a hash algorithm's output (``sha512-…``).

Candidates are runs of token characters found by one character-class regex; only runs of 20+
characters are looked at, and each costs a bounded look behind it.
"""
from __future__ import annotations

import base64
import binascii
import re
from functools import lru_cache
from typing import Iterator

from aish.safety import secret_names as names
from aish.safety.lazy_regex import lazy
from aish.safety.secret_values import entropy, looks_random, shape_of, switches

Span = tuple[int, int]

_CANDIDATE = lazy(r"[A-Za-z0-9+/_\-.~]{20,512}={0,2}")
_VALUE_POSITION = lazy(
    r"(?P<name>[A-Za-z][\w.\-]{2,40})[\"'\]]?[ \t]*(?:=|:|=>|[ \t]-(?=[ \t])|(?<=[ \t]))[ \t]*[\"'`]?$")
_NOT_SECRET_NAMES = frozenset("""id ids uid uuid guid sid oid pid nid kid sha sha1 sha224 sha256 sha384 sha512 md5
    blake2b blake2s b2 crc crc32 hash hashes digest digests checksum checksums sum sums integrity etag etags
    fingerprint fingerprints thumbprint version versions revision rev ref refs commit commits tree blob parent
    tag tags build nonce request trace span correlation cursor page offset marker continuation next image
    key_id node type name names title label path file url uri host hostname domain email user username
    region zone cluster namespace arn resource http https ftp git ssh file data""".split())
_HASH_PREFIX = lazy(r"^(?:sha\d{1,3}|md5|sha)[-:]", re.IGNORECASE)
_UUID = lazy(r"^[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$")
_VALUE_STARTS = frozenset(" \t\"'`=:>")
_NOT_HEXISH = lazy(r"[^0-9a-fA-F\-_.]")
_BASE64 = lazy(r"^[A-Za-z0-9+/]+={0,2}$")


def scan(text: str) -> Iterator[Span]:
    """Spans of generated-looking values that stand after a name."""
    for m in _CANDIDATE.finditer(text):
        value = m.group(0).rstrip(".")
        start, end = m.start(), m.start() + len(value)
        if start and text[start - 1] not in _VALUE_STARTS or value.startswith("//"):
            continue  # inside a longer word, a URL or a path
        line_start = text.rfind("\n", max(0, start - 64), start) + 1
        before = _VALUE_POSITION.search(text, max(line_start, start - 64), start)
        if before is None or not _names_a_secret(before.group("name")) or not _generated(value):
            continue
        yield start, end


_PLAIN: set[str] = set()  # values judged not generated lately: a shell's cwd, a repository's path
_PLAIN_KEPT = 4096


def _generated(value: str) -> bool:
    """``_looks_generated(value)``, skipped for a value judged not generated lately (the same
    paths stand in every ask's shell context: most of this scan's time was judging them again).
    Only values this judgement let pass are kept, in the daemon's memory alone, as the
    conversations' own text is (another rule may still find one of them a secret)."""
    if value in _PLAIN:
        return False
    if _looks_generated(value):
        return True
    if len(_PLAIN) >= _PLAIN_KEPT:
        _PLAIN.clear()
    _PLAIN.add(value)
    return False


def _looks_generated(value: str) -> bool:
    if value.startswith("AAAA") or _HASH_PREFIX.match(value) or _UUID.match(value):
        return False  # an SSH/DER public key blob, an integrity hash, an identifier
    if len(_NOT_HEXISH.findall(value)) <= 0.1 * len(value):
        return False  # a digest or an id printed in hex
    if _decodes_to_text(value):
        return False  # base64 of ordinary text (echo aGVsbG8... | base64 -d)
    if not looks_random(value, 20) or entropy(value) < 3.5:
        return False
    shape = shape_of(value)
    alnum = shape.count("a") + shape.count("A") + shape.count("0")
    if shape.count("0") < 2 or switches(shape) < 0.35 * alnum:
        return False  # names in code: SubprocessStreamProtocol, utf8Decoder (few switches, few digits)
    return True


def _decodes_to_text(value: str) -> bool:
    if len(value) % 4 or not _BASE64.match(value):
        return False
    try:
        raw = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return False
    return bool(raw) and all(32 <= b < 127 or b in (9, 10, 13) for b in raw)


@lru_cache(maxsize=4096)
def _names_a_secret(name: str) -> bool:
    """Not a name that says the value is an id, a hash or a version (or a secret word, which
    the context rules judge with the name's own strength)."""
    ws = names.words(name)
    if not ws or any(w in _NOT_SECRET_NAMES for w in ws) or name.lower().startswith(("ssh-", "ecdsa-")):
        return False
    return len(name) >= 3
