"""Commands given as text to another command: ``bash -c '…'``, ``eval …``, ``watch``, ``su -c``,
``ssh host …``, ``docker exec … sh -c``, a heredoc fed to a shell; each judged as if typed."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety import program_names
from aish.safety.rules import embedded
from aish.safety.rules.common import Ctx, skip_opts

_VERSIONED = re.compile(r"(?<=[a-z])[\d.]+$")  # python3.12 -> python, ruby3.3 -> ruby

_SHELLS = {"sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "ash", "su", "runuser", "tcsh", "csh", "at", "batch"}
_SSH_VALUED = set("-b -c -D -E -e -F -I -i -J -L -l -m -O -o -p -Q -R -S -W -w -B -P".split())


def rule_exec_string(c: Ctx) -> Optional[tuple]:
    """Judge the command inside ``bash -c '…'``, ``eval …``, ``ssh host …`` and heredocs fed to a shell."""
    texts = c.texts
    inner, where = None, ""
    if c.prog in _SHELLS or _VERSIONED.sub("", c.prog) in _SHELLS or \
            program_names.canonical(c.prog) in _SHELLS:  # ksh93, bash5, bash-5.2
        for i, t in enumerate(texts[:-1]):
            if t == "-c" or (t.startswith("-") and not t.startswith("--") and t.endswith("c")):
                inner = embedded.with_positionals(texts[i + 1], texts[i + 2:])  # sh -c 'rm -rf "$1"' _ ~
                break
        if inner is None:
            bodies = [r.body for r in c.seg.redirects if r.body] + \
                     [r.target.text for r in c.seg.redirects if r.op == "<<<" and r.target is not None]
            inner = "\n".join(bodies) or None
        fed = c.chain[-1].words if c.chain else []
        if inner is None and c.prog in ("at", "batch") and fed and fed[0].text in ("echo", "printf"):
            inner = " ".join(w.text for w in fed[1:] if not re.fullmatch(r"-[neE]+", w.text)).replace("\\n", "\n")
    elif c.prog in ("eval", "watch"):
        inner = " ".join(skip_opts(c.args, {"-n", "--interval", "-d"}))
    elif c.prog in ("ssh", "mosh", "autossh"):
        rest = skip_opts(c.args, _SSH_VALUED | ({"-M"} if c.prog == "autossh" else set()))  # autossh -M PORT
        if len(rest) > 1:
            inner, where = " ".join(rest[1:]), f" on {rest[0]}"
        else:  # commands on ssh's input: a heredoc, a here-string, what echo or printf writes into the pipe
            bodies = [r.body for r in c.seg.redirects if r.body] + \
                     [r.target.text for r in c.seg.redirects if r.op == "<<<" and r.target is not None]
            fed = c.chain[-1].words if c.chain else []
            if not bodies and fed and fed[0].text in ("echo", "printf"):
                bodies = [" ".join(w.text for w in fed[1:] if not re.fullmatch(r"-[neE]+", w.text))
                          .replace("\\n", "\n")]
            if bodies and rest:
                inner, where = "\n".join(bodies), f" on {rest[0]}"
    elif c.prog in ("docker", "podman", "kubectl-exec", "lxc", "incus", "vagrant", "multipass"):
        if "exec" in texts[:3] or "run" in texts[:3] or "ssh" in texts[:2]:
            for i, t in enumerate(texts):
                if t == "-c" and i + 1 < len(texts) and i > 0:
                    inner, where = texts[i + 1], " inside a container"
                    break
            if inner is None and c.prog in ("docker", "podman"):
                words = container_command(c.args)
                found = c.check(words) if words else None
                return (found[0], f"{found[1]} inside a container") if found else None
    found = c.recurse(inner) if inner else None
    if found is not None and where:
        found = (found[0], found[1] + where)
    return found


# Options of `docker run/exec` and `compose run/exec` that take a value.
_CONTAINER_VALUED = {"-e", "--env", "-v", "--volume", "-p", "--publish", "--name", "-w", "--workdir", "-u", "--user",
                     "--entrypoint", "--network", "--net", "-l", "--label", "--env-file", "--mount", "-h",
                     "--hostname", "--platform", "--pull", "--restart", "--cpus", "-m", "--memory", "--gpus",
                     "--device", "--add-host", "--dns", "--cap-add", "--cap-drop", "--security-opt", "-f",
                     "--file", "--project-name", "--profile", "--index", "--log-driver", "--ulimit"}


def container_command(args: list) -> list:
    """The command words of ``docker [compose] run|exec [options] IMAGE|SERVICE COMMAND…``."""
    texts = [w.text for w in args]
    k = next((i for i, t in enumerate(texts[:3]) if t in ("run", "exec")), None)
    if k is None:
        return []
    k += 1
    while k < len(texts) and texts[k].startswith("-"):
        k += 2 if texts[k] in _CONTAINER_VALUED else 1
    return list(args[k + 1:])  # after the image, container or service
