"""Effect: the recording of what is typed switched off, for any shell, REPL or program that keeps a history.

Erasing a history after the fact is ``records_erased``' and ``shell_histories``' to judge; this is the other half
of the class: nothing is recorded from now on.  Every program that keeps one names it with a setting whose name
says history (``HISTFILE``, ``HISTSIZE``, ``SAVEHIST``, tcsh's ``savehist``/``history``, fish's ``fish_history``,
``PYTHON_HISTORY``, ``NODE_REPL_HISTORY(_SIZE)``, ``MYSQL_HISTFILE``, ``PSQL_HISTORY``, ``SQLITE_HISTORY``,
``REDISCLI_HISTFILE``, ``GDBHISTFILE``, ``R_HISTFILE``, PowerShell's ``$MaximumHistoryCount``);
what switches it off is a value that is nothing (empty, ``0``, ``/dev/null``, ``NUL``, ``$null``, ``-``) or an
ignore list that takes every line (``HISTIGNORE='*'``).  The same holds for:

- the shell's words for it: ``set +o history``, ``shopt -u -o history``, ``unset HISTFILE``/``SAVEHIST``/
  ``savehist`` (``shellstate.rule_env``), ``set history=0`` (tcsh), ``set -gx fish_history ''`` (fish),
  ``setenv HISTFILE /dev/null``, ``$env:HISTFILE = 'NUL'``, ``env -u HISTFILE bash``, ``HISTFILE=/dev/null psql``
  (``shellstate.assignment`` for every ``NAME=value``, alone or before a program);
- any program's option whose name says history given nothing or told not to keep it: PSReadLine's
  ``-HistorySaveStyle SaveNothing``, ``-HistorySavePath NUL``, ``-MaximumHistoryCount 0``, an
  ``-AddToHistoryHandler`` that refuses every line (``{ return $false }``), IPython's
  ``--HistoryManager.enabled=False``, ``--histfile=/dev/null``, ``--no-history``.

Medium: what is typed next leaves no record.  Quiet: larger or other history files (``HISTSIZE=100000``,
``HISTFILE=~/.local/state/bash/history``), ``HISTCONTROL``/``HISTIGNORE`` tuning (``ignoreboth``, ``ls:cd``),
``SaveIncrementally``, a handler that filters (``{ param($l) $l -notmatch 'password' }``), a size cap like
helm's ``--history-max 0`` (unlimited there: a number is nothing only for a size or a count), and a program
started in its own private mode (``fish --private``, ``vim -i NONE``: a documented choice, as a browser's), and
a pager's search history (``LESSHISTFILE=-``: what less keeps is searches, and the setting is the everyday
dotfile clean-up of a home's stray files).
"""
from __future__ import annotations

from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

# A setting's name that says history (lowered): HISTFILE, savehist, node_repl_history_size, maximumhistorycount,
# but not histogram, histchars, HISTCMD or the format and filter settings.
_HISTORY_NAME = lazy(r"hist(?:ory|file|size|save|len|count|_|$)")
_NOT_RECORDING = ("control", "ignore", "format", "stamp", "verify", "expand", "reedit", "chars", "cmd", "dup",
                  "search", "color", "colour")
# A pager's history holds its searches, not what was run: `export LESSHISTFILE=-` is a dotfile's clean-up.
_PAGERS = ("less",)
_IGNORE_NAME = lazy(r"hist(?:ory)?_?ignore")
_NOTHING = frozenset({"", "0", "/dev/null", "nul", "nul:", "-", "$null", "none", "/dev/zero", "\\\\.\\nul"})
# Names whose removal stops the saving (bash and zsh save nothing without HISTFILE, zsh nothing without SAVEHIST,
# tcsh nothing without savehist); HISTSIZE and HISTFILESIZE unset mean no limit in bash.
UNSET_OFF = frozenset({"HISTFILE", "SAVEHIST", "savehist", "history"})
_OPTION_OFF = frozenset({"off", "false", "no", "none", "disabled", "disable", "savenothing", "0", "$false"})
_NEGATIVE_OPTION = lazy(r"^(?:no|disable|skip|without)[-_]?hist")
_SETTERS = frozenset({"set", "setenv", "setx", "set-variable", "sv", "set-item", "si", "launchctl"})
_REFUSING_BLOCK = ("$false", "skipadding", "memoryonly")
_FILTERING = ("-match", "-notmatch", "-like", "-notlike", "-cmatch", "-imatch", "if", "where", "-contains", "-in",
              "switch", "-eq", "-ne", "?")


def _plain(value: str) -> str:
    return value.strip().strip("'\"").strip().lower()


def switched_off(name: str, value: str) -> Optional[str]:
    """``NAME=value`` read as a history setting that records nothing: what it says, or None."""
    low = name.lower().removeprefix("env:").lstrip("$")
    if "hist" not in low:
        return None
    plain = _plain(value)
    if _IGNORE_NAME.search(low):
        patterns = {p.strip() for p in plain.replace("|", ":").split(":")}
        return f"{name}={value} ignores every line" if "*" in patterns else None
    if not _HISTORY_NAME.search(low) or any(word in low for word in _NOT_RECORDING) or low.startswith(_PAGERS):
        return None
    return f"{name}={value or chr(39) * 2}" if plain in _NOTHING else None


def assignment_off(name: str, value: str, persistent: bool) -> Optional[tuple]:
    """The level and reason for a ``NAME=value`` that switches a history off (``shellstate.assignment``)."""
    said = switched_off(name, value)
    if said is None:
        return None
    when = "from now on" if persistent else "by the program it starts"
    return MEDIUM, f"switches off the saving of a history ({said}): what is typed {when} leaves no record"


def _option_off(texts: list) -> Optional[str]:
    """Any program's history option given nothing or a negative (``--histfile=/dev/null``, ``--no-history``,
    ``-HistorySaveStyle SaveNothing``, ``-MaximumHistoryCount 0``, ``--HistoryManager.enabled=False``)."""
    for k, t in enumerate(texts):
        if not t.startswith("-") or "hist" not in t.lower():
            continue
        name, eq, value = t.partition("=")
        bare = name.lower().lstrip("-")
        if _NEGATIVE_OPTION.match(bare):
            return t
        if any(word in bare for word in ("ignore", "control", "format", "search")) or \
                "max" in bare and "maximum" not in bare:  # helm's `--history-max 0` keeps every revision
            continue
        if not eq:
            value = texts[k + 1] if k + 1 < len(texts) else None
            if value is None or value.startswith("-") and value != "-":
                continue
        plain = _plain(value)
        counted = any(word in bare for word in ("size", "count", "length", "lines", "len"))
        if plain in _OPTION_OFF - {"0"} or plain == "0" and counted or plain in _NOTHING - {"0"} and not counted:
            return f"{name} {value}" if not eq else t
    return None


def _refusing_handler(texts: list) -> bool:
    """PSReadLine's ``-AddToHistoryHandler`` given a block that refuses every line (no test in it)."""
    lowered = [t.lower() for t in texts]
    if "-addtohistoryhandler" not in lowered:
        return False
    block = lowered[lowered.index("-addtohistoryhandler") + 1:]
    block = block[:block.index("}") + 1] if "}" in block else block
    words = " ".join(block)
    return any(w in words for w in _REFUSING_BLOCK) and not any(t in _FILTERING or t.startswith(_FILTERING[:6])
                                                                for t in block)


def _pairs(texts: list) -> Optional[str]:
    """``set NAME=value`` (tcsh, cmd), ``set [-gx] NAME value`` (fish), ``setenv NAME value``, ``setx NAME value``,
    ``Set-Variable -Name N -Value V``, ``Set-Item env:N V``: a history setting given nothing."""
    words = [t for t in texts if not t.startswith("-") or t == "-"]
    for k, t in enumerate(words):
        if "=" in t:
            said = switched_off(*t.split("=", 1))
            if said:
                return said
        elif "hist" in t.lower() and k + 1 < len(words):  # not `set -e fish_history`: back to the default
            said = switched_off(t, words[k + 1])
            if said:
                return said
    return None


@triggered_by("hist", otherwise=False)
def may_switch_off(c: Ctx) -> bool:
    """Cheap: a history's name on the line."""
    return "hist" in c.lowered or "hist" in c.prog.lower()


def rule_history_off(c: Ctx) -> Optional[tuple]:
    """A history's recording switched off by a shell's words, a setting, an option or a module removed."""
    prog = c.prog.lower().rsplit("/", 1)[-1].removesuffix(".exe")
    texts = c.texts
    said = None
    if prog.startswith("$") and texts[:1] == ["="] and len(texts) <= 2:  # `$MaximumHistoryCount = 0`, `$env:X = ''`
        said = switched_off(c.prog.lstrip("$"), texts[1] if len(texts) == 2 else "")
    elif prog in ("set", "shopt") and "history" in texts and any(t in ("+o", "-ou", "-uo") or
                                                                  t == "-u" and "-o" in texts for t in texts):
        said = f"{c.prog} {' '.join(texts)}"
    elif prog in _SETTERS:
        said = _pairs(texts)
    if said is None and prog not in _SETTERS and "hist" in c.lowered:
        said = _option_off(texts) or ("-AddToHistoryHandler refusing every line" if _refusing_handler(texts)
                                      else None)
    if said is None:
        return None
    return MEDIUM, f"switches off the saving of a history ({said}): what is typed from now on leaves no record " \
                   f"({c.text})"
