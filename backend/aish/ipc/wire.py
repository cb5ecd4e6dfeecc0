"""The protocol's lines as text (docs/protocol.md): escaping, request text, frames, control lines.

Plain functions over strings, apart from ``protocol.py`` (the typed ``Request`` the daemon
parses into): ``aish ask`` and the other verbs that only talk to the daemon encode and decode
with this module alone, and a dataclass costs their whole process a tenth of its time in
imports (``dataclasses`` brings ``inspect``).  The shells implement the same rules in zsh
and bash, so everything stays line-based and trivially escapable.
"""
from __future__ import annotations

import re

from aish.errors import ProtocolError

VERSION = "1"
MAX_CONTROL = 200  # bytes per control line: far below PIPE_BUF, so writes are atomic
_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
# C0 and C1 controls except newline and tab: model output must never drive the terminal.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_ESCAPES = {"%": "%25", "\n": "%0A", "\t": "%09", "\r": "%0D"}
_ESCAPE_RE = re.compile(r"[%\n\t\r]")
_UNESCAPES = {"%25": "%", "%0A": "\n", "%09": "\t", "%0D": "\r"}
_UNESCAPE_RE = re.compile(r"%(?:25|0A|09|0D)")
STR_KEYS = ("kind", "reply", "conv", "shell", "mode", "text", "buffer", "cwd", "stdin")
KNOWN_KEYS = frozenset(STR_KEYS + ("v", "cursor", "cols", "status", "interactive", "hist", "argv", "var", "vars"))
_KEY = re.compile(r"[A-Za-z0-9_.-]{1,64}")
# Variable names that look like they hold a secret: their values never leave the shell.
# The one list: the CLI's environment is filtered with it, and a V frame carries it to the
# shells (``KEY|TOKEN|...``), which match it against each name, upper-cased.
SECRET_NAME_WORDS = ("KEY", "TOKEN", "SECRET", "PASS", "CRED", "AUTH", "COOKIE", "SESSION",
                     "PRIVATE", "SIGNATURE")
_SECRET_NAME = re.compile("|".join(SECRET_NAME_WORDS), re.IGNORECASE)


def escape(s: str) -> str:
    """Make ``s`` hold no raw newline, tab or carriage return (``%`` first, so it reverses)."""
    return _ESCAPE_RE.sub(lambda m: _ESCAPES[m.group()], s)


def unescape(s: str) -> str:
    """Single pass, so ``%250A`` decodes to ``%0A`` and not to a newline."""
    return _UNESCAPE_RE.sub(lambda m: _UNESCAPES[m.group()], s)


def strip_controls(s: str) -> str:
    return _CONTROL.sub("", s)


def valid_id(value: str) -> bool:
    return bool(value) and _ID.fullmatch(value) is not None


# ------------------------------------------------------------------ request files
def request_text(fields: dict) -> str:
    """A ``<id>.req`` payload from a request's fields (``protocol.Request``'s names; a missing
    one is empty, zero or off).  ``hist`` entries have ``command``, ``exit``, ``duration_ms``."""
    get = fields.get
    lines = [f"v={VERSION}"]
    lines += [f"{key}={escape(get(key, ''))}" for key in STR_KEYS]
    lines.append(f"cursor={get('cursor', 0)}")
    lines.append(f"cols={get('cols', 80)}")
    if get("status") is not None:
        lines.append(f"status={get('status')}")
    lines.append(f"interactive={'1' if get('interactive') else '0'}")
    for entry in get("history") or ():
        exit_ = "" if entry.exit is None else entry.exit
        dur = "" if entry.duration_ms is None else entry.duration_ms
        lines.append("hist=" + escape(f"{exit_}\t{dur}\t{entry.command}"))
    lines += [f"argv={escape(word)}" for word in get("argv") or ()]
    lines += [f"var={escape(name if value is None else f'{name}={value}')}"
              for name, value in (get("env") or {}).items()]
    if get("env_complete"):
        lines.append("vars=all")
    elif get("vars_on_request"):
        lines.append("vars=ask")
    lines += [f"{key}={escape(str(value))}" for key, value in (get("extra") or {}).items()
              if _KEY.fullmatch(key) and key not in KNOWN_KEYS]
    return "\n".join(lines) + "\n"


def env_from(environ: dict, limit: int = 4096) -> dict:
    """``var`` entries for a request: secret-looking names withheld (None), long values left out.

    The values only expand the safety preview on the user's machine; a name that looks
    secret still tells the preview "set", without the value ever being written.
    """
    out: dict = {}
    for name, value in environ.items():
        if _SECRET_NAME.search(name):
            out[name] = None
        elif len(value) <= limit:
            out[name] = value
    return out


# ------------------------------------------------------------------ frames
class Frame:
    """One frame: the request id, the tag, the unescaped fields."""

    __slots__ = ("id", "tag", "fields")

    def __init__(self, id: str, tag: str, fields: list) -> None:  # noqa: A002 - the protocol's name
        self.id, self.tag, self.fields = id, tag, fields

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Frame) and (self.id, self.tag, self.fields) == (other.id, other.tag, other.fields)

    def __repr__(self) -> str:
        return f"Frame(id={self.id!r}, tag={self.tag!r}, fields={self.fields!r})"


def encode_frame(req_id: str, tag: str, *fields: str) -> bytes:
    """One frame line.  Every field but the D frame's JSON loses terminal
    controls: the shells print T/S/W/E/C/Q fields verbatim."""
    if tag != "D":
        fields = tuple(strip_controls(f) for f in fields)
    return ("\t".join([req_id, tag, *(escape(f) for f in fields)]) + "\n").encode("utf-8")


def parse_frame(line: str) -> Frame:
    parts = line.rstrip("\n").split("\t")
    if len(parts) < 2 or not parts[1]:
        raise ProtocolError(f"malformed frame from the daemon: {line[:40]!r}",
                            hint="the daemon and the client differ: aish daemon stop")
    return Frame(parts[0], parts[1], [unescape(p) for p in parts[2:]])


# ------------------------------------------------------------------ control lines
_TMUX_PANE = re.compile(r"%\d{1,9}")
_TMUX_SOCKET = re.compile(r"/[^\x00-\x20%]{1,180}")
_COUNT = re.compile(r"[0-9]{1,9}")


def parse_control(line: str) -> tuple | None:
    """``("req", [id])``, ``("cancel", [id])``, ``("answer", [id, qid, ans])``,
    ``("retire", [pid])``, ``("watch", [pane, socket])`` (``[pane, socket, marks]`` with the
    count in the shell's last D mark) or None.  An answer is y, n, a
    or s (show the whole call) to a Q frame, v (written) or n to a V frame."""
    if len(line) > MAX_CONTROL:
        return None
    words = line.strip().split(" ")
    if len(words) in (3, 4) and words[0] == "watch" and _TMUX_PANE.fullmatch(words[1]) \
            and _TMUX_SOCKET.fullmatch(words[2]) and (len(words) == 3 or _COUNT.fullmatch(words[3])):
        return "watch", words[1:]
    if len(words) == 2 and words[0] in ("req", "cancel", "retire") and valid_id(words[1]):
        return words[0], [words[1]]
    if len(words) == 4 and words[0] == "answer" and valid_id(words[1]) and valid_id(words[2]) \
            and words[3] in ("y", "n", "a", "s", "v"):
        return "answer", words[1:]
    return None


def format_control(verb: str, *args: str) -> bytes:
    line = " ".join((verb, *args)) + "\n"
    if len(line) > MAX_CONTROL or parse_control(line) is None:
        raise ProtocolError(f"control line would be malformed: {line[:40]!r}")
    return line.encode("ascii")
