"""What starting or reaching one server takes, resolved once: ``ServerSpec``.

Why a resolved form: a configured server is started from the daemon, a
run-time one (``aish mcp connect``) for a shell in its own directory with its
own environment.  Both end up as the same value, so "did the config change
what this server is" is an equality test, and a restart repeats exactly what
the first start did.

The environment of a stdio server is the SDK's safe default (HOME, LOGNAME,
PATH, SHELL, TERM, USER) plus what its config names, never the daemon's
whole environment (other providers' keys, aish's own settings).

What ``aish mcp connect`` names (a URL, a command, a configured or earlier alias) is
resolved here too (``for_target``), so the manager only ever handles specs.
"""
from __future__ import annotations

import hashlib
import os
import re
import shlex
import shutil
from dataclasses import dataclass
from typing import Mapping, Optional, Union

from aish.config.schema import McpServerConfig
from aish.errors import ToolError

SAFE_ENV = ("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER")  # as the SDK's stdio client
HANDSHAKE_FLOOR = 10.0  # seconds; a short call time-out is no reason to give a starting server less
_ALIAS = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


@dataclass(frozen=True)
class ServerSpec:
    alias: str
    kind: str  # "stdio", "http" (Streamable HTTP) or "sse" (the legacy HTTP+SSE transport)
    argv: tuple = ()
    env: tuple = ()  # sorted (name, value) pairs
    cwd: Optional[str] = None
    url: Optional[str] = None
    headers: tuple = ()  # (name, value) pairs; may hold a token: never shown
    timeout: float = 30.0
    origin: str = "config"  # or "runtime"
    roots: bool = True  # offered the shell's directory as roots (a config's `roots = false`: none)

    @property
    def target(self) -> str:
        """What ``aish mcp list`` shows: a token on a command line is masked."""
        if self.kind == "stdio":
            from aish.safety.secrets import mask

            return mask(" ".join(shlex.quote(str(a)) for a in self.argv))
        from aish.mcp.http_transport import display_url

        return display_url(str(self.url))


def safe_env(source: Mapping[str, Optional[str]]) -> dict:
    """The variables every stdio server gets, taken from ``source``."""
    out = {}
    for name in SAFE_ENV:
        value = source.get(name)
        if value is not None and not value.startswith("()"):  # exported shell functions: no
            out[name] = value
    return out


def from_config(server: McpServerConfig, transport: str = "auto",
                environ: Optional[Mapping[str, Optional[str]]] = None,
                origin: str = "config") -> ServerSpec:
    """The spec of a server table (``[mcp.servers.ALIAS]``), started from ``environ``."""
    environ = os.environ if environ is None else environ
    if server.command:
        argv = [os.path.expanduser(str(a)) if str(a).startswith("~") else str(a) for a in server.command]
        cwd = os.path.expanduser(server.cwd) if server.cwd else None
        env = {**safe_env(environ), **{str(k): str(v) for k, v in (server.env or {}).items()}}
        return ServerSpec(alias=server.alias, kind="stdio", argv=tuple(argv), cwd=cwd,
                          env=tuple(sorted(env.items())), timeout=server.timeout, origin=origin,
                          roots=server.roots)
    url = str(server.url or "")
    from aish.mcp.http_transport import check_url

    check_url(url)
    headers = {}
    token = server.auth_token or (environ.get(server.auth_env) if server.auth_env else None)
    if token:
        headers["Authorization"] = f"Bearer {token}"
    kind = transport if transport in ("http", "sse") else _guess_kind(server, url)
    return ServerSpec(alias=server.alias, kind=kind, url=url, headers=tuple(sorted(headers.items())),
                      timeout=server.timeout, origin=origin, roots=server.roots)


def _guess_kind(server: McpServerConfig, url: str) -> str:
    if server.transport in ("http", "sse"):
        return server.transport
    path = url.split("?", 1)[0].rstrip("/")
    return "sse" if path.endswith("/sse") else "http"


def runtime_stdio(alias: str, argv: list, cwd: str, environ: Mapping[str, Optional[str]],
                  env: Mapping[str, str], timeout: float = 30.0) -> ServerSpec:
    """A stdio server started for a shell: its cwd, its PATH, the variables it named."""
    if not argv:
        raise ToolError("a stdio server needs a command", hint="aish mcp connect --stdio ALIAS -- CMD [ARGS...]")
    program = str(argv[0])
    if "/" not in program:
        found = shutil.which(program, path=environ.get("PATH") or os.defpath)
        if found is None:
            raise ToolError(f"command not found: {program}",
                            hint="install it, or give its path (relative to this directory)")
        program = found
    elif not os.path.isabs(program) and cwd:
        program = os.path.normpath(os.path.join(cwd, program))
    full = {**safe_env(environ), **{str(k): str(v) for k, v in env.items()}}
    return ServerSpec(alias=alias, kind="stdio", argv=(program, *map(str, argv[1:])), cwd=cwd or None,
                      env=tuple(sorted(full.items())), timeout=timeout, origin="runtime")


def runtime_remote(alias: str, url: str, token: Optional[str], kind: str = "auto",
                   timeout: float = 30.0) -> ServerSpec:
    server = McpServerConfig(alias=alias, url=url, auth_token=token, timeout=timeout, transport=kind)
    return from_config(server, kind, environ={}, origin="runtime")


def check_alias(alias: str) -> None:
    if not _ALIAS.match(alias or ""):
        raise ToolError(f"alias '{alias}' is not usable",
                        hint="use letters, digits, '_' or '-' (no dots), at most 32 characters")


def default_alias(target: str) -> str:
    """No alias given: a short hash of the URL or command."""
    return "mcp_" + hashlib.sha256(target.encode("utf-8")).hexdigest()[:6]


def of_server(server: McpServerConfig) -> ServerSpec:
    """A configured server's spec; its alias is checked first (it names the tools)."""
    check_alias(server.alias)
    return from_config(server, server.transport)


def for_target(target: Union[str, list], alias: Optional[str], *, auth_env: Optional[str],
               cwd: Optional[str], environ: Optional[Mapping[str, Optional[str]]],
               env: Mapping[str, str], transport: str, configured: Mapping[str, McpServerConfig],
               known: Mapping[str, ServerSpec]) -> ServerSpec:
    """What ``aish mcp connect`` names, resolved: a configured alias, an alias connected
    earlier at run time (``known``), a URL, or a stdio argv started from the calling shell
    (its ``cwd``, its ``environ``, which also holds ``auth_env``)."""
    environ = os.environ if environ is None else environ
    if isinstance(target, str) and alias is None and "://" not in target:
        if target in configured:
            return of_server(configured[target])
        if target in known:
            return known[target]
        listed = ", ".join(sorted(configured)) or "none"
        raise ToolError(f"'{target}' is neither a URL nor a known server (configured: {listed})")
    if isinstance(target, str):
        if "://" not in target:
            raise ToolError(f"'{target}' is not a URL", hint="aish mcp connect URL [ALIAS]")
        alias = alias or default_alias(target)
        check_alias(alias)
        same = configured.get(alias)
        if same is not None and same.url == target and not auth_env:
            return of_server(same)
        token = None
        if auth_env:
            token = environ.get(auth_env)
            if not token:
                state = "withheld by the shell (its name looks secret)" if auth_env in environ else "not set"
                raise ToolError(f"{auth_env} is {state} where you ran the command",
                                hint=f"export {auth_env}, then run 'aish mcp connect' from that terminal")
        return runtime_remote(alias, target, token, transport)
    argv = [str(a) for a in target]
    alias = alias or default_alias(" ".join(argv))
    check_alias(alias)
    return runtime_stdio(alias, argv, cwd or os.getcwd(), environ, env)
