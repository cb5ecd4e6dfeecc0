"""Turn OpenAI-compatible ``chat.completion.chunk`` objects into broker events.

Kept apart from the HTTP side (``broker.py``) so the wire rules live in one
place: reasoning arrives as ``reasoning_content`` (llama.cpp, DeepSeek),
``reasoning`` (OpenRouter, vLLM) or inline ``<think>`` tags; tool calls arrive
as fragments keyed by ``index``; ``usage`` may ride on any chunk (OpenRouter:
the last one, with ``cost``); an ``error`` object may arrive inside a 200
stream.  A whole-body JSON reply (a server that ignored ``stream: true``) is
mapped to the same events so callers never see the difference.  What a
server says when it fails (error envelopes, HTML pages, cut or garbled
streams) becomes a typed error here (``HttpStatusError``, ``ApiError``) with
the documented message.
"""
from __future__ import annotations

import json
import re
from typing import Any, Iterator, Optional

from aish.config.schema import ModelConfig
from aish.errors import ApiError, ContextOverflow, HttpStatusError, ParamRejected, ToolsRejected
from aish.llm.events import (BrokerEvent, Finish, ReasoningDelta, TextDelta, TextWasReasoning, ToolCall,
                         ToolCallDelta, Usage)
from aish.llm.reasoning import ThinkSplitter


class _Slot:
    __slots__ = ("index", "id", "name", "args")

    def __init__(self, index: int) -> None:
        self.index = index
        self.id: Optional[str] = None
        self.name: Optional[str] = None
        self.args: list[str] = []


class ChunkDecoder:
    """State of one streamed completion: feed parsed chunks, then ``finish()``."""

    def __init__(self) -> None:
        self.text_parts: list[str] = []  # answer text so far (never reasoning)
        self.finish_reason: Optional[str] = None
        self._think = ThinkSplitter()
        self._slots: dict[Any, _Slot] = {}  # wire index -> slot being filled
        self._calls: list[_Slot] = []  # every slot, in the order calls opened

    @property
    def partial_text(self) -> str:
        return "".join(self.text_parts)

    def feed(self, chunk: dict) -> list[BrokerEvent]:
        """The events of one chunk, in order (a list: a stream's every token passes here, and a
        generator per chunk, with the splitter's own nested in it, was most of the work)."""
        error = chunk.get("error")
        if error:
            message, code = error_message(error)
            raise ApiError(message or "the server reported an error mid-stream", code=code,
                           partial_text=self.partial_text)
        events: list[BrokerEvent] = []
        for choice in chunk.get("choices") or ():
            delta = choice.get("delta") or choice.get("message") or {}
            reasoning = delta.get("reasoning_content") or delta.get("reasoning")
            if reasoning and isinstance(reasoning, str):
                events.append(ReasoningDelta(reasoning))
            content = delta.get("content")
            if content and isinstance(content, str):
                plain = self._think.plain(content)
                if plain is not None:
                    self.text_parts.append(content)
                    events.append(plain)
                else:
                    for event in self._think.feed(content):
                        self._note(event)
                        events.append(event)
            calls = delta.get("tool_calls")
            if calls:
                events.extend(self._tool_fragments(calls))
            reason = choice.get("finish_reason")
            if reason:
                self.finish_reason = reason
        usage = chunk.get("usage")
        if usage and isinstance(usage, dict):
            events.append(usage_from(usage, chunk.get("model")))
        return events

    def finish(self) -> Iterator[BrokerEvent]:
        """Flush held-back text and end with ``Finish`` (always the last event)."""
        for event in self._think.flush():
            self._note(event)
            yield event
        calls = tuple(
            ToolCall(id=slot.id or f"call_{n}", name=slot.name or "", arguments="".join(slot.args))
            for n, slot in enumerate(self._calls)
        )
        yield Finish(self.finish_reason, calls)

    def _note(self, event: BrokerEvent) -> None:
        if isinstance(event, TextDelta):
            self.text_parts.append(event.text)
        elif isinstance(event, TextWasReasoning):
            self.text_parts.clear()

    def _tool_fragments(self, calls: list) -> Iterator[ToolCallDelta]:
        for position, frag in enumerate(calls):
            if not isinstance(frag, dict):
                continue
            index = frag.get("index", position)
            call_id = frag.get("id") or None
            function = frag.get("function") or {}
            name = function.get("name") or None
            args = function.get("arguments") or ""
            if not isinstance(args, str):  # some servers send an object, not JSON text
                args = json.dumps(args)
            slot = self._slots.get(index)
            # Some proxies number every call 0 and tell them apart only by id.
            if slot is None or (call_id and slot.id and call_id != slot.id):
                slot = _Slot(len(self._calls))
                self._slots[index] = slot
                self._calls.append(slot)
            if call_id and not slot.id:
                slot.id = call_id
            if name:
                slot.name = name if not slot.name else slot.name
            if args:
                slot.args.append(args)
            yield ToolCallDelta(slot.index, call_id, name, args)


def usage_from(usage: dict, model: Optional[str] = None) -> Usage:
    prompt = _int(usage.get("prompt_tokens"))
    completion = _int(usage.get("completion_tokens"))
    total = _int(usage.get("total_tokens")) or prompt + completion
    cost = usage.get("cost")
    cost = float(cost) if isinstance(cost, (int, float)) and not isinstance(cost, bool) else None
    return Usage(prompt_tokens=prompt, completion_tokens=completion, total_tokens=total,
                 cost=cost, model=model if isinstance(model, str) else None)


def error_message(error: Any) -> tuple[str, Any]:
    """``{error: {message, code}}`` / ``{error: "..."}`` / ``{message}`` -> (message, code)."""
    if isinstance(error, dict):
        inner = error.get("error", error)
        if isinstance(inner, dict):
            message = inner.get("message") or inner.get("detail") or inner.get("msg") or ""
            code = inner.get("code", inner.get("type"))
            metadata = inner.get("metadata")
            if isinstance(metadata, dict) and isinstance(metadata.get("raw"), str):
                message = f"{message}: {metadata['raw']}" if message else metadata["raw"]
            return _one_line(str(message)), code
        return _one_line(str(inner)), None
    return _one_line(str(error)), None


def http_error(status: int, reason: Optional[str], raw: bytes, endpoint: str, key: Optional[str],
               model: Optional[ModelConfig] = None, sent: Optional[dict] = None) -> HttpStatusError:
    """``transport: HTTP <status>: <what the server said>``, with a hint to act on.

    ``sent`` (the request body) lets the refusals a changed request cures have their own
    types: ``ToolsRejected`` when it offered tools, ``ParamRejected`` for a parameter the
    server names a replacement for; ``ContextOverflow`` carries the window when told."""
    text = raw.decode("utf-8", "replace")
    message, code, inner = "", None, {}  # type: tuple[str, Any, dict]
    try:
        parsed = json.loads(text)
    except ValueError:
        parsed = None
    if isinstance(parsed, dict):
        message, code = error_message(parsed)
        inner = parsed["error"] if isinstance(parsed.get("error"), dict) else parsed
    elif text.strip():
        message, _ = error_message(re.sub(r"<[^>]*>", " ", text))
    message = message or reason or "error"
    if status == 404 and code is None and re.search(r"model.*not (found|exist)", message, re.I):
        code = "model_not_found"  # Ollama and others say it in words only; fallback decides on the code
    if isinstance(code, str) and code and code not in message:
        message = f"{message} ({code})"
    if key and len(key) >= 4:
        message = message.replace(key, "***")
    name = model.name if model is not None and model.name else "..."
    if status in (400, 413) and (code in _OVERFLOW_CODES or _OVERFLOW_WORDS.search(text)):
        return ContextOverflow(f"HTTP {status}: {message}", status=status, code=code,
                               hint="the conversation is longer than the model's context: "
                                    "'aish reset' starts afresh",
                               window=_count(inner.get("n_ctx")) or _window_in(message),
                               prompt_tokens=_count(inner.get("n_prompt_tokens")) or _prompt_in(message))
    if status == 500 and _NO_ROOM.search(message):
        return ContextOverflow(f"HTTP {status}: {message} (no room left in its context for the answer)",
                               status=status, code=code,
                               hint="the conversation is longer than the model's context: 'aish reset' starts afresh")
    refused = _refused(status, message, sent or {})
    if refused is not None:
        return refused
    hint = None
    if status in (401, 403):
        hint = (f"check the key in ${model.key_env}" if model is not None and model.key_env
                else f"this endpoint wants an API key: set key_env in [models.{name}] "
                     "to the variable that holds it")
    elif status == 404 and model is not None:
        hint = (f"'{model.model}' is not served there; 'aish doctor' lists what is"
                if code == "model_not_found" else f"is {endpoint} an OpenAI-compatible server?")
    return HttpStatusError(f"HTTP {status}: {message}", status=status, code=code, hint=hint)


# llama.cpp's decode found no room in its context (its KV cache) for the next token; llama-cpp-python
# says it as a 500 (a stream just ends).  Its cells can be fewer than n_ctx (prefix reuse leaves some
# it cannot place): a prompt that fits on paper, with no room left for the answer
_NO_ROOM = re.compile(r"\bllama_decode returned 1\b")
# How servers name a prompt longer than the context: OpenAI's code, llama.cpp's type; vLLM,
# OpenRouter and gateways in words only (llama-cpp-python: "maximum context length is N tokens")
_OVERFLOW_CODES = ("context_length_exceeded", "exceed_context_size_error")
_OVERFLOW_WORDS = re.compile(r"context_length_exceeded|exceed_context_size_error|maximum context length|"
                             r"exceeds? (?:the )?(?:available )?context (?:size|window|length)|"
                             r"ContextWindowExceeded", re.I)
# How servers refuse tools: vLLM ("auto" tool choice requires --enable-auto-tool-choice),
# llama.cpp ("tools param requires --jinja flag"), Ollama ("... does not support tools")
_TOOL_WORDS = re.compile(r"\btools?\b|tool[_ ]choice|--jinja|function[_ ]call", re.I)


def _refused(status: int, message: str, sent: dict) -> Optional[HttpStatusError]:
    """A refusal the same request without tools, or with the named parameter, would pass."""
    if status not in (400, 422, 500, 501):
        return None
    if sent.get("tools") and _TOOL_WORDS.search(message):
        return ToolsRejected(f"HTTP {status}: {message}", status=status,
                             hint="start the server with tool calling on (llama.cpp: --jinja; "
                                  "vLLM: --enable-auto-tool-choice --tool-call-parser ...)")
    for param, instead in (("max_tokens", "max_completion_tokens"), ("max_completion_tokens", "max_tokens")):
        if param in sent and status in (400, 422) and instead in message and param in message:
            return ParamRejected(f"HTTP {status}: {message}", status=status, param=param, instead=instead)
    return None


def _window_in(message: str) -> Optional[int]:
    """The window a context-length message names ("maximum context length is 1024 tokens")."""
    found = re.search(r"(?:context length is|context window of|context size \()\s*(\d+)", message)
    return int(found.group(1)) if found else None


def _prompt_in(message: str) -> Optional[int]:
    """The prompt's size a context-length message names: llama-cpp-python's and vLLM's "(4230 in
    the messages", llama.cpp's "request (1300 tokens)" and "input (1300 tokens)"."""
    found = re.search(r"\((\d+) in the messages|(?:request|input) \((\d+) tokens\)", message)
    return int(found.group(1) or found.group(2)) if found else None


def _count(value: Any) -> Optional[int]:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def malformed(endpoint: str, payload: str, partial: str) -> ApiError:
    shown = " ".join(payload.split())
    shown = shown if len(shown) <= 80 else shown[:77] + "..."
    return ApiError(f"malformed reply from {endpoint}: expected JSON in a data line, got {shown!r}",
                    partial_text=partial)


def completion_events(body: dict) -> Iterator[BrokerEvent]:
    """A non-streamed ``chat.completion`` body as the events a stream would give."""
    decoder = ChunkDecoder()
    yield from decoder.feed(body)
    yield from decoder.finish()


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _one_line(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
