# aish: what lands on the zsh prompt line from elsewhere: a norris task's steps (reported
# from precmd, the next one read back and placed in zle-line-init) and an agent's proposals
# (this shell's state for the agent, the proposal taken when the terminal answers the
# daemon's status request), and what became of them reported.  aish.lazy.zsh sources this
# file from beside itself; `aish init zsh` prints it before that half, for `eval`.
# Function definitions only, but for the revision mark.
_aish_steps_rev=0.1.0    # must equal the halves' revision (a test checks all against the package)

# ----------------------------------------------------------------- norris (docs/norris.md)
# While a task waits in this shell (_aish_task, set by the daemon's N frame), precmd reports
# what ran: the report is an ordinary request (a file and one FIFO line: no fork), and its
# reply is the next step, read right here before the prompt is drawn.  The step goes on the
# prompt line in zle-line-init; under autorun ("run") that hook also presses Enter.
_aish_report() {       # $1 status, $2 ms, $3 command
  emulate -L zsh
  trap - INT                            # a Ctrl-C until the step is taken: _aish_late
  _aish_tidy=1
  {
    _aish_request verb - '' '' norris --ran $1 $2 $3
    if (( ! _aish_done )); then         # Ctrl-C while it planned: the task stops
      _aish_task=
      return 0
    fi
    (( $#_aish_cmds )) || return 0
    _aish_level_line 1 && _aish_say $REPLY
    _aish_step=$_aish_cmds[1] _aish_idx=1
  } always {
    _aish_late && _aish_task= _aish_step=
    _aish_tidy=2
  }
  (( _aish_tidy == 2 )) || { _aish_late cut; _aish_task= _aish_step= }
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
  trap - INT                            # a Ctrl-C until the proposal is on the line: _aish_late
  local keep=$BUFFER
  local -i at=$CURSOR
  _aish_agent_gone=
  _aish_tidy=1
  {
    _aish_request verb - '' '' agents --take ${keep:+--typing}
    if [[ -n $_aish_agent_gone ]]; then # the agent took a proposal back: off the line if there
      [[ $keep == $_aish_agent_gone ]] && keep= at=0
      _aish_agent_gone=
    fi
    if [[ -n $keep ]] && (( $#_aish_cmds )); then
      # The user's line stays theirs (keys typed before the proposal came, as with a norris
      # step): the proposal waits on the cycle key.
      _aish_level_line 1 && _aish_say $REPLY
      BUFFER=$keep CURSOR=$at _aish_idx=0 _aish_agent=key   # (the cycle key makes it "wait")
      _aish_highlight
      _aish_cols=$COLUMNS
      _aish_shown=1
      _aish_redraw
      zle -M -- "[aish] kept your typing; ${AISH_KEY_CYCLE:-the cycle key} inserts the proposal: $_aish_cmds[1]"
      return 0
    fi
    _aish_finish $keep
    (( $#_aish_cmds )) || CURSOR=$at
  } always {
    _aish_late && BUFFER=$keep CURSOR=$at
    _aish_tidy=2
  }
  (( _aish_tidy == 2 )) || { _aish_late cut; BUFFER=$keep CURSOR=$at }
  return 0
}
