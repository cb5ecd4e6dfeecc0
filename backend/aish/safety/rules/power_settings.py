"""Effect: a machine, an appliance or what an outlet feeds switched off by a word given to a program no rule names.

Power is rarely cut by a program called ``poweroff``.  Controllers' libraries, home-automation clients, message
brokers' publishers and TV or UPS tools take the action as one of their own words, and what it says is the same
whatever the program:

- a power-cut compound as an operand, not of a drive (``obmcutil poweroff``, ``X chassiskill``,
  ``samsungctl KEY_POWEROFF``, ``hpilo_cli HOST cold_boot_server``, ``X host power-cycle``): the machine or device
  loses power at once;
- a power switch's setting turned off, in the word itself or in the value after it (``host_power=False``,
  ``switch.turn_off``, ``load.off``, ``setPowerState 10.0.0.4 false``, ``-t cmnd/rack/POWER -m OFF``,
  ``relay/0?turn=off``, ``cm?cmnd=Power%20Off``): the outlet, plug or UPS output and whatever it feeds go dark;
- a device's own reboot said as the program's first word with a device's address (``X --host 10.0.0.9
  reboot``).

Reading (``status``, ``get``, ``show``), turning on, and settings of power saving (``power_save off``,
``powersave``, LEDs, profiles) stay quiet.  ``http`` asks ``query_powers_off`` about an address's query.
"""
from __future__ import annotations

import re
from typing import Optional
from urllib.parse import unquote_plus

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.verb_words import split_word
from aish.safety.lazy_regex import lazy

_GATE = ("off", "false", "power", "reset", "kill", "cold", "cycle", "reboot", "down")
# One word or two adjacent words that cut the power.
_CUT_WORDS = frozenset({"poweroff", "powerdown", "powercycle", "coldreset", "hardreset", "forceoff", "chassiskill",
                        "chassispoweroff", "poweroffhard", "coldboot"})
_CUT_FIRST = {"power": {"off", "down", "cycle", "kill"}, "chassis": {"off", "kill", "cycle"},
              "cold": {"reset", "boot", "reboot", "restart"}, "hard": {"reset", "off", "reboot", "poweroff"},
              "force": {"off", "poweroff"}}
# Nouns of a power switch: its setting turned off cuts what it feeds.
_SWITCH_NOUNS = frozenset({"power", "relay", "outlet", "outlets", "plug", "plugs", "ups", "load", "switch",
                           "breaker", "mains"})
_OFF_VALUES = frozenset({"off", "false"})
# Settings of saving power or of a light on the device: not its power.
_SETTING_NOUNS = frozenset({"save", "saving", "saver", "savings", "led", "leds", "light", "profile", "mode", "policy",
                            "management", "limit", "usage", "meter", "button", "notify", "notification", "supply",
                            "monitor", "report", "timeout", "delay", "schedule", "on"})
_READS = frozenset({"status", "get", "show", "list", "info", "query", "state", "--help", "help", "monitor",
                    "read", "dump", "describe", "watch", "sub", "subscribe", "--version"})
# Options whose value is a command run on some event, not now (`cbatticon -c poweroff`: at low battery).
_RUNS_LATER = lazy(r"^(-[cex]|--(command|cmd|exec|execute|run|script|hook|action)|--on[-_]?\w*|--\w*[-_]cmd)$")
_ADDRESS = lazy(r"^(\d{1,3}(\.\d{1,3}){3}(:\d+)?|[\w-]+(\.[\w-]+)+(:\d+)?|[\w.-]+@[\w.-]+)$")
_HOST_OPTIONS = frozenset({"--host", "-H", "--ip", "--address", "-a", "--target", "-t", "--device", "--bmc",
                           "-h"})


@triggered_by(_GATE, otherwise=False)
def may_switch_off(c: Ctx) -> bool:
    """Cheap: a power, off or reset word somewhere after the program's name."""
    return bool(c.texts) and any(w in c.lowered for w in _GATE)


def _cut(words: list) -> Optional[str]:
    """The power-cut word or pair in one word's parts (``KEY_POWEROFF``, ``cold_boot_server``)."""
    for k, w in enumerate(words):
        if w in _CUT_WORDS:
            return w
        if k + 1 < len(words) and words[k + 1] in _CUT_FIRST.get(w, ()):
            if not _SETTING_NOUNS & set(words):
                return f"{w} {words[k + 1]}"
    return None


def _switched_off(words: list) -> bool:
    """A switch's noun and an off value in one word (``host_power=False``, ``switch.turn_off``, ``load.off``)."""
    flat = [p for w in words for p in w.split("=")]
    return bool(_SWITCH_NOUNS & set(flat)) and bool(_OFF_VALUES & set(flat)) and not _SETTING_NOUNS & set(flat)


def _parts(token: str) -> list:
    return split_word(unquote_plus(token).replace(" ", "_").lstrip("@"))


def query_powers_off(query: str) -> Optional[str]:
    """A query that switches a device's power off (``turn=off``, ``cmnd=Power%20Off``, ``power=off``)."""
    for pair in re.split(r"[&;]", query):
        key, _, value = pair.partition("=")
        key_words, value_words = _parts(key), _parts(value)
        if _cut(value_words) or _switched_off(key_words + value_words) or \
                key.lower() in ("turn", "state", "action", "cmd", "op") and value.lower() in _OFF_VALUES:
            return pair
    return None


def rule_power_setting(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:48]
    lowered = [t.lower() for t in texts]
    if set(lowered) & _READS:
        return None
    operands = [t for k, t in enumerate(texts) if not t.startswith("-") and not (k and _RUNS_LATER.match(texts[k - 1]))
                or k and texts[k - 1] in ("-m", "--message")]
    switch_seen = False
    if any(t.startswith("/dev/") for t in texts):  # `udisksctl power-off -b /dev/sdc`: a drive safely detached
        return None
    for t in operands:
        words = _parts(t)
        cut = _cut(words)
        if cut:
            return MEDIUM, f"{c.prog} {t}: the machine or device loses power at once ({c.text})"
        if _switched_off(words):
            return MEDIUM, f"{c.prog} {t}: a power switch is turned off, what it feeds goes dark ({c.text})"
        if switch_seen and t.lower() in _OFF_VALUES:
            return MEDIUM, f"{c.prog} … {t}: a power switch is turned off, what it feeds goes dark ({c.text})"
        nouns = set(words)  # a switch named in a compound word (`setPowerState`, `cmnd/rack/POWER`); a bare `power
        # off` is read by the stop rules, which leave a radio's (`bluetoothctl power off`)
        switch_seen = switch_seen or len(words) > 1 and bool(_SWITCH_NOUNS & nouns and not _SETTING_NOUNS & nouns)
    first = next((t.lower() for k, t in enumerate(texts) if not t.startswith("-") and
                  not (k and texts[k - 1] in _HOST_OPTIONS)), "")
    if first == "reboot" and any(_ADDRESS.match(t) or t in _HOST_OPTIONS for t in texts):
        return MEDIUM, f"{c.prog} reboot: the device at that address restarts, what it runs stops ({c.text})"
    return None
