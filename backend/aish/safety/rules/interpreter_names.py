"""Interpreters, shells and package managers under their versioned and variant names, as one name.

Distributions install ``python3.12``, ``perl5.36``, ``ruby3.2``, ``node18``, ``php8.2``, ``lua5.4``,
``tclsh8.6``, ``bash5``, ``pip3.12``, ``dnf5`` beside (or instead of) the plain names, and other makers
ship the same languages as ``pypy3``, ``jython``, ``graalpy``, ``jruby``, ``luajit``, ``php-cli``:
``curl … | python3.12`` runs the download as surely as ``curl … | python``, and ``pip3.12 install
git+https://…`` installs as ``pip install`` does.  Rules that know a program by its plain name ask
``canonical`` for it."""
from __future__ import annotations

import re

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


def alias(prog: str) -> str:
    """The plain name when ``prog`` is a versioned or variant name of another (``pypy3`` -> ``python``), else ''."""
    if not any(ch.isdigit() for ch in prog) and prog.lower() not in _VARIANTS:
        return ""  # most names leave here, before any regex
    plain = canonical(prog)
    return plain if plain != prog.lower() else ""
