"""Effect: a batch scheduler's jobs held, vacated, requeued, suspended, signalled or killed for everyone or for a
computed set, by any scheduler.

One job held or killed by its id is routine (``qhold 1234``, ``bkill 1234``).  The same verb given every job
(``condor_hold -all``, ``brequeue -u all 0``, ``qdel -u '*'``, ``qmod -sj '*'``, ``flux cancel --all``), the ids a
selector computes when the line runs (``qhold $(qselect -u bob)``, ``scontrol requeue $(squeue -h -t R -o %i)``),
a where-filter (``mjobctl -c -w user=bob``) or a loop over a status listing (``for h in $(condor_status -af
Machine); do condor_vacate $h; done``) stops the work of a whole cluster or of a user: hours of computation
lost or pushed back.  The verb is read in the program's name after a short or underscored prefix (``qsig``,
``brequeue``, ``condor_vacate_job``, ``canceljob``) or as its first word (``scontrol hold``, ``flux cancel``);
releasing, resuming and reading stay quiet, as does a gentle signal.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

# What a scheduler does to jobs that stops or loses their work.
_VERBS = "hold|vacate|requeue|sig|signal|kill|del|delete|rm|cancel|suspend|stop|rerun|restart|preempt|abort"
_NAMED = re.compile(rf"^([a-z]{{0,4}}|[a-z0-9]+[-_])({_VERBS})([-_]?jobs?)?$|^({_VERBS})[-_]?jobs?$")
# As a first word, only the verbs that are a scheduler's own: `docker stop $(…)` is the listing rule's.
_WORD_VERBS = frozenset({"hold", "vacate", "requeue", "rerun", "preempt", "cancel", "signal"})
_READS = frozenset({"list", "ls", "show", "status", "get", "query", "describe", "info", "stat", "release", "resume"})
# Process killers and removers are judged by their own rules: their `0`, `-a` and `*` mean other things.
_NOT_SCHEDULERS = frozenset({"kill", "pkill", "skill", "killall", "rm", "xkill", "tkill", "del", "qrm"})
_EVERY = frozenset({"-all", "--all", "all", "*", "-a", "--all-jobs", "-A"})
_USER_OPTIONS = frozenset({"-u", "--user", "-U", "--users"})
_WHERE = frozenset({"-w", "--where", "-constraint", "--constraint", "--filter", "-filter"})
_QUIET = frozenset({"--help", "-help", "help", "--dry-run", "-n", "-q", "--query", "-whatif"})
_GENTLE = lazy(r"^(-s|--signal=|-)(0|hup|sighup|usr1|sigusr1|usr2|sigusr2|cont|sigcont|winch)$", re.IGNORECASE)
_GENTLE_VALUE = lazy(r"^(0|hup|sighup|usr1|sigusr1|usr2|sigusr2|cont|sigcont|winch)$", re.IGNORECASE)
# Letters a scheduler's queue tool fuses with `j` for "jobs": `qmod -sj` suspends, `-dj` disables.
_JOB_LETTERS = lazy(r"^-(s|d|r|c)j$")


@triggered_by(_NAMED, _WORD_VERBS, ("job", "mod"), otherwise=False)
def may_scope_jobs(c: Ctx) -> bool:
    """Cheap: a scheduler's verb in the name or as the first word."""
    prog = c.prog.lower().removesuffix(".exe")
    first = c.texts[0].lower() if c.texts else ""
    return bool(c.texts) and prog not in _NOT_SCHEDULERS and (
        bool(_NAMED.match(prog)) or first in _WORD_VERBS or "job" in prog or prog.endswith("mod"))


def _scope(c: Ctx, texts: list) -> Optional[str]:
    """Every job, a computed set, or a filter; None when the jobs are named by id."""
    from aish.safety.rules.listing import from_listing
    for k, t in enumerate(texts):
        low = t.lower()
        nxt = texts[k + 1] if k + 1 < len(texts) else ""
        if low in _EVERY and not (k and texts[k - 1] in _WHERE):
            return "every job"
        if t in _USER_OPTIONS and nxt.lower() in ("all", "*", "'*'"):
            return "every user's jobs"
        if low.startswith(("--user=all", "--users=all", "-u=all")):
            return "every user's jobs"
        if t in _WHERE and "=" in nxt:
            return f"every job matching {nxt}"
    if any(w.subs for w in c.args if not w.text.startswith("-")):
        return "the jobs a selector computes"
    listing = from_listing(c)
    if listing:
        return f"every one '{listing[:30]}' lists"
    operands = [t for t in texts if not t.startswith("-")]
    if operands and operands[-1] == "0" and any(t in _USER_OPTIONS for t in texts):
        return "every job of the user (job 0)"
    return None


def rule_job_scope(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:32]
    lows = {t.lower() for t in texts}
    if lows & _QUIET or lows & _READS or any(_GENTLE.match(t) for t in texts) or \
            any(t in ("-s", "--signal") and _GENTLE_VALUE.match(texts[k + 1]) for k, t in enumerate(texts[:-1])):
        return None
    prog = c.prog.lower().removesuffix(".exe")
    named = _NAMED.match(prog)
    if named:
        verb = named.group(2) or named.group(4)
        rest = texts
    elif texts[0].lower() in _WORD_VERBS:
        verb, rest = texts[0].lower(), texts[1:]
    elif any(_JOB_LETTERS.match(t) for t in texts):
        verb, rest = next(t for t in texts if _JOB_LETTERS.match(t)), texts
    elif "job" in prog and any(t in _WHERE for t in texts):
        verb, rest = "acts on", texts
    else:
        return None
    scope = _scope(c, rest)
    if scope is None:
        return None
    return MEDIUM, f"{c.prog} {verb}: {scope} stopped, held or lost: the cluster's work with it ({c.text})"
