"""Effect: the screen lock taken away by ending or pausing what locks it.

The lock settings themselves are judged by ``weakened`` (``gsettings … lock-enabled false``); the
same effect comes from stopping the program that locks: a screensaver told to exit
(``xscreensaver-command -exit``, ``mate-screensaver-command --exit``, any ``*-screensaver-command
--exit``), an idle locker disabled or ended (``xautolock -disable``, ``xautolock -exit``), its user
service stopped, disabled or masked (``systemctl --user stop xss-lock``, ``… mask --now
hypridle.service``), every session unlocked (``loginctl unlock-sessions``), or Windows' screen saver
no longer asking for the password (``ScreenSaverIsSecure`` set to 0).  Locking now, asking the
locker its state, and starting it stay quiet.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import MEDIUM, Ctx

# Programs that lock the screen or start the lock when the session is idle (their units as well).
_LOCKERS = lazy(r"^(xss-lock|xautolock|xscreensaver|swayidle|hypridle|xidlehook|light-locker|gnome-screensaver|"
                r"mate-screensaver|cinnamon-screensaver|xfce4-screensaver|kscreenlocker\w*|betterlockscreen|"
                r"i3lock\w*|swaylock\w*|hyprlock|physlock|xsecurelock|slock|xlock|xlockmore|screen-locker|"
                r"xidlehook|sway-audio-idle-inhibit-none|gtklock|waylock)(@\S*)?(\.service|\.timer|\.socket)?$")
_UNIT_VERBS = frozenset({"stop", "disable", "mask", "kill"})
_EXIT = frozenset({"-exit", "--exit", "-quit", "--quit"})


def rule_locker_off(c: Ctx) -> Optional[tuple]:
    """A screen locker ended, disabled, its service stopped, or every session unlocked."""
    name = c.prog.lower()
    lowered = [t.lower() for t in c.texts]
    said = set(lowered)
    if name.endswith("screensaver-command") and said & _EXIT:
        return MEDIUM, f"{c.prog} ends the screen saver: the screen no longer locks when left ({c.text})"
    if name == "xautolock" and said & ({"-disable", "-exit"}):
        return MEDIUM, f"{c.prog} stops locking the idle screen ({c.text})"
    if name == "systemctl" and said & _UNIT_VERBS:
        unit = next((t for t in lowered if _LOCKERS.match(t)), None)
        if unit is not None:
            return MEDIUM, f"stops or disables {unit}: the screen no longer locks when left ({c.text})"
    if name == "loginctl" and "unlock-sessions" in said:
        return MEDIUM, f"unlocks every session: whoever is at the screens gets in ({c.text})"
    joined = " ".join(lowered)
    if ("screensaverissecure" in joined or "screensaveactive" in joined) and "0" in said:
        return MEDIUM, f"the screen saver no longer locks the screen ({c.text})"
    return None


NAMES = frozenset({"xautolock", "systemctl", "loginctl", "reg", "reg.exe", "set-itemproperty", "sp",
                   "new-itemproperty"})


def may_unlock(prog: str) -> bool:
    name = prog.lower()
    return name in NAMES or name.endswith("screensaver-command")
