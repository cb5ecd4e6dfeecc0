# aish: what lands on the bash prompt line from elsewhere: a norris task's steps (reported
# from the prompt hook, the next one read back) and an agent's proposals (this shell's state
# for the agent, the proposal taken when the terminal answers the daemon's status request),
# both put on the line by the terminal's status answer, and what became of them reported.
# aish.lazy.bash sources this file from beside itself; `aish init bash` prints it before
# that half, for `eval`.  Function definitions only, but for the revision mark (it is
# sourced from inside a function, where a `declare` would make locals).
# shellcheck shell=bash
_aish_steps_rev=0.1.0    # must equal the halves' revision (a test checks all against the package)

# ----------------------------------------------------------------- norris (docs/norris.md)
# While a task waits in this shell (_aish_task, set by the daemon's N frame), precmd reports
# what ran: the report is an ordinary request (a file and one FIFO line: no fork), and its
# reply is the next step, read right here before the prompt is drawn.  PROMPT_COMMAND cannot
# set the next readline line, so we ask the terminal for its status (ESC [ 5 n): its answer,
# ESC [ 0 n, arrives as input once readline runs, and that key sequence is bound to put the
# step on the line (and, under autorun, to press Enter).
_aish_report() {       # $1 status, $2 ms, $3 command
  _aish_run verb - '' '' norris --ran "$1" "$2" "$3"
  _aish_untrap
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
  _aish_untrap
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
    _aish_end "$keep"
    READLINE_POINT=$at
    return 0
  fi
  _aish_finish "$keep"
  _aish_end "$keep"
  (( ${#_aish_cmds[@]} )) || READLINE_POINT=$at
  return 0
}
