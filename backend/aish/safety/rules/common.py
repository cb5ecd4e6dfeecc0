"""What every effect rule shares: the command context, option parsing, and what a path is.

A rule judges one simple command (its unwrapped words) and returns a finding
``(rank, reason)`` (0 low, 1 medium, 2 high) or None.  Options are parsed the
way programs parse them (bundled ``-rf``, ``-r -f``, ``--recursive``, ``--``)
because that is where a grep goes wrong.  The level comes from the effect *and*
the target: the same ``rm -r`` is quiet on ``build/`` and high on ``~``, so
targets are classified once here (``target``) and every effect reads the class.

Variables are judged at their worst: an unset ``$DIR`` expands to nothing,
so ``"$DIR"/*`` is classified as ``/*``; ``$HOME`` is home; ``${X:?}`` is
guarded (the shell refuses to run with it empty).
"""
from __future__ import annotations

import re
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Generic, Optional, TypeVar

from aish.safety.shell_words import Segment, Word
from aish.safety.winpaths import classify_windows, env_at_worst, looks_windows
from aish.safety.rules.disk_names import DEVICE, PARTITION_PLACEHOLDER, is_device  # noqa: F401 - re-exported
from aish.safety.home import my_home
from aish.safety.rules.generated import LOCK_FILES, MADE_BY_TOOLS, generated
from aish.safety.rules.made_here import temporary
from aish.safety.rules.path_steps import collapsed
from aish.safety.lazy_regex import lazy

LOW, MEDIUM, HIGH = 0, 1, 2
_T = TypeVar("_T")


class computed_once(Generic[_T]):
    """``functools.cached_property`` without its lock: on Python 3.11 it takes an ``RLock`` at each first read,
    and every command's ``Ctx`` is read once for its texts and its lowered line (the judge runs on one thread
    per command; a second computation of the same pure value would be harmless anyway)."""

    def __init__(self, compute: Callable[[Any], _T]) -> None:
        self._compute = compute
        self._name = compute.__name__
        self.__doc__ = compute.__doc__

    def __get__(self, obj: Any, owner: Any = None) -> _T:
        if obj is None:
            return self  # type: ignore[return-value]  # read on the class: the descriptor itself
        value = obj.__dict__[self._name] = self._compute(obj)
        return value

# Top-level directories of the system; removing or overwriting them (or what is in them) breaks it.
SYSTEM_TOP = {"bin", "boot", "dev", "etc", "home", "lib", "lib32", "lib64", "libx32", "opt", "proc",
              "root", "sbin", "srv", "sys", "usr", "var", "mnt", "media", "snap", "run",
              "System", "Library", "Applications", "Users", "Volumes", "private", "nix", "efi"}
# Locally installed software: an admin's own files, not the system's.
_LOCAL = ("/usr/local/", "/opt/")
# Anything under these is the system itself (not just a place on it).
_SYSTEM_DEEP = ("/etc/", "/boot/", "/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/lib32/", "/var/log/",
                "/var/lib/", "/System/", "/Library/", "/private/etc/", "/nix/store/", "/efi/",
                "/var/spool/", "/var/mail/", "/var/backups/")
# Files whose loss or corruption locks users out or stops the machine from booting.  Of systemd's unit directory, the
# whole of it and the units boot and logins stand on (sshd, systemd-*, dbus, getty, networking, the targets): an
# app's own unit copied in or removed (`cp myapp.service /etc/systemd/system/`) is how services are installed, and
# what a unit runs is read by the start-up readings (autostart_payloads).
CRITICAL_FILE = lazy(
    r"^(/private)?/etc/(passwd|shadow|group|gshadow|sudoers|sudoers\.d/.*|fstab|crypttab|hosts|"
    r"resolv\.conf|hostname|ssh/sshd_config|ssh/sshd_config\.d/.*|pam\.d/.*|security/.*|"
    r"default/grub|login\.defs|nsswitch\.conf|ld\.so\.(conf|preload)|systemd/system/\*|"
    r"systemd/system/[^/]*(sshd?|systemd-|dbus|getty|login|audit|[Nn]etwork|polkit|default\.target|multi-user|graphical|"
    r"sysinit|basic\.target|local-fs|emergency|rescue|ctrl-alt-del)[^/]*(/.*)?|"
    r"network/interfaces|netplan/.*|selinux/config|inittab|shells|profile|environment|"
    r"bashrc|bash\.bashrc|zshrc|zsh/zshrc|crontab)$|^/boot/|^/proc/sysrq-trigger$|"
    r"^/(usr/)?s?bin/[\w.+-]+$|^/(usr/)?lib(64)?/[\w.+-]+\.so[\w.]*$")
# Programs whose one-letter -o, -O, -L, -w, -l dereference, count, warn, test or set a width: the path after them is
# read, not written (`ls -o /etc/shadow`, `[ -O /etc/passwd ]`, `wc -w /etc/passwd`, `stat -L F`).
LETTER_READERS = frozenset({"ls", "dir", "vdir", "stat", "cp", "find", "du", "file", "tree", "namei", "test", "[",
                            "[[", "wc", "diff", "diff3", "sdiff", "colordiff", "cmp", "grep", "egrep", "fgrep", "rg",
                            "ag", "ack", "realpath", "readlink", "getfacl", "setfacl", "chown", "chgrp", "chmod",
                            "chattr", "lsattr", "rsync", "tar", "cpio", "ln", "md5sum", "sha1sum", "sha256sum",
                            "sha512sum", "b2sum", "cksum", "lsof", "fuser", "head", "tail", "less", "more", "most",
                            "cat", "bat", "batcat", "nl", "od", "xxd", "hexdump", "strings", "fold", "fmt", "pr",
                            "column", "cut", "paste", "join", "sftp", "scp", "mount", "ps", "pwd", "cd", "pushd",
                            "zip", "unzip", "sudo", "su", "watch", "journalctl", "dmesg", "fswatch", "mc", "lsblk",
                            "findmnt", "inotifywait", "entr", "auditctl", "ausearch", "install", "visudo", "vipw",
                            "vigr", "sudoedit", "sshd", "bash", "sh", "zsh", "dash", "ksh", "fish", "type", "which",
                            "whereis", "locate", "mlocate", "plocate"})
# Keys, credentials and the stores that hold them: losing, overwriting or sending them costs access.
# (~/.config and ~/.local count whole; one application's settings under them are ordinary dotfiles.)
CRITICAL_DOT = lazy(
    r"^~/\.(ssh|gnupg|aws|kube|password-store|pki|azure|config|local|mozilla|thunderbird|docker)/?\*?$|"
    r"^~/\.ssh/(id_[^/]*(?<!\.pub)|authorized_keys2?|config|[^/]*\.(pem|key)|\*)$|^~/\.gnupg/|^~/\.password-store/|"
    r"^~/\.(netrc|git-credentials|pgpass|my\.cnf|vault-token|pypirc|npmrc|google_authenticator|k5login)$|"
    r"^~/\.yubico/authorized_yubikeys$|^~/\.aws/(credentials|config)$|"
    r"^~/\.kube/config$|^~/\.docker/config\.json$|^~/\.config/(gcloud|gh|hub|doctl|op|rclone)(/|$)|"
    r"^~/\.local/share/(keyrings|kwalletd)(/|$)|^~/\.terraform\.d/credentials|^~/\.mozilla/|^~/\.thunderbird/|"
    r"^~/Library/Keychains(/|$)|^~/\.azure/|^~/\.pki/")
# Shell and tool start-up files: overwriting one loses your setup, a bad line breaks every new shell.
RC_DOT = lazy(r"^~/(\.([\w.-]*rc|profile|bash_profile|bash_login|bash_logout|zprofile|zshenv|zlogin|"
              r"gitconfig|tmux\.conf|ssh/config|inputrc|xinitrc|xprofile|xsession|Xresources|"
              r"config/fish/config\.fish|config/git/config|config/nvim/init\.(vim|lua)|"
              r"config/powershell/[\w.]*profile\.ps1)|Documents/(Windows)?PowerShell/[\w.]*profile\.ps1)$")
# PowerShell's `$PROFILE` (any case) and its four properties: the start-up file each names.
_PS_PROFILE = lazy(r"(?i)^\$profile(\.(currentuser|allusers)(allhosts|currenthost))?$")
_PROFILE_FILES = {"currentuser": "~/Documents/PowerShell/Microsoft.PowerShell_profile.ps1",
                  "allusers": "C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\profile.ps1"}
_BACKUP_NAME = lazy(r"(\.(bak|orig|old|backup|save|swp|tmp)|~)$")
HISTORY_FILE = lazy(r"^~/\.(bash_history|zsh_history|zhistory|histfile|history|"
                    r"local/share/fish/fish_history|python_history|psql_history|mysql_history)$")
# What a project's own build produces: deleting it is routine.
OUTPUT_DIRS = {"build", "dist", "out", "target", "node_modules", "__pycache__", ".pytest_cache",
               ".mypy_cache", ".ruff_cache", ".tox", ".nox", ".venv", "venv", "env", ".cache",
               "coverage", "htmlcov", ".coverage", ".next", ".nuxt", ".parcel-cache", ".turbo",
               ".gradle", "bin", "obj", "_build", "site", "public/build", ".eggs", "tmp", ".tmp",
               "cmake-build-debug", "cmake-build-release", "builddir", ".svelte-kit", ".angular",
               "DerivedData", ".terraform", "vendor/bundle", "pkg", "lib-cov", ".sass-cache",
               "storybook-static", ".docusaurus", ".expo", "logs", "log"}
_OUTPUT_SUFFIX = lazy(r"\.(egg-info|pyc|pyo|o|a|class|log|tmp|bak|orig|rej|swp)$|"
                      r"(^|/)(\.DS_Store|Thumbs\.db|desktop\.ini|\.AppleDouble|__MACOSX|\._\*)$")
_TEMP = ("/tmp/", "/var/tmp/", "/private/tmp/", "/dev/shm/", "/var/cache/",
         # what a package manager fetches again at its next update (`rm -rf /var/lib/apt/lists/*; apt update`)
         "/var/lib/apt/lists/", "/var/lib/pacman/sync/", "/var/lib/snapd/cache/")


@dataclass
class Ctx:
    prog: str
    words: list  # Word, the program first
    args: list  # Word, after the program
    seg: Segment
    chain: list  # Segments piping into this one
    sudo: bool
    xargs: bool
    depth: int
    recurse: Callable[[str], Optional[tuple]]  # judge a nested command text
    check: Callable[[list], Optional[tuple]]  # judge nested command words
    _woken = None  # the rules this command's line wakes (rules/triggers.py), found at the first declared rule

    @computed_once
    def text(self) -> str:
        return fragment([w.raw for w in self.words])

    @computed_once
    def texts(self) -> list:
        return [w.text for w in self.args]

    @computed_once
    def lowered(self) -> str:
        """The arguments joined and lowered, once: rules look for a word in it before reading the line."""
        return " ".join(self.texts).lower()


def fragment(parts: list, limit: int = 60) -> str:
    """The parts joined by spaces, cut at ``limit`` characters (only as many parts as fit are joined)."""
    taken, size = [], 0
    for part in parts:
        taken.append(part)
        size += len(part) + 1
        if size > limit:
            break
    text = " ".join(taken)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def parse_opts(args: list, valued: frozenset = frozenset()) -> tuple:
    """(set of short letters and long names seen, {option: value}, positional Words)."""
    flags: set = set()
    values: dict = {}
    positional: list = []
    i = 0
    while i < len(args):
        w = args[i]
        t = w.text
        i += 1
        if t == "--":
            positional.extend(args[i:])
            break
        if t.startswith("--") and len(t) > 2:
            name, eq, val = t.partition("=")
            flags.add(name)
            if not eq and name in valued and i < len(args):
                val, i = args[i].text, i + 1
            values[name] = val
        elif t.startswith("-") and len(t) > 1 and not t[1].isdigit():
            for k, letter in enumerate(t[1:]):
                flags.add(letter)
                if "-" + letter in valued:
                    rest = t[k + 2:]
                    if not rest and i < len(args):
                        rest, i = args[i].text, i + 1
                    values["-" + letter] = rest
                    break
        else:
            positional.append(w)
    return flags, values, positional


def positionals(args: list, valued: set) -> list:
    """Texts of the words that are not options or option values (``valued`` take one)."""
    out, i = [], 0
    while i < len(args):
        t = args[i].text
        if t in valued:
            i += 2
            continue
        if not t.startswith("-") or t == "-":
            out.append(t)
        i += 1
    return out


def skip_opts(args: list, valued: set) -> list:
    i = 0
    while i < len(args) and args[i].text.startswith("-"):
        i += 2 if args[i].text in valued else 1
    return [w.text for w in args[i:]]


def worst(a: Optional[tuple], b: Optional[tuple]) -> Optional[tuple]:
    """The more severe of two findings; the first wins a tie."""
    if b is None:
        return a
    return b if a is None or b[0] > a[0] else a


_max = worst


# ----------------------------------------------------------------- targets

_VAR = lazy(r"\$\{(\w+)(:?[-=?+])?([^}]*)\}|\$(\w+|[@*#?!$-])|\$\((.*?)\)|`([^`]*)`")


def worst_case(text: str) -> tuple:
    """``text`` with every expansion at its worst, and whether an expansion was guarded.

    ``$HOME`` -> ``~``; ``$PWD``/``$(pwd)`` -> ``.``; ``${X:-d}`` -> ``d``;
    ``${X:?}`` guarded (the shell refuses to run with it empty); anything
    else -> empty, which is what an unset variable or a failed substitution gives.
    """
    guarded = False

    def sub(m: re.Match) -> str:
        nonlocal guarded
        name = m.group(1) or m.group(4)
        if name in ("HOME",):
            return "~"
        if name in ("PWD",):
            return "."
        if name == "HISTFILE":
            return "~/.bash_history"
        if m.group(2) in (":?", "?"):
            guarded = True
            return "\0"
        if m.group(2) in (":-", "-", ":=", "="):
            return m.group(3)
        body = (m.group(5) if m.group(5) is not None else m.group(6) or "").strip()
        if body in ("pwd", "pwd -P", "pwd -L"):
            return "."
        if body in ("echo ~", "echo $HOME"):
            return "~"
        return ""

    out = _VAR.sub(sub, text)
    return out, guarded


@dataclass(frozen=True)
class Target:
    kind: str  # see classify
    path: str  # the worst-case text that was classified
    shown: str  # as the user wrote it


# kind, from worst: root, device, home, system-top, critical, system, dot-critical, history,
# dot, all, var (an expansion with no fixed part), user (a path in home), temp, output, project.
# The directory relative paths are in: the user's cwd, or a ``cd`` earlier in the same line.
BASE: ContextVar = ContextVar("aish_safety_base", default="")
_SERIOUS = {"root", "device", "home", "system-top", "critical", "system", "dot-critical", "history"}


def target(word: Word) -> Target:
    """Classify a path argument by what losing it would cost."""
    raw = word.text
    profile = _PS_PROFILE.match(raw) if raw[:1] == "$" else None
    if profile:  # PowerShell's own start-up file, as ~/.bashrc is bash's
        path = _PROFILE_FILES["allusers" if "allusers" in raw.lower() else "currentuser"]
        return Target(classify(path), path, raw)
    if "env:" in raw.lower():
        return Target(classify_windows(env_at_worst(raw)), env_at_worst(raw), raw)
    if word.has_var:
        made = temporary(word.raw)
        if made is not None:  # `"$d"` after `d=$(mktemp -d)` on the same line: new, empty, or nothing at all
            return Target("temp", "/tmp/" + made.strip("$(){}/").replace(" ", "-"), raw)
        path, guarded = worst_case(raw)
        if guarded:
            return Target("var-guarded", path, raw)
        if not path.replace("\0", "").strip():
            return Target("var", path, raw)
    else:
        path = raw
    kind = classify(path)
    base = BASE.get()
    if base and kind == "all" and path.strip("./*") == "":  # `cd ~ && find . -delete`
        whole = classify(base)
        if whole in _SERIOUS:
            return Target(whole, base, raw)
    if base and not path.startswith(("/", "~")) and kind not in ("all",):
        joined = base.rstrip("/") + "/" + path
        if classify(joined) in _SERIOUS:  # `cd / && rm -rf usr`; the user standing in /etc
            return Target(classify(joined), joined, raw)
    return Target(kind, path, raw)


def classify(path: str) -> str:
    """The class of a path by what losing it would cost (``root``, ``home``, ``system``, ``project``...).

    Kept per path and home (whose home is "yours"): a command's rules classify the same targets
    again and again (each effect that looks at the line).  A path that may be a Windows one is
    classified afresh: that reading also asks whose ``C:\\Users\\NAME`` is yours (``USERNAME``),
    and an environment variable that is not set costs a raised KeyError to look up."""
    home = my_home()
    if len(path) > _KEPT_PATH or _MAYBE_WINDOWS.search(path) or path.startswith("//"):
        return _classify(path, home)
    return _classify_kept(path, home)


_KEPT_PATH = 256
_MAYBE_WINDOWS = re.compile(r"[:\\%$]")  # what every Windows-looking path has (winpaths.looks_windows)


@lru_cache(maxsize=32768)  # the corpora classify ~8,700 distinct paths a pass: 4,096 evicted most
def _classify_kept(path: str, home: str) -> str:
    return _classify(path, home)


_SLASHES = lazy(r"/{2,}")
_OTHER_HOME = lazy(r"^(?:/(?:home|Users)/([^/*]+)|~([a-z_][\w-]*))/?$")
_TILDE_USER = lazy(r"^~(root|[a-z_][\w-]*)?(?=/|$)")
_HOME_DIR = lazy(r"^/(home|Users)/[^/*]+(?=/|$)")
_ROOT_HOME = lazy(r"^/root(?=/|$)")
_ROOT_FORM = lazy(r"/?(\.\.?/?)*\*?|/\.\*|/\*(\s.*)?")
_ROOT_DOTS = lazy(r"/(\.{1,2}/?)+")
_SINK_DEVICE = lazy(r"/dev/(null|zero|u?random|stdout|stderr|stdin|tty\w*|pts/\d+|fd/\d+|(tcp|udp)/.*)")
_HOME_FORM = lazy(r"~/(\.\.?/?)*\*?")
_HOMES = lazy(r"/(home|Users)(/\*)?")
_HOME_CACHE = lazy(r"^~/\.cache(/|$)")
_DOT_SLASHES = lazy(r"^(\./)+")
_PARENT_FORM = lazy(r"(\.\./)+\.\.?\*?|(\.\./)+\*")
_OUTPUT_GLOB = lazy(r"(\*\*/)?[\w.-]*\*\.(log|tmp|bak|pyc|pyo|o|orig|rej|swp|class)")


def _classify(path: str, home: str) -> str:
    if looks_windows(path):
        kind = classify_windows(path)  # a relative path is judged as one (`.\\build` is build output)
        return classify(path.replace("\\", "/")) if kind == "project" and "$" not in path and "%" not in path else kind
    p = collapsed(_SLASHES.sub("/", path))  # `build/../../`, `~/.cache/../Documents`: where the path ends
    if home and (p == home or p.startswith(home + "/")):
        p = "~" + p[len(home):]
    other = _OTHER_HOME.match(p)
    if other and (other.group(1) or other.group(2)) not in ("*", ".", ".."):
        return "userhome"  # another user's home: theirs to lose, not yours
    p = _TILDE_USER.sub("~", p) if p.startswith("~") else p
    p = _HOME_DIR.sub("~", p)
    p = _ROOT_HOME.sub("~", p)
    stripped = p.rstrip("/") or "/"
    if _ROOT_FORM.fullmatch(stripped) and p.startswith("/"):
        return "root"
    if _ROOT_DOTS.fullmatch(stripped):
        return "root"
    if DEVICE.match(p):
        return "device"
    if _SINK_DEVICE.fullmatch(p):
        return "sink"
    if stripped in ("~", "~/*", "~/.*", "~/.", "~/..") or _HOME_FORM.fullmatch(stripped):
        return "home"
    if _HOMES.fullmatch(stripped):
        return "home"
    if stripped.startswith("/"):
        parts = [x for x in stripped.split("/") if x and x != "."]
        if ".." in parts:
            return "system-top"
        if parts and parts[0] in SYSTEM_TOP and (len(parts) == 1 or (len(parts) == 2 and parts[1] in ("*", ".*"))):
            return "system-top"
        if CRITICAL_FILE.match(stripped):
            return "critical"
        if (stripped + "/").startswith(_TEMP) or stripped in ("/tmp/*", "/var/tmp/*"):
            return "temp"
        if parts[:1] in (["usr"], ["etc"], ["var"], ["boot"], ["lib"]) and len(parts) == 2:
            wide = parts[1] in ("*", "lib", "bin", "share", "local", "log", "lib64", "include", "sbin", "cache",
                                "spool") and parts[0] in ("usr", "var")
            return "system-top" if wide else "system"
        if (stripped + "/").startswith(_LOCAL) and len(parts) > 2:
            return "other"
        if (stripped + "/").startswith(_SYSTEM_DEEP) or parts[:1] in (["dev"], ["sys"], ["proc"]):
            return "system"
        return "other"
    if stripped.startswith("~/"):
        if HISTORY_FILE.match(stripped):
            return "history"
        if _BACKUP_NAME.search(stripped):
            return "output"
        if CRITICAL_DOT.match(stripped):
            return "dot-critical"
        if _HOME_CACHE.match(stripped):
            return "temp"
        if RC_DOT.match(stripped):
            return "dot-rc"
        if generated(p):
            return "output"  # `~/projects/app/node_modules`, `~/Library/Caches/x`, `~/.npm/_cacache`
        if stripped.startswith("~/."):
            return "dot"
        return "user"
    rel = _DOT_SLASHES.sub("", stripped)
    if rel in ("*", ".*", ".", "..", "../", "../*", "*/", "* .*", "./*", "") or \
            _PARENT_FORM.fullmatch(rel):
        return "all"
    if rel.startswith("../"):
        return "project"
    first = rel.split("/", 1)[0]
    if rel.rstrip("/*") in OUTPUT_DIRS or first in OUTPUT_DIRS and "/" in rel or _OUTPUT_SUFFIX.search(rel) \
            or rel.endswith(".egg-info") or rel in LOCK_FILES or rel.rstrip("/*") in MADE_BY_TOOLS:
        return "output"
    if _OUTPUT_GLOB.fullmatch(rel) or generated(rel + "/" if p.endswith("/") else rel):
        return "output"  # `src/app/__pycache__`, `packages/*/node_modules`
    return "project"


SEVERE = ("root", "device", "home", "system-top")

_WHAT = {"root": "the whole filesystem", "home": "your home directory", "device": "a disk device",
         "userhome": "another user's home directory",
         "system-top": "a system directory", "critical": "a file the system needs to boot or log in",
         "dot-critical": "keys or credentials", "history": "your shell history"}


def describe(t: Target) -> str:
    """``/ (the whole filesystem)``, ``everything in the current directory (*)``, ``"$DIR"/* (…)``."""
    if t.kind == "all":
        return f"everything in the current directory ({t.shown})" if t.path.strip("./*") != ".." and \
            not t.path.startswith("..") else f"the parent directory ({t.shown})"
    if t.kind == "var":
        return f"{t.shown}, a path from a variable that may be empty or wrong"
    what = _WHAT.get(t.kind)
    if what is None:
        return t.shown
    if t.shown != t.path and "$" in t.shown or "`" in t.shown:
        return f"{t.shown} ({what} when a variable in it is empty: {t.path or '(nothing)'})"
    return f"{t.shown} ({what})"
