"""What a model can take and give: its context window, what a request really weighs there
in tokens, how long an answer may be, and which of aish's requests its server refuses.

One ``Limits`` per daemon, learning per (endpoint, model):

- **The window**: ``context_window`` in the config wins; else what the server tells
  (``llm.servers``: llama.cpp's n_ctx, vLLM's max_model_len, Ollama's num_ctx, LM Studio's
  loaded length, OpenRouter's and LiteLLM's listings); else what its first context-length
  error names (llama-cpp-python tells it no other way).
- **The weight of a request**: the contents counted by the token counter, plus the chat
  template's tokens around each message and around the whole request.  Those are measured
  once per local model (two one-token requests whose reported ``prompt_tokens`` are compared
  with the counts), and every reported usage keeps a scale that corrects what remains (a
  cloud's tokenizer against characters / 4).  Without them a byte-level vocabulary's counts
  fell ~40 % short of what the server received.
- **The answer**: a local model gets a default cap (a model that runs on for minutes holds
  the user and the machine); a paid one gets one only when a cost cap needs a bound.  The
  cap never asks for more than the window leaves.
- **Refusals**: a server that refused tools, or named another parameter for the answer cap,
  is remembered, so the next request is sent the way it takes.

Thread-safe: shells ask at once.  Identification and measuring happen at most once per
model at a time; a failure is retried after a while, never on every call.
"""
from __future__ import annotations

import functools
import json
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Optional
from urllib.parse import urlparse

from aish.config.schema import ModelConfig
from aish.errors import AishError
from aish.llm import template_file
from aish.llm.plan import MARGIN, Plan, far_from
from aish.llm.servers import ServerInfo

LOCAL_ANSWER_CAP = 1024  # tokens: a few paragraphs and commands; max_tokens raises it
PAID_ANSWER_CAP = 4096  # sent to a paid model only when a cost cap needs the bound
ANSWER_SHARE = 4  # an answer never reserves more than a quarter of the window
PER_MESSAGE = 4.0  # template tokens per message before any measurement (OpenAI's figure)
FIXED = 3.0  # and per request (the assistant's opening)
RETRY_AFTER = 60.0  # seconds before a failed identification or measurement is tried again
MEASURE_TIMEOUT = 10.0  # a one-token answer takes longer only on a busy server: measure later
# the calibration's sample where a request's weight holds bounds (counting them exactly takes a
# tokenize request each): every request until a model has this many observations, then at most
# one per CALIBRATE_EVERY seconds (a request weighed by counts alone is always observed)
CALIBRATE_FIRST = 4
CALIBRATE_EVERY = 30.0
_clock = time.monotonic

_PROBE_A = [{"role": "system", "content": "You are a shell assistant."},
            {"role": "user", "content": "Which command lists files?"}]
_PROBE_B = _PROBE_A + [{"role": "assistant", "content": "ls lists the files of a directory."},
                       {"role": "user", "content": "And the hidden ones too?"}]


@dataclass
class ModelLimits:
    """What is known of one (endpoint, model); read it through ``Limits``."""

    info: Optional[ServerInfo] = None
    identified_at: Optional[float] = None
    window: Optional[int] = None
    window_from: str = ""  # "config", the server's kind, or "its error"
    per_message: float = PER_MESSAGE
    fixed: float = FIXED
    measured: Optional[bool] = None  # None: not tried; False: failed (retry after a while)
    measured_at: float = 0.0
    template_key: Optional[bytes] = None  # what the measurement is kept under (``Limits.save``)
    scale: float = 1.0  # reported prompt tokens / estimate, smoothed
    scale_floor: float = 0.0  # what a context-length error's own count showed: never less
    observed: int = 0
    sampled_at: Optional[float] = None  # when a request weighed by bounds was last counted for the scale
    sampling: int = 0  # such requests taken for the scale so far
    answer_param: str = "max_tokens"
    tools_refused: str = ""  # why the server refused a request offering tools
    tools_said: bool = False  # the user was told tools are withheld


class Limits:
    """Per-daemon knowledge of the models' limits; ``identify`` and ``probe`` are injected
    (``llm.servers.identify`` and ``llm.broker.chat_once`` by default)."""

    def __init__(self, tokens: Any, *, identify: Optional[Callable[..., ServerInfo]] = None,
                 probe: Optional[Callable[..., tuple]] = None,
                 log: Optional[Callable[[str], None]] = None) -> None:
        self.tokens = tokens
        self._identify = identify
        self._probe = probe
        self._log = log or (lambda line: None)
        self._lock = threading.Lock()
        self._models: dict[tuple[str, str], ModelLimits] = {}
        self._busy: dict[tuple[str, str], threading.Lock] = {}
        self._remembered: dict[bytes, tuple[float, float]] = {}  # templates measured before (``load``)

    # ------------------------------------------------------------ knowing a model
    def of(self, model: ModelConfig) -> ModelLimits:
        """The model's limits, identifying its server the first time (and after a failure)."""
        key = _key(model)
        with self._lock:  # (made once per model: asked about seven times per ask)
            state = self._models.get(key)
            if state is None:
                state = self._models[key] = ModelLimits()
            gate = self._busy.get(key)
            if gate is None:
                gate = self._busy[key] = threading.Lock()
            if _openai(model.endpoint):
                state.answer_param = "max_completion_tokens"  # its newer models refuse max_tokens
        if state.identified_at is None or (state.info is None and _clock() - state.identified_at > RETRY_AFTER):
            with gate:
                if state.identified_at is None or (state.info is None
                                                   and _clock() - state.identified_at > RETRY_AFTER):
                    self._learn_server(model, state)
        if model.context_window:
            state.window, state.window_from = model.context_window, "config"
        return state

    def _learn_server(self, model: ModelConfig, state: ModelLimits) -> None:
        from aish.llm import servers

        identify = self._identify or servers.identify
        try:
            info = identify(model.endpoint, model.model, api_key=model.api_key(),
                            timeout=min(model.connect_timeout, 2.0))
        except Exception as exc:  # noqa: BLE001 - unknown limits are not a failed answer
            self._log(f"limits: cannot identify {model.endpoint}: {exc}")
            info = None
        with self._lock:
            state.identified_at = _clock()
            state.info = info
            if info is not None and info.window and state.window_from != "its error":
                state.window, state.window_from = info.window, info.label

    def forget(self, model: ModelConfig) -> None:
        """The server went away (restarted, moved): learn it again on the next call."""
        with self._lock:
            self._models.pop(_key(model), None)

    def learn_window(self, model: ModelConfig, window: Optional[int]) -> None:
        """A context-length error named the window (or, without a number, showed the one
        believed is too large)."""
        if not window:
            return
        state = self.of(model)
        with self._lock:
            if state.window_from != "config":
                state.window, state.window_from = window, "its error"

    def refuse_tools(self, model: ModelConfig, why: str) -> None:
        state = self.of(model)
        with self._lock:
            state.tools_refused = why

    def use_param(self, model: ModelConfig, param: str) -> None:
        state = self.of(model)
        with self._lock:
            state.answer_param = param

    # ------------------------------------------------------------ counting
    def count(self, model: ModelConfig, messages: list, tools: Optional[list] = None) -> int:
        """What the server will count for these messages (and tools): never raises."""
        return self.weigh(model, messages, tools)[0]

    def weigh(self, model: ModelConfig, messages: list, tools: Optional[list] = None) -> tuple[int, bool]:
        """``count``, and whether it holds a text weighed by its upper bound (``tokens.defer``)."""
        state = self._measured(model)
        content, bounded = self.tokens.weigh(model, messages)
        extra = self.tokens.count(model, json.dumps(tools, separators=(",", ":"))) if tools else 0
        raw = content + extra + state.per_message * len(messages) + state.fixed
        return max(0, round(raw * state.scale)), bounded

    def turn_counter(self, model: ModelConfig) -> Callable[[str], int]:
        """``count(text)`` for one message as the server weighs it (the conversation's budget)."""
        state = self._measured(model)

        def count(text: str) -> int:
            return max(0, round((self.tokens.count(model, text) + state.per_message) * state.scale))

        return count

    def observe(self, model: ModelConfig, estimate: int, reported: int, *, told: bool = False) -> None:
        """A server reported ``prompt_tokens`` for a request estimated at ``estimate``: keep
        the scale that corrects what the measurement did not catch (smoothed, bounded).

        ``told``: the count came with a context-length error, from the server that holds the
        window; it sets a floor that reported usage cannot lower (a gateway's usage may be its
        own count in another tokenizer: LiteLLM counted 12 where llama-cpp-python counted 59)."""
        if estimate <= 0 or reported <= 0:
            return
        state = self.of(model)
        with self._lock:
            ratio = min(4.0, max(0.25, reported / (estimate / state.scale)))
            if told:
                state.scale = state.scale_floor = max(ratio, state.scale)
            else:
                state.scale = ratio if state.observed == 0 else round(0.6 * state.scale + 0.4 * ratio, 4)
                state.scale = max(state.scale, state.scale_floor)
            state.observed += 1

    def sample(self, model: ModelConfig) -> bool:
        """Should this request, weighed by bounds, be counted exactly for the calibration
        (``observe``)?  Its first few, then one now and then: the scale of a model whose own
        tokenizer counts moves little, and each sample costs a tokenize request per bound."""
        state = self.of(model)
        now = _clock()
        with self._lock:
            if state.sampling < CALIBRATE_FIRST or state.sampled_at is None \
                    or now - state.sampled_at >= CALIBRATE_EVERY:
                state.sampling += 1
                state.sampled_at = now
                return True
        return False

    def _measured(self, model: ModelConfig) -> ModelLimits:
        """The model's limits with the template measured, when that is free and exact: a
        local server whose tokenizer counts for us."""
        state = self.of(model)
        due = state.measured is None or (state.measured is False and _clock() - state.measured_at > RETRY_AFTER)
        if not due or not model.is_local:
            return state
        if self._remembered and self._take_remembered(model, state):
            return state
        self.tokens.count(model, "probe")  # finds out whether the server has a tokenizer
        if self.tokens.supported(model) is not True:
            return state
        gate = self._busy.setdefault(_key(model), threading.Lock())
        with gate:
            if state.measured is None or (state.measured is False and _clock() - state.measured_at > RETRY_AFTER):
                self._measure(model, state)
        return state

    def _measure(self, model: ModelConfig, state: ModelLimits) -> None:
        probe = self._probe or _chat_once()
        try:
            _, first = probe(model, _PROBE_A, max_tokens=1, answer_param=state.answer_param,
                             timeout=(model.connect_timeout, MEASURE_TIMEOUT))
            _, second = probe(model, _PROBE_B, max_tokens=1, answer_param=state.answer_param,
                              timeout=(model.connect_timeout, MEASURE_TIMEOUT))
        except Exception as exc:  # noqa: BLE001 - counts stay uncorrected
            self._log(f"limits: cannot measure the chat template of {model.name}: {exc}")
            first = second = None
        content = [sum(self.tokens.count(model, m["content"]) for m in probe_messages)
                   for probe_messages in (_PROBE_A, _PROBE_B)]
        with self._lock:
            state.measured_at = _clock()
            if not (first and second and first.prompt_tokens and second.prompt_tokens):
                state.measured = False
                return
            over_a = first.prompt_tokens - content[0]
            over_b = second.prompt_tokens - content[1]
            state.per_message = max(0.0, (over_b - over_a) / 2)
            state.fixed = max(0.0, over_a - 2 * state.per_message)
            state.measured = True
            state.template_key = _template_key(model, state.info)
        self._log(f"limits: {model.name}'s chat template adds {state.per_message:g} tokens per "
                  f"message and {state.fixed:g} per request")

    # ------------------------------------------------------------ kept over restarts
    def save(self, path: Any) -> None:
        """Write the templates measured (``template_file``), and those the daemon before this one
        left that this one did not measure: the next daemon asks no chat to learn them."""
        with self._lock:
            kept = dict(self._remembered)
            for state in self._models.values():
                if state.measured and state.template_key is not None:
                    kept.pop(state.template_key, None)  # the newest last: kept first when bounded
                    kept[state.template_key] = (state.per_message, state.fixed)
        records = [(key, per_message, fixed) for key, (per_message, fixed) in kept.items()]
        template_file.write(path, records[-template_file.LIMIT:])

    def load(self, path: Any) -> None:
        """Take the templates a previous daemon measured (a missing or torn file: none)."""
        records = template_file.read(path)
        with self._lock:
            for key, per_message, fixed in records:
                self._remembered.setdefault(key, (per_message, fixed))

    def _take_remembered(self, model: ModelConfig, state: ModelLimits) -> bool:
        """The template a daemon before this one measured, of the same endpoint and model while
        its server told the same of itself (kind, window, models listed): a new model file
        behind the same name is measured again."""
        key = _template_key(model, state.info)
        with self._lock:
            found = self._remembered.get(key)
            if found is None:
                return False
            state.per_message, state.fixed = found
            state.measured, state.measured_at, state.template_key = True, _clock(), key
        self._log(f"limits: {model.name}'s chat template as measured before: {state.per_message:g} tokens per "
                  f"message and {state.fixed:g} per request")
        return True

    def ask_why(self, model: ModelConfig, messages: list, max_tokens: int = 1) -> Optional[BaseException]:
        """Send ``messages`` once more, not streamed, for ``max_tokens``: a server that ended a
        stream with nothing answers this with its real error (a window it names is learned).
        The error, or None when the request passed (or failed to say anything)."""
        probe = self._probe or _chat_once()
        try:
            probe(model, messages, max_tokens=max_tokens, answer_param=self.of(model).answer_param,
                  timeout=(model.connect_timeout, 30.0))
        except AishError as err:
            self.learn_window(model, getattr(err, "window", None))
            return err
        except Exception:  # noqa: BLE001 - it could not tell: the first failure stands
            return None
        return None

    # ------------------------------------------------------------ fitting
    def answer_cap(self, model: ModelConfig, asked: Optional[int] = None, *,
                   bounded: bool = False) -> Optional[int]:
        """The answer cap to send: the caller's, the config's, a local model's default, or a
        paid model's when ``bounded`` (a cost cap is set); None to send none."""
        if asked is not None:
            return asked
        if model.max_tokens is not None:
            return model.max_tokens
        info = self.of(model).info
        if model.is_local and not (info is not None and info.gateway):
            return LOCAL_ANSWER_CAP
        if bounded:
            return min(PAID_ANSWER_CAP, info.answer_max) if info is not None and info.answer_max \
                else PAID_ANSWER_CAP
        return None

    def prompt_room(self, model: ModelConfig, *, tools: Optional[list] = None, fixed: int = 0,
                    bounded: bool = False) -> Optional[int]:
        """Tokens the conversation's messages may take (None: the window is unknown): the window
        less the answer's share, a margin, the template's fixed tokens and the tools."""
        state = self._measured(model)
        if not state.window:
            return None
        window = state.window
        cap = self.answer_cap(model, bounded=bounded)
        reserve = min(cap or window // ANSWER_SHARE, window // ANSWER_SHARE)
        tools_weight = self.tokens.count(model, json.dumps(tools, separators=(",", ":"))) if tools else 0
        used = reserve + int(window * MARGIN) + round((state.fixed + tools_weight) * state.scale) + fixed
        return max(0, window - used)

    def plan(self, model: ModelConfig, messages: list, tools: Optional[list] = None, *,
             max_tokens: Optional[int] = None, bounded: bool = False) -> Plan:
        """The request's weight and the answer cap to send, never more than the window leaves
        (``bounded``: a cost cap holds, so the weight is counted exactly)."""
        state = self.of(model)
        prompt, by_bounds = self.weigh(model, messages, tools)
        cap = self.answer_cap(model, max_tokens, bounded=bounded)
        settle: Optional[Callable[[], int]] = None
        if by_bounds:  # texts weighed by their bounds (tokens.defer): questions, this one's and older
            def counted() -> int:
                # the request's messages as they go out: the same text to the same server's tokenizer
                self.tokens.settle(model, _contents(messages), sent=True)
                return self.count(model, messages, tools)

            if bounded or not far_from(state.window, prompt, cap):  # (a price is figured from the weight)
                prompt = counted()
            else:
                settle = counted
        if cap is not None and state.window:
            cap = max(1, min(cap, state.window - prompt - int(state.window * MARGIN)))
        return Plan(prompt, state.window, cap, state.answer_param, settle=settle)

def _contents(messages: list) -> list:
    """The texts of a request's messages, the newest first (where a new question is)."""
    return [m.get("content") for m in reversed(messages) if isinstance(m, dict)]


def _chat_once() -> Callable[..., tuple]:
    from aish.llm import broker  # the HTTP stack loads only when a model is measured or asked

    return broker.chat_once


@functools.lru_cache(maxsize=64)
def _openai(endpoint: str) -> bool:
    """OpenAI's own API (asked on every ``Limits.of``: several times per request, parsed once)."""
    return urlparse(endpoint).hostname == "api.openai.com"


def _key(model: ModelConfig) -> tuple[str, str]:
    return (model.endpoint.rstrip("/"), model.model)


def _template_key(model: ModelConfig, info: Optional[ServerInfo]) -> bytes:
    """A template measurement's digest: the endpoint, the model and what its server told."""
    told = ("", "", "", "") if info is None else (
        info.kind, str(info.window or ""), ",".join(sorted(str(m) for m in info.models)), str(info.ignores_name))
    return template_file.digest(*_key(model), *told)
