"""Effect: the system's account database replaced, converted or opened, by the tools that manage it as a whole.

- Shadow files undone (``pwunconv``, ``grpunconv``): every password hash goes back into ``/etc/passwd`` or
  ``/etc/group``, which anyone can read, and ``/etc/shadow`` is removed.
- A file copied over the database (``cppw FILE``, ``cpgr FILE``, ``-s`` for shadow and gshadow) or the
  databases rebuilt from another file (BSD's ``pwd_mkdb -p FILE``): whatever that file says is who exists.
- macOS' root account enabled (``dsenableroot`` without ``-d``): a root login with a password.
- Someone's public keys imported into ``authorized_keys`` (``ssh-import-id gh:USER``, ``lp:USER``): whoever
  holds those keys logs in as this account.
- The same keys fetched from the forge and appended by hand (``curl https://github.com/USER.keys >>
  ~/.ssh/authorized_keys``, ``wget -qO- …/+sshkeys | tee -a …/authorized_keys``).
- An empty password given with libuser's tools (``lusermod -P '' root``, ``lpasswd``-style ``-P``).
"""
from __future__ import annotations

from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.lazy_regex import lazy

NAMES = frozenset({"pwunconv", "grpunconv", "cppw", "cpgr", "pwd_mkdb", "dsenableroot", "ssh-import-id",
                   "ssh-import-id-gh", "ssh-import-id-lp", "lusermod", "luseradd"})
_HELP = {"-h", "--help", "-v", "--version", "-?"}


# where forges publish a user's public keys: github.com/USER.keys, gitlab.com/USER.keys, Launchpad's +sshkeys
_KEYS_URL = lazy(r"https?://\S+(\.keys|/\+sshkeys|/keys)/?$")


def may_import(c: Ctx) -> bool:
    """Is this command writing ``authorized_keys`` (a redirection, or tee's file)?"""
    return any(r.target is not None and r.target.text.endswith("authorized_keys") for r in c.seg.redirects) or \
        c.prog == "tee" and "authorized_keys" in c.lowered


def rule_keys_imported(c: Ctx) -> Optional[tuple]:
    """A forge's published keys of some user appended to ``authorized_keys``: that user logs in here."""
    words = list(c.texts) + [w.text for seg in c.chain for w in seg.words]
    url = next((w for w in words if _KEYS_URL.match(w)), None)
    if url is None:
        return None
    return MEDIUM, f"adds the keys published at {url} to authorized_keys: whoever holds them logs in here ({c.text})"


def rule_account_database(c: Ctx) -> Optional[tuple]:
    prog, texts = c.prog, c.texts
    if set(texts) & _HELP:
        return None
    if prog in ("pwunconv", "grpunconv"):
        which = "/etc/passwd" if prog == "pwunconv" else "/etc/group"
        return HIGH, f"{prog} moves every password hash into {which}, which anyone can read ({c.text})"
    if prog in ("cppw", "cpgr"):
        source = next((t for t in texts if not t.startswith("-")), "")
        if not source:
            return None
        shadow = "-s" in texts
        target = {("cppw", False): "/etc/passwd", ("cppw", True): "/etc/shadow",
                  ("cpgr", False): "/etc/group", ("cpgr", True): "/etc/gshadow"}[(prog, shadow)]
        return HIGH, f"{prog} copies {source} over {target}: the accounts it holds are the only ones left ({c.text})"
    if prog == "pwd_mkdb":
        source = next((t for t in texts if not t.startswith("-")), "")
        if source and source != "/etc/master.passwd" and "-d" not in texts:
            return HIGH, f"pwd_mkdb rebuilds the password databases from {source} ({c.text})"
        return None
    if prog == "dsenableroot":
        return None if "-d" in texts else (MEDIUM, f"enables the root account with a password ({c.text})")
    if prog.startswith("ssh-import-id"):
        if "-r" in texts or "--remove" in texts:
            return None
        ids = [t for t in texts if not t.startswith("-")]
        if ids or prog != "ssh-import-id":
            who = ", ".join(ids) or prog.rsplit("-", 1)[-1]
            return MEDIUM, f"adds {who}'s public keys to authorized_keys: whoever holds them logs in here ({c.text})"
        return None
    if prog in ("lusermod", "luseradd"):
        for k, t in enumerate(texts[:-1]):
            if t in ("-P", "--plainpassword", "-p", "--password") and texts[k + 1] == "":
                return HIGH, f"gives an account an empty password: anyone may log in as it ({c.text})"
    return None
