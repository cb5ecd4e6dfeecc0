"""Effect: an app uninstalled from a phone, a tablet or a simulator, with its data.

A device's app store keeps an app's data with the app: ``adb uninstall com.example.notes``,
``ideviceinstaller -U com.example.notes``, ``xcrun simctl uninstall booted com.example.notes``
take the notes, the offline files and the logins with it.  The app is named by its reverse-DNS
id, whatever the tool; a package manager's own removals (``flatpak uninstall org.gimp.GIMP``, an
editor's extension) only cost a reinstall, and ``-k`` (keep the data) makes it one too.  An uninstall option
(``-U``, ``--uninstall``) names the app as its own value; elsewhere ``-U`` is a user for most programs
(``rpcclient -U 'CORP\\auditor%pw' dc01.corp.example``, ``bcp shop.dbo.orders out f.csv -U sa``), so a dotted
name elsewhere on such a line is a host or a table, not an app."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.verbs import PACKAGE_TOOLS
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_UNINSTALLS = frozenset({"uninstall", "-U", "--uninstall", "--uninstall_only", "--uninstall-only", "-uninstall"})
_KEEPS_DATA = frozenset({"-k", "--keep-data", "--keepdata", "--keep_data"})
# A reverse-DNS app id (com.example.notes, com.example.app), not a file (app-release.apk); a bundle such as
# Notes.app has two parts only.
_APP_ID = lazy(r"^[a-z][\w-]*(\.[A-Za-z_][\w-]*){2,}$")
_FILE_SUFFIX = lazy(r"\.(apk|aab|ipa|zip|xap|appx|msix|hap|tar|gz|json|ya?ml|txt|py|sh|js)$", re.IGNORECASE)


@triggered_by(_UNINSTALLS)
def rule_app_uninstalled(c: Ctx) -> Optional[tuple]:
    """``adb uninstall com.x.y``, ``adb shell pm uninstall com.x.y``, ``ideviceinstaller -U com.x.y``."""
    texts = c.texts
    if c.prog in PACKAGE_TOOLS or not set(texts[:6]) & _UNINSTALLS or set(texts) & _KEEPS_DATA:
        return None
    if "uninstall" in texts[:6]:  # a subcommand: the app is any operand after it
        candidates = texts[texts.index("uninstall") + 1:]
    elif "-U" not in texts[:6]:  # a long option says uninstall itself (`ios-deploy --uninstall_only --bundle_id X`)
        candidates = texts
    else:  # `-U` is a user for most programs: the app is its own value (`ideviceinstaller -U com.x.y`)
        candidates = [nxt for t, nxt in zip(texts, texts[1:] + [""]) if t == "-U"]
    app = next((t for t in candidates if _APP_ID.match(t) and not _FILE_SUFFIX.search(t)), None)
    if app is None:
        return None
    return MEDIUM, f"{c.prog} uninstalls the app {app} from the device with its data ({c.text})"
