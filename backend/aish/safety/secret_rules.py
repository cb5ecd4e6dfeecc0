"""The digest of the redactor's rules: what decides that a piece of text is a secret.

Why: a conversation's turns are logged redacted (placeholders, never the values), and a daemon
that reads them back after a restart scanned every kept turn again, in case its rules recognise
more than those of the daemon that wrote them (an upgrade): about half of a reload's own cost
(issue 26).  Text redacted under the same rules comes back unchanged from that scan, so each
logged turn carries this digest (``chat/conversation.py``) and only a turn logged under other
rules, or by a daemon that tagged nothing, is scanned again (``app/sessions.py``).

The digest is of the sources of every aish module the redactor runs (``secrets`` and what it
imports, followed transitively) and of the Python version (its ``re``): any change of a rule, a
threshold or the algorithm changes it.  Computed once per daemon, on first use (~0.1 ms).  When a
source cannot be read (a frozen install) there is no digest: every turn is scanned, as before.
"""
from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Optional

try:  # hashlib's own blake2b, without hashlib: its import loads OpenSSL (~2 ms of a cold first ask)
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - a Python built without it
    from hashlib import blake2b

_ROOT = "aish.safety.secrets"
_digest: Optional[str] = None  # "" once computed without a result


def digest() -> Optional[str]:
    """16 hex digits naming the rules in force (None: unknown, so nothing is taken as redacted)."""
    global _digest
    if _digest is None:
        _digest = compute() or ""
    return _digest or None


def compute() -> Optional[str]:
    """The digest, read afresh from the sources."""
    digest = blake2b(f"python {sys.version_info[0]}.{sys.version_info[1]}".encode(), digest_size=8)
    for name in sorted(rule_modules()):
        source = getattr(sys.modules[name], "__file__", None)
        try:
            digest.update(f"\0{name}\0".encode() + Path(source).read_bytes())  # type: ignore[arg-type]
        except (OSError, TypeError):
            return None
    return digest.hexdigest()


def rule_modules() -> set[str]:
    """The aish modules the redactor runs: ``secrets`` and every aish module a name in it comes
    from, transitively (so a new rules module is covered as soon as the rules import it)."""
    __import__(_ROOT)
    seen: set[str] = set()
    todo = [_ROOT]
    while todo:
        name = todo.pop()
        module = sys.modules.get(name)
        if name in seen or module is None:
            continue
        seen.add(name)
        for value in vars(module).values():
            origin = value.__name__ if isinstance(value, types.ModuleType) else getattr(value, "__module__", None)
            if isinstance(origin, str) and origin.startswith("aish.") and origin not in seen:
                todo.append(origin)
    return seen
