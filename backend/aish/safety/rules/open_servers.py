"""Effect: a server's own access checks switched off, for any server and however it is told.

A database, cache, broker or control API that normally asks who is calling is told not to: in
its flags (``redis-server --protected-mode no``, ``mongod --noauth``, ``mysqld --skip-grant-tables``,
``code-server --auth none``, ``kubelet --anonymous-auth=true``), in the environment a container
image reads (``-e POSTGRES_HOST_AUTH_METHOD=trust``, ``MYSQL_ALLOW_EMPTY_PASSWORD=yes``), at its own
prompt (``redis-cli CONFIG SET protected-mode no``), or in a line written into its configuration by
any writer (``protected-mode no`` in ``redis.conf``, ``trust`` in ``pg_hba.conf``,
``xpack.security.enabled: false``, ``allow_anonymous true``).  The Docker API on a plain TCP port
and cluster-admin given to anonymous callers are root on the machine or the cluster for anyone
who reaches them (high).  Reading a setting, or the same servers on loopback with their checks
on, stays quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.lazy_regex import lazy

# One pass over the line's words decides whether anything here can apply (most lines leave at once).
TRIGGER = lazy(r"protected-mode|requirepass|noauth|no-auth|disable-auth|skip-auth|auth[= ]none|"
                      r"skip[-_]grant[-_]tables|xpack\.security\.enabled|auth_method=trust|allow_empty|--insecure|"
                      r"anonymous|alwaysallow|tcp://(0\.0\.0\.0|\[?::\]?|\*)?:2375|bind_ip|"
                      r"system:unauthenticated|accept-hosts|security\.disabled|neo4j_auth=none|:default\b|"
               r"memcached|listen-client-urls|app\.token|app\.password|provider\.token",
                      re.IGNORECASE)
_DOCKER_TCP = re.compile(r"(^|[\s\"'=])tcp://(0\.0\.0\.0|\[?::\]?|\*)?:2375\b", re.IGNORECASE)
_NO_LOGIN = re.compile(r"(^|\s)--(noauth|no-auth|disable-auth|skip-auth)\b|(^|\s)--auth[= ]none\b", re.IGNORECASE)
# Bound to loopback only: no login is how a local dev server runs
# (`code-server --bind-addr 127.0.0.1:8080 --auth none`).
_LOOPBACK_ONLY = lazy(r"(^|[\s=])(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(\s|$)", re.IGNORECASE)
_DOCKER_WHY = "serves the Docker API on a plain TCP port: whoever reaches it is root on this machine"
# (pattern over the joined words, level, what it means)
_SETTINGS: list = [
    (re.compile(r"(^|\s)--protected-mode[= ]no\b", re.IGNORECASE), MEDIUM,
     "starts Redis with its protected mode off: anyone who reaches it may read and write it"),
    (_NO_LOGIN, MEDIUM, "starts a server that asks nobody to log in"),
    (re.compile(r"--(NotebookApp|ServerApp|IdentityProvider)\.(token|password)=(''|\"\")?(\s|$)"), MEDIUM,
     "starts a notebook server with no token: anyone who reaches it runs code as you"),
    (re.compile(r"(^|\s)--skip[-_]grant[-_]tables\b", re.IGNORECASE), MEDIUM,
     "starts MySQL without its privilege tables: anyone who connects is root"),
    (re.compile(r"xpack\.security\.enabled[=:]\s*false\b|plugins\.security\.disabled[=:]\s*true\b|"
                r"DISABLE_SECURITY_PLUGIN=true\b", re.IGNORECASE), MEDIUM,
     "switches the search cluster's logins off"),
    (re.compile(r"\b(POSTGRES_HOST_AUTH_METHOD=trust|(MYSQL|MARIADB)_ALLOW_EMPTY_(ROOT_)?PASSWORD=(yes|true|1)|"
                r"ALLOW_EMPTY_PASSWORD=(yes|true|1)|NEO4J_AUTH=none)\b", re.IGNORECASE), MEDIUM,
     "starts a database that lets anyone log in without a password"),
    (re.compile(r"\bGF_AUTH_ANONYMOUS_ENABLED=true\b", re.IGNORECASE), MEDIUM,
     "lets anyone into the dashboard without logging in"),
    (re.compile(r"(^|\s)--insecure\b.*--(listen-addr|host|bind|advertise-addr)[= ](0\.0\.0\.0|::|\*)|"
                r"--(listen-addr|host|bind)[= ](0\.0\.0\.0|::|\*)\S*.*(^|\s)--insecure\b"), MEDIUM,
     "starts a server in insecure mode on every address: no TLS and no logins"),
    (re.compile(r"--anonymous-auth[= ]true\b|--authorization-mode[= ]\S*AlwaysAllow\b", re.IGNORECASE), MEDIUM,
     "lets anonymous callers use the node's API"),
    (_DOCKER_TCP, HIGH, _DOCKER_WHY),
]
# A role bound to every anonymous caller (`kubectl create clusterrolebinding … --group=system:unauthenticated`,
# `oc adm policy add-cluster-role-to-user … system:anonymous`)
_ANONYMOUS = lazy(r"system:(unauthenticated|anonymous)\b", re.IGNORECASE)
_BINDS = lazy(r"rolebinding|add-(cluster-)?role-to-(user|group)", re.IGNORECASE)
# At a client's prompt or as a one-shot command: `CONFIG SET protected-mode no`, `config set requirepass ''`
_CONFIG_SET = lazy(r"\bconfig\s+set\s+(protected-mode\s+no\b|requirepass\s*(''|\"\")?\s*$)", re.IGNORECASE)


def rule_access_off(c: Ctx) -> Optional[tuple]:
    """A server told, on its own line, to stop checking who calls it."""
    joined = " ".join(c.texts)
    if not TRIGGER.search(joined) and not TRIGGER.search(c.prog):
        return None
    if _CONFIG_SET.search(joined):
        return MEDIUM, f"switches the server's password or protected mode off while it runs ({c.text})"
    for pattern, level, what in _SETTINGS:
        if pattern is _NO_LOGIN and _LOOPBACK_ONLY.search(joined) and "0.0.0.0" not in joined:
            continue
        if pattern.search(joined):
            return level, f"{what} ({c.text})"
    if _ANONYMOUS.search(joined) and _BINDS.search(joined):
        return HIGH, f"gives a role to every anonymous caller of the cluster's API ({c.text})"
    if _BINDS.search(joined) and "cluster-admin" in joined and re.search(r"--serviceaccount[= ]\S+:default\b", joined):
        return MEDIUM, f"makes every pod that runs as the default service account an admin of the cluster ({c.text})"
    prog = c.prog.lower()
    every_address = re.search(r"--bind_ip_all\b", joined) or prog == "mongod" and \
        re.search(r"--bind_ip[= ]\S*0\.0\.0\.0", joined)
    if every_address and "--auth" not in c.texts and prog != "--auth":  # a container's command: `mongo:7 --auth …`
        return MEDIUM, f"starts MongoDB on every address without --auth: anyone who reaches it may read it ({c.text})"
    if prog == "memcached" and re.search(r"(^|\s)(-l|--listen)[= ]?(0\.0\.0\.0|::|\*)(\s|,|:|$)", joined):
        return MEDIUM, f"starts memcached, which has no login, on every address ({c.text})"
    if prog == "etcd" and re.search(r"--listen-client-urls[= ]\S*http://(0\.0\.0\.0|\[::\])", joined):
        return MEDIUM, f"serves etcd's keys over plain http on every address, to anyone who reaches it ({c.text})"
    if prog == "kubectl" and c.texts[:1] == ["proxy"] and "--accept-hosts" in joined and \
            re.search(r"--address[= ](0\.0\.0\.0|::)", joined):
        return MEDIUM, f"serves the cluster's API with your credentials to every host that reaches it ({c.text})"
    return None


# Lines written into a server's configuration, by any writer (read by `meaning`).
FILES = [
    (re.compile(r"^.*/redis[\w.-]*\.conf$"),
     [(re.compile(r"^\s*protected-mode\s+no\b|^\s*requirepass\s*(''|\"\")?\s*$", re.IGNORECASE | re.MULTILINE), MEDIUM,
       "lets anyone who reaches Redis read and write it")], None, ""),
    (re.compile(r"^.*/(my\.cnf|mysql/.*\.cnf|mariadb/.*\.cnf|my\.cnf\.d/.*)$"),
     [(re.compile(r"skip[-_]grant[-_]tables", re.IGNORECASE), MEDIUM,
       "MySQL starts without its privilege tables: anyone who connects is root")], None, ""),
    (re.compile(r"^.*/pg_hba\.conf$"),
     [(re.compile(r"^\s*host\w*\s+all\s+all\s+(0\.0\.0\.0/0|::/0|all|samenet)\s+trust\b", re.IGNORECASE | re.MULTILINE),
       HIGH, "lets anyone on the network log in to PostgreSQL as any user without a password"),
      (re.compile(r"(^|\s)trust\s*$", re.IGNORECASE | re.MULTILINE), MEDIUM,
       "lets PostgreSQL users log in without a password")], None, ""),
    (re.compile(r"^.*/mongod\.conf$"),
     [(re.compile(r"authorization\s*:\s*[\"']?disabled|bindIpAll\s*:\s*true", re.IGNORECASE), MEDIUM,
       "MongoDB stops asking who connects, or listens on every address")], None, ""),
    (re.compile(r"^.*/(elasticsearch|opensearch)\.yml$"),
     [(re.compile(r"xpack\.security\.enabled\s*:\s*false|plugins\.security\.disabled\s*:\s*true", re.IGNORECASE),
       MEDIUM, "switches the search cluster's logins off")], None, ""),
    (re.compile(r"^.*/mosquitto(\.conf|/conf\.d/.*)$"),
     [(re.compile(r"^\s*allow_anonymous\s+true", re.IGNORECASE | re.MULTILINE), MEDIUM,
       "lets anyone publish and subscribe to the broker")], None, ""),
    (re.compile(r"^.*/vsftpd\.conf$"),
     [(re.compile(r"^\s*anon_(upload|mkdir_write)_enable\s*=\s*YES|^\s*anonymous_enable\s*=\s*YES",
                  re.IGNORECASE | re.MULTILINE), MEDIUM, "lets anyone log in to the FTP server")], None, ""),
    (re.compile(r"^(/etc/docker/daemon\.json|~/\.docker/daemon\.json|/etc/default/docker|"
                r"/etc/systemd/system/docker\.service(\.d/.*)?)$"),
     [(_DOCKER_TCP, HIGH, _DOCKER_WHY)], None, ""),
]
