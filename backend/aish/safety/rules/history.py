"""Effect: rewrites or discards version-control history, in any of its spellings.

Shared history (what others pulled) is worse than local: a force push to a
production-looking branch or of every branch is high; discarding local
uncommitted work is medium; a lease-guarded push is low."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, LOW, MEDIUM, Ctx, classify, parse_opts
from aish.safety.lazy_regex import lazy

_GIT_VALUED = {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env"}
PROTECTED_BRANCH = lazy(r"^(\+?)(refs/heads/)?(main|master|trunk|develop|dev|prod|production|release.*|"
                        r"stable|live|HEAD)$")


def git_sub(c: Ctx) -> tuple:
    """(subcommand, the Words after it) of a ``git`` command, skipping global options."""
    args = c.args
    i = 0
    while i < len(args) and args[i].text.startswith("-"):
        i += 2 if args[i].text in _GIT_VALUED else 1
    if i >= len(args):
        return "", []
    return args[i].text, args[i + 1:]


_EXPIRE_NOW = lazy(r"^gc\.(reflogexpire|reflogexpireunreachable|pruneexpire|worktreepruneexpire)=(now|0|all)$|"
                   r"^core\.logallrefupdates=false$", re.IGNORECASE)


# `git -c remote.NAME.mirror=true push NAME` pushes as `--mirror` does.
_MIRROR = lazy(r"^remote\.[^=]+\.mirror(=(true|1|yes|on))?$", re.IGNORECASE)


def _settings(c: Ctx) -> list:
    """The ``git -c name=value`` settings before the subcommand."""
    out, texts = [], c.texts
    for k, t in enumerate(texts):
        if not t.startswith("-"):
            break
        if t == "-c" and k + 1 < len(texts):
            out.append(texts[k + 1])
    return out


def rule_git_history(c: Ctx) -> Optional[tuple]:
    sub, rest = git_sub(c)
    if sub in ("gc", "prune", "reflog", "repack", "maintenance") and any(_EXPIRE_NOW.match(s) for s in _settings(c)):
        return MEDIUM, f"git -c … expires the reflog and prunes unreachable commits now (no way back) ({c.text})"
    flags, values, pos = parse_opts(rest, frozenset({"-m", "-o", "--push-option", "--repo", "-e", "--exclude",
                                                     "--expire", "--prune", "--expire-unreachable", "-b", "-B",
                                                     "--source", "-s", "--onto", "-X", "--strategy-option"}))
    texts = [w.text for w in rest]
    if sub == "push":
        refs = [w.text for w in pos[1:]]
        forced = bool(flags & {"f", "--force"}) or any(t.startswith("+") for t in refs)
        # a lease guards nothing once --force (or a +ref) is given too
        lease = bool(flags & {"--force-with-lease", "--force-if-includes"}) and not forced
        everything = bool(flags & {"--all", "--mirror", "--tags"}) or any(t in ("*", "+*", "refs/heads/*",
                                                                                "+refs/heads/*:refs/heads/*")
                                                                          for t in refs)
        if "--mirror" in flags or any(_MIRROR.match(s) for s in _settings(c)):
            return HIGH, (f"push --mirror makes the remote match this clone: its other branches and tags are deleted "
                          f"({c.text})")
        if forced:
            protected = [r for r in refs if PROTECTED_BRANCH.match(r.split(":")[-1])]
            if everything or protected:
                what = "every branch" if everything else protected[0].lstrip("+")
                return HIGH, f"force push rewrites the shared history of {what} on the remote ({c.text})"
            return MEDIUM, f"force push overwrites the remote branch history ({c.text})"
        if lease:
            protected = [r for r in refs if PROTECTED_BRANCH.match(r.split(":")[-1])]
            if everything or protected:
                what = "every remote branch" if everything else protected[0].split(":")[-1]
                return MEDIUM, f"rewrites the shared history of {what} if nobody pushed meanwhile ({c.text})"
            return LOW, f"rewrites the remote branch if nobody pushed meanwhile ({c.text})"
        return None
    if sub == "reset" and flags & {"--hard", "--merge"}:
        return MEDIUM, f"git reset --hard discards uncommitted changes ({c.text})"
    if sub == "clean" and flags & {"f", "--force"} and not flags & {"n", "--dry-run", "i", "--interactive"}:
        if "X" in flags and "x" not in flags and pos and all(classify(w.text) == "output" for w in pos):
            return None  # `git clean -fdX -- build/`: only ignored files, under a build directory
        extra = " and ignored files (-x)" if flags & {"x", "X"} else ""
        return MEDIUM, f"git clean deletes untracked files{extra} ({c.text})"
    if sub == "checkout" and (flags & {"f", "--force"} or any(t in (".", ":/", "*", ":(top)") for t in texts) or
                              "--" in texts and any(t.endswith("/") for t in texts[texts.index("--") + 1:])):
        return MEDIUM, f"discards uncommitted changes in the working tree ({c.text})"
    if sub == "restore" and not flags & {"S", "--staged"} or sub == "restore" and flags & {"W", "--worktree"}:
        if any(w.text in (".", ":/", "*", ":(top)") or w.text.endswith("/") for w in pos) or values.get("--source") \
                or values.get("-s"):
            return MEDIUM, f"discards uncommitted changes in the working tree ({c.text})"
    if sub == "switch" and flags & {"f", "--force", "--discard-changes"}:
        return MEDIUM, f"discards uncommitted changes in the working tree ({c.text})"
    if sub == "stash" and texts[:1] == ["clear"]:
        return MEDIUM, f"drops every stash ({c.text})"
    if sub == "stash" and texts[:1] == ["drop"]:
        return LOW, f"drops a stash ({c.text})"
    if sub == "filter-repo" and set(texts) & {"--analyze", "--dry-run", "--help", "-h"}:
        return None  # writes a report, rewrites nothing
    if sub in ("filter-branch", "filter-repo") or (sub == "rebase" and flags & {"--root"}):
        return MEDIUM, f"rewrites the history of the repository ({c.text})"
    if sub == "reflog" and texts[:1] in (["expire"], ["delete"]):
        return MEDIUM, f"permanently drops unreachable commits ({c.text})"
    if sub == "gc" and values.get("--prune") in ("now", "all") or sub == "prune" and values.get("--expire") == "now":
        # medium, kept (session 17): the reflog still holds recent commits, but a dropped stash, a dangling commit
        # and an object an interrupted or concurrent git process wrote go now, with no grace period to recover them
        return MEDIUM, f"deletes every object no ref or reflog keeps, now: dropped stashes and dangling commits " \
                       f"cannot be recovered ({c.text})"
    if sub == "worktree" and texts[:1] == ["remove"] and flags & {"f", "--force"}:
        return MEDIUM, f"deletes a worktree with its uncommitted changes ({c.text})"
    if sub == "update-ref" and flags & {"d"}:
        return MEDIUM, f"deletes a ref directly (no reflog safety net) ({c.text})"
    if sub == "rm" and flags & {"r"} and any(w.text in (".", "*", ":/") for w in pos) and not flags & {"--cached"}:
        return MEDIUM, f"deletes every tracked file from the working tree ({c.text})"
    return None


def rule_history_rewriters(c: Ctx) -> Optional[tuple]:
    """BFG and friends rewrite every commit of a repository."""
    texts = c.texts
    if c.prog in ("bfg", "bfg.jar") or c.prog == "java" and any(t.endswith("bfg.jar") or "bfg-" in t for t in texts):
        if any(t.startswith(("--delete-", "--replace-text", "--strip-blobs", "-D", "-b")) for t in texts):
            return MEDIUM, f"rewrites every commit of the repository ({c.text})"
    return None


def rule_svn(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    sub = next((t for t in texts if not t.startswith("-")), "")
    if sub == "revert" and any(t in ("-R", "--recursive", "--depth=infinity") for t in texts):
        return MEDIUM, f"svn revert -R discards every local change under it ({c.text})"
    if sub == "cleanup" and any(t in ("--remove-unversioned", "--remove-ignored") for t in texts):
        return MEDIUM, f"svn cleanup deletes unversioned files ({c.text})"
    return None


def rule_hg(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    sub = next((t for t in texts if not t.startswith("-")), "")
    if sub in ("strip", "prune", "obsolete") or sub == "histedit":
        return MEDIUM, f"hg {sub} removes or rewrites changesets ({c.text})"
    if sub == "push" and any(t in ("-f", "--force") for t in texts):
        return MEDIUM, f"force push overwrites the remote history ({c.text})"
    if sub in ("update", "up", "revert", "purge", "clean") and any(t in ("-C", "--clean", "--all", "-a", "--no-backup")
                                                                   for t in texts):
        return MEDIUM, f"hg {sub} discards uncommitted changes ({c.text})"
    return None


def rule_jj(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    if texts[:2] == ["git", "push"] and any(t in ("--allow-new", "--force", "--all", "--deleted") for t in texts[2:]) \
            and ("--deleted" in texts or "--all" in texts):
        return MEDIUM, f"pushes deletions or every bookmark ({c.text})"
    if texts[:1] == ["abandon"] and any("::" in t or t == "all()" for t in texts[1:]):
        return MEDIUM, f"abandons many changes ({c.text})"
    return None


# Other version control systems' commands that drop commits or their history for good (`bzr uncommit`,
# `fossil scrub --verily`, `p4 obliterate`, `darcs obliterate`, `sl hide`, `pijul unrecord`, `jj abandon`).
_VCS_DISCARDS = {"bzr": {"uncommit", "remove-branch"}, "brz": {"uncommit", "remove-branch"},
                 "fossil": {"scrub", "purge", "shun"}, "p4": {"obliterate", "archive"}, "darcs": {"obliterate",
                 "unrecord", "unpull"}, "sl": {"hide", "strip", "uncommit", "unamend"}, "pijul": {"unrecord"},
                 "jj": {"abandon"}, "git-branchless": {"hide"}}


def rule_vcs_discards(c: Ctx) -> Optional[tuple]:
    """A subcommand of another VCS that drops commits: what they held is gone from the history."""
    sub = next((t for t in c.texts if not t.startswith("-")), "")
    if sub in _VCS_DISCARDS.get(c.prog, ()):
        return MEDIUM, f"{c.prog} {sub} drops commits or their history ({c.text})"
    return None


RULES = {"git": [rule_git_history], "hg": [rule_hg], "svn": [rule_svn], "jj": [rule_jj, rule_vcs_discards],
         "bfg": [rule_history_rewriters], "java": [rule_history_rewriters],
         **{p: [rule_vcs_discards] for p in _VCS_DISCARDS if p != "jj"}}
