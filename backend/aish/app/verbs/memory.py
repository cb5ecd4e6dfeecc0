"""``aish memory`` / ``? :memory`` and ``? :remember``: the facts every answer knows.

    ? :remember TEXT            keep one fact (redacted first: a secret is never stored)
    aish memory list            the facts, numbered
    aish memory add TEXT        same as :remember
    aish memory forget N        drop fact N
    aish memory edit            (CLI) edit the list in $EDITOR; sent back as `memory replace`
    aish memory summarize       ask memory.summarizer_model to compress the list; shows
                                before/after and keeps the proposal until `memory accept`
    aish memory accept|discard  take or drop the proposal

Facts survive ``:reset``: they belong to the user, not to a conversation.
"""
from __future__ import annotations

from typing import Any

from aish.app.verbs.context import VerbContext
from aish.context.output import plural
from aish.errors import AishError
from aish.ipc.verbs import BY_NAME

USAGE = BY_NAME["memory"].synopsis


def remember(args: list[str], ctx: VerbContext) -> list[str]:
    """``? :remember TEXT`` / ``aish remember TEXT``: keep one fact (``aish memory add``)."""
    return run(["add", *args], ctx)


def run(args: list[str], ctx: VerbContext) -> list[str]:
    memory = ctx.memory
    if memory is None:
        raise AishError("memory is off (memory.enabled = false)", hint="'aish config show' names the file")
    action, rest = (args[0], args[1:]) if args else ("list", [])
    if action == "remember" or action == "add":
        stored = memory.add(" ".join(rest))
        return [f"[aish] remembered: {stored}"]
    if action == "list":
        facts = memory.facts()
        if not facts:
            return ["[aish] memory is empty ('? :remember TEXT' adds a fact)"]
        return [f"{n:>3}. {fact}" for n, fact in enumerate(facts, 1)]
    if action == "forget":
        if len(rest) != 1 or not rest[0].isdigit():
            raise AishError("memory forget: give the number of one fact", hint="'aish memory list' numbers them")
        return [f"[aish] forgot: {memory.forget(int(rest[0]))}"]
    if action == "replace":  # what `aish memory edit` sends: the edited list on stdin
        kept = memory.replace(ctx.stdin.splitlines())
        return [f"[aish] memory now holds {plural(len(kept), 'fact')}"]
    if action == "summarize":
        return _summarize(memory, ctx)
    if action in ("accept", "discard"):
        proposal = ctx.pending.pop("memory", None)
        if proposal is None:
            raise AishError("memory: no summary waiting", hint="run 'aish memory summarize' first")
        if action == "discard":
            return ["[aish] summary discarded; memory unchanged"]
        kept = memory.replace(proposal)
        return [f"[aish] memory replaced by the summary ({plural(len(kept), 'fact')})"]
    raise AishError(f"memory: unknown action '{action}'", hint=f"usage: {USAGE}")


def _summarize(memory: Any, ctx: VerbContext) -> list[str]:
    from aish.context.memory import parse_summary, summarize_messages

    facts = memory.facts()
    if len(facts) < 2:
        return ["[aish] nothing to summarize (fewer than two facts)"]
    assert ctx.complete is not None  # the row's needs name the model
    text = ctx.complete(ctx.config.memory.summarizer_model, summarize_messages(facts))
    proposal = [memory.clean(f) for f in parse_summary(text)]
    if not proposal:
        raise AishError("memory summarize: the model's answer held no '- ' fact lines; memory unchanged",
                        hint="try again or use 'aish memory edit'")
    ctx.pending["memory"] = proposal
    lines = [f"before ({plural(len(facts), 'fact')}):", *(f"  - {f}" for f in facts),
             f"after ({plural(len(proposal), 'fact')}):", *(f"  - {f}" for f in proposal),
             "[aish] 'aish memory accept' keeps the summary, 'aish memory discard' drops it"]
    return lines
