"""Effect: a storage controller told to delete its logical drives or its configuration, in the words RAID
controller CLIs use (HPE ``ssacli``/``hpacucli``, Broadcom ``storcli``/``MegaCli``, Dell ``omconfig``,
Adaptec ``arcconf``...).

Their commands put the verb anywhere and the noun in controller terms (``ctrl slot=0 ld 2 delete forced``,
``delete 1 logicaldrive 1 noprompt``), fuse them into an ``action=`` value (``action=deletevdisk``,
``action=resetconfig``) or into a CamelCase option (``-CfgLdDel -L1 -a0``, ``-CfgClr``).  Deleting a
logical drive loses everything on it; a reset configuration forgets every array.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, Ctx
from aish.safety.rules.triggers import triggered_by

_VERBS = {"delete", "del", "destroy", "clear", "remove", "rm", "erase", "reset", "wipe", "deleteall", "clearall"}
# Nouns only a storage controller uses: enough with a verb on their own.
_STRONG_NOUNS = {"logicaldrive", "logicaldrives", "vdisk", "vdisks", "virtualdisk", "virtualdisks",
                 "foreignconfig", "logicaldevice", "raidset", "volumeset", "arrayconfig"}
# Nouns that need the controller named too (`ctrl`, `slot=0`, `/c0`, `-a0`).
_WEAK_NOUNS = {"ld", "lds", "vd", "vds", "array", "arrays", "config", "cfg", "unit", "lun", "luns", "volume",
               "volumes", "mirror", "raid", "pd", "all"}
_CONTROLLER = re.compile(r"^(ctrl|controller|adapter|/c\d+(/\S*)?|slot=\d+|controller=\d+|-a(\d+|all)|"
                         r"ctrl=\d+|/call)$", re.IGNORECASE)
# `action=deletevdisk`, `op=resetconfig`: the verb fused to the front of the value.
_FUSED_ACTION = re.compile(r"^(action|op|operation)=(delete|reset|clear|destroy|remove|erase|wipe|format)\w*$",
                           re.IGNORECASE)
# `-CfgLdDel`, `-CfgClr`, `-PDClear`, `-CfgForeign -Clear`: a CamelCase option whose last part deletes or clears.
_CAMEL_DELETE = re.compile(r"^-([A-Z][A-Za-z]*)?(Del|Delete|Clr|Clear|Destroy|Erase)$")
# What every finding holds in the lowered line: a fused action's `=verb`, a strong noun, or the controller (a camel
# option and a verb with a weak noun need it): asked on every unflagged command, a line with none is skipped.
_WOKEN_BY = ({"=" + verb for verb in ("delete", "reset", "clear", "destroy", "remove", "erase", "wipe", "format")} |
             _STRONG_NOUNS | {"ctrl", "controller", "adapter", "/call", "slot=", "-aall"} |
             {f"{head}{digit}" for head in ("/c", "-a") for digit in "0123456789"})


@triggered_by(_WOKEN_BY)

def rule_controller_action(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    lowered = [t.lower() for t in texts]
    if _VERBS.isdisjoint(lowered) and not any("=" in t or t[:1] == "-" and t[1:2].isupper() for t in texts):
        return None  # no verb, no `action=`, no CamelCase option: most commands leave here
    fused = next((t for t in texts if _FUSED_ACTION.match(t)), None)
    if fused:
        return HIGH, f"{c.prog} {fused} deletes what the controller holds ({c.text})"
    controller = any(_CONTROLLER.match(t) for t in texts)
    camel = next((t for t in texts if _CAMEL_DELETE.match(t)), None)
    if camel and controller:
        return HIGH, f"{c.prog} {camel} deletes the controller's logical drives or configuration ({c.text})"
    verb = next((t for t in lowered if t in _VERBS), None)
    if verb is None:
        return None
    words = set(lowered)
    if words & _STRONG_NOUNS or controller and words & _WEAK_NOUNS:
        noun = next(t for t in lowered if t in _STRONG_NOUNS | _WEAK_NOUNS)
        return HIGH, f"{c.prog} {verb}s the controller's {noun}: the data on it is lost ({c.text})"
    return None
