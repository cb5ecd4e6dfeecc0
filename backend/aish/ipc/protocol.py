"""The typed request the daemon parses a request file into, and its encoding.

docs/protocol.md is the contract; the line codec itself (escaping, frames, control lines)
is ``wire.py``, re-exported here, which the CLI's fast path uses alone.  This module
imports nothing heavy: it is on the daemon's cold-start path.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from aish.errors import ProtocolError
from aish.ipc.wire import (MAX_CONTROL, SECRET_NAME_WORDS, STR_KEYS, VERSION, Frame, encode_frame, env_from, escape,
                           format_control, parse_control, parse_frame, request_text, strip_controls, unescape, valid_id)

__all__ = ["KINDS", "MAX_CONTROL", "SECRET_NAME_WORDS", "VERSION", "Frame", "HistoryEntry", "Request", "add_var",
           "encode_frame", "env_from", "escape", "format_control", "format_request", "parse_control", "parse_frame",
           "parse_request", "parse_vars", "strip_controls", "unescape", "valid_id"]

_PATH_KEYS = ("reply", "cwd")
_VAR_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")
_MAX_VARS = 2000
# ask: a question or a buffer; verb: `? :cost`, `aish route on`...; prepare: a command failed,
# draft its fix in the background (docs/protocol.md)
KINDS = ("ask", "verb", "prepare")


@dataclass
class HistoryEntry:
    """One command the shell ran: its text, exit status and duration."""

    command: str
    exit: Optional[int] = None
    duration_ms: Optional[int] = None


@dataclass
class Request:
    """One request from a shell or the CLI, as it crossed the FIFO (docs/protocol.md)."""

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
        elif key in STR_KEYS:
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
    return request_text(vars(req))
