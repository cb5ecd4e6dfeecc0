"""Every way out of an ``aish`` command becomes an ``ExitStatus``, printed as one line.

The click commands (``cli/main.py``) and the fast path of the verbs that only talk to the
daemon (``cli/quick.py``) end through ``guarded``, so an error, Ctrl-C, a closed pipe or a
crash reads and exits the same whichever path ran.
"""
from __future__ import annotations

import os
from collections.abc import Callable

from aish.cli.exit_status import Exit, ExitStatus, for_kind
from aish.cli.printer import err
from aish.errors import AishError, Cancelled


def guarded(body: Callable[[], object]) -> int:
    """Run the command; commands raise ``Exit``; every other way out is decided here."""
    try:
        body()
    except Exit as exc:
        return exc.status
    except AishError as error:
        err(f"aish: {error.one_line()}", "E")
        return for_kind(error.kind)
    except (KeyboardInterrupt, Cancelled):
        return ExitStatus.INTERRUPTED
    except BrokenPipeError:
        return ExitStatus.OK
    except Exception:
        err(f"aish: internal error (details in {log_crash()})", "E")
        return ExitStatus.INTERNAL
    return ExitStatus.OK


def log_crash() -> str:
    import traceback

    from aish import paths

    directory = os.environ.get("AISH_STATE_DIR") or str(paths.default_state_dir())
    try:
        path = paths.state_dir() / "cli.log"
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(traceback.format_exc() + "\n")
        return str(path)
    except OSError:
        return f"nowhere: the state dir {directory} is not writable; fix it or set AISH_STATE_DIR"
