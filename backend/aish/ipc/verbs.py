"""The verb table: every meta verb aish knows, defined once.

A verb is what ``aish <verb>`` runs from a terminal and ``? :verb`` runs in the
shell.  A row is the whole declaration: name, synopsis, help line, the handler
that runs it in the daemon (``module:function`` under ``aish.app.verbs``) and the
parts of the daemon's state it needs (``config``, ``session``, ``ledger``,
``mcp``, ``memory``, ``project``, ``model``; the service builds only those).  The
CLI builds its commands from this table, the daemon dispatches through it,
``aish help`` / ``? :help`` print it, and a test keeps ``docs/verbs.md`` equal to
it.  Pure data: the
console entry imports it before it forks the daemon, so it stays cheap and
imports nothing of aish (not even ``errors``: that alone would double the
entry's import time).
"""
from __future__ import annotations

class Verb:
    """One verb: its name, its argument synopsis, one line saying what it does, its handler
    and its needs.

    A plain class: a NamedTuple or dataclass costs more to build than the rest
    of this module, which loads before the daemon is forked.
    """

    __slots__ = ("name", "usage", "help", "handler", "needs", "daemon")

    def __init__(self, name: str, usage: str, help: str, handler: str = "",
                 needs: tuple = (), daemon: bool = True) -> None:
        self.name = name
        self.usage = usage
        self.help = help
        self.handler = f"aish.app.verbs.{handler or name + ':run'}"  # module:function
        self.needs = frozenset(needs)
        self.daemon = daemon  # False: the CLI answers it itself, without starting the daemon

    @property
    def synopsis(self) -> str:
        """``aish NAME USAGE``, as usage errors and the docs print it."""
        return f"aish {self.name} {self.usage}".rstrip()


_PROJECT = ("config", "session", "project")
_MEMORY = ("config", "session", "memory", "model")
VERBS: tuple[Verb, ...] = (
    Verb("reset", "", "start the conversation afresh (usage totals are kept)",
         needs=("session",)),
    Verb("status", "", "what the daemon is using (models, routing, fallback)", needs=("config",)),
    Verb("route", "on|off|classes|check TEXT", "model routing by task", needs=("config",)),
    Verb("fallback", "on|off", "retry once on the fallback model when the local one fails",
         needs=("config",)),
    Verb("cost", "[detail|reset|raise [DOLLARS]] [--today|--week|--all] [--json]", "tokens and money",
         needs=("config", "session", "ledger")),
    Verb("mcp", "list|tools|tool NAME|connect URL [ALIAS]|connect --stdio ALIAS -- CMD|disconnect ALIAS"
         "|login ALIAS|login URL [ALIAS]|resources|resource URI|prompts|prompt NAME [ARG=VALUE...]",
         "MCP tool servers, their resources and prompts", needs=("config", "mcp", "session")),
    Verb("explain", "[COMMAND]", "explain a command piece by piece (in the shell: the prompt line)"),
    Verb("fix", "", "fix the last command from its exit status and output (in the shell: Ctrl-X Ctrl-F)"),
    Verb("remember", "TEXT", "keep a fact every answer knows (redacted; survives reset)",
         handler="memory:remember", needs=_MEMORY),
    Verb("memory", "[list|add TEXT|forget N|edit|summarize|accept|discard]", "the remembered facts",
         needs=_MEMORY),
    Verb("sent", "[--all] [--json]", "what the last ask sent to the model, after redaction",
         needs=("session",)),
    Verb("tree", "[DEPTH]", "attach the project's file tree to the next question",
         handler="repo:tree", needs=_PROJECT),
    Verb("diff", "", "attach the staged and unstaged git diff to the next question",
         handler="repo:diff", needs=_PROJECT),
    Verb("trust", "[--revoke]", "trust this project's AISH.md and .aish.toml as they are now",
         handler="repo:trust", needs=_PROJECT),
    Verb("delegate", "MODEL TASK", "one task for another configured model (costed as delegate)",
         needs=("model",)),
    Verb("norris", "[GOAL|resume]", "work toward GOAL step by step, each step on the prompt line",
         needs=("config", "session")),
    Verb("halt", "", "stop this shell's norris task", needs=("session",)),
    Verb("agents", "[--json]", "the coding agents connected through 'aish mcp-server', what they read "
         "and proposed", needs=("config",)),
    Verb("help", "", "list these verbs", daemon=False),
)

BY_NAME: dict[str, Verb] = {verb.name: verb for verb in VERBS}

# Words that mean "help" when they come first (``aish -h`` is click's own).
HELP_WORDS = frozenset({"help", "-h", "--help"})


def help_lines() -> list[str]:
    """What ``aish help`` and ``? :help`` print: each verb with its usage, then what it does."""
    lines = ["aish verbs ('aish VERB ...' in a terminal, '? :VERB ...' in the shell):"]
    for verb in VERBS:
        head = f"  {verb.name} {verb.usage}".rstrip()
        lines += [f"{head:<36}{verb.help}"] if len(head) < 35 else [head, f"{'':<36}{verb.help}"]
    lines.append("other commands (ask, shell, init, doctor, daemon, config): aish --help")
    return lines


def one_line_help(verb: Verb) -> str:
    """The help line as a sentence, for ``aish --help``."""
    return f"{verb.help[:1].upper()}{verb.help[1:]}: {verb.synopsis}."
