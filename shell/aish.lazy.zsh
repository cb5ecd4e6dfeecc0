# aish: the zsh functions loaded on demand (see aish.zsh, which sources this file the first
# time a question or an aish key needs it, with zsh's default options and no aliases): what
# the keys and hooks do with a request (widgets, norris steps, agents' proposals, the fix
# draft, doctor's view); the request itself is aish.request.zsh, sourced below.
# Function definitions only, but for the lines that check and mark the load.
_aish_lazy_rev=0.1.0     # must equal _aish_rev in aish.zsh (a test checks both against the package)
# From an aish.zsh of another version (the package was upgraded under this shell): define
# nothing, so the two halves never mix.  (Never true in `aish init zsh`'s one text.)
[[ ${_aish_rev-} == $_aish_lazy_rev ]] || return 1
# The code both shells share (aish.common.sh) and one request (aish.request.zsh), beside
# this file, unless `aish init`'s one text already holds them.
# One that cannot be read is named for the first half to say (_aish_lazy_missing).
if [[ ${_aish_common_rev-} != $_aish_lazy_rev ]]; then
  _aish_lazy_missing=${${(%):-%x}:A:h}/aish.common.sh
  [[ -r $_aish_lazy_missing ]] || return 1
  source $_aish_lazy_missing || return 1
fi
if [[ ${_aish_request_rev-} != $_aish_lazy_rev ]]; then
  _aish_lazy_missing=${${(%):-%x}:A:h}/aish.request.zsh
  [[ -r $_aish_lazy_missing ]] || return 1
  source $_aish_lazy_missing || return 1
fi
_aish_lazy_missing=

# ----------------------------------------------------------------- norris (docs/norris.md)
# While a task waits in this shell (_aish_task, set by the daemon's N frame), precmd reports
# what ran: the report is an ordinary request (a file and one FIFO line: no fork), and its
# reply is the next step, read right here before the prompt is drawn.  The step goes on the
# prompt line in zle-line-init; under autorun ("run") that hook also presses Enter.
_aish_report() {       # $1 status, $2 ms, $3 command
  emulate -L zsh
  _aish_request verb - '' '' norris --ran $1 $2 $3
  if (( ! _aish_done )); then           # Ctrl-C while it planned: the task stops
    _aish_task=
    return 0
  fi
  (( $#_aish_cmds )) || return 0
  _aish_level_line 1 && _aish_say $REPLY
  _aish_step=$_aish_cmds[1] _aish_idx=1
}

_aish_place_step() {   # zle-line-init with a step waiting: it goes on the line
  emulate -L zsh
  local step=$_aish_step
  _aish_step=
  if _aish_typed; then
    # Keys typed while the step was planned are the user's line, never glued onto the
    # step (nor run with it): the step waits on the cycle key, as a `?` answer's does.
    _aish_idx=0
    zle -M -- "[aish] kept your typing; ${AISH_KEY_CYCLE:-the cycle key} inserts the next step: $step"
    return 0
  fi
  BUFFER=$step; CURSOR=$#BUFFER
  _aish_arm_guard 1                     # a high-risk step needs a second Enter too
  [[ $_aish_task == run ]] && zle accept-line
  return 0
}

# ----------------------------------------------------------------- agents (docs/agents.md)
# While an agent is connected (aish mcp-server), this shell says where it stands at each
# prompt and when a command starts: <runtime dir>/zsh-<pid>.state, a file write (no fork).
# An agent's proposal reaches the prompt line through the terminal: the daemon writes a
# status request (ESC [ 5 n) to this shell's tty, the terminal answers ESC [ 0 n as input,
# and that key takes the proposal as an ordinary request.  What ran next (or that nothing
# did) is reported from precmd, as a norris step's is.
_aish_agent_state() {  # [$1 = the command starting now]
  emulate -L zsh
  [[ -d $_aish_rt && -O $_aish_rt && ! -L $_aish_rt ]] && zmodload zsh/system 2>/dev/null || return 0
  local line
  local -a req out
  local -i fd=0
  req=(v=1 shell=zsh conv=$_aish_conv pid=$$ tty=${TTY-} cwd=$PWD status=$_aish_status)
  [[ -n ${AISH_NAME-} ]] && req+=(name=$AISH_NAME)
  for line in $_aish_hist; do req+=(hist=$line); done
  [[ -n ${1-} ]] && req+=(running=$1 since=$EPOCHREALTIME)
  _aish_term_fields
  req+=(end=1)
  for line in $req; do _aish_esc $line; out+=($REPLY); done
  sysopen -w -o creat,truncate,nofollow,cloexec -m 600 -u fd -- $_aish_rt/zsh-$$.state 2>/dev/null ||
    return 0
  print -rl -u $fd -- $out
  exec {fd}>&-
  # the first time: the daemon reads this tmux pane from now on (it may have started after
  # the shell's first prompt, with the agent), so what commands print is known exactly
  [[ -n $_aish_agent_seen ]] || { _aish_agent_seen=1; _aish_watch }
  return 0
}

_aish_agent_report() { # [$1 status, $2 ms, $3 command]: what became of the proposal; none: not run
  emulate -L zsh
  # "key": it waited on the cycle key and never came onto the line: the user's own line ran
  local how=--ran
  [[ $_aish_agent == key ]] && how=--own
  if (( $# )); then _aish_request verb - '' '' agents $how $1 $2 $3
  else _aish_request verb - '' '' agents --dismissed; fi
  (( _aish_done )) || _aish_agent=       # Ctrl-C: the daemon hears no more of it
  return 0
}

_aish_status_key() {   # ESC [ 0 n, the terminal's answer to the daemon's status request
  emulate -L zsh
  local keep=$BUFFER
  local -i at=$CURSOR
  _aish_agent_gone=
  _aish_request verb - '' '' agents --take ${keep:+--typing}
  if [[ -n $_aish_agent_gone ]]; then   # the agent took a proposal back: off the line if there
    [[ $keep == $_aish_agent_gone ]] && keep= at=0
    _aish_agent_gone=
  fi
  if [[ -n $keep ]] && (( $#_aish_cmds )); then
    # The user's line stays theirs (keys typed before the proposal came, as with a norris
    # step): the proposal waits on the cycle key.
    _aish_level_line 1 && _aish_say $REPLY
    BUFFER=$keep CURSOR=$at _aish_idx=0 _aish_agent=key   # (the cycle key makes it "wait")
    _aish_highlight
    zle -R
    zle -M -- "[aish] kept your typing; ${AISH_KEY_CYCLE:-the cycle key} inserts the proposal: $_aish_cmds[1]"
    return 0
  fi
  _aish_finish $keep
  (( $#_aish_cmds )) || CURSOR=$at
  return 0
}

# ----------------------------------------------------------------- after a request
_aish_typed() {        # did the user type while the answer streamed? (keys wait in the tty)
  local -i tfd
  local -a reply
  sysopen -r -o nonblock,cloexec -u tfd -- ${TTY:-/dev/tty} 2>/dev/null || return 1
  zselect -t 0 -r $tfd 2>/dev/null
  local -i ret=$?
  exec {tfd}<&-
  return ret
}

_aish_finish() {       # after a request: $1 = buffer to keep when nothing is inserted
  local keep=$1
  if (( $#_aish_cmds > 1 )); then
    _aish_say "[aish] $#_aish_cmds suggestions: ${AISH_KEY_CYCLE:-the cycle key} shows the next"
  fi
  _aish_level_line 1 && _aish_say $REPLY
  # `zle -I` left the terminal in cooked mode, where keys typed during the answer wait
  # unseen in the tty's line buffer.  A refresh draws the prompt right here (below the
  # answer: no copy) and puts zle's raw mode back, so those keys become visible to zselect.
  BUFFER=$keep; CURSOR=$#BUFFER
  _aish_highlight
  zle -R
  (( $#_aish_cmds )) || return 0
  if _aish_typed; then
    # The user's keys follow: they land on the buffer as it was.
    zle -M -- "[aish] kept your typing; ${AISH_KEY_CYCLE:-the cycle key} inserts: $_aish_cmds[1]"
  else
    BUFFER=$_aish_cmds[1]; CURSOR=$#BUFFER
    _aish_idx=1
    _aish_arm_guard 1
  fi
}

# ----------------------------------------------------------------- Enter on a question
_aish_question() {     # accept-line on `? text`, `?? goal`, `? :verb`: BUFFER is the question
  emulate -L zsh
  local text=${BUFFER#\?} question=$BUFFER
  text=${text# }
  print -rs -- $BUFFER
  if [[ $text == '? '* ]]; then         # `?? goal`: a norris task
    _aish_request verb - '' '' norris ${=text#\? }
  elif [[ -z $text ]]; then
    _aish_request ask buffer '' ''
  elif [[ $text == :fix ]]; then
    _aish_request ask fix '' ''
  elif [[ $text == :explain ]]; then    # no words: the last command run (the line holds this)
    _aish_request ask explain '' "${${_aish_hist[-1]-}#*$'\t'*$'\t'}"
  elif [[ $text == :* ]]; then
    _aish_request verb - '' '' ${=${text#:}}
  else
    _aish_request ask question $text ''
  fi
  # `print -s` made the question the history event zle is editing: move zle on to the
  # new, empty event (the question still in the buffer, so no edit of it is remembered),
  # else Up would skip the question.
  BUFFER=$question
  HISTNO=$HISTCMD
  [[ $text == :halt* ]] && _aish_task=
  _aish_finish ''
  # autorun: a step rated no risk runs as if the user pressed Enter
  [[ $_aish_task == run && -n $BUFFER && $BUFFER == $_aish_cmds[1] ]] && zle accept-line
  return 0
}

_aish_buffer_widget() {   # $1: buffer (complete, fix or suggest) or explain (buffer untouched)
  emulate -L zsh
  local keep=$BUFFER
  _aish_request ask $1 '' "$BUFFER"
  [[ $1 == explain ]] && _aish_cmds=()
  _aish_finish $keep
}
_aish_ask_widget() {    # on an empty line right after a failure: fix the failed command
  emulate -L zsh
  if [[ -z $BUFFER && $_aish_status != 0 ]]; then _aish_buffer_widget fix
  else _aish_buffer_widget buffer; fi
}
_aish_fix_widget() { emulate -L zsh; _aish_buffer_widget fix }
_aish_explain_widget() { emulate -L zsh; _aish_buffer_widget explain }

_aish_cycle_widget() {
  emulate -L zsh
  if (( ! $#_aish_cmds )); then
    zle -M "aish: no suggestions to cycle"
    return 0
  fi
  local -i next=$(( _aish_idx % $#_aish_cmds + 1 ))
  [[ $_aish_agent == key ]] && _aish_agent='wait'   # an agent's proposal comes onto the line
  BUFFER=$_aish_cmds[next]
  CURSOR=$#BUFFER
  _aish_idx=$next
  _aish_arm_guard $next
  # The warning goes under the line (zle -M): printing it above would leave a copy of
  # the prompt with the previous suggestion, which reads like a command that ran.
  if _aish_level_line $next; then
    zle -M -- $_aish_plain
  else
    zle -M ''
  fi
}

# ----------------------------------------------------------------- command output, fix (docs/output.md)
_aish_prepare() {      # a `kind=prepare` request, only if the daemon already runs
  zmodload zsh/system 2>/dev/null
  _aish_dir 2>/dev/null || return 0
  local d=$REPLY line fd reply=
  _aish_send $d '' || return 0
  [[ -n $_aish_conv ]] || _aish_conv=zsh-$$-$EPOCHSECONDS
  local id=zsh-$$-$(( ++_aish_seq ))-$EPOCHSECONDS
  local -a req
  # With our fix FIFO (made with the reply FIFO), the daemon's done frame says when a draft
  # is ready; zle watches it (zle -F) and shows the hint without a fork or a wait.  Without
  # it the request has no reply FIFO and gets no frames.
  _aish_fix_unwatch
  if [[ -p $d/zsh-$$-fix.fifo ]] &&
     sysopen -rw -o cloexec -u _aish_fixfd -- $d/zsh-$$-fix.fifo 2>/dev/null; then
    reply=$d/zsh-$$-fix.fifo
    _aish_fix_marker $d; _aish_fixmark=$REPLY
  else
    _aish_fixfd=
  fi
  req=(v=1 kind=prepare reply=$reply conv=$_aish_conv shell=zsh cwd=$PWD
       status=$_aish_status interactive=1 cols=$COLUMNS)
  _aish_term_fields
  for line in $_aish_hist; do req+=(hist=$line); done
  sysopen -w -o creat,excl,cloexec -m 600 -u fd -- $d/$id.req 2>/dev/null || { _aish_fix_unwatch; return 0 }
  for line in $req; do _aish_esc $line; print -r -u $fd -- $REPLY; done
  exec {fd}>&-
  _aish_send $d "req $id" || { _aish_fix_unwatch; return 0 }
  [[ -n $_aish_fixfd ]] && zle -F -w $_aish_fixfd _aish_fix_hint
  return 0
}

_aish_fix_unwatch() {  # stop watching the fix FIFO (a newer failure, or the draft's answer came)
  [[ -n $_aish_fixfd ]] || return 0
  zle -F $_aish_fixfd 2>/dev/null
  exec {_aish_fixfd}<&-
  _aish_fixfd= _aish_fixbuf=
}

_aish_fix_hint() {     # zle -F widget: frames of the draft request; its done frame says "ready"
  emulate -L zsh
  local chunk
  sysread -t 0 -i $1 chunk 2>/dev/null && _aish_fixbuf+=$chunk
  [[ $_aish_fixbuf == *$'\tD\t'* || -n ${2-} ]] || return 0
  # ready: the daemon's marker, the same signal bash reads at its next prompt
  [[ -n $_aish_fixmark && -e $_aish_fixmark ]] && zle -M "[aish] a fix is ready: press ${AISH_KEY_FIX:-? :fix}"
  _aish_fix_unwatch
}

# ----------------------------------------------------------------- aish doctor
# `aish doctor` checks the live shell, not only the rc file: just before a command line
# that names it runs (preexec), the hooks and key bindings as they are now go to
# <runtime>/zsh-<pid>.hooks (builtins only: no fork), which doctor reads (cli/live_shell.py).
_aish_live_state() {
  emulate -L zsh
  zmodload zsh/system 2>/dev/null
  _aish_dir 2>/dev/null && [[ -d $REPLY ]] || return 0
  local f=$REPLY/zsh-$$.hooks km enter=lost
  local -i fd=0
  [[ $widgets[accept-line] == user:_aish_accept_line ]] && enter=ours
  local -a mine=(${(M)${(v)widgets}:#user:_aish_accept_line})   # kept by a plugin that wraps it
  [[ $enter == lost ]] && (( $#mine )) && enter=wrapped
  sysopen -w -o creat,truncate,nofollow,cloexec -m 600 -u fd -- $f 2>/dev/null || return 0
  {
    print -r -- "shell=zsh $ZSH_VERSION"
    print -r -- "precmd=${(j: :)precmd_functions}"
    print -r -- "preexec=${(j: :)preexec_functions}"
    print -r -- "enter=$enter"
    print -r -- "keytimeout=$KEYTIMEOUT"
    print -rn -- "main "; bindkey -lL main
    print -rn -- "vicmd-first-key "; bindkey -M vicmd -- ${AISH_KEY_ASK[1,2]:-^X}
    for km in emacs viins vicmd; do
      [[ -n $AISH_KEY_ASK ]] && { print -rn -- "key $km ask "; bindkey -M $km -- $AISH_KEY_ASK }
      [[ -n $AISH_KEY_EXPLAIN ]] && { print -rn -- "key $km explain "; bindkey -M $km -- $AISH_KEY_EXPLAIN }
      [[ -n $AISH_KEY_CYCLE ]] && { print -rn -- "key $km cycle "; bindkey -M $km -- $AISH_KEY_CYCLE }
      [[ -n $AISH_KEY_FIX ]] && { print -rn -- "key $km fix "; bindkey -M $km -- $AISH_KEY_FIX }
    done
  } >&$fd 2>/dev/null
  exec {fd}>&-
  return 0
}

_aish_lazy_done=1         # all defined: the stubs are gone
