"""Effect: a folder of keys or a whole home published as a website.

Static-site publishers (``gh-pages -d DIR``, ``surge DIR``, ``netlify deploy --dir DIR``, ``vercel DIR``,
``wrangler pages deploy DIR``, ``ghp-import DIR``, ``neocities push DIR``) put every file of the folder
they are given on a public address.  Given the home (``cd ~ && gh-pages -d . --dotfiles``) or a folder
of keys (``~/.ssh``, ``~/.aws``), they publish the keys.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx, target
from aish.safety.rules.exfil import secret_path
from aish.safety.shell_words import Word

# Publishers: the options that name the folder, and the subcommands before it (None: the first operand).
_PUBLISHERS = {"gh-pages": ({"-d", "--dist"}, ()), "surge": ({"--project", "-p"}, ()),
               "netlify": ({"-d", "--dir"}, ("deploy",)), "vercel": ((), ()),
               "wrangler": ({"--directory"}, ("pages", "deploy", "publish")), "ghp-import": ((), ()),
               "neocities": ((), ("push", "upload")), "angular-cli-ghpages": ({"--dir"}, ()),
               "push-dir": ({"--dir"}, ()), "gh-pages-deploy": ({"-d", "--dir"}, ()),
               "firebase": ({"--public"}, ("deploy",)), "tiiny": ((), ()), "static-deploy": ((), ())}
_READ_ONLY = frozenset({"list", "ls", "login", "logout", "whoami", "status", "help", "--help", "--version", "teardown"})


def rule_published(c: Ctx) -> Optional[tuple]:
    """A publisher given the home or a folder of keys."""
    options, verbs = _PUBLISHERS[c.prog.lower()]
    texts = c.texts
    operands = [t for k, t in enumerate(texts) if not t.startswith("-") and not (k and texts[k - 1] in options)]
    if operands[:1] and operands[0] in _READ_ONLY:
        return None
    given = [c.args[k + 1] for k, t in enumerate(texts[:-1]) if t in options]
    given += [Word(t.split("=", 1)[1], t.split("=", 1)[1]) for t in texts if t.split("=", 1)[0] in options and "=" in t]
    if not given:
        given = [w for w in c.args if not w.text.startswith("-") and w.text not in verbs][:1]
    if not given and c.prog.lower() in ("vercel", "surge"):
        given = [Word(".", ".")]  # they publish the folder they are run in
    for folder in given:
        home = target(folder).kind in ("home", "root", "userhome")
        if home or secret_path(folder) == "high":
            what = "your home directory, keys and all" if home else "keys or credentials"
            return HIGH, f"{c.prog} publishes {what} as a public website ({c.text})"
    if any(t in ("--dotfiles", "-t") for t in texts) and any(target(f).kind == "all" for f in given):
        return MEDIUM, f"{c.prog} publishes the whole folder, hidden files (.env, keys) included ({c.text})"
    return None


RULES: dict = {name: [rule_published] for name in _PUBLISHERS}
