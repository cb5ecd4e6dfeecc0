"""Effect: wipes the shell's own state.  History (``history -c``, emptying the history
file), the environment the session depends on (``unset PATH``, ``export PATH=/x``
without ``$PATH``, ``unset HOME``), killing the session, and commands stored to run later
(``alias``, ``trap``, ``PROMPT_COMMAND``): their text is judged as if run now."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import LOW, MEDIUM, Ctx
from aish.safety.rules.histories_off import UNSET_OFF, assignment_off

_VITAL = {"PATH", "HOME", "SHELL", "USER", "LOGNAME", "TERM", "LD_LIBRARY_PATH", "PWD", "IFS", "TMPDIR", "LANG"}
_HIST_VARS = {"HISTFILE", "HISTSIZE", "HISTFILESIZE", "SAVEHIST"}
_LATER = {"PROMPT_COMMAND", "precmd_functions", "PS0", "PS1", "PROMPT", "RPROMPT", "BASH_ENV", "ENV", "PS4"}


def assignment(name: str, value: str, persistent: bool) -> Optional[tuple]:
    """A ``NAME=value`` that stays in the session (alone, or after ``export``/``declare``); a history switched off
    before a program too (``HISTFILE=/dev/null psql``: that session records nothing)."""
    if "IST" in name or "ist" in name:
        off = assignment_off(name, value, persistent)
        if off:
            return off
    if not persistent:
        return None
    if name in ("PATH",) and "$PATH" not in value and "${PATH" not in value and \
            not set(value.split(":")) & {"/usr/bin", "/bin", "/usr/local/bin", "/usr/bin/", "/bin/"}:
        return MEDIUM, f"replaces PATH: ordinary commands stop being found in this shell (PATH={value[:40]})"
    if name in ("HOME", "SHELL", "IFS", "LD_PRELOAD") and name != "LD_PRELOAD" and value == "":
        return MEDIUM, f"empties {name}, which the session depends on ({name}=)"
    if name == "LD_PRELOAD" and value:
        return MEDIUM, f"preloads {value[:40]} into every program this shell starts (LD_PRELOAD)"
    return None


def env_prefix(words: list) -> Optional[tuple]:
    """The words after ``env``: a history switched off for the program it starts (``env -u HISTFILE bash``,
    ``env HISTFILE=/dev/null mysql``)."""
    for k, w in enumerate(words):
        t = w.text
        if t in ("-u", "--unset") and k + 1 < len(words) and words[k + 1].text in UNSET_OFF:
            return MEDIUM, f"starts a program without {words[k + 1].text}: what is typed there leaves no record"
        if "=" in t and not t.startswith("-"):
            name, _, value = t.partition("=")
            off = assignment_off(name, value, False)
            if off:
                return off
        elif not t.startswith("-"):
            break
    return None


def rule_history(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    if c.prog == "history" and any(t == "-c" or re.fullmatch(r"-[a-z]*c[a-z]*", t) for t in texts):
        return MEDIUM, f"clears this shell's history ({c.text})"
    if c.prog == "history" and "-w" in texts and any(t == "/dev/null" for t in texts):
        return LOW, f"writes the history nowhere ({c.text})"
    return None


def rule_env(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    if c.prog == "unset":
        names = [t for t in texts if not t.startswith("-")]
        if "-f" in texts:
            return None
        vital = [n for n in names if n in _VITAL]
        if vital:
            return MEDIUM, f"unsets {', '.join(vital)}: this shell stops working normally ({c.text})"
        if set(names) & UNSET_OFF:
            return MEDIUM, f"switches off the saving of the shell's history: what is typed from now on leaves no " \
                           f"record ({c.text})"
        if set(names) & _HIST_VARS:  # HISTSIZE unset: no limit in bash
            return LOW, f"changes how much shell history is kept ({c.text})"
        return None
    if c.prog in ("export", "declare", "typeset", "readonly", "local"):
        best = None
        for t in texts:
            if "=" in t and not t.startswith("-"):
                name, _, value = t.partition("=")
                found = assignment(name, value, True)
                if found and (best is None or found[0] > best[0]):
                    best = found
                if name in _LATER:
                    inner = c.recurse(value)
                    if inner:
                        return inner[0], f"{inner[1]}, each time the prompt shows ({name})"
        return best
    if c.prog == "exec" and not c.words[1:]:
        return None
    if c.prog in ("alias", "trap"):
        for t in texts:
            body = t.partition("=")[2] if c.prog == "alias" else t
            if body and not body.startswith("-"):
                # an alias takes the arguments typed after it: judge it with one
                inner = c.recurse(body + (" x" if c.prog == "alias" else ""))
                if inner:
                    when = "when the alias is used" if c.prog == "alias" else "when the signal arrives"
                    return inner[0], f"{inner[1]}, {when} ({c.prog})"
                if c.prog == "trap":
                    break
    if c.prog == "unalias" and "-a" in texts:
        return LOW, f"removes every alias of this shell ({c.text})"
    return None


def exec_redirect(seg) -> Optional[tuple]:
    """``exec >/dev/null``/``exec 2>&-``: the shell's own output goes away; it looks dead."""
    if not seg.words or seg.words[0].text != "exec" or len(seg.words) > 1:
        return None
    for red in seg.redirects:
        if red.op.rstrip("&-") in (">", "1>", "2>", "&>", ">&") and (red.target is None or red.target.text in
                                                                    ("/dev/null", "-")) or red.op.endswith("&-"):
            return MEDIUM, "exec redirects this shell's own output away: it looks dead (exec " + red.op + ")"
    return None


RULES = {"history": [rule_history], "fc": [rule_history], "unset": [rule_env], "export": [rule_env],
         "declare": [rule_env], "typeset": [rule_env], "readonly": [rule_env], "alias": [rule_env],
         "trap": [rule_env], "unalias": [rule_env]}
