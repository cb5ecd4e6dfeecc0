"""What code's calls amount to as shell commands, whatever the language (read by ``interp`` and ``code_calls``).

The rules for shell commands already know what ``curl -X DELETE URL``, ``mv /etc/passwd x``, ``rm -rf
/data/*`` or ``DROP TABLE`` cost; code spells the same acts as library calls.  Each call is written out as
the command it amounts to and judged by those rules, so the level comes from one place:

- an HTTP request with the DELETE method, in any client's spelling (``requests.delete(URL)``,
  ``httpx.delete``, ``axios.delete``, ``request('DELETE', URL)``, ``fetch(URL, {method: 'DELETE'})``,
  ``Request(URL, method='DELETE')``, ``Net::HTTP::Delete``, ``HTTP::Request->new(DELETE => URL)``,
  ``CURLOPT_CUSTOMREQUEST, "DELETE"``, ``http.NewRequest("DELETE", URL)``, ``httr::DELETE``): the word
  DELETE next to an address literal, the address itself not read for it, is ``curl -X DELETE URL``;
- a file moved or renamed (``os.rename``, ``shutil.move``, ``fs.renameSync``, ``File.rename``,
  ``FileUtils.mv``, ``Files.move``, ``rename``): ``mv SRC DST`` (``/dev/null`` as the destination loses it);
- a program started with its arguments as a list (``execa('rm', ['-rf', d])``, ``new Deno.Command('rm',
  {args: […]})``, ``exec.Command("rm", "-rf", d)``, ``new ProcessBuilder("rm", …)``, ``Command::new("rm")
  .args([…])``, ``os.execvp``, python's ``sh.rm('-rf', d)``, plumbum's ``local['rm']``): the command;
- a delete handed as a function over a directory's listing (``foreach(rm, readdir("/d", join=true))``,
  ``file.remove(list.files("/d"))``, ``unlink map {…} readdir(D)`` after ``opendir(D, "/d")``,
  ``map(os.remove, glob("/d/*"))``): ``rm -rf /d/*`` (every name listed, as ``interp`` reads a walk's deletes);
- a statement that drops, truncates or deletes everything, in any string of the code
  (``$db->query("DROP TABLE orders")``): judged as the statement it is.

The code is read after ``code_normalized`` wrote its strings out plainly.  Every scan is one pass over at most
the first ``LIMIT`` characters.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import MEDIUM, Ctx, worst
from aish.safety.rules import code_system_calls
from aish.safety.rules.code_effects import HOME_EXPR
from aish.safety.lazy_regex import lazy

LIMIT = 8000  # characters of a body read
_PER_KIND = 6  # commands written out per kind of call

_STR = r"""(?:'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`([^`]*)`)"""
_STRING = lazy(_STR)
def _literal(m: re.Match) -> str:
    return next((g for g in m.groups() if g is not None), "")


def _path(expr: str) -> Optional[str]:
    """A path an argument names: a literal, or home (and a literal joined to it)."""
    home = HOME_EXPR.search(expr)
    if home:
        rest = _STRING.search(expr, home.end())
        tail = _literal(rest) if rest else ""
        return "~" + (tail if tail.startswith("/") else "")
    m = _STRING.search(expr)
    return _literal(m) if m else None


def _quote(part: str) -> str:
    return part if re.fullmatch(r"[\w@%+=:,./~$-]+", part) else "'" + part.replace("'", "'\\''") + "'"


def _arguments(code: str, start: int, reach: int = 400) -> str:
    """A call's arguments: to its closing parenthesis (or a statement's end), within ``reach`` characters."""
    depth, end = 0, min(len(code), start + reach)
    for k in range(start, end):
        ch = code[k]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                return code[start:k]
            depth -= 1
        elif ch in ";\n" and depth == 0:
            return code[start:k]
    return code[start:end]


def _split_top(args: str) -> list:
    """Arguments split at the commas outside brackets and strings."""
    parts, depth, quote, start = [], 0, "", 0
    for k, ch in enumerate(args):
        if quote:
            quote = "" if ch == quote and args[k - 1] != "\\" else quote
        elif ch in "'\"`":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(args[start:k])
            start = k + 1
    return parts + [args[start:]]


# --- HTTP DELETE ----------------------------------------------------------------------------------------------
_URL = LazyRegex(r"""['"`](https?://[^'"`\s]+)['"`]""")
_DELETE_WORD = LazyRegex(r"(?:\.|::|\b)(?:delete|del|Delete|DELETE)\s*[(!]|['\"]DELETE['\"]|\bDELETE\s*(?:=>|,|\))|"
                         r"::Delete\b|\.DELETE\s*\(|\bhttr::DELETE\b|\bDELETE\s*\(|:delete\b|method\s*[:=]\s*:delete")


# The method named where no other verb could mean it: then any address in the code is what it deletes
# (`curl_init(URL); curl_setopt($c, CURLOPT_CUSTOMREQUEST, "DELETE")`, `h.request(Net::HTTP::Delete.new(u))`).
_DELETE_METHOD = LazyRegex(r"['\"]DELETE['\"]|::Delete\b|\bDELETE\s*=>|method\s*[:=]\s*:delete\b")


def _http_deletes(code: str) -> list:
    out = []
    anywhere = _DELETE_METHOD.search(code) is not None
    for m in list(_URL.finditer(code))[:_PER_KIND]:
        if anywhere:
            out.append(f"curl -X DELETE {_quote(m.group(1))}")
            continue
        start = max(code.rfind(";", 0, m.start()), code.rfind("\n", 0, m.start()), m.start() - 160) + 1
        ends = [k for k in (code.find(";", m.end()), code.find("\n", m.end())) if k >= 0]
        end = min(ends + [m.end() + 200])
        around = code[start:m.start()] + " " + code[m.end():end]
        if _DELETE_WORD.search(around):
            out.append(f"curl -X DELETE {_quote(m.group(1))}")
    return out


# --- moves ----------------------------------------------------------------------------------------------------
_MOVE = LazyRegex(r"(?<![\w-])(?:os\.(?:rename|replace|renames)|shutil\.move|(?:fs|fse|fsp)\.(?:rename|renameSync|move|"
                  r"moveSync)|File\.(?:rename|mv!?)|FileUtils\.(?:mv|move)|Files\.move|Deno\.rename(?:Sync)?|"
                  r"(?<![.\w])(?:rename|move|mv))\s*\(")


def _moves(code: str) -> list:
    out = []
    for m in list(_MOVE.finditer(code))[:_PER_KIND]:
        parts = _split_top(_arguments(code, m.end()))
        if len(parts) >= 2:
            src, dst = _path(parts[0]), _path(parts[1])
            if src and dst:
                out.append(f"mv {_quote(src)} {_quote(dst)}")
    return out


# --- programs started with their arguments as a list ----------------------------------------------------------
_SPAWN = LazyRegex(r"(?<![\w$])(?:execa(?:Sync|Command(?:Sync)?)?|(?:new\s+)?Deno\.Command|exec\.Command(?:Context)?|"
                   r"(?:new\s+)?ProcessBuilder|Process\.Start|Bun\.spawn(?:Sync)?|Command::new|os\.exec[lv]p?e?|"
                   r"os\.spawn[lv]p?e?|pcntl_exec|create_subprocess_(?:shell|exec)|Runtime\.getRuntime\(\)\.exec|:os\.cmd|"
                   r"(?<![\w.])Seq(?=\s*\([^)]*\)\s*\.\s*!)|sh\.(?P<prog>[a-z][\w]*)|"
                   r"(?<![.\w])(?:Kernel\.)?(?:system|exec|spawn)(?=\s*[(\[]\s*[(\[]?\s*['\"][^'\"]*['\"]\s*,)|"
                   r"local\s*\[\s*" + _STR + r"\s*\])\s*[(\[]")


def _spawns(code: str) -> list:
    out = []
    for m in list(_SPAWN.finditer(code))[:_PER_KIND]:
        region = _arguments(code, m.end())
        after = code[m.end() + len(region):m.end() + len(region) + 200]
        chained = re.match(r"\)?\s*(?:\.\s*(?:arg|args)\s*\(([^)]*)\)\s*)+", after)  # Command::new("rm").args([…])
        words = [_literal(s) for s in _STRING.finditer(region + " " + (chained.group(0) if chained else ""))][:12]
        head = m.group("prog") or next((g for g in m.groups()[1:4] if g is not None), None)
        if head:
            words = [head] + words
        if m.group(0).startswith("os.exec") and len(words) > 1 and words[1].rsplit("/", 1)[-1] == words[0]:
            words = words[1:]  # os.execlp("rm", "rm", "-rf", d): argv[0] repeated
        if len(words) == 1 and " " in words[0]:  # `create_subprocess_shell('rm -rf x')`: a command line
            out.append(words[0])
        elif words and re.fullmatch(r"[\w./-]+", words[0]):
            out.append(" ".join(_quote(w) for w in words))
    return out


# --- a delete handed as a function over a directory's listing -------------------------------------------------
_LISTING = LazyRegex(r"(?:\b(?:(?:Recursive)?DirectoryIterator|FilesystemIterator|Files\.(?:walk|list)\s*\(\s*"
                     r"(?:[\w.]*\.)?(?:Paths\.get|Path\.of)|"
                     r"readdir|readdirSync|listdir|scandir|list\.files|dir|glob|Dir\.glob|Dir\.children|"
                     r"Dir\.entries|Dir\.each_child|opendir|ls|getFiles|listFiles|File\.ls!?)\s*\(\s*(?:\w+\s*,\s*)?|"
                     r"\bDir\s*\[\s*)" + _STR)
_DELETE_NAME = LazyRegex(r"(?<![\w-])(?:rm|rm_rf|rm_r|rmtree|remove|unlink|unlinkSync|rmSync|file\.remove|"
                         r"os\.remove|os\.unlink|File\.rm!?|File\.rm_rf!?|File\.delete|delete|Remove-Item)\b")
# the delete passed as a value: foreach(rm, …), map(os.remove, …), unlink map {…}, file.remove(list.files(…))
_HANDED = LazyRegex(r"&File\.rm(?:_rf)?!?/1|"
                    r"(?:foreach|map|each|forEach|array_map|lapply|sapply|walk|Enum\.each|pmap)\s*\(\s*&?"
                    r"(?:[\w.:]*\b(?:rm|remove|unlink|unlinkSync|rmtree|delete|rm_rf|rm!)\b)|"
                    r"\b(?:unlink|file\.remove|rm|os\.remove|unlink_all|File\.delete)\s*[( ]\s*(?:map\b|grep\b|"
                    r"list\.files|readdir|glob|Dir\.glob|dir\s*\()")


# a delete given a name computed at run time, inside a loop (`for f in …: unlink(f)`, `.each { |f| File.delete(f) }`)
_DELETES = (r"(?<![\w-])(?:rm|rm_rf|rm_r|rmtree|remove|unlink|unlinkSync|rmSync|file\.remove|os\.remove|os\.unlink|"
            r"File\.rm!?|File\.rm_rf!?|File\.delete|File\.unlink|FileUtils\.rm\w*|shutil\.rmtree|fs\.rm|"
            r"fs\.unlinkSync|fs\.rmSync)(?:\s*\(\s*@?|\s+(?=\$))(?:[$A-Za-z_]|['\"][^'\"\n]*(?:\$|#\{))")
_DELETE_EACH = LazyRegex(r"(?:\bfor\b|\bforeach\b|\.each\b|\.forEach\b|\.map\b)[^\n]{0,300}?" + _DELETES +
                         r"|\[\s*" + _DELETES + r"[^\]\n]{0,300}\bfor\b")  # or a comprehension: [os.remove(…) for …]


def _listed_deletes(code: str) -> list:
    if not _HANDED.search(code) and not _DELETE_EACH.search(code):
        return []
    out = []
    for m in list(_LISTING.finditer(code))[:_PER_KIND]:
        where = _literal(m).rstrip("/*")
        if where.startswith(("/", "~")):
            out.append(f"rm -rf {_quote(where)}/*")  # every name the listing gives, as a walk's deletes are read
    return out


# --- statements in any string ---------------------------------------------------------------------------------
_SQL_LITERAL = LazyRegex(r"['\"]\s*((?:DROP\s+(?:TABLE|DATABASE|SCHEMA|COLLECTION|KEYSPACE|VIEW|INDEX)\b|TRUNCATE\b|"
                         r"DELETE\s+FROM\b|ALTER\s+TABLE\s+\S+\s+DROP\b)[^'\"]*)['\"]", re.IGNORECASE)


def statements(code: str) -> list:
    """SQL that destroys, found in the code's strings."""
    return [m.group(1) for m in list(_SQL_LITERAL.finditer(code))[:_PER_KIND]]


_CHEAP = LazyRegex(r"https?://|rename|replace|move|mv\b|\bsh\.|Command|exec|spawn|subprocess|Dir\s*\[|Iterator|"
                   r"Files\.|os\.cmd|Seq\s*\(|ProcessBuilder|Process\.Start|local\s*\[|"
                   r"readdir|listdir|list\.files|glob|scandir|opendir|Dir\.|\bls!?\s*\(|getFiles|listFiles",
                   re.IGNORECASE)


def commands(code: str) -> list:
    """The shell commands the code's calls amount to (at most a few of each kind)."""
    system = code_system_calls.commands(code)
    if not _CHEAP.search(code):
        return system
    return _http_deletes(code) + _moves(code) + _spawns(code) + _listed_deletes(code) + system


def judge(c: Ctx, code: str, shown: str) -> Optional[tuple]:
    """The worst of what the code's calls amount to, judged as the commands and statements they are."""
    from aish.safety.rules.content import sql_finding  # content imports the rules that import this module

    best = None
    for command in commands(code):
        found = c.recurse(command)
        if found is not None and found[0] >= MEDIUM:
            best = worst(best, (found[0], f"{found[1]}, done by {c.prog} code"))
    for sql in statements(code):
        found = sql_finding(sql, shown)
        if found is not None and found[0] >= MEDIUM:
            best = worst(best, found)
    return best
