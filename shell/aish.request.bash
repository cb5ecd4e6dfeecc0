# aish: one request of bash, from the runtime dir to its last frame: the daemon's liveness,
# the request file and its `req` line, the frames read until `D`, the variables and the
# approval answer the daemon asks for, Ctrl-C while it runs.  aish.lazy.bash (what keys and
# hooks do with a request) sources this file from beside itself; `aish init bash` prints it
# before that half, for `eval`.  Function definitions only, but for the revision mark (it
# is sourced from inside a function, where a `declare` would make locals).
# shellcheck shell=bash
_aish_request_rev=0.1.0  # must equal the halves' revision (a test checks all against the package)

# ----------------------------------------------------------------- protocol helpers

_aish_dir() {
  local d=${AISH_RUNTIME_DIR:-${XDG_RUNTIME_DIR:+${XDG_RUNTIME_DIR%/}/aish}}
  [[ -n $d ]] || { d=${TMPDIR:-/tmp}; d=${d%/}/aish-$UID; }
  REPLY=$d
}

_aish_alive() {        # $1 = dir: the pid file names a live process (not a zombie); pid in REPLY
  local pid='' st=''
  [[ -p $1/daemon.fifo && -r $1/daemon.pid ]] || return 1
  builtin read -r pid < "$1/daemon.pid" 2>/dev/null
  [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null || return 1
  REPLY=$pid
  # A killed daemon whose parent does not reap it still answers kill -0 (Linux: read its state).
  [[ -r /proc/$pid/stat ]] && builtin read -r st < "/proc/$pid/stat" 2>/dev/null && [[ ${st##*) } == Z* ]] && return 1
  return 0
}

_aish_send() {         # $1 dir, $2 control line (read-write open never blocks on a FIFO)
  # Never `<>` a missing path: that would create a regular file named daemon.fifo.
  [[ -p $1/daemon.fifo ]] || return 1
  # (the open in a group: a redirection of a bare `exec` would apply to the shell itself)
  { exec 58<>"$1/daemon.fifo"; } 2>/dev/null || return 1
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
    # A Ctrl-C while mkfifo runs is ours: our trap first, and mkfifo in the shell's process
    # group.  As a job of its own it had the terminal's group to itself: the key killed it
    # alone (the question went without a word), or, as it exited, reached no one (the
    # answer streamed to its end).
    _aish_d=$d
    _aish_trap_int
    _aish_grouped mkfifo -m 600 "$d/bash-$$.fifo" || {
      [[ -n $_aish_intr ]] || _aish_say "aish: cannot create $d/bash-$$.fifo: check the runtime dir"
      return 1; }
  fi
  _aish_d=$d _aish_fifo=$d/bash-$$.fifo
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

# ----------------------------------------------------------------- one request
# _aish_request sends, then reads and handles frames until `D`, writing the answer to the
# terminal as it arrives.  Our INT trap only sets _aish_intr: the short reads notice it and
# the request is cancelled here (closing the FIFO under a running `read` was an error).
_aish_request() {      # KIND MODE TEXT BUFFER [ARGV...]; suggestions end in _aish_cmds
  _aish_cleanup
  _aish_cmds=() _aish_levels=() _aish_reasons=() _aish_idx=0 _aish_intr='' _aish_said=''
  _aish_nl=1 _aish_spinning=0 _aish_done=0 _aish_gone=0 _aish_id='' _aish_part=''
  if ! _aish_ensure; then
    [[ -z $_aish_intr ]] || _aish_cancelled
    return 1
  fi
  { exec 57<>"$_aish_fifo"; } 2>/dev/null ||
    { _aish_say "aish: cannot open $_aish_fifo: check the runtime dir"; return 1; }
  [[ -n $_aish_trapped ]] || _aish_trap_int       # (the first ask set it before its mkfifo)
  if [[ -z $_aish_intr ]] && _aish_send_request "$@"; then
    _aish_spin
    while [[ -z $_aish_intr ]] && _aish_read_frame && _aish_handle_frame; do
      [[ -n $_aish_tty ]] || _aish_hush
    done
  fi
  _aish_spin_clear
  if [[ -n $_aish_intr ]]; then
    _aish_cancelled                     # (also after its last frame: see _aish_cancelled)
  elif (( _aish_gone )); then
    _aish_say "[aish] the daemon stopped while answering (see: $AISH_COMMAND daemon status)"
  elif (( ! _aish_done )) && [[ -n $_aish_id ]]; then
    _aish_say "[aish] no answer from the daemon (see: $AISH_COMMAND daemon status)"
  fi
  # an answer need not end its last line: the prompt goes on a fresh row, under it
  (( _aish_nl )) || { printf '\n'; _aish_nl=1; }
  _aish_cleanup
}

_aish_send_request() { # KIND MODE TEXT BUFFER [ARGV...]: <id>.req (new, 0600), then `req <id>`
  local kind=$1 mode=$2 text=$3 buf=$4 line
  shift $(( $# < 4 ? $# : 4 ))
  local -a req out
  [[ -n $_aish_conv ]] || _aish_conv=bash-$$-$SECONDS-$RANDOM
  req=(v=1 "kind=$kind" "reply=$_aish_fifo" "conv=$_aish_conv" shell=bash "cwd=$PWD"
       "status=$_aish_status" interactive=1 "cols=${COLUMNS:-80}" vars=ask)
  _aish_term_fields
  if [[ $kind != verb ]]; then          # ask, prepare
    req+=("mode=$mode" "text=$text" "buffer=$buf" "cursor=$(( ${#buf} ? ${READLINE_POINT:-0} : 0 ))")
    for line in "${_aish_hist[@]}"; do req+=("hist=$line"); done
  else
    for line; do req+=("argv=$line"); done
  fi
  for line in "${req[@]}"; do _aish_esc "$line"; out+=("$REPLY"); done
  _aish_id=bash-$$-$(( ++_aish_seq ))-$RANDOM
  _aish_pending="$_aish_d $_aish_id"
  _aish_write_new "$_aish_d/$_aish_id.req" "${out[@]}" ||
    { _aish_say "aish: cannot write the request in $_aish_d"; return 1; }
  _aish_pid0=
  builtin read -r _aish_pid0 2>/dev/null < "$_aish_d/daemon.pid"
  _aish_last=$SECONDS
  _aish_send "$_aish_d" "req $_aish_id" || {
    _aish_say "aish: the daemon stopped; run: $AISH_COMMAND daemon start"; return 1; }
}

_aish_write_new() {    # FILE LINES...: a new file (noclobber: O_EXCL), 0600 (umask 077)
  # as zsh's sysopen makes it; the user's umask and noclobber setting come back at once.
  local f=$1 st noclobber=
  shift
  [[ $- == *C* ]] && noclobber=1
  umask 077
  set -C
  { printf '%s\n' "$@" > "$f"; } 2>/dev/null
  st=$?
  [[ -n $_aish_umask ]] && umask "$_aish_umask"
  [[ -n $noclobber ]] || set +C
  return $st
}

# The daemon asks for our variables only for the preview of a flagged command, after the
# answer: collecting them costs milliseconds that must not come before the first byte.
_aish_text_answer() {  # $1 qid, $2 the typed line: `var=answer=...` in <id>.<qid>.vars, then `answer <id> <qid> v`
  _aish_esc "var=answer=$2"
  _aish_answer_with "$1" "$REPLY"
}

_aish_answer_with() {  # $1 qid, then the lines of <id>.<qid>.vars (new, 0600): `answer <id> <qid> v`, or n
  local qid=$1
  shift
  _aish_varsf=$_aish_d/$_aish_id.$qid.vars
  if _aish_write_new "$_aish_varsf" "$@"; then
    _aish_send "$_aish_d" "answer $_aish_id $qid v"
  else
    _aish_send "$_aish_d" "answer $_aish_id $qid n"
  fi
}

_aish_vars() {         # $1 qid, $2 secret-looking words: <id>.<qid>.vars in our private dir, then `answer <id> <qid> v`
  # Secret-looking names go without their value, long values are left out (docs/protocol.md
  # `var`); compgen writes the names into our private dir (a builtin: no fork).  The words
  # come with the V frame (ipc/wire.py holds the one list); without a list that reads
  # as one, every value is withheld.
  local _aish_vn _aish_vv _aish_words=${2-}
  [[ -n $_aish_words && $_aish_words != *[!A-Z\|]* ]] || _aish_words='*'
  local -a _aish_vout
  if compgen -v >| "$_aish_d/bash-$$.vars" 2>/dev/null; then
    while IFS= builtin read -r _aish_vn; do
      case $_aish_vn in _aish_*|BASH_*) continue ;; esac
      if [[ ${_aish_vn^^} == *@($_aish_words)* ]]; then
        _aish_esc "var=$_aish_vn"
      else
        _aish_vv=${!_aish_vn}; (( ${#_aish_vv} <= 4096 )) || continue; _aish_esc "var=$_aish_vn=$_aish_vv"
      fi
      _aish_vout+=("$REPLY")
    done < "$_aish_d/bash-$$.vars"
    : >| "$_aish_d/bash-$$.vars"
  fi
  _aish_answer_with "$1" "${_aish_vout[@]}"
}

# A norris report is read in PROMPT_COMMAND, where the terminal is in the mode commands run
# in: keys typed while the next step is planned would be echoed into the output.  Once the
# answer has begun (or the planner thinks a while), echo goes off until the request ends
# (forks, after the first byte).  A `bind -x` key runs under readline's own settings; under
# ble.sh's, Ctrl-C is a key (intr undef), so it is made a signal again meanwhile.
# What is changed is put back whatever became of the stty that changed it: a Ctrl-C may end
# it once the change is made (echo stayed off for the commands after).
_aish_hush() {
  _aish_tty=-                           # tried once per request
  if [[ $_aish_bp == ble && -n ${READLINE_LINE+set} ]]; then
    _aish_tty=ble
    _aish_stty intr '^C'
    return 0
  fi
  [[ -z ${READLINE_LINE+set} && -t 0 ]] || return 0
  local saved
  saved=$(command stty -g 2>/dev/null) || return 0
  _aish_tty=$saved
  _aish_stty -echo
  return 0
}

# A command (stty, the first ask's mkfifo) in the shell's own process group, waited for as a
# command substitution.  With job control on (an interactive shell) a command runs as a job
# with a process group of its own, given the terminal: a Ctrl-C landing meanwhile went to it
# alone, and the request was never cancelled.  With job control off (`set +m`) bash takes a
# child that exits normally after a SIGINT for one that handled the key itself and runs no
# INT trap: a Ctrl-C landing as the command exited, before bash reaped it, was lost (under
# load, often: the planner's 8 s note instead of `[aish] cancelled`).  A command
# substitution's child stays in the shell's group, never given the terminal, and bash, which
# holds the signal while it reads the output, then takes it as its own: our trap runs.
_aish_grouped() {      # COMMAND ARGS..., its errors (and output: none is wanted) hidden
  local out
  out=$(command "$@" 2>/dev/null)
}

_aish_stty() { _aish_grouped stty "$@"; }

# Putting the terminal back: a second Ctrl-C (people press it twice) must not end that stty
# before it is done: echo stayed off for every command after (readline keeps the mode it
# finds).  The key is still ours (the trap's), not the command's.
_aish_stty_back() {    # ARGS... of stty, its errors hidden
  local out
  out=$(trap '' INT; command stty "$@" 2>/dev/null)
}

# Short reads, so a daemon that died mid-answer is noticed (it never sends `D`, and our
# read-write open never sees EOF); AISH_TIMEOUT bounds a live but silent one; the spinner
# turns and a Ctrl-C is noticed on each timeout.
_aish_read_frame() {   # the next frame of our request into _aish_tag, _aish_f1.._f3; 1 = stop
  local line
  while :; do
    if IFS= builtin read -r -t "$_aish_tick" -u 57 line; then
      line=$_aish_part$line _aish_part='' _aish_last=$SECONDS
    else
      (( $? > 128 )) || return 1                    # the FIFO closed
      _aish_part+=$line                             # a timed-out read keeps what it got
      [[ -z $_aish_intr ]] || return 1
      (( _aish_spinning )) && _aish_spin
      [[ -n $_aish_tty ]] || _aish_hush
      if _aish_pid_gone "$_aish_pid0"; then _aish_gone=1; return 1; fi
      (( SECONDS - _aish_last < AISH_TIMEOUT )) || return 1
      continue
    fi
    _aish_fields "$line"
    [[ ${_aish_f[0]} == "$_aish_id" ]] || continue  # a late frame of a cancelled request
    _aish_tag=${_aish_f[1]}
    _aish_unesc "${_aish_f[2]-}"; _aish_f1=$REPLY
    _aish_unesc "${_aish_f[3]-}"; _aish_f2=$REPLY
    _aish_unesc "${_aish_f[4]-}"; _aish_f3=$REPLY
    return 0
  done
}

# A tool asks for approval: read a whole answer line from the terminal, echoed by us, so
# none of its keys reach the command line.  Keys typed before the question was shown are
# not an answer to it: they are dropped, and the user is told.  1 = Ctrl-C (cancel).
_aish_approve() {      # $1 question, $2 timeout in s: y, n or a in REPLY
  local key dropped=0 t=${2:-120} start=$SECONDS
  t=${t%.*}
  while builtin read -t 0 <&0; do IFS= builtin read -r -s -N 1 key; (( dropped++ )); done
  (( dropped )) && _aish_say "[aish] $dropped keys typed before this question were dropped"
  _aish_spin_clear
  (( _aish_nl )) || printf '\n'
  printf '%s ' "[aish] $1"
  _aish_nl=0 _aish_line=
  while :; do
    if (( SECONDS - start >= ${t:-120} )); then
      _aish_say "[aish] no answer within ${t:-120} s: denied"
      REPLY=n
      return 0
    fi
    key=
    IFS= builtin read -r -s -N 1 -t "$_aish_tick" key
    if [[ -n $_aish_intr ]]; then printf '\n'; _aish_nl=1; return 1; fi
    [[ -n $key ]] || continue
    _aish_edit "$key" && continue
    printf '\n'; _aish_nl=1
    _aish_word && return 0
    _aish_say "[aish] answer y (yes), n (no, the default), a (always) or s (show the whole call)"
    printf '%s ' "[aish] $1"; _aish_nl=0 _aish_line=
  done
}

_aish_trap_int() {     # our Ctrl-C trap; the user's trap and umask saved first
  # Through a file in our private dir: a command substitution would fork.
  # (Usually empty: rewriting a file with data each time would cost a flush on some file
  # systems.)  The umask from /proc where there is one, else through a file as well.
  local d=$_aish_d key val
  _aish_old_int='' _aish_umask=''
  if trap -p INT >| "$d/bash-$$.trap"; then
    IFS= builtin read -r -d '' _aish_old_int < "$d/bash-$$.trap"
  fi
  if [[ -r /proc/$$/status ]]; then
    while builtin read -r key val; do
      [[ $key == Umask: ]] && { _aish_umask=$val; break; }
    done < "/proc/$$/status"
  fi
  if [[ -z $_aish_umask ]] && umask >| "$d/bash-$$.umask"; then
    builtin read -r _aish_umask < "$d/bash-$$.umask"
  fi
  _aish_trapped=1
  trap _aish_int INT
}

_aish_cleanup() {      # close the reply FIFO (first: no child inherits it); cancel an unfinished request
  { exec 57<&-; } 2>/dev/null
  if [[ $_aish_tty == ble ]]; then _aish_stty_back intr undef
  elif [[ -n $_aish_tty && $_aish_tty != - ]]; then _aish_stty_back "$_aish_tty"; fi
  _aish_tty=''
  if [[ -n $_aish_pending ]]; then
    local d=${_aish_pending% *} id=${_aish_pending##* }
    _aish_pending=
    (( _aish_done )) || _aish_send "$d" "cancel $id"
    [[ -e $d/$id.req ]] && rm -f -- "$d/$id.req"
  fi
  if [[ -n $_aish_varsf ]]; then           # written after the daemon gave up waiting
    [[ -e $_aish_varsf ]] && rm -f -- "$_aish_varsf"
    _aish_varsf=
  fi
}

_aish_int() {          # SIGINT during a request: noticed by the read loop
  _aish_intr=1
}

# The user pressed Ctrl-C meaning "stop": whenever it lands before the answer's command is
# on the prompt line (while waiting, while the answer streams, after its last frame, while
# the request is cleaned up or the command is being placed), the request is cancelled and
# nothing of it goes on the line.  Our INT trap stays until the command is there
# (_aish_untrap); what arrived stays on screen.  After its last frame the request counts as
# not done: a norris task stops, as at a Ctrl-C while it is planned.
_aish_cancelled() {    # say `[aish] cancelled` (once a request); the answer's commands are dropped
  _aish_cmds=() _aish_levels=() _aish_reasons=() _aish_done=0
  [[ -n $_aish_said ]] && return 0
  _aish_said=1
  _aish_say "[aish] cancelled"
}
