"""Where a copy, move or link puts its file: inside the destination when that is a directory.

``cp passwd /etc`` writes /etc/passwd, it does not replace /etc: rules that judge what a write
replaces (content, delete, everyday_loss) read the destination through ``into_directory``.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.rules.common import target
from aish.safety.rules.made_here import temporary
from aish.safety.shell_words import Word
from aish.safety.lazy_regex import lazy

# Directories by name: a copy or move onto one puts a file inside it, it does not replace it.
_DIR_NAMES = lazy(r"^(bin|sbin|lib|lib64|lib32|libexec|etc|share|include|local|opt|srv|www|html|public|"
                  r"tmp|var|log|modules|plugins|extensions|themes|fonts|applications|autostart|systemd|"
                  r"system|user|sites-enabled|sites-available|conf-enabled|mods-enabled|certs|private|"
                  r"Desktop|Documents|Downloads|Pictures|Music|Videos|Library|Applications|"
                  r"\.ssh|\.config|\.local|\.gnupg|\.aws|\.kube|\.docker|\.bin|\.fonts|[\w.-]+\.d)$")
_DIR_KINDS = {"root", "home", "userhome", "system-top", "temp"}


def into_directory(dest: Word, sources: list) -> Optional[Word]:
    """The file a copy, move or link creates when ``dest`` is a directory (``cp passwd /etc`` writes
    /etc/passwd), or None when ``dest`` names the file itself."""
    text = dest.text
    if dest.has_var and temporary(dest.raw) is not None:
        return None  # a directory the line just made (`d=$(mktemp -d)`): what goes in is new; empty, nothing goes
    name = text.rstrip("/").rsplit("/", 1)[-1]
    kind = target(dest).kind
    is_dir = text.endswith("/") or len(sources) > 1 or kind in _DIR_KINDS or text in (".", "..", "~") or \
        bool(_DIR_NAMES.match(name))
    if not is_dir or not sources:
        return None
    base = sources[0].text.rstrip("/").rsplit("/", 1)[-1]
    if sources[0].has_var or not base or base in (".", ".."):
        base = "file"  # a name known only at run time: still one entry inside the directory
    inside = text.rstrip("/") + "/" + base
    return Word(inside, inside, quoted=dest.quoted, has_var=dest.has_var, glob=dest.glob or sources[0].glob)
