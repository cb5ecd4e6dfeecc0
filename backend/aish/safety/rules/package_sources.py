"""Effect: a package source added that nobody can check, so every later install trusts it.

Installing once from a URL is judged where it happens (``netexec``); adding a SOURCE is worse: every
install after it may come from there.  Any package manager's way of adding a repository, a channel, a
feed or a remote counts (``zypper ar``, ``dnf config-manager --add-repo``, ``yum-config-manager``,
``flatpak remote-add``, ``choco source add``, ``helm repo add``, ``Register-PSRepository``,
``nix-channel --add``, ``brew tap``, ``poetry source add``, ``opkg``'s and ``apk``'s repository lines)
when the source is plain http (not this machine) or its signatures are switched off (``-G``,
``--no-gpg-verify``, ``--nogpgcheck``, ``gpgcheck=0``, ``[trusted=yes]``)."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx, fragment
from aish.safety.lazy_regex import lazy

# Words that add or register a source, per program (None: any of the generic ones).
_ADDS = frozenset({"ar", "addrepo", "add-repo", "--add-repo", "remote-add", "--add", "add", "tap", "register",
                   "-sourcelocation", "--source", "-s", "--url", "source", "sources", "repo", "channel", "channels"})
_PROGRAMS = frozenset({"zypper", "dnf", "dnf5", "yum", "yum-config-manager", "dnf-3", "flatpak", "choco", "helm",
                       "register-psrepository", "register-packagesource", "nix-channel", "brew", "poetry", "pdm",
                       "bundle", "gem", "conda", "mamba", "micromamba", "winget", "nuget", "dotnet", "vcpkg",
                       "conan"})
_PLAIN_HTTP = lazy(r"(^|[=\s'\"])http://(?!(localhost|127\.|\[::1\]))", re.IGNORECASE)
_CHECKS_OFF = lazy(r"^(-G|--no-gpg-?check\w*|--no-gpg-verify|--nogpgcheck|--gpgcheck=(0|no|false)|"
                   r"gpgcheck=0|--no-check-signatures?|--insecure|--allow-insecure\w*|--trusted=yes|"
                   r"\[trusted=yes\]|--skip-verify|--no-verify)$", re.IGNORECASE)
_NOT_ADDING = frozenset({"list", "ls", "lr", "repos", "remotes", "search", "info", "show", "--list", "remove", "rr",
                         "removerepo", "remote-delete", "disable", "--disable"})


def rule_source_added(c: Ctx) -> Optional[tuple]:
    """A repository, channel or feed added over plain http or with its signatures unchecked."""
    texts = c.texts
    lowered = [t.lower() for t in texts]
    if not set(lowered) & _ADDS and c.prog.lower() not in ("register-psrepository", "register-packagesource",
                                                             "yum-config-manager"):
        return None
    if set(lowered[:2]) & _NOT_ADDING:
        return None
    plain = next((t for t in texts if _PLAIN_HTTP.search(t)), None)
    off = next((t for t in texts if _CHECKS_OFF.match(t)), None)
    if plain is None and off is None:
        return None
    why = f"over plain http ({fragment([plain], 40)})" if plain else f"with its signatures unchecked ({off})"
    return MEDIUM, f"{c.prog} adds a package source {why}: every later install may come from it ({c.text})"


RULES: dict = {name: [rule_source_added] for name in _PROGRAMS}
