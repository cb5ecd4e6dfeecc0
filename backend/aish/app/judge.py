"""Judging suggested commands: the local verdict, a second opinion, and a preview.

The same judgement serves an ask's suggestions, ``:explain`` and every Norris step, so a
step is never judged more leniently than a suggestion.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from aish.ipc.protocol import Request
from aish.ipc.reply import Reply

if TYPE_CHECKING:
    from aish.app.model_call import Caller


def judge(caller: "Caller", commands: list, req: Optional[Request],
          reply: Reply) -> list[tuple[Optional[str], Optional[str], Optional[str]]]:
    """(level, reason, preview) per command: the local verdict against the shell's cwd, a
    second opinion (costed ``probe``, cached) and a preview of what a flagged one would touch.

    With ``safety.llm_model`` medium and unknown commands wait for its opinion at most
    ``llm_timeout``; without it, a local default model is asked about unknown writers after
    the answer (``second_opinion = "auto"``), and its cached opinion serves the next time."""
    from aish.app.verdicts import assess, unknown_writer  # judged once per exact input

    env = caller.env
    cfg = env.config
    verdicts = {i: assess(c, cwd=req.cwd if req else "") for i, c in enumerate(commands)}
    waited = bool(cfg.safety.llm_model)
    if waited or cfg.safety.second_opinion == "auto" and cfg.model().is_local:
        from aish.safety.opinions import SHARED

        levels = {i: v.level if v is not None else None for i, v in verdicts.items()}
        jobs = [(i, caller.redact(command), verdicts[i]) for i, command in enumerate(commands)  # cached as sent
                if waited and levels[i] == "medium" or levels[i] is None and unknown_writer(command)]
        if jobs:
            opinions = env.opinions or SHARED
            if waited:
                complete = caller.completer("probe", reply)  # costed, redacted, quiet, no fallback
                found = opinions.gather(jobs, cfg.model(cfg.safety.llm_model), complete, cfg.safety.llm_timeout)
            else:  # after the answer, on the local model; the next time it is in the cache
                found = opinions.background(jobs, cfg.model(), caller.completer("probe"), cfg.safety.llm_timeout)
            for i, second in found.items():
                verdicts[i] = second or verdicts[i]
    judged: list[tuple[Optional[str], Optional[str], Optional[str]]] = []
    for i, command in enumerate(commands):
        verdict = verdicts[i]
        judged.append((verdict.level, verdict.reason, preview(command, req, reply)) if verdict
                      else (None, None, None))
    return judged


VARS_TIMEOUT = 2.0   # seconds a shell may take to send its variables (it needs milliseconds)


def preview(command: str, req: Optional[Request], reply: Reply) -> Optional[str]:
    """What a flagged command would touch, against the shell's cwd and variables (secrets masked).

    A shell that said ``vars=ask`` is asked for its variables here, at the first flagged
    command of the request that has anything to preview, and never before its answer: most
    answers flag nothing, and most flagged commands expand nothing (``may_note``)."""
    from aish.safety import preview as safety_preview
    from aish.safety.secrets import mask

    if not safety_preview.may_note(command):
        return None
    if req is not None and req.vars_on_request:
        req.vars_on_request = False    # asked once per request, answered or not
        fetched = reply.variables(VARS_TIMEOUT)
        if fetched is not None:
            req.env.update(fetched)
            req.env_complete = True

    view = safety_preview.ShellView(cwd=req.cwd if req else "", env=dict(req.env) if req else {},
                                    complete=bool(req and req.env_complete))
    line = safety_preview.preview(command, view)
    return mask(line) if line else None
