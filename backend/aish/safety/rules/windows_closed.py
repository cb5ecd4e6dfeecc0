"""Effect: every window or application closed or killed through desktop automation.

Closing one window is everyday; closing every one loses whatever was unsaved in all of them.  The
desktop tools say "every one" in their own ways: a close fed a listing of windows
(``wmctrl -l | … | xargs -n1 wmctrl -ic``, ``for w in $(xdotool search --name .); do xdotool
windowkill $w; done``), a search matching everything (``xdotool search --name '.*' windowkill``,
``%@`` after a catch-all pattern), criteria matching every window (``swaymsg '[class=".*"] kill'``,
``i3-msg '[all] kill'``), ``xkill -all``, a client loop (``herbstclient foreach C clients. close C``,
``awesome-client 'for _, c in ipairs(client.get()) do c:kill() end'``), AppleScript quitting every
application; and a window manager or compositor told to exit (``hyprctl dispatch exit``, ``swaymsg
exit``).  One window by name, listings and moves stay quiet.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules import listing
from aish.safety.rules.common import MEDIUM, Ctx

_DOTOOLS = frozenset({"xdotool", "kdotool", "xdo", "wdotool"})
_CLOSE_ACTIONS = frozenset({"windowkill", "windowclose", "windowquit", "close", "kill"})
# xdotool search's options that take a value; the pattern is the first operand after `search`.
_SEARCH_VALUED = frozenset({"--desktop", "--limit", "--pid", "--screen", "--maxdepth", "--sync"})
_SEARCH_FLAGS_TAKING_NONE = frozenset({"--name", "--class", "--classname", "--role", "--title", "--onlyvisible",
                                       "--all", "--any", "--sync"})
_MATCHES_ALL = frozenset({"", ".", ".*", ".+", "^", "^.*", "^.*$", "*", "$", "[a-z]*", "\\w*", ".?"})
# i3/sway-style criteria matching every window, followed by kill: [class=".*"] kill, [all] kill.
_EVERY_CRITERIA = lazy(r"\[\s*(all|(class|app_id|title|instance|con_id|window_role|shell)\s*=\s*[\"']?"
                       r"(\.\*|\.\+|\.|\^|\^\.\*\$?|__all__)?[\"']?)\s*\]\s*(kill|close)\b")
_WM_MESSAGES = frozenset({"swaymsg", "i3-msg", "hyprctl", "bspc", "herbstclient", "riverctl", "awesome-client",
                          "qtile", "niri", "wayfire", "labwc", "dwm-msg", "xmonadctl", "leftwm-command", "berryc",
                          "spectrwm", "fluxbox-remote", "openbox", "mmsg", "msg"})
_EXIT_WORDS = frozenset({"exit", "quit", "logout"})
_CLIENT_LOOP = lazy(r"(foreach\b.*\bclients\b.*\b(close|kill)\b|client\.get\(\).*:(kill|close)\(\)|"
                    r"\ball\b.*\bwindows\b.*\b(kill|close)\b)", 0)
_EVERY_APP = lazy(r"(quit|kill|close)\b[^\n]*\bevery\s+(application|process|app|window)|"
                  r"\bevery\s+(application\s+)?process\b[^\n]*\b(quit|kill)\b|"
                  r"repeat\s+with\s+\w+\s+in\b[^\n]*\b(to|then)\s+quit\b")


def _closes(c: Ctx, lowered: list) -> bool:
    if c.prog == "wmctrl":
        return any(t.startswith("-") and not t.startswith("--") and "c" in t[1:] for t in c.texts)
    if c.prog == "bspc":  # bspc node NODE -c|--close|-k|--kill
        return bool({"-c", "--close", "-k", "--kill"} & set(c.texts))
    return bool(set(lowered) & _CLOSE_ACTIONS)


def _search_matches_all(texts: list) -> bool:
    """Does ``search [options] PATTERN`` match every window?"""
    if "search" not in texts:
        return False
    k = texts.index("search") + 1
    while k < len(texts) and texts[k].startswith("--"):
        k += 2 if texts[k] in _SEARCH_VALUED else 1
    return k < len(texts) and texts[k].strip("'\"") in _MATCHES_ALL


def rule_every_window_closed(c: Ctx) -> Optional[tuple]:
    """Every window or application closed through desktop automation."""
    name = c.prog.lower().rsplit("/", 1)[-1]
    texts = c.texts
    lowered = [t.lower() for t in texts]
    if {"--help", "-h"} & set(lowered):
        return None
    if name == "xkill" and {"-all", "-a"} & set(lowered):
        return MEDIUM, f"xkill -all kills every client with a window: unsaved work in all of them is lost ({c.text})"
    if (name == "wmctrl" or name in _DOTOOLS or name in _WM_MESSAGES) and _closes(c, lowered):
        found = listing.from_listing(c)
        if found:
            return MEDIUM, f"{c.prog} closes every window '{found[:40]}' lists: unsaved work is lost ({c.text})"
        if name in _DOTOOLS and _search_matches_all(texts):
            return MEDIUM, f"{c.prog} closes every window its search matches (all of them): unsaved work is " \
                f"lost ({c.text})"
    joined = " ".join(texts)
    if name in _WM_MESSAGES:
        if _EVERY_CRITERIA.search(joined) or _CLIENT_LOOP.search(joined):
            return MEDIUM, f"{c.prog} kills every window: unsaved work in all of them is lost ({c.text})"
        operands = [t for t in lowered if not t.startswith("-")]
        if operands[:2] and (operands[0] in _EXIT_WORDS or operands[0] == "dispatch" and
                             operands[1:2] and operands[1] in _EXIT_WORDS):
            return MEDIUM, f"{c.prog} tells the window manager to exit: the session ends, every window closes " \
                f"({c.text})"
        if operands[:1] and operands[0] in _EXIT_WORDS:
            return MEDIUM, f"{c.prog} tells the window manager to exit: the session ends, every window closes " \
                f"({c.text})"
    if name == "osascript" and _EVERY_APP.search(joined.lower()):
        return MEDIUM, f"osascript quits every application: unsaved work in all of them is lost ({c.text})"
    return None


# The programs this rule reads (looked up by name from the table's class rules: naming them in the table
# would make them "known" and take them from the rules that judge unknown programs).
NAMES = _DOTOOLS | _WM_MESSAGES | {"wmctrl", "xkill", "osascript"}
