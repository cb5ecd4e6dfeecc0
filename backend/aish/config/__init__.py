"""Configuration: the one leaf every package may read.

    schema  the dataclasses (defaults, and what a model entry can answer about itself)
    load    the file -> validated dataclasses; runtime overrides
    render  the example config and `aish config show` (TOML that reads back the same)

No I/O beyond reading the config file; imports only ``aish.errors`` and ``aish.paths``.
"""
