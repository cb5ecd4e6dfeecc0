"""``aish doctor``: one line per check, and the fix for each failure.

Checks run in the order a user would fix things: config, models, runtime dir,
daemon, shell integration.  Nothing here raises; every problem is a line.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Optional

from aish.config import load as config_mod
from aish.errors import AishError, TransportError


@dataclass
class Check:
    """One line of the report; an error gives its ``summary`` as detail and its hint as fix."""

    ok: bool
    name: str
    detail: str
    fix: Optional[str] = None

    def line(self) -> str:
        mark = "ok  " if self.ok else "FAIL"
        text = f"{mark} {self.name}: {self.detail}"
        return f"{text} -> {self.fix}" if (self.fix and not self.ok) else text


def run_checks() -> Iterator[Check]:
    path = config_mod.config_path()
    try:
        cfg = config_mod.load(path)
    except AishError as err:
        yield Check(False, "config", err.summary, err.hint or f"fix {path} (or move it away to use defaults)")
        return
    if cfg.source:
        yield Check(True, "config", str(cfg.source))
    else:
        from aish.llm import detect

        detect.apply(cfg)
        if cfg.detected:
            yield Check(True, "config", f"no file at {path}; using {cfg.detected}")
        else:
            yield Check(False, "config", "no config file and no model found",
                        "run 'aish config init' and set an endpoint, or start a local server")
    for name, model in cfg.models.items():
        yield _check_model(name, model)
    yield from _check_private_files(path)
    yield from _check_runtime()
    yield _check_shell()
    yield from check_live_shell(dict(os.environ))
    yield check_output(dict(os.environ), cfg.context.command_output)


def check_output(env: dict, setting: str) -> Check:
    """Which source can show the daemon what commands print (context/sources.py reads them)."""
    if setting == "off":
        return Check(True, "command output", "off (context.command_output)")
    if env.get("AISH_OUTPUT") == "off":
        return Check(True, "command output", "off in this shell (AISH_OUTPUT=off)")
    for var, name in (("AISH_RECORDER", "aish's recorder"), ("TMUX_PANE", "tmux"),
                      ("KITTY_WINDOW_ID", "kitty")):
        if env.get(var):
            if var == "KITTY_WINDOW_ID" and not env.get("KITTY_LISTEN_ON"):
                return Check(False, "command output", "kitty without remote control",
                             "set allow_remote_control and listen_on in kitty.conf, "
                             "or start the shell with 'aish shell'")
            return Check(True, "command output", f"read from {name}")
    if env.get("WEZTERM_PANE"):
        return Check(False, "command output", "WezTerm's CLI cannot tell where a command's output "
                     "starts", "start the shell with 'aish shell' (it records the output)")
    return Check(False, "command output", "not available in this terminal",
                 "run the shell inside tmux or kitty (remote control), "
                 "or start it with 'aish shell'")


def _check_model(name: str, model) -> Check:
    """Reachable, serving that model (or one model whatever the name), and, behind a gateway,
    answering: a gateway lists its models whether or not the servers behind it are up."""
    from aish.errors import HttpStatusError
    from aish.llm import detect

    label = f"model {name}"
    if model.key_env and not model.api_key():
        return Check(False, label, f"${model.key_env} is not set",
                     f"export {model.key_env}=... in your shell profile")
    try:
        info = detect.describe(model, timeout=max(model.connect_timeout, 1.0))
    except HttpStatusError as err:
        if err.status in (401, 403):
            return Check(False, label, f"authentication refused at {model.endpoint}",
                         f"check the key in ${model.key_env}" if model.key_env else "set key_env")
        return Check(False, label, err.summary, err.hint or "fix the endpoint in the config")
    except TransportError as err:
        return Check(False, label, err.summary, err.hint or "start the server or fix the endpoint in the config")
    except AishError as err:
        return Check(False, label, err.summary, err.hint or "check the endpoint in the config")
    window = f", {info.window:,}-token window" if info.window else ""
    served = f"{model.model} at {model.endpoint} ({info.label}{window})"
    if info.models and model.model not in info.models:
        if info.ignores_name:
            return Check(True, label, f"{model.endpoint} ({info.label}{window}) serves its one model, "
                         f"{info.models[0]}, whatever the request names")
        shown = ", ".join(info.models[:5]) + (" ..." if len(info.models) > 5 else "")
        return Check(False, label, f"'{model.model}' is not served at {model.endpoint} (it has: {shown})",
                     "set model to one of those, or load it on the server")
    if info.gateway and info.kind != "OpenRouter":
        failed = detect.try_answer(model)
        if failed is not None:
            return Check(False, label, f"{info.label} at {model.endpoint} lists {model.model}, but a one-token "
                         f"request failed: {failed.summary}",
                         "start or fix the server behind the gateway (its own logs say more)")
        return Check(True, label, f"{served} answers through {info.label}")
    busy = "; busy: its model list waited on a generation in progress" if info.busy else ""
    return Check(True, label, f"{served} reachable{busy}")


def _check_private_files(config: Path) -> Iterator[Check]:
    """The config (tokens), session logs (conversations) and the ledger are the user's alone."""
    import stat

    from aish import paths

    candidates = [config]
    try:
        state = paths.state_dir()
        candidates.append(state / "ledger.sqlite3")
        candidates.extend(sorted((state / "sessions").glob("*.jsonl")))
    except (OSError, AishError):
        pass
    for path in candidates:
        try:
            mode = stat.S_IMODE(os.stat(path).st_mode)
        except OSError:
            continue
        if mode & 0o077:
            yield Check(False, "permissions", f"{path} is readable by others (mode {oct(mode)})",
                        f"chmod 600 {path}")


def _check_runtime() -> Iterator[Check]:
    from aish import paths
    from aish.daemon import runtime

    try:
        rundir = paths.runtime_dir()
        yield Check(True, "runtime dir", f"{rundir} (private)")
    except AishError as err:
        yield Check(False, "runtime dir", err.summary, err.hint)
        return
    pid = runtime.is_running()
    if pid:
        why = runtime.outdated(rundir)
        if why is None:
            yield Check(True, "daemon", f"running (pid {pid}, version {runtime.read_version(rundir)})")
        else:
            yield Check(False, "daemon", f"running (pid {pid}) {why}",
                        "the next question restarts it with this aish once its answers finish; "
                        "or 'aish daemon stop'")
    else:
        yield Check(True, "daemon", "not running (starts on first use)")


def check_live_shell(env: dict) -> Iterator[Check]:
    """The hooks and keys of the shell this runs in, as they stand now (cli/live_shell.py)."""
    from aish import paths
    from aish.cli import live_shell

    try:
        found = live_shell.report_path(env, paths.runtime_dir())
    except (OSError, AishError):
        return
    if found is None:
        return  # not run from a shell with aish loaded
    shell, pid, path = found
    text = live_shell.read_report(path)
    if text is None:
        how = "its Enter key (bash records commands there)" if shell == "bash" else "its preexec hook"
        yield Check(False, "live shell", f"{shell} (pid {pid}) did not report its hooks: aish did "
                    f"not see this command run ({how} did not run)",
                    "open a new shell; if this persists, load aish last in the rc file")
        return
    verdict = live_shell.judge(shell, text)
    for what, fix in verdict.problems:
        yield Check(False, "live shell", f"{verdict.label}: {what}", fix)
    if not verdict.problems:
        yield Check(True, "live shell", f"{verdict.label} (pid {pid}): hooks and keys in place"
                    + "".join(f"; {note}" for note in verdict.notes))


def _check_shell() -> Check:
    shell = Path(os.environ.get("SHELL", "")).name
    rc = {"zsh": Path(os.environ.get("ZDOTDIR", Path.home())) / ".zshrc",
          "bash": Path.home() / ".bashrc"}.get(shell)
    if rc is None:
        return Check(False, "shell", f"login shell '{shell or 'unknown'}' is not zsh or bash",
                     "aish integrates with zsh and bash; 'aish ask' works anywhere")
    try:
        text = rc.read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    from aish.cli import scripts as shellscripts

    kind = shellscripts.rc_kind(text, shell)
    line = shellscripts.rc_line(shell)
    if kind == "eval":
        return Check(False, "shell", f"{rc} loads aish with eval \"$(aish init {shell})\", which starts "
                     "Python at every shell start (about 100 ms)", f"replace that line with: {line}")
    if kind:
        return Check(True, "shell", f"integration loaded from {rc}")
    return Check(False, "shell", f"{rc} does not load aish", f"add this line to {rc}: {line}")
