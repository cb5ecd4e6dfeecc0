"""Effect: the operating system moved to its next release without asking.

A release upgrade replaces most of the system and restarts it; run interactively it asks before it
starts and shows what it will remove, run without asking it does not stop for anything
(``do-release-upgrade -f DistUpgradeViewNonInteractive``, ``yes | do-release-upgrade``,
``freebsd-update -r 14.1-RELEASE upgrade``, ``zypper -n dup``, ``startosinstall --agreetolicense
--nointeraction``, ``setup.exe /auto upgrade /quiet`` (``/auto clean`` starts over), ``pop-upgrade
release upgrade``, OpenBSD's ``sysupgrade``, any ``*-release-upgrade``/``*-system-upgrade`` program
told ``-y``).  Checks, downloads, dry runs and the interactive forms stay quiet.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import MEDIUM, Ctx

# Words and options that take the questions away.
_UNASKED = frozenset("""
-y --yes -n --non-interactive --noninteractive --assume-yes --noconfirm --no-confirm --auto-agree-with-licenses
--not-running-from-cron --agreetolicense --nointeraction --forcequitapps --quiet /quiet /quietinstall --reboot
--apply /auto --auto-reboot /quietinstall /skipeula
""".split())
_NON_INTERACTIVE_VIEW = lazy(r"noninteractive", 0)
# Programs named for a release upgrade, in any distribution's words.
_RELEASE_NAME = lazy(r"(release|dist|system|os|version)[-_]?upgrade|upgrade[-_]?(release|dist|system|os)|"
                     r"^(fedup|leapp|startosinstall|pop-upgrade|mintupgrade|eos-upgrade|windows\d*upgrade\d*)$")
# Subcommands that move the release, for any package tool (`pkcon upgrade-system 42 -y`); apt's dist-upgrade
# stays within the release its sources name.
_RELEASE_SUBCOMMANDS = frozenset({"upgrade-system", "system-upgrade", "release-upgrade", "upgrade-release"})
_NOT_DOING = frozenset("-c --check --check-dist-upgrade-only --help -h --version --dry-run -D --download-only "
                       "preupgrade fetch status log list --list -l".split())


def _fed_yes(c: Ctx) -> bool:
    """`yes | …`, `echo y | …`, `printf 'y\\n' | …`: every question answered yes."""
    for seg in c.chain:
        words = [w.text.lower() for w in seg.words]
        if words[:1] == ["yes"] or words[:1] in (["echo"], ["printf"]) and any(
                w.strip("'\"").rstrip("\\n") in ("y", "yes") for w in words[1:]):
            return True
    return False


def rule_release_upgraded(c: Ctx) -> Optional[tuple]:
    """An OS release upgrade that will not ask."""
    name = c.prog.lower().rsplit("/", 1)[-1].removesuffix(".exe")
    texts = c.texts
    lowered = [t.lower() for t in texts]
    said = set(lowered)
    if said & _NOT_DOING:
        return None
    operands = [t for t in lowered if not t.startswith(("-", "/"))]
    unasked = said & _UNASKED or _fed_yes(c) or any(_NON_INTERACTIVE_VIEW.search(t) for t in lowered)
    what = ""
    if name == "freebsd-update" or name == "hbsd-update":
        if "upgrade" in operands and ("-r" in said or any(t.startswith("--release") for t in lowered)):
            what = "moves the system to another release"
    elif name in ("zypper", "transactional-update"):
        if operands[:1] and operands[0] in ("dup", "dist-upgrade") and unasked:
            what = "upgrades the distribution without asking"
    elif name == "sysupgrade":  # OpenBSD's: fetches the next release and reboots into its installer
        if not operands and not said & {"-n", "--test", "-t", "-b", "--create-backup"}:  # OpenWrt's: a check, a backup
            what = "reboots into the next release's installer"
    elif name == "setup" and "/auto" in said and set(operands) & {"upgrade", "clean"}:
        what = "installs Windows over this one without asking"
    elif name == "pop-upgrade" and operands[:2] == ["release", "upgrade"]:
        what = "moves the system to the next release"
    elif _RELEASE_NAME.search(name) and unasked or set(operands[:2]) & _RELEASE_SUBCOMMANDS and unasked and \
            name not in ("apt", "apt-get", "aptitude", "dnf", "yum"):
        what = "moves the system to the next release without asking"
    if not what:
        return None
    return MEDIUM, f"{c.prog} {what}: most of the system is replaced and it restarts ({c.text})"


# Cheap test before the rule: a program name that may move the release.
MAY_UPGRADE = lazy(r"upgrade|update|^zypper$|^setup(\.exe)?$|^fedup$|^leapp$|^startosinstall$|^pkcon$", 0)
