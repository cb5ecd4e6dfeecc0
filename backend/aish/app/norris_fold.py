"""Shortening a Norris task's transcript when it outgrows the planner's context window.

Every step adds the planner's answer and a report (the command, its status, what it printed), so
a long task outgrew a small local window and every next planner call failed: the task halted
with "the planner failed".  The ask path folds old turns into a model-written summary; the
planner may not (its system message stays byte-identical over the task, no summary: norris.py),
and a summary call would itself need the window that is full.  So the fold here is written by
aish, not by a model: the oldest steps become one line each (command, exit status, duration) in
the goal's message, and their answers and printed output leave the transcript.  What the
planner needs most stays whole: the goal, and the newest steps.

Each notch keeps fewer whole steps (KEEP_STEPS); when only the newest report is left and it
still does not fit, its printed output is cut.  The shortened transcript is the task's own from
then on (saved with it), so the next call does not pay for the fold again.
"""
from __future__ import annotations

from typing import Optional

from aish.app.norris_task import Task

KEEP_STEPS = (4, 2, 1)  # whole steps kept at each notch, newest first
DIGEST_MARK = "\n\n[earlier steps, one line each: their answers and output were left out to fit the window]"
LONGEST_COMMAND = 80  # characters of a command quoted in the digest (about 25 tokens)
LONGEST_DIGEST = 40  # digest lines shown at most; older ones are counted, not listed
TOKENS_PER_DIGEST_LINE = 120  # a window of N tokens lists N/120 lines: a quarter of it at most
OUTPUT_CUT = "\n[output left out: the step's report did not fit the model's window]"


def shorten(task: Task, window: Optional[int] = None) -> Optional[str]:
    """Shorten ``task.messages`` by one notch, in place; what was done, for a status line, or
    None when nothing is left to shorten (the goal and the newest report alone do not fit).
    ``window``: the model's context window when known, which bounds the digest's length."""
    messages = task.messages
    starts = _step_starts(messages)
    for keep in KEEP_STEPS:
        if len(starts) > keep:
            cut = starts[-keep]
            folded = sum(1 for m in messages[1:cut] if _is_report(m))
            task.folded += folded
            messages[1:cut] = []
            shown = LONGEST_DIGEST if not window else max(3, min(LONGEST_DIGEST, window // TOKENS_PER_DIGEST_LINE))
            messages[0] = {**messages[0], "content": _with_digest(messages[0]["content"], task, shown)}
            return f"{folded} earlier step{'s' if folded != 1 else ''} kept as one line each"
    return _cut_newest_output(messages)


def _step_starts(messages: list) -> list[int]:
    """Indices where a kept tail may begin: a planner answer (the step it proposed, then the
    report), never a tool result, whose call must stay with it.  The first message (the goal)
    is never folded."""
    return [i for i, m in enumerate(messages) if i > 0 and m.get("role") == "assistant"
            and i < len(messages) - 1]


def _is_report(message: dict) -> bool:
    return message.get("role") == "user" and str(message.get("content", "")).startswith("Step ")


def _with_digest(first: str, task: Task, most: int) -> str:
    """The goal's message, then one line per folded step (the newest ``most``), from the task's
    record of what ran."""
    goal = first.split(DIGEST_MARK, 1)[0]
    folded = task.ran[:task.folded]
    shown = folded[-most:]
    lines = [f"({len(folded) - len(shown)} older steps not listed)"] if len(folded) > len(shown) else []
    first_shown = len(folded) - len(shown) + 1
    for n, (command, status, ms) in enumerate(shown, first_shown):
        quoted = command if len(command) <= LONGEST_COMMAND else command[:LONGEST_COMMAND] + "…"
        lines.append(f"{n}. `{quoted}` exit status {status}, {ms} ms")
    return goal + DIGEST_MARK + "\n" + "\n".join(lines)


def _cut_newest_output(messages: list) -> Optional[str]:
    """The newest report without what the step printed (its first line says what ran)."""
    last = messages[-1]
    content = str(last.get("content", ""))
    status = content.find("\nexit status ")
    printed = content.find("\n\n", status)
    if last.get("role") != "user" or OUTPUT_CUT in content or status < 0 or printed < 0:
        return None
    messages[-1] = {**last, "content": content[:printed] + OUTPUT_CUT}
    return "the newest step's output left out"
