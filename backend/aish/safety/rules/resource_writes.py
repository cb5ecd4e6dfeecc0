"""Effect: a configuration-management resource that writes or removes a file, judged as that write.

One-liners of Chef (``chef-apply -e``), mitamae, Itamae, Puppet (``puppet apply -e``), Salt (``salt-call --local
file.managed``), Ansible's ad-hoc modules (``-m copy -a "dest=… content=…"``, ``lineinfile path=… line=…``) and
pyinfra declare a file and what it holds; the tool then writes it as root.  Each resource is read out of the
line (its arguments, or the recipe a here-string or heredoc feeds) and judged as the shell write it amounts to:
``file '/etc/nsswitch.conf' do content '' end`` is ``printf '%s' '' > /etc/nsswitch.conf``, a ``line=`` is
appended, ``ensure => absent`` and ``action :delete`` are ``rm -f``.  The meaning rules for system files then
decide (on a file the system needs to boot or log in, any write they flag; elsewhere only a high one, since
rewriting /etc/motd is what these tools are for), so a resource writing /tmp, the project or motd stays quiet.
"""
from __future__ import annotations

import re
import shlex
from typing import Optional

from aish.safety.rules.common import CRITICAL_FILE, HIGH, MEDIUM, Ctx

_WORDS = ("content", "absent", ":delete", "line=", "file.")
# Chef, mitamae, Itamae: file '/etc/x' do … end (and template, remote_file, cookbook_file)
_RUBY = re.compile(r"\b(?:file|template|remote_file|cookbook_file)\s*\(?\s*['\"](/[^'\"]+)['\"]\s*\)?\s*(?:do|\{)"
                   r"(.*?)(?:\bend\b|\}|$)", re.DOTALL)
_RUBY_CONTENT = re.compile(r"\bcontent\s*\(?\s*(?:'([^']*)'|\"([^\"]*)\")")
_RUBY_DELETE = re.compile(r"\baction\s*\(?\s*\[?\s*:delete\b")
# Puppet: file { '/etc/x': content => '…', ensure => absent }
_PUPPET = re.compile(r"\bfile\s*\{\s*['\"](/[^'\"]+)['\"]\s*:(.*?)(?:\}|$)", re.DOTALL)
_PUPPET_CONTENT = re.compile(r"\bcontent\s*=>\s*(?:'([^']*)'|\"([^\"]*)\")")
_PUPPET_DELETE = re.compile(r"\bensure\s*=>\s*['\"]?absent\b")
# key=value modules: Ansible, Salt, pyinfra
_TARGET_KEYS = ("dest=", "path=", "name=", "target=")
_CONTENT_KEYS = ("content=", "contents=")
_SALT_WRITERS = frozenset({"file.write", "file.append", "file.managed"})


def may_declare(c: Ctx) -> bool:
    """Cheap: a word of a resource's content, removal or line, and a path."""
    text = c.lowered
    if c.seg.redirects:
        text += " " + " ".join((r.body or "") + " " + (r.target.text if r.target is not None else "")
                               for r in c.seg.redirects).lower()
    return "/" in text and any(w in text for w in _WORDS)


def _write(path: str, content: str, append: bool = False) -> str:
    return f"printf '%s\\n' {shlex.quote(content)} {'>>' if append else '>'} {shlex.quote(path)}"


def _kv(texts: list) -> dict:
    """The key=value words of the line, each word of a quoted ``-a "…"`` string split as the shell would."""
    found: dict = {}
    for t in texts:
        try:
            parts = shlex.split(t) if "=" in t and " " in t else [t]
        except ValueError:
            parts = t.split()
        for p in parts:
            key, eq, value = p.partition("=")
            if eq and key.isidentifier():
                found.setdefault(key.lower(), value)
    return found


def _writes(c: Ctx, recipe: str) -> list:
    """The shell writes the line's resources amount to."""
    out = []
    for resource, content_of, deleted in ((_RUBY, _RUBY_CONTENT, _RUBY_DELETE),
                                          (_PUPPET, _PUPPET_CONTENT, _PUPPET_DELETE)):
        for m in resource.finditer(recipe):
            body = m.group(2)
            content = content_of.search(body)
            if content:
                out.append(_write(m.group(1), content.group(1) if content.group(1) is not None else content.group(2)))
            elif deleted.search(body):
                out.append(f"rm -f {shlex.quote(m.group(1))}")
    texts = list(c.texts)
    kv = _kv(texts)
    path = next((kv[k[:-1]] for k in _TARGET_KEYS if k[:-1] in kv and kv[k[:-1]].startswith("/")), "")
    if path:
        content = next((kv[k[:-1]] for k in _CONTENT_KEYS if k[:-1] in kv), None)
        if content is not None:
            out.append(_write(path, content))
        elif "line" in kv:
            out.append(_write(path, kv["line"], append=True))
    for k, t in enumerate(texts[:-2]):
        if t.lower() in ("file.write", "file.append") and texts[k + 1].startswith("/"):
            out.append(_write(texts[k + 1], " ".join(texts[k + 2:]), append=t.lower() == "file.append"))
    return out


def rule_resource_write(c: Ctx) -> Optional[tuple]:
    recipe = " ".join(c.texts)
    for r in c.seg.redirects:
        recipe += "\n" + (r.body or "") + ("\n" + r.target.text if r.op == "<<<" and r.target is not None else "")
    best: Optional[tuple] = None
    for command in _writes(c, recipe)[:8]:
        found = c.recurse(command)
        path = shlex.split(command)[-1]
        if found is None or found[0] < (MEDIUM if CRITICAL_FILE.match(path) else HIGH):
            continue  # an ordinary /etc file rewritten is what these tools are for: only what it means counts
        if best is None or found[0] > best[0]:
            best = found[0], f"{found[1].rsplit(' (', 1)[0]}, written by {c.prog}'s resource ({c.text})"
    return best
