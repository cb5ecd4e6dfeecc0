"""Effect: the machine, the session or a cluster stopped, in any program's own words.

``shutdown`` and ``init 0`` have rules of their own; many other programs end a machine's run:
other init systems and their helpers (``openrc shutdown``, ``dinitctl poweroff``, ``s6-poweroff``,
``runit-init 0``, ``busybox halt``, ``herd stop root``), control programs of services and
clusters (``sudo X shutdown``, ``scontrol shutdown``, ``badmin hshutdown all``, ``condor_off
-all``), nodes or partitions set down (``scontrol update nodename=… state=down``), window
managers and compositors told to quit (every window closes), and ``xargs kill`` on whatever a
listing names.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.any_case import AnyCase
from aish.safety.rules import listing, netdevices, power
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_POWER_WORDS = {"shutdown", "poweroff", "power-off", "halt", "reboot"}
# Init systems and service managers, by name: their power words and what stops everything.
_INIT_MANAGERS = lazy(r"^(openrc|dinitctl|dinit|herd|shepherd|initctl|s6-rc|s6-svscanctl|66|66-intree|runit|"
                      r"busybox|toybox|sysvinit|finit|finitctl|upstart|systemd|launchd|rc|rcctl|"
                      r"openrc-init|busybox\.static)$")
_STOPS_ALL = {("herd", "stop", "root"), ("shepherd", "stop", "root"), ("s6-rc", "-da", "change"),
              ("dinitctl", "stop", "boot"), ("rcctl", "stop", "all"), ("finitctl", "stop", "all")}
# A program whose name is the power verb (`openrc-shutdown`, `s6-poweroff`, `dinit-reboot`), or an init that
# takes a runlevel (`runit-init 0`).
_POWER_NAME = re.compile(r"(^|[-_])(shutdown|poweroff|halt|reboot)(\.exe)?$")
_RUNLEVEL_INIT = lazy(r"(^|[-_])init$")
# Control programs: their `shutdown` stops the service or cluster they control.
_CONTROLLER = lazy(r"(ctl|control|admin|adm|mgr|manager)$|^(scontrol|badmin|lsadmin|qmgr|condor_\w+)$")
_NODE_DOWN = AnyCase(r"^(state|status)=(down|drain|drained|draining|fail|failing|offline|power_down|"
                     r"power_down_force|maint|disabled|reboot_asap)$")
_SCOPES = {"all", "-all", "--all", "-a"}
# Window managers and compositors, and their message programs.
_WINDOW_MANAGERS = AnyCase(r"^(awesome(-client)?|labwc|wayfire|niri|river(ctl)?|qtile|dwl|dwm|xmonad|"
                           r"fluxbox(-remote)?|openbox|icewm(-session)?|jwm|fvwm\d?|FvwmCommand|pekwm|spectrwm|"
                           r"herbstclient|bspc|i3-msg|i3|sway|swaymsg|hyprctl|wmctrl|xfwm4|kwin\w*|"
                           r"mutter|gnome-shell|cosmic-\w+|miracle-wm|leftwm(-command)?|enlightenment_remote|"
                           r"ratpoison|stumpish|wmiir|mango\w*|picom|weston|cage|gamescope|dwm-msg|"
                           r"somewm|xmonadctl|berryc|2bwm|evilwm|ctwm|twm|e16)$")
_QUIT = lazy(r"(^|[^a-z])(quit|exit|logout|log-out)([^a-z]|$)", re.IGNORECASE)
_NOT_DOING = {"--help", "-h", "--version", "-v"}
_GENTLE = {"-0", "-HUP", "-s0", "-CONT", "-USR1", "-USR2", "-WINCH", "-SIGHUP", "-SIGCONT", "-1", "-10", "-12",
           "-18"}


def rule_machine_stop(c: Ctx, known: bool) -> Optional[tuple]:
    """Any init system, controller or window manager told to stop everything it runs."""
    prog = c.prog.lower().removesuffix(".exe")
    texts = c.texts
    if not texts and not c.xargs:  # a bare program: only its name can say it (`pm-hibernate`, `firstboot`)
        named = power.sleeps_by_name(c) or netdevices.rule_factory_or_fused(c)
        if named is not None:
            return named
        return (MEDIUM, f"{c.prog} shuts the machine down or restarts it ({c.text})") if _POWER_NAME.search(prog) \
            and not known else None
    listed = listing.rule_stops_listed(c) or power.rule_power_control(c) or \
        netdevices.rule_factory_or_fused(c)  # before `-h`, a host to these
    if listed is not None:
        return listed
    return _stops_everything(c, known)


_STOPS_ALL_NAMES = frozenset(names[0] for names in _STOPS_ALL)


_STOP_TAIL = lazy(r"[-_](off|shutdown|stop|halt)$")


@triggered_by("kill", _INIT_MANAGERS, _STOPS_ALL_NAMES, _POWER_NAME, _RUNLEVEL_INIT,
              ("shutdown", "poweroff", "off", "stop", "halt"), _NODE_DOWN, _QUIT)
def _stops_everything(c: Ctx, known: bool) -> Optional[tuple]:
    """An init, a controller, a window manager or a listing's kill told to stop everything it runs."""
    prog = c.prog.lower().removesuffix(".exe")
    texts = c.texts
    lowered = [t.lower() for t in texts]
    if set(lowered) & _NOT_DOING:
        return None
    operands = [t for t in lowered if not t.startswith("-")]
    if c.xargs and prog in ("kill", "pkill", "killall") and not set(texts) & _GENTLE:
        return MEDIUM, f"kills every process the listing before it names ({c.text})"
    if known:
        return None
    if _INIT_MANAGERS.match(prog) and operands[:1] and operands[0] in _POWER_WORDS | {"0", "6"} or \
            tuple([prog] + lowered[:2]) in _STOPS_ALL:
        return MEDIUM, f"{c.prog} {' '.join(texts[:2])} stops every service: the machine goes down ({c.text})"
    if _POWER_NAME.search(prog) or _RUNLEVEL_INIT.search(prog) and operands[:1] and operands[0] in ("0", "6"):
        return MEDIUM, f"{c.prog} shuts the machine down or restarts it ({c.text})"
    first = operands[0] if operands else ""
    if first.endswith(("shutdown", "poweroff")) and (c.sudo or _CONTROLLER.search(prog)):
        scope = ", on every host" if set(lowered) & _SCOPES else ""
        return MEDIUM, f"{c.prog} {first} shuts down what it controls{scope} ({c.text})"
    if _STOP_TAIL.search(prog) and set(lowered) & _SCOPES:
        return MEDIUM, f"{c.prog} stops it on every host it reaches ({c.text})"
    if any(_NODE_DOWN.starts(t) for t in texts) and set(operands[:1]) & {"update", "set", "modify"}:
        return MEDIUM, f"{c.prog} takes nodes or partitions out of service: their jobs stop ({c.text})"
    if _WINDOW_MANAGERS.starts(c.prog) and any(_QUIT.search(t) for t in texts):
        return MEDIUM, f"{c.prog} quits the window manager: the session ends, every window closes ({c.text})"
    return None
