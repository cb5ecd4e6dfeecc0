"""Effect: code fetched from the network and run, by any program that runs code.

``netexec`` knows the usual shells and interpreters (``curl … | sh``, ``bash <(curl …)``).  Users run
downloads through many more: any shell by its name (``loksh -c "$(wget -qO- URL)"``, ``oksh <(curl
URL)``, ``curl URL | yash``: a name ending in ``sh`` and the other shells' names, ``elvish``,
``xonsh``, ``nu``, ``rc``, ``es``…), any program given a download as the code or script it runs
(``make -f <(curl URL)``, ``tool --script <(curl URL)``), and runners given a script's or a notebook's
address (``papermill https://…/setup.ipynb out.ipynb``, ``jbang https://…/hello.java``).  A script
written inline into a process substitution is the program's code too: ``gremlin.sh -e <(echo
'g.V().drop()')`` is judged as that code fed to it.
"""
from __future__ import annotations

import re
import shlex
from typing import Optional

from aish.safety.rules import interp
from aish.safety.rules.common import HIGH, MEDIUM, Ctx, fragment
from aish.safety.rules.netexec import CODE_EXTENSIONS, DATA_READERS, INTERPRETERS, _is_download, _sub_downloads
from aish.safety.lazy_regex import lazy

# Shells not named after `sh`.
_OTHER_SHELLS = frozenset({"elvish", "xonsh", "nu", "nushell", "rc", "es", "ion", "murex", "oil", "ysh", "fish",
                           "pwsh", "powershell", "yash", "posh", "hush", "oksh", "loksh", "mksh", "lksh", "pdksh",
                           "busybox", "toybox", "ngs", "closh", "oh", "xs"})
# Names ending in `sh` that are no shell, or whose words after them are not code (ssh's are a remote command).
_NOT_SHELLS = frozenset({"ssh", "mosh", "autossh", "sshpass", "rsh", "crash", "trash", "stash", "flush", "push",
                         "refresh", "publish", "finish", "hash", "wash", "brush", "fresh", "gnash", "mesh", "smash",
                         "splash", "slash", "clash", "dash-board", "git-flush"})
_VERSION = re.compile(r"(?:[-_.]?\d[\d.]*|-static|-portable)$")
# Options whose value is the code or the script a program runs.
_CODE_OPTIONS = frozenset({"-c", "-e", "-f", "-x", "-r", "-s", "--file", "--script", "--eval", "--exec", "--execute",
                           "--command", "-code", "--code", "--run", "--init-file", "--rcfile", "--source", "--load",
                           "-script", "-file", "--playbook", "-l"})
# An address of a script or notebook (what a runner given it executes).
_SCRIPT_URL = lazy(r"^https?://\S+\.(?:" + "|".join(sorted(CODE_EXTENSIONS, key=len, reverse=True)) +
                   r")(?:\?\S*)?$", re.IGNORECASE)
_INLINE = lazy(r"^\s*(?:echo|printf)\s+(?:-[neE]+\s+)?(?:'([^']*)'|\"((?:[^\"\\]|\\.)*)\")\s*$", re.DOTALL)


def _fetches_script(sub: str) -> bool:
    """Does the substitution download a script by its address (``wget -qO- https://…/payload.tcl``)?"""
    return any(_SCRIPT_URL.match(part) for part in sub.split()[1:8])


def shell_like(prog: str) -> bool:
    """Is this program a shell by its name (``loksh``, ``yash``, ``mksh-static``, ``elvish``, ``ksh93``)?"""
    name = prog.lower().removesuffix(".exe")
    bare = _VERSION.sub("", name)
    if name in _NOT_SHELLS or bare in _NOT_SHELLS:
        return False
    return bare in _OTHER_SHELLS or name in _OTHER_SHELLS or (bare.endswith("sh") and 2 <= len(bare) <= 7)


def may_run_download(c: Ctx) -> bool:
    """Cheap first test: a substitution among the words, something piped in, or an address of a script."""
    if c.prog.lower() in DATA_READERS:
        return False
    return bool(c.chain) or any(w.subs or w.text.startswith(("http://", "https://")) for w in c.args[:32])


def rule_downloaded_code_run(c: Ctx) -> Optional[tuple]:
    """A download given to a program as the code it runs, or a script's address given to a runner."""
    why = f"runs code fetched from the network, unread ({c.text})"
    shell = shell_like(c.prog) and c.prog.lower() not in INTERPRETERS
    runs_files = shell or c.prog in interp.RULES  # `groovy <(curl …)`: an interpreter runs the file it is given
    args = c.args[:32]
    for k, w in enumerate(args):
        before = args[k - 1].text if k else ""
        for sub in w.subs[:4]:
            if _sub_downloads(sub) and (runs_files or before in _CODE_OPTIONS or
                                        before.split("=", 1)[0] in _CODE_OPTIONS or
                                        _fetches_script(sub)):  # `tclkit <(wget -qO- …/x.tcl)`
                return HIGH, why
            inline = _INLINE.match(sub) if before in _CODE_OPTIONS else None
            if inline:  # `gremlin.sh -e <(echo 'g.V().drop()')`: the echoed text is the program's code
                body = inline.group(1) if inline.group(1) is not None else inline.group(2)
                found = c.recurse(f"{shlex.quote(c.prog)} <<< {shlex.quote(body)}")
                if found is not None and found[0] >= MEDIUM:
                    return found
    if shell and any(_is_download(f.words) for f in c.chain) and not any(t in ("-n",) for t in c.texts):
        first = next(f for f in c.chain if _is_download(f.words))
        return HIGH, f"runs a script straight from the network ({fragment([first.words[0].text, '…', '|', c.prog])})"
    if not shell and _code_piped_in(c):  # `curl …/setup.ss | petite -q`: the program's code is what is piped in
        return HIGH, f"{c.prog} runs the code piped in from the network, unread ({c.text})"
    script = _runs_address(args)
    if script is not None and not shell:
        return MEDIUM, f"{c.prog} runs the script or notebook at {fragment([script], 50)}: its code runs unread " \
            f"({c.text})"
    return None


def _code_piped_in(c: Ctx) -> bool:
    """A download of a code file's address piped into a program given no file of its own to read, so that what it
    reads is the code it runs (``curl …/init.groovy | groovysh``, ``wget -qO- …/init.lisp | sbcl``); a program given
    an operand (``| tee x.rkt``, ``| prettier --stdin-filepath x.js``) reads the download as data."""
    downloads = [f for f in c.chain[-3:] if _is_download(f.words)]
    if not downloads or not any(_SCRIPT_URL.match(w.text) for f in downloads for w in f.words[1:12]):
        return False
    return all(t.startswith("-") or t in ("/dev/stdin",) for t in c.texts[:8])


_RUN_WORDS = frozenset({"run", "exec", "execute", "x", "start", "script"})


def _runs_address(args: list) -> Optional[str]:
    """The script's address a runner is given as its first operand (after ``run``), not an option's value
    (``sqlmap -u https://…/page.php`` tests a page, it runs nothing from it)."""
    for k, w in enumerate(args[:8]):
        t = w.text
        if t.startswith("-") or k and args[k - 1].text.startswith("-") and "=" not in args[k - 1].text:
            continue
        if t.lower() in _RUN_WORDS:
            continue
        return t if _SCRIPT_URL.match(t) else None
    return None
