"""Effect: a daemon told to stop by its own binary or its admin console, in the shapes other rules do not read.

A server's own program stops the running one for every client when given a signal word
(``squid -k kill``, ``httpd -k interrupt``), a lone ``-k`` (``couchbase-server -k``), a stop option
with the running one's pid file (``uwsgi --stop /tmp/uwsgi.pid``, ``--stopwait``), a database shut
down by its admin tool (Firebird ``gfix -shut full -force 0``, ``-shut -attach 0``), a program named
for the stop with the verb inside its name told not to wait (``pcp_stop_pgpool -m fast``), a cluster's
per-daemon launcher (``hdfs --daemon stop namenode``, ``hadoop-daemon.sh stop datanode``), a worker pool's
``multi stop|stopwait|kill`` (``celery multi stopwait w1``) or an
omnibus control program's ``kill`` (``gitlab-ctl kill``).  Start, status, reload and check forms
stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.triggers import triggered_by
from aish.safety.rules.common import MEDIUM, Ctx

# Signal words a server's own `-k`/`-s` takes that end it (daemons.py reads stop/shutdown/graceful-stop).
_SIGNAL_WORDS = frozenset("kill interrupt terminate abort halt immediate fast-shutdown".split())
# A server's own name: `couchbase-server`, `ttserver`, `slapd`, `named`.
_SERVER_NAME = lazy(r"(^|[-_])server$|srv$|daemon$")
# Stop options of a server binary that name the running one (`--stop PIDFILE`, `--stopwait`).
_STOP_OPTIONS = frozenset("--stop --stopwait --stop-wait --halt --kill --graceful-stop --terminate -stop "
                          "-stopwait".split())
# A program named for the stop with the verb inside (`pcp_stop_pgpool`, `hbase_stop_master`, `run-stop-all`).
_VERB_INSIDE = lazy(r"^[a-z0-9]+[-_](stop|shutdown|halt)[-_][a-z0-9_-]+$")
_NO_WAIT = frozenset("fast immediate i f -f --force force abort all -a --all cluster".split())
# A cluster's per-daemon launcher: `hdfs --daemon stop namenode`, `hadoop-daemon.sh stop datanode`,
# `hbase-daemons.sh stop regionserver`, `yarn-daemon.sh stop nodemanager`.
_DAEMON_LAUNCHER = lazy(r"-daemons?(\.sh)?$")
_HADOOP_LIKE = frozenset("hdfs yarn mapred hbase hadoop zookeeper kafka ozone hive".split())
# Firebird's gfix, and the like: `-shut[down] [full|single|multi] -force|-attach|-tran N`.
_SHUT_OPTIONS = frozenset("-shut -shutdown --shutdown".split())
_SHUT_HOW = frozenset("-force -attach -tran -f -a -t".split())
# Omnibus control programs (`gitlab-ctl`, `chef-server-ctl`, `mattermost-ctl`): `kill` ends every service.
_OMNIBUS_CTL = lazy(r"^[a-z0-9][a-z0-9-]*-ctl$")
_CONSOLE_OPTIONS = frozenset({"-c", "-e", "-q", "-x", "--command", "--execute", "--eval"})
_CONSOLE_STOP = lazy(r"^\s*(shutdown|stop|halt)(\s+(immediate|abort|nowait|with\s+nowait|now|force|transactional))?"
                     r"\s*;?\s*$", re.IGNORECASE)
_CLIENTS = frozenset({"applications", "application", "connections", "sessions", "users", "clients"})
_CUT_OFF = lazy(r"^disable[-_]?(binary|gossip|thrift|transport|listeners?|clients?|connections?)$")
_QUIET = frozenset("--help --version --test status check configtest".split())


def _pid_file(texts: list, k: int) -> bool:
    return k + 1 < len(texts) and texts[k + 1].endswith((".pid", ".sock"))


def rule_own_binary_stop(c: Ctx) -> Optional[tuple]:
    """A daemon stopped by its own binary or console, for every client."""
    texts = c.texts
    if not texts or set(texts) & _QUIET:
        return None
    prog = c.prog.lower().removesuffix(".exe")
    lowered = [t.lower() for t in texts]
    for k, t in enumerate(lowered[:-1]):
        if t in ("-k", "-s") and lowered[k + 1] in _SIGNAL_WORDS or \
                t in ("-sl", "--signal") and lowered[k + 1].split("=")[0] in _SIGNAL_WORDS | {"quit", "stop"}:
            return MEDIUM, f"{c.prog} {t} {lowered[k + 1]} ends the server at once, for every client ({c.text})"
        if t in _CONSOLE_OPTIONS and _CONSOLE_STOP.match(texts[k + 1]):  # `psql -p 6432 pgbouncer -c SHUTDOWN`
            return MEDIUM, f"{c.prog} tells the server's console to {texts[k + 1].strip()}: it stops for every " \
                f"client ({c.text})"
    if lowered == ["-k"] and _SERVER_NAME.search(prog):  # `couchbase-server -k`
        return MEDIUM, f"{c.prog} -k stops the running server for every client ({c.text})"
    for k, t in enumerate(lowered):
        if t in _STOP_OPTIONS and (_pid_file(texts, k) or t.endswith(("wait", "stopwait")) or
                                   _SERVER_NAME.search(prog)):
            return MEDIUM, f"{c.prog} {t} stops the running server for every client ({c.text})"
    if set(lowered) & _SHUT_OPTIONS and set(lowered) & _SHUT_HOW:  # `gfix -shut full -force 0 db.fdb`
        return MEDIUM, f"{c.prog} shuts the database down, ending every attachment ({c.text})"
    base = prog.removesuffix(".sh")
    if _VERB_INSIDE.match(base) and set(lowered) & _NO_WAIT:  # `pcp_stop_pgpool -m fast`
        return MEDIUM, f"{c.prog} stops the product at once, for every client ({c.text})"
    operands = [t for t in lowered if not t.startswith("-")]
    if operands[:1] == ["stop"] and (_DAEMON_LAUNCHER.search(prog) or
                                     prog in _HADOOP_LIKE and "--daemon" in lowered):
        return MEDIUM, f"{c.prog} stops the cluster's {' '.join(operands[1:2]) or 'daemon'} for every client ({c.text})"
    if operands[:1] == ["multi"] and operands[1:2] and operands[1] in ("stop", "stopwait", "kill"):
        return MEDIUM, f"{c.prog} multi {operands[1]} stops the named workers and what they run ({c.text})"
    kicked = next((k for k in range(len(operands) - 2) if operands[k] in ("force", "kill", "disconnect", "terminate")
                   and operands[k + 1] in _CLIENTS and operands[k + 2] == "all"), None)
    if kicked is not None:  # `db2 force applications all`
        return MEDIUM, f"{c.prog} {' '.join(operands[kicked:kicked + 3])} cuts every client off at once ({c.text})"
    off = next((t for t in operands[:2] if _CUT_OFF.match(t)), None)
    if off is not None:  # `nodetool disablebinary`: the node stops serving clients or peers
        return MEDIUM, f"{c.prog} {off} stops the node serving its clients or peers ({c.text})"
    if (operands[:1] == ["drain"] or operands[:2] == ["node", "drain"]) and "--shutdown" in lowered:
        return MEDIUM, f"{c.prog} drain --shutdown drains the node and stops it ({c.text})"  # `cockroach node drain`
    if _OMNIBUS_CTL.match(prog) and operands == ["kill"]:  # `gitlab-ctl kill`; `kill nginx` is one service
        return MEDIUM, f"{c.prog} kill ends every service it runs at once ({c.text})"
    return None


# Only lines that say one of these words reach the rule.
_MAY = lazy(r"stop|shut|kill|halt|interrupt|terminate|abort|(^| )-k( |$)|quit|force|disable")


@triggered_by(_MAY, otherwise=False)
def may_stop(c: Ctx) -> bool:
    """One search of the lowered line (and the name) before the rule reads the words."""
    return bool(_MAY.search(c.prog.lower()) or _MAY.search(c.lowered))
