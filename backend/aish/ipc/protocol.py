"""Request and frame encoding shared by the daemon and the Python client.

docs/protocol.md is the contract; the shells implement the same rules in zsh
and bash, so everything here stays line-based and trivially escapable.  This
module imports nothing heavy: it is on the daemon's cold-start path.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

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
_STR_KEYS = ("kind", "reply", "conv", "shell", "mode", "text", "buffer", "cwd", "stdin")
_PATH_KEYS = ("reply", "cwd")
_KNOWN_KEYS = frozenset(_STR_KEYS + ("v", "cursor", "cols", "status", "interactive", "hist", "argv", "var", "vars"))
_VAR_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")
_MAX_VARS = 2000
_KEY = re.compile(r"[A-Za-z0-9_.-]{1,64}")
# ask: a question or a buffer; verb: `? :cost`, `aish route on`...; prepare: a command failed,
# draft its fix in the background (docs/protocol.md)
KINDS = ("ask", "verb", "prepare")


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


@dataclass
class HistoryEntry:
    command: str
    exit: Optional[int] = None
    duration_ms: Optional[int] = None


@dataclass
class Request:
    id: str = ""
    kind: str = "ask"
    reply: str = ""
    conv: str = "cli"
    shell: str = "cli"
    mode: str = "question"
    text: str = ""
    buffer: str = ""
    cursor: int = 0
    cwd: str = ""
    status: Optional[int] = None
    history: list = field(default_factory=list)  # list[HistoryEntry], oldest first
    argv: list = field(default_factory=list)  # list[str]
    stdin: str = ""
    interactive: bool = False
    cols: int = 80
    env: dict = field(default_factory=dict)  # the shell's variables: name -> value, None if withheld
    env_complete: bool = False  # `vars=all`: every set variable is listed (a missing one is unset)
    vars_on_request: bool = False  # `vars=ask`: the shell sends its variables when asked (V frame)
    extra: dict = field(default_factory=dict)  # unknown keys, kept for newer shells


def _int(value: str) -> Optional[int]:
    try:
        return int(value.strip())
    except ValueError:
        return None


def history_entry(value: str) -> HistoryEntry:
    """One ``hist`` value: ``<exit>`` TAB ``<duration ms>`` TAB ``<command>`` (a bare command
    is still useful context)."""
    parts = value.split("\t", 2)
    if len(parts) == 3:
        return HistoryEntry(parts[2], _int(parts[0]), _int(parts[1]))
    return HistoryEntry(value)


def parse_request(text: str, id: str) -> Request:
    """Parse a ``<id>.req`` payload; the version is checked first so an old
    daemon tells the user to restart it instead of misreading new keys."""
    lines = [line for line in text.split("\n") if line]
    if not lines:
        raise ProtocolError(f"request {id} is empty")
    first, _, raw_version = lines[0].partition("=")
    version = unescape(raw_version) if first == "v" else None
    if version != VERSION:
        raise ProtocolError(
            f"request {id} speaks protocol version {version or 'none'}, this daemon speaks {VERSION}",
            hint="restart the daemon after an upgrade: aish daemon stop")
    req = Request(id=id, kind="")
    for line in lines[1:]:
        key, sep, raw = line.partition("=")
        if not sep or not key:
            raise ProtocolError(f"request {id}: line without key=value: {line[:40]!r}")
        value = unescape(raw)
        if key == "hist":
            req.history.append(history_entry(value))
        elif key == "argv":
            req.argv.append(value)
        elif key == "var":
            add_var(req.env, value)
        elif key == "vars":
            req.env_complete = value.strip() == "all"
            req.vars_on_request = value.strip() == "ask"
        elif key in ("cursor", "cols"):
            number = _int(value)
            if number is not None and number >= 0:
                setattr(req, key, number)
        elif key == "status":
            req.status = _int(value)
        elif key == "interactive":
            req.interactive = value.strip() == "1"
        elif key in _STR_KEYS:
            setattr(req, key, value)
        elif key != "v":
            req.extra[key] = value
    for key in _PATH_KEYS:  # the OS cannot take a path with a NUL (ValueError deep inside)
        if "\x00" in getattr(req, key):
            raise ProtocolError(f"request {id}: {key} holds a NUL byte",
                                hint="the shell integration and the daemon differ: aish daemon stop")
    if req.kind == "ask" and req.mode == "prepare":  # how shells of 0.1 asked for a fix draft
        req.kind = "prepare"
    if req.kind not in KINDS:
        raise ProtocolError(f"request {id}: unknown kind {req.kind or '(missing)'!r}",
                            hint="the shell integration and the daemon differ: aish daemon stop")
    return req


def add_var(env: dict, value: str) -> None:
    """One ``var`` entry into ``env``: NAME=value, or a bare NAME (set, value withheld)."""
    name, eq, val = value.partition("=")
    if _VAR_NAME.fullmatch(name) and len(env) < _MAX_VARS:
        env[name] = val if eq else None


def parse_vars(text: str) -> dict:
    """A shell's answer to a V frame: escaped ``var=`` lines, as in a request."""
    env: dict = {}
    for line in text.split("\n"):
        key, sep, raw = line.partition("=")
        if sep and key == "var":
            add_var(env, unescape(raw))
    return env


def format_request(req: Request) -> str:
    lines = [f"v={VERSION}"]
    lines += [f"{key}={escape(getattr(req, key))}" for key in _STR_KEYS]
    lines.append(f"cursor={req.cursor}")
    lines.append(f"cols={req.cols}")
    if req.status is not None:
        lines.append(f"status={req.status}")
    lines.append(f"interactive={'1' if req.interactive else '0'}")
    for entry in req.history:
        exit_ = "" if entry.exit is None else entry.exit
        dur = "" if entry.duration_ms is None else entry.duration_ms
        lines.append("hist=" + escape(f"{exit_}\t{dur}\t{entry.command}"))
    lines += [f"argv={escape(word)}" for word in req.argv]
    lines += [f"var={escape(name if value is None else f'{name}={value}')}" for name, value in req.env.items()]
    if req.env_complete:
        lines.append("vars=all")
    elif req.vars_on_request:
        lines.append("vars=ask")
    lines += [f"{key}={escape(str(value))}" for key, value in req.extra.items()
              if _KEY.fullmatch(key) and key not in _KNOWN_KEYS]
    return "\n".join(lines) + "\n"


@dataclass
class Frame:
    id: str
    tag: str
    fields: list  # list[str], unescaped


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


_TMUX_PANE = re.compile(r"%\d{1,9}")
_TMUX_SOCKET = re.compile(r"/[^\x00-\x20%]{1,180}")


def parse_control(line: str) -> Optional[tuple]:
    """``("req", [id])``, ``("cancel", [id])``, ``("answer", [id, qid, ans])``,
    ``("retire", [pid])``, ``("watch", [pane, socket])`` or None.  An answer is y, n, a
    or s (show the whole call) to a Q frame, v (written) or n to a V frame."""
    if len(line) > MAX_CONTROL:
        return None
    words = line.strip().split(" ")
    if len(words) == 3 and words[0] == "watch" and _TMUX_PANE.fullmatch(words[1]) \
            and _TMUX_SOCKET.fullmatch(words[2]):
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


_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASS|CRED|AUTH|COOKIE|SESSION|PRIVATE|SIGNATURE",
                          re.IGNORECASE)


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
