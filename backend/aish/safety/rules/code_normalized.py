"""Code written out plainly before it is read (by ``interp``'s rules and ``code_translated``), whatever the language.

The readers of code look for calls and the strings given to them; code often spells those strings so that
no pattern sees them.  Each spelling is undone once, in one pass each:

- inline imports read as the module's name (``require('fs-extra').removeSync`` is ``fse.removeSync``,
  ``__import__('os').system`` is ``os.system``, ``(await import('execa'))`` is ``execa``);
- literals decoded where they stand (``b64decode('cm0gLXJm…')``, ``atob(…)``, ``Buffer.from(…, 'base64')``,
  ``base64_decode``, ``decode_base64``, ``Base64.decode64``, ``bytes.fromhex``, ``unhexlify``, ``hex2bin``,
  ``pack("H*", …)``, ``Buffer.from(…, 'hex')``): the call becomes the string it returns, so
  ``os.system(b64decode('…').decode())`` is read as the ``os.system('rm -rf …')`` it runs;
- names given a string once and used later (``d = '/var/www'; shutil.rmtree(d)``, ``$d = "/x"; system("rm
  -rf $d")``, ``const d = '/x'; execSync(`rm -rf ${d}`)``, ruby's ``"#{d}"``): the string itself; other
  interpolations (``#{x}``, an f-string's ``{x}``) are values known at run time, ``$x``;
- word lists (perl's ``qw(rm -rf /x)``, ruby's ``%w[rm -rf /x]``) as lists of strings;
- lists of strings joined into one command (``' '.join(['rm', '-rf', d])``, ``[…].join(' ')``), Java's
  ``new String[]{…}`` as a list, Elixir's sigils (``~c"rm -rf x"``) as strings;
- literals joined by any language's operator (``"rm -rf " .. d`` once ``d`` is written out, ``"a" . "b"``) as one.
"""
from __future__ import annotations

import base64
import binascii
import re

from aish.safety.lazy_regex import LazyRegex
from aish.safety.lazy_regex import lazy

LIMIT = 8000  # characters of a body read
_MAX_NAMES = 12

_Q = r"""(?:'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`([^`]*)`)"""
_MODULES = {"fs-extra": "fse", "fs/promises": "fsp", "node:fs/promises": "fsp", "child_process": "child_process",
            "node:child_process": "child_process", "node:fs": "fs"}
_INLINE_IMPORT = LazyRegex(r"\b(?:require|__import__|import_module|importlib\.import_module)\s*\(\s*['\"]"
                           r"([\w@/:.-]+)['\"]\s*\)|\(\s*await\s+import\s*\(\s*['\"]([\w@/:.-]+)['\"]\s*\)\s*\)")
_F_STRING = LazyRegex(r"(?<![\w'\"])[fF][rR]?(['\"])((?:(?!\1)[^\\\n]|\\.)*)\1")
_B64_CALL = LazyRegex(r"(?:\b(?:base64\.)?(?:b64decode|decodebytes|standard_b64decode|urlsafe_b64decode)|\batob|"
                      r"\bbase64_decode|\bdecode_base64|\bBase64\.(?:decode64|strict_decode64|urlsafe_decode64)|"
                      r"FromBase64String|\bbase64decode|\bbase64\.decode)\s*\(\s*[bru]?" + _Q + r"\s*\)|"
                      r"\bBuffer\.from\s*\(\s*" + _Q + r"\s*,\s*['\"]base64['\"]\s*\)")
_HEX_CALL = LazyRegex(r"(?:\bbytes\.fromhex|\bunhexlify|\ba2b_hex|\bhex2bin)\s*\(\s*[bru]?" + _Q + r"\s*\)|"
                      r"\bBuffer\.from\s*\(\s*" + _Q + r"\s*,\s*['\"]hex['\"]\s*\)|"
                      r"\bpack\s*\(?\s*['\"]H\*?['\"]\s*,\s*" + _Q + r"\s*\)?|"
                      r"\[\s*" + _Q + r"\s*\]\s*\.pack\s*\(\s*['\"]H\*?['\"]\s*\)")
_TO_TEXT = lazy(r"\s*\.\s*(?:decode\s*\([^()]*\)|toString\s*\([^()]*\))")
# `name = 'literal'` (python, ruby, js with const/let/var, perl's my, php's $name), ended by `;`, a newline or `)`
_ASSIGNED = LazyRegex(r"(?:^|[;\n{]|\b(?:const|let|var|my|local|our)\s)\s*(\$?[A-Za-z_]\w*)\s*=\s*" + _Q +
                      r"\s*(?=[;\n)]|$)")
_WORD_LIST = LazyRegex(r"(?:\bqw|%w|%W)\s*(?:\(([^)]*)\)|\[([^\]]*)\]|\{([^}]*)\}|/([^/]*)/)")


def _module_name(spec: str) -> str:
    return _MODULES.get(spec) or re.sub(r"\W", "_", spec.rsplit("/", 1)[-1].split(":")[-1])


def _run_time(text: str) -> str:
    """``rm -rf {d}/x`` -> ``rm -rf $d/x``; home's spellings are left for ``code_reach`` to write as ``~``."""
    return re.sub(r"\{([^{}]*)\}", lambda m: m.group(0) if "HOME" in m.group(1) or "home" in m.group(1)
                  else "$" + (re.sub(r"\W", "_", m.group(1))[:20] or "X"), text)


def _quoted(text: str) -> str:
    for q in ("'", '"', "`"):
        if q not in text and "\n" not in text:
            return q + text + q
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n") + "'"


def _decoded(m: re.Match, hexed: bool) -> str:
    literal = next((g for g in m.groups() if g is not None), "")
    try:
        raw = bytes.fromhex(literal) if hexed else base64.b64decode(literal + "=" * (-len(literal) % 4))
        text = raw.decode("utf-8")
    except (binascii.Error, ValueError, UnicodeError):
        return m.group(0)
    return _quoted(text) if text.isprintable() or "\n" in text else m.group(0)


def _undo_decoders(code: str) -> str:
    for pattern, hexed in ((_B64_CALL, False), (_HEX_CALL, True)):
        out, last = [], 0
        for m in list(pattern.finditer(code))[:8]:
            out.append(code[last:m.start()] + _decoded(m, hexed))
            last = m.end()
            to_text = _TO_TEXT.match(code, last)
            last = to_text.end() if to_text else last
        code = "".join(out) + code[last:]
    return code


_TOKENS = lazy(r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"|`[^`]*`|(?<![\w.$@#>:])(\$?[A-Za-z_]\w*)\b"
               r"(?!\s*(?:=(?!=)|\(|:(?!:)))")
_INTERPOLATED = lazy(r"\$\{\s*([A-Za-z_]\w*)\s*\}|#\{\s*([A-Za-z_]\w*)\s*\}|\$([A-Za-z_]\w*)")


def _propagate(code: str) -> str:
    names: dict = {}
    for m in list(_ASSIGNED.finditer(code))[:_MAX_NAMES]:
        names.setdefault(m.group(1), next((g for g in m.groups()[1:] if g is not None), ""))
    if not names:
        return code

    def inside(m: re.Match) -> str:
        name = next(g for g in m.groups() if g is not None)
        value = names.get(name, names.get("$" + name))
        return value if value is not None else m.group(0)

    def token(m: re.Match) -> str:
        text = m.group(0)
        if m.group(1) is not None:
            value = names.get(m.group(1))
            return _quoted(value) if value is not None else text
        return _INTERPOLATED.sub(inside, text)  # an f-string's parts are `$name` by now, in either quote

    return _TOKENS.sub(token, code)


# A list of strings joined into one command (`' '.join(['rm', '-rf', d])`, `['rm', '-rf', d].join(' ')`), Java's
# `new String[]{"rm", "-rf", d}`, Elixir's sigils (`~c"rm -rf x"`, `~s(...)`).
_QNC = r"""(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`[^`]*`)"""  # a literal, nothing captured
_STRINGS = r"((?:\s*" + _QNC + r"(?:\s*,)?)+)\s*"
_JOIN_CALL = LazyRegex(r"['\"]\s['\"]\s*\.\s*join\s*\(\s*\[" + _STRINGS + r"\]\s*\)|"
                       r"\[" + _STRINGS + r"\]\s*\.\s*join\s*\(\s*['\"]\s['\"]\s*\)")
_JAVA_ARRAY = LazyRegex(r"new\s+String\s*\[\s*\]\s*\{([^{}]*)\}")
_SIGIL = LazyRegex(r"~[cCsS](?:\"([^\"\n]*)\"|\(([^)\n]*)\)|'([^'\n]*)')")


def _joined_lists(code: str) -> str:
    def joined(m: re.Match) -> str:
        parts = [next(g for g in p.groups() if g is not None) for p in re.finditer(_Q, m.group(1) or m.group(2) or "")]
        return _quoted(" ".join(parts))

    code = _JOIN_CALL.sub(joined, code) if "join" in code else code
    code = _JAVA_ARRAY.sub(lambda m: "[" + m.group(1) + "]", code) if "String" in code else code
    return _SIGIL.sub(lambda m: _quoted(next(g for g in m.groups() if g is not None)), code) if "~" in code else code


def _lists(code: str) -> str:
    return _WORD_LIST.sub(lambda m: "(" + ", ".join(_quoted(w) for w in next(
        g for g in m.groups() if g is not None).split()) + ")", code)


# Two literals joined (`"rm -rf " .. '/srv'`, `"a" . "b"`, `'a' + 'b'`, `"a" ~ "b"`): one literal.
_JOINED = lazy(r"(['\"])((?:(?!\1)[^\\\n])*)\1\s*(?:\+|\.\.|\.|~|<>)\s*(['\"])((?:(?!\3)[^\\\n])*)\3")


def _fold(code: str) -> str:
    for _ in range(3):  # `"a" .. "b" .. "c"` takes two passes; each is one scan
        folded = _JOINED.sub(lambda m: _quoted(m.group(2) + m.group(4)), code)
        if folded == code:
            break
        code = folded
    return code


def normalized(code: str) -> str:
    """The code with its strings written out plainly (see the module's docstring)."""
    code = code[:LIMIT]
    if "require" in code or "import" in code:
        code = _INLINE_IMPORT.sub(lambda m: _module_name(m.group(1) or m.group(2)), code)
    if any(k in code for k in ("64", "atob", "hex", "pack", "Buffer")):
        code = _undo_decoders(code)
    if "qw" in code or "%w" in code or "%W" in code:
        code = _lists(code)
    code = _joined_lists(code)
    if "{" in code and ("f'" in code or 'f"' in code or "F'" in code or 'F"' in code):
        code = _F_STRING.sub(lambda m: m.group(1) + _run_time(m.group(2)) + m.group(1), code)
    if "=" in code:
        code = _propagate(code)
    if re.search(r"['\"]\s*(?:\+|\.\.?|~|<>)\s*['\"]", code):
        code = _fold(code)
    if "#{" in code:  # ruby's other interpolations: values known at run time (not a shell comment)
        code = re.sub(r"#\{(?![^}]*(?:HOME|home))[^}]*\}", "$X", code)
    return code
