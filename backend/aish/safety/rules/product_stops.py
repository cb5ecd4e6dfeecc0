"""Effect: a database, middleware or cluster product stopped by a program named for the stop verb.

Products ship their stop as a program of its own, built from the verb and the product's short name
(``db2stop``, ``ingstop``, ``gpstop``, ``mqsistop``, ``proshut``, ``dbshut``, ``mmshutdown``,
``tmshutdown``, ``cmhaltcl``, ``hastop``; verb first: ``stopsrc``, ``stopsap``, ``endmqm``), or
as a verb option of their daemon admin (``ttDaemonAdmin -stop``, ``mongod --shutdown``), a stop
value (``sendevent -E STOP_DEMON``) or a control program's ``stop`` of a named instance told not
to wait (``ccontrol stop CACHE quietly``, ``lsnrctl stop LISTENER``, ``emctl stop dbconsole``).
Told to stop at once or everywhere (``force``, ``-immediate``, ``-M immediate``, ``abort``,
``-all``, ``-a``, ``-i``), or given nothing at all, the product stops for every client.  Status,
start and reload forms of the same programs stay quiet, and so do names that only look alike
(``backstop``, ``stopwatch``, ``endlessh``, terminal emulators ending in ``term``).
"""
from __future__ import annotations

from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

# prefix + verb (+ a short scope suffix): db2stop, gpstop, proshut, dbshut, mmshutdown, cmhaltcl, cmhaltnode, qterm.
# (`stp` is stop abbreviated: `adstpall`, an application suite's stop of every part)
_PRODUCT_THEN_VERB = lazy(r"^[a-z][a-z0-9_]{0,9}?(stop|stp(?=all)|shut|shutdown|halt|term|kill)"
                          r"(cl|node|pkg|all|sys|srv|db)?$")
# verb + product: stopsrc, stopsap, endmqm, endmqlsr, endsbs, shutsrv.
_VERB_THEN_PRODUCT = lazy(r"^(stop|end|shut|halt|kill)[a-z][a-z0-9]{1,6}$")
# verb, a dash, product: shut-ctm, stop-ctm, halt-db (the verb said apart from the product: no option needed).
_VERB_DASH_PRODUCT = lazy(r"^(stop|shut|shutdown|halt)[-_][a-z][a-z0-9]{1,7}$")
_NOT_PRODUCTS = frozenset("""
backstop nonstop fullstop laststop stopwatch stopmotion stopify endlessh endian endpoint endgame endless endnote
endswith endsession termdown xterm uxterm lxterm aterm eterm mlterm kterm rxvt-term urxvt-term pterm wterm
sakuraterm qterminal cool-retro-term zutty-term st-term hterm yakuterm roxterm kitty-term lilyterm mrxvt-term
""".split())
# Words and options that tell a stop not to wait or to reach everywhere.
_AT_ONCE = frozenset("""
force -force --force -f -F forced immediate -immediate --immediate -i immed *immed abort -abort --abort kill -kill
--kill -k all -all --all -a -A quick now quietly -quietly -p -preemptive -by -y -immed
""".split())
# For names ending in `term` only a word that says how hard counts (`qterm -t immediate`, not `xterm -t`).
_TERM_AT_ONCE = frozenset("immediate -immediate --immediate quick abort kill force -force --force all -all --all "
                          "-immed".split())
# For names ending in `kill` (`pbskill -all`, not `killsnoop -p PID`) or told in the fewest letters.
_KILL_AT_ONCE = _TERM_AT_ONCE | {"-f", "--force", "-a", "-i", "-9"}
# Subsystems whose stop cuts the way in: stopsrc -g tcpip, stopsrc -s sshd.
_WAY_IN = frozenset("tcpip sshd ssh inetd network networking portmap nfs".split())
# A stop option of a daemon's admin program: ttDaemonAdmin -stop, mongod --shutdown.
_STOP_OPTION = frozenset("-stop --stop -shutdown --shutdown -halt --halt -stopdaemon --stop-daemon".split())
_DAEMON_NAME = lazy(r"(daemon|admin|adm|ctl|server|srv|mgr|d)$", 0)
# A fused stop value: sendevent -E STOP_DEMON, -function StopSystem, --action=shutdown_all.
_STOP_VALUE = lazy(r"^(stop|shutdown|halt)[_-]?(demon|daemon|system|service|server|all|instance|cluster|"
                   r"database|scheduler|manager|node|nodes|db|app|apps|web|services|servers)s?$")
# A control program's `stop` of a product part: lsnrctl stop LISTENER, emctl stop dbconsole, iris stop IRIS quietly.
_PARTS = frozenset("""
listener dbconsole agent oms crs cluster database db instance asm nodeapps scan home iasconsole broker queue
qmgr master scheduler slave server cache engine region all
""".split())
_CONTROL = lazy(r"(ctl|control|adm|admin|cmd|mgr)$")
_EVERYDAY_CONTROLS = frozenset("""
systemctl launchctl supervisorctl pm2 docker podman kubectl vagrant minikube multipass colima limactl
playerctl mpc timew watson sv service rc-service brightnessctl hostnamectl timedatectl localectl
""".split())
# What a control program's `stop X` is told after the part: ccontrol stop CACHE quietly, lsnrctl stop L -f.
_PART_AT_ONCE = frozenset("force -force --force -f forced immediate -immediate --immediate abort -abort --abort kill "
                          "-kill --kill quietly now all -all --all --fast hard".split())
_NOT_DOING = frozenset("--help -h -? --version status -status --status check".split())


def _name(c: Ctx) -> str:
    name = c.prog.lower().rsplit("/", 1)[-1]
    for ext in (".sh", ".bat", ".cmd", ".exe", ".ksh"):
        name = name.removesuffix(ext)
    return name


# A stop word in the program's name or its words: most commands leave here at once.
_ANY_STOP = lazy(r"stop|stp|shut|halt|term|kill|^end|ctl|adm|cmd|mgr|control|daemon")


@triggered_by(_ANY_STOP, "stop", "shut", "halt", otherwise=False)
def may_stop(c: Ctx) -> bool:
    """Could this command be a product's stop (its name or a word says stop)?"""
    if _ANY_STOP.search(c.prog.lower()):
        return True
    low = c.lowered
    return "stop" in low or "shut" in low or "halt" in low


def _stop_value(texts: list) -> Optional[str]:
    """A stop value given to an option: `-E STOP_DEMON`, `--action=shutdown_all` (not a subcommand)."""
    for k, t in enumerate(texts):
        if t.startswith("--") and "=" in t:
            value = t.split("=", 1)[1]
        elif k and texts[k - 1].startswith("-") and not t.startswith("-"):
            value = t
        else:
            continue
        if _STOP_VALUE.match(value.lower()):
            return value
    return None


def rule_product_stopped(c: Ctx, known: bool = False) -> Optional[tuple]:
    """A product stopped by its own stop program, its daemon admin's stop option or a control program."""
    name = _name(c)
    texts = c.texts
    lowered = [t.lower() for t in texts]
    if known or set(lowered) & _NOT_DOING or name in _NOT_PRODUCTS:
        return None  # a known program's own rules judge its options and subcommands
    said = set(texts) | set(lowered)
    named = _PRODUCT_THEN_VERB.match(name)
    if named is not None and name not in ("stop", "halt", "shutdown", "shut", "term"):
        verb = named.group(1)
        hard = said & (_TERM_AT_ONCE if verb == "term" else _KILL_AT_ONCE if verb == "kill" else _AT_ONCE)
        bare = not any(t.startswith("-") for t in texts) and (
            verb not in ("term", "kill") or verb == "kill" and name[-5:-4] in ("_", "-"))  # db2_kill
        if hard or bare:
            how = f" ({sorted(hard)[0]})" if hard else ""
            return MEDIUM, f"{c.prog} is the product's own stop program{how}: it stops for every client ({c.text})"
    if _VERB_DASH_PRODUCT.match(name) and (not texts or said & _AT_ONCE) or \
            name.startswith("halt") and _VERB_THEN_PRODUCT.match(name) \
            and not texts:
        return MEDIUM, f"{c.prog} stops the product it is named for, for every client ({c.text})"
    if _VERB_THEN_PRODUCT.match(name) and (said & (_KILL_AT_ONCE if name.startswith("kill") else _AT_ONCE) or
                                           said & _WAY_IN or name.startswith(("stop", "shut")) and texts and
                                           not any(t.startswith("-") for t in texts)):  # `stopsap r3`: its parts
        return MEDIUM, f"{c.prog} stops the product it is named for, for every client ({c.text})"
    if said & _STOP_OPTION and _DAEMON_NAME.search(name):  # not a client's own (`steam -shutdown`)
        return MEDIUM, f"{c.prog} is told to stop its daemon: the product stops for every client ({c.text})"
    value = _stop_value(texts)
    if value is not None and name not in _EVERYDAY_CONTROLS:
        return MEDIUM, f"{c.prog} is given {value}: the product stops for every client ({c.text})"
    operands = [t for t in lowered if not t.startswith("-")]
    if operands[:1] in (["set"], ["update"], ["modify"]) and "--state" in lowered and \
            lowered[lowered.index("--state") + 1:][:1] in (["stopped"], ["disabled"], ["down"]):
        return MEDIUM, f"{c.prog} sets the resource's state to stopped: what it runs stops ({c.text})"
    if set(operands) & {"stop", "shutdown"} and said & {"immediate", "fast", "abort"} and \
            name not in _EVERYDAY_CONTROLS:  # `pgpool -m fast stop`: the mode says it does not wait
        return MEDIUM, f"{c.prog} stops without waiting for its clients ({c.text})"
    if operands[:1] in (["stop"], ["shutdown"]) and name not in _EVERYDAY_CONTROLS and len(operands) >= 2:
        part = operands[1]
        controller = _CONTROL.search(name) is not None
        after = set(lowered[lowered.index(operands[0]) + 2:])
        if after & _PART_AT_ONCE or controller and (part in _PARTS or texts[lowered.index(part)].isupper()):
            return MEDIUM, f"{c.prog} {operands[0]} {part} stops it for every client ({c.text})"
    return None
