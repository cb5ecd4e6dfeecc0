"""A Ctrl-C that lands as an answer ends, in both shells: after its command's frame was read
and before that command is on the prompt line.

The user pressed Ctrl-C meaning "stop", before the command reached the line: it must not be
left there as if accepted, nor the key lost without a word (the answer's text stays on
screen).  bench/stress_ctrl_c.py found the moment (1 round in 40, `--seed 14`): bash printed
`[aish] cancelled` and put the command on the line all the same; zsh lost the key in the
request's `always` block (its cleanup cut short, the command placed).  The moment is a few
instructions wide, so the test holds each step of it open: the shell's rc wraps the
functions that run there, and a wrapper armed by the test waits (until the key ends the
wait) where it is called.  Each round: one step held, the Ctrl-C, then `[aish] cancelled`
and one empty prompt, no command.
"""
from __future__ import annotations

from tests.stub_server import Reply
from tests.shell.shellenv import PROMPT
from tests.shell.tmux import wait_until

# The steps from the command's frame (C, before the last) to the command on the line; a
# wrapper holds where armed.  Both: C handled (the request still reads).  zsh: D handled in
# the reading loop; the request's code after the loop; its `always` block; the placement's
# start; before the refresh that gives zle its display back (the prompt is expanded after it:
# see test_zsh_setups.py); after the prompt was drawn again, before the command goes on it;
# once it is in the buffer, before the widget returns.  bash: D handled; after the loop (before the
# request looks for a Ctrl-C); the request's cleanup (after it looked); the placement's
# start; its check for typed keys; the command in READLINE_LINE; the prompt's top lines
# printed, before the user's INT trap is back.
STEPS = {"zsh": ("frame-C", "frame-D", "spin-1", "spin-2", "finish", "redraw", "typed", "placed"),
         "bash": ("frame-C", "frame-D", "spin-1", "cleanup", "finish", "typed", "placed", "top")}

ZSH_HOLD = r'''
zmodload zsh/zselect
_aish_load
_t_hold() {   # armed step $1: say it is held, then wait until released, a Ctrl-C, or 5 s
  [[ -e $T_HOLD/$1 ]] || return 0
  rm -f -- $T_HOLD/$1; : > $T_HOLD/$1.held
  local -i n=0
  while [[ ! -e $T_HOLD/release ]] && (( n++ < 500 )); do zselect -t 1; done
}
functions[_t_frame]=$functions[_aish_handle_frame]
_aish_handle_frame() { _t_frame "$@"; local -i st=$?; _t_hold frame-$_aish_tag; return st }
functions[_t_spin_clear]=$functions[_aish_spin_clear]
typeset -gi _t_n=0
_aish_spin_clear() { _t_spin_clear; if (( _aish_done )); then _t_hold spin-$(( ++_t_n )); else _t_n=0; fi }
functions[_t_finish]=$functions[_aish_finish]
_aish_finish() { _t_hold finish; _t_finish "$@" }
functions[_t_empty]=$functions[_aish_redraw_empty]
_aish_redraw_empty() { _t_hold redraw; _t_empty "$@" }
functions[_t_typed]=$functions[_aish_typed]
_aish_typed() { _t_hold typed; _t_typed "$@" }
functions[_t_guard]=$functions[_aish_arm_guard]
_aish_arm_guard() { _t_guard "$@"; _t_hold placed }
'''

BASH_HOLD = r'''
_aish_load
mkfifo "$T_HOLD/never"
_t_hold() {   # armed step $1: say it is held, then wait until released, a Ctrl-C, or 5 s
  [[ -e $T_HOLD/$1 ]] || return 0
  rm -f -- "$T_HOLD/$1"; : > "$T_HOLD/$1.held"
  local n=0
  while [[ ! -e $T_HOLD/release && -z $_aish_intr ]] && (( n++ < 500 )); do
    builtin read -r -t 0.01 <> "$T_HOLD/never"
  done
}
_t_copy() { eval "$2() $(declare -f "$1" | tail -n +2)"; }
_t_copy _aish_handle_frame _t_frame
_aish_handle_frame() { _t_frame "$@"; local st=$?; _t_hold "frame-$_aish_tag"; return $st; }
_t_copy _aish_spin_clear _t_spin_clear
_t_n=0
_aish_spin_clear() { _t_spin_clear; if (( _aish_done )); then _t_hold spin-$(( ++_t_n )); else _t_n=0; fi; }
_t_copy _aish_cleanup _t_cleanup
_aish_cleanup() { [[ -n $_aish_pending ]] && (( _aish_done )) && _t_hold cleanup; _t_cleanup; }
_t_copy _aish_finish _t_finish
_aish_finish() { _t_hold finish; _t_finish "$@"; }
_t_copy _aish_typed _t_typed
_aish_typed() { _t_hold typed; _t_typed "$@"; }
_t_copy _aish_level_line _t_level
_aish_level_line() { [[ -n $READLINE_LINE ]] && _t_hold placed; _t_level "$@"; }
_t_copy _aish_prompt_top _t_top
_aish_prompt_top() { _t_hold top; _t_top; }
'''


def _ask(sh, question: str) -> None:
    """Type the question, and press Enter once the line shows it (zsh's `[aish] cancelled`
    may sit under the prompt row: not the last row, as Shell.ask waits for)."""
    sh.tmux.type(question)
    sh.wait(lambda s: PROMPT + question in (row.rstrip() for row in s.splitlines()), timeout=10)
    sh.tmux.keys("Enter")


def _after(question: str, screen: str) -> list:
    """The rows under the question's prompt row, blank ones dropped."""
    return [row.rstrip() for row in screen.split(question)[-1].splitlines() if row.strip()]


def _cancelled(rows: list, answer: str) -> bool:
    """The answer as it came, `[aish] cancelled` once, one prompt row and that one empty:
    nothing was placed (nor the answer drawn over)."""
    return rows[:2] == answer.splitlines() and rows.count("[aish] cancelled") == 1 and \
        [row for row in rows if row.startswith(PROMPT.rstrip())] == [PROMPT.rstrip()]


def test_a_ctrl_c_as_the_answer_ends_cancels_it_and_places_nothing(make_shell, stub, tmp_path, shell_name):
    hold = tmp_path / "hold"
    hold.mkdir()
    sh = make_shell(after=ZSH_HOLD if shell_name == "zsh" else BASH_HOLD,
                    extra_env={"T_HOLD": str(hold)})
    failures = []
    for n, step in enumerate(STEPS[shell_name], 1):
        (hold / step).touch()
        answer = f"answer {n} ends here\nCMD: ls -la\n"
        stub.queue(Reply(text=answer))
        question = f"? question {n}"
        _ask(sh, question)
        wait_until((hold / f"{step}.held").exists, 20, f"the shell to reach {step}")
        sh.tmux.keys("C-c")
        try:
            sh.wait(lambda s, q=question, a=answer: _cancelled(_after(q, s), a), timeout=6)
        except AssertionError:
            failures.append(f"held at {step}: {_after(question, sh.tmux.history())}")
            sh.tmux.keys("C-u")         # (a command left on the line)
            sh.wait_prompt("")
    assert not failures, "\n".join(failures)
    (hold / "release").touch()
    # the shell works on: an answer's command lands as usual
    stub.queue(Reply(text="fine\nCMD: ls -lS\n"))
    _ask(sh, "? and now")
    sh.wait_prompt("ls -lS")
