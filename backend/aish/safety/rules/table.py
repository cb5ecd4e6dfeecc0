"""From program name to the effect rules that judge it, and the rule that follows
commands given as text (``bash -c``, ``eval``, ``watch``, ``su -c``, ``ssh host cmd``,
``docker exec … sh -c``, an interpreter's heredoc)."""
from __future__ import annotations

from typing import Optional

from aish.safety.command_line import harmless
from aish.safety.rules import content, delete, history, lockout, mass, netexec, perms, remote, shellstate
from aish.safety.rules.common import Ctx, skip_opts, worst

_SHELLS = {"sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "ash", "su", "runuser", "tcsh", "csh"}
_SSH_VALUED = set("-b -c -D -E -e -F -I -i -J -L -l -m -O -o -p -Q -R -S -W -w -B -P".split())


def rule_exec_string(c: Ctx) -> Optional[tuple]:
    """Judge the command inside ``bash -c '…'``, ``eval …``, ``ssh host …`` and heredocs fed to a shell."""
    texts = c.texts
    inner, where = None, ""
    if c.prog in _SHELLS:
        for i, t in enumerate(texts[:-1]):
            if t == "-c" or (t.startswith("-") and not t.startswith("--") and t.endswith("c")):
                inner = texts[i + 1]
                break
        if inner is None:
            bodies = [r.body for r in c.seg.redirects if r.body] + \
                     [r.target.text for r in c.seg.redirects if r.op == "<<<" and r.target is not None]
            inner = "\n".join(bodies) or None
    elif c.prog in ("eval", "watch"):
        inner = " ".join(skip_opts(c.args, {"-n", "--interval", "-d"}))
    elif c.prog in ("ssh", "mosh", "autossh"):
        rest = skip_opts(c.args, _SSH_VALUED)
        if len(rest) > 1:
            inner, where = " ".join(rest[1:]), f" on {rest[0]}"
        else:
            bodies = [r.body for r in c.seg.redirects if r.body]
            if bodies and rest:
                inner, where = "\n".join(bodies), f" on {rest[0]}"
    elif c.prog in ("docker", "podman", "kubectl-exec", "lxc", "incus", "vagrant", "multipass"):
        if "exec" in texts[:3] or "run" in texts[:3] or "ssh" in texts[:2]:
            for i, t in enumerate(texts):
                if t == "-c" and i + 1 < len(texts) and i > 0:
                    inner, where = texts[i + 1], " inside a container"
                    break
    found = c.recurse(inner) if inner else None
    if found is not None and where:
        found = (found[0], found[1] + where)
    return found


_TABLES = (delete.RULES, content.RULES, perms.RULES, lockout.RULES, history.RULES, mass.RULES, remote.RULES,
           netexec.RULES, shellstate.RULES)
RULES: dict = {}
for _table in _TABLES:
    for _prog, _rules in _table.items():
        RULES.setdefault(_prog, [])
        RULES[_prog] = RULES[_prog] + [r for r in _rules if r not in RULES[_prog]]
for _p in _SHELLS | {"eval", "watch", "ssh", "mosh", "autossh", "docker", "podman", "lxc", "incus", "vagrant",
                     "multipass"}:
    RULES.setdefault(_p, []).append(rule_exec_string)


def known(prog: str) -> bool:
    """Does a rule look at this program (so an unflagged verdict means "judged harmless")?"""
    return prog in RULES or prog.startswith("mkfs")


def check(c: Ctx) -> Optional[tuple]:
    if harmless(c.prog, c.texts):
        return None  # a dry run, help, signal 0: only says what would happen
    rules = RULES.get(c.prog) or RULES.get(c.prog.lower())
    if rules is None and c.prog.startswith(("mkfs", "mkfs.")):
        rules = [content.rule_mkfs]
    best = None
    for rule in rules or ():
        best = worst(best, rule(c))
    return best
