"""Effect: ``rm`` and its neighbours under other names, or given whole to a storage client.

- Data-grid clients named ``i`` + the command (iRODS's ``irm``, ``irmdir``) do what the command does:
  they are judged as that command with the same words (``irm -rf /zone/home/alice/run`` is ``rm -rf``).
  (GNU's ``g``-prefixed names, ``grm``, ``gshred``, are the tools themselves: safety/program_names.py.)
- A storage or archive client given its own ``rm`` as one quoted argument (HPSS's ``hsi "rm -R /home/x"``,
  ``hsi 'rmdir d'``) is judged as if the command were typed after the program's name; a message printed or
  sent (``notify-send "rm done"``) is not a command.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.rules.common import Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

# The commands such names stand for: the prefix is dropped and the rest judged as the command itself.
_COMMANDS = frozenset({"rm", "rmdir", "shred", "truncate", "unlink", "dd"})
_PREFIXES = ("i",)
# Programs whose quoted argument is text shown or sent, never a command they run.
_PRINTERS = frozenset("echo printf notify-send logger wall say espeak espeak-ng cowsay figlet toilet zenity "
                      "xmessage gum whiptail dialog banner lolcat osd_cat kdialog yad ntfy apprise git".split())
_REMOVES = frozenset({"rm", "rmdir", "del", "delete", "deltree", "rmtree", "erase", "purge"})
_QUIET_FLAGS = frozenset({"-q", "-v", "-s", "--quiet", "--verbose"})
_UNQUOTED = lazy(r"[\"'`$()<>|&;]")  # judged, never run: the line's words without shell characters
_REACHES = lazy(r"(^|\s)(-[a-zA-Z]*[rR][a-zA-Z]*|--recursive|[/~]\S*)")


# Asked on every unflagged command: a finding needs an `i`-prefixed command's name or a removing verb first in the
# quoted command (each of _REMOVES holds `rm`, `del`, `erase` or `purge`); a line with none is skipped.
@triggered_by({"i" + command for command in _COMMANDS}, ("rm", "del", "erase", "purge"))
def rule_rm_elsewhere(c: Ctx) -> Optional[tuple]:
    return _other_name(c) or _quoted_command(c)


def _other_name(c: Ctx) -> Optional[tuple]:
    prog = c.prog.lower()
    if len(prog) < 3 or prog[0] not in _PREFIXES or prog[1:] not in _COMMANDS or not c.texts:
        return None
    found = c.recurse(prog[1:] + " " + " ".join(w.raw for w in c.args))
    if found is None:
        return None
    return found[0], f"{c.prog} is {prog[1:]} by another name: {found[1]}"


def _quoted_command(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    if not texts or c.prog.lower() in _PRINTERS:
        return None
    at = next((k for k, t in enumerate(texts) if not t.startswith("-")), 0)
    first = texts[at] if at == 0 or texts[at - 1] in _QUIET_FLAGS else ""  # not an option's value (`-m "rm x"`)
    words = first.split()
    if len(words) < 2 or words[0].lower() not in _REMOVES or not _REACHES.search(first):
        return None
    found = c.recurse(c.prog + " " + " ".join(_UNQUOTED.sub("", w) for w in words))
    if found is None:
        return None
    return found[0], f"{found[1]}, given to {c.prog} as its own command"
