# aish: the shell code zsh and bash share, one text for both (docs/architecture.md).
# Each on-demand half (aish.lazy.zsh, aish.lazy.bash) sources it from beside itself;
# `aish init` prints it between the two halves, for `eval`.  Function definitions only, but
# for the revision mark; the zsh callers set `emulate -L zsh`, so every line here means the
# same in both shells (tests/shell/test_scripts.py runs it in both).
_aish_common_rev=0.1.0   # must equal the halves' revision (a test checks all against the package)

_aish_esc() {          # escape $1 into REPLY (docs/protocol.md, Escaping): % first
  REPLY=${1//\%/%25}
  REPLY=${REPLY//$'\n'/%0A}
  REPLY=${REPLY//$'\t'/%09}
  REPLY=${REPLY//$'\r'/%0D}
}

_aish_unesc() {        # the reverse: %25 last
  REPLY=${1//\%0A/$'\n'}
  REPLY=${REPLY//\%09/$'\t'}
  REPLY=${REPLY//\%0D/$'\r'}
  REPLY=${REPLY//\%25/%}
}

_aish_level_line() {   # the warning for suggestion $1 (index): colored in REPLY, plain in _aish_plain
  local lvl=${_aish_levels[$1]} why=${_aish_reasons[$1]} color
  [[ -z $lvl || $lvl == - ]] && return 1
  case $lvl in
    high) color=$'\e[1;31m' ;;
    medium) color=$'\e[33m' ;;
    *) color=$'\e[36m' ;;
  esac
  [[ $why == - ]] && why=
  _aish_plain="[aish] ${lvl} risk${why:+: $why}"
  REPLY=$color$_aish_plain$'\e[0m'
}

# The answer goes straight to the terminal as it arrives (each chunk written once: time
# linear in its length, nothing re-rendered, no copies); _aish_nl says whether the cursor
# is at the start of a line.
_aish_out() {          # a piece of answer text
  [[ -n $1 ]] || return 0
  _aish_spin_clear
  printf '%s' "$1"
  if [[ $1 == *$'\n' ]]; then _aish_nl=1; else _aish_nl=0; fi
}

_aish_say() {          # a whole line, starting on a fresh one
  _aish_spin_clear
  (( _aish_nl )) || printf '\n'
  printf '%s\n' "$1"
  _aish_nl=1
}

_aish_spin() {         # "thinking" until the first frame; the glyph turns once per call
  (( _aish_nl )) || return 0
  _aish_spin_n=$(( (_aish_spin_n + 1) % 4 ))
  printf '\r\e[2m[aish] thinking... %s\e[0m\e[K' "${_aish_glyphs:_aish_spin_n:1}"
  _aish_spinning=1
}

_aish_spin_clear() {
  (( _aish_spinning )) || return 0
  printf '\r\e[K'
  _aish_spinning=0
}

_aish_handle_frame() { # act on frame _aish_tag/_aish_f1.._aish_f3; 1 after the last one
  _aish_spin_clear
  case $_aish_tag in
    T) _aish_out "$_aish_f1" ;;
    S) _aish_say "$_aish_f1" ;;
    W) _aish_say $'\e[33m'"[aish] ${_aish_f1#"[aish] "}"$'\e[0m' ;;
    E) _aish_say $'\e[31m'"aish: $_aish_f1${_aish_f3:+ ($_aish_f3)}"$'\e[0m' ;;  # message, kind, hint
    C) _aish_cmds+=("$_aish_f1")
       _aish_levels+=("$_aish_f2")
       _aish_reasons+=("$_aish_f3") ;;
    Q) local qid=$_aish_f1
       _aish_approve "$_aish_f2" "$_aish_f3" || return 1
       _aish_send "$_aish_d" "answer $_aish_id $qid $REPLY" ;;
    I) local qid=$_aish_f1 ret=0
       _aish_texting=1 _aish_answered=0
       _aish_approve "$_aish_f2" "$_aish_f3" || ret=1
       _aish_texting=0
       (( ret )) && return 1
       if (( _aish_answered )); then _aish_text_answer "$qid" "$REPLY"
       else _aish_send "$_aish_d" "answer $_aish_id $qid n"; fi ;;
    V) _aish_vars "$_aish_f1" "$_aish_f2" ;;
    N) _aish_task=$_aish_f1 ;;
    A) _aish_agent=$_aish_f1                 # an agent's proposal (docs/agents.md): wait,
       [[ $_aish_agent == withdraw ]] && _aish_agent_gone=$_aish_f2   # withdraw (off the
       [[ $_aish_agent == wait ]] || _aish_agent= ;;                  # line if there), off
    D) _aish_done=1
       return 1 ;;
  esac
  return 0
}

_aish_edit() {         # key $1 of the approval answer (in _aish_line, echoed); 1 = Enter
  case $1 in
    $'\r'|$'\n') return 1 ;;
    $'\x7f'|$'\b')
      if [[ -n $_aish_line ]]; then _aish_line=${_aish_line%?}; printf '\b \b'; fi ;;
    $'\x15')
      while [[ -n $_aish_line ]]; do _aish_line=${_aish_line%?}; printf '\b \b'; done ;;
    *)
      if (( _aish_texting )); then   # a typed answer (I frame): any printable character
        if [[ $1 == [[:print:]] ]] && (( ${#_aish_line} < 400 )); then _aish_line+=$1; printf '%s' "$1"; fi
      elif [[ $1 == [a-zA-Z] ]] && (( ${#_aish_line} < 12 )); then
        _aish_line+=$1; printf '%s' "$1"
      fi ;;
  esac
  return 0
}

_aish_word() {         # the approval answer _aish_line as y, n, a or s in REPLY; 1 = not a known word
  _aish_answered=1
  if (( _aish_texting )); then REPLY=$_aish_line; return 0; fi   # a typed answer is taken as it is
  case $_aish_line in
    ''|[nN]|[nN][oO]) REPLY=n ;;
    [yY]|[yY][eE][sS]) REPLY=y ;;
    [aA]|[aA][lL][wW][aA][yY][sS]) REPLY=a ;;
    [sS]|[sS][hH][oO][wW]) REPLY=s ;;
    *) return 1 ;;
  esac
}

_aish_pid_gone() {     # $1 = pid of the daemon that took our request: dead, or a zombie?
  # (not "does some daemon read daemon.fifo": another may serve it by then, and one that
  # retired for an upgrade still streams our answer)
  local st=
  [[ -n $1 ]] && kill -0 "$1" 2>/dev/null || return 0
  [[ -r /proc/$1/stat ]] && builtin read -r st < "/proc/$1/stat" 2>/dev/null && [[ ${st##*) } == Z* ]]
}

_aish_term_fields() {  # append the terminal's variables to the caller's `req` (fork-free)
  if [[ $AISH_OUTPUT == off ]]; then req+=(output=off); return 0; fi
  [[ -n ${AISH_RECORDER-} ]] && req+=("recorder=$AISH_RECORDER")
  if [[ -n ${TMUX-} && -n ${TMUX_PANE-} ]]; then
    req+=("tmux=$TMUX" "tmux_pane=$TMUX_PANE")
    # the count of our last D mark: the daemon's copy of the pane may be behind it
    (( _aish_marks )) && req+=("mark=$_aish_marks")
  fi
  [[ -n ${KITTY_WINDOW_ID-} ]] && req+=("kitty_window_id=$KITTY_WINDOW_ID" "kitty_listen_on=${KITTY_LISTEN_ON-}")
  # keys typed while the last command ran waited unread when it ended: their echo is among its
  # output (kitty's rows keep no D mark to say so; docs/output.md)
  [[ -n ${_aish_keys_ahead-} ]] && req+=(typed=1)
  [[ -n ${WEZTERM_PANE-} ]] && req+=("wezterm_pane=$WEZTERM_PANE" "wezterm_socket=${WEZTERM_UNIX_SOCKET-}")
  return 0
}

_aish_fix_marker() {    # $1 runtime dir: the daemon's "a fix is ready" marker for this shell's
  # conversation (app/fix.py), the one signal both shells read, in REPLY
  REPLY=$1/fix-$_aish_conv.ready
}
