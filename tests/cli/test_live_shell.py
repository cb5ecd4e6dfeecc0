"""What `aish doctor` makes of a live shell's report (the shells write it: tests/shell)."""
from __future__ import annotations

import os
import time

from aish.cli import live_shell

ZSH_OK = """shell=zsh 5.9
precmd=_aish_precmd _p9k_precmd
preexec=_aish_preexec
enter=wrapped
keytimeout=1
main bindkey -A viins main
vicmd-first-key "^X" zvm_readkeys_handler
key viins ask "^X^A" _aish_ask_widget
key vicmd ask "^X^A" _aish_ask_widget
key emacs ask "^X^A" self-insert
"""

BASH = """shell=bash 5.2
via=prompt_command
prompt_command=history -a; _aish_precmd pc
precmd=
keys ask=\\C-x\\C-a explain= cycle= fix=
set editing-mode emacs
keymap emacs
"\\C-x\\C-a": "_aish_ask_key"
"\\C-m": "\\C-x\\C-]\\C-a\\C-x\\C-]\\C-b"
keymap vi-insert
"""


def test_zsh_in_vi_mode_with_zsh_vi_mode_keys_is_fine_and_says_how_to_reach_them():
    verdict = live_shell.judge("zsh", ZSH_OK)
    assert verdict.problems == []      # emacs is not in use: its key does not matter
    assert any("\\a" in note and "KEYTIMEOUT=1" in note for note in verdict.notes)


def test_zsh_lost_hooks_enter_and_keys_are_each_named():
    verdict = live_shell.judge("zsh", ZSH_OK.replace("_aish_precmd ", "").replace("wrapped", "lost")
                               .replace('"^X^A" _aish_ask_widget\nkey vicmd', '"^X^A" beep\nkey vicmd'))
    text = " | ".join(what for what, _ in verdict.problems)
    assert "precmd hook is gone" in text and "Enter no longer" in text and "^X^A in viins runs beep" in text


def test_bash_prompt_command_order_and_keys():
    verdict = live_shell.judge("bash", BASH)
    assert [what for what, _ in verdict.problems] == [
        "PROMPT_COMMAND does not start with aish's hook, which then reads another command's $?"]
    fixed = BASH.replace("history -a; _aish_precmd pc", "_aish_precmd pc;history -a")
    assert live_shell.judge("bash", fixed).problems == []
    vi = fixed.replace("editing-mode emacs", "editing-mode vi")
    assert any("Enter in vi-insert" in what for what, _ in live_shell.judge("bash", vi).problems)


def test_only_this_commands_fresh_report_counts(tmp_path):
    assert live_shell.report_path({"AISH_CONV": "cli"}, tmp_path) is None
    shell, pid, path = live_shell.report_path({"AISH_CONV": "bash-42-7-9"}, tmp_path)
    assert (shell, pid, path.name) == ("bash", "42", "bash-42.hooks")
    path.write_text(BASH)
    assert live_shell.read_report(path) == BASH
    old = time.time() - 3600
    os.utime(path, (old, old))
    assert live_shell.read_report(path) is None
