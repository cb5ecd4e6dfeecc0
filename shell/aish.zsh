# aish: AI in your zsh.  Load with:  source /path/to/aish.zsh   (fast)
#                                or:  eval "$(aish init zsh)"    (starts Python once per shell)
# `? question` + Enter asks; Ctrl-X Ctrl-A asks about the line; Ctrl-X Ctrl-W explains it;
# Ctrl-X Ctrl-Y cycles suggestions.  Settings: see docs/shell.md.  Speaks docs/protocol.md
# natively: nothing forks on the keypress path once the daemon runs and the reply FIFO exists.

# No `return` at top level: under `eval "$(aish init zsh)"` it would end the user's .zshrc.
# Sourcing twice re-defines the functions and binds nothing twice (_aish_zsh_loaded).
# Parse the rest without user aliases and with zsh's defaults for the options that change
# parsing or the top-level code below; the user's values come back at the end.  (Functions
# set their own options with `emulate -L zsh`.)
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

typeset -g AISH_COMMAND=${AISH_COMMAND:-aish}
typeset -g AISH_HISTORY_SIZE=${AISH_HISTORY_SIZE:-20}
typeset -g AISH_KEY_ASK=${AISH_KEY_ASK-'^X^A'}
typeset -g AISH_KEY_EXPLAIN=${AISH_KEY_EXPLAIN-'^X^W'}
typeset -g AISH_KEY_CYCLE=${AISH_KEY_CYCLE-'^X^Y'}
typeset -g AISH_TIMEOUT=${AISH_TIMEOUT:-300}

typeset -ga _aish_hist _aish_cmds _aish_levels _aish_reasons
typeset -g _aish_cmd= _aish_t0= _aish_status=0 _aish_seq=0 _aish_conv= _aish_idx=0 _aish_out=
typeset -g _aish_fifo=${_aish_fifo-}

zmodload -F zsh/datetime p:EPOCHREALTIME p:EPOCHSECONDS 2>/dev/null

# ----------------------------------------------------------------- hooks (fork-free)
_aish_preexec() {
  emulate -L zsh
  _aish_cmd=$1
  _aish_t0=$EPOCHREALTIME
}

_aish_precmd() {
  local -i st=$?
  emulate -L zsh
  [[ -n $_aish_t0 ]] || return 0      # empty Enter or a `?` line: nothing ran
  local -i ms
  (( ms = (EPOCHREALTIME - _aish_t0) * 1000 ))
  _aish_status=$st
  _aish_hist+=("$st"$'\t'"$ms"$'\t'"$_aish_cmd")
  (( $#_aish_hist > AISH_HISTORY_SIZE )) && shift $(( $#_aish_hist - AISH_HISTORY_SIZE )) _aish_hist
  _aish_t0=
}

# ----------------------------------------------------------------- protocol helpers
_aish_esc() {          # escape $1 into REPLY (docs/protocol.md, Escaping)
  REPLY=${1//\%/%25}
  REPLY=${REPLY//$'\n'/%0A}
  REPLY=${REPLY//$'\t'/%09}
  REPLY=${REPLY//$'\r'/%0D}
}

_aish_unesc() {
  REPLY=${1//\%0A/$'\n'}
  REPLY=${REPLY//\%09/$'\t'}
  REPLY=${REPLY//\%0D/$'\r'}
  REPLY=${REPLY//\%25/%}
}

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
  sysopen -w -o nonblock -u fd -- $1/daemon.fifo 2>/dev/null || return 1
  local -i ret=0
  [[ -n $2 ]] && { print -r -u $fd -- $2; ret=$? }
  exec {fd}>&-
  return ret
}

_aish_ensure() {       # daemon running and our reply FIFO present; dir in REPLY
  zmodload zsh/system zsh/zselect 2>/dev/null
  _aish_dir || return 1
  local d=$REPLY err
  if ! _aish_send $d ''; then
    err=$(command $AISH_COMMAND daemon start 2>&1 >/dev/null)
    if (( $? )); then
      err=${${err%%$'\n'*}#aish: }
      _aish_say "aish: ${err:-cannot start the daemon} (check: ${AISH_COMMAND:t} doctor)"
      return 1
    fi
    _aish_dir || return 1
  fi
  if [[ ! -p $d/zsh-$$.fifo ]]; then
    command mkfifo -m 600 -- $d/zsh-$$.fifo 2>/dev/null || {
      _aish_say "aish: cannot create $d/zsh-$$.fifo: check the runtime dir"; return 1; }
  fi
  REPLY=$d
}

_aish_level_line() {   # the warning line for suggestion $1 (index), if it carries a level
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
_aish_say() {          # add a line to the answer shown above the prompt
  [[ -z $_aish_out || $_aish_out == *$'\n' ]] || _aish_out+=$'\n'
  _aish_out+=$1$'\n'
}

_aish_live() {         # the answer so far, under the line, while it streams
  local -a l=("${(@f)_aish_out}")
  local -i n=$(( LINES > 12 ? LINES / 2 : 5 ))
  (( $#l > n )) && l=("[...]" "${(@)l[-n,-1]}")
  zle -M -- "${(F)l}"
  zle -R
}

_aish_flush() {        # print the whole answer above a fresh prompt (one print, no copies)
  zle -M ''
  zle -R
  zle -I
  [[ -z $_aish_out ]] && return 0
  [[ $_aish_out == *$'\n' ]] || _aish_out+=$'\n'
  print -rn -- $_aish_out
  _aish_out=
}

# _aish_request KIND MODE TEXT BUFFER [ARGV...]: send, stream, leave the suggestions in
# _aish_cmds and the printable answer in _aish_out.
_aish_request() {
  emulate -L zsh
  local kind=$1 mode=$2 text=$3 buf=$4 d fifo rfd line tag key ans pid pid0 chunk inbuf
  local -i st
  shift 4
  _aish_out=
  _aish_cmds=() _aish_levels=() _aish_reasons=() _aish_idx=0
  _aish_ensure || return 1
  d=$REPLY fifo=$REPLY/zsh-$$.fifo _aish_fifo=$REPLY/zsh-$$.fifo
  [[ -n $_aish_conv ]] || _aish_conv=zsh-$$-$EPOCHSECONDS
  local id=zsh-$$-$(( ++_aish_seq ))-$EPOCHSECONDS
  local -a req frame out
  req=(v=1 kind=$kind reply=$fifo conv=$_aish_conv shell=zsh cwd=$PWD status=$_aish_status
       interactive=1 cols=$COLUMNS)
  if [[ $kind == ask ]]; then
    req+=(mode=$mode text=$text buffer=$buf cursor=$(( $#buf ? CURSOR : 0 )))
    for line in $_aish_hist; do req+=(hist=$line); done
  else
    for line; do req+=(argv=$line); done
  fi
  for line in $req; do _aish_esc $line; out+=($REPLY); done
  local -i done=0 wfd gone=0 last
  {
    exec {rfd}<>$fifo
    sysopen -w -o creat,excl -m 600 -u wfd -- $d/$id.req || return 1
    print -rl -u $wfd -- $out
    exec {wfd}>&-
    wfd=0
    _aish_send $d "req $id" || { _aish_say "aish: the daemon stopped; run: $AISH_COMMAND daemon start"; return 1; }
    last=$EPOCHSECONDS
    { read -r pid0 < $d/daemon.pid } 2>/dev/null  # another pid later: ours was restarted
    # Short reads, so a daemon that died mid-answer is noticed (it never sends `D`, and our
    # read-write open never sees EOF); AISH_TIMEOUT bounds a live but silent one. sysread,
    # not `read -t`: zsh's read waits for the newline once a line has begun, so a daemon
    # killed in the middle of a frame would hang the prompt.
    while :; do
      if [[ $inbuf != *$'\n'* ]]; then
        sysread -t 0.5 -s 65536 -i $rfd chunk
        st=$?
        if (( st == 0 )); then
          inbuf+=$chunk last=$EPOCHSECONDS
          continue
        fi
        (( st == 4 )) || break                # not a timeout: a Ctrl-C, or an error
        _aish_send $d '' || { gone=1; break }
        pid=; { read -r pid < $d/daemon.pid } 2>/dev/null
        [[ $pid == $pid0 ]] || { gone=1; break }
        (( EPOCHSECONDS - last < AISH_TIMEOUT )) && continue
        break
      fi
      line=${inbuf%%$'\n'*}
      inbuf=${inbuf#*$'\n'}
      frame=("${(@ps:\t:)line}")
      [[ $frame[1] == $id ]] || continue      # a late frame of a cancelled request
      tag=$frame[2]
      _aish_unesc "$frame[3]"
      case $tag in
        T) _aish_out+=$REPLY; _aish_live ;;
        S) _aish_say $REPLY; _aish_live ;;
        W) _aish_say $'\e[33m'"$REPLY"$'\e[0m'; _aish_live ;;
        E) _aish_say $'\e[31m'"aish: $REPLY"$'\e[0m'; _aish_live ;;
        C) _aish_cmds+=("$REPLY")
           _aish_unesc "$frame[4]"; _aish_levels+=("$REPLY")
           _aish_unesc "$frame[5]"; _aish_reasons+=("$REPLY") ;;
        Q) _aish_unesc "$frame[4]"
           _aish_say "[aish] $REPLY "
           _aish_out=${_aish_out%$'\n'}
           _aish_live
           key=; read -k 1 key
           case $key in ([yY]) ans=y ;; ([aA]) ans=a ;; (*) ans=n ;; esac
           _aish_out+=$ans$'\n'
           _aish_live
           last=$EPOCHSECONDS
           _aish_send $d "answer $id $frame[3] $ans" ;;
        D) done=1; break ;;
      esac
    done
    if (( gone )); then
      _aish_say "[aish] the daemon stopped while answering (see: $AISH_COMMAND daemon status)"
    elif (( ! done )); then
      _aish_say "[aish] no answer from the daemon (see: $AISH_COMMAND daemon status)"
    fi
  } always {
    if (( ! done )); then
      _aish_send $d "cancel $id"
      [[ -e $d/$id.req ]] && zmodload -F zsh/files b:zf_rm 2>/dev/null && zf_rm -f -- $d/$id.req
    fi
    (( wfd )) && exec {wfd}>&-
    (( rfd )) && exec {rfd}<&-
  }
}

_aish_show() {         # put suggestion $1 in the buffer (with its warning above the prompt)
  BUFFER=$_aish_cmds[$1]
  CURSOR=$#BUFFER
  _aish_idx=$1
  _aish_level_line $1 && print -r -- $REPLY
}

_aish_typed() {        # did the user type while the answer streamed? (keys wait in the tty)
  local -i tfd
  local -a reply
  sysopen -r -o nonblock -u tfd -- ${TTY:-/dev/tty} 2>/dev/null || return 1
  zselect -t 0 -r $tfd 2>/dev/null
  local -i ret=$?
  exec {tfd}<&-
  return ret
}

_aish_finish() {       # after a request: $1 = buffer to keep when nothing is inserted
  local keep=$1 typed=0
  _aish_typed && typed=1
  if (( typed && $#_aish_cmds )); then
    _aish_say "[aish] kept your typing; ${AISH_KEY_CYCLE:-the cycle key} inserts: $_aish_cmds[1]"
  elif (( $#_aish_cmds > 1 )); then
    _aish_say "[aish] $#_aish_cmds suggestions: ${AISH_KEY_CYCLE:-the cycle key} shows the next"
  fi
  _aish_flush
  if (( ! typed && $#_aish_cmds )); then
    _aish_show 1
  else
    # Nothing to insert, or the user's keys follow: they land on the buffer as it was.
    BUFFER=$keep; CURSOR=$#BUFFER
  fi
}

# ----------------------------------------------------------------- widgets
_aish_accept_line() {
  emulate -L zsh
  # Only a command line (not vared, select or a continuation line) can be a question.
  if [[ $CONTEXT != start || ( $BUFFER != '?' && $BUFFER != '? '* ) ]]; then
    zle _aish_orig_accept_line -- "$@"
    return
  fi
  local text=${BUFFER#\?}
  text=${text# }
  print -rs -- $BUFFER
  if [[ -z $text ]]; then
    _aish_request ask buffer '' ''
  elif [[ $text == :* ]]; then
    _aish_request verb - '' '' ${=${text#:}}
  else
    _aish_request ask question $text ''
  fi
  _aish_finish ''
}

_aish_buffer_widget() {   # $1: buffer (complete, fix or suggest) or explain (buffer untouched)
  emulate -L zsh
  local keep=$BUFFER
  _aish_request ask $1 '' $BUFFER
  [[ $1 == explain ]] && _aish_cmds=()
  _aish_finish $keep
}
_aish_ask_widget() { emulate -L zsh; _aish_buffer_widget buffer }
_aish_explain_widget() { emulate -L zsh; _aish_buffer_widget explain }

_aish_cycle_widget() {
  emulate -L zsh
  if (( ! $#_aish_cmds )); then
    zle -M "aish: no suggestions to cycle"
    return 0
  fi
  local -i next=$(( _aish_idx % $#_aish_cmds + 1 ))
  # A new prompt copy only when there is a warning line to show above it.
  _aish_level_line $next && zle -I
  _aish_show $next
}

# ----------------------------------------------------------------- binding
_aish_builtin_accept_line() {
  emulate -L zsh
  zle .accept-line -- "$@"
}

_aish_exit() {         # our reply FIFO goes with the shell
  emulate -L zsh
  [[ -p ${_aish_fifo-} ]] && zmodload -F zsh/files b:zf_rm 2>/dev/null && zf_rm -f -- $_aish_fifo
}

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
  () {
    local km
    for km in emacs viins vicmd; do
      [[ -n $AISH_KEY_ASK ]] && bindkey -M $km $AISH_KEY_ASK _aish_ask_widget
      [[ -n $AISH_KEY_EXPLAIN ]] && bindkey -M $km $AISH_KEY_EXPLAIN _aish_explain_widget
      [[ -n $AISH_KEY_CYCLE ]] && bindkey -M $km $AISH_KEY_CYCLE _aish_cycle_widget
    done
  }
  zshexit_functions=(${zshexit_functions:#_aish_exit} _aish_exit)
  # precmd first, so it reads the real $? before other hooks run commands.
  precmd_functions=(_aish_precmd ${precmd_functions:#_aish_precmd})
  preexec_functions=(${preexec_functions:#_aish_preexec} _aish_preexec)
fi

() {
  local o
  for o in ${(k)_aish_saved_opts}; do
    [[ ${options[$o]} == ${_aish_saved_opts[$o]} ]] || options[$o]=${_aish_saved_opts[$o]}
  done
}
unset _aish_saved_opts
