"""Effect: code installed or pulled from an address the user names, by any installer or plugin manager.

``netexec`` reads the package managers it names (``pip install git+https://…``, ``npm i https://…/x.tgz``).
Every plugin manager, version manager and binary fetcher has the same way in: an option that says where the
code comes from (``cargo-binstall --git URL``, ``kubectl krew install --manifest-url=URL``, ``vfox add --source
URL``, ``vagrant plugin install --plugin-source URL``, ``ansible-pull -U URL`` runs a playbook from there), or a
git address given to an install verb (``ansible-galaxy install git+https://…``), any address given to a plugin
manager's install or add (``asdf plugin add NAME URL``, ``gh extension install URL``, ``zinit load URL``).
What it installs runs with the user's rights, unreviewed: medium, as for the named installers.  Installing by a
name from the tool's own index (``vfox add nodejs``, ``fisher install owner/repo``) and a package index or feed
given as a source (``--source https://…/index.json``, ``…/simple``) stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx, fragment

_INSTALL_VERBS = frozenset({"install", "add", "pull", "binstall", "i", "load", "bundle"})
# What a plugin manager installs: code that runs inside the host (`asdf plugin add NAME URL`, `gh extension install
# URL`, `zinit load URL`); any address given to it is where that code comes from.
_PLUGIN_NOUNS = frozenset({"plugin", "plugins", "extension", "extensions", "ext", "addon", "addons", "add-on",
                           "skill", "skills", "bundle", "zinit", "antidote", "antigen", "sheldon", "zplug"})
# Options whose value is where the code itself comes from.
_ORIGIN_OPTIONS = frozenset({"--git", "--manifest-url", "--manifest", "--source", "--url", "--from", "--from-url",
                             "--repo", "--plugin-source", "-U", "--archive", "--archive-url", "--tarball", "--zip",
                             "--git-url", "--repo-url", "--source-url", "--plugin-url", "--checkout"})
_URL = re.compile(r"^(?:git\+)?[a-z][a-z0-9+.-]{1,10}://\S+|^git@[\w.-]+:\S+", re.IGNORECASE)
_GIT_URL = re.compile(r"^git\+\S+://|^git@[\w.-]+:|^[a-z]+://\S+\.git/?$", re.IGNORECASE)
_INDEX = re.compile(r"(?:index\.json|/simple/?|/api/v\d/?)$", re.IGNORECASE)  # a feed or index, not the package


def may_install_from_url(c: Ctx) -> bool:
    """Cheap: an address among the words and an install verb in the program's name or its first words."""
    return "://" in c.lowered or "git@" in c.lowered


def _words(c: Ctx) -> set:
    name = c.prog.lower().rsplit("/", 1)[-1]
    found = set(re.split(r"[-_.]", name)) | {v for v in ("install", "pull") if name.endswith(v)} | {name}
    found.update(t.lower() for t in c.texts[:4] if not t.startswith("-"))
    return found


def rule_installed_from_url(c: Ctx) -> Optional[tuple]:
    """See the module's docstring."""
    words = _words(c)
    verbs = words & _INSTALL_VERBS
    plugin = bool(words & _PLUGIN_NOUNS)
    if not verbs or any(t in ("--check", "--dry-run", "-n", "--list") for t in c.texts):  # `ansible-pull --check`
        return None
    texts = c.texts[:32]
    origin = ""
    for k, t in enumerate(texts):
        name, sep, value = t.partition("=")
        if not sep:
            name, value = t, texts[k + 1] if k + 1 < len(texts) else ""
        if name in _ORIGIN_OPTIONS and (name != "-U" or "pull" in verbs) and _URL.match(value) and \
                not _INDEX.search(value):
            origin = value
            break
        if ("install" in verbs and _GIT_URL.match(t) or plugin and _URL.match(t)) and not t.startswith("-") and \
                not (k and texts[k - 1].startswith("-") and texts[k - 1] not in ("-f", "--force")):
            origin = t
            break
    if not origin:
        return None
    return MEDIUM, (f"installs code from {fragment([origin], 40)}: what it runs comes unreviewed from there "
                    f"({c.text})")
