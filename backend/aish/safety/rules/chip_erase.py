"""Effect: a chip programmer told to erase the chip (``flashprog -p ch341a_spi -E``, ``ch341prog -e``,
``bossac -e``, ``flashrom -p internal --erase``): the firmware or program it held is gone; with the
``internal`` programmer it is this machine's own BIOS, and the machine no longer boots.

Programmers are known by their names (flash, prog, isp, dude, jtag, loader, probe...); an erase given
together with a write is how an upload is done and stays quiet.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

# `isp` not after an `l` (newlisp, clisp: Lisps, whose -e evaluates an expression)
_PROGRAMMER = lazy(r"flash|prog|(?<!l)isp|bossa|dude|jtag|swd|loader|probe|stlink|jlink|ocd|esptool|dfu")
# what follows an evaluator's -e: code, with spaces or brackets (an erase option takes no such value)
_CODE = lazy(r"[\s()\[\]{};]")
_ERASES = {"-e", "-E", "--erase", "--erase-all", "--eraseall", "--chip-erase", "--mass-erase", "--masserase",
           "--erase-chip", "-erase", "-eraseall"}
_WRITES = {"-w", "--write", "-U", "write", "load", "flash", "-W", "--program", "-p:w", "write_flash"}


@triggered_by(_PROGRAMMER)
def rule_chip_erase(c: Ctx) -> Optional[tuple]:
    if not _PROGRAMMER.search(c.prog.lower()):
        return None
    texts = c.texts
    at = next((i for i, t in enumerate(texts) if t in _ERASES), -1)
    if at < 0:
        return None
    said, value = texts[at], texts[at + 1] if at + 1 < len(texts) else ""
    if _CODE.search(value) or set(texts) & _WRITES or \
            any(t.startswith(("-w", "-U")) and t not in _ERASES for t in texts):
        return None
    internal = any(t == "internal" or t.endswith("=internal") for t in texts)
    whose = " (this machine's BIOS)" if internal else ""
    return (HIGH if internal else MEDIUM), f"{c.prog} {said} erases the chip: its firmware is gone{whose} ({c.text})"
