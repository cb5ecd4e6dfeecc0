"""Effect: deletes files.  ``rm``, ``find -delete``/``-exec rm``, ``shred``, ``mv`` into
nothing, ``rsync --delete``, ``unlink``/``rmdir``/``srm``; the target decides the level."""
from __future__ import annotations


from typing import Optional

from aish.safety.rules.ages import older_than
from aish.safety.rules.common import (HIGH, LOW, MEDIUM, SEVERE, Ctx, Target, classify, describe, fragment,
                                      is_device, parse_opts, target, worst)
from aish.safety.program_names import plain_name
from aish.safety.rules import records_erased
from aish.safety.rules.asked_each import asks_each
from aish.safety.rules.into_dir import into_directory
from aish.safety.shell_words import Word
from aish.safety.unwrap import unwrap
from aish.safety.lazy_regex import lazy

_FIND_VALUED = {"-name", "-iname", "-path", "-ipath", "-type", "-mtime", "-mmin", "-size", "-user",
                "-group", "-perm", "-newer", "-maxdepth", "-mindepth", "-regex", "-iregex", "-wholename",
                "-atime", "-ctime", "-amin", "-cmin", "-links", "-inum", "-uid", "-gid", "-fstype"}


# Debian's convention: a `NAME-enabled` folder holds links to the files of `NAME-available` (a2dissite removes one)
_ENABLED_LINK = lazy(r"^/etc/(?:[\w.-]+/)+\w+-enabled/[^/*?\[]+$")


# Logs already rotated: compressed or numbered archives (`*.gz`, `syslog.1`, `*.[0-9]`, `*.old`) below /var/log
_ROTATED_LOGS = lazy(r"^/var/log/([^/*]+/)*[^/]*\.(gz|xz|bz2|zst|lz4|zip|old|\d+|\[0-9\])$")


def delete_level(t: Target, recursive: bool, force: bool = False) -> Optional[int]:
    """How bad deleting ``t`` is (None: routine)."""
    k = t.kind
    if k in SEVERE or k in ("dot-critical", "userhome"):
        return HIGH if recursive or k in ("root", "system-top", "device", "dot-critical") else MEDIUM
    if k == "critical":
        return HIGH
    if k == "system":
        if not recursive and _ENABLED_LINK.match(t.path):
            return None  # `rm /etc/nginx/sites-enabled/default`: a site switched off, its file stays in *-available
        if _ROTATED_LOGS.match(t.path):
            return MEDIUM  # `rm -rf /var/log/*.gz`: the rotated archives; the logs being written stay
        return HIGH if recursive or records_erased.who_got_in(t.path) else MEDIUM
    if k == "all":
        return HIGH if recursive else MEDIUM
    if k == "var":  # `rm -f "$F"` with F unset removes nothing; `rm -r "$D"` may be given anything
        return HIGH if recursive else None
    if k == "var-guarded":
        return MEDIUM if recursive else None
    if k in ("history",):
        return MEDIUM
    if k == "dot-rc":
        return MEDIUM
    if k in ("dot", "user", "other"):
        return MEDIUM if recursive else None
    if k == "project":
        return MEDIUM if recursive else None
    return None  # output, temp


def judge_targets(c: Ctx, what: str, targets: list, recursive: bool, force: bool = False) -> Optional[tuple]:
    best = None
    for w in targets:
        t = target(w)
        level = delete_level(t, recursive, force)
        if level is not None:
            best = worst(best, (level, f"{what} of {describe(t)} ({c.text})"))
    return best


_ASKING = frozenset({"i", "--interactive", "--interactive=always"})


def rule_rm(c: Ctx) -> Optional[tuple]:
    flags, _, targets = parse_opts(c.args)
    rec = bool(flags & {"r", "R", "--recursive"})
    force = bool(flags & {"f", "--force"})
    what = ("recursive forced delete" if rec and force else "recursive delete" if rec
            else "forced delete" if force else "delete")
    if "--no-preserve-root" in flags:
        return HIGH, f"{what} with --no-preserve-root ({c.text})"
    best = None
    if c.xargs:
        searched = _searched(c.chain)
        fed = f"every file {searched} finds" if searched else "paths read from the previous command"
        best = (MEDIUM if rec or force or searched else LOW, f"{what} of {fed} ({c.text})")
        best = worst(best, _fed_targets(c, what, rec, force))
    best = worst(best, judge_targets(c, what, targets, rec, force))
    if best is not None and best[0] == MEDIUM and flags & _ASKING and asks_each(c):
        return None  # `rm -ri ~/old`: every file asked for; a severe root keeps its level
    return best


def fed_paths(chain: list) -> list:
    """The paths a pipe feeds to ``xargs``: what ``echo``/``printf`` print, where ``find``/``ls``/``fd`` look.

    ``find / -name '*.log' | xargs rm`` deletes files under /, so / is the target
    that decides the level; a ``find`` limited to build output feeds nothing worth a warning.
    """
    out: list[str] = []
    for feeder in chain:
        words = feeder.words
        if not words:
            continue
        words = unwrap(words)[0]  # the feeder may carry sudo/env prefixes too
        prog = words[0].text.rsplit("/", 1)[-1] if words else ""
        args = words[1:]
        if prog in ("echo", "printf"):
            out.extend(w for w in args if not w.text.startswith("-") and "%" not in w.text)
        elif prog in ("ls", "fd", "fdfind", "locate", "du"):
            out.extend(w for w in args if not w.text.startswith("-"))
        elif prog == "find":
            names = [args[k + 1].text for k, w in enumerate(args[:-1]) if w.text in ("-name", "-iname")]
            roots = []
            for w in args:
                if w.text.startswith(("-", "(", "!")):
                    break
                roots.append(w)
            if names and all(classify(n) == "output" or classify(n.strip("*/") or "x") == "output" for n in names) \
                    and not any(target(r).kind in SEVERE + ("system",) for r in roots):
                continue
            # no start point: GNU and busybox find search the current directory
            out.extend(roots or [Word(".", ".")])
    return out


# A search over a store (mail, an index, the file database) feeding a delete: whatever it matches goes.
_SEARCHES = lazy(r"^(locate|mlocate|plocate|mdfind|grep|egrep|rg|ag|ack|mu|notmuch|everything|es|comm)$|"
                 r"(^|[-_])(search|find|query|locate|ls-files|list-files)$|"
                 r"dupe|dups?$|^(duff|rdfind|fclones|rmlint|czkawka\w*|findup|dupd)$")  # duplicate finders


# A searcher told to print the names of the files it matches, whatever its name: grep's `-l`/`-L` (alone or in a
# bundle with its other letters), `--files-with-matches`, `--files`, `--name-only`.
_LISTS_FILES = lazy(r"^(-[a-zA-Z]*[lL][a-zA-Z]*|--files(-with(out)?-match(es)?)?|--name-only|--files0)$")


def _searched(chain: list) -> str:
    """The program whose search feeds ``xargs`` (``notmuch search --output=files … | xargs rm``), or ""."""
    feeder = chain[-1].words if chain else []
    if not feeder or feeder[0].text in ("find", "fd", "fdfind", "ls", "echo", "printf", "cat"):
        return ""  # judged by the paths they name
    words = [w.text for w in feeder[:3] if not w.text.startswith("-")]
    if any(_LISTS_FILES.match(w.text) for w in feeder[1:8]):  # `ugrep -rl pw ~/notes`, `pdfgrep -l x`, `sift -l`
        return feeder[0].text
    return words[0] if any(_SEARCHES.search(w) for w in words) else ""


def _fed_targets(c: Ctx, what: str, rec: bool, force: bool) -> Optional[tuple]:
    """``echo / | xargs rm -rf``, ``find / … | xargs rm``: judge what the pipe feeds."""
    best = None
    for w in fed_paths(c.chain):
        t = target(w)
        level = delete_level(t, True if t.kind in ("root", "home", "system-top", "system") else rec, force)
        if level is not None and level > LOW:
            best = worst(best, (level, f"{what} of paths under {describe(t)} fed by a pipe ({c.text})"))
    return best


def rule_unlink(c: Ctx) -> Optional[tuple]:
    _, _, targets = parse_opts(c.args)
    return judge_targets(c, "delete", targets, False, True)


def rule_find(c: Ctx) -> Optional[tuple]:
    roots = []
    i = 0
    while i < len(c.args) and not c.args[i].text.startswith(("-", "(", "!")):
        roots.append(c.args[i])
        i += 1
    kinds = [target(r) for r in roots] or [Target("all", ".", ".")]
    rank = {"root": 9, "system-top": 8, "device": 8, "home": 8, "critical": 7, "dot-critical": 7, "system": 6,
            "userhome": 6, "var": 5, "all": 4, "dot": 3, "dot-rc": 3, "user": 3, "other": 3, "project": 2,
            "var-guarded": 2, "temp": 0,
            "output": 0, "history": 2}
    where = max(kinds, key=lambda t: rank.get(t.kind, 1))
    critical = where.kind in SEVERE or where.kind in ("system", "critical", "dot-critical")
    best = None
    rest = c.args[i:]
    filtered = any(w.text in _FIND_VALUED for w in rest)
    names = [rest[k + 1] for k, w in enumerate(rest[:-1]) if w.text in ("-name", "-iname", "-path", "-ipath")]
    if names and not critical and all(classify(n.text.strip("*/") or "x") == "output" or
                                      classify(n.text) == "output" for n in names):
        return None  # find . -name '*.pyc' -delete: a project's own build output
    if any(w.text == "-empty" for w in rest) and not any(w.text.startswith(("-exec", "-ok")) for w in rest):
        # only empty files and directories go
        return (LOW, f"find -empty -delete removes empty files and directories under {describe(where)} "
                     f"({c.text})") if critical else None
    older = _retention(where, rest)
    j = 0
    while j < len(rest):
        w = rest[j]
        if w.text == "-delete":
            level = HIGH if critical else MEDIUM if where.kind not in ("temp", "output") else None
            if level is not None and older:
                best = worst(best, (MEDIUM, f"find -delete removes the logs {older} under {where.shown} ({c.text})"))
            elif level is not None:
                best = worst(best, (level, f"find -delete removes every match under {describe(where)} ({c.text})"))
        elif w.text in ("-exec", "-execdir", "-ok", "-okdir"):
            inner = []
            for x in rest[j + 1:]:
                if x.text in (";", "+", "\\;"):
                    break
                inner.append(x)
            j += len(inner)
            # find also matches its start point: `find / -exec chmod 777 {} +` changes / itself
            start = roots[0] if roots and not names else None
            inner = [start if x.text == "{}" and start is not None else x for x in inner]
            if names and roots:  # `find /tmp -name 'pytest-*' -exec rm -rf {} +`: each match, not the start point
                inner = [Word(roots[0].text.rstrip("/") + "/" + names[0].text, x.raw, has_var=roots[0].has_var)
                         if x.text == "{}" else x for x in inner]
            each = (roots[0].text.rstrip("/") + "/" + names[0].text) if roots and names else \
                roots[0].text if roots else "."
            inner = [Word(x.text.replace("{}", each), x.raw, quoted=x.quoted, has_var=x.has_var or roots[0].has_var
                          if roots else x.has_var) if "{}" in x.text and x.text != "{}" else x for x in inner]
            found = c.check(inner)
            progs = {plain_name(x.text.rsplit("/", 1)[-1]) for x in inner[:3]}
            prog = next((p for p in ("rm", "unlink", "shred", "rmdir", "srm") if p in progs), None)
            if prog and where.kind not in ("temp", "output") and older:
                found = worst((MEDIUM, f"find {w.text} {prog} removes the logs {older} under {where.shown} ({c.text})"),
                              found)
            elif prog and where.kind not in ("temp", "output"):
                found = worst((HIGH if critical else MEDIUM,
                               f"find {w.text} {prog} removes every match under {describe(where)} ({c.text})"), found)
            elif found is not None and found[0] >= MEDIUM and critical:
                found = (HIGH, f"{found[1]} for every match under {describe(where)}")
            elif found is None and "chmod" in progs and where.kind in _SYSTEM_KINDS and \
                    any(_SETUID_OFF.fullmatch(x.text) for x in inner) and not names:
                found = (MEDIUM, f"find … -exec chmod strips the setuid bit from every program under "
                                 f"{describe(where)}: sudo, su and passwd stop working ({c.text})")
            elif found is None and inner and not filtered and critical and any(
                    x.text in ("-R", "-r", "-i", "-f") for x in inner):
                found = (MEDIUM, f"runs {inner[0].text} on every file under {describe(where)} ({c.text})")
            best = worst(best, found)
        j += 1
    return best


def _retention(where: Target, rest: list) -> str:
    """``find /var/log … -mtime +7 -delete``: logs older than an age removed, the retention logrotate keeps
    ("older than 7 days"); "" for any other find (an age is no retention over /usr or the whole system)."""
    if not (where.path.rstrip("/") + "/").startswith("/var/log/"):
        return ""
    return older_than([w.text for w in rest])


# `chmod u-s`, `a-s`, `ug-s`: the setuid/setgid bit taken away (over every program `find` matches under a system root).
_SETUID_OFF = lazy(r"([ugoa]*-[rwxXt]*s[rwxXt]*,?)+")
_SYSTEM_KINDS = frozenset({"root", "system-top", "system", "critical"})


def rule_shred(c: Ctx) -> Optional[tuple]:
    _, _, pos = parse_opts(c.args, frozenset({"-n", "-s", "--iterations", "--size", "--random-source"}))
    dev = next((w.text for w in pos if is_device(w.text)), None)
    if dev:
        return HIGH, f"{c.prog} overwrites the device {dev} ({c.text})"
    found = judge_targets(c, f"{c.prog} (overwrite beyond recovery)", pos, True)
    return worst((MEDIUM, f"{c.prog} overwrites {fragment([w.text for w in pos]) or 'files'} beyond "
                          f"recovery ({c.text})"), found)


def rule_mv(c: Ctx) -> Optional[tuple]:
    _, values, pos = parse_opts(c.args, frozenset({"-t", "-S", "--target-directory", "--suffix"}))
    if len(pos) >= 2 and pos[-1].text == "/dev/null":
        return HIGH, f"moves {pos[0].text} to /dev/null (it is gone) ({c.text})"
    dest = values.get("-t") or values.get("--target-directory")
    sources = pos if dest else pos[:-1]
    best = None
    # a key file renamed beside itself (not its folder, nor authorized_keys, which lets others in by its name)
    beside = len(pos) == 2 and not dest and "/" in pos[0].text and \
        pos[0].text.rsplit("/", 1)[0] == pos[1].text.rsplit("/", 1)[0] and not pos[1].text.endswith("/") and \
        pos[0].text.rsplit("/", 1)[1][:1] not in (".", "") and "authorized_keys" not in pos[0].text
    for w in sources:
        t = target(w)
        if t.kind == "dot-critical" and beside:  # `mv ~/.ssh/id_rsa ~/.ssh/id_rsa.old`: kept, under another name
            best = worst(best, (MEDIUM, f"renames {t.shown} to {pos[1].text}: ssh and the tools that look for it by "
                                        f"its name no longer find it ({c.text})"))
        elif t.kind in ("root", "home", "system-top", "critical", "dot-critical", "device"):
            best = worst(best, (HIGH, f"moves {describe(t)} away ({c.text})"))
        elif t.kind == "system":
            best = worst(best, (MEDIUM, f"moves the system path {t.shown} away ({c.text})"))
    if len(pos) >= 2 and not dest:
        inside = into_directory(pos[-1], sources)
        t = target(inside if inside is not None else pos[-1])
        if t.kind in ("critical", "device"):
            best = worst(best, (HIGH, f"replaces {t.shown} ({c.text})"))
        elif t.kind in ("dot-critical", "history"):
            best = worst(best, (MEDIUM, f"replaces {t.shown} ({c.text})"))
    return best


def rule_rsync(c: Ctx) -> Optional[tuple]:
    flags, _, pos = parse_opts(c.args, frozenset({"-e", "--rsh", "--exclude", "--include", "--filter",
                                                  "-f", "--backup-dir", "--files-from"}))
    if not any(f.startswith("--delete") or f in ("--del", "--remove-source-files") for f in flags):
        return None
    dest = target(pos[-1]) if pos else None
    what = "rsync --delete removes files in the destination that the source lacks"
    if "--remove-source-files" in flags:
        what = "rsync --remove-source-files deletes the source files"
    if dest and dest.kind in SEVERE + ("system", "critical", "dot-critical"):
        return HIGH, f"{what}: {describe(dest)} ({c.text})"
    src = target(pos[0]) if len(pos) >= 2 else None
    if src and src.kind == "var" and dest and dest.kind != "temp":  # `"$SRC"` unset: nothing to keep
        return HIGH, f"{what}, and the source may be empty ({c.text})"
    return MEDIUM, f"{what} ({c.text})"


RULES = {"rm": [rule_rm], "unlink": [rule_unlink], "rmdir": [], "srm": [rule_shred], "find": [rule_find],
         "shred": [rule_shred], "wipe": [rule_shred], "mv": [rule_mv], "rsync": [rule_rsync]}
