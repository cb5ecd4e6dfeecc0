"""Key and credential files named inside code, whatever the language (read by ``code_clients`` and by ``exfil`` for
code whose output is piped to a sender).

Every string of the code that reads as a path (``'/root/.kube/config'``, ``"~/.pgpass"``, ``'/.npmrc'`` joined
to an expression for home) is judged as the path it names; a key handed to a client as its own login
(``key_filename='~/.ssh/id_ed25519'``, ``privateKey: readFileSync(…)``) is not a payload.
"""
from __future__ import annotations

import re
from typing import Callable

from aish.safety.shell_words import Word
from aish.safety.lazy_regex import lazy

_STRING = lazy(r"'([^'\\\n]{0,200})'|\"([^\"\\\n]{0,200})\"|`([^`\n]{0,200})`")
# A key given to the client as its own login (`key_filename=`, `privateKey:`, `-i`), not sent.
_LOGIN = lazy(r"(?:key_?filename|private_?key\w*|pkey|identity\w*|key_?file|keyfile|cert\w*|ssl_\w+|tls_\w+|"
              r"ca_?file|from_private_key_file|load_key\w*|read_private_key\w*|keys|IdentityFile)['\"]?\s*"
              r"(?:=>?|:|\()\s*(?:\[\s*)?(?:open\s*\(\s*|readFileSync\s*\(\s*|File\.read\s*\(\s*)?$",
              re.IGNORECASE)
_PATHISH = lazy(r"^(?:[~/]|\.[\w-])|/\.[\w-]|(?:^|/)(?:id_\w+|credentials|\.netrc|\.pgpass|shadow)$")


def secret_in_code(code: str, secret_path: Callable[[Word], str]) -> str:
    """'high' when the code names a key or credential file, 'medium' for history, '' otherwise (each path-like
    string judged by ``secret_path``, exfil's reading of a path, given by the caller: exfil reads this too)."""
    found = ""
    for m in list(_STRING.finditer(code))[:40]:
        text = next(g for g in m.groups() if g is not None)
        if not _PATHISH.search(text) or " " in text.strip() or _LOGIN.search(code, max(0, m.start() - 40), m.start()):
            continue
        if text.startswith("/") and re.search(r"expanduser|homedir|HOME|home\(\)|Dir\.home|user\.home",
                                              code[max(0, m.start() - 80):m.start()]):
            text = "~" + text  # os.homedir() + '/.npmrc'
        level = secret_path(Word(text, text))
        found = "high" if "high" in (found, level) else found or level
        if found == "high":
            break
    return found
