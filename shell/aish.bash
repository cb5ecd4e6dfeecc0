# aish: AI in your bash.  Load with:  source /path/to/aish.bash   (fast)
#                                 or:  eval "$(aish init bash)"    (starts Python once per shell)
# `? question` + Enter asks; Ctrl-X Ctrl-A asks about the line; Ctrl-X Ctrl-W explains it;
# Ctrl-X Ctrl-Y cycles suggestions.  Settings: see docs/shell.md.  Speaks docs/protocol.md
# natively: nothing forks on the keypress path once the daemon runs and the reply FIFO exists.

# No `return` at top level: under `eval "$(aish init bash)"` it would end the user's .bashrc.
# Sourcing twice re-defines the functions and binds nothing twice (_aish_bash_loaded).

AISH_COMMAND=${AISH_COMMAND:-aish}
AISH_HISTORY_SIZE=${AISH_HISTORY_SIZE:-20}
AISH_KEY_ASK=${AISH_KEY_ASK-'\C-x\C-a'}
AISH_KEY_EXPLAIN=${AISH_KEY_EXPLAIN-'\C-x\C-w'}
AISH_KEY_CYCLE=${AISH_KEY_CYCLE-'\C-x\C-y'}
AISH_TIMEOUT=${AISH_TIMEOUT:-300}

# Fixed descriptors: a Ctrl-C skips cleanup in `bind -x`, so each request first closes
# whatever a previous, interrupted one left open.
_aish_hist=(${_aish_hist[@]+"${_aish_hist[@]}"}) _aish_cmds=() _aish_levels=() _aish_reasons=()
_aish_cmd= _aish_t0= _aish_status=0 _aish_seq=0 _aish_conv= _aish_idx=0 _aish_pending=
_aish_checked= _aish_accept=1 _aish_bp=${_aish_bp-}

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
  _aish_t0=$_aish_ms
}

_aish_precmd() {       # $1 = pc when run from PROMPT_COMMAND (a no-op once bash-preexec runs us)
  local st=$?
  if [[ -n $_aish_t0 && ( ${1-} != pc || -z $_aish_bp ) ]]; then
    _aish_now
    _aish_status=$st
    _aish_hist+=("$st"$'\t'"$(( _aish_ms - _aish_t0 ))"$'\t'"$_aish_cmd")
    local n=$(( ${#_aish_hist[@]} - AISH_HISTORY_SIZE ))
    (( n > 0 )) && _aish_hist=("${_aish_hist[@]:n}")
    _aish_t0=
  fi
  return $st
}

# ----------------------------------------------------------------- protocol helpers
_aish_esc() {
  REPLY=${1//%/%25}
  REPLY=${REPLY//$'\n'/%0A}
  REPLY=${REPLY//$'\t'/%09}
  REPLY=${REPLY//$'\r'/%0D}
}

_aish_unesc() {
  REPLY=${1//%0A/$'\n'}
  REPLY=${REPLY//%09/$'\t'}
  REPLY=${REPLY//%0D/$'\r'}
  REPLY=${REPLY//%25/%}
}

_aish_dir() {
  local d=${AISH_RUNTIME_DIR:-${XDG_RUNTIME_DIR:+${XDG_RUNTIME_DIR%/}/aish}}
  [[ -n $d ]] || { d=${TMPDIR:-/tmp}; d=${d%/}/aish-$UID; }
  REPLY=$d
}

_aish_alive() {        # $1 = dir: the pid file names a live process (not a zombie); pid in REPLY
  local pid= st=
  [[ -p $1/daemon.fifo && -r $1/daemon.pid ]] || return 1
  read -r pid < "$1/daemon.pid" 2>/dev/null
  [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null || return 1
  REPLY=$pid
  # A killed daemon whose parent does not reap it still answers kill -0 (Linux: read its state).
  [[ -r /proc/$pid/stat ]] && read -r st < "/proc/$pid/stat" 2>/dev/null && [[ ${st##*) } == Z* ]] && return 1
  return 0
}

_aish_send() {         # $1 dir, $2 control line (read-write open never blocks on a FIFO)
  # Never `<>` a missing path: that would create a regular file named daemon.fifo.
  [[ -p $1/daemon.fifo ]] || return 1
  exec 58<>"$1/daemon.fifo" || return 1
  printf '%s\n' "$2" >&58
  exec 58<&-
}

_aish_ensure() {       # daemon running, runtime dir private, reply FIFO present; dir in REPLY
  _aish_dir
  local d=$REPLY err mode
  if ! _aish_alive "$d"; then
    if ! err=$(command "$AISH_COMMAND" daemon start 2>&1 >/dev/null); then
      err=${err%%$'\n'*}
      err=${err#aish: }
      _aish_say "aish: ${err:-cannot start the daemon} (check: ${AISH_COMMAND##*/} doctor)"
      return 1
    fi
  fi
  if [[ -z $_aish_checked ]]; then   # once per shell, on the cold path
    mode=$(command stat -c %a "$d" 2>/dev/null || command stat -f %Lp "$d" 2>/dev/null)
    if [[ -L $d || ! -d $d || ! -O $d || ${mode: -2} != 00 ]]; then
      _aish_say "aish: runtime dir $d is not private (must be yours, mode 700, not a symlink): fix it or set AISH_RUNTIME_DIR"
      return 1
    fi
    _aish_checked=1
  fi
  if [[ ! -p $d/bash-$$.fifo ]]; then
    command mkfifo -m 600 "$d/bash-$$.fifo" 2>/dev/null || {
      _aish_say "aish: cannot create $d/bash-$$.fifo: check the runtime dir"; return 1; }
  fi
  REPLY=$d
}

_aish_fields() {       # split a frame on tabs into _aish_f (no here-string: no temp file)
  local rest=$1
  _aish_f=()
  while [[ $rest == *$'\t'* ]]; do
    _aish_f+=("${rest%%$'\t'*}")
    rest=${rest#*$'\t'}
  done
  _aish_f+=("$rest")
}

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

_aish_say() {          # a line above the prompt, starting on a fresh line
  printf '%s\n' "$1"
}

_aish_level_line() {
  local lvl=${_aish_levels[$1]} why=${_aish_reasons[$1]} color
  [[ -z $lvl || $lvl == - ]] && return 1
  case $lvl in
    high) color=$'\e[1;31m' ;;
    medium) color=$'\e[33m' ;;
    *) color=$'\e[36m' ;;
  esac
  [[ $why == - ]] && why=
  REPLY="${color}[aish] ${lvl} risk${why:+: $why}"$'\e[0m'
}

# ----------------------------------------------------------------- one request
# _aish_request KIND MODE TEXT BUFFER [ARGV...]: stream the answer to the terminal and
# leave the suggestions in _aish_cmds.
_aish_request() {
  local kind=$1 mode=$2 text=$3 buf=$4 d fifo line tag key ans nl=1 done= part= gone= st last pid0=
  shift 4
  _aish_cleanup
  _aish_cmds=() _aish_levels=() _aish_reasons=() _aish_idx=0 _aish_intr=
  _aish_ensure || return 1
  d=$REPLY fifo=$REPLY/bash-$$.fifo
  [[ -n $_aish_conv ]] || _aish_conv=bash-$$-$SECONDS-$RANDOM
  local id=bash-$$-$(( ++_aish_seq ))-$RANDOM
  local -a req out frame
  req=(v=1 "kind=$kind" "reply=$fifo" "conv=$_aish_conv" shell=bash "cwd=$PWD"
       "status=$_aish_status" interactive=1 "cols=${COLUMNS:-80}")
  if [[ $kind == ask ]]; then
    req+=("mode=$mode" "text=$text" "buffer=$buf" "cursor=$(( ${#buf} ? ${READLINE_POINT:-0} : 0 ))")
    for line in "${_aish_hist[@]}"; do req+=("hist=$line"); done
  else
    for line; do req+=("argv=$line"); done
  fi
  for line in "${req[@]}"; do _aish_esc "$line"; out+=("$REPLY"); done
  exec 57<>"$fifo" || return 1
  _aish_pending="$d $id"
  printf '%s\n' "${out[@]}" >| "$d/$id.req" || return 1
  _aish_send "$d" "req $id" || { _aish_say "aish: the daemon stopped; run: $AISH_COMMAND daemon start"; return 1; }
  last=$SECONDS
  # Our Ctrl-C trap, the user's saved first, through a file in our private dir (a
  # command substitution would fork). The daemon's pid: another one later means ours
  # was restarted.
  _aish_old_int=
  if trap -p INT >| "$d/bash-$$.trap"; then
    IFS= read -r -d '' _aish_old_int < "$d/bash-$$.trap"
  fi
  _aish_trapped=1
  trap _aish_int INT
  read -r pid0 2>/dev/null < "$d/daemon.pid"
  # Short reads, so a daemon that died mid-answer is noticed (it never sends `D`, and our
  # read-write open never sees EOF); AISH_TIMEOUT bounds a live but silent one.
  while :; do
    if IFS= read -r -t 0.5 -u 57 line; then
      line=$part$line part= last=$SECONDS
    else
      st=$?
      (( st > 128 )) && [[ -z $_aish_intr ]] || break   # a Ctrl-C, or the FIFO closed
      part+=$line                                       # a timed-out read keeps what it got
      if ! _aish_alive "$d" || [[ $REPLY != "$pid0" ]]; then gone=1; break; fi
      (( SECONDS - last < AISH_TIMEOUT )) && continue
      break
    fi
    _aish_fields "$line"; frame=("${_aish_f[@]}")
    [[ ${frame[0]} == "$id" ]] || continue
    tag=${frame[1]}
    _aish_unesc "${frame[2]-}"
    case $tag in
      T) printf '%s' "$REPLY"; [[ $REPLY == *$'\n' ]] && nl=1 || nl=0 ;;
      S|W|E)
        (( nl )) || printf '\n'; nl=1
        case $tag in
          S) _aish_say "$REPLY" ;;
          W) _aish_say $'\e[33m'"$REPLY"$'\e[0m' ;;
          E) _aish_say $'\e[31m'"aish: $REPLY"$'\e[0m' ;;
        esac ;;
      C) _aish_cmds+=("$REPLY")
         _aish_unesc "${frame[3]-}"; _aish_levels+=("$REPLY")
         _aish_unesc "${frame[4]-}"; _aish_reasons+=("$REPLY") ;;
      Q) (( nl )) || printf '\n'
         _aish_unesc "${frame[3]-}"
         printf '[aish] %s ' "$REPLY"
         key=; IFS= read -r -s -n 1 key
         case $key in [yY]) ans=y ;; [aA]) ans=a ;; *) ans=n ;; esac
         printf '%s\n' "$ans"; nl=1 last=$SECONDS
         _aish_send "$d" "answer $id ${frame[2]} $ans" ;;
      D) done=1; break ;;
    esac
  done
  (( nl )) || printf '\n'
  if [[ -n $gone ]]; then
    _aish_say "[aish] the daemon stopped while answering (see: $AISH_COMMAND daemon status)"
  elif [[ -z $done && -z $_aish_intr ]]; then
    _aish_say "[aish] no answer from the daemon (see: $AISH_COMMAND daemon status)"
  fi
  _aish_cleanup
}

_aish_cleanup() {      # close the reply FIFO; cancel a request a Ctrl-C interrupted
  if [[ -n $_aish_pending ]]; then
    local d=${_aish_pending% *} id=${_aish_pending##* }
    _aish_pending=
    [[ -n ${done-} ]] || _aish_send "$d" "cancel $id"
    [[ -e $d/$id.req ]] && rm -f -- "$d/$id.req"
  fi
  { exec 57<&-; } 2>/dev/null
}

_aish_int() {          # SIGINT during a request: cancel it now, not at the next call
  _aish_intr=1
  _aish_cleanup
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
  read -t 0 <&0
}

_aish_finish() {       # $1 = line to keep when nothing is inserted
  local keep=$1 typed= key=${AISH_KEY_CYCLE//\\C-/^}
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
  _aish_level_line "$1" && printf '%s\n' "$REPLY"
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

# ----------------------------------------------------------------- bindings
_aish_hooks() {        # use bash-preexec's hook arrays once it is loaded (fork-free)
  [[ -z $_aish_bp && -n ${bash_preexec_imported-}${__bp_imported-} ]] || return 0
  _aish_bp=1
  precmd_functions=(_aish_precmd "${precmd_functions[@]}")
  preexec_functions+=(_aish_preexec)
}

_aish_enter() {
  if [[ $READLINE_LINE != '?' && $READLINE_LINE != '? '* ]]; then
    if [[ -z ${_aish_accept} ]]; then _aish_bind_accept accept-line; fi
    [[ -n $_aish_bp ]] || _aish_hooks
    [[ -n $_aish_bp || -z ${READLINE_LINE//[[:space:]]/} ]] || _aish_preexec "$READLINE_LINE"
    return 0
  fi
  local text=${READLINE_LINE#\?}
  text=${text# }
  history -s -- "$READLINE_LINE"
  _aish_bind_accept _aish_noop
  _aish_echo_line
  if [[ -z $text ]]; then
    READLINE_POINT=0
    _aish_run ask buffer '' ''
  elif [[ $text == :* ]]; then
    _aish_words "${text#:}"
    _aish_run verb - '' '' "${_aish_f[@]}"
  else
    _aish_run ask question "$text" ''
  fi
  _aish_finish ''
}

_aish_noop() { :; }

_aish_bind_accept() {  # what the second half of the Enter macro does: accept or nothing
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

_aish_buffer_key() {   # $1: buffer or explain
  local keep=$READLINE_LINE
  _aish_echo_line
  _aish_run ask "$1" '' "$READLINE_LINE"
  [[ $1 == explain ]] && _aish_cmds=()
  _aish_finish "$keep"
}
_aish_ask_key() { _aish_buffer_key buffer; }
_aish_explain_key() { _aish_buffer_key explain; }

_aish_cycle_key() {
  if (( ! ${#_aish_cmds[@]} )); then
    return 0
  fi
  local next=$(( (_aish_idx + 1) % ${#_aish_cmds[@]} ))
  if _aish_level_line "$next"; then
    _aish_echo_line
    _aish_show "$next"
    _aish_prompt_top
  else
    READLINE_LINE=${_aish_cmds[$next]}
    READLINE_POINT=${#READLINE_LINE}
    _aish_idx=$next
  fi
}

# bash 3.2 (no READLINE_LINE): `?` is an alias whose text comments out the question, so its
# quotes never reach the parser; the question is read back from history.
_aish_legacy() {
  local line
  line=$(HISTTIMEFORMAT= builtin history 1)
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

if [[ $- == *i* && -z ${_aish_bash_loaded-} ]]; then
  _aish_bash_loaded=1
  if (( BASH_VERSINFO[0] < 4 )) || [[ -n ${AISH_BASH_LEGACY-} ]]; then
    alias '?'='_aish_legacy #'
  else
    for _aish_km in emacs vi-insert vi-command; do
      (( BASH_VERSINFO[0] > 5 || (BASH_VERSINFO[0] == 5 && BASH_VERSINFO[1] >= 1) )) &&
        bind -m "$_aish_km" -r '\C-x\C-]\C-a'
      bind -m "$_aish_km" -x '"\C-x\C-]\C-a": _aish_enter'
      bind -m "$_aish_km" '"\C-x\C-]\C-b": accept-line' \
        '"\C-m": "\C-x\C-]\C-a\C-x\C-]\C-b"' '"\C-j": "\C-x\C-]\C-a\C-x\C-]\C-b"'
      [[ -n $AISH_KEY_ASK ]] && bind -m "$_aish_km" -x "\"$AISH_KEY_ASK\": _aish_ask_key"
      [[ -n $AISH_KEY_EXPLAIN ]] && bind -m "$_aish_km" -x "\"$AISH_KEY_EXPLAIN\": _aish_explain_key"
      [[ -n $AISH_KEY_CYCLE ]] && bind -m "$_aish_km" -x "\"$AISH_KEY_CYCLE\": _aish_cycle_key"
    done
    unset _aish_km
  fi
  _aish_hooks
  # Without bash-preexec: first in PROMPT_COMMAND to read the real $?; it returns that
  # status for the rest.  bash-preexec, often loaded after us ("the last thing imported"),
  # keeps this entry but runs it after its own hook, with $? lost: _aish_hooks then moves
  # us into its arrays at the next Enter, and this entry does nothing.
  [[ -n $_aish_bp ]] || PROMPT_COMMAND="_aish_precmd pc${PROMPT_COMMAND:+;$PROMPT_COMMAND}"
fi
