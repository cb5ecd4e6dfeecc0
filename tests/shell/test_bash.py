"""shell/aish.bash in a real bash (tmux), against the real daemon and the model stub."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest


from tests.shell.cases import *  # noqa: E402,F401,F403 - the shared cases run once per shell
from tests.shell.cases_answers import *  # noqa: F401,F403
from tests.shell.cases_approval import *  # noqa: F401,F403
from tests.shell.output_cases import *  # noqa: F401,F403
from tests.shell.exact_output_cases import *  # noqa: F401,F403
from tests.shell.cases_norris import *  # noqa: F401,F403
from tests.shell.cases_setups import *  # noqa: F401,F403
from tests.shell.cases_agents import *  # noqa: F401,F403
from tests.shell.cases_late_ctrl_c import *  # noqa: F401,F403
from tests.shell.shellenv import shell_context, slow_stand_in, user_message
from tests.stub_server import Reply
from tests.shell.tmux import wait_until  # noqa: E402
from tests.shell.cases_norris import ECHO_IS



@pytest.fixture
def shell_name() -> str:
    return "bash"


# A stand-in for bash-preexec: the same public surface (bash_preexec_imported,
# preexec_functions, precmd_functions, $? preserved for precmd functions), driven by a
# DEBUG trap and PROMPT_COMMAND the way the real one is (the real one reads the command
# from history; recent versions fire preexec from PS0, never inside a bind -x function).
BASH_PREEXEC = r'''
bash_preexec_imported=defined
preexec_functions=() precmd_functions=()
__bp_ready=
__bp_precmd() {
  local st=$? f
  for f in "${precmd_functions[@]}"; do (exit $st); "$f"; done
  __bp_ready=1
}
__bp_preexec() {
  [[ -n $__bp_ready && $BASH_COMMAND != __bp_precmd* ]] || return 0
  [[ -z ${READLINE_LINE+set} ]] || return 0   # a bind -x function, not the command line
  __bp_ready=
  local f
  for f in "${preexec_functions[@]}"; do "$f" "$BASH_COMMAND"; done
}
PROMPT_COMMAND=__bp_precmd
trap __bp_preexec DEBUG
'''


def ask_what_failed(sh, stub) -> tuple[str, list]:
    """Ask once the commands ran; returns the shell context the model got, and its lines."""
    stub.queue(Reply(text="ok\nCMD: true\n"))
    sh.ask("? what failed")
    sh.wait_prompt("true")
    system = shell_context(stub.requests[-1])
    return system, [line.strip() for line in system.splitlines()]


def test_with_bash_preexec(make_shell, stub):
    sh = make_shell(before=BASH_PREEXEC)
    sh.ask("false")
    sh.wait(lambda s: s.count("aish$") >= 2)
    system, lines = ask_what_failed(sh, stub)
    assert any(line.startswith("[1 ") and line.endswith("] false") for line in lines), system
    assert "last exit status: 1" in system


# bash-preexec asks to be "the last thing imported": it then keeps an earlier PROMPT_COMMAND,
# but runs it after its own hook, so that command no longer sees the real $?.
# (`true` stands for the status its own hook leaves; ready is set last, as its
# __bp_interactive_mode does, so the entries after its hook are no "command".)
BASH_PREEXEC_LAST = BASH_PREEXEC.replace("  __bp_ready=1\n", "").replace(
    "PROMPT_COMMAND=__bp_precmd",
    'PROMPT_COMMAND="__bp_precmd; true; ${PROMPT_COMMAND}; __bp_ready=1"')


def test_bash_preexec_loaded_after_aish(make_shell, stub):
    sh = make_shell(after=BASH_PREEXEC_LAST)
    sh.ask("false")
    sh.wait(lambda s: s.count("aish$") >= 2)
    sh.ask("sleep 0.3")
    sh.wait(lambda s: s.count("aish$") >= 3)
    system, lines = ask_what_failed(sh, stub)
    assert any(line.startswith("[1 ") and line.endswith("] false") for line in lines), system
    assert any(line.startswith("[0 ") and line.endswith("] sleep 0.3") for line in lines), system
    assert sum(line.endswith("] false") for line in lines) == 1, system


def test_without_bash_preexec_prompt_command_is_kept(make_shell, stub):
    sh = make_shell(before="PROMPT_COMMAND='user_pc=$?'")
    sh.ask("false")
    sh.wait(lambda s: s.count("aish$") >= 2)
    sh.ask('echo "pc:$user_pc"')
    sh.wait("pc:1")
    stub.queue(Reply(text="ok\nCMD: true\n"))
    sh.ask("? hi")
    sh.wait_prompt("true")
    assert "last exit status: 0" in shell_context(stub.requests[-1])


def test_sourcing_twice_is_harmless(make_shell, stub):
    sh = make_shell(after='source "$AISH_SCRIPT"; echo sourced-twice',
                    extra_env={"AISH_SCRIPT": str(Path(__file__).resolve().parents[2] / "shell" / "aish.bash")})
    sh.wait("sourced-twice")
    stub.queue(Reply(text="a\nCMD: ls -la\n"))
    sh.ask("? once")
    sh.wait_prompt("ls -la")
    assert len(stub.requests) == 1


def test_legacy_bash_answers_and_puts_commands_in_history(make_shell, stub):
    """The bash < 4 path (an alias that comments the question out), forced on a new bash."""
    sh = make_shell(before="AISH_BASH_LEGACY=1")
    stub.queue(Reply(text="Legacy answer.\nCMD: ls -la\n"))
    sh.ask("? what's up with 'quotes'")
    screen = sh.wait("Legacy answer.")
    assert "bash 4+ is needed" in screen
    sh.wait_prompt("")
    assert user_message(stub.requests[-1]) == "what's up with 'quotes'"
    sh.tmux.keys("Up")
    sh.wait_prompt("ls -la")
    sh.tmux.keys("C-u")
    sh.ask("echo trap:$(trap -p INT):end")  # the request's Ctrl-C trap did not stay behind
    sh.wait("trap::end")


def test_the_users_int_trap_survives_answers_and_cancels(make_shell, stub):
    sh = make_shell(before="trap 'echo user-int-trap' INT")
    stub.queue(Reply(text="a\nCMD: ls -la\n"))
    sh.ask("? first")
    sh.wait_prompt("ls -la")
    sh.tmux.keys("C-u")
    stub.queue(Reply(text="x" * 400, chunk_size=4, delay=0.05))
    sh.ask("? a long one")
    wait_until(lambda: len(stub.requests) >= 2, 10, "the request to reach the model")
    sh.tmux.keys("C-c")
    sh.wait_prompt("")
    sh.ask("trap -p INT")
    sh.wait("trap -- 'echo user-int-trap' SIGINT")


def test_aish_shell_reads_the_files_a_login_reads_then_loads_aish(stub, aish_env):
    """`aish shell bash` (the README's first command): /etc/profile and the first of
    ~/.bash_profile, ~/.bash_login, ~/.profile run as at a login (here .bash_profile, which
    sources .bashrc itself), ~/.bash_logout at exit; then aish works."""
    from tests.shell.shellenv import PROMPT, _q, aish_shell, ask_gets_the_suggestion

    home = aish_env / "home"
    home.mkdir()
    (home / ".bash_profile").write_text("FROM_PROFILE=1\n. ~/.bashrc\n")
    (home / ".profile").write_text("FROM_DOTPROFILE=1\n")      # a login reads only the first found
    (home / ".bashrc").write_text(f"PS1={_q(PROMPT)}\nFROM_RC=1\n")
    (home / ".bash_logout").write_text(f"echo bye > {_q(str(home / 'logged-out'))}\n")
    with aish_shell(aish_env, home, "bash") as tmux:
        tmux.wait_last_line(PROMPT, timeout=20)
        tmux.type('echo "p=$FROM_PROFILE${FROM_DOTPROFILE-no}$FROM_RC"')
        tmux.keys("Enter")
        tmux.wait("p=1no1")
        ask_gets_the_suggestion(tmux, stub, "? from aish shell")
        tmux.keys("C-u")
        tmux.type("exit")
        tmux.keys("Enter")
        wait_until(lambda: (home / "logged-out").exists(), 10, "~/.bash_logout to run at exit")
    # With no login file at all, the files a terminal's bash reads rather than none.
    for name in (".bash_profile", ".profile", "logged-out"):
        (home / name).unlink()
    with aish_shell(aish_env, home, "bash") as tmux:
        tmux.wait_last_line(PROMPT, timeout=20)
        tmux.type('echo "r=$FROM_RC"')
        tmux.keys("Enter")
        tmux.wait("r=1")


def test_a_second_ctrl_c_leaves_echo_on_after_a_cancelled_report(make_shell, stub, aish_env, tmp_path):
    """Echo goes off while a norris report is read (PROMPT_COMMAND) and comes back when the
    request ends.  A second Ctrl-C (people press it twice) landing while `stty` put it back
    killed that stty: echo stayed off for every command after (readline keeps the mode it
    finds).  A slow stand-in for the stty that puts it back makes the moment long."""
    armed, hushed, restoring = tmp_path / "armed", tmp_path / "hushed", tmp_path / "restoring"
    stty = subprocess.run(["sh", "-c", "command -v stty"], capture_output=True, text=True).stdout.strip()
    sh = make_shell(extra_env=slow_stand_in(tmp_path, aish_env, "stty", (   # (marks once echo is off)
        f'if [ -e "{armed}" ]; then\n  case $1 in -echo) {stty} -echo; : > "{hushed}"; exit 0 ;; -g|-a) ;;\n'
        f'    *) : > "{restoring}"; sleep 3 ;; esac\nfi\n')))
    stub.queue(Reply("CMD: echo five"), Reply("CMD: echo six", first_byte_delay=30))
    sh.ask("?? slow one")
    sh.wait_prompt("echo five")
    armed.touch()                           # (from here on: the step's report)
    sh.tmux.keys("Enter")
    wait_until(hushed.exists, 30, "the shell to turn echo off")
    sh.tmux.keys("C-c")
    wait_until(restoring.exists, 20, "the shell to put echo back")
    sh.tmux.keys("C-c")
    armed.unlink()
    sh.wait("[aish] cancelled")
    sh.wait_prompt("")
    sh.ask(ECHO_IS)
    assert "\necho is on" in sh.wait(lambda s: "\necho is o" in s)
