"""aish: AI inside the shell people already use."""

__version__ = "0.1.0"
