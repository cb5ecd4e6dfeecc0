"""Effect: a node taken out of its cluster, or everything a tool runs stopped, said in ways the stop rules miss.

For programs no rule names (and cluster agents whose rules read other verbs):

- the node told to leave its cluster, as the command's whole word (``consul leave``, ``serf leave``,
  ``cman_tool leave force``): what it served moves away or stops, and a last member takes the cluster down;
  leaving one named group or network (``zerotier-cli leave NETWORK``, a chat room) stays to other rules;
- the stop said by the program's own name, with every member as scope (``hb_standby all``, ``vm-shutdown -a``,
  ``xen-halt --all``): ``stop_scopes`` reads the verb among the words, this reads it in the name;
- every process of a user or on a port killed by a killer no rule names (``killprocs --user bob``,
  ``zork-port kill 3000``, ``proc-kill --uid 1001``); a pid and signal 0 stay quiet;
- a stop called in the code a management shell is given to run (``wsadmin -c "AdminControl.stopServer('s1',
  'n1')"``, ``dnsdist -c -e 'shutdown()'``, ``rabbitmqctl eval 'init:stop().'``): a bare ``shutdown()``/``halt()``,
  a stop fused with a server, node or cluster noun, or Erlang's ``init:stop`` sent to a node; ``logging.shutdown()``
  and an interpreter stopping itself (``erl -eval '… init:stop().'``) stay quiet;
- the stop said by a lone option, the program's only action (``wsl``-like ``--shutdown``, ``--halt``,
  ``cec-ctl --to 0 --standby``): the server, VM or device it controls goes down.  Options that only configure a
  stop (``--shutdown-timeout``) and a read (``status``, ``--help``) stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_GATE = ("leave", "shutdown", "halt", "standby", "all", "-a", "kill", "terminate")
_FORCE = frozenset({"force", "-f", "--force", "now", "-force"})
_NAME_STOPS = frozenset({"stop", "standby", "shutdown", "halt", "poweroff", "offline", "suspend", "kill"})
_SCOPES = frozenset({"all", "-a", "--all", "-all", "*", "ALL", "--all-nodes", "-allnodes"})
_LONE_OPTIONS = frozenset({"--shutdown", "--halt", "--standby", "--power-off", "--shut-down"})  # not `steam -shutdown`
_READS = frozenset({"status", "list", "show", "info", "--help", "-h", "help", "--version", "members", "query",
                    "--dry-run", "-n", "get"})
_PARTS = lazy(r"[-_.]")
_OBSERVES = lazy(r"snoop|trace|watch|stat|top|log|mon")
_USER_OPTIONS = frozenset({"-u", "-U", "--user", "--uid", "--owner", "--username", "--euid"})
_PORT = lazy(r"^(:|tcp:|udp:)?\d{2,5}(/(tcp|udp))?$")


# Options and words after which a management shell's argument is code it runs.
_CODE_SLOTS = frozenset({"-c", "-e", "--eval", "-eval", "--exec", "-x", "--execute", "--command", "-command", "eval",
                         "exec", "execute", "-ex", "-f"})
_CODE_CALL = lazy(r"(?<![\w.$])(shutdown|halt)\s*\(|\b(stop|shutdown|halt|terminate|kill)_?(server|node|cluster|"
                  r"instance|domain|host|vm|machine|all|broker|engine)s?\s*\(|\b(init|erlang):(stop|halt|reboot)\s*\(",
                  re.IGNORECASE)
_RPC_STOP = lazy(r"\brpc:\w*call\(.*\binit\s*,\s*(stop|halt|reboot)\b")  # another node told to stop
# Programs that only show, search or store code, and interpreters whose `init:stop()` ends only themselves.
_NOT_RUN = frozenset({"echo", "printf", "grep", "egrep", "rg", "ag", "ack", "sed", "awk", "git", "perl"})
_SELF_ENDING = frozenset({"erl", "elixir", "iex", "escript", "mix", "rebar3"})


def _code_stop(c: Ctx, texts: list) -> Optional[str]:
    """The code argument of a management shell that calls a server's, a node's or its own shutdown."""
    if c.prog.lower() in _NOT_RUN:
        return None
    for k, t in enumerate(texts):
        code = t.split("=", 1)[1] if t.startswith("--") and "=" in t else t if k and texts[k - 1] in _CODE_SLOTS \
            else ""
        m = _RPC_STOP.search(code) or (None if c.prog.lower() in _SELF_ENDING else _CODE_CALL.search(code)) \
            if "(" in code else None
        if m:
            return m.group(0).rstrip("( ")
    return None


@triggered_by(_GATE, ("kill", "stop"), otherwise=False)
def may_stop_member(c: Ctx) -> bool:
    """Cheap: a leave, shutdown, halt or standby word, or a scope, on the line."""
    return bool(c.texts) and (any(w in c.lowered for w in _GATE) or "kill" in c.prog.lower() or
                              "stop" in c.lowered)


def _kill_scope(c: Ctx, texts: list, operands: list) -> Optional[str]:
    """Every process of a user or on a port killed by a killer no rule names (``killprocs --user bob``,
    ``zork-port kill 3000``); a pid, and signal 0 (a probe), stay quiet."""
    name = c.prog.lower()
    if _OBSERVES.search(name):  # `killsnoop -p PID` traces kill calls
        return None
    if "kill" not in name and not (operands[:1] and operands[0].lower() in ("kill", "terminate", "killall")):
        return None
    if set(texts) & {"-0", "--signal=0", "-s0"} or any(t in ("-s", "--signal") and texts[k + 1:k + 2] == ["0"]
                                                       for k, t in enumerate(texts)):
        return None
    for k, t in enumerate(texts[:-1]):
        if t in _USER_OPTIONS and not texts[k + 1].startswith("-"):
            return f"every process of {texts[k + 1]}"
    if "port" in name or "--port" in texts or any(_PORT.match(t) for t in operands if ":" in t or "/" in t):
        port = next((t for t in operands if _PORT.match(t)), None)
        if port:
            return f"whatever listens on {port}"
    return None


def rule_member_stop(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:32]
    if set(t.lower() for t in texts) & _READS:
        return None
    operands = [t for t in texts if not t.startswith("-")]
    if operands[:1] == ["leave"] and all(t.lower() in _FORCE for t in texts[1:]):
        return MEDIUM, f"{c.prog} leave: this node leaves its cluster, what it served stops here ({c.text})"
    name_words = set(_PARTS.split(c.prog.lower().removesuffix(".exe")))
    if len(name_words) > 1 and name_words & _NAME_STOPS and set(texts) & _SCOPES:
        scope = next(t for t in texts if t in _SCOPES)
        return MEDIUM, f"{c.prog} {scope}: every member it manages stops ({c.text})"
    called = _code_stop(c, texts) if "(" in c.lowered or "init" in c.lowered else None
    if called:
        return MEDIUM, f"{c.prog} runs {called}(…): the server, node or cluster it manages goes down ({c.text})"
    killed = _kill_scope(c, texts, operands)
    if killed:
        return MEDIUM, f"{c.prog} kills {killed} ({c.text})"
    lone = next((t for t in texts if t.lower() in _LONE_OPTIONS), None)
    if lone is not None and len(operands) <= 2:
        return MEDIUM, f"{c.prog} {lone}: the server, machine or device it controls goes down ({c.text})"
    return None
