"""bash inside the setups people really have: what a framework or a common rc line does to
the shell must not break aish.  Each case reproduces one mechanism in a small rc (the real
frameworks are tried by hand, see docs/compat.md)."""
from __future__ import annotations

import os

import pytest

from tests.shell.shellenv import ctrl_c_in_the_first_mkfifo, shell_context
from tests.stub_server import Reply

pytestmark = pytest.mark.shell


@pytest.fixture
def shell_name() -> str:
    return "bash"


def statuses_reach_aish(sh, stub) -> None:
    sh.ask("false")
    sh.wait(lambda s: s.count("aish$") >= 2)
    sh.ask("true")
    sh.wait(lambda s: s.count("aish$") >= 3)
    # The answer's command is not `true`: under load the wait for it was met by a screen whose
    # last row was the `true` run above, before the question reached the model (no request
    # yet: 2 runs in ~24 of this file and test_bash.py); `make` is on no row until it lands.
    stub.queue(Reply(text="ok\nCMD: make\n"))
    sh.ask("? what failed")
    sh.wait_prompt("make")
    context = shell_context(stub.requests[-1])
    lines = [line.strip() for line in context.splitlines()]
    assert any(line.startswith("[1 ") and line.endswith("] false") for line in lines), context
    assert any(line.startswith("[0 ") and line.endswith("] true") for line in lines), context


def test_a_hook_prepended_to_prompt_command_after_aish_loads(make_shell, stub):
    """`PROMPT_COMMAND="history -a; $PROMPT_COMMAND"`, a very common rc line, ran before
    aish's hook: every status reached aish as 0 (history -a's)."""
    sh = make_shell(after='PROMPT_COMMAND="history -a; $PROMPT_COMMAND"')
    statuses_reach_aish(sh, stub)
    sh.tmux.keys("C-u")
    sh.ask('echo "pc=$PROMPT_COMMAND"')
    sh.wait("pc=_aish_precmd pc;history -a;")


def test_an_array_prompt_command_prepended_after_aish_loads(make_shell, stub):
    """bash 5.1's array form: an element put before aish's (bash starts each element with
    the real $?, so aish's entry may stay where it is)."""
    sh = make_shell(after='PROMPT_COMMAND=("history -a" "${PROMPT_COMMAND[@]}")')
    statuses_reach_aish(sh, stub)


def test_prompt_command_assigned_anew_after_aish_loads(make_shell, stub):
    """`PROMPT_COMMAND='...'` (no $PROMPT_COMMAND in it) dropped aish's hook altogether;
    the next Enter puts it back, before the command runs."""
    sh = make_shell(after="PROMPT_COMMAND='user_pc=$?'")
    statuses_reach_aish(sh, stub)
    sh.tmux.keys("C-u")
    sh.ask('echo "user saw $user_pc"')      # the user's hook still runs, with the real status
    sh.wait("user saw 0")


# ble.sh replaces readline.  Its supported ways in are `blehook PRECMD/PREEXEC/POSTEXEC`
# (PRECMD and POSTEXEC run with the last status in $?, PREEXEC gets the command line; between
# POSTEXEC and PRECMD ble prints `[ble: exit N]` after a failed command) and `ble-bind`; bash's `bind`
# goes through an emulation that costs it ~3 ms a call, and once attached it runs
# PROMPT_COMMAND as it likes.  A stand-in with that surface (ble.sh has no Debian package):
# its hooks run from its own PROMPT_COMMAND and DEBUG trap, `ble-bind -x` binds through
# readline so the ask key works, and every `bind` call aish makes is counted.
BLE = r'''
BLE_VERSION=0.4.0-test
_t_binds=0 _t_pre=() _t_exec=() _t_post=() _t_ready= _t_ran=
bind() { (( _t_binds++ )); builtin bind "$@"; }
blehook() {
  case $1 in
    PRECMD+=*) _t_pre+=("${1#PRECMD+=}") ;;
    POSTEXEC+=*) _t_post+=("${1#POSTEXEC+=}") ;;
    PREEXEC+=*) _t_exec+=("${1#PREEXEC+=}") ;;
  esac
}
blehook/eval-after-load() { [[ $1 == keymap_emacs ]] && eval "$2"; }
ble-bind() {   # -m KEYMAP -x|-f|-s keyseq:SEQ COMMAND
  [[ $3 == -x ]] && builtin bind -m emacs -x "\"${4#keyseq:}\": $5"
  return 0
}
_t_precmd() {   # after a command: POSTEXEC, then its exit mark (ble's exec_errexit_mark), PRECMD
  local st=$? f
  if [[ -n $_t_ran ]]; then
    for f in "${_t_post[@]}"; do (exit $st); $f; done
    (( st )) && printf '[ble: exit %d]\n' "$st"
    declare -F _t_work >/dev/null && _t_work   # ble's own work before PRECMD (its prompt...)
  fi
  _t_ran=
  for f in "${_t_pre[@]}"; do (exit $st); $f; done; _t_ready=1
}
_t_preexec() {
  [[ -n $_t_ready && -z ${READLINE_LINE+set} && $BASH_COMMAND != _t_precmd* ]] || return 0
  _t_ready= _t_ran=1
  local f; for f in "${_t_exec[@]}"; do $f "$BASH_COMMAND"; done
}
trap _t_preexec DEBUG
'''
BLE_ATTACH = "PROMPT_COMMAND=_t_precmd   # attached: ble runs PROMPT_COMMAND its own way\n"


@pytest.mark.parametrize("order", ["aish-then-attach", "attach-then-aish"])
def test_ble_sh_hooks_and_bindings_are_its_own(make_shell, stub, order):
    """Loaded after `ble-attach`, nothing was recorded; before it, aish's ~30 `bind` calls
    cost ble.sh ~90 ms at start-up."""
    sh = (make_shell(before=BLE, after=BLE_ATTACH) if order == "aish-then-attach"
          else make_shell(before=BLE + BLE_ATTACH))
    sh.ask("false")
    sh.wait(lambda s: s.count("aish$") >= 2)
    sh.ask("true")
    sh.wait(lambda s: s.count("aish$") >= 3)
    stub.queue(Reply(text="ok\nCMD: make\n"))
    sh.tmux.keys("C-x", "C-a")
    sh.wait_prompt("make")
    lines = [line.strip() for line in shell_context(stub.requests[-1]).splitlines()]
    assert any(line.startswith("[1 ") and line.endswith("] false") for line in lines), lines
    assert any(line.startswith("[0 ") and line.endswith("] true") for line in lines), lines
    sh.tmux.keys("C-u")
    sh.ask('echo "binds=$_t_binds pc=$PROMPT_COMMAND"')
    sh.wait("binds=0 pc=_t_precmd\n")



def test_a_command_s_duration_under_ble_sh_ends_at_its_postexec(make_shell, stub):
    """ble.sh does its own work between POSTEXEC and PRECMD (its exit mark, its prompt): the
    duration aish kept for a command, sent to the model beside its status, counted it too
    (under the real ble.sh `true` took 150 ms, `sleep 1` 1,240 ms)."""
    sh = make_shell(before=BLE + "_t_work() { sleep 1; }\n" + BLE_ATTACH)
    sh.ask("true")
    sh.wait(lambda s: s.count("aish$") >= 2, timeout=20)
    stub.queue(Reply(text="ok\nCMD: make\n"))
    sh.tmux.keys("C-x", "C-a")
    sh.wait_prompt("make")
    lines = [line.strip() for line in shell_context(stub.requests[-1]).splitlines()]
    ran = [line for line in lines if line.startswith("[0 ") and line.endswith("] true")]
    assert ran and int(ran[0].split()[1].rstrip("ms]")) < 500, lines

# ble.sh edits the line with the terminal's intr, quit and susp undefined (Ctrl-C is a key it
# reads) and puts them back for the commands it runs.
BLE_TTY = r'''
_t_tty_edit() { command stty intr undef; }
_t_tty_run() { command stty intr '^C'; }
_t_pre+=(_t_tty_edit) _t_exec+=(_t_tty_run)
'''


def test_ctrl_c_cancels_an_answer_under_ble_sh(make_shell, stub):
    """Under ble.sh Ctrl-C did not cancel an answer: with intr undefined it was a byte in the
    terminal's input, and the answer streamed to its end."""
    sh = make_shell(before=BLE + BLE_TTY + BLE_ATTACH)
    words = " ".join(f"word{i:04d}" for i in range(400))
    stub.queue(Reply(text=words, chunk_size=9, delay=0.05))
    sh.tmux.type("git stauts")
    sh.wait_prompt("git stauts")
    sh.tmux.keys("C-x", "C-a")             # the stand-in binds aish's keys (not Enter's)
    sh.wait("word0012")
    sh.tmux.keys("C-c")
    screen = sh.wait(lambda s: "[aish] cancelled" in s and "aish$ git stauts" in s.rstrip().splitlines()[-1])
    assert "word0399" not in screen, screen
    sh.tmux.keys("C-u")
    sh.ask("stty -a | grep -o 'intr = [^;]*' | sed 's/^/tty: /'")
    sh.wait("tty: intr = ^C")                # commands run with Ctrl-C a signal, as before


@pytest.mark.parametrize("prompt", ["[$?] aish$ ", "[$?] top\n[$?] aish$ "])
def test_the_question_s_prompt_row_shows_the_last_command_s_status(make_shell, stub, prompt):
    """bash erases the prompt's last row when Enter takes a question, and aish draws it again
    (`${PS1@P}`): the status in a prompt (`$?`, bash-preexec keeps it for PS1, as themes show
    their error mark) was the status of aish's own last step there, 0, under a failed command."""
    sh = make_shell(prompt=prompt, wait=False)
    sh.wait(lambda s: s.rstrip().endswith("[0] aish$"))
    sh.ask("ls /nonexist-one")
    sh.wait(lambda s: s.rstrip().endswith("[2] aish$"))
    stub.queue(Reply(text="it is missing\nCMD: ls /\n"))
    sh.ask("? why")
    sh.wait(lambda s: s.rstrip().endswith("[2] aish$ ls /"))
    rows = [row.rstrip() for row in sh.tmux.history().splitlines()]
    asked = [n for n, row in enumerate(rows) if row.endswith("aish$ ? why")]
    assert [rows[n] for n in asked] == ["[2] aish$ ? why"], rows
    if "top" in prompt:   # the rows above the last one, drawn again above the answer's prompt
        assert rows.count("[2] top") >= 2 and "[0] top" not in rows[asked[0]:], rows


def test_ble_sh_s_exit_mark_is_not_sent_as_the_command_s_output(make_shell, model):
    """ble.sh prints `[ble: exit 1]` after a failed command, before its PRECMD hooks, where
    aish printed the mark that ends the output: `false` went out with "1 line of output",
    ble's mark, and every failed command's output ended with it."""
    from tests.shell.exact_output_cases import attached

    stub = model
    sh = make_shell(before=BLE + BLE_ATTACH)
    stub.queue(Reply(text="hi\n"))
    sh.press("ask")                          # (the stand-in binds aish's keys, not Enter's)
    sh.wait("hi")                            # the daemon runs and reads this pane from here
    sh.wait_prompt("")
    sh.ask("ls /nonexist-one")
    sh.wait("[ble: exit 2]")
    stub.queue(Reply(text="ok\n"))
    sh.press("ask")
    sh.wait(lambda s: "ok" in s.split("[ble: exit 2]")[-1] and s.rstrip().endswith("aish$"))
    assert attached(stub.requests[-1]["body"]) == (
        "ls /nonexist-one", "ls: cannot access '/nonexist-one': No such file or directory"), \
        stub.requests[-1]["body"]["messages"][-1]["content"]
    sh.ask("false")
    sh.wait(lambda s: s.count("[ble: exit 1]") == 1 and s.rstrip().endswith("aish$"))
    stub.queue(Reply(text="ok\n"))
    sh.press("ask")
    screen = sh.wait(lambda s: "ok" in s.split("[ble: exit 1]")[-1] and s.rstrip().endswith("aish$"))
    assert "output of 'false' not sent: it printed nothing" in screen, screen


# `ble-attach` inside .bashrc attaches there and then: it runs PRECMD for the first prompt
# at once and draws that prompt after .bashrc without running PRECMD again.
BLE_ATTACHED_IN_RC = '''BLE_ATTACHED=1 _t_drawn=1
_t_first() { if [[ -n $_t_drawn ]]; then _t_drawn= _t_ready=1; else _t_precmd; fi; }
_t_precmd
PROMPT_COMMAND='_t_first'
'''


def test_aish_loaded_after_ble_attach_knows_the_first_command_s_output(make_shell, daemon_first):
    """Loaded after `ble-attach`, aish's PRECMD hook missed the first prompt: the daemon was not
    asked to read the pane and PS0 had no mark, so the first command's output was never sent
    ("aish began reading this tmux pane after it ran")."""
    from tests.shell.exact_output_cases import attached
    from tests.shell.shellenv import wait_tapped

    stub = daemon_first
    sh = make_shell(before=BLE + BLE_ATTACHED_IN_RC)
    wait_tapped(sh)
    sh.ask("echo first-output")
    sh.wait(lambda s: "first-output\n" in s and s.rstrip().endswith("aish$"))
    stub.queue(Reply(text="ok\n"))
    sh.press("ask")
    sh.wait(lambda s: "ok" in s.split("first-output\n")[-1] and s.rstrip().endswith("aish$"))
    assert attached(stub.requests[-1]["body"]) == ("echo first-output", "first-output"), \
        stub.requests[-1]["body"]["messages"][-1]["content"]



def test_ctrl_c_while_the_first_ask_makes_its_fifo_cancels_it(make_shell, stub, aish_env, tmp_path):
    """The first ask of a shell makes its FIFO with `mkfifo`, before aish's INT trap was set.
    Run as a job of its own (job control), mkfifo had the terminal's process group to itself:
    a Ctrl-C landing while it ran killed it alone and the question went without a word, and
    one landing as it exited, before bash took the terminal back, reached no one (the answer
    streamed to its end: bench/stress_ctrl_c.py --fresh).  A slow mkfifo makes the moment
    long, and tells which process group has the terminal while it runs."""
    mark = tmp_path / "mkfifo-running"
    sh, screen = ctrl_c_in_the_first_mkfifo(make_shell, stub, aish_env, tmp_path,
                                            f"ps -o tpgid= -p $$ > '{mark}.tmp'\nmv '{mark}.tmp' '{mark}'\n")
    assert "word0000" not in screen and "cannot create" not in screen, screen
    rows = [row.rstrip() for row in screen.splitlines() if row.strip()]
    assert rows[-3:] == ["aish$ ? a first question", "[aish] cancelled", "aish$"], rows
    sh.ask("? again")                       # the next ask works (and gets the answer queued first)
    sh.wait_prompt("ls -la")
    # the terminal stayed the shell's: a key landing as mkfifo exits reaches the shell
    assert int(mark.read_text()) == os.getpgid(sh.tmux.pane_pid())


def test_ctrl_c_the_first_asks_mkfifo_outlives_cancels_it(make_shell, stub, aish_env, tmp_path):
    """As above, with a mkfifo the key does not kill (as one already exiting when it lands):
    run in the shell's group with job control off (`set +m`), bash took a child that exits
    normally after a SIGINT for one that handled the key itself and ran no INT trap: the
    answer streamed to its end.  (zsh's test_ctrl_c_while_the_first_ask_makes_its_fifos_...)"""
    mark = tmp_path / "mkfifo-running"
    sh, screen = ctrl_c_in_the_first_mkfifo(make_shell, stub, aish_env, tmp_path, f"trap '' INT\n: > '{mark}'\n")
    assert "word0000" not in screen and "cannot create" not in screen, screen
    rows = [row.rstrip() for row in screen.splitlines() if row.strip()]
    assert rows[-3:] == ["aish$ ? a first question", "[aish] cancelled", "aish$"], rows
    sh.ask("? again")                       # the next ask works (and gets the answer queued first)
    sh.wait_prompt("ls -la")
