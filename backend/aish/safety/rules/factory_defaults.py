"""Effect: a machine's firmware settings put back to their defaults, by any tool, and a machine's power cut
through its management controller's web API.

A server's out-of-band controller (BMC, iDRAC, iLO, XCC), its BIOS/UEFI setup and its RAID or network
card's firmware hold settings nobody wrote down: the controller's address, users and certificates (a
remote administrator loses the only console they had), the boot order, virtualisation and RAID settings.
Every vendor's tool spells "back to defaults" in its own fused words (``racresetcfg``,
``LoadDefaultBiosCfg``, ``factorydefaults``, ``config loaddefault BMC``, ``set factory defaults``) or
letters (``ipmicfg -fd``, ``hponcfg -r``), so the words are read for any program: a reset-to-defaults
word with a firmware word beside it (or said by a hardware tool), or a factory reset of anything.

Redfish, the controllers' HTTP API, powers the machine off or cycles it with a POST to
``…/Actions/ComputerSystem.Reset`` whose ``ResetType`` is ``ForceOff``, ``PowerCycle``…, and resets the
BIOS or the controller with ``Bios.ResetBios`` or ``Manager.ResetToDefaults``, whatever the client.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import HIGH, Ctx
from aish.safety.rules.triggers import triggered_by

# Any of these somewhere on the line, or a hardware tool's letter: the only lines the readings below look at.
_GATE = LazyRegex(r"default|factory|resetcfg|resetbios|/actions/|resettype", re.IGNORECASE)
# Words (lowered, with -, _ and . taken out) that say "settings back to defaults".
_TO_DEFAULTS = LazyRegex(r"factory(default|reset|setting)|reset(to)?(factory|defaults?)|(load|restore)(factory)?"
                         r"defaults?|resetcfg|resetbios|defaults?(bios|bmc|uefi|cmos|nvram)|"
                         r"(bios|bmc|uefi|cmos|nvram|ipmi|ilo|rac)defaults?")
_FACTORY = LazyRegex(r"factory(default|reset|setting)|reset(to)?factory")
# What holds the settings: the firmware or controller beside the word makes it a machine's, not an app's.
_FIRMWARE = LazyRegex(r"bios|bmc|uefi|cmos|nvram|ipmi|idrac|ilo\b|ilo\d|imm\b|xcc|rac|raid|controller|firmware|"
                      r"\b/c\d|fru|lom", re.IGNORECASE)
# Hardware and out-of-band management tools by name (vendors' CLIs: Dell, HPE, Lenovo, Supermicro, Intel...).
_HARDWARE_TOOL = LazyRegex(r"ipmi|racadm|idrac|ilo|hponcfg|onecli|^asu(64)?$|^sum$|smcipmi|syscfg|storcli|perccli|"
                           r"megacli|arcconf|ssacli|hpssacli|mlxconfig|redfish|bmc|bios|^xcc|conrep|lenovo|dell",
                           re.IGNORECASE)
# Hardware tools whose own letters reset the controller to defaults (Supermicro `ipmicfg -fd`, HPE `hponcfg -r`).
_DEFAULT_LETTERS = {"ipmicfg": re.compile(r"-fd\w*"), "hponcfg": re.compile(r"-r|--reset")}
# Redfish: a reset action, and the reset types that cut or cycle the machine's power.
_REDFISH_ACTION = LazyRegex(r"/Actions/(\w+)\.(Reset\w*)", re.IGNORECASE)
_POWER_CUT = LazyRegex(r"ResetType\W+(Force\w*|PowerCycle|GracefulShutdown|GracefulRestart|PushPowerButton|Nmi)\b",
                       re.IGNORECASE)


@triggered_by(_GATE, _DEFAULT_LETTERS, otherwise=False)
def may_reset(c: Ctx) -> bool:
    """A cheap test before the readings: one search of the line."""
    return c.prog.lower() in _DEFAULT_LETTERS or bool(_GATE.search(c.prog + " " + " ".join(c.texts)))


def rule_defaults_restored(c: Ctx) -> Optional[tuple]:
    """Firmware or a controller's settings put back to defaults, or the machine's power cut through Redfish."""
    return _letters(c) or _redfish(c) or _words(c)


def _letters(c: Ctx) -> Optional[tuple]:
    letters = _DEFAULT_LETTERS.get(c.prog.lower())
    said = next((t for t in c.texts if letters.fullmatch(t)), None) if letters else None
    if said is None:
        return None
    return HIGH, f"{c.prog} {said} resets the management controller to factory defaults: its address, users and " \
        f"certificates are gone and remote access with them ({c.text})"


def _redfish(c: Ctx) -> Optional[tuple]:
    line = " ".join(c.texts)
    action = _REDFISH_ACTION.search(line)
    if action is None:
        return None
    name = f"{action.group(1)}.{action.group(2)}"
    if action.group(2).lower() in ("resetbios", "resettodefaults"):
        return HIGH, f"{c.prog} calls {name}: the machine's firmware settings go back to defaults ({c.text})"
    cut = _POWER_CUT.search(line)
    if cut is None:
        return None
    return HIGH, f"{c.prog} calls {name} with {cut.group(1)}: the machine's power is cut or cycled, what it had " \
        f"not written is lost ({c.text})"


# Words before a final `factory` that make it a name (`rails g factory`, `make:factory`), not the reset called.
_MAKES = frozenset({"g", "generate", "new", "make", "create", "add", "list", "show", "get", "describe", "help"})


def _words(c: Ctx) -> Optional[tuple]:
    if len(c.texts) >= 2 and c.texts[-1].lower() == "factory" and c.texts[-2].lower() not in _MAKES and \
            not c.texts[-2].startswith("-"):  # `ubus call rpc-sys factory`: the call is the factory reset itself
        return HIGH, f"{c.prog} {' '.join(c.texts[-2:])} resets the device to its factory state: every setting " \
            f"and what it stored are lost ({c.text})"
    hardware = bool(_HARDWARE_TOOL.search(c.prog))
    words = [c.prog] + c.texts
    flat = [re.sub(r"[-_.]", "", t.lower()) for t in words]
    spans = [(k, k + 1) for k in range(len(words))] + \
        [(k, k + 2) for k in range(len(words) - 1) if not words[k].startswith("-") and not words[k + 1].startswith("-")]
    for start, end in spans:  # one word (`racresetcfg`), else two (`factory defaults`, `loaddefault BMC`)
        found = _TO_DEFAULTS.search("".join(flat[start:end]))
        if found is None:
            continue
        nearby = " ".join(words[max(start - 2, 0):end + 2])
        if not (hardware or _FACTORY.search(found.group(0)) or _FIRMWARE.search(found.group(0)) or
                _FIRMWARE.search(nearby)):
            continue
        said = c.prog if start == 0 else f"{c.prog} {' '.join(words[start:end])}"
        return HIGH, f"{said} puts the machine's firmware or controller settings back to defaults: its network " \
            f"address, users, boot and RAID settings are lost ({c.text})"
    return None
