"""``? :explain``: ask a model to explain the command on the prompt line, piece by piece.

The pieces come from the same parser as the safety check (``shlex_parse``),
so the model is told exactly which words, options, pipes and redirections to
cover and cannot skip the dangerous one.  The request forbids ``CMD:``
lines: explaining must never change the buffer.
"""
from __future__ import annotations

from aish.safety.shell_words import pieces

_SYSTEM = (
    "You explain {shell} commands to the person about to run them. Explain the command "
    "piece by piece, in order: one line per piece, formatted as `piece` - what it does here. "
    "For a bundled short option such as -xzf, explain each letter. Mention what a pipe or "
    "redirection connects. If a piece deletes, overwrites or sends data somewhere, say so plainly. "
    "End with one sentence saying what the whole command does. "
    "Do not suggest changes, alternatives, fixes or improvements, and never write a line that "
    "starts with \"CMD:\": the command stays exactly as it is."
)


def split_pieces(command: str) -> list[str]:
    """The words and operators a user would want explained, as typed (quotes kept).

    Redirections keep their target (``2>&1``, ``> out.txt``); command
    substitutions stay one piece (the model explains what is inside).
    """
    try:
        return pieces(command)
    except Exception:  # never fail an explain over parsing: fall back to whitespace words
        return command.split()


def explain_messages(command: str, shell: str) -> list[dict]:
    """Chat messages asking for a piece-by-piece explanation without suggestions."""
    shell_name = shell if shell in ("zsh", "bash") else "shell"
    listed = "\n".join(f"- {piece}" for piece in split_pieces(command))
    user = (f"Explain this {shell_name} command piece by piece:\n```\n{command}\n```\n"
            f"The pieces, in order:\n{listed}")
    return [{"role": "system", "content": _SYSTEM.format(shell=shell_name)},
            {"role": "user", "content": user}]
