"""Effect: a shell's command history wiped in that shell's own words, beyond ``history -c``.

PowerShell forgets its session with ``Clear-History`` and its saved lines with PSReadLine's
``ClearHistory()`` or by deleting ``ConsoleHost_history.txt`` (by name, or as PSReadLine's option names it:
``(Get-PSReadLineOption).HistorySavePath``, deleted, emptied or written over); fish with ``history clear``, nushell with
``history --clear``, bash 5 with ``history -d 1-200`` (and the latest entries, a command's own trace, with
``history -d -1`` or ``history -d $((HISTCMD-1))``; one entry picked from a listing stays quiet), cmd with
``doskey /reinstall``, a history manager with ``atuin search --delete``; other shells keep theirs in files named for it
(nushell's ``history.txt``/``history.sqlite3``, atuin's ``history.db``).  A history asked about,
searched or merged stays quiet, and so do ``-WhatIf`` and ``-Confirm`` (each line is asked for).
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.lazy_regex import lazy

# Words after `history` that wipe it (fish's `clear`, nushell's `--clear`).
_WIPES = {"clear", "--clear"}
# History files of shells and REPLs that the target classes do not name, in any spelling of the path.
_HISTORY_FILE = lazy(r"(psreadline[/\\]?consolehost_history\.txt|nushell[/\\]?history\.(txt|sqlite3)|"
                     r"atuin[/\\]?history\.db|\.node_repl_history|\.sqlite_history|\.irb_history|"
                     r"\.(ba|z)sh_sessions|\.HistorySavePath)$",  # PSReadLine's option naming its file
                     re.IGNORECASE)
_DELETERS = {"remove-item", "ri", "del", "erase", "rm", "rmdir", "rd", "clear-content", "clc", "unlink", "shred",
             "trash", "trash-put", "gio", "set-content", "out-file"}
_ASKS = {"-whatif", "-confirm"}
# Shells whose `-c TEXT` runs TEXT and that no other rule follows.
_OTHER_SHELLS = {"nu", "nushell", "xonsh", "elvish", "ion", "murex", "oil", "osh", "ysh"}


def rule_history_words(c: Ctx) -> Optional[tuple]:
    """``history clear`` (fish), ``history --clear`` (nushell), ``history -d 1-200`` (a range, bash 5)."""
    texts = c.texts
    if set(texts[:1]) & _WIPES:
        return MEDIUM, f"clears this shell's saved history ({c.text})"
    if "-d" in texts[:-1] and re.fullmatch(r"-?\d+-\d+", texts[texts.index("-d") + 1]):
        return MEDIUM, f"history -d deletes a range of this shell's history ({c.text})"
    # the latest entries (bash 5's negative offsets, or one computed: `$((HISTCMD-1))`): what was just done goes;
    # one entry picked from a listing (`history -d 42`, a password typed by mistake) stays quiet
    if "-d" in texts[:-1] and re.fullmatch(r"-\d+|.*\$.*", c.args[texts.index("-d") + 1].raw):
        return MEDIUM, f"history -d deletes the latest entries of this shell's history: what was just done " \
                       f"leaves no trace ({c.text})"
    return None


def rule_history_manager(c: Ctx) -> Optional[tuple]:
    """A history manager's search told to delete what it finds (``atuin search --delete …``)."""
    if "--delete" in c.texts or "--delete-it-all" in c.texts:
        return MEDIUM, f"{c.prog} deletes every history line the search matches ({c.text})"
    return None


def rule_powershell_history(c: Ctx) -> Optional[tuple]:
    """``Clear-History``, ``[Microsoft.PowerShell.PSConsoleReadLine]::ClearHistory()``."""
    if {t.lower().split(":", 1)[0] for t in c.texts} & _ASKS:
        return None
    if c.prog.lower() == "clear-history":
        return MEDIUM, f"Clear-History deletes lines of the session's history ({c.text})"
    return MEDIUM, f"ClearHistory() wipes PSReadLine's history ({c.text})"


def rule_doskey(c: Ctx) -> Optional[tuple]:
    lowered = {t.lower() for t in c.texts}
    if "/reinstall" in lowered:
        return MEDIUM, f"doskey /reinstall clears the console's command history ({c.text})"
    if "/listsize=0" in lowered:
        return MEDIUM, f"doskey /listsize=0 keeps no command history in this console ({c.text})"
    return None


def rule_history_file_deleted(c: Ctx) -> Optional[tuple]:
    """``Remove-Item …\\PSReadLine\\ConsoleHost_history.txt``, ``rm ~/.config/nushell/history.txt``."""
    named = next((t for t in c.texts if ("istory" in t or "_sessions" in t) and
                  _HISTORY_FILE.search(t.rstrip("'\""))), None)  # the substring first: `rm` is on most lines
    if named is None or {t.lower().split(":", 1)[0] for t in c.texts} & _ASKS:
        return None
    return MEDIUM, f"deletes a shell's saved history ({named}) ({c.text})"


def rule_other_shell(c: Ctx) -> Optional[tuple]:
    """``nu -c 'history --clear'``: the text another shell is told to run, judged as a command."""
    texts = c.texts
    if "-c" in texts[:-1]:
        return c.recurse(texts[texts.index("-c") + 1])
    return None


RULES = {"history": [rule_history_words], "atuin": [rule_history_manager], "clear-history": [rule_powershell_history],
         "[microsoft.powershell.psconsolereadline]::clearhistory": [rule_powershell_history],
         "doskey": [rule_doskey], **{p: [rule_history_file_deleted] for p in _DELETERS},
         **{p: [rule_other_shell] for p in _OTHER_SHELLS}}
