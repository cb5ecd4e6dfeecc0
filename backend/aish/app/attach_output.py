"""Attach the last command's output to the question it belongs to, and say so.

The shell sends the terminal variables (tmux, kitty, WezTerm, recorder) with
each request; ``context.output`` reads and cleans the output, and this module
puts it into the user turn (redacted later with the rest of the message) and
sends the one status line that tells the user what left the machine.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from aish.app import receipt
from aish.config.schema import Config
from aish.ipc.protocol import Request
from aish.ipc.reply import Reply

if TYPE_CHECKING:  # (imported by a request that carries output: its readers, its cleaning)
    from aish.context.output import Output

FIX_QUESTION = ("The last command failed with exit {status}{printed}. Fix it: answer with the "
                "corrected command on a CMD: line and one short sentence why.")


def last_command(req: Request) -> str:
    return req.history[-1].command if req.history else ""


def _key(entry: Any) -> tuple:
    """A command as run: the same text with the same status and duration is the same run."""
    return (entry.command, entry.exit, entry.duration_ms)


def referenced(req: Request) -> Optional[tuple]:
    """(back, entry) of an earlier command the question names word for word, if any."""
    for back, entry in enumerate(reversed(req.history[:-1]), start=2):
        command = entry.command.strip()
        if len(command) >= 3 and command in req.text:
            return back, entry
    return None


# stopped by the user (Ctrl-C, Ctrl-Z), not failed: the shells draft no fix for them either
NOT_FAILURES = (0, 130, 148)


def last_failed(req: Request) -> Optional[tuple]:
    """(back, entry) of the newest command that failed (back 1 = the last command), or None:
    the fix is for a failure, never for a command that went well."""
    for back, entry in enumerate(reversed(req.history), start=1):
        if entry.exit is not None and entry.exit not in NOT_FAILURES:
            return back, entry
    return None


def fix_question(req: Request, out: Optional[Output]) -> str:
    """"the last command failed with exit N and printed this: fix it"."""
    found = last_failed(req)
    command = found[1].command if found else last_command(req)
    status = found[1].exit if found else (req.status if req.status is not None else "unknown")
    printed = " and printed the output below" if out is not None and out.text else ""
    head = f"Last command: {command}\n" if command else ""
    return head + FIX_QUESTION.format(status=status, printed=printed)


def read(term: dict, command: str, cfg: Config, runner: Any = None, taps: Any = None,
         back: int = 1, exit_code: Optional[int] = None) -> Optional[Output]:
    """``context.output.gather`` with the daemon's runner and tmux taps (None: the defaults)."""
    from aish.context import output as output_mod

    kwargs = {"runner": runner} if runner is not None else {}
    return output_mod.gather(term, command, cfg.context, back=back, taps=taps,
                             exit_code=exit_code, **kwargs)


def attach(cfg: Config, session: Any, req: Request, reply: Reply, question: str,
           runner: Any = None, taps: Any = None) -> tuple[str, Optional[Output]]:
    """The question with the output appended, after one status line about it.

    Only requests from an interactive shell carry output, once per command
    (a second question about it finds it in the conversation); with no source
    the user hears once per conversation how to get one.
    """
    if not req.interactive or not req.history:  # nothing ran yet: the screen is not output
        return (fix_question(req, None) if req.mode == "fix" else question), None

    def say(line: str) -> None:  # the status line, and the receipt's note of it (`aish sent`)
        reply.status(line)
        receipt.note(session, line)

    back, entry = (last_failed(req) if req.mode == "fix" else None) or (1, req.history[-1])
    sent = session.outputs_sent  # runs whose output the conversation already has
    term = {k: v for k, v in req.extra.items() if isinstance(v, str)}
    earlier = referenced(req) if req.mode == "question" else None
    if earlier is not None and _key(earlier[1]) not in sent:
        old = read(term, earlier[1].command, cfg, runner, taps, back=earlier[0],
                   exit_code=earlier[1].exit)
        if old is not None and old.status():
            say(old.status())
        if old is not None and old.text:
            sent.add(_key(earlier[1]))
            question = f"{question}\n\n{old.block()}"
    seen = _key(entry)
    if seen in sent:  # already in the conversation
        return (fix_question(req, None) if req.mode == "fix" else question), None
    out = read(term, entry.command, cfg, runner, taps, back=back, exit_code=entry.exit)
    if out is None:
        if cfg.context.command_output != "off" and not session.output_hint_said:
            session.output_hint_said = True
            from aish.context.output import HOW_TO_GET

            reply.status(HOW_TO_GET)
        if req.mode == "fix":
            return fix_question(req, None), None
        return question, None
    if out.status():
        say(out.status())
    if req.mode == "fix":
        question = fix_question(req, out)
    if out.text:
        sent.add(seen)
        question = f"{question}\n\n{out.block()}"
    return question, out
