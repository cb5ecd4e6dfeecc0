"""Fixtures for every module here: ``make_shell`` and ``sh`` (defined in shellenv.py beside the
helpers they use); each module names its shell with a ``shell_name`` fixture."""
from tests.shell.shellenv import make_shell, sh  # noqa: F401 - registered as fixtures
