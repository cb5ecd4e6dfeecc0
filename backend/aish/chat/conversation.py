"""One conversation: turns, the rolling summary, the budget, and the messages sent.

Only the transcript and its layout; what else a shell has (usage, redactor,
attachments, the norris task...) is its ``Session`` (app/sessions.py).

Invariants that strict chat templates enforce:
exactly one system message, first; user and assistant alternate (an assistant
turn with ``tool_calls`` is followed by its ``tool`` turns); never user/user.
Eviction removes whole exchanges (a user turn and everything up to the next
user turn), oldest first, so a tool result never loses its call.
"""
from __future__ import annotations

import bisect
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from aish.chat.session_log import SessionLog
from aish.llm.events import Outgoing


@dataclass
class Turn:
    """One message of a conversation as kept: role, text, and what came with it."""

    role: str  # "user" | "assistant" | "tool"
    content: str = ""
    tool_calls: Optional[list] = None  # wire format [{"id","type","function":{"name","arguments"}}]
    tool_call_id: Optional[str] = None
    usage: Optional[dict] = None
    tokens: Optional[int] = field(default=None, compare=False)  # cached token count
    _message: Optional[dict] = field(default=None, compare=False, repr=False)  # ``message()``

    def message(self) -> dict:
        """The chat message, made once and shared by every request that sends this turn
        (never change it in place; a turn changed in place gets a new one)."""
        made = self._message
        if made is None or made["content"] is not self.content:
            made = self._message = self.to_message()
        return made

    def to_message(self) -> dict:
        message: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.tool_calls:
            message["tool_calls"] = self.tool_calls
        if self.tool_call_id:
            message["tool_call_id"] = self.tool_call_id
        return message

    def to_log(self) -> dict:
        entry: dict[str, Any] = {"type": "turn", "role": self.role, "content": self.content}
        for key in ("tool_calls", "tool_call_id", "usage"):
            if getattr(self, key):
                entry[key] = getattr(self, key)
        return entry


SummarizeFn = Callable[[Optional[str], Optional[list]], Optional[str]]


class Conversation:
    """The transcript: turns and the rolling summary, logged as they change."""

    def __init__(self, conv_id: str, log: Optional[SessionLog] = None,
                 redact: Optional[Callable[[str], str]] = None,
                 rules: Optional[Callable[[], Optional[str]]] = None) -> None:
        self.id = conv_id
        self.turns: list[Turn] = []
        self.summary: Optional[str] = None
        self.log = log
        self.redact = redact  # the session's redactor: the log on disk never holds a secret in clear
        self.rules = rules  # the digest of its rules, logged with what it redacted (``logged``)
        self._edit = threading.RLock()  # a fold in the background against a reset
        self._sent: Optional[tuple] = None  # (since, the turns, their messages) of the last to_messages
        self._weighed: Optional[tuple] = None  # what the last plan_eviction weighed (``_weigh``)

    # ------------------------------------------------------------ building
    def add(self, turn: Turn) -> Turn:
        self.turns.append(turn)
        if self.log:
            self.log.append(self.logged(turn.to_log()))
        return turn

    def logged(self, entry: dict) -> dict:
        """``entry`` as the log holds it: its ``content`` and a tool call's arguments redacted (the
        log on disk never holds a secret in clear) and tagged with the digest of the rules that
        redacted it, so that a daemon with the same rules reads it back as redacted
        (``chat/restore.py``)."""
        if self.redact is not None:
            entry["content"] = self.redact(entry["content"])
            if entry.get("tool_calls"):  # the arguments too: copies, the turn keeps what it sends
                entry["tool_calls"] = [_redacted_call(call, self.redact) for call in entry["tool_calls"]]
            rules = self.rules() if self.rules is not None else None
            if rules:
                entry["rules"] = rules
        return entry

    def add_user(self, content: str) -> Turn:
        return self.add(Turn("user", content))

    def add_assistant(self, content: str, tool_calls: Optional[list] = None,
                      usage: Optional[dict] = None) -> Turn:
        return self.add(Turn("assistant", content, tool_calls=tool_calls or None, usage=usage))

    def add_tool(self, call_id: str, content: str) -> Turn:
        return self.add(Turn("tool", content, tool_call_id=call_id))

    def drop_unanswered(self, why: str) -> bool:
        """An ask failed (or was cancelled) before any answer text: take its question
        back, so the next question is sent alone instead of glued onto it.  The log
        keeps the question, followed by a ``failed`` entry that replay honours."""
        if not self.turns or self.turns[-1].role != "user":
            return False
        self.turns.pop()
        if self.log:
            self.log.append({"type": "failed", "why": why})
        return True

    def edit(self, turn: Turn, content: str) -> None:
        """Change a kept turn's text (a question cut to fit the window), logged: a daemon that
        rebuilds the conversation from its log sends what this one sends."""
        with self._edit:
            turn.content = content
            turn.tokens = None
            self.forget_sent()
            back = next((n for n, kept in enumerate(reversed(self.turns)) if kept is turn), None)
            if self.log and back is not None:
                self.log.append(self.logged({"type": "edit", "back": back, "content": content}))

    def set_summary(self, summary: Optional[str]) -> None:
        self.summary = summary
        if self.log:
            self.log.append({"type": "summary", "text": summary})

    def reset(self) -> None:
        """Forget turns and summary (the session keeps its meter, ``Session.reset``)."""
        with self._edit:
            self.turns.clear()
            self.summary = None
            if self.log:
                self.log.append({"type": "reset"})

    # ------------------------------------------------------------ messages
    def to_messages(self, system_prompt: str, since: Optional[Turn] = None) -> Outgoing:
        """The chat messages; ``since``: the oldest turn this request sends (those before it are
        left out of it only: their fold runs in the background, ``app/after_answer.py``).

        When the turns only grew since the last call, the messages of the turns sent then are
        the same dicts and the list says so (``Outgoing.base``): what was made of them
        (redaction, counts, JSON) is reused.  Otherwise every message is built again."""
        system = system_prompt
        if self.summary:
            system = f"{system}\n\n[earlier conversation summary]\n{self.summary}"
        head = {"role": "system", "content": system}
        turns = self.turns[:]  # a copy: a fold may drop the oldest meanwhile
        start = next((i for i, turn in enumerate(turns) if turn is since), 0) if since is not None else 0
        if start:
            turns = turns[start:]
        last = self._sent
        if last is not None and last[0] is since and len(turns) >= len(last[1]) \
                and turns[:len(last[1])] == last[1]:
            base, sent_turns = last[2], last[1]
            grown = _layout(turns[len(sent_turns):], base[-1] if len(base) > 1 else None)
            if grown is not None:
                messages = Outgoing([head], base)
                messages.extend(base[1:])
                messages.extend(grown)
                base.base = None  # one level is all a step reuses
                self._sent = (since, turns, messages)
                return messages
        messages = Outgoing([head])
        messages.extend(_layout(turns, None) or ())
        self._sent = (since, turns, messages)
        return messages

    def forget_sent(self) -> None:
        """A kept turn changed in place (a question cut to fit): lay out and weigh every turn
        again."""
        self._sent = self._weighed = None

    # ------------------------------------------------------------ budget
    def exchanges(self) -> list[list[Turn]]:
        return _exchanges(self.turns)

    def enforce_budget(self, *, max_turns: int, budget_tokens: int, count: Callable[[str], int],
                       system_prompt: str = "", summarize: Optional[SummarizeFn] = None,
                       max_summary_chars: int = 2000, slack: float = 0.0,
                       status: Callable[[str], None] = lambda line: None) -> int:
        """Evict the oldest exchanges while over ``max_turns`` or the token budget.

        The newest exchange always stays.  Returns how many turns were evicted.
        With ``slack`` (0..0.9) an eviction goes that fraction below both limits.
        With ``summarize`` the evicted turns are folded into the rolling summary;
        a summarizer that returns None means silent eviction with one status line.
        """
        evicted, reason = self.plan_eviction(max_turns=max_turns, budget_tokens=budget_tokens, count=count,
                                             system_prompt=system_prompt, slack=slack, status=status)
        if not evicted:
            return 0
        summary = self.summarize_evicted(evicted, summarize, max_summary_chars)
        self.apply_eviction(evicted, summary)
        if summarize is None:
            status(f"context: evicted {len(evicted)} oldest turns ({reason})")
        elif summary:
            status(f"context: summarized {len(evicted)} evicted turns")
        else:
            status(f"context: summarizer failed; evicted {len(evicted)} oldest turns without a summary")
        return len(evicted)

    def plan_eviction(self, *, max_turns: int, budget_tokens: int, count: Callable[[str], int],
                      system_prompt: str = "", slack: float = 0.0, ahead: bool = False,
                      status: Callable[[str], None] = lambda line: None) -> tuple[list[Turn], str]:
        """The oldest turns ``enforce_budget`` would evict, and why ("max_turns" or "token
        budget"); nothing changes.  ``ahead``: as if one more exchange of the usual (median)
        size were coming, so that it finds room (a fold after an answer, ``app/after_answer.py``, plans
        on a snapshot, summarizes holding nothing, then applies with ``apply_eviction``)."""
        turns, kept_tokens, starts, sizes, closed = self._weigh(count)
        fixed = count(system_prompt) + (count(self.summary) if self.summary else 0)
        groups = len(sizes)
        total = fixed + kept_tokens
        newest = fixed + (sizes[-1] if sizes else 0)
        last = _median_with(closed, sizes[-1]) if sizes else 0  # a typical exchange (a big paste is not)
        if newest > budget_tokens:
            # the newest exchange alone is over the budget: evicting the turns before it
            # cannot make it fit, so they stay (only max_turns still applies)
            if fixed > budget_tokens:  # what fills it is sent with every question (many MCP tools)
                status(f"context: the system message and the tools' schemas alone take {fixed:,} of "
                       f"context.budget_tokens ({budget_tokens:,} tokens): offer fewer tools "
                       f"(enabled_tools / disabled_tools of a server) or raise the budget")
            else:
                status(f"context: this question alone is over context.budget_tokens ({budget_tokens:,} "
                       f"tokens): earlier turns kept")
            budget_tokens, last = total, 0
        coming = (1, last) if ahead else (0, 0)  # the exchange to make room for
        if groups + coming[0] > max_turns or total + coming[1] > budget_tokens:
            # Once evicting, go down to a low-water mark (``slack`` below the limits): a
            # local server's prompt cache is lost at every eviction, so evict rarely, in
            # batches, rather than one exchange on every ask at the limit.
            low_turns = max(1, max_turns - int(max_turns * slack))
            low_tokens = int(budget_tokens * (1 - slack))
            # ahead: the mark with the coming exchange counted in, so that folds come as often
            # as they did when the fold waited for the question (and cost no more summaries)
            max_turns = max(1, low_turns - coming[0])
            budget_tokens = low_tokens - coming[1]
        out = 0  # exchanges evicted, oldest first
        while groups - out > 1 and (groups - out > max_turns or total > budget_tokens):
            total -= sizes[out]
            out += 1
        evicted = turns[:starts[out]] if out else []
        return evicted, "max_turns" if groups - out >= max_turns else "token budget"

    def reweigh_questions(self) -> None:
        """Weigh every question again when next weighed: some were weighed by upper bounds that
        are counts now (``TokenCounter.settle``); the answers keep their weights."""
        for turn in self.turns:
            if turn.role == "user":
                turn.tokens = None
        self._weighed = None

    def reweigh(self, turn: Turn) -> None:
        """Count ``turn`` again when next weighed (it was weighed by a bound, ``TokenCounter.defer``).
        What was weighed before the exchange it belongs to is kept: the next weighing adds up
        that exchange and the turns after it only (the newest question's: a few turns, not the
        whole conversation again on every ask)."""
        turn.tokens = None
        kept, self._weighed = self._weighed, None
        if kept is None:
            return
        turns, total, starts, sizes, closed = kept
        at = next((i for i in range(len(turns) - 1, -1, -1) if turns[i] is turn), None)
        if at is None:
            return
        group = bisect.bisect_right(starts, at) - 1
        if group <= 0:
            return  # the first exchange: nothing before it to keep
        closed = closed[:]
        for size in sizes[group - 1:len(sizes) - 1]:  # the prefix's newest exchange is open again
            del closed[bisect.bisect_left(closed, size)]
        self._weighed = (turns[:starts[group]], total - sum(sizes[group:]), starts[:group], sizes[:group], closed)

    def _weigh(self, count: Callable[[str], int]) -> tuple[list[Turn], int, list[int], list[int], list[int]]:
        """A snapshot of the turns (an ask may append meanwhile), the sum of their tokens, per
        exchange the index of its first turn and its tokens, and the sizes of every exchange but
        the newest, sorted (for the median, without sorting them all on every ask).  Each turn is
        counted once (``Turn.tokens``) and, while the turns only grow, only the new ones are added
        up: a conversation is weighed before every ask and by the fold after it."""
        turns = list(self.turns)
        kept = self._weighed
        if kept is not None and len(turns) >= len(kept[0]) and turns[:len(kept[0])] == kept[0]:
            done, total, starts, sizes, closed = len(kept[0]), kept[1], kept[2][:], kept[3][:], kept[4]
        else:
            done, total, starts, sizes, closed = 0, 0, [], [], []
        copied = False  # ``closed`` is the kept one's until an exchange closes (copied once then)
        for i in range(done, len(turns)):
            turn = turns[i]
            if turn.tokens is None:
                turn.tokens = count(turn.content) + (count(str(turn.tool_calls)) if turn.tool_calls else 0)
            if turn.role == "user" or not starts:
                if sizes:
                    if not copied:
                        closed, copied = closed[:], True
                    bisect.insort(closed, sizes[-1])
                starts.append(i)
                sizes.append(0)
            sizes[-1] += turn.tokens or 0
            total += turn.tokens or 0
        self._weighed = (turns, total, starts, sizes, closed)
        return turns, total, starts, sizes, closed

    def summarize_evicted(self, evicted: list[Turn], summarize: Optional[SummarizeFn],
                          max_summary_chars: int = 2000) -> Optional[str]:
        """The rolling summary with ``evicted`` folded in (None: no summarizer, or it failed)."""
        if summarize is None or not evicted:
            return None
        new_summary = summarize(self.summary, [t.to_message() for t in evicted])
        if new_summary and len(new_summary) > max_summary_chars:
            compressed = summarize(new_summary, None)
            new_summary = compressed or new_summary[:max_summary_chars]
        return new_summary or None

    def apply_eviction(self, evicted: list[Turn], summary: Optional[str]) -> bool:
        """Drop ``evicted`` (still the oldest turns) and keep ``summary`` when there is one.
        False, and nothing changed, when they are no longer the oldest (a reset meanwhile)."""
        n = len(evicted)
        with self._edit:
            if not n or len(self.turns) < n or any(a is not b for a, b in zip(self.turns, evicted)):
                return False
            del self.turns[:n]
            if self.log:
                self.log.append({"type": "evict", "n": n})
            if summary:
                self.set_summary(summary)
        return True


def _redacted_call(call: Any, redact: Callable[[str], str]) -> Any:
    """A tool call (wire format) with its arguments redacted, as the log holds it."""
    function = call.get("function") if isinstance(call, dict) else None
    if not isinstance(function, dict) or not isinstance(function.get("arguments"), str):
        return call
    return {**call, "function": {**function, "arguments": redact(function["arguments"])}}


def _layout(turns: list[Turn], previous: Optional[dict]) -> Optional[list[dict]]:
    """The messages of ``turns`` after ``previous`` (the last message already laid out, None
    after the system message).  Strict chat templates want user and assistant to alternate:
    a user turn left unanswered (a failed or cancelled ask) is merged with the next, and an
    assistant turn first (its user turn evicted) is left out.  A merge into ``previous``
    would change a message already laid out: None (lay them all out again)."""
    out: list[dict] = []
    for turn in turns:
        message = turn.message()
        before = out[-1] if out else previous
        role = message["role"]
        if before is not None and before["role"] == role and role in ("user", "assistant") \
                and not before.get("tool_calls") and not message.get("tool_calls"):
            if not out:
                return None  # it would change ``previous``, a message already laid out
            out[-1] = dict(before, content=f"{before['content']}\n\n{message['content']}".strip())
            continue
        if role == "assistant" and before is None:
            continue  # a leading assistant turn (its user turn was evicted) would break templates
        out.append(message)
    return out


def _median_with(ordered: list[int], value: int) -> int:
    """``sorted(ordered + [value])[(len(ordered) + 1) // 2]`` without building it (``ordered`` is sorted)."""
    k = (len(ordered) + 1) // 2
    at = bisect.bisect_right(ordered, value)
    if k < at:
        return ordered[k]
    return value if k == at else ordered[k - 1]


def _exchanges(turns: list[Turn]) -> list[list[Turn]]:
    """The turns grouped by question: a user turn and what answered it."""
    groups: list[list[Turn]] = []
    for turn in turns:
        if turn.role == "user" or not groups:
            groups.append([turn])
        else:
            groups[-1].append(turn)
    return groups
