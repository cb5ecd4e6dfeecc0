"""Effect: a Windows tool's action given as a slash switch, read as the vocabulary reads ``--delete``.

Windows' own tools name their action in a switch, not a subcommand: ``dnscmd DC01 /zonedelete corp.com /f``,
``dnscmd /recorddelete zone www A``, ``ksetup /removerealm CORP.COM``, ``w32tm /unregister``, ``winmgmt
/resetrepository``, ``bitsadmin /reset /allusers``, ``repadmin /removelingeringobjects …``.  For a program
no rule judges in full, a switch whose words hold a verb (``zone`` + ``delete``) is read as the option
``--zonedelete``, and the switches that drop the question or widen the scope as their long spellings
(``/f`` ``--force``, ``/y`` ``--yes``, ``/q`` ``--quiet``, ``/all`` ``--all``); the vocabulary then judges the
verb against what it acts on, as for any program's options.  Paths (``/usr/lib``), one-letter switches
alone and switches that name no verb (``/all``, ``/query``, ``/scannow``) are not read as actions.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Optional

from aish.safety.rules.common import Ctx
from aish.safety.verb_words import acts

_SWITCH = re.compile(r"^/([A-Za-z][A-Za-z]{2,})(:.*)?$")
_LONG = {"/f": "--force", "/y": "--yes", "/q": "--quiet", "/quiet": "--quiet", "/all": "--all",
         "/allusers": "--all", "/force": "--force", "/s": "--recursive"}


def may_act(c: Ctx) -> bool:
    """The cheap test: a slash switch among the arguments."""
    return "/" in c.lowered and any(t[:1] == "/" for t in c.texts)


def rule_switch_verb(c: Ctx, vocabulary) -> Optional[tuple]:
    """Judge the program as if its verb switch were a long option (see the module's doc)."""
    words, verb = [c.words[0]], False
    for w in c.args:
        m = _SWITCH.match(w.text)
        if m and acts(m.group(1).lower()):
            words.append(replace(w, text="--" + m.group(1).lower()))
            verb = True
        elif w.text.lower() in _LONG:
            words.append(replace(w, text=_LONG[w.text.lower()]))
        else:
            words.append(w)
    if not verb:
        return None
    found = vocabulary(replace(c, words=words, args=words[1:]))
    if found is None:
        return None
    reason = found[1]
    for w, typed in zip(words[1:], c.args):
        if w.text != typed.text:
            reason = reason.replace(w.text, typed.text)
    return found[0], reason
