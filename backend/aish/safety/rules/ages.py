"""A finder's age filter: ``find /var/log -name '*.gz' -mtime +7 -delete`` keeps only what is older than an age.

Removing old logs that way is retention (what logrotate does), not every record erased: ``delete`` and
``records_erased`` read the age to say so, and to lower the level under /var/log only.
"""
from __future__ import annotations


_AGES = {"-mtime": "days", "-atime": "days", "-ctime": "days", "-mmin": "minutes", "-amin": "minutes",
         "-cmin": "minutes"}


def older_than(texts: list) -> str:
    """A finder's age filter keeping only what is older than an age (``-mtime +7``: "older than 7 days"), or ""."""
    for k, t in enumerate(texts[:-1]):
        unit = _AGES.get(t)
        age = texts[k + 1]
        if unit and age[:1] == "+" and age[1:].isdigit() and int(age[1:]) > 0:
            return f"older than {age[1:]} {unit}"
    return ""
