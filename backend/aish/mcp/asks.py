"""What a server may ask while one of its tools runs, asked in the user's shell.

Servers ask three things of a client: a question for the user (elicitation),
a model completion (sampling), and the roots they may work in.  The first two
come here, to the ``ShellSide`` of the call in progress: the question is asked
like an approval (the same frames, the same time-out, nobody to ask means
"declined"), and a completion is run only after the user said yes, by the
model call ``app/`` hands in (costed as ``mcp_sampling``).  Progress the server
reports becomes a status line, at most one per second.
"""
from __future__ import annotations

import datetime
import json
import re
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Protocol
from urllib.parse import urlsplit

from aish.errors import AishError, ToolError
from aish.ipc.reply import Reply

PROGRESS_EVERY = 1.0  # seconds between two progress lines of one call
MAX_SAMPLING_TOKENS = 4096


class UserSide(Protocol):
    """Who a tool call runs for (``Connection`` calls these on a worker thread)."""

    def elicit(self, alias: str, request: dict) -> tuple[str, Optional[dict]]: ...
    def sample(self, alias: str, request: dict) -> dict: ...
    def progress(self, alias: str, tool: str, done: float, total: Optional[float],
                 message: Optional[str]) -> None: ...


# (alias, request) -> (text, model name); raises AishError
Sampler = Callable[[str, dict], tuple]


@dataclass
class ShellSide:
    reply: Reply
    timeout: float = 120.0
    sampler: Optional[Sampler] = None
    _last_progress: dict = field(default_factory=dict)

    # ------------------------------------------------------------ elicitation
    def elicit(self, alias: str, request: dict) -> tuple[str, Optional[dict]]:
        """("accept", values) | ("decline", None) | ("cancel", None)."""
        message = " ".join(str(request.get("message") or "").split())[:500]
        if request.get("mode") == "url" or "url" in request and "requestedSchema" not in request:
            url = str(request.get("url") or "")
            self.reply.status(f"{alias} asks you to open {url}" + (f": {message}" if message else ""))
            return _answer_word(self.reply.ask(f"{alias}: did you finish there? [y/N]", self.timeout))
        schema = request.get("requestedSchema") or {}
        fields = schema.get("properties") or {}
        self.reply.status(f"{alias} asks: {message}")
        if not fields:
            return _answer_word(self.reply.ask(f"answer {alias}: yes? [y/N]", self.timeout))
        ask_text = getattr(self.reply, "input", None)
        if ask_text is None:
            self.reply.warning(f"{alias}'s question needs typed answers, which this terminal cannot give: declined")
            return "decline", None
        required = set(schema.get("required") or [])
        values: dict = {}
        for name, prop in fields.items():
            value = _ask_field(self.reply, ask_text, alias, name, prop if isinstance(prop, dict) else {},
                               name in required, self.timeout)
            if value is _CANCEL:
                self.reply.warning(f"{alias}'s question: cancelled")
                return "cancel", None
            if value is not _SKIP:
                values[name] = value
        shown = json.dumps(values, ensure_ascii=False)
        if _answer_word(self.reply.ask(f"send {shown[:300]} to {alias}? [y/N]", self.timeout))[0] != "accept":
            return "decline", None
        return "accept", values

    # ------------------------------------------------------------ sampling
    def sample(self, alias: str, request: dict) -> dict:
        """Ask the user, then run the completion on aish's model; an ``AishError`` is the refusal."""
        if self.sampler is None:
            raise ToolError("aish has no model call for this request")
        messages = request.get("messages") or []
        first = next((m for m in messages if isinstance(m, dict)), {})
        preview = " ".join(_text_of(first.get("content")).split())[:160]
        budget = min(int(request.get("maxTokens") or 1024), MAX_SAMPLING_TOKENS)
        question = (f"{alias} asks the model ({len(messages)} message{'s' if len(messages) != 1 else ''}, "
                    f"up to {budget} tokens): \"{preview}\"? [y/N]")
        if _answer_word(self.reply.ask(question, self.timeout))[0] != "accept":
            self.reply.warning(f"denied: {alias}'s request for the model")
            raise ToolError("the user declined the sampling request")
        text, model = self.sampler(alias, {**request, "maxTokens": budget})
        self.reply.status(f"{alias}: the model answered ({len(text):,} characters)")
        return {"role": "assistant", "content": {"type": "text", "text": text}, "model": model,
                "stopReason": "endTurn"}

    # ------------------------------------------------------------ progress
    def progress(self, alias: str, tool: str, done: float, total: Optional[float],
                 message: Optional[str]) -> None:
        now = time.monotonic()
        key = f"{alias}.{tool}"
        finished = total is not None and done >= total
        if not finished and now - self._last_progress.get(key, 0.0) < PROGRESS_EVERY:
            return
        self._last_progress[key] = now
        amount = f"{done:g}/{total:g}" if total else f"{done:g}"
        text = f" {' '.join(str(message).split())[:120]}" if message else ""
        self.reply.status(f"tool {key}: {amount}{text}")


_SKIP, _CANCEL = object(), object()


def _answer_word(answer: Optional[str]) -> tuple[str, None]:
    return ("accept", None) if (answer or "").strip().lower() in ("y", "yes", "a") else ("decline", None)


def _choices(prop: dict) -> list:
    """(value, label) pairs of an enum field (``enum``, or ``oneOf``/``anyOf`` of const + title)."""
    values, labels = prop.get("enum"), prop.get("enumNames")
    if isinstance(values, list):
        names: list = labels if isinstance(labels, list) else []
        return [(v, str(names[i]) if i < len(names) else "") for i, v in enumerate(values)]
    options = prop.get("oneOf") or prop.get("anyOf") or []
    return [(o.get("const"), str(o.get("title") or "")) for o in options if isinstance(o, dict) and "const" in o]


def _ask_field(reply: Reply, ask_text: Callable, alias: str, name: str, prop: dict, required: bool,
               timeout: float) -> Any:
    """One field of an elicitation form, typed as the schema says; re-asked on a bad value."""
    kind = prop.get("type", "string")
    title = prop.get("title") or name
    about = prop.get("description")
    if kind == "boolean":
        answer = reply.ask(f"{alias}: {title}" + (f" ({about})" if about else "") + "? [y/N]", timeout)
        return answer is not None and answer.strip().lower() in ("y", "yes", "a")
    raw_items = prop.get("items")
    items: dict = raw_items if isinstance(raw_items, dict) else {}
    choices = _choices(items if kind == "array" else prop)
    shown = "/".join(f"{v}" + (f" ({label})" if label and label != str(v) else "") for v, label in choices)
    hint = (f" [{shown}]" if choices else "") + (", several with commas" if kind == "array" else "")
    default = prop.get("default")
    prompt = f"{alias}: {title}" + (f" ({about})" if about else "") + hint + \
        (f" (default {_shown(default)})" if default is not None else "") + ("" if required else " (optional)") + ":"
    for _ in range(3):
        raw = ask_text(prompt, timeout)
        if raw is None:
            return _CANCEL
        raw = raw.strip()
        if not raw:
            if default is not None:
                return default
            if not required:
                return _SKIP
            continue
        try:
            if kind == "array":
                return [_typed(part.strip(), items.get("type", "string"), choices, items)
                        for part in raw.split(",") if part.strip()]
            return _typed(raw, kind, choices, prop)
        except ValueError as err:
            reply.status(str(err))
    return _CANCEL


def _shown(value: Any) -> str:
    return ", ".join(map(str, value)) if isinstance(value, list) else str(value)


def _typed(raw: str, kind: str, choices: list, prop: dict) -> Any:
    if choices:
        for choice, label in choices:
            if raw == str(choice) or (label and raw.lower() == label.lower()):
                return choice
        raise ValueError(f"one of: {', '.join(str(v) for v, _ in choices)}")
    if kind in ("integer", "number"):
        try:
            value: Any = int(raw) if kind == "integer" else float(raw)
        except ValueError:
            raise ValueError("a whole number, please" if kind == "integer" else "a number, please") from None
        low, high = prop.get("minimum"), prop.get("maximum")
        if (low is not None and value < low) or (high is not None and value > high):
            bounds = f"{low if low is not None else '-'} and {high if high is not None else '-'}"
            raise ValueError(f"between {bounds}, please")
        return value
    if kind == "string":
        _check_string(raw, prop)
    return raw


_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def _check_string(raw: str, prop: dict) -> None:
    """The checks the spec's string schema names: ``format`` and the lengths."""
    fmt = prop.get("format")
    if fmt == "email" and not _EMAIL.match(raw):
        raise ValueError("an email address, please (name@example.com)")
    if fmt == "uri":
        parts = urlsplit(raw)
        if not parts.scheme or not (parts.netloc or parts.path) or " " in raw:
            raise ValueError("an address with its scheme, please (https://...)")
    if fmt == "date":
        try:
            datetime.date.fromisoformat(raw)
        except ValueError:
            raise ValueError("a date, please (YYYY-MM-DD)") from None
    if fmt == "date-time":
        try:
            moment = datetime.datetime.fromisoformat(raw.replace("Z", "+00:00").replace("z", "+00:00"))
        except ValueError:
            moment = None
        if moment is None or "T" not in raw.upper() or moment.tzinfo is None:
            raise ValueError("a date and time, please (YYYY-MM-DDTHH:MM:SS, with its offset)")
    low, high = prop.get("minLength"), prop.get("maxLength")
    if isinstance(low, int) and len(raw) < low:
        raise ValueError(f"at least {low} characters, please")
    if isinstance(high, int) and len(raw) > high:
        raise ValueError(f"at most {high} characters, please")


def _text_of(content: Any) -> str:
    if isinstance(content, dict):
        return str(content.get("text") or f"[{content.get('type', 'content')}]")
    if isinstance(content, list):
        return " ".join(_text_of(c) for c in content)
    return str(content or "")


def sampling_messages(request: dict) -> list:
    """A sampling request -> chat messages (text only; other blocks become a marker)."""
    out = []
    system = request.get("systemPrompt")
    if system:
        out.append({"role": "system", "content": str(system)})
    for message in request.get("messages") or []:
        if isinstance(message, dict) and message.get("role") in ("user", "assistant"):
            out.append({"role": message["role"], "content": _text_of(message.get("content"))})
    if not any(m["role"] == "user" for m in out):
        raise AishError("the sampling request has no user message")
    return out
