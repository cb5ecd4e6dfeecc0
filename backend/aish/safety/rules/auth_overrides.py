"""Effect: a server started with its authentication off or open to all, by a setting given on its
command line or in its environment.

Servers take their configuration as overrides where they start: ``cfg:KEY=VALUE`` (Grafana),
``--override KEY=VALUE`` (Kafka), ``-DKEY=VALUE`` and ``-EKEY=VALUE`` (the JVM, Cassandra,
Elasticsearch), ``--KEY=VALUE`` and ``VAR=VALUE`` before the program.  The key's words say which way is
open: an authentication or access check set false (``…jmxremote.authenticate=false``,
``INFLUXDB_HTTP_AUTH_ENABLED=false``), anonymous or everyone allowed (``auth.anonymous.enabled=true``,
``allow.everyone.if.no.acl.found=true``), an allow-all authenticator (``AllowAllAuthenticator``), a VNC
server with no security type (``-SecurityTypes None``), an X server listening on TCP with access
control off (``-listen tcp -ac``; a nested ``Xephyr -ac`` on the local socket is everyday), ``x11vnc
-nopw``, Prometheus' admin API (``--web.enable-admin-api``: anyone reaching it deletes series), and
development servers (Consul, Vault, Nomad ``-dev``: no ACLs, a known root token) on every address.
The same settings set the safe way, and servers started with no override, stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import MEDIUM, Ctx

_ASSIGN = re.compile(r"^[A-Za-z_]\w*=")
# Where an override's `KEY=VALUE` is: after these options, or fused to them.
_OVERRIDE_OPTIONS = frozenset({"--override", "--set", "--conf", "-c", "-o", "--config-override", "--property",
                               "-p", "-e", "--env", "--define"})
_FUSED = re.compile(r"^(cfg:|-D|-E|--(?=[\w.-]+=))")
# The key's last words: an access check (weaker when false) or an opening (weaker when true).
_CHECK_WORDS = frozenset({"auth", "authentication", "authenticate", "authorization", "security", "acl", "acls",
                          "authz", "authn", "require_auth", "requireauth", "auth_enabled", "login_required",
                          "protected_mode", "protectedmode"})
_CHECK_SUFFIXES = ("authentication", "authenticate", "authorization", "security")
_STATE_WORDS = frozenset({"enabled", "enable", "required", "require", "on", "active"})
_OPENING = lazy(r"(^|[._-])(anonymous|allow[._-]?everyone\w*|allow[._-]?anonymous|allow[._-]?all|"
                r"skip[._-]?(auth|acl)\w*|no[._-]?auth|disable[._-]?auth\w*|auth[._-]?disabled|"
                r"disable[._-]?\w*(csrf|protection|security)\w*)([._-](enabled|enable|"
                r"access|found|\w+))*$")
_FALSE = frozenset({"false", "0", "no", "off", "none", "disabled", "disable", "''", '""'})
_TRUE = frozenset({"true", "1", "yes", "on", "enabled", "enable"})
_SWITCHES = {"-nopw": "serves the desktop with no password", "--i-know-this-is-insecure": "runs with no security",
             "--web.enable-admin-api": "opens the admin API (anyone reaching it deletes data)",
             "--no-auth": "runs with no authentication", "--noauth": "runs with no authentication",
             "--disable-auth": "runs with no authentication", "--auth=none": "runs with no authentication"}
_X_SERVERS = lazy(r"^(x|xorg|xvfb|xephyr|xvnc|xwayland|xnest|xdummy|xpra|xquartz|xwin|vcxsrv|xming)(\.exe)?$")
_DEV_SERVERS = frozenset({"consul", "vault", "nomad", "boundary", "waypoint"})
_EVERY_ADDRESS = lazy(r"(^|[=:\s/])(0\.0\.0\.0|\[?::\]?)(:\d+)?$")


def _pairs(c: Ctx) -> list:
    """The ``(key, value)`` overrides on the line: fused, after an override option, or before the program."""
    pairs = []
    lead = c.seg.words[:max(0, len(c.seg.words) - len(c.words))]
    for w in lead:
        if _ASSIGN.match(w.text):
            key, _, value = w.text.partition("=")
            pairs.append((key, value))
            for piece in value.split():  # JAVA_OPTS="-Dcom.sun.management.jmxremote.authenticate=false"
                fused = _FUSED.match(piece)
                if fused and "=" in piece:
                    pairs.append(tuple(piece[fused.end():].partition("=")[0::2]))
    texts = c.texts
    for k, t in enumerate(texts):
        body = None
        fused = _FUSED.match(t)
        if fused and "=" in t:
            body = t[fused.end():]
        elif k and texts[k - 1] in _OVERRIDE_OPTIONS and "=" in t:
            body = t
        if body:
            key, _, value = body.partition("=")
            pairs.append((key, value))
    return pairs


def _opens(key: str, value: str) -> bool:
    key, value = key.lower(), value.lower().strip("'\" ")
    if value.startswith("allowall"):
        return True  # cassandra.authenticator=AllowAllAuthenticator
    if key.endswith("securitytypes") and value == "none":
        return True
    if re.search(r"(super|admin)[._-]?users?$", key) and ("anonymous" in value or value in ("*", "user:*")):
        return True  # kafka's super.users=User:ANONYMOUS: every unauthenticated caller is an admin
    words = re.split(r"[._-]", key)
    while words and words[-1] in _STATE_WORDS:
        words = words[:-1]
    if words and (words[-1] in _CHECK_WORDS or words[-1].endswith(_CHECK_SUFFIXES)) and value in _FALSE:
        return True  # jmxremote.authenticate=false, sonar.forceAuthentication=false, http-auth-enabled=false
    return bool(_OPENING.search(key)) and value in _TRUE


def rule_auth_overridden(c: Ctx) -> Optional[tuple]:
    """A server told on its command line or in its environment to let anyone in."""
    name = c.prog.lower()
    lowered = [t.lower() for t in c.texts]
    if {"--help", "-h", "--version"} & set(lowered):
        return None
    for key, value in _pairs(c):
        if _opens(key, value):
            return MEDIUM, f"{c.prog} starts with {key}={value}: its authentication is off or open to all " \
                f"({c.text})"
    for k, t in enumerate(lowered):
        if t == "-securitytypes" and k + 1 < len(lowered) and lowered[k + 1] == "none":
            return MEDIUM, f"{c.prog} serves with no security type: anyone who connects gets the desktop ({c.text})"
        if t in _SWITCHES:
            return MEDIUM, f"{c.prog} {_SWITCHES[t]} ({c.text})"
    if "-ac" in lowered and _X_SERVERS.match(name) and ("tcp" in lowered or name in ("xvnc", "xpra")):
        return MEDIUM, f"{c.prog} -ac switches the X server's access control off: any client may connect ({c.text})"
    if name in _DEV_SERVERS and "-dev" in lowered and any(_EVERY_ADDRESS.search(t) for t in lowered):
        return MEDIUM, f"{c.prog} in -dev mode (no ACLs, a known root token) on every address ({c.text})"
    return None


def may_override(c: Ctx) -> bool:
    """Anything here to read: an assignment, a fused override or one of the switches."""
    low = c.lowered
    return "=" in low or len(c.seg.words) > len(c.words) or "-" in low and (
        "-ac" in low or "-dev" in low or "securitytypes" in low or any(s in low for s in _SWITCHES))
