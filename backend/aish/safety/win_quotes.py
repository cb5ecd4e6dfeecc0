"""Windows spellings a POSIX reading of the line takes apart wrongly, rewritten so both readings agree.

cmd and PowerShell take no backslash escapes (PowerShell's escape is the backtick), so:

- ``schtasks /query /tn "\\Microsoft\\Windows\\" & rd /s /q C:\\Users`` closes its quote after the
  backslash.  A POSIX reading takes ``\\"`` for an escaped quote, the string runs on to the next quote,
  and the rest of the line (here ``rd /s /q``) is read as text and never judged.  A quoted string whose
  text holds a backslash before the ``\\"`` that ends it, followed by a space, a control operator or the
  end of the line, is a Windows path: it is read in single quotes (its last backslash doubled where it
  holds a ``$``).  A POSIX string that escapes its
  quotes (``"say \\"hi\\" to me"``, ``"rm -rf \\"$DIR\\" && …"``) holds no other backslash before them.
- ``Remove-Item C:\\ -Recurse -Force``: a drive path ending in a backslash, then a space.  A POSIX reading
  joins ``C:`` and ``-Recurse`` into one word (an escaped space).  A path that starts with a drive letter,
  ``%VAR%``, ``$env:VAR`` or ``.``/``..`` and a backslash is read in single quotes (POSIX ``My\\ Files``
  starts with none of them).
- ``powershell -c "&{Stop-Computer -Force}"``: a script block glued to its cmdlet.  The braces are set
  apart when the block starts with a cmdlet's name (``${HOME}``, ``@{Name=…}`` and ``find -exec {}`` do not).
- ``sc sdset scmanager D:(A;;GA;;;WD)``: a security descriptor (SDDL) typed bare.  cmd passes it as one word; a
  POSIX reading ends the command at its first ``;``.  A bare word of ACEs, ``(A;…;…;…;…;SID)`` one after
  another (after ``O:``/``G:``/``D:``/``S:`` parts), is read in single quotes.
"""
from __future__ import annotations

import re
from aish.safety.lazy_regex import lazy

_PATH_THEN_BACKSLASH_QUOTE = lazy(r'"([^"\\\n]*\\[^"\n]*?)(?<!\\)\\"(?=[\s|;&),]|$)')
_DRIVE_PATH_THEN_SPACE = lazy(r"(?<![\w/\\$:%.])((?:[A-Za-z]:|%\w+%|\$env:\w+|\.{1,2})\\(?:[^\s\"'\\]+\\)*)"
                              r"(?<!\\\\)(?= )", re.IGNORECASE)
_BARE_WORD_WITH_SEMICOLON = lazy(r"(?:(?<=\s)|^)([^\s'\"]*;[^\s'\"]*)(?=\s|$)")
_BARE_SDDL = lazy(r"^(/\w+:|[\w-]+=)?((?:[OGDS]:[\w-]*(?:\([^()\s]*\))*)+|(?:\((?:A|D|OA|OD|AU|AL|OU|ML|SP|XA|"
                  r"XD|ZA|XU)(?:;[^;()\s]*){5}\))+)$")


def _quoted_sddl(m: re.Match) -> str:
    word = m.group(1)
    sddl = _BARE_SDDL.match(word)
    if sddl is None or ";;" not in word:
        return word
    return (sddl.group(1) or "") + "'" + sddl.group(2) + "'"


_BLOCK_START = lazy(r"\{[A-Za-z]+-")
_GLUED_BLOCK = lazy(r"(?<=[\s&;|(\"'])\{([A-Za-z]+-[A-Za-z]+\b[^{}\n]*?)\}|^\{([A-Za-z]+-[A-Za-z]+\b[^{}\n]*?)\}")


def _closed_quote(m: re.Match) -> str:
    """The path in single quotes, where both readings keep its backslashes as typed; with a ``$`` or a ``'`` in
    it (``"$env:TEMP\\"``), in double quotes with its last backslash doubled."""
    body = m.group(1)
    if "'" in body or "$" in body:
        return '"' + body + '\\\\"'
    return "'" + body + "\\'"


def closed(text: str) -> str:
    """``text`` with the Windows spellings above rewritten (see the module's doc)."""
    if '\\"' in text:
        text = _PATH_THEN_BACKSLASH_QUOTE.sub(_closed_quote, text)
    if "\\ " in text:
        text = _DRIVE_PATH_THEN_SPACE.sub(lambda m: "'" + m.group(1) + "'" if "'" not in m.group(1) else
                                          m.group(1) + "\\", text)
    if ";;" in text and "(" in text:
        text = _BARE_WORD_WITH_SEMICOLON.sub(_quoted_sddl, text)
    if "{" in text and "-" in text and _BLOCK_START.search(text):
        text = _GLUED_BLOCK.sub(lambda m: "{ " + (m.group(1) or m.group(2)).strip() + " }", text)
    return text
