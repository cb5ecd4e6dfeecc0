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

from aish.safety.rules import netexec
from aish.safety.rules.common import MEDIUM, Ctx, fragment
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_INSTALL_VERBS = frozenset({"install", "add", "pull", "binstall", "i", "load", "bundle", "activate"})
# Verbs that fetch and run at once (`mint run URL.git`, `scala-cli run URL.sc`, `coursier launch --repository URL`):
# the address must be the verb's first operand or a repository option's value.
_RUN_VERBS = frozenset({"run", "launch", "exec", "x", "dlx"})
# Options named for the code they fetch, whatever the verb (`chef-solo --recipe-url URL`).
_CODE_URL_OPTION = re.compile(r"^--?(recipe|recipes|cookbook|cookbooks|script|playbook|plugin|manifest|module|package|"
                              r"bundle|formula|role|roles)[-_]?(url|uri|source)$", re.IGNORECASE)
# An address of a package, an archive or a repository (`bower install https://…/w-1.2.tar.gz`, `ipkg install …ipk`).
_PACKAGE_URL = lazy(r"\.(git|tar\.\w+|tgz|tbz2?|zip|rpm|deb|ipk|apk|pkg|msi|whl|gem|jar|nupkg|json|appimage|"
                    r"xpi|vsix|crate|snap|flatpakref)/?(?:[?#]\S*)?$", re.IGNORECASE)
# What a plugin manager installs: code that runs inside the host (`asdf plugin add NAME URL`, `gh extension install
# URL`, `zinit load URL`); any address given to it is where that code comes from.
_PLUGIN_NOUNS = frozenset({"plugin", "plugins", "extension", "extensions", "ext", "addon", "addons", "add-on",
                           "skill", "skills", "bundle", "zinit", "antidote", "antigen", "sheldon", "zplug"})
# Options whose value is where the code itself comes from.
_ORIGIN_OPTIONS = frozenset({"--git", "--manifest-url", "--manifest", "--source", "--url", "--from", "--from-url",
                             "--repo", "--plugin-source", "-U", "--archive", "--archive-url", "--tarball", "--zip",
                             "--git-url", "--repo-url", "--source-url", "--plugin-url", "--checkout"})
_URL = lazy(r"^(?:git\+)?[a-z][a-z0-9+.-]{1,10}://\S+|^git@[\w.-]+:\S+", re.IGNORECASE)
_GIT_URL = lazy(r"^git\+\S+://|^git@[\w.-]+:|^[a-z]+://\S+\.git/?$", re.IGNORECASE)
_CODE_FILE = lazy(r"\.(sc|scala|kts|java|jsh|py|js|ts|mjs|rb|sh|swift|go|groovy|csx|fsx|exs|clj|bb|lua|pl)"
                  r"(?:[?#]\S*)?$", re.IGNORECASE)
_INDEX = lazy(r"(?:index\.json|/simple/?|/api/v\d/?)$", re.IGNORECASE)  # a feed or index, not the package


_INDEX_OPTIONS = frozenset({"-i", "--index-url", "--extra-index-url", "-s", "--source", "--registry", "--repository",
                            "--repo", "--index", "--feed", "--mirror", "--channel", "-c", "--server"})


def _run_from_address(c: Ctx, words: set) -> str:
    """The address a run or launch verb fetches and runs: its first operand when it names code or a repository
    (``mint run https://…/tool.git``, ``scala-cli run https://…/x.sc``) or a repository option's value
    (``coursier launch --repository URL coord``)."""
    if not words & _RUN_VERBS or c.prog in netexec.RUNS_FROM_ADDRESSES:  # deno runs a URL sandboxed unless -A
        return ""
    texts = c.texts[:16]
    at = next((k for k, t in enumerate(texts) if t.lower() in _RUN_VERBS), -1)
    if at < 0:
        return ""
    for k, t in enumerate(texts[at + 1:at + 8], start=at + 1):
        name, sep, value = t.partition("=")
        value = value if sep else (texts[k + 1] if k + 1 < len(texts) else "")
        if name in ("--repository", "-r", "--repo") and _URL.match(value):
            return value
        if not t.startswith("-"):
            prev = texts[k - 1]
            if prev.startswith("-") and "=" not in prev and k - 1 > at:
                continue
            return t if _URL.match(t) and (_PACKAGE_URL.search(t) or _CODE_FILE.search(t)) else ""
    return ""


@triggered_by(("://", "git@"), otherwise=False)
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
    if not verbs and not any(_CODE_URL_OPTION.match(t.split("=", 1)[0]) for t in c.texts[:16]):
        found = _run_from_address(c, words)
        return (MEDIUM, f"runs code fetched from {fragment([found], 40)} at once, unreviewed ({c.text})") \
            if found else None
    if any(t in ("--check", "--dry-run", "-n", "--list") for t in c.texts):  # `ansible-pull --check`
        return None
    texts = c.texts[:32]
    origin = ""
    for k, t in enumerate(texts):
        name, sep, value = t.partition("=")
        if not sep:
            name, value = t, texts[k + 1] if k + 1 < len(texts) else ""
        if sep and value.lower() in ("git", "url") and k + 1 < len(texts):  # `--source git URL`
            value = texts[k + 1]
        elif not sep and value.lower() in ("git", "url") and k + 2 < len(texts):
            value = texts[k + 2]
        if (name in _ORIGIN_OPTIONS and (name != "-U" or "pull" in verbs) or _CODE_URL_OPTION.match(name)) and \
                _URL.match(value) and not _INDEX.search(value):
            origin = value
            break
        installs = bool(verbs & {"install", "i", "activate"})  # `git remote add NAME URL.git` adds a source
        if t.startswith("-") or k and texts[k - 1] in _INDEX_OPTIONS:
            continue
        flagged = k and texts[k - 1].startswith("-") and texts[k - 1] not in ("-f", "--force")
        if ("install" in verbs and _GIT_URL.match(t) or plugin and _URL.match(t)) and not flagged or \
                installs and _URL.match(t) and _PACKAGE_URL.search(t) and not _INDEX.search(t) and \
                (not flagged or re.fullmatch(r"-[a-zA-Z]", texts[k - 1])):  # `cpm install -g URL.git`
            origin = t
            break
    if not origin:
        return None
    return MEDIUM, (f"installs code from {fragment([origin], 40)}: what it runs comes unreviewed from there "
                    f"({c.text})")
