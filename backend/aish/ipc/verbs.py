"""The verb table: every meta verb aish knows, defined once.

A verb is what ``aish <verb>`` runs from a terminal and ``? :verb`` runs in the
shell.  The CLI builds its commands from this table, the daemon finds the
module ``aish.app.verbs.<name>`` for each entry, ``aish help`` / ``? :help``
print it, and a test keeps ``docs/verbs.md`` equal to it.  Pure data: the
console entry imports it before it forks the daemon, so it stays cheap and
imports nothing of aish (not even ``errors``: that alone would double the
entry's import time).
"""
from __future__ import annotations

class Verb:
    """One verb: its name, its argument synopsis and one line saying what it does.

    A plain class: a NamedTuple or dataclass costs more to build than the rest
    of this module, which loads before the daemon is forked.
    """

    __slots__ = ("name", "usage", "help", "daemon")

    def __init__(self, name: str, usage: str, help: str, daemon: bool = True) -> None:
        self.name = name
        self.usage = usage
        self.help = help
        self.daemon = daemon  # False: the CLI answers it itself, without starting the daemon

    @property
    def synopsis(self) -> str:
        """``aish NAME USAGE``, as usage errors and the docs print it."""
        return f"aish {self.name} {self.usage}".rstrip()


VERBS: tuple[Verb, ...] = (
    Verb("reset", "", "start the conversation afresh (usage totals are kept)"),
    Verb("status", "", "what the daemon is using (models, routing, fallback)"),
    Verb("route", "on|off|classes|check TEXT", "model routing by task"),
    Verb("fallback", "on|off", "retry once on the fallback model when the local one fails"),
    Verb("cost", "[detail|reset] [--today|--week|--all] [--json]", "tokens and money"),
    Verb("mcp", "list|tools|tool NAME|connect URL [ALIAS]|disconnect ALIAS", "MCP tool servers"),
    Verb("explain", "[COMMAND]", "explain a command piece by piece (in the shell: the prompt line)"),
    Verb("fix", "", "fix the last command from its exit status and output (in the shell: Ctrl-X Ctrl-F)"),
    Verb("remember", "TEXT", "keep a fact every answer knows (redacted; survives reset)"),
    Verb("memory", "[list|add TEXT|forget N|edit|summarize|accept|discard]", "the remembered facts"),
    Verb("tree", "[DEPTH]", "attach the project's file tree to the next question"),
    Verb("diff", "", "attach the staged and unstaged git diff to the next question"),
    Verb("trust", "[--revoke]", "trust this project's AISH.md and .aish.toml as they are now"),
    Verb("delegate", "MODEL TASK", "one task for another configured model (costed as delegate)"),
    Verb("norris", "[GOAL|resume]", "work toward GOAL step by step, each step on the prompt line"),
    Verb("halt", "", "stop this shell's norris task"),
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
