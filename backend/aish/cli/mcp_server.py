"""``aish mcp-server``: the agents' bridge, an MCP server on stdio built on the official SDK.

A coding agent (Claude Code, Codex CLI, Gemini CLI, Copilot CLI...) starts it as one of its
MCP servers; it is then one more client of the user's own daemon, like ``aish ask``: each
tool call is one request over the runtime directory's FIFOs (docs/protocol.md), and the
daemon answers from the user's real shells (app/bridge).  No network listener, nothing run
by aish: a proposed command lands on the user's prompt line, and the user runs it.

The SDK is imported here only, and only once the daemon has been reached: neither the CLI's
other commands nor the daemon load it (a test checks).
"""
# (no `from __future__ import annotations`: the SDK reads the tools' annotations at run time)
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Any, Callable, Optional

from aish.errors import AishError, Cancelled, ConfigError

INSTRUCTIONS = """\
aish gives you the user's real, interactive shell: the one they type in, with its aliases,
functions, virtualenv, credentials and history. shell_context tells you where it stands
(cwd, recent commands with exit statuses and durations, git state); last_output gives you
exactly what the last command printed (or says why it cannot). propose_command puts a
command on that shell's prompt line for the user to run, edit or dismiss, and tells you
what actually ran and what it printed. Nothing runs unless the user presses Enter.
Secrets appear as <secret:N> placeholders: keep them as they are in proposed commands
(aish puts the real values back on the user's prompt line)."""

SHELL_ARG = ("the shell to use: its name (zsh-1234, or the AISH_NAME set in it), pid, tty "
             "(pts/3) or tmux pane (%3), or zsh / bash for the latest of that kind; empty: the "
             "most recently active one")
_PROGRESS_TOTAL = None  # proposals have no known length: progress counts the steps


def _CANDIDATES(uid: int) -> list[Path]:
    """Where a login's shells have the runtime dir: systemd's XDG_RUNTIME_DIR, else the temp dir."""
    return [Path(f"/run/user/{uid}/aish"), Path(os.environ.get("TMPDIR") or "/tmp") / f"aish-{uid}",
            Path(f"/tmp/aish-{uid}")]


def _runtime_dir() -> Path:
    """The runtime dir the user's shells use.  An agent may start this server with a small
    environment (the MCP SDK's stdio client passes a few variables, Codex a fixed list), so
    without ``XDG_RUNTIME_DIR`` the directory is looked for where the shells would have it."""
    from aish import paths
    from aish.daemon import runtime

    if os.environ.get("AISH_RUNTIME_DIR") or os.environ.get("XDG_RUNTIME_DIR"):
        return paths.runtime_dir()
    for path in _CANDIDATES(os.getuid()):
        try:
            if runtime.is_running(path) or (path / "agents").exists():
                os.environ["AISH_RUNTIME_DIR"] = str(path)  # the daemon it starts uses it too
                return paths.runtime_dir()
        except OSError:
            continue
    return paths.runtime_dir()


def _parent_name() -> str:
    """The agent's process name (``claude``, ``codex``, ``node``...) until it says its own."""
    try:
        with open(f"/proc/{os.getppid()}/comm", encoding="utf-8") as fh:
            return fh.read().strip() or "agent"
    except OSError:
        return "agent"


class DaemonLink:
    """Requests to the daemon on the agent's behalf (``agents --ACTION``), one Client each,
    so tool calls running at once never share a reply FIFO."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.pid = os.getpid()

    def call(self, action: str, fields: Optional[dict] = None, *,
             on_status: Callable[[str], None] = lambda line: None,
             stop: Optional[Callable[[], bool]] = None, idle: Optional[float] = None) -> dict:
        from aish.daemon.client import Client
        from aish.ipc.protocol import Request

        extra = {"agent": self.name, "agent_pid": str(self.pid), **(fields or {})}
        request = Request(kind="verb", conv=f"agent-{self.pid}", shell="agent", cwd=os.getcwd(),
                          argv=["agents", f"--{action}"], extra=extra)
        errors: list[tuple[str, str, str]] = []

        def on_frame(frame) -> None:
            if frame.tag in ("S", "W") and frame.fields:
                on_status(frame.fields[0].removeprefix("[aish] "))
            elif frame.tag == "E":
                fields_ = list(frame.fields) + ["", "", ""]
                errors.append((fields_[0], fields_[1] or "error", fields_[2]))

        with Client() as client:
            result = client.request(request, on_frame=on_frame, stop=stop, idle=idle)
        if errors:
            message, kind, hint = errors[-1]
            err = AishError(message, hint=hint or None)
            err.kind = kind
            raise err
        if result.get("cancelled"):
            raise Cancelled()
        return result


def _client_name(ctx: Any) -> str:
    """The name the agent gave in its initialize request (``clientInfo.name``), if any."""
    try:
        return str(ctx.session.client_params.client_info.name or "")
    except AttributeError:
        return ""


def _import_sdk():
    try:
        import anyio
        from mcp.server.mcpserver import Context, MCPServer
        from mcp_types import CallToolResult, TextContent, ToolAnnotations
    except ImportError as err:
        raise ConfigError(f"aish mcp-server needs the MCP Python SDK ({err.name or 'mcp'} is missing)",
                          hint="python3 -m pip install 'mcp>=2.3'") from None
    return anyio, Context, MCPServer, CallToolResult, TextContent, ToolAnnotations


def build(link: DaemonLink, propose_idle: float = 3600.0) -> Any:
    """The SDK server with aish's three tools, each one request to the daemon."""
    anyio, Context, MCPServer, CallToolResult, TextContent, ToolAnnotations = _import_sdk()
    from aish.version import __version__

    server = MCPServer("aish", instructions=INSTRUCTIONS, version=__version__)

    def result(data: dict, error: bool = False) -> Any:
        text = data.pop("text", "") if isinstance(data, dict) else str(data)
        return CallToolResult(content=[TextContent(type="text", text=text)],
                              structured_content=None if error else data, is_error=error)

    async def call(ctx: Any, action: str, fields: dict, idle: Optional[float] = None) -> Any:
        """One request in a worker thread; an MCP cancel (the agent withdrew the call) stops it
        and cancels it in the daemon, which withdraws a proposal from the prompt line."""
        name = _client_name(ctx)
        if name:
            link.name = name  # the agent's own name, from its initialize request
        stop = threading.Event()
        step = [0]

        def progress(line: str) -> None:
            step[0] += 1
            try:
                anyio.from_thread.run(ctx.report_progress, step[0], _PROGRESS_TOTAL, line)
            except Exception:  # no progress token, or the call was abandoned: only a nicety
                pass

        try:
            data = await anyio.to_thread.run_sync(
                lambda: link.call(action, fields, on_status=progress, stop=stop.is_set, idle=idle),
                abandon_on_cancel=True)
        except anyio.get_cancelled_exc_class():
            stop.set()
            raise
        except Cancelled:
            return result({"text": "cancelled"}, error=True)
        except AishError as err:
            return result({"text": err.one_line()}, error=True)
        return result(data)

    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=False)

    @server.tool(name="shell_context", annotations=read_only, description=(
        "Where the user's real shell stands: its working directory, the recent commands with "
        "their exit statuses and durations, the command running now, git state, and the other "
        f"shells aish knows. shell: {SHELL_ARG}."))
    async def shell_context(ctx: Context, shell: str = "") -> Any:  # type: ignore[valid-type]
        return await call(ctx, "context", {"target": shell})

    @server.tool(name="last_output", annotations=read_only, description=(
        "What the last command in the user's shell printed: exactly its output, bounded by the "
        "shell's own marks, or nothing with the reason (aish never guesses from the screen, "
        f"never runs it again). shell: {SHELL_ARG}."))
    async def last_output(ctx: Context, shell: str = "") -> Any:  # type: ignore[valid-type]
        return await call(ctx, "output", {"target": shell})

    @server.tool(name="propose_command", annotations=ToolAnnotations(
        read_only_hint=False, destructive_hint=False, open_world_hint=False), description=(
        "Put a command on the prompt line of the user's shell, with your reason shown above it, "
        "for the user to run, edit or dismiss; aish judges its risk (a high-risk one needs a "
        "second Enter). Nothing runs unless the user presses Enter. Returns once the user "
        "acted: the command that actually ran (maybe edited), its exit status, duration and "
        "output; or that it was dismissed, withdrawn (cancel this call to withdraw it) or that "
        "the wait ran out. One proposal per shell at a time. Use it for commands that need the "
        "user's environment (aliases, virtualenv, credentials) or that the user should see. "
        f"shell: {SHELL_ARG}. timeout_seconds: the longest to wait (0: aish's "
        "agents.propose_timeout, which also caps it)."))
    async def propose_command(ctx: Context, command: str, reason: str = "",  # type: ignore[valid-type]
                              shell: str = "", timeout_seconds: float = 0) -> Any:
        fields = {"target": shell, "command": command, "reason": reason,
                  "timeout": str(max(timeout_seconds, 0))}
        return await call(ctx, "propose", fields, idle=propose_idle)

    return server


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def serve() -> int:
    """Run until the agent closes stdin; the daemon hears hello first and goodbye last."""
    _runtime_dir()
    link = DaemonLink(_parent_name())
    # Agents stop their servers with SIGTERM (Claude Code's health check does), a closing
    # terminal with SIGHUP: either one ends the run as Ctrl-C does, so goodbye is still said.
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _interrupt)
    interrupted = False
    try:
        link.call("hello")  # starts the daemon if needed, before the SDK (and its threads) load
        build(link).run("stdio")
    except KeyboardInterrupt:
        interrupted = True
    finally:
        try:
            link.call("bye")
        except (AishError, Cancelled, OSError, KeyboardInterrupt):
            pass
    if interrupted:  # the SDK reads stdin in a thread that a signal does not wake: leave now
        sys.stdout.flush()
        os._exit(0)
    return 0
