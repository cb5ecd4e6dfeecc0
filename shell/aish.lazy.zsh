# aish: the zsh functions loaded on demand (see aish.zsh, which sources this file the first
# time a question or an aish key needs it, with zsh's default options and no aliases): what
# the keys and hooks do with a request (widgets, the fix draft, doctor's view); the request
# itself is aish.request.zsh, and what lands on the line from elsewhere (norris steps,
# agents' proposals) aish.steps.zsh, both sourced below.
# Function definitions only, but for the lines that check and mark the load.
_aish_lazy_rev=0.1.0     # must equal _aish_rev in aish.zsh (a test checks both against the package)
# From an aish.zsh of another version (the package was upgraded under this shell): define
# nothing, so the two halves never mix.  (Never true in `aish init zsh`'s one text.)
[[ ${_aish_rev-} == $_aish_lazy_rev ]] || return 1
# The code both shells share (aish.common.sh), one request (aish.request.zsh) and the steps
# and proposals (aish.steps.zsh), beside this file, unless `aish init`'s one text holds them.
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
if [[ ${_aish_steps_rev-} != $_aish_lazy_rev ]]; then
  _aish_lazy_missing=${${(%):-%x}:A:h}/aish.steps.zsh
  [[ -r $_aish_lazy_missing ]] || return 1
  source $_aish_lazy_missing || return 1
fi
_aish_lazy_missing=

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
  (( _aish_tidy )) || _aish_late cut    # a Ctrl-C cut the request's `always` block short
  if (( $#_aish_cmds > 1 )); then
    _aish_say "[aish] $#_aish_cmds suggestions: ${AISH_KEY_CYCLE:-the cycle key} shows the next"
  fi
  _aish_level_line 1 && _aish_say $REPLY
  # `zle -I` left the terminal in cooked mode, where keys typed during the answer wait
  # unseen in the tty's line buffer.  A refresh draws the prompt right here (below the
  # answer: no copy) and puts zle's raw mode back, so those keys become visible to zselect.
  BUFFER=$keep; CURSOR=$#BUFFER
  _aish_highlight
  _aish_cols=$COLUMNS
  _aish_shown=1                         # (a Ctrl-C from here is said under the prompt)
  _aish_redraw
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

# The prompt drawn again under the answer, after `zle -I` gave the display up.  zsh expands
# the prompt in the first refresh after that, and a Ctrl-C stops the expansion halfway: a
# theme whose prompt sets something while it is expanded and puts it back at its end is left
# so (powerlevel10k holds COLUMNS at 1024: later prompts wrapped), and zle draws what was
# expanded (an empty row, or the prompt's raw text).  So that refresh draws an empty prompt,
# which runs nothing of the theme's; `.reset-prompt` expands the prompt (it draws nothing) and
# a second refresh draws it over the empty one.  A Ctrl-C cuts any of it short: _aish_cancelled
# does what was left, with COLUMNS as it was before.  (A TRAPINT that only noted the key would
# not do: zsh refreshes the display after each trap while it is given up, from inside the
# refresh the trap cut into: the prompt drawn twice.)
_aish_redraw() {       # zle -R under the answer
  emulate -L zsh
  _aish_drawn=0
  _aish_redraw_empty
  _aish_drawn=1
  zle .reset-prompt
  zle -R
  _aish_drawn=2
}
_aish_redraw_empty() { # a refresh with no prompt: zle's display and raw mode back
  emulate -L zsh
  local PS1= RPS1=
  zle -R
}
_aish_redraw_rest() {  # after a Ctrl-C that cut _aish_redraw short: what it had left to do
  emulate -L zsh
  zle || return 0                       # (a mark left from a widget, seen outside zle)
  (( _aish_drawn )) || _aish_redraw_empty
  (( COLUMNS == _aish_cols )) || COLUMNS=$_aish_cols   # (left by a prompt cut halfway)
  zle .reset-prompt
  zle -R
  _aish_drawn=2
}

# ----------------------------------------------------------------- Enter on a question
_aish_question() {     # accept-line on `? text`, `?? goal`, `? :verb`: BUFFER is the question
  emulate -L zsh
  trap - INT                            # a Ctrl-C until the command is on the line: _aish_late
  local text=${BUFFER#\?} question=$BUFFER
  text=${text# }
  print -rs -- $BUFFER
  _aish_tidy=1
  {
    if [[ $text == '? '* ]]; then       # `?? goal`: a norris task
      _aish_request verb - '' '' norris ${=text#\? }
    elif [[ -z $text ]]; then
      _aish_request ask buffer '' ''
    elif [[ $text == :fix ]]; then
      _aish_request ask fix '' ''
    elif [[ $text == :explain ]]; then  # no words: the last command run (the line holds this)
      _aish_request ask explain '' "${${_aish_hist[-1]-}#*$'\t'*$'\t'}"
    elif [[ $text == :* ]]; then
      _aish_request verb - '' '' ${=${text#:}}
    else
      _aish_request ask question $text ''
    fi
    _aish_new_event $question
    [[ $text == :halt* ]] && _aish_task=
    _aish_finish ''
  } always {
    _aish_late && _aish_new_event $question
    _aish_tidy=2
  }
  (( _aish_tidy == 2 )) || { _aish_late cut; _aish_new_event $question }
  # autorun: a step rated no risk runs as if the user pressed Enter
  [[ $_aish_task == run && -n $BUFFER && $BUFFER == $_aish_cmds[1] ]] && zle accept-line
  return 0
}

_aish_new_event() {    # $1 = the question: an empty line, on a history event of its own
  # `print -s` made the question the history event zle is editing: move zle on to the
  # new, empty event (the question still in the buffer, so no edit of it is remembered),
  # else Up would skip the question.  (_aish_finish puts the answer's command there.)
  BUFFER=$1
  HISTNO=$HISTCMD
  BUFFER= CURSOR=0
}

_aish_buffer_widget() {   # $1: buffer (complete, fix or suggest) or explain (buffer untouched)
  emulate -L zsh
  trap - INT                            # a Ctrl-C until the command is on the line: _aish_late
  local keep=$BUFFER
  _aish_tidy=1
  {
    _aish_request ask $1 '' "$BUFFER"
    [[ $1 == explain ]] && _aish_cmds=()
    _aish_finish $keep
  } always {
    _aish_late && BUFFER=$keep CURSOR=$#keep
    _aish_tidy=2
  }
  (( _aish_tidy == 2 )) || { _aish_late cut; BUFFER=$keep CURSOR=$#keep }
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
  if [[ -p $d/zsh-$$-fix.fifo ]] && _aish_fix_open $d/zsh-$$-fix.fifo; then
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

# The fix FIFO's fd stays open while the user types, beside other plugins' fds.
# zsh-autosuggestions (async, its default) keeps the number of its last request's fd after
# closing it, and at the next key closes whatever has that number then (and its `zle -F`
# handler): the first free fd, which a FIFO opened after that gets.  So the FIFO never takes
# that number, and aish closes only an fd that is still its FIFO (`-ef`: same file, no fork).
_aish_fix_open() {     # open the fix FIFO $1 into _aish_fixfd, at a number no plugin will close
  local spare
  sysopen -rw -o cloexec -u _aish_fixfd -- $1 2>/dev/null || { _aish_fixfd=; return 1 }
  if [[ $_aish_fixfd == ${_ZSH_AUTOSUGGEST_ASYNC_FD:--} ]]; then
    spare=$_aish_fixfd               # held while the FIFO opens again at another number
    sysopen -rw -o cloexec -u _aish_fixfd -- $1 2>/dev/null || _aish_fixfd=
    exec {spare}<&-
    [[ -n $_aish_fixfd ]] || return 1
  fi
  _aish_fixpath=$1
}

_aish_fix_unwatch() {  # stop watching the fix FIFO (a newer failure, or the draft's answer came)
  [[ -n $_aish_fixfd ]] || return 0
  if [[ /dev/fd/$_aish_fixfd -ef $_aish_fixpath ]]; then   # still ours (see _aish_fix_open)
    zle -F $_aish_fixfd 2>/dev/null
    exec {_aish_fixfd}<&-
  fi
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
