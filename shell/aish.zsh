# aish: AI in your zsh.  Load with the line `aish init zsh --rc` prints (it sources a copy
# of this file that aish keeps current: no Python at shell start), or source this file.
# `? question` + Enter asks; Ctrl-X Ctrl-A asks about the line; Ctrl-X Ctrl-W explains it;
# Ctrl-X Ctrl-Y cycles suggestions.  Settings: see docs/shell.md.  Speaks docs/protocol.md
# natively: nothing forks on the keypress path once the daemon runs and the reply FIFO exists.

# No `return` at top level: under `eval "$(aish init zsh)"` it would end the user's .zshrc.
# Sourcing twice re-defines the functions and binds nothing twice (_aish_zsh_loaded).
#
# Two files, because parsing is most of what sourcing a script costs at start-up: this one
# holds what every prompt and every Enter needs (settings, hooks, widgets, key bindings);
# aish.lazy.zsh, beside it, holds the rest (requests, answers, approval, keys) and is sourced
# by the first question or key that needs it (no fork).  `aish init zsh` prints both as one.
# Parse the rest without user aliases and with zsh's defaults for the options that change
# parsing or the top-level code below; the user's values come back in the `always` block at
# the end, even when something in between fails.  (Functions set their own options with
# `emulate -L zsh`.)
'builtin' 'typeset' -gA _aish_saved_opts
() {
  'builtin' 'local' o
  for o in aliases ignore_braces ignore_close_braces sh_glob ksh_glob ksh_arrays \
           sh_word_split glob_subst rc_quotes no_unset warn_create_global; do
    _aish_saved_opts[$o]=${options[$o]}
  done
}
'builtin' 'setopt' no_aliases no_ignore_braces no_ignore_close_braces no_sh_glob no_ksh_glob \
  no_ksh_arrays no_sh_word_split no_glob_subst no_rc_quotes unset no_warn_create_global

# ----------------------------------------------------------------- hooks (fork-free)
_aish_preexec() {
  emulate -L zsh
  _aish_cmd=$1
  _aish_t0=$EPOCHREALTIME
  [[ -n $_aish_osc ]] || _aish_osc_decide
  [[ $_aish_osc == 1 ]] && print -n $'\e]133;C\a'
  [[ $1 == *doctor* ]] && _aish_live_state     # `aish doctor` reads what the shell has live
  _aish_agents_on && _aish_agent_state "$1"     # an agent sees that a command runs here
  return 0
}

_aish_precmd() {
  local -i st=$?
  emulate -L zsh
  [[ -n $_aish_watched ]] || _aish_watch
  if [[ -z $_aish_t0 ]]; then         # empty Enter, Ctrl-C or a `?` line: nothing ran
    [[ -n $_aish_agent ]] && _aish_agent_report     # an agent's proposal was not run
    _aish_agents_on && _aish_agent_state
    return 0
  fi
  local -i ms
  (( ms = (EPOCHREALTIME - _aish_t0) * 1000 ))
  _aish_status=$st
  _aish_hist+=("$st"$'\t'"$ms"$'\t'"$_aish_cmd")
  (( $#_aish_hist > AISH_HISTORY_SIZE )) && shift $(( $#_aish_hist - AISH_HISTORY_SIZE )) _aish_hist
  _aish_t0=
  _aish_command_done $st
  [[ $_aish_task == (wait|run) ]] && _aish_report $st $ms "$_aish_cmd"
  [[ -n $_aish_agent ]] && _aish_agent_report $st $ms "$_aish_cmd"
  _aish_agents_on && _aish_agent_state
  return 0
}

_aish_agents_on() {    # an agent is connected (aish mcp-server): the daemon keeps <runtime>/agents
  [[ -n $_aish_rt ]] || {
    _aish_rt=${AISH_RUNTIME_DIR:-${XDG_RUNTIME_DIR:+${XDG_RUNTIME_DIR%/}/aish}}
    [[ -n $_aish_rt ]] || _aish_rt=${${TMPDIR:-/tmp}%/}/aish-$UID
  }
  [[ -e $_aish_rt/agents ]]
}

_aish_line_init() {    # a planned step waits: put it on the new prompt line
  emulate -L zsh
  [[ -n $_aish_step ]] || return 0
  _aish_place_step
}

_aish_line_hook() {    # add _aish_line_init to zle-line-init (once; a precmd hook removes itself)
  precmd_functions=(${precmd_functions:#_aish_line_hook})
  autoload -Uz add-zle-hook-widget 2>/dev/null && add-zle-hook-widget line-init _aish_line_init
}

_aish_arm_guard() {    # suggestion $1 is on the line: a high-risk one needs a second Enter
  emulate -L zsh
  _aish_guard=
  [[ $AISH_GUARD_ENTER == 1 && $_aish_levels[$1] == high ]] && _aish_guard=$BUFFER
  _aish_highlight
  return 0
}

_aish_highlight() {    # BUFFER changed under a highlighter that does not wrap our widgets
  # (zsh-syntax-highlighting loaded before aish): colour the new text now, not at the next key
  (( ${+functions[_zsh_highlight]} )) && _zsh_highlight
  return 0
}

# ----------------------------------------------------------------- widgets
_aish_accept_line() {
  emulate -L zsh
  # Guard the Enter: a high-risk suggestion left as it was is not run by the first Enter.
  # The note goes under the line (zle -M): a copy of the prompt above would read like a run.
  if [[ -n $_aish_guard && $BUFFER == $_aish_guard ]]; then
    _aish_guard=
    zle -M -- "[aish] high risk: press Enter again to run"
    return 0
  fi
  _aish_guard=
  # Only a command line (not vared, select or a continuation line) can be a question.
  if [[ $CONTEXT != start || ( $BUFFER != '?' && $BUFFER != '? '* && $BUFFER != '?? '* ) ]]; then
    zle _aish_orig_accept_line -- "$@"
    return
  fi
  # A widget that ends in an error has zle run `.accept-line` on the line as it is: the
  # question would run as a command.  Whatever fails on its way, it stays on the line.
  { _aish_question } always { TRY_BLOCK_ERROR=0 }
}

# ----------------------------------------------------------------- command output (docs/output.md)
_aish_osc_decide() {   # OSC 133 marks: ours unless off, or the terminal's integration prints its own
  if [[ -n ${AISH_RECORDER-} ]]; then _aish_osc=1    # the recorder cuts commands at them
  elif [[ $AISH_OSC133 == off ]]; then _aish_osc=0
  elif (( ${+functions[_ksi_precmd]} || ${+functions[__wezterm_semantic_precmd]} ||
          ${+functions[iterm2_precmd]} || ${+functions[__vsc_precmd]} ||
          ${+functions[_ghostty_precmd]} )); then _aish_osc=0
  else _aish_osc=1; fi
}

_aish_watch() {        # once, at the first prompt in tmux: a running daemon reads this pane now
  _aish_watched=1      # (so it knows where the first command's output starts; fork-free)
  [[ -n ${TMUX-} && ${TMUX_PANE-} == %<-> && $AISH_OUTPUT != off ]] || return 0
  local d=${AISH_RUNTIME_DIR:-${XDG_RUNTIME_DIR:+${XDG_RUNTIME_DIR%/}/aish}} s=${TMUX%%,*} fd
  [[ -n $d ]] || d=${${TMPDIR:-/tmp}%/}/aish-$UID
  [[ $s == /* && $s != *[[:space:]%]* && -O $d && -p $d/daemon.fifo ]] || return 0
  zmodload zsh/system 2>/dev/null || return 0
  sysopen -w -o nonblock,cloexec -u fd -- $d/daemon.fifo 2>/dev/null || return 0  # no daemon
  print -r -u $fd -- "watch $TMUX_PANE $s $_aish_marks"
  exec {fd}>&-
}

_aish_command_done() { # $1 exit status: the D and A marks, and a fix drafted after a failure
  [[ -n $_aish_osc ]] || _aish_osc_decide
  # keys still waiting for the line editor were typed while the command ran: the terminal
  # echoed them among its output (docs/output.md), which D then marks as not what it printed
  # (and the next request says so, for kitty, which keeps no D: _aish_term_fields)
  _aish_keys_ahead=
  _aish_typed_ahead && _aish_keys_ahead=1
  [[ $_aish_osc == 1 ]] && print -n $'\e]133;D;'$1';aish='$(( ++_aish_marks ))${_aish_keys_ahead:+;aish_typed=1}$'\a\e]133;A\a'
  # B ends the prompt: kept at the end of PS1 (a theme that rebuilds PS1 drops it, harmlessly)
  [[ $_aish_osc == 1 && $PS1 != *$'\e]133;B\a'* ]] && PS1+=$'%{\e]133;B\a%}'
  # (no fix drafted during a norris task: its planner hears of the failure itself)
  (( $1 != 0 && $1 != 130 && $1 != 148 )) && [[ $_aish_task != (wait|run) ]] && _aish_prepare
  return 0
}

_aish_typed_ahead() {  # keys wait unread on the terminal (a whole line: it is in cooked mode
  # until zle starts); fork-free, nothing read: they are the next line's.  zsh/zselect once.
  emulate -L zsh
  [[ -t 0 ]] || return 1
  if [[ -z $_aish_zsel ]]; then
    _aish_zsel=0
    zmodload zsh/zselect 2>/dev/null && _aish_zsel=1
  fi
  (( _aish_zsel )) || return 1
  local -a ready
  builtin zselect -t 0 -a ready -r 0
}

# ----------------------------------------------------------------- on demand (aish.lazy.zsh)
_aish_load() {         # define the on-demand functions; $1 = the stub asking; 1 = cannot
  emulate -L zsh
  setopt no_aliases    # parsed as the first half was: zsh's defaults, no user aliases
  local msg
  if [[ -n $_aish_lazy_done ]]; then
    [[ -z ${1-} ]] && return 0
    # Loaded, yet this stub still stands: the file lacks its function (never recurse).
    msg="aish: $_aish_lazy lacks $1: reinstall aish"
  else
    _aish_lazy_rev= _aish_lazy_missing=
    [[ -r $_aish_lazy ]] && source $_aish_lazy
    [[ -n $_aish_lazy_done ]] && return 0
    if [[ -n $_aish_lazy_missing ]]; then   # a file it sources is gone: a broken install
      msg="aish: cannot read $_aish_lazy_missing: reinstall aish"
    elif [[ -n $_aish_lazy_rev ]]; then   # it defined nothing: it belongs to another version
      msg="aish: aish was upgraded ($_aish_rev -> $_aish_lazy_rev) since this shell started: open a new shell"
    else
      msg="aish: cannot read $_aish_lazy: load aish with the line \`${AISH_COMMAND:t} init zsh --rc\` prints"
    fi
  fi
  if zle; then zle -M -- $msg; else print -r -- $msg; fi   # under the line in a widget
  return 1
}

# Stubs: each loads the file, whose definition replaces it, then calls that.
_aish_report() { _aish_load _aish_report && _aish_report "$@" }
_aish_prepare() { _aish_load _aish_prepare && _aish_prepare "$@" }
_aish_question() { _aish_load _aish_question && _aish_question "$@" }
_aish_ask_widget() { _aish_load _aish_ask_widget && _aish_ask_widget "$@" }
_aish_explain_widget() { _aish_load _aish_explain_widget && _aish_explain_widget "$@" }
_aish_cycle_widget() { _aish_load _aish_cycle_widget && _aish_cycle_widget "$@" }
_aish_fix_widget() { _aish_load _aish_fix_widget && _aish_fix_widget "$@" }
_aish_fix_hint() { _aish_load _aish_fix_hint && _aish_fix_hint "$@" }
_aish_place_step() { _aish_load _aish_place_step && _aish_place_step "$@" }
_aish_live_state() { _aish_load _aish_live_state && _aish_live_state "$@" }
_aish_agent_state() { _aish_load _aish_agent_state && _aish_agent_state "$@" }
_aish_agent_report() { _aish_load _aish_agent_report && _aish_agent_report "$@" }
_aish_status_key() { _aish_load _aish_status_key && _aish_status_key "$@" }

# ----------------------------------------------------------------- binding
_aish_builtin_accept_line() {
  emulate -L zsh
  zle .accept-line -- "$@"
}

_aish_exit() {         # our reply FIFO goes with the shell
  emulate -L zsh
  [[ -p ${_aish_fifo-} ]] && zmodload -F zsh/files b:zf_rm 2>/dev/null && zf_rm -f -- $_aish_fifo ${_aish_fifo%.fifo}-fix.fifo
}

# Everything that runs at source time is in this block (function definitions above cannot
# fail once parsed): the user's options come back in `always`, even when it fails.
{
typeset -g AISH_COMMAND=${AISH_COMMAND:-aish}
typeset -g AISH_HISTORY_SIZE=${AISH_HISTORY_SIZE:-20}
typeset -g AISH_KEY_ASK=${AISH_KEY_ASK-'^X^A'}
typeset -g AISH_KEY_EXPLAIN=${AISH_KEY_EXPLAIN-'^X^W'}
typeset -g AISH_KEY_CYCLE=${AISH_KEY_CYCLE-'^X^Y'}
typeset -g AISH_TIMEOUT=${AISH_TIMEOUT:-300}
typeset -g AISH_GUARD_ENTER=${AISH_GUARD_ENTER:-1}  # 1: a high-risk suggestion needs a second Enter
typeset -g _aish_guard=  # the high-risk suggestion on the line, until it is edited or confirmed
typeset -g AISH_KEY_FIX=${AISH_KEY_FIX-'^X^F'}
typeset -g AISH_KEY_VICMD_PREFIX=${AISH_KEY_VICMD_PREFIX-'\\'}  # vi normal mode: \a \w \y \f too
typeset -g AISH_OUTPUT=${AISH_OUTPUT:-auto}   # off: no command output leaves this shell
typeset -g AISH_OSC133=${AISH_OSC133:-auto}   # off: no OSC 133 marks; auto: unless the terminal's own

typeset -ga _aish_hist _aish_cmds _aish_levels _aish_reasons _aish_lines
typeset -g _aish_cmd= _aish_t0= _aish_status=0 _aish_seq=0 _aish_conv= _aish_idx=0
typeset -g -i _aish_marks=${_aish_marks:-0}   # the D marks printed: each carries its count (context/marks.py)
typeset -g _aish_zsel=   # zsh/zselect loaded (1) or not loadable (0), once: _aish_typed_ahead
typeset -g _aish_keys_ahead=  # 1: keys typed while the last command ran waited unread when it ended
typeset -g _aish_osc= _aish_fixfd= _aish_fixpath= _aish_fixbuf= _aish_fixmark= _aish_watched=
typeset -g _aish_fifo=${_aish_fifo-} _aish_d= _aish_id= _aish_pid0= _aish_part= _aish_line=
typeset -g _aish_task= _aish_step= _aish_varsf=
typeset -gi _aish_texting=0 _aish_answered=0
typeset -g _aish_agent= _aish_agent_gone= _aish_agent_seen= _aish_rt=   # an agent's proposal (docs/agents.md)
typeset -g _aish_tag= _aish_f1= _aish_f2= _aish_f3= _aish_plain= _aish_glyphs='|/-\'
typeset -gi _aish_nl=1 _aish_spinning=0 _aish_spin_n=0 _aish_done=0 _aish_gone=0 _aish_li=1
typeset -gi _aish_rfd=0 _aish_last=0 _aish_tidy=1
typeset -gi _aish_drawn=0 _aish_cols=0   # how far the prompt under an answer is drawn; COLUMNS before
typeset -g _aish_said= _aish_shown=   # a Ctrl-C said for this request; the prompt drawn again
typeset -g _aish_tty=   # set once echo is off while an answer streams
typeset -gF _aish_tick=0.25
# The on-demand half, beside this file (links resolved); see _aish_load.
typeset -g _aish_lazy=${${(%):-%x}:A:h}/aish.lazy.zsh _aish_lazy_done= _aish_lazy_rev=
typeset -g _aish_rev=0.1.0   # the aish version of this file; aish.lazy.zsh must carry the same

zmodload -F zsh/datetime p:EPOCHREALTIME p:EPOCHSECONDS 2>/dev/null
# This shell's conversation; exported so `aish ask` run here continues it.
_aish_conv=zsh-$$-$EPOCHSECONDS
export AISH_CONV=$_aish_conv

if [[ -o interactive && -z ${_aish_zsh_loaded-} ]]; then
  typeset -g _aish_zsh_loaded=1
  # Keep what Enter did before us.  A plain `zle -A` copy of the builtin would be a widget of
  # type "builtin" named _aish_orig_accept_line, and zsh-syntax-highlighting (loaded later)
  # wraps builtins by calling `.<name>`, which does not exist: wrap the builtin in a function.
  if [[ ${widgets[accept-line]-} == builtin ]]; then
    zle -N _aish_orig_accept_line _aish_builtin_accept_line
  else
    zle -A accept-line _aish_orig_accept_line
  fi
  zle -N accept-line _aish_accept_line
  zle -N _aish_ask_widget
  zle -N _aish_explain_widget
  zle -N _aish_cycle_widget
  zle -N _aish_fix_widget
  zle -N _aish_fix_hint
  zle -N _aish_status_key
  () {
    local km
    for km in emacs viins vicmd; do
      [[ -n $AISH_KEY_ASK ]] && bindkey -M $km $AISH_KEY_ASK _aish_ask_widget
      [[ -n $AISH_KEY_EXPLAIN ]] && bindkey -M $km $AISH_KEY_EXPLAIN _aish_explain_widget
      [[ -n $AISH_KEY_CYCLE ]] && bindkey -M $km $AISH_KEY_CYCLE _aish_cycle_widget
      [[ -n $AISH_KEY_FIX ]] && bindkey -M $km $AISH_KEY_FIX _aish_fix_widget
      # the terminal's answer to the status request the daemon writes for an agent's proposal
      bindkey -M $km '\e[0n' _aish_status_key
    done
    # Normal mode also gets the keys behind an unbound prefix (\a ask, \w explain, \y cycle,
    # \f fix): zsh-vi-mode binds Ctrl-X there and sets KEYTIMEOUT=1, so no Ctrl-X chord can
    # be typed; a prefix bound to nothing waits for its second key however slow.
    local p=$AISH_KEY_VICMD_PREFIX
    if [[ -n $p ]]; then
      bindkey -M vicmd ${p}a _aish_ask_widget ${p}w _aish_explain_widget \
        ${p}y _aish_cycle_widget ${p}f _aish_fix_widget
    fi
  }
  zshexit_functions=(${zshexit_functions:#_aish_exit} _aish_exit)
  # zle-line-init through the hook list, so a user's own line-init widget keeps working.
  # It needs zsh/parameter, which cannot load inside a function holding a local of one of
  # its names (zsh-vi-mode runs its after-init commands with a local `commands`): then the
  # first prompt adds it, outside that function.
  if zmodload zsh/parameter 2>/dev/null; then
    _aish_line_hook
  else
    precmd_functions=(${precmd_functions:#_aish_line_hook} _aish_line_hook)
  fi
  # precmd first, so it reads the real $? before other hooks run commands.
  precmd_functions=(_aish_precmd ${precmd_functions:#_aish_precmd})
  preexec_functions=(${preexec_functions:#_aish_preexec} _aish_preexec)
fi
} always {
  () {
    local o
    for o in ${(k)_aish_saved_opts}; do
      [[ ${options[$o]} == ${_aish_saved_opts[$o]} ]] || options[$o]=${_aish_saved_opts[$o]}
    done
  }
  unset _aish_saved_opts
}
