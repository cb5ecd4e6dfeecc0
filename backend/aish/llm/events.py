"""Typed events: what the broker yields while a model streams, and what one ask
reports back to its client.

Broker events (``chat_stream`` yields them, in stream order):
    TextDelta       answer text (reasoning already split out)
    ReasoningDelta  ``reasoning_content`` or ``<think>...</think>`` text; never shown as answer
    TextWasReasoning  a ``</think>`` came with no ``<think>``: the text deltas so far were
                    reasoning after all (the chat template opened the thought in the prompt)
    ToolCallDelta   a fragment of a streaming tool call, by index (progress only)
    Usage           token counts (and cost) whenever a chunk carries ``usage``
    Finish          last event of a complete stream: finish reason + assembled tool calls

Ask output (the daemon turns these into protocol frames, the CLI prints them):
    see ``Reply`` in ``ask.py``; results end as an ``AskResult``.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Optional, Union


@dataclass(frozen=True)
class TextDelta:
    """Answer text as it streams."""

    text: str


@dataclass(frozen=True)
class ReasoningDelta:
    """Reasoning text as it streams (never shown as the answer)."""

    text: str


@dataclass(frozen=True)
class TextWasReasoning:
    """Every TextDelta before this one was reasoning: drop it from the answer.

    Some chat templates (DeepSeek-R1 distills, QwQ) put ``<think>`` in the prompt, so
    the model's output opens inside a thought and only its ``</think>`` shows.  That
    cannot be known until the tag arrives; the text has streamed by then."""

    text: str


@dataclass(frozen=True)
class ToolCallDelta:
    """A fragment of a streaming tool call, by index."""

    index: int
    id: Optional[str] = None
    name: Optional[str] = None
    arguments: str = ""


@dataclass(frozen=True)
class ToolCall:
    """One complete tool call as the model asked for it (``name`` is the wire name)."""

    id: str
    name: str
    arguments: str  # the raw JSON text the model produced; may be malformed


@dataclass(frozen=True)
class Usage:
    """Token counts (and cost) a server reported, or estimated here."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0
    cost: Optional[float] = None  # dollars, when the provider reports it (OpenRouter)
    estimated: bool = False  # True when counted locally because the server sent none
    model: Optional[str] = None  # the model name the server reported

    def to_dict(self) -> dict[str, Any]:
        # field by field: ``dataclasses.asdict`` recurses and deep-copies, a measurable share of
        # a busy daemon's CPU for two ints and a float per call
        return {"prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
                "total_tokens": self.total_tokens, "cost": self.cost, "estimated": self.estimated,
                "model": self.model}


@dataclass(frozen=True)
class Finish:
    """The end of a complete stream: why it ended, and the tool calls assembled."""

    reason: Optional[str]
    tool_calls: tuple[ToolCall, ...] = ()


BrokerEvent = Union[TextDelta, ReasoningDelta, TextWasReasoning, ToolCallDelta, Usage, Finish]


@dataclass
class AskResult:
    """What ``aish ask --json`` prints and the daemon's done frame carries."""

    text: str = ""
    commands: list[str] = field(default_factory=list)
    model: Optional[str] = None
    usage: Optional[dict[str, Any]] = None
    safety: list[dict[str, Any]] = field(default_factory=list)
    routed: Optional[str] = None  # routing class that fired, if any
    fallback: Optional[str] = None  # model used after a fallback, if any
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    error: Optional[str] = None
    cancelled: bool = False

    def to_dict(self) -> dict[str, Any]:
        """A copy one level deep (the lists are new; what they hold is the result's own)."""
        return {name: list(value) if isinstance(value, list) else value
                for name, value in ((name, getattr(self, name)) for name in _ASK_FIELDS)}


_ASK_FIELDS = tuple(f.name for f in fields(AskResult))


class Outgoing(list):
    """A conversation's chat messages that grew from the last ones sent: ``self[1:len(base)]``
    are ``base[1:]``, the very same dicts (only the system message, first, is new).

    Why: a long conversation is sent whole on every ask, and redacting, counting and
    JSON-encoding 400 kept turns again each time made the daemon's work per ask grow with
    the conversation.  Each step keeps what it made of a list in ``memo`` (the redacted list,
    the token count, the JSON of the turns) and does only the new turns of the next one
    (``Redactor.redact_messages``, ``TokenCounter.count_messages``, the broker's body).  The
    dicts are shared between asks: nobody may change one in place.  ``base`` is None when
    nothing can be reused (the first ask, a fold, a changed turn): the full path.
    """

    __slots__ = ("base", "memo")

    def __init__(self, items: Any = (), base: Optional["Outgoing"] = None) -> None:
        super().__init__(items)
        self.base = base
        self.memo: dict = {}

    def grown(self) -> Optional["Outgoing"]:
        """The base whose memo applies, or None (only one level is kept: no chain of lists)."""
        base = self.base
        if base is None or len(base) > len(self) or not base.memo:
            return None
        return base

    @property
    def new(self) -> list:
        """The messages after the base's (the system message is never shared)."""
        return self[len(self.base):] if self.base is not None else self[1:]
