"""The kitty output source against a real kitty (xvfb), in both shells: the cases of
exact_output_cases.py, through kitty's marked rows (`kitty @ get-text --extent all --ansi`)."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from aish.context import sources
from tests.shell.exact_output_cases import (PROMPTS, Session, check_clear_then_a_question_with_a_key,
                                            check_full_screen, check_no_output, check_typed_ahead,
                                            check_wide_command_with_a_wrapped_key)
from tests.shell.kitty import Kitty
from tests.shell.shellenv import shell_command

pytestmark = [pytest.mark.shell, pytest.mark.slow]  # a real terminal on an X server: seconds


@dataclass
class KittyShell:
    tmux: Kitty  # the terminal (named as Session expects)
    runtime: Path


@pytest.mark.timeout(600)  # kitty's CLI takes a second per call on a busy machine
@pytest.mark.parametrize("shell_name", ["zsh", "bash"])
def test_kitty_sends_exactly_what_the_command_printed_or_nothing(aish_env, model, shell_name):
    command, env, _, work, _ = shell_command(shell_name, aish_env, after=PROMPTS[shell_name])
    kitty = Kitty(command, env, work, aish_env / "kitty.sock").start()
    try:
        s = Session(KittyShell(kitty, Path(os.environ["AISH_RUNTIME_DIR"])), model)
        notes = [check_wide_command_with_a_wrapped_key(s, "kitty"), check_no_output(s, "kitty"),
                 check_clear_then_a_question_with_a_key(s, "kitty"), check_full_screen(s, "kitty"),
                 check_typed_ahead(s)]
        # what was sent came from kitty's marked rows, and what was not says why in kitty's terms
        assert notes[0].endswith("(kitty)") and sources.NOTHING_MARKED in notes[1], notes
    finally:
        kitty.close()
