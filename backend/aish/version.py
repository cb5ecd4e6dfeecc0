"""The version of aish: one place, read by the wheel's metadata, the CLI and the daemon."""

__version__ = "0.1.0"
