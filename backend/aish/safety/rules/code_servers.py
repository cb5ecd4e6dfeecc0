"""Code that starts a server and hands it a secret, the environment or a whole tree (read by ``interp``),
whatever the language.

``exposure`` judges file servers by their command line (``python3 -m http.server --directory ~``); code
starts the same servers with its own calls and decides what they hand out:

- a key or credential file read into the response (``http.createServer((q, s) =>
  fs.createReadStream("/etc/shadow").pipe(s))``): high;
- the whole environment as the response (``s.end(JSON.stringify(process.env))``, ``ENV.to_h``): medium;
- a file server rooted at home or at ``/`` (``os.chdir(os.path.expanduser("~"))`` before
  ``SimpleHTTPRequestHandler``, ``directory=``, WEBrick's ``DocumentRoot: Dir.home``, ``express.static("/")``,
  Go's ``http.FileServer(http.Dir("/"))``): high, as ``exposure`` reads ``--directory ~``.

A server bound to the loopback address serves this machine only and stays quiet.
"""
from __future__ import annotations

import re
from typing import Callable, Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.code_effects import HOME_EXPR
from aish.safety.rules.code_secret_paths import secret_in_code
from aish.safety.rules.common import HIGH, MEDIUM
from aish.safety.shell_words import Word

_SERVER = lazy(r"\bcreateServer\b|\bHTTPServer\b|\bThreadingHTTPServer\b|\bhttp\.server\b|\bsocketserver\b|"
               r"\bSimpleHTTPRequestHandler\b|\bWEBrick\b|\bTCPServer\b|\bDeno\.serve\b|\bBun\.serve\b|"
               r"\bserve_forever\b|\bHttpServer\.create\b|\bListenAndServe\b|\bexpress\s*\(|\bweb\.run_app\b|"
               r"\bapp\.run\s*\(|\buvicorn\.run\b|\bServerSocket\b|\bStaticFiles\b|\bserve\s*\(")
_LOOPBACK = lazy(r"['\"](?:127\.0\.0\.1|localhost|::1)['\"]")
_WHOLE_ENV = lazy(r"process\.env\b(?!\s*[.\[])|os\.environ\b(?!\s*[.\[])|\bENV\.to_[ha]\b|%ENV\b|"
                  r"Deno\.env\.toObject\s*\(|\bBun\.env\b(?!\.)|System\.getenv\s*\(\s*\)|(?<![.\w])getenv\s*\(\s*\)")
# Where a file server is rooted: a working directory changed to, or a root given by keyword or call.
_ROOT = lazy(r"""\bchdir\s*\(\s*(?P<chdir>[^;\n]{1,80}?)\s*\)\s*(?:;|\n|$|\bimport\b)|"""
             r"""\b(?:directory|DocumentRoot|root|static_folder|docroot)\s*[=:]\s*(?P<kw>[^,;)\n]{1,80})|"""
             r"""\b(?:express\.static|serveStatic|StaticFiles\s*\(\s*directory\s*=|http\.Dir|FileServer)\s*\(\s*"""
             r"""(?P<call>[^,;)\n]{1,80})""")
_LITERAL = lazy(r"""^\s*["']([^"']*)["']\s*$""")


def _root_kind(expr: str) -> str:
    """'home' or 'root' when the expression names home or ``/``; '' otherwise."""
    if HOME_EXPR.search(expr) or re.search(r"""["']~/?["']|\bhomedir\(\)|\bDir\.home\b""", expr):
        return "home"
    m = _LITERAL.match(expr)
    return "root" if m and m.group(1) in ("/", "C:\\\\", "C:/") else ""


def judge(prog: str, code: str, shown: str, secret_path: Callable[[Word], str]) -> Optional[tuple]:
    """What a server started by the code hands to whoever connects."""
    if not _SERVER.search(code) or _LOOPBACK.search(code):
        return None
    for m in _ROOT.finditer(code[:6000]):
        kind = _root_kind(m.group("chdir") or m.group("kw") or m.group("call") or "")
        if kind:
            where = "your home directory" if kind == "home" else "the whole file system"
            return HIGH, f"{prog} code serves {where} to the network: every file under it, keys included ({shown})"
    secret = secret_in_code(code, secret_path)
    if secret == "high":
        return HIGH, f"{prog} code serves a key or credentials to whoever connects ({shown})"
    if _WHOLE_ENV.search(code) or secret:
        return MEDIUM, f"{prog} code serves the environment or history to whoever connects ({shown})"
    return None
