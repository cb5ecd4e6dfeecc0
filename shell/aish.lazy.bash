# aish: the bash functions loaded on demand (see aish.bash, which sources this file the
# first time a question or an aish key needs it): what the keys and hooks do with a request
# (keys, the fix draft, doctor's view); the request itself is aish.request.bash, and what
# lands on the line from elsewhere (norris steps, agents' proposals) aish.steps.bash, both
# sourced below.  Function definitions only, but for the lines that check and mark the load:
# it is sourced from inside a function, where a `declare` would make locals.
_aish_lazy_rev=0.1.0     # must equal _aish_rev in aish.bash (a test checks both against the package)
# From an aish.bash of another version (the package was upgraded under this shell): define
# nothing, so the two halves never mix.  (Never true in `aish init bash`'s one text.)
[[ ${_aish_rev-} == "$_aish_lazy_rev" ]] || return 1
# The code both shells share (aish.common.sh), one request (aish.request.bash) and the steps
# and proposals (aish.steps.bash), beside this file, unless `aish init`'s one text holds them.
# One that cannot be read is named for the first half to say (_aish_lazy_missing).
if [[ ${_aish_common_rev-} != "$_aish_lazy_rev" ]]; then
  _aish_lazy_missing=${_aish_lazy%/*}/aish.common.sh
  [[ -r $_aish_lazy_missing ]] || return 1
  # shellcheck source=aish.common.sh
  source "$_aish_lazy_missing" || return 1
fi
if [[ ${_aish_request_rev-} != "$_aish_lazy_rev" ]]; then
  _aish_lazy_missing=${_aish_lazy%/*}/aish.request.bash
  [[ -r $_aish_lazy_missing ]] || return 1
  # shellcheck source=aish.request.bash
  source "$_aish_lazy_missing" || return 1
fi
if [[ ${_aish_steps_rev-} != "$_aish_lazy_rev" ]]; then
  _aish_lazy_missing=${_aish_lazy%/*}/aish.steps.bash
  [[ -r $_aish_lazy_missing ]] || return 1
  # shellcheck source=aish.steps.bash
  source "$_aish_lazy_missing" || return 1
fi
_aish_lazy_missing=

# ----------------------------------------------------------------- verb words
_aish_words() {        # split verb arguments on blanks into _aish_f (never globbed)
  local rest=$1
  _aish_f=()
  rest=${rest#"${rest%%[![:space:]]*}"}
  while [[ -n $rest ]]; do
    _aish_f+=("${rest%%[[:space:]]*}")
    rest=${rest#"${_aish_f[${#_aish_f[@]}-1]}"}
    rest=${rest#"${rest%%[![:space:]]*}"}
  done
}

# ----------------------------------------------------------------- Enter on a question
_aish_question() {     # `? text`, `?? goal`, `? :verb`: READLINE_LINE is the question
  local text=${READLINE_LINE#\?}
  text=${text# }
  history -s -- "$READLINE_LINE"
  _aish_echo_line
  if [[ $text == '? '* ]]; then         # `?? goal`: a norris task
    _aish_words "${text#\? }"
    _aish_run verb - '' '' norris "${_aish_f[@]}"
  elif [[ -z $text ]]; then
    READLINE_POINT=0
    _aish_run ask buffer '' ''
  elif [[ $text == :fix ]]; then
    _aish_run ask fix '' ''
  elif [[ $text == :explain ]]; then    # no words: the last command run (the line holds this)
    local last=''
    (( ${#_aish_hist[@]} )) && last=${_aish_hist[${#_aish_hist[@]}-1]}
    _aish_run ask explain '' "${last#*$'\t'*$'\t'}"
  elif [[ $text == :* ]]; then
    _aish_words "${text#:}"
    _aish_run verb - '' '' "${_aish_f[@]}"
  else
    _aish_run ask question "$text" ''
  fi
  [[ $text == :halt* ]] && _aish_task=
  _aish_finish ''
  _aish_end ''
  [[ $_aish_task == run && $READLINE_LINE == "${_aish_cmds[0]-}" ]] && _aish_autorun
  return 0
}

_aish_hold_enter() {   # the first Enter on an unedited high-risk suggestion: not run
  # Where the prompt's last line was (bash redraws the line below): no copy of the prompt
  # with the command on it, which would read like a run.
  _aish_nl=1
  _aish_say "[aish] high risk: press Enter again to run"
  _aish_prompt_top
}

# ----------------------------------------------------------------- the prompt line
_aish_ps1() {          # PS1 into REPLY as the prompt showed it; 1 = bash < 4.4 (no @P)
  ((BASH_VERSINFO[0] > 4 || BASH_VERSINFO[1] >= 4)) || return 1
  # `$?` in it (a status in the prompt, a theme's error mark) is the last command's status
  # again, not the status of the step before the expansion here.
  local st=$_aish_status
  [[ $st =~ ^[0-9]+$ ]] || st=0
  _aish_return "$st"
  REPLY=${PS1@P}
}

_aish_return() { return "$1"; }

_aish_prompt_top() {   # print the prompt lines above its last one (bash redraws only that)
  _aish_ps1 || return 0
  [[ $REPLY == *$'\n'* ]] && printf '%s\n' "${REPLY%$'\n'*}"
}

_aish_echo_line() {    # bash erased the prompt's last line: show it again with the question
  local p=
  _aish_ps1 && p=${REPLY##*$'\n'}
  printf '%s%s\n' "$p" "$READLINE_LINE"
}

_aish_typed() {        # keys typed while the answer streamed wait in the tty
  builtin read -t 0 <&0
}

_aish_finish() {       # $1 = line to keep when nothing is inserted; _aish_end follows
  local keep=$1 typed='' key=${AISH_KEY_CYCLE//\\C-/^}
  key=${key^^}
  [[ -z $_aish_intr ]] || _aish_cancelled   # a Ctrl-C after the request looked for one
  _aish_typed && typed=1
  if [[ -n $typed && ${#_aish_cmds[@]} -gt 0 ]]; then
    _aish_say "[aish] kept your typing; ${key:-the cycle key} inserts: ${_aish_cmds[0]}"
  elif (( ${#_aish_cmds[@]} > 1 )); then
    _aish_say "[aish] ${#_aish_cmds[@]} suggestions: ${key:-the cycle key} shows the next"
  fi
  if [[ -z $typed && ${#_aish_cmds[@]} -gt 0 ]]; then
    _aish_show 0
  else
    READLINE_LINE=$keep
    READLINE_POINT=${#keep}
  fi
}

_aish_end() {          # $1 = line to keep: the command is on the line, the user's INT trap back
  # A Ctrl-C our trap saw until then takes the command off the line again (_aish_cancelled).
  # The trap goes last: a key after it is the shell's (bash's own ends this key binding and
  # clears the line; a user's trap would run and leave the command there).
  local said=$_aish_said
  _aish_prompt_top
  _aish_untrap && return 0
  READLINE_LINE=$1
  READLINE_POINT=${#1}
  _aish_guard=
  [[ -n $said ]] || _aish_prompt_top    # (the word went under the prompt's top lines)
}

_aish_show() {
  READLINE_LINE=${_aish_cmds[$1]}
  READLINE_POINT=${#READLINE_LINE}
  _aish_idx=$1
  _aish_level_line "$1" && _aish_say "$REPLY"
  _aish_guard=
  [[ $AISH_GUARD_ENTER == 1 && ${_aish_levels[$1]-} == high ]] && _aish_guard=$READLINE_LINE
  return 0
}

_aish_run() {          # one request; our INT trap stays until the caller's _aish_untrap
  _aish_trapped=
  _aish_request "$@"
}

_aish_untrap() {       # the user's own INT trap (or none) back; 1 = a Ctrl-C came first (cancelled)
  if [[ -n $_aish_trapped ]]; then
    _aish_trapped=
    if [[ -n $_aish_old_int ]]; then
      eval "$_aish_old_int"   # `trap -p` output: bash's own quoting of the user's trap
    else
      trap - INT
    fi
  fi
  [[ -z $_aish_intr ]] && return 0
  _aish_cancelled
  return 1
}

_aish_buffer_key() {   # $1: buffer or explain
  local keep=$READLINE_LINE
  _aish_echo_line
  _aish_run ask "$1" '' "$READLINE_LINE"
  [[ $1 == explain ]] && _aish_cmds=()
  _aish_finish "$keep"
  _aish_end "$keep"
}
_aish_ask_key() {      # on an empty line right after a failure: fix the failed command
  if [[ -z $READLINE_LINE && $_aish_status != 0 ]]; then _aish_buffer_key fix
  else _aish_buffer_key buffer; fi
}
_aish_fix_key() { _aish_buffer_key fix; }
_aish_explain_key() { _aish_buffer_key explain; }

_aish_cycle_key() {
  if (( ! ${#_aish_cmds[@]} )); then
    return 0
  fi
  local next=$(( (_aish_idx + 1) % ${#_aish_cmds[@]} ))
  [[ $_aish_agent == key ]] && _aish_agent='wait'   # an agent's proposal comes onto the line
  READLINE_LINE=${_aish_cmds[$next]}
  READLINE_POINT=${#READLINE_LINE}
  _aish_idx=$next
  _aish_guard=
  [[ $AISH_GUARD_ENTER == 1 && ${_aish_levels[$next]-} == high ]] && _aish_guard=$READLINE_LINE
  # Only the warning, where the prompt's last line was (bash redraws that line below it):
  # a copy of the prompt with the previous suggestion would read like a command that ran.
  if _aish_level_line "$next"; then
    _aish_nl=1
    _aish_say "$REPLY"
    _aish_prompt_top
  fi
}

# ----------------------------------------------------------------- command output, fix (docs/output.md)
_aish_prepare() {      # a `kind=prepare` request, only if the daemon already runs
  local d
  _aish_dir
  d=$REPLY
  _aish_alive "$d" || return 0
  # The request goes through _aish_send_request with its state shadowed, so an answer in
  # progress or an interrupted one is not touched; it restores the umask it set, read
  # here from /proc (a fork-free read; without /proc no draft is asked for).
  local _aish_fifo='' _aish_d=$d _aish_id='' _aish_pending='' _aish_pid0='' _aish_last='' _aish_umask='' key val
  [[ -r /proc/$$/status ]] || return 0
  while builtin read -r key val; do
    [[ $key == Umask: ]] && { _aish_umask=$val; break; }
  done < "/proc/$$/status"
  [[ -n $_aish_umask ]] || return 0
  _aish_send_request prepare fix '' '' >/dev/null 2>&1 &&
    { _aish_fix_marker "$d"; _aish_fix_ready=$REPLY; }
  return 0
}

# bash cannot react while readline waits for a key without forking, so the hint comes at the
# next prompt when no command ran in between: the daemon's 0600 marker says the draft is done.
_aish_fix_hint() {     # once per draft; a [[ -e ]] test only (fork-free)
  [[ -e $_aish_fix_ready ]] || return 0
  _aish_fix_ready=
  local k=${AISH_KEY_FIX//\\C-/^}
  if [[ -z $k ]]; then k='? :fix'
  elif (( BASH_VERSINFO[0] >= 4 )); then local -u u=$k; k=$u; fi
  _aish_say "[aish] a fix is ready: press $k"
}

# bash 3.2 (no READLINE_LINE): `?` is an alias whose text comments out the question, so its
# quotes never reach the parser; the question is read back from history.
_aish_legacy() {
  local line
  line=$(HISTTIMEFORMAT='' builtin history 1)
  line=${line#*\?}
  line=${line# }
  if [[ -z ${_aish_legacy_said-} ]]; then
    _aish_legacy_said=1
    _aish_say "[aish] bash 4+ is needed to put suggestions on the prompt line; they go to history (Up)"
  fi
  if [[ $line == :* ]]; then
    _aish_words "${line#:}"
    _aish_run verb - '' '' "${_aish_f[@]}"
  else
    _aish_run ask question "$line" ''
  fi
  _aish_untrap
  local c
  for c in "${_aish_cmds[@]}"; do history -s -- "$c"; done
}

# ----------------------------------------------------------------- aish doctor
# `aish doctor` checks the live shell, not only the rc file: just before a command line
# that names it runs (preexec), how the hooks and keys stand now go to
# <runtime>/bash-<pid>.hooks (builtins only: no fork; 0600 under the umask read from /proc),
# which doctor reads (cli/live_shell.py).
_aish_live_state() {
  _aish_dir
  local d=$REPLY km key val umask=''
  [[ -d $d && -O $d && ! -L $d && -r /proc/$$/status ]] || return 0
  while builtin read -r key val; do
    [[ $key == Umask: ]] && { umask=$val; break; }
  done < "/proc/$$/status"
  [[ -n $umask ]] || return 0
  umask 077
  {
    printf 'shell=bash %s\n' "$BASH_VERSION"
    printf 'via=%s\n' "${_aish_bp:-prompt_command}"
    # shellcheck disable=SC2128
    printf 'prompt_command=%s\n' "${PROMPT_COMMAND//$'\n'/; }"
    printf 'precmd=%s\n' "${precmd_functions[*]-}"
    printf 'keys ask=%s explain=%s cycle=%s fix=%s\n' "$AISH_KEY_ASK" "$AISH_KEY_EXPLAIN" \
      "$AISH_KEY_CYCLE" "$AISH_KEY_FIX"
    bind -v
    if [[ $_aish_bp != ble ]]; then
      for km in emacs vi-insert vi-command; do
        printf 'keymap %s\n' "$km"
        bind -m "$km" -X
        bind -m "$km" -s
      done
    fi
  } >| "$d/bash-$$.hooks" 2>/dev/null
  umask "$umask"
  return 0
}

_aish_lazy_done=1         # all defined: the stubs are gone
