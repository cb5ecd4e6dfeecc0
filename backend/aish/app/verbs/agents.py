"""``? :agents``: who is connected through ``aish mcp-server``, what they read and proposed.

The same verb carries the bridge's own requests, as ``norris --ran`` carries a task's:
the shell's ``--take`` (the terminal answered the daemon's status request: an agent's
proposal may wait), ``--ran STATUS MS COMMAND``, ``--own STATUS MS COMMAND`` (the user ran
the line they had typed, never the proposal) and ``--dismissed`` (what became of it),
and ``aish mcp-server``'s ``--hello``, ``--bye``, ``--context``, ``--output`` and
``--propose`` (their arguments travel in the request's fields).  The work is in app/bridge.
"""
from __future__ import annotations

from aish.app.verbs.context import AgentFor, VerbContext
from aish.errors import UsageError

_PLAIN = {"--take", "--dismissed", "--hello", "--bye", "--context", "--output", "--propose"}
_HINT = "the shell integration and aish mcp-server send it"


def run(args: list[str], ctx: VerbContext) -> AgentFor:
    if not args:
        return AgentFor("list", json=ctx.json)
    word = args[0]
    if word in ("--ran", "--own"):  # --own: the user's own line ran, the proposal never on it
        if len(args) < 4:
            raise UsageError(f"agents {word} needs STATUS MS COMMAND", hint=_HINT)
        try:
            status, ms = int(args[1]), int(args[2])
        except ValueError:
            raise UsageError(f"agents {word}: '{args[1]} {args[2]}' are not numbers", hint=_HINT) from None
        return AgentFor("ran", status=status, ms=ms, command=" ".join(args[3:]), own=word == "--own")
    if word in _PLAIN:
        return AgentFor(word[2:], typing="--typing" in args[1:])
    raise UsageError(f"agents takes no argument '{word}'", hint="usage: aish agents [--json]")
