"""Effect: a server, a broker or a range of instances stopped, or a cluster's data cleaned, said by a program
no rule names, in its own name or in the target it is given.

- A program named for stopping a server or a cluster (``xyz-server-stop``, ``gateway-server-stop``,
  ``stop-cluster.sh``, ``meshd-broker-stop``): it stops the server for every client, and run through a
  fan-out shell (``pdsh -w host[01-06] xyz-server-stop``) on every host.
- A program named for cleaning a node, a cluster or a store (``nodeclean``, ``lsfnodeclean``,
  ``cleanup-cluster.sh``, ``dbclean --all``), or any cleanup script or program told to take everything
  (``abc-cleanup.sh --all``, ``cwltool-clean --all``); one named for what is cheap (``dot_clean -f DIR``: the
  AppleDouble files, ``tmpclean``) stays quiet.  A name joining reset or clean with a store or a server among
  other words (``zorg-server-reset``, ``clean-zorg-data.sh``) is read the same way; one that resets a password
  or the settings (``reset-user-password``) is not.
- A stop given a range of instances (``foo_multi stop 1-8``, ``fooctl stop node[01-08]``): every one of them.
- A stop whose target is a server's role (``xyzctl stop gateway``, ``brokerctl stop broker1``, ``mdsctl stop
  mds0``, ``… stop all-brokers``): what every client reaches goes away.  One app, container, VM or unit stopped
  by name (``pm2 stop app``, ``limactl stop vm1``) stays quiet, as docs/safety.md has it.

Status, start, help and listings stay quiet; names that only hold the letters (``stopwatch``, ``backstop``,
``nonstop``) do not say a stop.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.programs import READ_ONLY
from aish.safety.rules.action import is_option_value
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.state_cleared import BUILD_TOOLS
from aish.safety.rules.triggers import triggered_by
from aish.safety.verbs import PACKAGE_TOOLS

_ROLES = ("server|servers|broker|brokers|gateway|gateways|cluster|master|masters|namenode|datanode|controller|"
          "scheduler|coordinator|listener|database|db|mds|mgs|oss|mgmtd|metaserver|chunkserver|zookeeper|etcd|"
          "kdc|ldap|proxy|balancer|loadbalancer|ingress|registry|primary|leader|nodes|all|storage|meta|"
          "dfs|yarn|hbase|kafka|queue|mq|daemons|services|tracker|jobtracker|resourcemanager|nodemanager|node|"
          "ost|mdt|osd|bookie|tserver")
# `xyz-server-stop`, `stop-cluster.sh`, `meshd-broker-stop`: the stop verb beside a role, in either order.
_STOP_NAME = lazy(r"^(?:[\w.]+[-_])?(?:" + _ROLES + r")[-_](?:stop|shutdown|halt|kill)(?:[-_]\w+)?(?:\.sh)?$|"
                  r"^(?:stop|shutdown|halt|kill)[-_](?:[\w]+[-_])?(?:" + _ROLES + r")(?:[-_]\w+)?(?:\.sh)?$",
                  re.IGNORECASE)
_CLEAN_WHAT = ("node|nodes|cluster|clusters|db|data|database|storage|store|volume|volumes|disk|disks|user|users|"
               "job|jobs|queue|queues|index|indexes|scratch|home|homes|tenant|account|accounts|bucket|buckets|host|hosts")
# `nodeclean`, `cleanup-cluster.sh`, `dbclean`, `clean_nodes`: a clean verb fused or joined to what it takes.
_CLEAN_NAME = lazy(r"^[a-z]{0,4}(?:" + _CLEAN_WHAT + r")[-_]?clean(?:up)?(?:\.sh)?$|"
                   r"^clean(?:up)?[-_]?(?:" + _CLEAN_WHAT + r")(?:\.sh)?$|"
                   r"[-_](?:" + _CLEAN_WHAT + r")[-_]clean(?:up)?(?:\.sh)?$", re.IGNORECASE)
# `abc-cleanup.sh`, `cwltool-clean`, `anaconda-clean`: a cleanup program or script (its whole job is deleting).
_CLEANUP_SCRIPT = lazy(r"(?:^|[-_])clean(?:up)?(?:[-_]\w+)?\.(?:sh|bash|py|pl)$|[-_]clean(?:up)?$", re.IGNORECASE)
# What a cleanup named for it takes is cheap: temporary files, caches, builds.
_CHEAP_NAME = lazy(r"tmp|temp|cache|build|log|dist|pyc|docker|image|thumb|trash|orphan|branch|git|elm|dot",
                   re.IGNORECASE)
# The pieces of a program's name (`clean-zorg-data.sh`: clean, zorg, data) that say it cleans out or resets a
# store, a node or a server whole; what it only configures (a password, the settings) is not its data.
_EMPTIES = frozenset({"clean", "cleanup", "reset"})
_HOLDERS = frozenset(_CLEAN_WHAT.split("|")) | {"server", "servers", "broker", "brokers", "state", "instance"}
_PARTS_ONLY = frozenset({"password", "passwd", "pass", "pin", "settings", "setting", "config", "conf", "prefs",
                         "permissions", "perms", "counters", "stats", "tty", "term", "mfa", "otp", "color"})
_WHOLE = frozenset({"--all", "-a", "all", "-all", "--everything", "--force", "-f", "--yes", "-y"})
_LOOKS = frozenset({"status", "list", "ls", "show", "info", "help", "--help", "-h", "check", "--status", "-n",
                    "--dry-run", "--dryrun", "start", "--version", "-v"})
# `1-8`, `node[01-08]`, `{1..8}`, `1..8`, `web01-web08`: a range of instances.
_RANGE = lazy(r"^(?:\d+-\d+|\d+\.\.\d+|[\w.-]*\[\d+[-,]\d+[\d,-]*\][\w.-]*|\{\d+\.\.\d+\})$")
# A role given as the stop's target, a number after it allowed (`broker1`, `mds0`, `gateway-2`).
# (Not `server`, `primary`, `database`, `registry`: the names people give one app, VM or container.)
_ROLE_TARGET = lazy(r"^(?:all[-_]?)?(?:broker|gateway|cluster|namenode|datanode|controller|scheduler|coordinator|"
                    r"listener|mds|mgs|oss|mgmtd|metaserver|chunkserver|zookeeper|etcd|kdc|ldap|loadbalancer|"
                    r"jobtracker|resourcemanager|nodemanager)s?[-_]?\d*$", re.IGNORECASE)
# Managers of apps, containers and guests: what they stop is one app or guest by the name it was given
# (`multipass stop primary`, `pm2 stop server`, `lxc stop broker1`), whatever the name says.
_GUEST_MANAGERS = frozenset("""
pm2 forever lxc incus lxd multipass nerdctl podman docker docker-compose vagrant virsh vboxmanage limactl colima
heroku fly flyctl kubectl oc nomad systemctl service supervisorctl launchctl brew machinectl toolbox distrobox ctr
crictl balena finch orbctl qm pct prlctl sv rc-service runit s6-svc circusctl honcho foreman overmind
""".split())
_ALL_OF = lazy(r"^all[-_][a-z]+s$", re.IGNORECASE)  # `all-instances`, `all_workers`
_NAME_OPTIONS = frozenset({"--name", "-n", "--instance", "--server", "--service", "--component", "--role"})
_STOPS = frozenset({"stop", "shutdown", "halt", "kill", "stopall"})


@triggered_by(("stop", "shutdown", "halt", "kill", "clean", "reset"))
def rule_named_stop(c: Ctx) -> Optional[tuple]:
    """``xyz-server-stop``, ``nodeclean``, ``abc-cleanup.sh --all``, ``foo_multi stop 1-8``, ``xyzctl stop gateway``."""
    prog = c.prog.rsplit("/", 1)[-1]
    low = prog.lower()
    texts = c.texts
    lowered = {t.lower() for t in texts}
    if low in READ_ONLY or lowered & _LOOKS:
        return None
    if _STOP_NAME.match(low):
        return MEDIUM, f"{prog} stops the service it is named for: every client loses it ({c.text})"
    if _CLEAN_NAME.match(low):
        return MEDIUM, f"{prog} is named for cleaning out what it names: what is kept there is deleted ({c.text})"
    pieces = set(re.split(r"[-_.]", low)) - {"sh", "bash", "py", "pl", ""}
    if len(pieces) > 1 and pieces & _EMPTIES and pieces & _HOLDERS and not pieces & _PARTS_ONLY and \
            not _CHEAP_NAME.search(low):  # `clean-zorg-data.sh`, `zorg-server-reset`, `reset-db.sh`
        verb = "resetting" if "reset" in pieces else "cleaning out"
        return MEDIUM, f"{prog} is named for {verb} what it names: what is kept there is lost ({c.text})"
    if _CLEANUP_SCRIPT.search(low) and lowered & _WHOLE and not _CHEAP_NAME.search(low) and \
            not pieces & (BUILD_TOOLS | PACKAGE_TOOLS):  # `gradle-cleanup --force`, `brew-cleanup -f`: caches
        return MEDIUM, f"{prog} is a cleanup script told to take everything, without asking ({c.text})"
    if low in _GUEST_MANAGERS:
        return None
    operands = [t for k, t in enumerate(texts) if t[:1] != "-" and not (k and is_option_value(texts, k))]
    at = next((k for k, t in enumerate(operands[:3]) if t.lower() in _STOPS), None)
    if at is None:
        return None
    stop = operands[at]
    target = next((t for t in operands[at + 1:]), None) or next(
        (texts[k + 1] for k, t in enumerate(texts[:-1]) if t in _NAME_OPTIONS), None)  # `stop --name gateway`
    if target is None:
        return None
    if _RANGE.match(target):
        return MEDIUM, f"{prog} {stop} stops every instance in {target} at once ({c.text})"
    if _ROLE_TARGET.match(target) or _ALL_OF.match(target):
        return MEDIUM, f"{prog} {stop} stops {target}: everything that reaches it loses it ({c.text})"
    return None
