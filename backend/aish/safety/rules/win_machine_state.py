"""Effect: Windows machine state cmd's tools change in ways that cut users off, in their own grammar.

- access taken away from a whole tree (``icacls D:\\Shares\\Finance /remove:g "CORP\\Finance" /t``, ``icacls
  C:\\Users\\alice /inheritance:r /t``, ``icacls … /deny alice:F /t``, ``cacls … /T /E /R alice``, ``cacls … /T /P
  alice:N``): everyone the entries named can no longer open the files;
- how executable files open changed (``assoc .exe=txtfile``, ``ftype exefile="C:\\x.exe" "%1" %*``): no
  program starts from a double click, or every one starts another program first;
- a volume dismounted by force (``fsutil volume dismount D:``, ``manage-bde -lock D: -forcedismount``,
  ``Lock-BitLocker -MountPoint D: -ForceDismount``): open files are cut off, unsaved work is lost;
- the boot configuration replaced from a file (``bcdedit /import C:\\x.bcd``);
- the access list of Windows' own folders replaced (``Set-Acl -Path C:\\Windows\\System32 -AclObject $acl``;
  high when a recursive listing feeds it every file beneath).
One file's access changed, associations of documents, and reads stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx, describe, target
from aish.safety.shell_words import Word
from aish.safety.winpaths import typed_text
from aish.safety.lazy_regex import lazy

_EXECUTABLE_TYPES = lazy(r"^(\.(exe|com|bat|cmd|lnk|msi|scr|ps1|vbs|js)|(exe|com|bat|cmd|lnk|msi|scr)file|"
                         r"msi\.package|microsoft\.powershellscript\.1)=", re.IGNORECASE)


def rule_machine_state(c: Ctx) -> Optional[tuple]:
    prog = c.prog.lower().removesuffix(".exe")
    lowered = [t.lower() for t in c.texts]
    switches = {t.split(":", 1)[0] for t in lowered if t.startswith("/")}
    if prog == "icacls" and "/t" in switches and (switches & {"/deny", "/remove"} or "/inheritance:r" in lowered):
        return MEDIUM, f"icacls takes access away from every file in the tree ({c.text})"
    if prog == "cacls" and "/t" in switches and switches & {"/r", "/d", "/p"} and \
            not ("/p" in switches and not any(t.endswith(":n") for t in lowered)):
        return MEDIUM, f"cacls takes access away from every file in the tree ({c.text})"
    if prog in ("assoc", "ftype") and any(_EXECUTABLE_TYPES.match(t) for t in lowered):
        return MEDIUM, f"{prog} changes how programs themselves open: none starts, or another starts first ({c.text})"
    if prog == "fsutil" and lowered[:2] == ["volume", "dismount"] or \
            prog == "manage-bde" and "-lock" in lowered and "-forcedismount" in lowered or \
            prog == "lock-bitlocker" and "-forcedismount" in lowered:
        return MEDIUM, f"dismounts the volume by force: open files are cut off, unsaved work is lost ({c.text})"
    if prog == "set-acl":
        return _acl_replaced(c, lowered)
    if prog == "bcdedit" and "/import" in switches:
        return MEDIUM, f"replaces the boot configuration with the file's: Windows may not start ({c.text})"
    return None


_SYSTEM_KINDS = frozenset({"root", "system-top", "system", "critical"})


def _acl_replaced(c: Ctx, lowered: list) -> Optional[tuple]:
    paths = [typed_text(c.args[k + 1]) for k, t in enumerate(lowered[:-1]) if t in ("-path", "-literalpath")] or \
        [typed_text(w) for k, w in enumerate(c.args) if not lowered[k].startswith("-") and
         (k == 0 or not lowered[k - 1].startswith("-"))][:1]
    for seg in c.chain:  # `Get-ChildItem C:\Windows -Recurse | Set-Acl -AclObject $acl`
        words = [w for w in seg.words[1:] if not w.text.startswith("-")]
        if seg.words and seg.words[0].text.lower() in ("get-childitem", "gci", "ls", "dir", "get-item", "gi") and words:
            paths.append(typed_text(words[0]))
    deep = any(w.text.lower().startswith("-r") for seg in c.chain for w in seg.words[1:])
    for path in paths:
        t = target(Word(path, path))
        if t.kind in _SYSTEM_KINDS:
            return (HIGH if deep else MEDIUM), f"Set-Acl replaces who may use {describe(t)} ({c.text})"
    return None


RULES: dict = {p: [rule_machine_state] for n in ("icacls", "cacls", "assoc", "ftype", "fsutil", "manage-bde",
                                                 "bcdedit") for p in (n, n + ".exe")}
RULES["lock-bitlocker"] = [rule_machine_state]
RULES["set-acl"] = [rule_machine_state]
