# aish: AI in your bash.  Load with the line `aish init bash --rc` prints (it sources a copy
# of this file that aish keeps current: no Python at shell start), or source this file.
# `? question` + Enter asks; Ctrl-X Ctrl-A asks about the line; Ctrl-X Ctrl-W explains it;
# Ctrl-X Ctrl-Y cycles suggestions.  Settings: see docs/shell.md.  Speaks docs/protocol.md
# natively: nothing forks on the keypress path once the daemon runs and the reply FIFO exists.
#
# Two files, because bash pays for every line it parses at start-up: this one holds what
# every prompt and every Enter needs (settings, hooks, key bindings); aish.lazy.bash, beside
# it, holds the rest (requests, answers, approval, keys) and is sourced by the first key or
# question that needs it (a `source`: no fork).  `aish init bash` prints both as one text.

# No `return` at top level: under `eval "$(aish init bash)"` it would end the user's .bashrc.
# Sourcing twice re-defines the functions and binds nothing twice (_aish_bash_loaded).

AISH_COMMAND=${AISH_COMMAND:-aish}
AISH_HISTORY_SIZE=${AISH_HISTORY_SIZE:-20}
AISH_KEY_ASK=${AISH_KEY_ASK-'\C-x\C-a'}
AISH_KEY_EXPLAIN=${AISH_KEY_EXPLAIN-'\C-x\C-w'}
AISH_KEY_CYCLE=${AISH_KEY_CYCLE-'\C-x\C-y'}
AISH_TIMEOUT=${AISH_TIMEOUT:-300}
AISH_GUARD_ENTER=${AISH_GUARD_ENTER:-1}  # 1: a high-risk suggestion needs a second Enter
_aish_guard=  # the high-risk suggestion on the line, until it is edited or confirmed
AISH_KEY_FIX=${AISH_KEY_FIX-'\C-x\C-f'}
AISH_OUTPUT=${AISH_OUTPUT:-auto}    # off: no command output leaves this shell
AISH_OSC133=${AISH_OSC133:-auto}    # off: no OSC 133 marks; auto: unless the terminal's own

# Fixed descriptors: a Ctrl-C skips cleanup in `bind -x`, so each request first closes
# whatever a previous, interrupted one left open.
_aish_hist=(${_aish_hist[@]+"${_aish_hist[@]}"}) _aish_cmds=() _aish_levels=() _aish_reasons=()
_aish_cmd='' _aish_t0='' _aish_status=0 _aish_seq=0 _aish_conv='' _aish_idx=0 _aish_pending=''
_aish_osc='' _aish_watched='' _aish_checked='' _aish_accept=1 _aish_bp=${_aish_bp-} _aish_d='' _aish_fifo='' _aish_id='' _aish_pid0=''
_aish_part='' _aish_line='' _aish_tag='' _aish_f1='' _aish_f2='' _aish_f3='' _aish_plain='' _aish_glyphs="|/-\\"
_aish_nl=1 _aish_ended='' _aish_spinning=0 _aish_spin_n=0 _aish_done=0 _aish_gone=0 _aish_last=0 _aish_intr='' _aish_said=''
_aish_tick=0.25 _aish_tty='' _aish_varsf='' _aish_texting=0 _aish_answered=0 _aish_umask='' _aish_task=${_aish_task-} _aish_step='' _aish_t0_ran=0 _aish_fix_ready=''
_aish_marks=${_aish_marks:-0}   # the D marks printed: each carries its count (context/marks.py)
_aish_t1=''   # ble.sh: when POSTEXEC saw the command end
_aish_keys_ahead=''   # 1: keys typed while the last command ran waited unread when it ended
_aish_agent='' _aish_agent_gone='' _aish_agent_seen='' _aish_rt=''   # an agent's proposal (docs/agents.md)
# This shell's conversation; exported so `aish ask` run here continues it.
_aish_conv=bash-$$-$SECONDS-$RANDOM
export AISH_CONV=$_aish_conv

# ----------------------------------------------------------------- hooks (fork-free)
_aish_now() {          # milliseconds into _aish_ms
  if [[ -n ${EPOCHREALTIME-} ]]; then
    local t=${EPOCHREALTIME//[!0-9]/}
    _aish_ms=$(( 10#$t / 1000 ))
  else
    _aish_ms=$(( SECONDS * 1000 ))
  fi
}

_aish_preexec() {
  _aish_cmd=$1
  _aish_now
  _aish_t0=$_aish_ms _aish_ended='' _aish_t1=''
  # Output starts here only when bash-preexec calls us from its DEBUG trap (the line is
  # accepted); from Enter's `bind -x` the line is not even echoed yet.  bash 4.4+ prints
  # C from PS0 instead (_aish_prompt_marks).
  [[ -n $_aish_bp && $_aish_osc == 1 ]] && ! _aish_ps0 && printf '\e]133;C\a'
  [[ $1 == *doctor* ]] && _aish_live_state     # `aish doctor` reads what the shell has live
  _aish_agents_on && _aish_agent_state "$1"     # an agent sees that a command runs here
  return 0
}

_aish_ps0() { (( BASH_VERSINFO[0] > 4 || (BASH_VERSINFO[0] == 4 && BASH_VERSINFO[1] >= 4) )); }

_aish_precmd() {       # $1 = pc when run from PROMPT_COMMAND (a no-op once bash-preexec runs us)
  local st=$? known=$?
  # A hook put before ours (`PROMPT_COMMAND="history -a; $PROMPT_COMMAND"`, a common rc
  # line) left its own status in $?: ours goes back to the front, as bash-preexec keeps
  # its own first, and this one command's status is unknown.  (Enter checks too.)
  if [[ ${1-} == pc && -z $_aish_bp && $PROMPT_COMMAND != "_aish_precmd pc"* ]]; then
    _aish_pc_first || known='?'
  fi
  _aish_prompt_marks
  [[ -n $_aish_watched ]] || _aish_watch
  if [[ -n $_aish_t0 && ( ${1-} != pc || -z $_aish_bp ) ]]; then
    _aish_now
    [[ -n $_aish_t1 ]] && _aish_ms=$_aish_t1    # ble.sh: the command ended at POSTEXEC
    _aish_t1=''
    _aish_t0_ran=$_aish_t0
    _aish_status=$known
    _aish_hist+=("$known"$'\t'"$(( _aish_ms - _aish_t0 ))"$'\t'"$_aish_cmd")
    local n=$(( ${#_aish_hist[@]} - AISH_HISTORY_SIZE ))
    (( n > 0 )) && _aish_hist=("${_aish_hist[@]:n}")
    _aish_t0=
    _aish_fix_ready=                    # a draft is for the command before this one: stale
    _aish_command_done "$known"
    if [[ $_aish_task == wait || $_aish_task == run ]]; then
      _aish_report "$st" "$(( _aish_ms - _aish_t0_ran ))" "$_aish_cmd"
    fi
    [[ -n $_aish_agent ]] && _aish_agent_report "$st" "$(( _aish_ms - _aish_t0_ran ))" "$_aish_cmd"
  elif [[ ${1-} != pc || -z $_aish_bp ]]; then   # no command ran (Enter on an empty line, Ctrl-C)
    [[ -n $_aish_agent ]] && _aish_agent_report  # an agent's proposal was not run
    [[ -n $_aish_fix_ready ]] && _aish_fix_hint
  fi
  [[ ( ${1-} != pc || -z $_aish_bp ) ]] && _aish_agents_on && _aish_agent_state
  return $st
}

_aish_agents_on() {    # an agent is connected (aish mcp-server): the daemon keeps <runtime>/agents
  if [[ -z $_aish_rt ]]; then
    _aish_rt=${AISH_RUNTIME_DIR:-${XDG_RUNTIME_DIR:+${XDG_RUNTIME_DIR%/}/aish}}
    [[ -n $_aish_rt ]] || { _aish_rt=${TMPDIR:-/tmp}; _aish_rt=${_aish_rt%/}/aish-$UID; }
  fi
  [[ -e $_aish_rt/agents ]]
}

# ----------------------------------------------------------------- on demand (aish.lazy.bash)
# Its path is taken now (relative paths made absolute), as `source` gives it.
_aish_lazy=${BASH_SOURCE[0]-}
[[ $_aish_lazy == /* ]] || _aish_lazy=$PWD/$_aish_lazy
_aish_lazy=${_aish_lazy%/*}/aish.lazy.bash _aish_lazy_done='' _aish_lazy_rev=''
_aish_rev=0.1.0          # the aish version of this file; aish.lazy.bash must carry the same

_aish_load() {         # define the on-demand functions; $1 = the stub asking; 1 = cannot
  if [[ -n $_aish_lazy_done ]]; then
    [[ -z ${1-} ]] && return 0
    # Loaded, yet this stub still stands: the file lacks its function (never recurse).
    printf 'aish: %s lacks %s: reinstall aish\n' "$_aish_lazy" "$1"
    return 1
  fi
  _aish_lazy_rev='' _aish_lazy_missing=''
  # shellcheck source=aish.lazy.bash  # the file beside this one, checked as part of it
  [[ -r $_aish_lazy ]] && source "$_aish_lazy"
  [[ -n $_aish_lazy_done ]] && return 0
  if [[ -n $_aish_lazy_missing ]]; then   # a file it sources is gone: a broken install
    printf 'aish: cannot read %s: reinstall aish\n' "$_aish_lazy_missing"
  elif [[ -n $_aish_lazy_rev ]]; then     # it defined nothing: it belongs to another version
    printf 'aish: aish was upgraded (%s -> %s) since this shell started: open a new shell\n' \
      "$_aish_rev" "$_aish_lazy_rev"
  else
    # shellcheck disable=SC2016  # the backquotes are text: they quote a command to run
    printf 'aish: cannot read %s: load aish with the line `%s init bash --rc` prints\n' \
      "$_aish_lazy" "${AISH_COMMAND##*/}"
  fi
  return 1
}

# Stubs: each loads the file, whose definition replaces it, then calls that.
_aish_report() { _aish_load _aish_report && _aish_report "$@"; }
_aish_fix_hint() { _aish_load _aish_fix_hint && _aish_fix_hint "$@"; }
_aish_live_state() { _aish_load _aish_live_state && _aish_live_state "$@"; }
_aish_agent_state() { _aish_load _aish_agent_state && _aish_agent_state "$@"; }
_aish_agent_report() { _aish_load _aish_agent_report && _aish_agent_report "$@"; }
_aish_prepare() { _aish_load _aish_prepare && _aish_prepare "$@"; }
_aish_question() { _aish_load _aish_question && _aish_question "$@"; }
_aish_hold_enter() { _aish_load _aish_hold_enter && _aish_hold_enter "$@"; }
_aish_step_key() { _aish_load _aish_step_key && _aish_step_key "$@"; }
_aish_ask_key() { _aish_load _aish_ask_key && _aish_ask_key "$@"; }
_aish_explain_key() { _aish_load _aish_explain_key && _aish_explain_key "$@"; }
_aish_cycle_key() { _aish_load _aish_cycle_key && _aish_cycle_key "$@"; }
_aish_fix_key() { _aish_load _aish_fix_key && _aish_fix_key "$@"; }
_aish_legacy() { _aish_load _aish_legacy && _aish_legacy "$@"; }

# shellcheck disable=SC2128,SC2178  # PROMPT_COMMAND: a string, or an array from bash 5.1
_aish_pc_first() {     # our PROMPT_COMMAND entry back at the front; 1 = it was not
  local e='_aish_precmd pc' c
  local -a rest=()
  if (( BASH_VERSINFO[0] > 5 || (BASH_VERSINFO[0] == 5 && BASH_VERSINFO[1] >= 1) )) &&
     [[ ${PROMPT_COMMAND@a} == *a* ]]; then
    # bash 5.1's array form: each element starts with the real $?, so first in its element
    for c in "${PROMPT_COMMAND[@]}"; do [[ $c == "$e"* ]] && return 0; done
    for c in "${PROMPT_COMMAND[@]}"; do
      c=${c//"$e;"/}
      [[ -n $c && $c != "$e" ]] && rest+=("$c")
    done
    PROMPT_COMMAND=("$e" "${rest[@]}")
  else
    c=${PROMPT_COMMAND-}
    c=${c//"$e;"/}
    [[ $c == "$e" ]] && c=
    PROMPT_COMMAND=$e${c:+;$c}
  fi
  return 1
}

# ----------------------------------------------------------------- bindings
_aish_hooks() {        # use bash-preexec's hook arrays once it is loaded (fork-free)
  [[ -z $_aish_bp && -n ${bash_preexec_imported-}${__bp_imported-} ]] || return 0
  _aish_bp=1
  precmd_functions=(_aish_precmd "${precmd_functions[@]}")
  preexec_functions+=(_aish_preexec)
}

_aish_enter() {        # every Enter: a plain line is accepted at once, a question is asked
  # Guard the Enter: a high-risk suggestion left as it was is not run by the first Enter.
  if [[ -n $_aish_guard && $READLINE_LINE == "$_aish_guard" ]]; then
    _aish_guard=
    _aish_bind_accept _aish_noop
    _aish_hold_enter
    return 0
  fi
  _aish_guard=
  if [[ $READLINE_LINE != '?' && $READLINE_LINE != '? '* && $READLINE_LINE != '?? '* ]]; then
    if [[ -z ${_aish_accept} ]]; then _aish_bind_accept accept-line; fi
    [[ -n $_aish_bp ]] || _aish_hooks
    # (our hook first in PROMPT_COMMAND, and still there: an rc or a command may change it)
    # shellcheck disable=SC2128
    [[ -n $_aish_bp || $PROMPT_COMMAND == "_aish_precmd pc"* ]] || _aish_pc_first
    [[ -n $_aish_bp || -z ${READLINE_LINE//[[:space:]]/} ]] || _aish_preexec "$READLINE_LINE"
    return 0
  fi
  _aish_bind_accept _aish_noop
  _aish_question
}

_aish_noop() { :; }

_aish_bind_accept() {  # what the second half of the Enter macro does: accept or nothing
  if [[ $_aish_bp == ble ]]; then    # (ble.sh: our widget reads the flag)
    [[ $1 == accept-line ]] && _aish_accept=1 || _aish_accept=''
    return 0
  fi
  local km
  for km in emacs vi-insert vi-command; do
    if [[ $1 == accept-line ]]; then
      bind -m "$km" '"\C-x\C-]\C-b": accept-line'
    else
      bind -m "$km" '"\C-x\C-]\C-b": redraw-current-line'
    fi
  done
  [[ $1 == accept-line ]] && _aish_accept=1 || _aish_accept=
}

# ----------------------------------------------------------------- command output (docs/output.md)
_aish_osc_decide() {   # OSC 133 marks: ours unless off, or the terminal's integration prints its own
  if [[ -n ${AISH_RECORDER-} ]]; then _aish_osc=1    # the recorder cuts commands at them
  elif [[ $AISH_OSC133 == off ]]; then _aish_osc=0
  elif declare -F _ksi_prompt_command __wezterm_semantic_precmd iterm2_prompt_prefix \
         __vsc_prompt_cmd __ghostty_precmd >/dev/null 2>&1 ||
       [[ -n ${KITTY_SHELL_INTEGRATION-}${VSCODE_SHELL_INTEGRATION-} ]]; then _aish_osc=0
  else _aish_osc=1; fi
}

_aish_prompt_marks() { # every prompt: B kept in PS1, C at the very end of PS0 (fork-free)
  [[ -n $_aish_osc ]] || _aish_osc_decide
  [[ $_aish_osc == 1 ]] || return 0
  # B ends the prompt (a theme that rebuilds PS1 drops it, harmlessly, until the next prompt)
  [[ $PS1 == *'133;B'* ]] || PS1+='\[\e]133;B\a\]'
  # C: bash prints PS0 once the line is read, just before the command runs (never for an
  # empty line): what follows is the command's output.  Last in PS0, after what others
  # put there (bash-preexec runs its hooks from it on 5.3), so their output is not counted.
  if _aish_ps0 && [[ $PS0 != *'\e]133;C\a' ]]; then PS0=${PS0//'\e]133;C\a'/}'\e]133;C\a'; fi
  return 0
}

_aish_watch() {        # once, at the first prompt in tmux: a running daemon reads this pane now
  _aish_watched=1      # (so it knows where the first command's output starts; fork-free)
  [[ -n ${TMUX-} && ${TMUX_PANE-} =~ ^%[0-9]+$ && $AISH_OUTPUT != off ]] || return 0
  local d=${AISH_RUNTIME_DIR:-${XDG_RUNTIME_DIR:+${XDG_RUNTIME_DIR%/}/aish}} s=${TMUX%%,*} pid=
  [[ -n $d ]] || { d=${TMPDIR:-/tmp}; d=${d%/}/aish-$UID; }
  [[ $s == /* && $s != *[[:space:]%]* && -O $d && -p $d/daemon.fifo && -r $d/daemon.pid ]] ||
    return 0
  read -r pid < "$d/daemon.pid" 2>/dev/null
  [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null || return 0    # no daemon: no line
  { exec 58<>"$d/daemon.fifo"; } 2>/dev/null || return 0     # read-write: never blocks
  printf 'watch %s %s %s\n' "$TMUX_PANE" "$s" "$_aish_marks" >&58
  exec 58<&-
}

_aish_typed_ahead() {  # keys wait unread on the terminal (a whole line: it is in cooked mode
  # until readline or ble.sh starts); fork-free, nothing read: they are the next line's
  [[ -t 0 ]] && builtin read -r -t 0
}

_aish_command_done() { # $1 exit status (? unknown): the D and A marks, and a fix drafted after a failure
  [[ -n $_aish_osc ]] || _aish_osc_decide
  # keys still waiting for readline were typed while the command ran: the terminal echoed
  # them among its output (docs/output.md), which D then marks as not what it printed
  # (and the next request says so, for kitty, which keeps no D: _aish_term_fields)
  if [[ -z $_aish_ended ]]; then _aish_keys_ahead=''; _aish_typed_ahead && _aish_keys_ahead=1; fi
  local marks="\\e]133;D;$1;aish=$(( _aish_marks + 1 ))${_aish_keys_ahead:+;aish_typed=1}\\a\\e]133;A\\a"
  [[ $1 == '?' ]] && marks='\e]133;D\a\e]133;A\a'
  [[ -n $_aish_ended ]] && marks='\e]133;A\a'     # ble.sh: _aish_postexec printed D
  _aish_ended=
  if [[ $_aish_osc == 1 ]]; then
    [[ $marks == *aish=* ]] && (( ++_aish_marks ))
    printf '%b' "$marks"
  fi
  [[ $1 == '?' ]] && return 0
  # (no fix drafted during a norris task: its planner hears of the failure itself)
  (( $1 != 0 && $1 != 130 && $1 != 148 )) && [[ $_aish_task != wait && $_aish_task != run ]] &&
    _aish_prepare
  return 0
}

# ble.sh replaces readline: bash's `bind`, PROMPT_COMMAND and Ctrl-C go through its
# emulation (each `bind` costs it ~3 ms, and it runs PROMPT_COMMAND after its own hooks).
# When it is loaded (its docs: first in .bashrc), aish uses what it supports instead:
# `blehook PRECMD/PREEXEC` and `ble-bind`, each keymap bound when ble loads it.
_aish_ble_keys() {     # $1 ble keymap: the same keys as below, through ble-bind
  local km=$1
  ble-bind -m "$km" -x 'keyseq:\C-x\C-]\C-a' _aish_enter
  ble-bind -m "$km" -x 'keyseq:\C-x\C-]\C-s' _aish_step_key
  ble-bind -m "$km" -f 'keyseq:\C-x\C-]\C-b' _aish_accept
  ble-bind -m "$km" -s 'keyseq:\e[0n' '\C-x\C-]\C-s\C-x\C-]\C-b'
  ble-bind -m "$km" -s 'keyseq:\C-m' '\C-x\C-]\C-a\C-x\C-]\C-b'
  ble-bind -m "$km" -s 'keyseq:\C-j' '\C-x\C-]\C-a\C-x\C-]\C-b'
  [[ -n $AISH_KEY_ASK ]] && ble-bind -m "$km" -x "keyseq:$AISH_KEY_ASK" _aish_ask_key
  [[ -n $AISH_KEY_EXPLAIN ]] && ble-bind -m "$km" -x "keyseq:$AISH_KEY_EXPLAIN" _aish_explain_key
  [[ -n $AISH_KEY_CYCLE ]] && ble-bind -m "$km" -x "keyseq:$AISH_KEY_CYCLE" _aish_cycle_key
  [[ -n $AISH_KEY_FIX ]] && ble-bind -m "$km" -x "keyseq:$AISH_KEY_FIX" _aish_fix_key
  return 0
}

_aish_postexec() {     # ble.sh's POSTEXEC: the command ended; D before ble prints its marks
  local st=$?          # (`[ble: exit N]`, elapsed time: between POSTEXEC and PRECMD, so they
  [[ -n $_aish_osc ]] || _aish_osc_decide     # are not taken for the command's output)
  _aish_keys_ahead=''
  _aish_typed_ahead && _aish_keys_ahead=1
  [[ $_aish_osc == 1 ]] && printf '\e]133;D;%s;aish=%s%s\a' "$st" "$(( ++_aish_marks ))" "${_aish_keys_ahead:+;aish_typed=1}" && _aish_ended=1
  # the command ends here: ble's own work up to PRECMD (its marks, its prompt) is not its time
  _aish_now
  _aish_t1=$_aish_ms
  return $st
}

# The second key of Enter under ble.sh: its widgets are functions named ble/widget/NAME.
# A flag says accept or not (rebinding, as for readline, would cost ble a `bind` a time).
function ble/widget/_aish_accept { [[ -z $_aish_accept ]] || ble/widget/accept-line; }

if [[ $- == *i* && -z ${_aish_bash_loaded-} ]]; then
  _aish_bash_loaded=1
  if (( BASH_VERSINFO[0] < 4 )) || [[ -n ${AISH_BASH_LEGACY-} ]]; then
    alias '?'='_aish_legacy #'
  elif [[ -n ${BLE_VERSION-} ]] && declare -F blehook ble-bind >/dev/null; then
    _aish_bp=ble
    blehook PRECMD+=_aish_precmd
    blehook PREEXEC+=_aish_preexec
    blehook POSTEXEC+=_aish_postexec
    blehook/eval-after-load keymap_emacs '_aish_ble_keys emacs'
    blehook/eval-after-load keymap_vi '_aish_ble_keys vi_imap; _aish_ble_keys vi_nmap'
    # Loaded after `ble-attach` (in .bashrc it attaches there and then, running PRECMD for
    # the first prompt at once): that prompt's hook runs now, or the first command's output
    # is never known (no mark in PS0, the daemon not asked to read the pane).
    if [[ -n ${BLE_ATTACHED-} ]]; then true; _aish_precmd attached; fi   # (no command ran: $? 0)
  else
    for _aish_km in emacs vi-insert vi-command; do
      bind -m "$_aish_km" -x '"\C-x\C-]\C-a": _aish_enter'
      bind -m "$_aish_km" -x '"\C-x\C-]\C-s": _aish_step_key'
      bind -m "$_aish_km" '"\e[0n": "\C-x\C-]\C-s\C-x\C-]\C-b"' '"\C-x\C-]\C-b": accept-line' \
        '"\C-m": "\C-x\C-]\C-a\C-x\C-]\C-b"' '"\C-j": "\C-x\C-]\C-a\C-x\C-]\C-b"'
      [[ -n $AISH_KEY_ASK ]] && bind -m "$_aish_km" -x "\"$AISH_KEY_ASK\": _aish_ask_key"
      [[ -n $AISH_KEY_EXPLAIN ]] && bind -m "$_aish_km" -x "\"$AISH_KEY_EXPLAIN\": _aish_explain_key"
      [[ -n $AISH_KEY_CYCLE ]] && bind -m "$_aish_km" -x "\"$AISH_KEY_CYCLE\": _aish_cycle_key"
      [[ -n $AISH_KEY_FIX ]] && bind -m "$_aish_km" -x "\"$AISH_KEY_FIX\": _aish_fix_key"
    done
    unset _aish_km
  fi
  _aish_hooks
  # Without bash-preexec: first in PROMPT_COMMAND to read the real $?; it returns that
  # status for the rest.  bash-preexec, often loaded after us ("the last thing imported"),
  # keeps this entry but runs it after its own hook, with $? lost: _aish_hooks then moves
  # us into its arrays at the next Enter, and this entry does nothing.
  # shellcheck disable=SC2128,SC2178
  [[ -n $_aish_bp ]] || PROMPT_COMMAND="_aish_precmd pc${PROMPT_COMMAND:+;$PROMPT_COMMAND}"
fi
