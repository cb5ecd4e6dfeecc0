"""``aish doctor`` on the live shell it runs in, not only the rc file.

A shell with aish loaded writes ``<runtime>/<shell>-<pid>.hooks`` just before a command
line that names ``doctor`` runs (its preexec hook, builtins only): its hooks and key
bindings as they stand now, after every plugin and framework had its turn.  This module
reads that report for the shell named by ``AISH_CONV`` (which the shell exports) and says
what no longer reaches aish, and how to fix it.  No report at all means the preexec hook
did not run for this very command.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

FRESH = 120.0  # seconds: the report is written by this command's own preexec

ZSH_WIDGETS = {"ask": "_aish_ask_widget", "explain": "_aish_explain_widget",
               "cycle": "_aish_cycle_widget", "fix": "_aish_fix_widget"}
BASH_FUNCTIONS = {"ask": "_aish_ask_key", "explain": "_aish_explain_key",
                  "cycle": "_aish_cycle_key", "fix": "_aish_fix_key"}
BASH_ENTER = '"\\C-m": "\\C-x\\C-]\\C-a\\C-x\\C-]\\C-b"'


@dataclass
class Verdict:
    """What doctor prints for the live shell: problems (each with its fix), notes, or all well."""

    label: str
    problems: list = field(default_factory=list)   # (what, fix)
    notes: list = field(default_factory=list)


def report_path(env: dict, rundir: Path) -> Optional[tuple]:
    """(shell, pid, path) of the report of the shell this command runs in, if any."""
    match = re.match(r"(zsh|bash)-(\d+)-", env.get("AISH_CONV", ""))
    if not match:
        return None
    shell, pid = match.group(1), match.group(2)
    return shell, pid, rundir / f"{shell}-{pid}.hooks"


def read_report(path: Path, now: Optional[float] = None) -> Optional[str]:
    try:
        if (now or time.time()) - path.stat().st_mtime > FRESH:
            return None
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def judge(shell: str, text: str) -> Verdict:
    return judge_zsh(text) if shell == "zsh" else judge_bash(text)


def _fields(text: str) -> dict:
    out = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep and " " not in key:
            out[key] = value
    return out


def judge_zsh(text: str) -> Verdict:
    f = _fields(text)
    verdict = Verdict(f.get("shell", "zsh"))
    if "_aish_precmd" not in f.get("precmd", "").split():
        verdict.problems.append(("aish's precmd hook is gone (statuses and output marks stop)",
                                 "load aish after the plugin that resets precmd_functions"))
    if "_aish_preexec" not in f.get("preexec", "").split():
        verdict.problems.append(("aish's preexec hook is gone (commands are not recorded)",
                                 "load aish after the plugin that resets preexec_functions"))
    if f.get("enter") == "lost":
        verdict.problems.append(("Enter no longer reaches aish: `? question` lines run as commands",
                                 "load aish after the plugin that replaces the accept-line widget"))
    main = re.search(r"^main bindkey -A (\w+) main$", text, re.M)
    used = {"emacs"} if main and main.group(1) == "emacs" else {"viins", "vicmd"}
    for km, name, seq, widget in re.findall(r'^key (\w+) (\w+) "(.*)" (\S+)$', text, re.M):
        if km in used and widget != ZSH_WIDGETS.get(name):
            verdict.problems.append((f"{seq} in {km} runs {widget}, not aish's {name} key",
                                     "load aish after the plugin that binds it, or set "
                                     f"AISH_KEY_{name.upper()} to a free key"))
    first = re.search(r'^vicmd-first-key "(.*)" (\S+)$', text, re.M)
    timeout = f.get("keytimeout", "")
    if ("vicmd" in used and first and first.group(2) != "undefined-key"
            and timeout.isdigit() and int(timeout) <= 10):
        verdict.notes.append(f"in vi normal mode {first.group(1)} runs {first.group(2)} and "
                             f"KEYTIMEOUT={timeout}: use \\a \\w \\y \\f there (AISH_KEY_VICMD_PREFIX)")
    return verdict


def judge_bash(text: str) -> Verdict:
    f = _fields(text)
    verdict = Verdict(f.get("shell", "bash"))
    via = f.get("via", "prompt_command")
    if via == "prompt_command" and not f.get("prompt_command", "").startswith("_aish_precmd pc"):
        verdict.problems.append(("PROMPT_COMMAND does not start with aish's hook, which then "
                                 "reads another command's $?",
                                 "assign PROMPT_COMMAND before aish loads, or add to it with "
                                 "PROMPT_COMMAND+=... after"))
    elif via == "1" and "_aish_precmd" not in f.get("precmd", "").split():
        verdict.problems.append(("aish's hook is missing from bash-preexec's precmd_functions",
                                 "load aish before bash-preexec, as bash-preexec asks to be last"))
    if via == "ble":
        verdict.notes.append("ble.sh: hooks through blehook, keys through ble-bind")
        return verdict
    mode = re.search(r"^set editing-mode (\w+)$", text, re.M)
    used = ("emacs",) if not mode or mode.group(1) == "emacs" else ("vi-insert", "vi-command")
    wanted = {name: value for name, value in re.findall(r"(\w+)=(\S*)", _line(text, "keys ")) if value}
    for km, body in re.findall(r"^keymap (\S+)\n(.*?)(?=^keymap |\Z)", text, re.M | re.S):
        if km not in used:
            continue
        if BASH_ENTER not in body:
            verdict.problems.append((f"Enter in {km} no longer reaches aish: `? question` lines "
                                     "run as commands", "load aish after the plugin that binds Enter"))
        for name in wanted:
            if f'"{BASH_FUNCTIONS[name]}"' not in body:
                verdict.problems.append((f"aish's {name} key ({wanted[name]}) is not bound in {km}",
                                         "load aish after the plugin that binds it, or set "
                                         f"AISH_KEY_{name.upper()} to a free key"))
    return verdict


def _line(text: str, prefix: str) -> str:
    return next((line for line in text.splitlines() if line.startswith(prefix)), "")
