# aish: one request of zsh, from the runtime dir to its last frame: the daemon's liveness,
# the request file and its `req` line, the frames read until `D`, the variables and the
# approval answer the daemon asks for.  aish.lazy.zsh (what keys and hooks do with a
# request) sources this file from beside itself; `aish init zsh` prints it before that half,
# for `eval`.  Function definitions only, but for the revision mark.
_aish_request_rev=0.1.0  # must equal the halves' revision (a test checks all against the package)

# ----------------------------------------------------------------- protocol helpers

_aish_dir() {          # the runtime dir into REPLY, checked: ours, 0700, not a symlink
  local d=${AISH_RUNTIME_DIR:-${XDG_RUNTIME_DIR:+${XDG_RUNTIME_DIR%/}/aish}}
  [[ -n $d ]] || d=${${TMPDIR:-/tmp}%/}/aish-$UID
  REPLY=$d
  [[ -e $d ]] || return 0
  zmodload -F zsh/stat b:zstat 2>/dev/null
  local -a m
  if [[ -L $d || ! -d $d || ! -O $d ]] || ! zstat -A m -L +mode -- $d || (( m[1] & 8#077 )); then
    _aish_say "aish: runtime dir $d is not private (must be yours, mode 700, not a symlink): fix it or set AISH_RUNTIME_DIR"
    return 1
  fi
}

_aish_send() {         # one control line to daemon.fifo; fails (no block) when no daemon reads it
  local fd
  sysopen -w -o nonblock,cloexec -u fd -- $1/daemon.fifo 2>/dev/null || return 1
  local -i ret=0
  [[ -n $2 ]] && { print -r -u $fd -- $2; ret=$? }
  exec {fd}>&-
  return ret
}

_aish_ensure() {       # daemon running and our reply FIFO present; dir in REPLY
  # The liveness check is the open of daemon.fifo (ENXIO: no reader) and its fd stays in
  # _aish_dfd for the request's `req` line: one open of daemon.fifo per question.
  zmodload zsh/system zsh/zselect 2>/dev/null
  _aish_dir || return 1
  # (into a local scalar first: an integer the open creates takes the base of the last
  # arithmetic constant, _aish_dir's 8#077, and prints as 8#15)
  local d=$REPLY err fd
  if sysopen -w -o nonblock,cloexec -u fd -- $d/daemon.fifo 2>/dev/null; then
    _aish_dfd=$fd
  else
    _aish_dfd=
    err=$(command $AISH_COMMAND daemon start 2>&1 >/dev/null)
    if (( $? )); then
      err=${${err%%$'\n'*}#aish: }
      _aish_say "aish: ${err:-cannot start the daemon} (check: ${AISH_COMMAND:t} doctor)"
      return 1
    fi
    _aish_dir || return 1
  fi
  if [[ ! -p $d/zsh-$$.fifo ]]; then
    _aish_mkfifo $d/zsh-$$.fifo $d/zsh-$$-fix.fifo || {
      [[ -n $_aish_dfd ]] && exec {_aish_dfd}>&-
      _aish_dfd=
      _aish_say "aish: cannot create $d/zsh-$$.fifo: check the runtime dir"; return 1; }
  fi
  _aish_d=$d _aish_fifo=$d/zsh-$$.fifo
  REPLY=$d
}

# ----------------------------------------------------------------- one request
# _aish_request sends, then reads and handles frames until `D`; the display is given up
# once (`zle -I`) and the answer written straight to the terminal, so zle draws a fresh
# prompt below it when the widget returns.  A Ctrl-C lands in the `always` block, which
# cancels the request, marks the partial answer (it stays on screen) and clears the
# interrupt, so the widget ends as it does after an answer.  Whatever INT trap the user's
# setup has is off meanwhile (`trap - INT` under emulate -L's local_traps: it is back when
# this function returns): powerlevel10k's precmd sets `trap '...; return 130' INT`, which
# returned from deep inside the reading loop, and any trap makes zsh redraw the prompt
# over the answer when it runs (the display is given up).
_aish_request() {      # KIND MODE TEXT BUFFER [ARGV...]; suggestions end in _aish_cmds
  emulate -L zsh
  trap - INT
  _aish_cmds=() _aish_levels=() _aish_reasons=() _aish_idx=0
  _aish_nl=1 _aish_spinning=0 _aish_done=0 _aish_gone=0 _aish_id= _aish_part= _aish_lines=()
  _aish_li=1 _aish_tty= _aish_said= _aish_shown= _aish_tidy=1 _aish_drawn=0
  # (the FIFO of a request whose `always` block a Ctrl-C cut short, where no caller tidied)
  if (( _aish_rfd )); then { exec {_aish_rfd}<&- } 2>/dev/null; _aish_rfd=0; fi
  zle && zle -I                         # (a norris report runs in precmd, outside zle)
  # A Ctrl-C before the request is read (the first ask's mkfifo, a daemon start) cancels it
  # as one during the answer does: left to abort the widget, zle would draw the question's
  # prompt line again above a fresh one.
  {
    _aish_ensure || return 1
  } always {
    if (( TRY_BLOCK_INTERRUPT )); then
      TRY_BLOCK_INTERRUPT=0 TRY_BLOCK_ERROR=0
      [[ -n $_aish_dfd ]] && exec {_aish_dfd}>&-   # (the liveness check's fd)
      _aish_dfd=
      printf '\r'                          # over the terminal's echo of the key (^C)
      _aish_cancelled
      return 1
    fi
  }
  # (declared after _aish_ensure, whose 8#077 would give the opens' integers base 8)
  local -i rfd=0 reading=0
  _aish_tidy=0                          # until the `always` block below has run to its end
  {
    # read-write: the open never blocks; close-on-exec: no child inherits it (all fds
    # the scripts open are sysopen'd, never `exec {fd}<>...`, whose extra redirections
    # would apply to the shell itself)
    sysopen -rw -o cloexec -u rfd -- $_aish_fifo 2>/dev/null ||
      { _aish_say "aish: cannot open $_aish_fifo: check the runtime dir"; return 1 }
    _aish_rfd=$rfd
    _aish_send_request "$@" || return 1
    reading=1
    _aish_spin
    while _aish_read_frame && _aish_handle_frame; do
      [[ -n $_aish_tty ]] || _aish_hush
    done
    reading=0
    _aish_spin_clear
    if (( _aish_gone )); then
      _aish_say "[aish] the daemon stopped while answering (see: $AISH_COMMAND daemon status)"
    elif (( ! _aish_done )); then
      _aish_say "[aish] no answer from the daemon (see: $AISH_COMMAND daemon status)"
    fi
  } always {
    _aish_spin_clear
    if (( ! _aish_done )) && [[ -n $_aish_id ]]; then
      _aish_send $_aish_d "cancel $_aish_id"
      [[ -e $_aish_d/$_aish_id.req ]] && zmodload -F zsh/files b:zf_rm 2>/dev/null &&
        zf_rm -f -- $_aish_d/$_aish_id.req
      if (( reading )); then
        _aish_cancelled
        # The Ctrl-C is handled: the widget goes on and returns as after an answer.  Left
        # to abort it, zle would draw the question's prompt line again above a fresh one.
        # An error goes too: a command the interrupt cut short may fail with one (zsh adds
        # it to the pending interrupt), and a widget ending in an error makes zle run
        # `.accept-line` on the line as it is: the `? ...` question ran as a command.
        TRY_BLOCK_INTERRUPT=0 TRY_BLOCK_ERROR=0
      fi
    elif (( TRY_BLOCK_INTERRUPT )); then
      # A Ctrl-C after the last frame, before the command is on the line: the user said stop.
      TRY_BLOCK_INTERRUPT=0 TRY_BLOCK_ERROR=0
      _aish_cancelled
    fi
    if [[ -n $_aish_varsf ]]; then        # written after the daemon gave up waiting
      [[ -e $_aish_varsf ]] && zmodload -F zsh/files b:zf_rm 2>/dev/null && zf_rm -f -- $_aish_varsf
      _aish_varsf=
    fi
    # an answer need not end its last line: the prompt goes on a fresh row, under it
    (( _aish_nl )) || { printf '\n'; _aish_nl=1 }
    _aish_tty=                          # (echo comes back with zle: see _aish_hush)
    (( rfd )) && exec {rfd}<&-
    _aish_rfd=0
    [[ -n $_aish_dfd ]] && exec {_aish_dfd}>&-
    _aish_dfd=
    # A return from here puts back the count of loops to break out of as it was when this
    # function began: clearing the interrupt leaves zsh's `break` of the Ctrl-C pending,
    # one too many when the INT landed between a `while` body's check for breaks and its
    # check for the interrupt (a caller inside a loop: always), and everything after the
    # request in the widget was skipped (the question stayed on the prompt line).
    # (_aish_tidy: this block ran to its end; a Ctrl-C landing in it cuts it short, and
    # zsh then drops that interrupt: the caller's _aish_late tells by this mark.)
    return $(( (_aish_tidy = 1) && ! _aish_done ))
  }
}

# The user pressed Ctrl-C meaning "stop": whenever it lands before the answer's command is
# on the prompt line (while waiting, while the answer streams, after its last frame, while
# the request is cleaned up or the command placed), the request is cancelled and nothing of
# it goes on the line; what arrived stays on screen.  After its last frame the request
# counts as not done: a norris task stops, as at a Ctrl-C while it is planned.
_aish_cancelled() {    # say `[aish] cancelled` (once a request); the answer's commands are dropped
  _aish_cmds=() _aish_levels=() _aish_reasons=() _aish_done=0
  # the prompt under the answer whole, if the key cut its drawing short (see _aish_redraw)
  [[ -n $_aish_shown ]] && (( _aish_drawn < 2 )) && _aish_redraw_rest
  [[ -n $_aish_said ]] && return 0
  _aish_said=1
  if [[ -n $_aish_shown ]]; then
    zle -M -- "[aish] cancelled"        # the prompt is drawn again already: under it
  else
    _aish_say "[aish] cancelled"
  fi
}

# The widgets that place an answer's command run from the request to the placement with the
# user's INT trap off and in an `always` block, which calls this: a Ctrl-C that came after
# the request had handled its own (after its last frame: it propagates out of the request)
# or that cut the request's `always` block short (zsh drops an interrupt landing there,
# with the rest of the block: the request's FIFO stayed open and the command landed).
_aish_late() {         # 0 = a Ctrl-C came late: handled, the request tidied, nothing to place;
  # $1 = cut: one cut the caller's own `always` block short (called after that block, or
  # before the placement: outside an `always` block TRY_BLOCK_INTERRUPT is -1)
  (( TRY_BLOCK_INTERRUPT > 0 || ! _aish_tidy )) || [[ -n ${1-} ]] || return 1
  (( TRY_BLOCK_INTERRUPT < 0 )) || TRY_BLOCK_INTERRUPT=0 TRY_BLOCK_ERROR=0
  if (( ! _aish_tidy )); then           # what the request's `always` block did not get to
    _aish_spin_clear
    (( _aish_done )) || [[ -z $_aish_id ]] || _aish_send $_aish_d "cancel $_aish_id"
    if [[ -n $_aish_varsf ]]; then
      [[ -e $_aish_varsf ]] && zmodload -F zsh/files b:zf_rm 2>/dev/null && zf_rm -f -- $_aish_varsf
      _aish_varsf=
    fi
    (( _aish_nl )) || { printf '\n'; _aish_nl=1 }
    if (( _aish_rfd )); then { exec {_aish_rfd}<&- } 2>/dev/null; fi
    _aish_rfd=0
    if [[ -n $_aish_dfd ]]; then { exec {_aish_dfd}>&- } 2>/dev/null; fi
    _aish_dfd= _aish_tty= _aish_tidy=1
  fi
  _aish_cancelled
  return 0
}

_aish_send_request() { # KIND MODE TEXT BUFFER [ARGV...]: <id>.req (new, 0600), then `req <id>`
  emulate -L zsh
  local kind=$1 mode=$2 text=$3 buf=$4 line
  shift $(( $# < 4 ? $# : 4 ))
  local -a req out
  local -i wfd=0
  [[ -n $_aish_conv ]] || _aish_conv=zsh-$$-$EPOCHSECONDS
  req=(v=1 kind=$kind reply=$_aish_fifo conv=$_aish_conv shell=zsh cwd=$PWD
       status=$_aish_status interactive=1 cols=$COLUMNS vars=ask)
  _aish_term_fields
  if [[ $kind == ask ]]; then
    req+=(mode=$mode text=$text buffer=$buf cursor=$(( $#buf ? CURSOR : 0 )))
    for line in $_aish_hist; do req+=(hist=$line); done
  else
    for line; do req+=(argv=$line); done
  fi
  for line in $req; do _aish_esc $line; out+=($REPLY); done
  _aish_id=zsh-$$-$(( ++_aish_seq ))-$EPOCHSECONDS
  sysopen -w -o creat,excl,cloexec -m 600 -u wfd -- $_aish_d/$_aish_id.req || return 1
  print -rl -u $wfd -- $out
  exec {wfd}>&-
  _aish_pid0=; { read -r _aish_pid0 < $_aish_d/daemon.pid } 2>/dev/null
  _aish_last=$EPOCHSECONDS
  local -i sent=1
  if [[ -n $_aish_dfd ]]; then            # the fd of the liveness check (_aish_ensure)
    print -r -u $_aish_dfd -- "req $_aish_id" 2>/dev/null && sent=0
    exec {_aish_dfd}>&-
    _aish_dfd=
  else
    _aish_send $_aish_d "req $_aish_id" && sent=0
  fi
  (( sent == 0 )) || {
    _aish_say "aish: the daemon stopped; run: $AISH_COMMAND daemon start"; return 1; }
}

# The daemon asks for our variables only for the preview of a flagged command, after the
# answer: collecting them costs milliseconds that must not come before the first byte.
_aish_text_answer() {  # $1 qid, $2 the typed line: `var=answer=...` in <id>.<qid>.vars, then `answer <id> <qid> v`
  emulate -L zsh
  _aish_esc "var=answer=$2"
  _aish_answer_with $1 $REPLY
}

_aish_answer_with() {  # $1 qid, then the lines of <id>.<qid>.vars (new, 0600): `answer <id> <qid> v`, or n
  emulate -L zsh
  local qid=$1
  local -i fd=0
  shift
  _aish_varsf=$_aish_d/$_aish_id.$qid.vars
  if sysopen -w -o creat,excl,cloexec -m 600 -u fd -- $_aish_varsf 2>/dev/null; then
    print -rl -u $fd -- "$@"
    exec {fd}>&-
    _aish_send $_aish_d "answer $_aish_id $qid v"
  else
    _aish_send $_aish_d "answer $_aish_id $qid n"
  fi
}

_aish_vars() {         # $1 qid: <id>.<qid>.vars in our private dir, then `answer <id> <qid> v`
  emulate -L zsh
  # Secret-looking names go without their value, long values are left out (docs/protocol.md
  # `var`); our own and our callers' locals are not the user's variables.
  local _aish_vn _aish_words=${2-}
  # The secret-looking words come with the V frame (ipc/wire.py holds the one list);
  # without a list that reads as one, every value is withheld.
  [[ -n $_aish_words && $_aish_words != *[^A-Z\|]* ]] || _aish_words='*'
  local -a _aish_vout
  for _aish_vn in ${(k)parameters[(R)(scalar|integer)*]}; do
    [[ $_aish_vn == _aish_* || $parameters[$_aish_vn] == *-local* ]] && continue
    if [[ ${(U)_aish_vn} == *(${~_aish_words})* ]]; then
      _aish_esc var=$_aish_vn
    elif (( ${#${(P)_aish_vn}} <= 4096 )); then
      _aish_esc var=$_aish_vn=${(P)_aish_vn}
    else
      continue
    fi
    _aish_vout+=($REPLY)
  done
  _aish_answer_with $1 $_aish_vout
}

# `zle -I` gives the terminal back in the mode commands run in: keys typed while the answer
# streams would be echoed into it.  Once the answer has begun (or the model thinks for a
# while), echo goes off: one fork per answer, after the first byte, never on the keypress
# path.  The keys still wait in the terminal for the command line.  Nothing needs putting
# back: zle sets its own mode when it takes the terminal back, and gives commands the
# shell's saved settings, echo forced on (zsetterm); a restore of our own, a child process
# at the end of the widget, let zle redraw the prompt over the answer's last row after a
# window resize.
_aish_hush() {
  emulate -L zsh
  _aish_tty=1                           # tried once per request
  _aish_stty -echo
  return 0
}

_aish_mkfifo() {       # mkfifo in the shell's own process group, as _aish_stty: run as a job
  # of its own it had the terminal's group to itself (and so did its dead group just before
  # zsh took the terminal back): a Ctrl-C landing then reached no one, and the first ask of
  # a shell streamed to its end
  emulate -L zsh
  setopt no_monitor
  command mkfifo -m 600 -- "$@" 2>/dev/null
}

_aish_stty() {         # stty on our terminal, in the shell's own process group: with job
  # control a child gets a group of its own, and one that changes the terminal while a
  # resize or a key has the shell take the terminal back is stopped (SIGTTOU)
  emulate -L zsh
  setopt no_monitor
  command stty "$@" <${TTY:-/dev/tty} 2>/dev/null
}

# Short reads, so a daemon that died mid-answer is noticed (it never sends `D`, and our
# read-write open never sees EOF); AISH_TIMEOUT bounds a live but silent one; the spinner
# turns on each timeout.  sysread, not `read -t`: zsh's read waits for the newline once a
# line has begun, so a daemon killed in the middle of a frame would hang the prompt.  Each
# chunk is split into lines once (frames are taken by index: no re-scanning of a buffer).
_aish_read_frame() {   # the next frame of our request into _aish_tag, _aish_f1.._f3; 1 = stop
  emulate -L zsh
  local chunk line
  local -i st
  local -a frame
  while :; do
    while (( _aish_li > $#_aish_lines )); do
      sysread -t $_aish_tick -s 65536 -i $_aish_rfd chunk
      st=$?
      if (( st == 0 )); then
        _aish_last=$EPOCHSECONDS
        chunk=$_aish_part$chunk
        _aish_lines=("${(@ps:\n:)chunk}") _aish_li=1
        _aish_part=$_aish_lines[-1]         # what follows the last newline: a frame's start
        _aish_lines[-1]=()
        continue
      fi
      (( st == 4 )) || return 1           # not a timeout: a Ctrl-C, or an error
      (( _aish_spinning )) && _aish_spin
      [[ -n $_aish_tty ]] || _aish_hush
      _aish_pid_gone $_aish_pid0 && { _aish_gone=1; return 1 }
      (( EPOCHSECONDS - _aish_last < AISH_TIMEOUT )) || return 1
    done
    line=$_aish_lines[_aish_li]
    (( _aish_li++ ))
    frame=("${(@ps:\t:)line}")
    [[ $frame[1] == $_aish_id ]] || continue   # a late frame of a cancelled request
    _aish_tag=$frame[2]
    _aish_unesc "$frame[3]"; _aish_f1=$REPLY
    _aish_unesc "$frame[4]"; _aish_f2=$REPLY
    _aish_unesc "$frame[5]"; _aish_f3=$REPLY
    return 0
  done
}

# A tool asks for approval: read a whole answer line from the terminal, echoed by us, so
# none of its keys reach the command line.  Keys typed before the question was shown are
# not an answer to it: they are dropped, and the user is told.  A Ctrl-C ends the question
# and, through `_aish_request`'s `always` block, the request.
_aish_approve() {      # $1 question, $2 timeout in s: y, n or a in REPLY
  emulate -L zsh
  local key tty
  local -i dropped=0
  float t=${2:-120} deadline
  # `zle -I` gave the terminal back its cooked mode: keys would wait for Enter in the tty's
  # line buffer, echoed by it and then again by us.  One key at a time, unechoed, while the
  # question waits (forks: a person is answering, not a keypress path), as it was after.
  tty=$(_aish_stty -g) && _aish_stty -icanon -echo min 1 time 0 || tty=
  {
    while read -k 1 -t 0 key; do (( dropped++ )); done
    (( dropped )) && _aish_say "[aish] $dropped keys typed before this question were dropped"
    _aish_spin_clear
    (( _aish_nl )) || printf '\n'
    printf '%s ' "[aish] $1"
    _aish_nl=0 _aish_line=
    (( deadline = EPOCHREALTIME + t ))
    while :; do
      if (( EPOCHREALTIME >= deadline )); then
        _aish_say "[aish] no answer within ${t%.*} s: denied"
        REPLY=n
        return 0
      fi
      key=
      read -k 1 -t $_aish_tick key || continue
      _aish_edit "$key" && continue
      printf '\n'; _aish_nl=1
      _aish_word && return 0
      _aish_say "[aish] answer y (yes), n (no, the default), a (always) or s (show the whole call)"
      printf '%s ' "[aish] $1"; _aish_nl=0 _aish_line=
    done
  } always {
    [[ -n $tty ]] && _aish_stty $tty
  }
}
