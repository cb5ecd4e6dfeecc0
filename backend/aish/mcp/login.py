"""``aish mcp login ALIAS`` / ``aish mcp login URL [ALIAS]``: which server, then the sign-in.

Runs in the CLI process (see ``aish.mcp.oauth``); returns the words of the ``mcp connect``
the CLI sends the daemon next, so the server is used at once with its new tokens.
"""
from __future__ import annotations

from typing import Any, Callable

from aish.errors import UsageError
from aish.mcp import oauth

USAGE = "aish mcp login ALIAS (a configured server) or aish mcp login URL [ALIAS]"


def login_command(args: list, say: Callable[[str], None], pasted: Any = None) -> list:
    from aish.config.load import load
    from aish.mcp.http_transport import check_url
    from aish.mcp.spec import check_alias, default_alias, from_config

    if not args or len(args) > 2:
        raise UsageError("which server?", hint=USAGE)
    cfg = load().mcp
    if "://" in args[0]:
        url = args[0]
        check_url(url)
        alias = args[1] if len(args) > 1 else default_alias(url)
        check_alias(alias)
        kind, connect = ("sse" if url.split("?", 1)[0].rstrip("/").endswith("/sse") else "http"), [url, alias]
    else:
        alias = args[0]
        server = cfg.servers.get(alias)
        if server is None or not server.url:
            configured = ", ".join(sorted(a for a, s in cfg.servers.items() if s.url)) or "none"
            raise UsageError(f"no remote server named '{alias}' is configured (remote ones: {configured})",
                             hint=USAGE)
        spec = from_config(server, server.transport, environ={})
        url, kind, connect = str(spec.url), spec.kind, [alias]
    tools = oauth.login(alias, url, kind, say, pasted=pasted,
                        max_bytes=int(float(cfg.max_message_mb) * 1024 * 1024))
    say(f"[aish] signed in to {alias} ({tools} tool{'s' if tools != 1 else ''}); "
        f"tokens kept in {oauth.token_path(alias, url)}")
    return connect
