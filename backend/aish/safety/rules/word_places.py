"""Effect: a destructive word where the vocabulary does not look, for programs no rule names.

The vocabulary reads a command's first subcommands, its name and its options' names.  Vendors put
the verb elsewhere:

- inside one quoted argument that is an admin console's command (``dsmadmc -id=x "delete filespace
  NODE1 *"``), or a CL command (``system 'DLTLIB LIB(PROD)'``, ``CLRLIB``, ``RMV…``);
- at the END of a long resource path (``xcli config folders Finance delete``, ``sfcli package
  installed delete --name x``);
- fused with "all" (``deleteallrows``, ``--dropAll``, ``--purgeAll``, ``--cleanAll``);
- as the task a controller is told to start (``storcli /c0/v1 start erase simple``, ``task start 1
  device 0 3 clear``): after ``start`` or ``begin`` and the unit's numbers, a bare verb is the action;
- in an option's VALUE, where the option says what to do (``--action=delete``, ``--mode purge``,
  ``--op=remove``, ``--marker=deletion-mark.json``, ``--with 'include drop'``).

Medium; high when the command or its scope takes everything (``*``, ``all``, a whole library)."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.action import is_setting_value
from aish.safety.rules.triggers import triggered_by
from aish.safety.verb_words import split_word

_VERBS = frozenset({"delete", "remove", "destroy", "drop", "purge", "wipe", "erase", "truncate", "nuke", "expunge",
                    "obliterate", "deprovision", "decommission", "teardown", "del", "undefine"})
# Option names that say what the command is to do: their value is the verb.
_VERB_STEMS = LazyRegex(r"delet|remov|destr|drop|purg|wipe|eras|trunc|nuke|expung|obliter|deprov|decom|teardown|"
                         r"undefine")
_ACTION_KEYS = frozenset({"action", "mode", "op", "operation", "cmd", "command", "task", "do", "marker", "with", "verb",
                          "act", "func", "function", "request"})
# Option names whose value is prose or a filter: words there describe, they do not act.
_PROSE = frozenset({"-m", "--message", "--title", "-t", "--body", "-b", "--description", "-d", "--comment",
                    "--subject", "-s", "--note", "--notes", "--summary", "--reason", "--label", "--filter", "--where",
                    "--query", "--grep", "--match", "--search", "--format", "--name", "--help"})
_WIDE = frozenset({"all", "everything", "*", "'*'"})
# A console command's object: a name with digits or in capitals (`NODE1`, `VOL001`, `PRODLIB`).
_NAME_LIKE = LazyRegex(r"\d|^[A-Z][A-Z_]+$")
# Words before a verb inside an option that make it a setting, not an act (`--allow-delete`, `--on-delete-cascade`).
# (`--cap-drop=ALL` drops a container's capabilities: hardening)
_SOFTENERS = frozenset({"cap", "no", "not", "dont", "skip", "allow", "enable", "disable", "prevent", "protect", "keep",
                        "on",
                        "confirm", "ask", "dry", "safe", "soft", "undo", "can", "may", "pre", "post", "before", "after",
                        "deny", "block", "show", "list", "log", "count", "max", "min", "wait", "timeout", "retain",
                        "mark", "marked", "pending", "policy", "permit", "permission", "auto", "with", "without", "if",
                        "is", "track", "detect", "ignore", "report", "notify", "cascade", "propagate", "hard", "lazy"})
# Words after it that make it a setting of when or how (`--permanent-deletion-time-in-days`, `--delete-protection`).
_SETTING_TAILS = frozenset({"time", "days", "hours", "minutes", "seconds", "period", "window", "protection", "delay",
                            "age", "retention", "policy", "date", "schedule", "threshold", "limit", "timeout", "mode",
                            "lock", "marker", "grace", "interval", "ttl"})
_PROSE_WORDS = frozenset({"the", "a", "an", "this", "that", "these", "those", "my", "your", "our", "its", "it", "them",
                          "in", "of", "from", "to", "for", "with", "and", "or", "on", "at", "by", "old", "temporary",
                          "unused", "any", "some", "every", "older", "than", "which", "when", "if", "please"})
# A CL command (IBM i): delete, clear or remove an object kind (`DLTLIB`, `CLRPFM`, `RMVM`).
_CL = LazyRegex(r"^(DLT|CLR|RMV)([A-Z]{1,7})$")
_CL_WIDE = frozenset({"LIB", "USRPRF", "LIBL", "ASP", "JRN", "PF"})
# Fused `…all`: `deleteallrows`, `dropAll`, `--purgeAll`; `clean` only as an option (`make cleanall` is a build's).
_FUSED_ALL = LazyRegex(r"^(--?)?(delete|drop|purge|wipe|destroy|truncate|remove|erase|nuke)[-_]?all([-_]?[a-z]+)?$|"
                       r"^--?clean[-_]?all$", re.IGNORECASE)
# Words before a verb at the end that make it a name, not an action (`mkdir -p trash delete`, `todo add … delete`).
_MAKES = frozenset({"create", "add", "new", "mkdir", "touch", "make", "init", "echo", "say", "help", "man", "info",
                    "describe", "explain", "doc", "docs", "show", "get", "list", "ls", "cat", "log", "search",
                    "find", "grep", "test", "alias", "set-alias", "open", "edit", "rename", "mv", "cd", "checkout",
                    "switch", "branch", "tag", "run", "exec", "label", "commit", "note", "remind", "task", "todo"})
_NOT_HERE = frozenset({"echo", "printf", "git", "make", "gmake", "just", "task", "npm", "yarn", "pnpm", "mkdir",
                       "touch", "cd", "man", "tldr", "help", "cheat", "todo", "t", "notify-send", "say", "espeak",
                       "logger", "wall", "alias", "export", "source", "."})


# What every finding holds in the lowered line (asked on every unflagged command, a line with none is skipped): a
# verb's stem (the value's, the option's and the end's readings search for one; a quoted command starts with a verb,
# `del` among them, or an IBM i command's DLT/CLR/RMV), `clean` (`--clean-all`), or a started task's name.
_WOKEN_BY = (_VERB_STEMS, {"del", "dlt", "clr", "rmv", "clean", "clear", "init", "format", "sanitize", "zeroize"})


@triggered_by(*_WOKEN_BY)
def rule_word_places(c: Ctx) -> Optional[tuple]:
    """The destructive verb in a quoted admin command, at the end of a path, fused with 'all', or in a value."""
    if c.prog.lower() in _NOT_HERE:
        return None
    return _quoted_command(c) or _verb_at_end(c) or _fused_all(c) or _in_a_value(c) or _inside_an_option(c) or \
        _started_task(c)


def _quoted_command(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    for k, w in enumerate(c.args):
        if not (w.quoted and " " in w.text or w.text[:3] in ("DLT", "CLR", "RMV")) or k and texts[k - 1] in _PROSE:
            continue
        words = w.text.split()
        if not words:
            continue
        cl = _CL.match(words[0])
        if cl is not None and (len(words) > 1 and "(" in words[1] or w.quoted):
            wide = cl.group(2) in _CL_WIDE
            return (HIGH if wide else MEDIUM), f"{c.prog} runs {words[0]}, which deletes or clears a " \
                f"{'whole library or profile' if wide else 'system object'} ({c.text})"
        if len(words) < 3 or words[0].lower() not in _VERBS or not w.quoted:
            continue
        if not any(ch in w.text for ch in "=*()") and not any(_NAME_LIKE.search(x) for x in words[2:]):
            continue  # a request in words ("delete all docker images"), not a console's command
        if _PROSE_WORDS & {x.lower() for x in words[1:]}:
            continue  # "delete temporary files in /tmp": a sentence for a person or a model
        wide = bool(_WIDE & set(words[2:])) or "*" in w.text
        return (HIGH if wide else MEDIUM), f"{c.prog} is given an admin command that says {words[0]} " \
            f"{words[1]} ({c.text})"
    return None


def _verb_at_end(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    if len(texts) < 3 or not _VERB_STEMS.search(c.lowered):
        return None
    operands = [t for k, t in enumerate(texts) if not t.startswith("-") and "=" not in t and
                not (k and texts[k - 1].startswith("--") and "=" not in texts[k - 1])]
    if len(operands) < 3 or operands[-1].lower() not in _VERBS - {"del"}:
        return None
    path = [o.lower() for o in operands[:-1]]
    if is_setting_value(operands, len(operands) - 1):
        return None  # `fwtool set default-policy drop`: the policy's value
    if set(path) & _MAKES or any("/" in o or "." in o for o in path[:1]) or "exclusion" in path:
        return None  # … `mdatp exclusion folder remove`: an exclusion taken back, the product looks there again
    forced = any(t in ("--force", "-f", "--yes", "-y", "--all", "--confirm") for t in texts)
    return (HIGH if forced and "--all" in texts else MEDIUM), \
        f"{c.prog} {' '.join(operands[:-1][:4])} {operands[-1]}: the verb at the end deletes what the path names " \
        f"({c.text})"


def _fused_all(c: Ctx) -> Optional[tuple]:
    if "all" not in c.lowered:
        return None
    for t in c.texts[:8]:
        if _FUSED_ALL.match(t):
            return HIGH, f"{c.prog} {t} deletes everything it holds ({c.text})"
    return None


def _in_a_value(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    if not _VERB_STEMS.search(c.lowered):
        return None
    for k, t in enumerate(texts):
        if not t.startswith("-"):
            continue
        name, eq, value = t.partition("=")
        if not eq:
            value = texts[k + 1] if k + 1 < len(texts) and not texts[k + 1].startswith("-") else ""
        if not value or name in _PROSE:
            continue
        if not set(split_word(name.lstrip("-"))) & _ACTION_KEYS:
            continue
        said = [p for piece in value.split()[:4] for p in split_word(piece)]
        verb = next((p for p in said if p in _VERBS), None)
        if verb is not None:
            return MEDIUM, f"{c.prog} is told to {verb} by the value of {name} ({c.text})"
    return None


def _inside_an_option(c: Ctx) -> Optional[tuple]:
    """``mmcli -m 0 --messaging-delete-sms=3``, ``--cache-purge-all``: the verb inside a long option's name, after
    what it acts on (an option that starts with the verb is the vocabulary's)."""
    if "--" not in c.lowered or not _VERB_STEMS.search(c.lowered):
        return None
    for t in c.texts:
        if not t.startswith("--"):
            continue
        words = split_word(t.split("=", 1)[0][2:])
        for k, w in enumerate(words[1:], start=1):
            if w in _VERBS - {"del"} and not _SOFTENERS & set(words[:k]) and (k + 1 < len(words) or "=" in t) and \
                    not _SETTING_TAILS & set(words[k + 1:]):
                return MEDIUM, f"{c.prog} {t.split('=', 1)[0]} says {w} inside the option ({c.text})"
    return None


# Words that start a task named next (a controller's `start erase`, `begin init`).
_STARTS = frozenset({"start", "begin", "launch"})
# The tasks that lose what the unit holds; `start web`, `start purge-worker` (a program) are names.
_STARTED = frozenset({"erase", "wipe", "clear", "init", "initialize", "format", "delete", "destroy", "purge",
                      "sanitize", "zeroize", "secureerase"})
_ADDRESS = LazyRegex(r"^(/[\w/:]*|\d+|[a-z]+=\w+|\[[\d:,]+\])$", re.IGNORECASE)


def _started_task(c: Ctx) -> Optional[tuple]:
    """``storcli /c0/v1 start erase simple``, ``arcconf task start 1 logicaldrive 0 clear``: the task started."""
    texts = c.texts
    if not set(texts[:4]) & _STARTS:
        return None
    at = next(k for k, t in enumerate(texts) if t in _STARTS)
    # a controller names the unit by numbers or a path (`/c0/v1`, `1 device 0 3`); `docker start erase` does not
    addressed = any(_ADDRESS.match(t) and not t.isalpha() for t in texts[:at])
    for t in texts[at + 1:at + 7]:
        if t.lower() in _STARTED:
            if not addressed:
                return None
            return MEDIUM, f"{c.prog} starts the task {t.lower()} on the unit named: what it holds is lost ({c.text})"
        if not (_ADDRESS.match(t) or t.isalpha() and t.lower() in _UNITS):
            return None  # a program's or service's name: `start web`, `start purge-worker`
        addressed = addressed or not t.isalpha()
    return None


# The words of a controller's address between `start` and the task (`task start 1 logicaldrive 0 clear`).
_UNITS = frozenset({"device", "logicaldrive", "ld", "vd", "pd", "drive", "disk", "array", "unit", "volume", "lun",
                    "controller", "ctrl", "slot", "port", "physicaldrive", "enclosure"})
