"""aish: AI inside the shell people already use.

The package map is docs/architecture.md; each subpackage's docstring is its own map.
"""
