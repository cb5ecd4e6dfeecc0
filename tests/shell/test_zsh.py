"""shell/aish.zsh in a real zsh (tmux), against the real daemon and the model stub."""
from __future__ import annotations

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
from tests.shell.shellenv import ask_then_cycle, user_message
from tests.stub_server import Reply



@pytest.fixture
def shell_name() -> str:
    return "zsh"


# Stand-ins for the two plugins most zsh users load.  They wrap widgets the way the real
# ones do: autosuggestions re-wraps every widget not named `_*`/`.*` with
# `_zsh_autosuggest_bound_<n>_<name>` (again at each precmd); syntax-highlighting wraps
# every widget and sets region_highlight after it.
AUTOSUGGEST = r'''
typeset -gi _zas_n=0
_zsh_autosuggest_bind_widgets() {
  local w
  for w in ${(k)widgets}; do
    case $w in (.*|_*|zle-*|autosuggest-*|orig-*) continue ;; esac
    case $widgets[$w] in (user:_zsh_autosuggest_bound_*) continue ;; esac
    (( _zas_n++ ))
    zle -A $w autosuggest-orig-$_zas_n-$w
    eval "_zsh_autosuggest_bound_${_zas_n}_${w}() {
      typeset -g ZAS_LAST=$w; zle autosuggest-orig-$_zas_n-$w -- \"\$@\" }"
    zle -N $w _zsh_autosuggest_bound_${_zas_n}_${w}
  done
}
_zsh_autosuggest_bind_widgets
precmd_functions+=(_zsh_autosuggest_bind_widgets)
'''
HIGHLIGHT = r'''
typeset -gi _zsh_hl_n=0
() {
  local w
  for w in ${(k)widgets}; do
    case $w in (.*|zle-*|orig-*|autosuggest-orig-*|run-help|which-command|beep|yank*) continue ;; esac
    case $widgets[$w] in (user:_zsh_highlight_widget_*) continue ;; esac
    zle -A $w orig-s-$w
    eval "_zsh_highlight_widget_s-${w}() { zle orig-s-$w -- \"\$@\"; region_highlight=(\"0 \$#BUFFER fg=green\") }"
    zle -N $w _zsh_highlight_widget_s-$w
  done
}
'''


# The real plugins, from the distribution packages that .ci/run installs.
REAL_PLUGINS = ("source /usr/share/zsh-autosuggestions/zsh-autosuggestions.zsh\n"
                "source /usr/share/zsh-syntax-highlighting/zsh-syntax-highlighting.zsh\n")
PLUGIN_SETS = {"stand-ins": AUTOSUGGEST + HIGHLIGHT, "real": REAL_PLUGINS}


@pytest.mark.parametrize("kind", sorted(PLUGIN_SETS))
@pytest.mark.parametrize("order", ["plugins-first", "aish-first"])
def test_with_autosuggestions_and_highlighting(make_shell, stub, order, kind):
    plugins = PLUGIN_SETS[kind]
    sh = make_shell(before=plugins) if order == "plugins-first" else make_shell(after=plugins)
    ask_then_cycle(sh, stub, "? with plugins")
    sh.tmux.keys("C-u")
    sh.ask("echo plain-$((40+2))")
    sh.wait("plain-42")
    stub.queue(Reply(text="b\nCMD: git status\n"))
    sh.tmux.type("git stauts")
    sh.press("ask")
    sh.wait_prompt("git status")
    assert user_message(stub.requests[0]) == "with plugins"


def test_sourcing_twice_is_harmless_and_options_are_restored(make_shell, stub):
    script = Path(__file__).resolve().parents[2] / "shell" / "aish.zsh"
    sh = make_shell(before="setopt ksh_arrays sh_word_split",
                    after=f"source '{script}'; print -r -- opts:${{options[ksh_arrays]}}:${{options[sh_word_split]}}")
    sh.wait("opts:on:on")
    stub.queue(Reply(text="a\nCMD: ls -la\n"))
    sh.ask("? with ksh arrays")
    sh.wait_prompt("ls -la")
    assert len(stub.requests) == 1


def test_aish_shell_reads_the_users_own_startup_files_then_loads_aish(stub, aish_env):
    """`aish shell` (the README's first command): the user's .zshenv, .zprofile and .zshrc
    run as at a login, ZDOTDIR is not left pointing at the runtime dir, and aish works."""
    from tests.shell.shellenv import PROMPT, _q, aish_shell, ask_gets_the_suggestion

    home = aish_env / "home"
    home.mkdir()
    (home / ".zshenv").write_text("typeset -g FROM_ENV=1\n")
    (home / ".zprofile").write_text("typeset -g FROM_PROFILE=1\n")
    (home / ".zshrc").write_text(f"PS1={_q(PROMPT)}\ntypeset -g FROM_RC=1\n")
    with aish_shell(aish_env, home, "zsh") as tmux:
        tmux.wait_last_line(PROMPT, timeout=20)
        tmux.type('print -r -- "z=${ZDOTDIR-unset} $FROM_ENV$FROM_PROFILE$FROM_RC h=${HISTFILE:-none}"')
        tmux.keys("Enter")
        tmux.wait("z=unset 111 h=none")
        ask_gets_the_suggestion(tmux, stub, "? from aish shell")
