"""A program's name as the rules know it, when it is installed under another.

GNU's tools are installed with a ``g`` in front where the system has tools of the same name
(Homebrew's coreutils, findutils, gnu-sed, gnu-tar, grep and inetutils on macOS; the BSDs' ports):
``gchmod``, ``grm``, ``gdd``, ``gtimeout``, ``gsed`` are GNU's ``chmod``, ``rm``, ``dd``, ``timeout``,
``sed``, and each is judged by that tool's rules; so are uutils' Rust ports installed beside them as
``uu-chmod``, ``uu-rm``.  Only these packages' names lose the ``g``:
``gawk``, ``gpg``, ``gdisk`` and ``gftp`` (a GTK client) are programs of their own.

Interpreters, shells and package managers come under versioned and variant names too (``canonical``
and ``alias``, below): rules that know them by their plain name ask for it.

This is the one place a name is mapped to the name the rules know; other spellings of one program
belong here too.
"""
from __future__ import annotations

import re

# The packages' programs that rules judge, run a command or are common in pipes (coreutils, findutils, sed,
# tar, grep, make, inetutils).  Short names are left out where the g-name is another program: `god` is a
# process monitor, not GNU's od; `gpaste` a clipboard manager.
_GNU_PREFIXED = frozenset("""
base64 basename cat chcon chgrp chmod chown chroot cp csplit cut date dd df dirname du echo env head install kill
ln ls md5sum mkdir mkfifo mknod mktemp mv nice nohup printf readlink realpath rm rmdir runcon seq sha1sum
sha256sum sha512sum shred sort split stat stdbuf tail tee timeout touch truncate uniq unlink wc
find xargs locate updatedb sed tar grep egrep fgrep make
ifconfig hostname telnet tftp rcp rsh rexec rlogin traceroute whois logger
""".split())


# Sysinternals' tools ship 64-bit and ARM64 builds beside the 32-bit one: `pskill64`, `sdelete64a`.
_SYSINTERNALS = frozenset("""psexec pskill pslist psservice pssuspend psloglist psfile pspasswd psshutdown psinfo
psping psgetsid pslogonlist sdelete handle procdump autorunsc sigcheck accesschk streams junction contig movefile
pendmoves regdelnull listdlls tcpvcon""".split())


# libarchive's tools, installed as `bsdtar`, `bsdcpio`, `bsdunzip` beside (or instead of) GNU's and Info-ZIP's.
_LIBARCHIVE = frozenset({"tar", "cpio", "unzip"})


def plain_name(name: str) -> str:
    """``gchmod`` -> ``chmod``, uutils' ``uu-chmod`` -> ``chmod``, ``pskill64`` -> ``pskill``, ``bsdtar`` ->
    ``tar``; any other name as it is."""
    if name[:1] not in RENAMED_FIRST and name[-2:] not in ("64", "4a") and name[-4:-1] != "-qt":
        return name  # asked of every command's first words: most names start and end as no renaming below does
    return _plain_name_in_full(name)


def _plain_name_in_full(name: str) -> str:
    if name[-2:] in ("64", "4a") and name.lower().removesuffix("a").removesuffix("64") in _SYSINTERNALS:
        return name.lower().removesuffix("a").removesuffix("64")
    if name[:3] == "bsd" and name[3:] in _LIBARCHIVE:
        return name[3:]
    if name[:1] == "g" and name[1:] in _GNU_PREFIXED:
        return name[1:]
    if name[:3] in ("uu-", "uu_") and name[3:] in _GNU_PREFIXED:
        return name[3:]
    if name in _SAME_OPTIONS:  # `bfs / -type f -delete` is find's
        return _SAME_OPTIONS[name]
    if name[-4:-1] == "-qt" and name[-1:] in "456" and name[:-4] in _QT_TOOLS:  # `qdbus-qt5` is qdbus
        return name[:-4]
    return name


# Clones that take the original's options and operands: bfs is a breadth-first find with find's expressions.
_SAME_OPTIONS = {"bfs": "find"}


# Qt's tools, installed by distributions under a name with the Qt version (`qdbus-qt5`, `qdbus-qt6`).
_QT_TOOLS = frozenset({"qdbus", "qdbusviewer", "qtpaths", "qtdiag"})
# The first letters of the names plain_name renames by their start (g, uu-, bsd) or whole (bfs).
RENAMED_FIRST = frozenset({"g", "u", "b"} | {name[:1] for name in _SAME_OPTIONS})


# ----------------------------------------------------------------- versioned and variant names
# Interpreters, shells and package managers under their versioned and variant names, as one name.
#
# Distributions install ``python3.12``, ``perl5.36``, ``ruby3.2``, ``node18``, ``php8.2``, ``lua5.4``,
# ``tclsh8.6``, ``bash5``, ``pip3.12``, ``dnf5`` beside (or instead of) the plain names, and other makers
# ship the same languages as ``pypy3``, ``jython``, ``graalpy``, ``jruby``, ``luajit``, ``php-cli``:
# ``curl … | python3.12`` runs the download as surely as ``curl … | python``, and ``pip3.12 install
# git+https://…`` installs as ``pip install`` does.  Rules that know a program by its plain name ask
# ``canonical`` for it.
# Plain names a version may be glued to (`python3.12`, `pip3.11`, `dnf5`, `tclsh8.6`, `node18`).
_VERSIONED_BASES = frozenset({"python", "pypy", "perl", "ruby", "node", "nodejs", "php", "lua", "luajit", "tclsh",
                              "wish", "bash", "zsh", "ksh", "mksh", "sh", "pwsh", "pip", "pipx", "dnf", "yum", "gem",
                              "npm", "pnpm", "yarn", "conda", "mamba", "bun", "deno", "jruby", "jython", "scala",
                              "julia", "guile", "racket", "erl", "elixir", "groovy", "octave", "R", "Rscript",
                              "easy_install", "bundle", "cpan", "cpanm", "composer", "apt", "apt-get", "zypper",
                              "pecl", "pear", "luarocks", "rpm", "wget", "curl", "busybox"})
# Other makers' builds of a language, by the plain name of its language.
_VARIANTS = {"pypy": "python", "jython": "python", "graalpy": "python", "micropython": "python",
             "ironpython": "python", "rustpython": "python", "pyston": "python", "cpython": "python",
             "stackless": "python", "python-dbg": "python", "jruby": "ruby", "truffleruby": "ruby", "mruby": "ruby",
             "rbx": "ruby", "luajit": "lua", "php-cli": "php", "php-cgi": "php", "hhvm": "php", "nodejs": "node",
             "rakudo": "raku", "pwsh-preview": "pwsh", "powershell": "pwsh", "dnf-3": "dnf", "yum-deprecated": "yum",
             "pip-3": "pip"}
_VERSION = re.compile(r"^([A-Za-z][\w-]*?[A-Za-z])-?v?(\d+(?:\.\d+)*)(?:-dbg|m|d|t)?$")  # python3.13t


def canonical(prog: str) -> str:
    """The plain name of an interpreter, shell or package manager (``python3.12`` -> ``python``, ``pypy3`` ->
    ``python``, ``dnf5`` -> ``dnf``), or the name itself, lowered, when it is no versioned or variant name."""
    name = prog.rsplit("/", 1)[-1].removesuffix(".exe")
    m = _VERSION.match(name)
    if m and m.group(1) in _VERSIONED_BASES:
        name = m.group(1)
    elif m and m.group(1).lower() in _VERSIONED_BASES:
        name = m.group(1).lower()
    return _VARIANTS.get(name.lower(), name.lower() if name not in ("R", "Rscript") else name)


_ASCII_DIGIT = re.compile(r"[0-9]")  # on ASCII text what str.isdigit takes, one C call for the whole name


def alias(prog: str) -> str:
    """The plain name when ``prog`` is a versioned or variant name of another (``pypy3`` -> ``python``), else ''."""
    if not (_ASCII_DIGIT.search(prog) if prog.isascii() else any(ch.isdigit() for ch in prog)) and \
            prog.lower() not in _VARIANTS:
        return ""  # most names leave here, before any regex
    plain = canonical(prog)
    return plain if plain != prog.lower() else ""
