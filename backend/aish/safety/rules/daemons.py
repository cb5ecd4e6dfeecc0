"""Servers stopped by their own control programs, for any server.

The service manager's stop of one named service stays quiet (``sudo systemctl stop nginx`` is
routine: the manager knows it is down and starts it again as configured).  A server's own control
program or stop script told to stop is another matter: it ends the server outside the manager, for
every client at once (``rndc stop``, ``ipsec stop``, ``apachectl graceful-stop``, ``kafka-server-stop.sh``,
``/etc/init.d/mysql stop``, ``asterisk -rx 'core stop now'``, ``jboss-cli.sh command=:shutdown``),
and supervisors, spoolers and container tools told to take down or kill what they run (``svc -d``,
``s6-svc -d``, ``start-stop-daemon --stop``, ``lxc-stop --kill``, ``tsp -K``).  What says it is
the word the program is given, or the program's own name (``stop-hbase.sh``, ``zkServer.sh stop``).
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.any_case import AnyCase
from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_STOP_WORDS = frozenset("stop halt shutdown graceful-stop gracefulstop stop-all stopall stop_all force-stop "
                        "forcestop stop-now hard-stop quit quit-nicely stopdaemon server-stop stop-server stopserver "
                        "shutdown-server".split())
# A first word after which the stop word still speaks for the whole server (`crm cluster stop`, `ipsec stop`).
_SCOPE_WORDS = frozenset("cluster server service node daemon core all app instance broker gateway ctl "
                         "servers services nodes daemons apps instances brokers".split())  # plurals: every one
# A stop fused with what it stops: `asadmin stop-domain`, `stop-cluster`, `shutdown_instance`.
_FUSED_STOP = lazy(r"(stop|shutdown|halt)[-_](domain|database|db|cluster|instance|server|node|broker|daemon|"
                   r"all|app|service|gateway)s?")
_MODIFIERS = frozenset("now all gracefully graceful immediate fast force smart nosave save clean -".split())
# A control program's name: `unbound-control`, `varnishadm`, `apachectl`, `rndc`, `*d`, `*server`, scripts.
_CONTROL_NAME = lazy(r"(ctl|-control|control|adm|admin|-cli|server|srv|d|\.sh|\.bat|\.cmd|\.py)$", re.IGNORECASE)
# A stop script by its name: `stop-hbase.sh`, `kafka-server-stop.sh`, `shutdown.sh`, `elasticsearch-stop`.
_STOP_SCRIPT = lazy(r"(^|[-_.])(stop|shutdown|halt)(all|-all|_all)?([-_.]|$)|^stop[a-z]|[a-z]stop$",
                    re.IGNORECASE)
# Stop phrases handed to a server's console: `core stop now`, `:shutdown`, `shutdown --restart=false`.
_CONSOLE_STOP = lazy(r"^(core\s+|server\s+|:|\w+ctl\s+)?(stop|shutdown|halt)"
                     r"(\s+(now|gracefully|when\s+convenient|-?-?force|nosave|save|immediate))?\s*;?\s*$|^command=:?shutdown\b|^:(shutdown|stop)\b",
                     re.IGNORECASE)
# Programs whose `stop` is everyday: players, time trackers, development VMs and the service managers
# (judged by their own rules).
_EVERYDAY = frozenset("""
playerctl mpc mocp cmus-remote mpv vlc spotify spotifyd timew timewarrior watson toggl klog jrnl
vagrant minikube multipass colima limactl lima podman docker docker-compose kubectl nerdctl kind k3d
systemctl service rc-service sv launchctl pm2 npm yarn pnpm bun deno npx foreman overmind honcho forever
supervisorctl ddev lando devbox supabase flutter emulator adb avdmanager gradle mvn ./gradlew gradlew
tmux screen shutdown reboot poweroff halt kill killall pkill git timeout nohup
pueue sdkman jenv asdf direnv ollama colima ngrok expo react-native vboxmanage
localstack ray azurite tilt skaffold devspace okteto dapr wrangler firebase amplify
""".split())  # (session 17: local emulators and the processes a runtime started on this machine, stopped by their user)

# Daemons a developer's own tools start on demand and start again on their next use (build servers,
# language and formatter daemons, file watchers, a personal notebook server): stopping one loses nothing.
_ON_DEMAND = frozenset("""
bazel bazelisk spring watchman sccache buck buck2 eslint_d prettierd eslint-daemon sbt bloop mill jupyter
jupyter-server jupyter-notebook nx turbo kotlin-daemon dotnet tsserver gopls rust-analyzer
""".split())


def _operands(texts: list) -> list:
    out, i = [], 0
    while i < len(texts):
        t = texts[i]
        if t.startswith("-") and len(t) > 1:
            i += 2 if t in ("-u", "-p", "-h", "-H", "-P", "-D", "--port", "--host", "--user", "--config") else 1
            continue
        out.append(t.lower())
        i += 1
    return out


def _console_stop(c: Ctx) -> Optional[str]:
    """A stop phrase handed to the server's console as an option value or a `key=value` word."""
    for k, t in enumerate(c.texts):
        value = t
        if t.startswith("--") and "=" in t:
            value = t.split("=", 1)[1]
        elif k and c.texts[k - 1].startswith("-") and len(c.texts[k - 1]) <= 4 and " " in t.strip():
            value = t  # `-rx 'core stop now'`
        elif not t.lower().startswith(("command=", ":")):
            continue
        if _CONSOLE_STOP.match(value.strip()):
            return value.strip()
    return None


# Nothing on the line says stop: most commands leave here at once.
_ANY_STOP = AnyCase(r"stop|halt|shutdown|quit|kill|^svc|^s6-|^runsvctl|^atrm|^at\b|^tsp?\b|^task-spooler")


@triggered_by(_ANY_STOP)
def rule_server_stopped(c: Ctx, known: bool) -> Optional[tuple]:
    """A server stopped by its own control program, stop script or supervisor."""
    if not _ANY_STOP.occurs_in(c.prog) and not any(_ANY_STOP.occurs_in(t) for t in c.texts if len(t) > 2):
        return None
    raw_name = c.words[0].text if c.words else c.prog
    name = c.prog.lower()
    base = re.sub(r"\.(sh|bat|cmd|exe|py)$", "", name)
    texts = c.texts
    lowered = [t.lower() for t in texts]
    if name in _EVERYDAY or name.rsplit("/", 1)[-1] in _ON_DEMAND:
        return None
    if name in ("svc", "s6-svc", "runsvctl", "daemontools-svc") and any(
            re.fullmatch(r"-[a-zA-Z]*[dkx][a-zA-Z]*", t) for t in texts):
        scope = any(any(ch in t for ch in "*?") for t in texts if not t.startswith("-"))
        return (HIGH if scope else MEDIUM), f"{c.prog} takes down what the supervisor runs" \
            f"{' (every service the glob names)' if scope else ''} ({c.text})"
    if name == "s6-rc" and "change" in lowered and any(re.fullmatch(r"-[a-z]*d[a-z]*", t) for t in texts):
        return MEDIUM, f"s6-rc brings services down ({c.text})"
    if name == "start-stop-daemon" and ("--stop" in texts or any(re.fullmatch(r"-[a-zA-Z]*K[a-zA-Z]*", t)
                                                                 for t in texts)):
        forced = any("kill" in t.lower() for t in texts)
        return MEDIUM, f"start-stop-daemon stops a daemon{' and kills it if it lingers' if forced else ''} ({c.text})"
    if name.startswith("lxc-stop") and ("--kill" in texts or any(re.fullmatch(r"-[a-zA-Z]*k[a-zA-Z]*", t)
                                                                 for t in texts)):
        return MEDIUM, f"lxc-stop --kill kills the container's processes at once ({c.text})"
    if name in ("tsp", "ts", "task-spooler") and any(re.fullmatch(r"-[a-zA-Z]*K[a-zA-Z]*", t) for t in texts):
        return MEDIUM, f"{c.prog} -K kills the task spooler's server with every queued job ({c.text})"
    signal = next((texts[k + 1].lower() for k, t in enumerate(texts[:-1]) if t in ("-s", "-k")), "")
    if signal in _STOP_WORDS | {"quit"}:  # `nginx -s quit`, `httpd -k graceful-stop`
        return MEDIUM, f"{c.prog} {texts[texts.index('-s') if '-s' in texts else texts.index('-k')]} {signal} " \
            f"stops the server for every client ({c.text})"
    if name in ("atrm", "at") and (name == "atrm" or set(lowered) & {"-r", "-d"}) and (
            c.xargs and any(f.words and f.words[0].text == "atq" for f in c.chain) or
            any("atq" in w.raw for w in c.args)):
        return MEDIUM, f"removes every scheduled job the queue lists ({c.text})"
    said = _console_stop(c)
    if said is not None:
        return MEDIUM, f"{c.prog} is told to {said}: the server stops for every client ({c.text})"
    ops = _operands(texts)
    has_path = "/" in raw_name or raw_name.startswith("$")
    if ops and _FUSED_STOP.fullmatch(ops[0]) and (has_path or c.sudo or _CONTROL_NAME.search(name)):
        return MEDIUM, f"{c.prog} {ops[0]} stops the server it controls, for every client ({c.text})"
    if ops and (ops[0] in _STOP_WORDS or len(ops) > 1 and ops[0] in _SCOPE_WORDS and ops[1] in _STOP_WORDS):
        word = ops[0] if ops[0] in _STOP_WORDS else ops[1]
        after = ops[ops.index(word) + 1:]
        whole = all(t in _MODIFIERS for t in after)  # `rndc stop`, not `virsh shutdown web01` (a guest by name)
        quits = word in ("quit", "quit-nicely")  # a player or a client quits too: only a server's controller
        controller = re.search(r"(ctl|control|adm|admin)$", name) if quits else _CONTROL_NAME.search(name)
        if has_path or whole and (c.sudo or controller or not known and not quits):
            if "--help" in lowered or "-h" in lowered and len(lowered) == 2:
                return None
            return MEDIUM, f"{c.prog} {word} stops the server it controls, for every client ({c.text})"
    if _STOP_SCRIPT.search(base) and (has_path or name != base or c.sudo and not ops) and \
            name not in ("shutdown", "halt", "poweroff", "reboot"):  # the system's own: judged by their rules
        if set(lowered) & {"--help", "-h", "status"}:
            return None
        return MEDIUM, f"{c.prog} is a server's stop script: the server stops for every client ({c.text})"
    return None
