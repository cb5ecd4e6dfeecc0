"""zsh inside the setups people really have: what a framework or plugin does to the shell
must not break aish, and aish must not break the shell.  Each case reproduces one
framework's mechanism in a small rc (the frameworks themselves are tried by hand, see
docs/compat.md)."""
from __future__ import annotations

import os
import re
import threading
import time
from pathlib import Path

import pytest

from tests.shell.shellenv import ctrl_c_in_the_first_mkfifo, user_message
from tests.stub_server import Reply
from tests.shell.tmux import wait_until

pytestmark = pytest.mark.shell


@pytest.fixture
def shell_name() -> str:
    return "zsh"


def test_errors_still_show_after_a_failure_drafted_a_fix(sh, stub):
    """A local model drafts a fix after each failure; opening the draft's FIFO once sent the
    shell's own stderr to /dev/null (a bare `exec {fd}<>FIFO 2>/dev/null`): no error message
    ever showed again."""
    stub.queue(Reply(text="hi\n"))
    sh.ask("? hello")                       # the daemon runs from here on: drafts are made
    sh.wait_prompt("")
    stub.queue(Reply(text="Drafted.\nCMD: ls /\n"), Reply(text="Drafted.\nCMD: ls /\n"))
    sh.ask("ls /nonexist-one")
    sh.wait("nonexist-one")
    wait_until(lambda: len(stub.requests) >= 2, what="the first draft")
    sh.ask("cat /nope-two")
    sh.wait("/nope-two: No such file or directory")
    sh.ask("ls -l /proc/$$/fd/2 | sed 's/.*-> /fd2=/'")
    screen = sh.wait(re.compile(r"^fd2=", re.M))
    assert re.search(r"^fd2=/dev/pts/\d+$", screen, re.M), screen


# powerlevel10k's precmd sets `trap '_p9k_trapint; return 130' INT` (its preexec removes it):
# a Ctrl-C then returns from whatever function runs, deep inside aish's reading loop.
P10K_INT_TRAP = r'''
_t_trapint() { (( _t_trapped++ )); return 0 }
_t_precmd() { trap '_t_trapint; return 130' INT }
_t_preexec() { trap - INT }
precmd_functions+=(_t_precmd)
preexec_functions+=(_t_preexec)
'''


def test_ctrl_c_cancels_cleanly_under_an_int_trap_set_in_precmd(make_shell, stub):
    sh = make_shell(after=P10K_INT_TRAP, prompt="top-line\naish$ ")
    words = " ".join(f"word{i:04d}" for i in range(400))
    stub.queue(Reply(text=words, chunk_size=9, delay=0.03))
    sh.ask("? a slow answer")
    sh.wait("word0012")
    sh.tmux.keys("C-c")
    sh.wait(lambda s: "[aish] cancelled" in s and s.rstrip().endswith("aish$"))
    history = sh.tmux.history()
    assert "no answer from the daemon" not in history, history
    rows = [r.rstrip() for r in history.splitlines() if r.strip()]
    at = rows.index("[aish] cancelled")
    assert "word0001" in rows[at - 1] or "word0001" in " ".join(rows[:at]), history
    assert rows[at + 1:] == ["top-line", "aish$"], history     # one fresh prompt, nothing erased
    stub.queue(Reply(text="fine\nCMD: ls -la\n"))
    sh.ask("? and now")
    sh.wait_prompt("ls -la")
    sh.tmux.keys("C-u")
    sh.tmux.type("echo some text")
    sh.tmux.keys("C-c")                                       # at the prompt: the user's trap runs
    sh.wait_prompt("")
    sh.ask("print -r -- trapped=$_t_trapped")
    sh.wait("trapped=1")


def styled_prompt_line(sh) -> str:
    """The prompt line with its colours (tmux capture-pane -e)."""
    rows = sh.tmux._tmux("capture-pane", "-p", "-e").splitlines()
    return [row for row in rows if "aish$" in row][-1]


def test_syntax_highlighting_loaded_first_colours_the_landed_command(make_shell, stub):
    """zsh-syntax-highlighting loaded before aish: the landed command kept the `?` line's
    colours until a key was pressed."""
    sh = make_shell(before="source /usr/share/zsh-syntax-highlighting/zsh-syntax-highlighting.zsh")
    sh.tmux.type("ls -la")
    sh.wait_prompt("ls -la")
    typed = styled_prompt_line(sh)          # how the plugin colours this line when typed
    sh.tmux.keys("C-u")
    stub.queue(Reply(text="List.\nCMD: ls -la\n"))
    sh.ask("? list the files with details")
    sh.wait_prompt("ls -la")
    assert styled_prompt_line(sh) == typed, (styled_prompt_line(sh), typed)


# zsh-vi-mode binds Ctrl-X in normal mode (vicmd) and sets KEYTIMEOUT=1 (10 ms): a chord that
# starts with Ctrl-X cannot be typed there, zle runs the Ctrl-X binding alone.
ZVM_KEYS = r'''
_t_switch_keyword() { : }
zle -N _t_switch_keyword
_t_zvm_init() {
  bindkey -M vicmd '^X' _t_switch_keyword
  KEYTIMEOUT=1
  precmd_functions=(${precmd_functions:#_t_zvm_init})
}
precmd_functions+=(_t_zvm_init)
'''


def test_vi_normal_mode_keys_work_where_zsh_vi_mode_owns_ctrl_x(make_shell, stub):
    sh = make_shell(before="bindkey -v", after=ZVM_KEYS)
    stub.queue(Reply(text="Fixed.\nCMD: git status\n"))
    sh.tmux.type("git stauts")
    sh.wait_prompt("git stauts")
    sh.tmux.keys("Escape")
    time.sleep(0.2)                          # typed by a person: keys some 100 ms apart
    sh.tmux.type("\\")
    time.sleep(0.1)
    sh.tmux.type("a")
    sh.wait_prompt("git status")
    assert "git stauts" in user_message(stub.requests[-1])


def test_the_documented_zsh_vi_mode_hook_loads_aish_on_a_fresh_install(make_shell, stub):
    """docs/shell.md's line for loading aish from zvm's hook: on a fresh install the loader
    file does not exist yet, and the line's `|| eval` fallback writes it.  zvm runs the hook's
    commands in a function with a local named `commands`, which keeps zsh/parameter from
    loading there: aish's zle-line-init hook failed ("Need parameter modules") and said so."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "shell.md").read_text()
    line = re.search(r"`(zvm_after_init_commands\+=\(.*?\))`", doc).group(1)
    hook = (line + "\n_t_zvm_after() { local commands=zvm_after_init_commands; commands=(${(P)commands});"
            " for cmd in $commands; do eval $cmd; done;"
            " precmd_functions=(${precmd_functions:#_t_zvm_after}) }\nprecmd_functions+=(_t_zvm_after)\n")
    sh = make_shell(load="none", before="bindkey -v", after=hook + ZVM_KEYS)
    stub.queue(Reply(text="Fixed.\nCMD: git status\n"))
    sh.tmux.type("git stauts")
    sh.tmux.keys("Escape")
    time.sleep(0.2)
    sh.tmux.type("\\")
    time.sleep(0.1)
    sh.tmux.type("a")
    sh.wait_prompt("git status")
    assert (Path(os.environ["XDG_DATA_HOME"]) / "aish" / "init.zsh").exists()
    history = sh.tmux.history()
    assert "parameter" not in history and "add-zle-hook-widget" not in history, history
    sh.tmux.type("cc")                       # vi normal mode: change the whole line
    sh.ask("true")                           # a prompt after the one that loaded aish
    sh.ask("zstyle -L zle-line-init | grep -c _aish_line_init | sed 's/^/line-init hooks: /'")
    sh.wait("line-init hooks: 1")


def test_doctor_follows_enter_through_plugins_that_wrap_it(make_shell, stub):
    """zsh-autosuggestions (loaded first) re-wraps accept-line at every prompt, keeping aish's
    widget under its own name: Enter still reaches aish, and doctor must not say otherwise."""
    from tests.shell.test_zsh import REAL_PLUGINS

    sh = make_shell(before=REAL_PLUGINS)
    sh.ask("aish doctor 2>&1 | grep 'live shell'")
    screen = sh.wait(lambda s: "live shell:" in s and s.rstrip().endswith("aish$"))
    assert re.search(r"ok +live shell: zsh .*hooks and keys in place", screen), screen


def test_a_key_typed_while_a_fix_is_drafted_leaves_the_fix_watch_alone(make_shell, stub):
    """zsh-autosuggestions (async, its default) keeps the number of its last request's fd after
    closing it, and at the next key closes whatever fd has that number now, removing its `zle
    -F` handler too.  The fix draft's FIFO, opened at the next failure, is the first free fd:
    that number.  A key typed while the draft was made closed it; the hint never came, and at
    the next failure aish printed `failed to close file descriptor`."""
    sh = make_shell(before="source /usr/share/zsh-autosuggestions/zsh-autosuggestions.zsh\n")
    stub.queue(Reply(text="hi\n"))
    sh.ask("? hello")                       # the daemon runs from here on: drafts are made
    sh.wait_prompt("")
    held = threading.Event()
    stub.queue(Reply(text="Drafted.\nCMD: ls /\n", until=held), Reply(text="Drafted.\nCMD: ls /\n"))
    sh.ask("ls /nonexist-one")              # each key an async suggestion; Enter: a draft
    sh.wait("'/nonexist-one': No such file")
    wait_until(lambda: len(stub.requests) >= 2, what="the draft's request")
    sh.tmux.type("ech")                     # keys while the draft is made
    sh.wait_prompt("ech")
    held.set()
    sh.wait("[aish] a fix is ready")
    sh.tmux.keys("C-u")
    sh.ask("cat /nope-two")
    screen = sh.wait(lambda s: "/nope-two: No such file" in s and "a fix is ready" in s.split("nope-two")[-1])
    assert "file descriptor" not in sh.tmux.history(), screen


def test_ctrl_c_while_the_first_ask_makes_its_fifos_cancels_it(make_shell, stub, aish_env, tmp_path):
    """The first ask of a shell makes its FIFOs with `mkfifo`.  Run as a job of its own (job
    control), mkfifo had the terminal's process group to itself, and so did the dead job's
    group in the moment before zsh took the terminal back: a Ctrl-C landing then reached
    no one, and the answer streamed to its end (one round in ~30 of bench/stress_ctrl_c.py
    --fresh under load); one that reached zsh drew the question's prompt line again (zle's
    own Ctrl-C).  A slow mkfifo that ignores the signal makes the moment long."""
    mark = tmp_path / "mkfifo-running"
    sh, screen = ctrl_c_in_the_first_mkfifo(make_shell, stub, aish_env, tmp_path, f"trap '' INT\n: > '{mark}'\n")
    assert "word0000" not in screen and screen.rstrip().endswith("aish$"), screen
    rows = [row.rstrip() for row in screen.splitlines() if row.strip()]
    assert rows[-3:] == ["aish$ ? a first question", "[aish] cancelled", "aish$"], rows
    sh.ask("? again")                       # the next ask works (and gets the answer queued first)
    sh.wait_prompt("ls -la")


# powerlevel10k draws its prompt with COLUMNS=1024: a prompt_subst prefix saves the width and
# sets 1024, a suffix puts the width back.  The stand-in does the same around a wait the test
# arms (a math function: a prompt runs no shell function otherwise without a fork, and a fork
# would have zsh read the width back from the terminal), and a key shows COLUMNS.
COLUMNS_THEME = r'''
zmodload zsh/zselect
zmodload -F zsh/files b:zf_rm
setopt prompt_subst
typeset -gi _t_clm=0
_t_draw() {   # armed: say so, then wait until a Ctrl-C ends the wait (or 5 s)
  [[ -e $T_HOLD/draw ]] || return 0
  zf_rm -f -- $T_HOLD/draw; : > $T_HOLD/draw.held
  local -i n=0
  while (( n++ < 500 )); do zselect -t 1; done
  return 0
}
functions -M _t_draw 0 0
PS1=$'top-line\n''${${_t_clm::=$COLUMNS}+}${${COLUMNS::=1024}+}${${:-$(( _t_draw() ))}:+}aish$ ${${COLUMNS::=$_t_clm}+}'
RPS1='${${_t_clm::=$COLUMNS}+}${${COLUMNS::=1024}+}<r>${${COLUMNS::=$_t_clm}+}'
_t_columns() { zle -M "columns=$COLUMNS" }
zle -N _t_columns
bindkey '^X^K' _t_columns
'''


def _under(screen: str, mark: str) -> list:
    """The rows under the last row holding ``mark``, blank ones dropped, the right prompt cut."""
    return [row.split("<r>")[0].rstrip() for row in screen.split(mark)[-1].splitlines()[1:] if row.strip()]


def test_ctrl_c_while_a_theme_draws_the_prompt_under_the_answer(make_shell, stub, tmp_path):
    """powerlevel10k (lean, two lines, instant prompt): a Ctrl-C that landed while aish's widget
    drew the prompt under the answer, to place its command there, stopped the theme's prompt
    halfway: an empty row for a prompt, and COLUMNS left at 1024 (later prompts wrapped) until a
    resize.  Each round holds the drawing open and presses Ctrl-C in it: the prompt must come
    whole, at the terminal's width, with `[aish] cancelled` once and the command not placed;
    asked on an empty line (`? ...`) and on a typed line (the ask key: that line stays)."""
    hold = tmp_path / "hold"
    hold.mkdir()
    sh = make_shell(after=COLUMNS_THEME + P10K_INT_TRAP, extra_env={"T_HOLD": str(hold)}, wait=False)
    sh.wait("<r>", timeout=10)
    stub.queue(Reply(text="hi\n"))
    sh.ask("? hello")                       # the daemon runs from here on (its start is a job)
    sh.wait(lambda s: _under(s, "\nhi")[:2] == ["top-line", "aish$"])
    failures = []
    for n, (typed, keys, kept) in enumerate((("? list files", ("Enter",), ""),
                                             ("ls /tmp", sh.keys["ask"], " ls /tmp")), 1):
        answer = f"Here is how {n}."
        stub.queue(Reply(text=f"{answer}\nCMD: ls -la\n"))
        (hold / "draw").touch()
        sh.tmux.type(typed)
        sh.wait(lambda s, t=typed: f"aish$ {t}" in s)
        sh.tmux.keys(*keys)
        wait_until((hold / "draw.held").exists, 20, "the prompt drawn under the answer")
        (hold / "draw.held").unlink()
        sh.tmux.keys("C-c")
        try:
            sh.wait(lambda s, a=answer: "[aish] cancelled" in _under(s, a))
            sh.tmux.keys("C-x", "C-k")
            rows = _under(sh.wait("columns="), answer)
        except AssertionError:
            rows = _under(sh.tmux.screen(), answer)
        if rows != ["CMD: ls -la", "top-line", f"aish${kept}", "columns=100"]:
            failures.append(f"round {n}: under the answer {rows!r}")
            break                           # (the shell's prompt is gone: no round more)
        sh.tmux.keys("C-u")
        sh.wait(lambda s, a=answer: _under(s, a)[2:3] == ["aish$"])
    assert not failures, "\n".join(failures)
