# aish: the bash functions loaded on demand (see aish.bash, which sources this file the
# first time a question or an aish key needs it): what the keys and hooks do with a request
# (keys, norris steps, agents' proposals, the fix draft, doctor's view); the request itself
# is aish.request.bash, sourced below.  Function definitions only, but for the lines that
# check and mark the load: it is sourced from inside a function, where a `declare` would
# make locals.
_aish_lazy_rev=0.1.0     # must equal _aish_rev in aish.bash (a test checks both against the package)
# From an aish.bash of another version (the package was upgraded under this shell): define
# nothing, so the two halves never mix.  (Never true in `aish init bash`'s one text.)
[[ ${_aish_rev-} == "$_aish_lazy_rev" ]] || return 1
# The code both shells share (aish.common.sh) and one request (aish.request.bash), beside
# this file, unless `aish init`'s one text already holds them.
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
_aish_lazy_missing=

# ----------------------------------------------------------------- norris (docs/norris.md)
# While a task waits in this shell (_aish_task, set by the daemon's N frame), precmd reports
# what ran: the report is an ordinary request (a file and one FIFO line: no fork), and its
# reply is the next step, read right here before the prompt is drawn.  PROMPT_COMMAND cannot
# set the next readline line, so we ask the terminal for its status (ESC [ 5 n): its answer,
# ESC [ 0 n, arrives as input once readline runs, and that key sequence is bound to put the
# step on the line (and, under autorun, to press Enter).
_aish_report() {       # $1 status, $2 ms, $3 command
  _aish_run verb - '' '' norris --ran "$1" "$2" "$3"
  if (( ! _aish_done )); then           # Ctrl-C while it planned: the task stops
    _aish_task=
    return 0
  fi
  (( ${#_aish_cmds[@]} )) || return 0
  _aish_level_line 0 && _aish_say "$REPLY"
  _aish_step=${_aish_cmds[0]} _aish_idx=0
  printf '\e[5n'
}

_aish_step_key() {     # the terminal's status answer: a planned step goes on the line
  if [[ -z $_aish_step ]]; then        # none: the daemon asked (an agent's proposal)
    _aish_status_key
    return 0
  fi
  if [[ -n $READLINE_LINE ]]; then
    # Keys typed while the step was planned came first: they are the user's line, never
    # replaced by the step (nor run): the step waits on the cycle key, as a `?` answer's does.
    local key=${AISH_KEY_CYCLE//\\C-/^}
    _aish_step= _aish_idx=-1
    _aish_bind_accept _aish_noop
    _aish_nl=1
    _aish_say "[aish] kept your typing; ${key^^} inserts the next step: ${_aish_cmds[0]}"
    _aish_prompt_top
    return 0
  fi
  READLINE_LINE=$_aish_step
  READLINE_POINT=${#READLINE_LINE}
  _aish_step=
  _aish_guard=                          # a high-risk step needs a second Enter too
  [[ $AISH_GUARD_ENTER == 1 && ${_aish_levels[0]-} == high ]] && _aish_guard=$READLINE_LINE
  _aish_autorun
}

_aish_autorun() {      # autorun ("run"): the line is accepted as if the user pressed Enter
  if [[ $_aish_task == run && -n $READLINE_LINE ]]; then
    _aish_bind_accept accept-line
    [[ -n $_aish_bp ]] || _aish_preexec "$READLINE_LINE"
  else
    _aish_bind_accept _aish_noop
  fi
}

# ----------------------------------------------------------------- agents (docs/agents.md)
# While an agent is connected (aish mcp-server), this shell says where it stands at each
# prompt and when a command starts: <runtime dir>/bash-<pid>.state, a file write (no fork).
# An agent's proposal reaches the prompt line as a norris step does: the daemon writes the
# status request (ESC [ 5 n) to this shell's tty, and the terminal's answer runs
# _aish_step_key, which takes the proposal as an ordinary request.  What ran next (or that
# nothing did) is reported from the prompt hook, as a norris step's is.
_aish_agent_state() {  # [$1 = the command starting now]
  local f=$_aish_rt/bash-$$.state line
  local -a req out
  [[ -d $_aish_rt && -O $_aish_rt && ! -L $_aish_rt ]] || return 0
  req=(v=1 shell=bash "conv=$_aish_conv" "pid=$$" "cwd=$PWD" "status=$_aish_status")
  [[ -n ${AISH_NAME-} ]] && req+=("name=$AISH_NAME")
  for line in "${_aish_hist[@]}"; do req+=("hist=$line"); done
  [[ -n ${1-} ]] && req+=("running=$1" ${EPOCHREALTIME:+"since=$EPOCHREALTIME"})
  _aish_term_fields
  req+=(end=1)
  for line in "${req[@]}"; do _aish_esc "$line"; out+=("$REPLY"); done
  if [[ -f $f && -O $f ]]; then
    { printf '%s\n' "${out[@]}" >| "$f"; } 2>/dev/null
  else                                  # new: 0600, the user's umask back at once
    local _aish_umask=''
    _aish_umask_now && _aish_write_new "$f" "${out[@]}"
  fi
  # the first time: the daemon reads this tmux pane from now on (it may have started after
  # the shell's first prompt, with the agent), so what commands print is known exactly
  [[ -n $_aish_agent_seen ]] || { _aish_agent_seen=1; _aish_watch; }
  return 0
}

_aish_umask_now() {    # the umask into _aish_umask (fork-free: /proc, else a file); 1 = unknown
  local key val
  if [[ -r /proc/$$/status ]]; then
    while builtin read -r key val; do
      [[ $key == Umask: ]] && { _aish_umask=$val; return 0; }
    done < "/proc/$$/status"
  fi
  umask >| "$_aish_rt/bash-$$.umask" 2>/dev/null && builtin read -r _aish_umask < "$_aish_rt/bash-$$.umask"
  [[ -n $_aish_umask ]]
}

_aish_agent_report() { # [$1 status, $2 ms, $3 command]: what became of the proposal; none: not run
  # "key": it waited on the cycle key and never came onto the line: the user's own line ran
  local how=--ran
  [[ $_aish_agent == key ]] && how=--own
  if (( $# )); then _aish_run verb - '' '' agents "$how" "$1" "$2" "$3"
  else _aish_run verb - '' '' agents --dismissed; fi
  (( _aish_done )) || _aish_agent=       # Ctrl-C: the daemon hears no more of it
  return 0
}

_aish_status_key() {   # ESC [ 0 n with no norris step: an agent's proposal, if one waits
  local keep=$READLINE_LINE at=$READLINE_POINT key=${AISH_KEY_CYCLE//\\C-/^}
  _aish_bind_accept _aish_noop          # the key's second half never runs the line
  _aish_agent_gone=''
  _aish_run verb - '' '' agents --take ${keep:+--typing}
  if [[ -n $_aish_agent_gone ]]; then   # the agent took a proposal back: off the line if there
    [[ $keep == "$_aish_agent_gone" ]] && keep='' at=0
    _aish_agent_gone=''
  fi
  if [[ -n $keep && ${#_aish_cmds[@]} -gt 0 ]]; then
    # The user's line stays theirs (keys typed before the proposal came, as with a norris
    # step): the proposal waits on the cycle key.
    _aish_idx=-1 _aish_agent=key          # (the cycle key makes it "wait")
    _aish_level_line 0 && _aish_say "$REPLY"
    _aish_say "[aish] kept your typing; ${key^^} inserts the proposal: ${_aish_cmds[0]}"
    READLINE_LINE=$keep READLINE_POINT=$at
    _aish_prompt_top
    return 0
  fi
  _aish_finish "$keep"
  (( ${#_aish_cmds[@]} )) || READLINE_POINT=$at
  return 0
}

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
_aish_prompt_top() {   # print the prompt lines above its last one (bash redraws only that)
  ((BASH_VERSINFO[0] > 4 || BASH_VERSINFO[1] >= 4)) || return 0
  local p=${PS1@P}
  [[ $p == *$'\n'* ]] && printf '%s\n' "${p%$'\n'*}"
}

_aish_echo_line() {    # bash erased the prompt's last line: show it again with the question
  local p=
  ((BASH_VERSINFO[0] > 4 || BASH_VERSINFO[1] >= 4)) && { p=${PS1@P}; p=${p##*$'\n'}; }
  printf '%s%s\n' "$p" "$READLINE_LINE"
}

_aish_typed() {        # keys typed while the answer streamed wait in the tty
  builtin read -t 0 <&0
}

_aish_finish() {       # $1 = line to keep when nothing is inserted
  local keep=$1 typed='' key=${AISH_KEY_CYCLE//\\C-/^}
  key=${key^^}
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
  _aish_prompt_top
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

_aish_run() {          # one request; then the user's own INT trap (or none) is back
  _aish_trapped=
  _aish_request "$@"
  [[ -n $_aish_trapped ]] || return 0
  _aish_trapped=
  if [[ -n $_aish_old_int ]]; then
    eval "$_aish_old_int"   # `trap -p` output: bash's own quoting of the user's trap
  else
    trap - INT
  fi
}

_aish_buffer_key() {   # $1: buffer or explain
  local keep=$READLINE_LINE
  _aish_echo_line
  _aish_run ask "$1" '' "$READLINE_LINE"
  [[ $1 == explain ]] && _aish_cmds=()
  _aish_finish "$keep"
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
