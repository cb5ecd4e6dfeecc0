"""``aish ask`` and the verbs that only talk to the daemon, without loading click.

A warm ``aish ask`` spent most of its process importing: click alone was a third of it,
the rest what the client pulled in without using (platformdirs, subprocess, hashlib,
dataclasses, typing).  The plain forms of these commands are parsed here and run with the
client, the wire codec and the printer only; anything else (help, an option this does not
know, a missing question, ``--``, ``memory`` and ``mcp``, which may need this terminal) returns None and
click parses it as before, so usage errors, help and exit statuses stay click's own.
Each command's words mean the same on both paths (a test compares them).
"""
from __future__ import annotations

_ASK_FLAGS = {"--json": "as_json", "-c": "cont", "--continue": "cont", "--no-stdin": "no_stdin"}
# cli/main.py's _CLI_SIDE (a test keeps them equal): `memory edit` opens $EDITOR, `summarize`
# asks to keep it; `mcp login` signs in from this terminal
_CLICK_ONLY = frozenset({"memory", "mcp"})


def parse(argv: list[str]) -> tuple | None:
    """``("ask", question, as_json, cont, conv, no_stdin)`` or ``("verb", name, args)``;
    None: not a form this path takes (click decides)."""
    from aish.ipc.verbs import BY_NAME

    if not argv:
        return None
    name, words = argv[0], argv[1:]
    if name == "ask":
        return _ask(words)
    verb = BY_NAME.get(name)
    if verb is None or not verb.daemon or name in _CLICK_ONLY:
        return None
    if any(word in ("--", "-h", "--help") for word in words):
        return None
    return "verb", name, list(words)


def _ask(words: list[str]) -> tuple | None:
    flags = {"as_json": False, "cont": False, "no_stdin": False}
    conv = None
    question: list[str] = []
    rest = iter(words)
    for word in rest:
        if word in _ASK_FLAGS:
            flags[_ASK_FLAGS[word]] = True
        elif word == "--conv":
            conv = next(rest, None)
            if conv is None or conv.startswith("-"):
                return None
        elif word.startswith("--conv="):
            conv = word[len("--conv="):]
        elif word.startswith("-"):
            return None  # help, `--`, an option click reads its own way
        else:
            question.append(word)
    if not question:
        return None  # click says what is missing
    return "ask", " ".join(question), flags["as_json"], flags["cont"], conv, flags["no_stdin"]


def run(argv: list[str]) -> int | None:
    """The command's exit status, or None when click must run it."""
    parsed = parse(argv)
    if parsed is None:
        return None
    from aish.cli.outcome import guarded

    return guarded(lambda: _send(parsed))


def _send(parsed: tuple) -> None:
    from aish.cli import conversations, printer

    if parsed[0] == "ask":
        _, question, as_json, cont, conv, no_stdin = parsed
        printer.send("ask", text=question, stdin=printer.stdin_text(no_stdin), as_json=as_json,
                     conv=conversations.for_ask(conv, cont))
    else:
        _, name, args = parsed
        printer.send("verb", argv=[name, *args])
