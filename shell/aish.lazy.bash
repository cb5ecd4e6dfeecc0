# aish: the bash functions loaded on demand (see aish.bash, which sources this file the
# first time a question or an aish key needs it).  Function definitions only, but for the
# three lines that check and mark the load: it is sourced from inside a function, where a
# `declare` would make locals.
_aish_lazy_rev=0.1.0     # must equal _aish_rev in aish.bash (a test checks both against the package)
# From an aish.bash of another version (the package was upgraded under this shell): define
# nothing, so the two halves never mix.  (Never true in `aish init bash`'s one text.)
[[ ${_aish_rev-} == "$_aish_lazy_rev" ]] || return 1
# The code both shells share (aish.common.sh, beside this file), unless `aish init`'s one
# text already holds it.
if [[ ${_aish_common_rev-} != "$_aish_lazy_rev" ]]; then
  # shellcheck source=aish.common.sh
  source "${_aish_lazy%/*}/aish.common.sh" || return 1
fi

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
    command mkfifo -m 600 "$d/bash-$$.fifo" 2>/dev/null || {
      _aish_say "aish: cannot create $d/bash-$$.fifo: check the runtime dir"; return 1; }
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

# ----------------------------------------------------------------- one request
# _aish_request sends, then reads and handles frames until `D`, writing the answer to the
# terminal as it arrives.  Our INT trap only sets _aish_intr: the short reads notice it and
# the request is cancelled here (closing the FIFO under a running `read` was an error).
_aish_request() {      # KIND MODE TEXT BUFFER [ARGV...]; suggestions end in _aish_cmds
  _aish_cleanup
  _aish_cmds=() _aish_levels=() _aish_reasons=() _aish_idx=0 _aish_intr=
  _aish_nl=1 _aish_spinning=0 _aish_done=0 _aish_gone=0 _aish_id='' _aish_part=''
  _aish_ensure || return 1
  { exec 57<>"$_aish_fifo"; } 2>/dev/null ||
    { _aish_say "aish: cannot open $_aish_fifo: check the runtime dir"; return 1; }
  _aish_trap_int
  if _aish_send_request "$@"; then
    _aish_spin
    while [[ -z $_aish_intr ]] && _aish_read_frame && _aish_handle_frame; do
      [[ -n $_aish_tty ]] || _aish_hush
    done
  fi
  _aish_spin_clear
  if [[ -n $_aish_intr ]]; then
    [[ -n $_aish_id ]] && _aish_say "[aish] cancelled"
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
  _aish_varsf=$_aish_d/$_aish_id.$1.vars
  if _aish_write_new "$_aish_varsf" "$REPLY"; then
    _aish_send "$_aish_d" "answer $_aish_id $1 v"
  else
    _aish_send "$_aish_d" "answer $_aish_id $1 n"
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
  _aish_varsf=$_aish_d/$_aish_id.$1.vars
  if _aish_write_new "$_aish_varsf" "${_aish_vout[@]}"; then
    _aish_send "$_aish_d" "answer $_aish_id $1 v"
  else
    _aish_send "$_aish_d" "answer $_aish_id $1 n"
  fi
}

# A norris report is read in PROMPT_COMMAND, where the terminal is in the mode commands run
# in: keys typed while the next step is planned would be echoed into the output.  Once the
# answer has begun (or the planner thinks a while), echo goes off until the request ends
# (forks, after the first byte).  A `bind -x` key runs under readline's own settings; under
# ble.sh's, Ctrl-C is a key (intr undef), so it is made a signal again meanwhile.
_aish_hush() {
  _aish_tty=-                           # tried once per request
  if [[ $_aish_bp == ble && -n ${READLINE_LINE+set} ]]; then
    command stty intr '^C' 2>/dev/null && _aish_tty=ble
    return 0
  fi
  [[ -z ${READLINE_LINE+set} && -t 0 ]] || return 0
  local saved
  saved=$(command stty -g 2>/dev/null) || return 0
  command stty -echo 2>/dev/null && _aish_tty=$saved
  return 0
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
  if [[ $_aish_tty == ble ]]; then command stty intr undef 2>/dev/null
  elif [[ -n $_aish_tty && $_aish_tty != - ]]; then command stty "$_aish_tty" 2>/dev/null; fi
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
