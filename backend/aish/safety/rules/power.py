"""Machines powered off, cycled or put to sleep by a controller, in any vendor's words.

Out-of-band controllers (IPMI, iDRAC, iLO, Redfish, Supermicro, xCAT, powerman) and hypervisors
cut a host's power the way pulling the plug does: what it had not written is lost, and a remote
host answers no one until someone powers it on.  Their CLIs share a few shapes, read here instead
of a table of programs:

- the word ``power`` (a subcommand ``chassis power off``, a dotted name ``vm.power -off``, a
  program named for it ``rpower``, ``ipmipower``, ``powerman``) followed by off, cycle, reset,
  down, soft or hard;
- a fused power action anywhere on the line (``serveraction powercycle``, ``reboot ForceOff``,
  ``Systems reset ForceRestart``, ``hardreset``);
- an option or key whose value is the power action (``--command shutdown``, ``action=poweroff``);
- the management controller itself restarted (``mc reset cold``, ``--cold-reset``);
- the machine put to sleep or off by the clock (``rtcwake -m off``, ``pm-hibernate``,
  ``systemctl hibernate``).

Reading the power state, powering on and waking stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.any_case import AnyCase
from aish.safety.programs import READ_ONLY
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_POWER_NAME = re.compile(r"^(r|ipmi-?|bmc-?|x)?power(man|ctl)?$|^pm$", re.IGNORECASE)
_POWER_WORD = AnyCase(r"(^|[._:-])power$")
_CUT = lazy(r"^-{0,2}(off|cycle|reset|down|soft|hard|forceoff|force-off|kill|halt|shutdown|poweroff|"
            r"power-off|0|c|r)$", re.IGNORECASE)
_CUT_AFTER_NAME = lazy(r"^-{0,2}(off|cycle|reset|down|soft|hard|forceoff|force-off|halt|shutdown|poweroff|"
                       r"power-off)$", re.IGNORECASE)
# Fused power actions: Redfish's reset types, iDRAC's server actions, firmware words.
_FUSED = re.compile(r"^(power-?down|power-?cycle|hard-?reset|force-?off|force-?restart|force-?poweroff|"
                    r"power-?reset|cold-?reset|warm-?reset|graceful-?shutdown|grace-?shutdown|graceful-?restart|"
                    r"push-?power-?button|--cold-reset|--warm-reset|-cold-reset|power-?off-?hard|immediate-?off|racreset|"
                    r"sleepnow)$",
                    re.IGNORECASE)
_VALUE_KEYS = re.compile(r"^-{0,2}(command|action|state|power|power-?state|powerstate|power_state|operation|op|"
                         r"chassis-control|control)(?:=(.+))?$", re.IGNORECASE)
_ACTIONS = lazy(r"^(shutdown|reboot|poweroff|power-?off|off|halt|reset|cycle|stop|forceoff|hardreset|power-?down|"
                r"power-?cycle|hard-?reset|soft-?shutdown)$", re.IGNORECASE)
# Only these programs read "power": a Bluetooth adapter or a wireless card powered off is not a machine.
_NOT_MACHINES = frozenset({"bluetoothctl", "btmgmt", "iw", "iwconfig", "nmcli", "rfkill", "xset", "vcgencmd",
                           "powerprofilesctl", "powertop", "upower", "powercfg", "tlp", "cpupower", "ddcutil",
                           "hciconfig", "uhubctl", "ykman", "adb", "echo", "printf"})
_SLEEPS = frozenset({"pm-hibernate", "pm-suspend", "pm-suspend-hybrid", "s2ram", "s2disk", "s2both", "zzz", "ZZZ",
                     "hibernate", "hibernate-ram", "hibernate-disk"})
_SLEEP_VERBS = frozenset({"hibernate", "suspend", "hybrid-sleep", "suspend-then-hibernate", "sleep"})
_RTC_MODES = frozenset({"off", "disk", "mem", "standby", "freeze"})


# Out-of-band controllers by name: their `power` and `reset` act on the host they manage.
_OUT_OF_BAND = re.compile(r"ipmi|bmc|racadm|idrac|^ilo|redfish|^smc|openbmc|obmc|hponcfg|^xcat|^r(power|setboot)$",
                          re.IGNORECASE)
_OOB_LETTERS = frozenset({"-d", "-c", "-r", "-s", "-o", "-n", "-D"})  # `ipmiutil power -d` (down), `reset -c`
# Raw IPMI chassis control (netfn 0x00, command 0x02): 0 down, 2 cycle, 3 hard reset, 5 soft off.
_RAW_CHASSIS = lazy(r"^raw 0x0?0 0x0?2 0x0?[0235]$")
# Session and power managers' methods over D-Bus (`busctl call org.freedesktop.login1 … Suspend b true`).
_DBUS_METHOD = lazy(r"(^|\.)(PowerOff|Reboot|Halt|Suspend|Hibernate|HybridSleep|SuspendThenHibernate|KExec|"
                    r"Stop|RequestShutdown|RequestReboot)$")
_DBUS_PROGRAMS = frozenset({"busctl", "dbus-send", "gdbus", "qdbus", "qdbus6", "dbus"})
_FORCED = lazy(r"^(-f|--force|--kill|-k|force|hard|--hard|--force-?stop|--forcestop|force=(true|yes|1)|"
               r"--force=(true|yes|1)|-force|--forceStop)$", re.IGNORECASE)
_STOPS = frozenset({"stop", "halt", "shutdown", "poweroff", "power-off"})
_NOT_GUESTS = frozenset({"systemctl", "service", "docker", "podman", "nerdctl", "kill", "pkill", "killall",
                         "rc-service", "launchctl", "sv", "supervisorctl", "git", "brew", "nginx", "apachectl"})


# Every reading below needs one of these words (a power verb, a force, a controller's action key, a sleep mode);
# the trigger index reads them from the pattern (each letter after a dash its own alternative: a class gives no word).
_GATE = AnyCase(r"power|reset|off|cycle|down|shut|reboot|halt|sleep|suspend|hibernat|force|kill|hard|stop|mc\b|"
                r"command|action|state|control|operation|op\b|restart|raw|-d\b|-c\b|-r\b|-s\b|-o\b|-n\b|-0\b|"
                r"disk|mem|freeze|login1|ConsoleKit")
_MAX_WORDS = 64


@triggered_by(_GATE, _SLEEPS)  # a sleeping program's name, or the gate's words in its arguments
def rule_power_control(c: Ctx) -> Optional[tuple]:
    """Any controller told to cut, cycle or reset a machine's power, or to put it to sleep."""
    prog = c.prog
    if prog in READ_ONLY or prog.lower() in _NOT_MACHINES:
        return None
    texts = c.texts
    if prog in _SLEEPS:
        return sleeps_by_name(c)
    if not texts or not _GATE.occurs_in(" ".join(texts[:_MAX_WORDS])):
        return None  # none of the words any reading below needs (most commands: one search, not one per word)
    if prog in _DBUS_PROGRAMS and any("login1" in t or "ConsoleKit" in t for t in texts):
        method = next((t for t in texts if _DBUS_METHOD.search(t)), None)
        if method:
            return MEDIUM, f"{prog} asks the session manager to {method.rsplit('.', 1)[-1]}: the machine stops or " \
                f"sleeps ({c.text})"
    found = _out_of_band(c) if _OUT_OF_BAND.search(prog) else None
    if found is None:
        found = _forced_stop(c)
    if found is not None:
        return found
    if prog in ("systemctl", "loginctl") and texts[0] in _SLEEP_VERBS:
        return MEDIUM, f"{prog} {texts[0]} puts the machine to sleep: remote sessions drop until it wakes ({c.text})"
    if prog == "rtcwake":
        return _rtcwake(c)
    if _POWER_NAME.match(prog):
        cut = next((t for t in texts if _CUT_AFTER_NAME.match(t) or t in ("-0", "-c", "-r")), None)
        if cut:
            return MEDIUM, f"{prog} {cut} cuts the power of the machines it controls ({c.text})"
    for k, t in enumerate(texts):
        nxt = texts[k + 1] if k + 1 < len(texts) else ""
        if _POWER_WORD.occurs_in(t) and _CUT.match(nxt) and not (nxt.lower() in ("0", "c", "r") and "-" not in nxt):
            return MEDIUM, f"{prog} {t} {nxt} cuts the machine's power: what it had not written is lost ({c.text})"
        if _FUSED.match(t):
            return MEDIUM, f"{prog} {t} cuts or resets the machine's power ({c.text})"
        if t.lower() == "mc" and nxt.lower() == "reset":
            return MEDIUM, f"{prog} mc reset restarts the management controller ({c.text})"
        key = _VALUE_KEYS.match(t) if t.startswith("-") or "=" in t else None
        if key is not None:
            value = key.group(2) or (nxt if t.startswith("-") else "")
            if value and _ACTIONS.match(value) and (key.group(2) or value.lower() not in ("stop", "off", "reset")):
                return MEDIUM, f"{prog} {t if key.group(2) else t + ' ' + value} stops or restarts the machine " \
                    f"({c.text})"
    return None


def sleeps_by_name(c: Ctx) -> Optional[tuple]:
    """A program named for putting the machine to sleep (``pm-hibernate``, ``zzz``)."""
    if c.prog in _SLEEPS:
        return MEDIUM, f"{c.prog} puts the machine to sleep: remote sessions drop until it wakes ({c.text})"
    return None


def _rtcwake(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    for k, t in enumerate(texts):
        mode = t.split("=", 1)[1] if t.startswith(("--mode=", "-m=")) else \
            texts[k + 1] if t in ("-m", "--mode") and k + 1 < len(texts) else ""
        if mode in _RTC_MODES:
            what = "powers the machine off" if mode == "off" else "puts the machine to sleep"
            return MEDIUM, f"rtcwake -m {mode} {what} until the clock wakes it ({c.text})"
    return None


def _out_of_band(c: Ctx) -> Optional[tuple]:
    """``ipmiutil power -d``, ``ipmiutil reset -c``, ``ipmitool raw 0x00 0x02 0x03``: a controller's own letters."""
    texts = c.texts
    lowered = [t.lower() for t in texts]
    if _RAW_CHASSIS.match(" ".join(lowered[-4:])):
        return MEDIUM, f"{c.prog} sends the chassis control command: the host's power is cut or reset ({c.text})"
    for word in ("power", "reset", "chassis"):
        if word in lowered and not _OOB_LETTERS.isdisjoint(texts[lowered.index(word) + 1:]):
            return MEDIUM, f"{c.prog} {word} cuts, cycles or resets the host's power ({c.text})"
    return None


def _forced_stop(c: Ctx) -> Optional[tuple]:
    """A guest or a volume stopped by force (``incus stop web --force``, ``xe vm-shutdown force=true``,
    ``gluster volume stop v force``): the plug is pulled, and what it had not written is lost."""
    if c.prog.lower() in _NOT_GUESTS:
        return None
    operands = [t.lower() for t in c.texts if not t.startswith("-")][:3]
    if operands[:1] and operands[0].endswith("vm") and set(operands[2:3]) & {"poweroff", "reset"}:
        return MEDIUM, f"{c.prog} {operands[0]} {operands[2]} cuts the guest's power: what it had not written is " \
            f"lost ({c.text})"  # `VBoxManage controlvm web poweroff`
    verb = next((t for t in operands if t in _STOPS or t.rsplit("-", 1)[-1] in _STOPS), None)
    if verb is None or not any(_FORCED.match(t) for t in c.texts):
        return None
    return MEDIUM, f"{c.prog} {verb}, forced: like pulling the plug, unsaved state is lost ({c.text})"
