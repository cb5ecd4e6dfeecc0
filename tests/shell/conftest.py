"""Fixtures for every module here: ``make_shell`` and ``sh`` (defined in shellenv.py beside the
helpers they use); each module names its shell with a ``shell_name`` fixture."""
from tests.shell.shellenv import daemon_first, make_shell, model, sh  # noqa: F401 - registered as fixtures
