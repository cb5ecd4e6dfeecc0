"""The ``aish`` command: parses arguments and prints; the work happens elsewhere.

``main()`` owns errors and exit codes (``ExitStatus``; every ``AishError``
becomes one line on stderr and the exit status of its kind, whether it was raised
here or arrived in the daemon's ``E`` frame; Ctrl-C exits 130; anything unexpected
is logged to the state dir and reported as one line); commands raise ``Exit``.  Verbs that need daemon state (``cost``,
``route``, ``reset``...) are sent to the daemon, so they apply to the same
conversations and toggles the shells see.
"""
from __future__ import annotations

import json
import os
import sys
from typing import Optional

import click

from aish.cli import conversations
from aish.cli.exit_status import Exit, ExitStatus
from aish.cli.outcome import guarded
from aish.cli.printer import send as _send
from aish.cli.printer import stdin_text, tty
from aish.errors import AishError
from aish.ipc.verbs import BY_NAME, VERBS, Verb, help_lines, one_line_help
from aish.version import __version__

# ------------------------------------------------------------------ commands
@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="aish")
def cli() -> None:
    """aish: AI inside your shell. Ask, get a command on your prompt line, run it yourself."""


@cli.command(context_settings={"ignore_unknown_options": True})
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of streaming.")
@click.option("-c", "--continue", "cont", is_flag=True, help="Continue the last CLI conversation.")
@click.option("--conv", "conv", metavar="NAME", help="Use (or start) the conversation NAME.")
@click.option("--no-stdin", is_flag=True, help="Never read stdin (inside a `while read` loop).")
@click.argument("question", nargs=-1, required=True)
def ask(question: tuple, as_json: bool, cont: bool, conv: Optional[str], no_stdin: bool) -> None:
    """Ask a question; extra context is read from stdin when it is a pipe or a file.

    Run from a shell with aish loaded, it continues that shell's conversation;
    elsewhere each call is a conversation of its own unless -c or --conv says otherwise."""
    conversation = conversations.for_ask(conv, cont)
    _send("ask", text=" ".join(question), stdin=stdin_text(no_stdin), as_json=as_json,
          conv=conversation)


@cli.command()
@click.argument("shell", type=click.Choice(["zsh", "bash"]))
@click.option("--rc", is_flag=True, help="print the line for your rc file instead")
def init(shell: str, rc: bool) -> None:
    """Print the shell integration; (re)write the loader the rc line sources."""
    from aish.cli import scripts as shellscripts

    if rc:
        click.echo(shellscripts.rc_line(shell))
        return
    try:
        shellscripts.write_loader(shell)
    except OSError as err:  # the integration still loads; only the fast path is missing
        click.echo(f"aish: cannot write {shellscripts.loader_path(shell)}: {err.strerror}", err=True)
    click.echo(shellscripts.script_text(shell), nl=False)


@cli.command()
@click.argument("shell", required=False, type=click.Choice(["zsh", "bash"]))
@click.option("--record/--no-record", default=None,
              help="run on aish's output recorder (default: only in terminals aish cannot read)")
def shell(shell: Optional[str], record: Optional[bool]) -> None:
    """Start your shell with aish loaded (says which model it will use)."""
    from aish.config import load as config_mod
    from aish.cli import shell_launcher
    from aish.llm import detect

    name = shell_launcher.pick_shell(shell)
    cfg = config_mod.load()
    if cfg.models:
        model = cfg.model()
        click.echo(f"aish: using model '{model.name}' ({model.model} at {model.endpoint}) from {cfg.source}")
    else:
        found = detect.detect()
        click.echo(f"aish: using {found.description}" if found else f"aish: {detect.NOT_FOUND}")
    click.echo(f"aish: starting {name}; type '? how do I ...' and Enter, or press Ctrl-X Ctrl-A on a command")
    if record is None:
        record = sys.stdin.isatty() and shell_launcher.needs_recorder(dict(os.environ))
    status = shell_launcher.exec_shell(name, record=record)
    if status:
        raise Exit(status)  # the shell's own exit status, passed through


@cli.command(context_settings={"ignore_unknown_options": True})
@click.argument("command", nargs=-1, type=click.UNPROCESSED)
def record(command: tuple) -> None:
    """Run COMMAND (default: $SHELL -i) on aish's output recorder, so '?' can see what commands printed."""
    from aish import paths
    from aish.cli import recorder

    argv = list(command) or [os.environ.get("SHELL") or "/bin/sh", "-i"]
    status = recorder.relay(argv, dict(os.environ), recorder.socket_path(str(paths.runtime_dir())))
    if status:
        raise Exit(status)  # the program's own exit status, passed through


@cli.group()
def daemon() -> None:
    """Start, stop or inspect the per-user daemon."""


@daemon.command("start")
def daemon_start() -> None:
    from aish.daemon import spawn

    pid = spawn.start()
    click.echo(f"aish daemon running (pid {pid})")


@daemon.command("stop")
def daemon_stop() -> None:
    from aish.daemon import runtime

    click.echo("aish daemon stopped" if runtime.stop() else "aish daemon was not running")


@daemon.command("status")
def daemon_status() -> None:
    from aish.daemon import runtime

    info = runtime.status()
    if info.get("pid"):
        click.echo(f"aish daemon running (pid {info['pid']}, version {info.get('version') or 'unknown'}); "
                   f"log: {info.get('log', '?')}")
    else:
        click.echo(f"aish daemon not running; log: {info.get('log', '?')}")
        raise Exit(ExitStatus.NOT_RUNNING)


@cli.group()
def config() -> None:
    """Write, show or locate the config file."""


@config.command("path")
def config_path() -> None:
    from aish.config import load as config_mod

    click.echo(str(config_mod.config_path()))


@config.command("init")
@click.option("--force", is_flag=True, help="Overwrite an existing file.")
def config_init(force: bool) -> None:
    from aish.config import load as config_mod
    from aish.config.render import EXAMPLE

    path = config_mod.config_path()
    if path.exists() and not force:
        raise AishError(f"{path} already exists", hint="edit it, or pass --force to overwrite")
    path.parent.mkdir(parents=True, exist_ok=True)
    # 0600 from the first byte: the file may come to hold an MCP auth_token
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    os.fchmod(fd, 0o600)  # --force over a file that was readable by others
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(EXAMPLE)
    click.echo(f"wrote {path}; edit the [models.fast] endpoint and model")


@config.command("show")
def config_show() -> None:
    from aish.config import load as config_mod
    from aish.llm import detect
    from aish.config.render import render

    cfg = detect.apply(config_mod.load())
    click.echo(render(cfg), nl=False)


@cli.command("mcp-server")
def mcp_server() -> None:
    """Serve your shells to a coding agent over MCP on stdio (put it in the agent's MCP config:
    docs/agents.md)."""
    from aish.cli import mcp_server as bridge

    bridge.serve()  # stdout is the MCP channel: an error reaches stderr through main()


@cli.command()
def doctor() -> None:
    """Check config, models, runtime dir, daemon and shell integration."""
    from aish.cli.doctor import run_checks

    failed = 0
    for check in run_checks():
        failed += not check.ok
        click.echo(check.line())
    if failed:
        raise Exit(ExitStatus.FAILURE)


def _send_verb(name: str, args: tuple) -> None:
    _send("verb", argv=[name, *args])


def _memory(name: str, args: tuple) -> None:
    """`edit` happens here (the editor needs this terminal); the rest runs in the daemon."""
    if args[:1] == ("edit",):
        _memory_edit()
        return
    _send("verb", argv=["memory", *args])
    if args[:1] == ("summarize",) and tty(sys.stdin) and click.confirm("keep the summary?", default=False):
        _send("verb", argv=["memory", "accept"])


def _mcp(name: str, args: tuple) -> None:
    """`login` happens here (it needs this terminal and maybe a browser); the rest runs in the daemon."""
    if args[:1] != ("login",):
        _send("verb", argv=["mcp", *args])
        return
    from aish.mcp.login import login_command

    connect = login_command(list(args[1:]), say=click.echo, pasted=sys.stdin if tty(sys.stdin) else None)
    _send("verb", argv=["mcp", "connect", *connect])


# What the CLI does for a verb before (or instead of) sending it: by default, send the words.
_CLI_SIDE = {"memory": _memory, "mcp": _mcp}


def _daemon_verb(verb: Verb) -> None:
    """``aish VERB ARGS...``: one command per row of the table, registered once."""
    body = _CLI_SIDE.get(verb.name, _send_verb)

    @click.argument("args", nargs=-1, type=click.UNPROCESSED)
    def command(args: tuple) -> None:
        body(verb.name, args)

    cli.command(verb.name, help=one_line_help(verb), context_settings={"ignore_unknown_options": True,
                                             "allow_interspersed_args": False})(command)


@cli.command("help", help=one_line_help(BY_NAME["help"]))
def help_() -> None:
    """Answered here from the table, so it works when no daemon can start."""
    for line in help_lines():
        click.echo(line)


for _verb in VERBS:
    if _verb.daemon:
        _daemon_verb(_verb)


def _memory_edit() -> None:
    """Edit the facts in $EDITOR; the daemon stores the result (redacted, capped)."""
    from aish import paths

    try:
        data = json.loads((paths.state_dir() / "memory.json").read_text(encoding="utf-8"))
        facts = [str(f) for f in data.get("facts", [])]
    except FileNotFoundError:
        facts = []
    except (OSError, ValueError, AttributeError) as err:
        raise AishError(f"memory: cannot read the fact file: {err}", hint="'aish memory list'") from None
    header = "# one fact per line; lines starting with # are ignored; save and quit to store\n"
    edited = click.edit(header + "".join(f"{f}\n" for f in facts), extension=".txt")
    if edited is None:
        click.echo("[aish] memory unchanged")
        return
    kept = [line for line in edited.splitlines() if line.strip() and not line.startswith("#")]
    _send("verb", argv=["memory", "replace"], stdin="\n".join(kept))


def main() -> None:
    """Run the command line and exit with its status (``aish.entry.main`` is the console entry)."""
    sys.exit(run())


def run() -> int:
    """The command line's exit status (``cli/quick.py``'s fast path ends the same way)."""
    return guarded(_click_main)


def _click_main() -> None:
    """Run the command line; click's own ways out become an ``Exit`` (``outcome.guarded``
    decides the rest)."""
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Exit as exc:  # --help, --version
        raise Exit(exc.exit_code) from None
    except click.ClickException as exc:
        exc.show()
        raise Exit(exc.exit_code) from None  # USAGE for a bad option, FAILURE otherwise
    except click.exceptions.Abort:
        raise Exit(ExitStatus.INTERRUPTED) from None
