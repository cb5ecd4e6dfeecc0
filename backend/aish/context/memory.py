"""Facts the user wants every answer to know ("I use fd, not find"), kept across sessions.

Stored as JSON in the state dir (mode 0600), one list of strings.  A fact is
redacted before it is stored: a secret typed into `? :remember` is never
written to disk nor sent (it is kept as ``***``).  The list is capped in count
and in characters, so the `[background]` block in the system message stays
small; it only changes when the user changes the facts, which keeps the
system message (and a local server's prompt cache) stable between asks.
"""
from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Callable, Optional

from aish.errors import AishError, NotFound

HEADER = "[background] facts the user asked you to keep in mind:"
_FILE = "memory.json"


class Memory:
    """The fact list on disk; every method reads the file, so several daemons/CLIs agree."""

    def __init__(self, state_dir: Path, *, max_facts: int = 50, max_chars: int = 4000,
                 mask: Optional[Callable[[str], str]] = None) -> None:
        self.path = Path(state_dir) / _FILE
        self.max_facts = max_facts
        self.max_chars = max_chars
        self._mask = mask or _default_mask
        self._lock = threading.Lock()

    # ------------------------------------------------------------ reading
    def facts(self) -> list[str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return []
        except (OSError, ValueError) as err:
            raise AishError(f"memory: cannot read {self.path}: {err}",
                            hint="fix or delete the file; 'aish memory list' shows what is kept") from None
        facts = data.get("facts") if isinstance(data, dict) else None
        return [str(f) for f in facts] if isinstance(facts, list) else []

    def render(self) -> str:
        """The `[background]` block for the system message ('' when there are no facts)."""
        facts = self.facts()
        if not facts:
            return ""
        return "\n".join([HEADER, *(f"- (fact) {fact}" for fact in facts)])

    # ------------------------------------------------------------ changing
    def add(self, fact: str) -> str:
        """Store one fact (redacted, one line); returns what was stored."""
        clean = self.clean(fact)
        with self._lock:
            facts = self.facts()
            if clean in facts:
                return clean
            self._check([*facts, clean])
            self._write([*facts, clean])
        return clean

    def forget(self, number: int) -> str:
        with self._lock:
            facts = self.facts()
            if not 1 <= number <= len(facts):
                raise NotFound(f"memory: there is no fact {number} (there are {len(facts)})",
                                hint="'aish memory list' numbers them")
            gone = facts.pop(number - 1)
            self._write(facts)
        return gone

    def replace(self, facts: list[str]) -> list[str]:
        """Replace the whole list (edit, an accepted summary); blank lines are dropped."""
        clean = [self.clean(f) for f in facts if f.strip()]
        clean = list(dict.fromkeys(clean))
        with self._lock:
            self._check(clean)
            self._write(clean)
        return clean

    def clean(self, fact: str) -> str:
        text = " ".join(fact.split())
        if text.startswith("- (fact) "):
            text = text[len("- (fact) "):]
        if not text:
            raise AishError("memory: nothing to remember", hint="? :remember I use fd, not find")
        return self._mask(text)

    def _check(self, facts: list[str]) -> None:
        if len(facts) > self.max_facts:
            raise AishError(f"memory is full ({self.max_facts} facts, memory.max_facts)",
                            hint="'aish memory forget N' or 'aish memory summarize' makes room")
        size = sum(len(f) for f in facts)
        if size > self.max_chars:
            raise AishError(f"memory is full ({size} of {self.max_chars} characters, memory.max_chars)",
                            hint="'aish memory forget N' or 'aish memory summarize' makes room")

    def _write(self, facts: list[str]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        tmp = self.path.with_name(f".{_FILE}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump({"facts": facts}, handle, indent=1)
        os.replace(tmp, self.path)


def _default_mask(text: str) -> str:
    from aish.safety.secrets import mask

    return mask(text)


def summarize_messages(facts: list[str]) -> list[dict]:
    """The request that asks a model to compress the fact list (one fact per line back)."""
    listing = "\n".join(f"- {f}" for f in facts)
    return [
        {"role": "system", "content": "You compress a user's list of remembered facts for a shell "
                                      "assistant. Merge duplicates and overlapping facts, drop nothing "
                                      "that still matters, keep each fact short. Answer with the facts "
                                      "only, one per line, each starting with '- '."},
        {"role": "user", "content": listing},
    ]


def parse_summary(text: str) -> list[str]:
    lines = [line.strip() for line in text.splitlines()]
    return [line[2:].strip() for line in lines if line.startswith("- ") and line[2:].strip()]
