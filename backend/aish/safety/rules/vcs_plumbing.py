"""Effect: what version control loses through the commands its history rules do not name.

git's own rules judge the porcelain that rewrites history (push, reset, clean...).  Beyond them:

- add-ons and aliases (``git bug rm``, ``git nuke``, ``git undo --hard``): any subcommand that is not
  one of git's own (``GIT_OWN``) is judged by its words, as any program's are (``table.covered`` leaves
  it to the vocabulary); an add-on's ``--hard`` discards uncommitted work;
- plumbing that deletes or overwrites: ``git notes remove``, ``git symbolic-ref --delete``, stored
  credentials erased (``git credential reject``, ``git credential-store erase``), ``git checkout-index
  --force`` over the working tree;
- a clone or an init told to force over a repository that is already there (``yadm clone -f URL``,
  ``dvc init -f``), and add-ons named for doing that (``git force-clone``, ``git pull-force``);
- ``git rm -r DIR``: every tracked file under it leaves the working tree (``--cached`` keeps them);
  ``git read-tree -u --reset``: the index and the working tree are written over;
- other VCSs' words for discarding local work (``p4 revert``, ``p4 clean``, ``tf undo``, ``tf scorch``,
  ``cleartool rmelem``), quiet with their keep or preview options (``p4 revert -k``, ``-n``);
- another VCS's remove, which deletes the file from the working directory too (``hg rm -r src/x``),
  unless told to keep it (``hg rm --after``, ``hg forget``).
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx, target
from aish.safety.verb_words import split_word
from aish.safety.verbs import PACKAGE_TOOLS
from aish.safety.rules.history import _GIT_VALUED, git_sub
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

# git's own commands (`git --list-cmds=main,nohelpers`): anything else is an add-on or an alias.
GIT_OWN = frozenset("""
add am annotate apply archive bisect blame branch bugreport bundle cat-file check-attr check-ignore check-mailmap
check-ref-format checkout checkout-index cherry cherry-pick citool clean clone column commit commit-graph
commit-tree config count-objects credential credential-cache credential-store daemon describe diagnose diff
diff-files diff-index diff-tree difftool fast-export fast-import fetch fetch-pack filter-branch fmt-merge-msg
for-each-ref for-each-repo format-patch fsck fsck-objects gc get-tar-commit-id grep gui hash-object help hook
http-backend http-fetch http-push imap-send index-pack init init-db instaweb interpret-trailers log ls-files
ls-remote ls-tree mailinfo mailsplit maintenance merge merge-base merge-file merge-index merge-octopus
merge-one-file merge-ours merge-recursive merge-resolve merge-subtree merge-tree mergetool mktag mktree
multi-pack-index mv name-rev notes pack-objects pack-redundant pack-refs patch-id prune prune-packed pull push
quiltimport range-diff read-tree rebase receive-pack reflog remote repack replace request-pull rerere reset
restore rev-list rev-parse revert rm send-email send-pack shell shortlog show show-branch show-index show-ref
sparse-checkout stage stash status stripspace submodule subtree switch symbolic-ref tag unpack-file
unpack-objects update-index update-ref update-server-info upload-archive upload-pack var verify-commit
verify-pack verify-tag version whatchanged worktree write-tree filter-repo lfs annex p4 svn cvsimport
cvsserver archimport
""".split())
# Credential helpers whose `erase` forgets a stored login (the in-memory cache only forgets a cached one).
_KEPT_CREDENTIALS = ("credential-store", "credential-osxkeychain", "credential-manager", "credential-manager-core",
                     "credential-libsecret", "credential-wincred", "credential-gnome-keyring")
# What an add-on does by force to the local checkout (`git force-clone`, `git pull-force`).
_SYNCING = frozenset({"clone", "pull", "checkout", "reset", "sync", "fetch", "update", "overwrite"})
# `-f` names a file, not force, when a file follows (`kind create cluster -f kind.yaml`).
_A_FILE = lazy(r"\.(ya?ml|json|toml|cfg|conf|ini|hcl|xml|txt|env|lock|js|ts|py)$|^(-|Dockerfile.*)$")
# Other VCSs' words that discard local work or delete an element for good, and the options that keep or preview.
_DISCARDS_LOCAL = {"p4": {"revert", "clean"}, "tf": {"undo", "scorch"}, "tf.exe": {"undo", "scorch"},
                   "cleartool": {"rmelem", "rmver", "rmbranch", "rmtype"}}
_KEEPS_LOCAL = {"-k", "-n", "-a", "/preview", "-preview", "--help", "-h"}
# Other VCSs whose remove deletes the file from the working directory, and the options that keep it.
_REMOVES = {"hg": {"remove", "rm"}, "chg": {"remove", "rm"}}
_KEEPS = {"-A", "--after", "--keep", "-h", "--help"}


def git_own(texts: list) -> bool:
    """Is the subcommand of ``git TEXTS…`` (after global options such as ``-C DIR``) one of git's own?  A word
    of two letters is taken for an alias of git's own (``git co``, ``git st``, ``git rb`` for rebase)."""
    k = 0
    while k < len(texts) and texts[k].startswith("-"):
        k += 2 if texts[k] in _GIT_VALUED else 1
    return k >= len(texts) or texts[k] in GIT_OWN or len(texts[k]) <= 2


def rule_git_plumbing(c: Ctx) -> Optional[tuple]:
    """git subcommands beyond the history rules: add-ons judged by their words, plumbing that deletes."""
    sub, rest = git_sub(c)
    texts = [w.text for w in rest]
    if not sub or sub.startswith("-"):
        return None
    if sub not in GIT_OWN:  # its words are judged by the vocabulary (`table.covered`)
        if "--hard" in texts:  # `git undo --hard`, `git uncommit --hard`: an add-on's hard reset
            return MEDIUM, f"git {sub} --hard discards uncommitted work ({c.text})"
        words = set(split_word(sub))
        if "force" in words and words & _SYNCING:  # `git force-clone`, `git pull-force`: local work replaced
            return MEDIUM, f"git {sub} replaces the local branch or checkout by force: local work is lost ({c.text})"
        return None
    if sub == "rm" and not {"--cached", "-n", "--dry-run"} & set(texts) and \
            any(t == "--recursive" or re.fullmatch(r"-[a-zA-Z]*r[a-zA-Z]*", t) for t in texts):
        names = [w for w in rest if not w.text.startswith("-")]
        own = [w for w in names if target(w).kind not in ("output", "temp")]
        if own:
            return MEDIUM, f"git rm -r deletes {own[0].text} and every tracked file under it from the working " \
                           f"tree ({c.text})"
    if sub == "notes" and "remove" in texts:
        return MEDIUM, f"git notes remove deletes the notes attached to a commit ({c.text})"
    if sub == "symbolic-ref" and {"-d", "--delete"} & set(texts):
        return MEDIUM, f"git symbolic-ref --delete deletes a ref directly ({c.text})"
    if sub == "credential" and "reject" in texts or sub in _KEPT_CREDENTIALS and "erase" in texts:
        return MEDIUM, f"git {sub} erases a stored login from the credential helpers ({c.text})"
    if sub == "read-tree" and "--reset" in texts and "-u" in texts and not any(t.startswith("--prefix") for t in texts):
        return MEDIUM, f"git read-tree -u --reset writes a tree over the index and the working tree ({c.text})"
    if sub == "checkout-index" and {"-f", "--force"} & set(texts) and \
            not any(t.startswith("--prefix") for t in texts):
        return MEDIUM, f"git checkout-index --force writes the index over the working tree's changes ({c.text})"
    return None


@triggered_by("clone", "init")
def rule_clone_forced(c: Ctx) -> Optional[tuple]:
    """``yadm clone -f URL``, ``dvc init -f``, ``repmgr standby clone … --force``: any program's ``clone`` or
    ``init`` told to force over the repository or data directory already there (a ``-f`` that names a file is a
    file: ``… init -f config.yaml``)."""
    texts = c.texts
    operands = [t for t in texts[:16] if not t.startswith("-")][:2]  # `repmgr standby clone`: a noun, then the verb
    sub = next((t for t in operands if t in ("clone", "init")), "")
    if not sub or c.prog in PACKAGE_TOOLS:
        return None
    forced = "--force" in texts or sub == "clone" and "-F" in texts  # repmgr's -F
    if not forced and "-f" in texts:
        k = texts.index("-f")
        forced = k + 1 == len(texts) or not _A_FILE.search(texts[k + 1])
    if not forced:
        return None
    return MEDIUM, f"{c.prog} {sub} --force replaces the repository already there and its local work ({c.text})"


def rule_tracked_removed(c: Ctx) -> Optional[tuple]:
    """``hg rm -r src/legacy``: the files leave the working directory too, not only the next commit."""
    texts = c.texts
    sub = next((t for t in texts if not t.startswith("-")), "")
    if sub not in _REMOVES.get(c.prog, ()) or _KEEPS & set(texts):
        return None
    rest = texts[texts.index(sub) + 1:]
    names = [w for w in c.args[texts.index(sub) + 1:] if not w.text.startswith("-")]
    patterns = {"-I", "--include", "-X", "--exclude", "-S", "--subrepos"} & set(rest)
    if not names and not patterns:
        return None
    if names and all(target(w).kind in ("output", "temp") for w in names):
        return None
    what = ", ".join(w.text for w in names[:3]) or "every file the pattern matches"
    return MEDIUM, f"{c.prog} {sub} deletes {what} from the working directory too ({c.text})"


def rule_local_work_discarded(c: Ctx) -> Optional[tuple]:
    """``p4 revert //...``, ``tf scorch /recursive``, ``cleartool rmelem -force x``."""
    texts = c.texts
    sub = next((t for t in texts if not t.startswith("-")), "")
    if sub not in _DISCARDS_LOCAL.get(c.prog.lower(), ()) or _KEEPS_LOCAL & {t.lower() for t in texts}:
        return None
    if c.prog == "p4" and sub == "revert" and len([t for t in texts if not t.startswith("-")]) < 2:
        return None  # `p4 revert` with no file names nothing
    return MEDIUM, f"{c.prog} {sub} discards local work or deletes versions for good ({c.text})"


RULES = {"git": [rule_git_plumbing], **{p: [rule_tracked_removed] for p in _REMOVES},
         **{p: [rule_local_work_discarded] for p in _DISCARDS_LOCAL}}
