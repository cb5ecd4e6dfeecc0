"""Effect: a delete said by a vendor's letter or abbreviated option, for programs no rule names.

Storage, backup and admin tools say "delete" as a mode letter or a short long option: a noun
subcommand followed by its delete letter (``poudriere jail -d -j 13amd64``, ``poudriere ports -d``),
``-d`` told not to ask (``onspaces -d datadbs1 -y``, ``nsrmm -d -y -S 4123``), an admin tool's ``-x
NAME`` or ``-r ID`` (``lpadmin -x OfficePrinter``, ``manage_agents -r 003``), ``--del NAME`` of
NAS user tools (``synouser --del alice``, ``synogroup --del staff``).  Creating, listing and the
same letters with another meaning (``-d DIR``, ``-d`` for debug with nothing to delete) stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.triggers import triggered_by
from aish.safety.rules.common import MEDIUM, Ctx

# Nouns after which a bare delete letter is the subcommand's mode (`jail -d`, `ports -d`, `snapshot -D`).
_NOUNS = frozenset("""
jail jails ports tree trees snapshot snapshots volume volumes pool pools dataset datasets dbspace dbspaces chunk
chunks zone zones tenant tenants bucket buckets repo repos database databases share shares volset saveset
""".split())
_DELETE_LETTERS = frozenset({"-d", "-D", "-x", "--delete", "--remove", "--del", "--rm"})
# (`-f` and `-q` are a file, a field or quiet to too many programs to say "do not ask" here.)
_NO_ASK = frozenset({"-y", "--yes", "--force", "-force", "-yes", "--noprompt", "--no-prompt"})
_NAME = lazy(r"^[A-Za-z][\w.@:-]+$", 0)
_ADMIN_NAME = lazy(r"(admin|adm|manage[-_]\w+|mgr)$", re.IGNORECASE)
_NOT_ADMIN = lazy(r"(add|mod|useradd|groupadd)$", re.IGNORECASE)
_SHORT_LONG_DELETE = frozenset({"--del", "--rm", "--dlt", "--rmv", "--delete-user", "--deluser", "--delgroup"})
_FED = frozenset({"{}", "%", "{1}", "@@", "_"})  # xargs' and parallel's placeholders for a fed name
_CREATES = frozenset({"-c", "--create", "-a", "--add", "-n", "--new", "-l", "--list", "-i", "--info", "--get"})


def _operand_after(texts: list, k: int) -> Optional[str]:
    return texts[k + 1] if k + 1 < len(texts) and not texts[k + 1].startswith("-") else None


def rule_delete_letters(c: Ctx) -> Optional[tuple]:
    """A delete said by a mode letter, an admin's `-x`/`-r ID`, or `--del NAME`."""
    texts = c.texts
    if not texts or set(texts) & _CREATES:
        return None
    prog = c.prog.lower()
    for k, t in enumerate(texts):
        if t in _SHORT_LONG_DELETE or t.split("=", 1)[0] in _SHORT_LONG_DELETE:
            name = t.split("=", 1)[1] if "=" in t else _operand_after(texts, k)
            if name:
                return MEDIUM, f"{c.prog} {t.split('=', 1)[0]} deletes {name} ({c.text})"
    first = next((k for k, t in enumerate(texts) if not t.startswith("-")), None)  # the subcommand's place
    if first is not None and texts[first].lower() in _NOUNS and first + 2 < len(texts) and \
            texts[first + 1] in _DELETE_LETTERS:  # `poudriere jail -d -j X`, not `srvctl status database -d X`
        return MEDIUM, f"{c.prog} {texts[first]} {texts[first + 1]} deletes the {texts[first]} it is given ({c.text})"
    if "-d" in texts and set(texts) & _NO_ASK:
        name = _operand_after(texts, texts.index("-d"))
        named = name or next((texts[k + 1] for k, t in enumerate(texts[:-1]) if t in ("-S", "-V", "-s", "-n", "-N")
                              and not texts[k + 1].startswith("-")), None)
        fed = c.xargs and name in _FED  # `… | xargs -I{} onspaces -d {} -y`: each name the listing gives
        if name and (_NAME.match(name) or fed) or not name and named and named.isalnum():
            return MEDIUM, f"{c.prog} -d deletes {named} without asking ({c.text})"
    if _ADMIN_NAME.search(prog) and not _NOT_ADMIN.search(prog):
        for k, t in enumerate(texts):
            name = _operand_after(texts, k)
            if name is None or "/" in name:
                continue
            if t == "-x" or t == "-r" and re.fullmatch(r"\d+(,\d+)*", name):
                return MEDIUM, f"{c.prog} {t} removes {name} ({c.text})"
    return None


_MAY = lazy(r"(^| )(-[dxr]|--del|--rm|--dlt|--rmv|--delete|--remove|--deluser|--delgroup|--delete-user)(=| |$)", 0)


@triggered_by(_MAY, otherwise=False)
def may_delete(c: Ctx) -> bool:
    return bool(_MAY.search(c.lowered))
