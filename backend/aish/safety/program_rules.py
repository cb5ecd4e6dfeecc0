"""Per-program rules for ``safety.assess``, tools and services: git, SQL, kubectl, cloud...

Same contract as ``safety_rules.py`` (a rule returns ``(rank, reason)`` or
None); this module also holds the table from program name to rule.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules import (HIGH, LOW, MEDIUM, Ctx, _max, fragment, parse_opts, rule_chmod, rule_dd,
                               rule_find, rule_mkfs, rule_mv, rule_partition, rule_rm, rule_shred,
                               rule_truncate, rule_write_to_device)

_DOWNLOADERS = {"curl", "wget", "fetch", "http", "https", "aria2c", "lwp-request"}
_INTERPRETERS = {"sh", "bash", "zsh", "dash", "ksh", "fish", "csh", "tcsh", "ash", "python", "python3",
                 "python2", "perl", "ruby", "node", "php", "pwsh"}
_SHELLS = {"sh", "bash", "zsh", "dash", "ksh", "fish", "ash", "su"}


def rule_git(c: Ctx) -> Optional[tuple]:
    args = c.args
    i = 0
    while i < len(args) and args[i].text.startswith("-"):
        i += 2 if args[i].text in ("-C", "-c", "--git-dir", "--work-tree", "--namespace") else 1
    if i >= len(args):
        return None
    sub, rest = args[i].text, args[i + 1:]
    flags, values, pos = parse_opts(rest, frozenset({"-m", "-o", "--push-option", "--repo", "-e",
                                                      "--exclude", "--expire", "--prune"}))
    texts = [w.text for w in rest]
    if sub == "push":
        if flags & {"--force-with-lease", "--force-if-includes"} and not flags & {"f", "--force"}:
            return LOW, f"rewrites the remote branch if nobody pushed meanwhile ({c.text})"
        if flags & {"f", "--force"} or any(t.startswith("+") for t in texts):
            return MEDIUM, f"force push overwrites the remote branch history ({c.text})"
        if flags & {"d", "--delete", "--mirror", "--prune"} or any(t.startswith(":") for t in texts):
            return MEDIUM, f"deletes branches on the remote ({c.text})"
    elif sub == "reset" and "--hard" in flags:
        return MEDIUM, f"git reset --hard discards uncommitted changes ({c.text})"
    elif sub == "clean" and flags & {"f", "--force"} and not flags & {"n", "--dry-run", "i", "--interactive"}:
        extra = " and ignored files (-x)" if flags & {"x", "X"} else ""
        return MEDIUM, f"git clean deletes untracked files{extra} ({c.text})"
    elif sub in ("checkout", "restore") and (flags & {"f", "--force"} and sub == "checkout"
                                             or any(w.text in (".", ":/", "*") for w in pos)):
        return MEDIUM, f"discards uncommitted changes in the working tree ({c.text})"
    elif sub == "branch" and flags & {"D"}:
        return LOW, f"force-deletes a branch even if unmerged (reflog keeps it a while) ({c.text})"
    elif sub == "stash" and texts[:1] == ["clear"]:
        return MEDIUM, f"drops every stash ({c.text})"
    elif sub in ("filter-branch", "filter-repo"):
        return MEDIUM, f"rewrites the history of the repository ({c.text})"
    elif sub == "reflog" and texts[:1] == ["expire"] or sub == "gc" and values.get("--prune") == "now":
        return MEDIUM, f"permanently drops unreachable commits ({c.text})"
    return None


_SQL_HIGH = re.compile(r"\b(DROP\s+(DATABASE|SCHEMA|TABLE)|TRUNCATE)\b|\bDELETE\s+FROM\s+[\w.\"`]+\s*(;|$)|"
                       r"\bdropDatabase\s*\(|\bFLUSH(ALL|DB)\b", re.IGNORECASE)
_SQL_MEDIUM = re.compile(r"\b(DROP\s+\w+|ALTER\s+TABLE\s+\S+\s+DROP|UPDATE\s+[\w.\"`]+\s+SET\s+(?!.*\bWHERE\b)"
                         r"|DELETE\s+FROM)\b|\.drop\s*\(|\.deleteMany\s*\(", re.IGNORECASE)
_SQL_FLAGS = {"psql": {"-c", "--command"}, "mysql": {"-e", "--execute"}, "mariadb": {"-e", "--execute"},
              "clickhouse-client": {"-q", "--query"}, "cqlsh": {"-e", "--execute"},
              "mongo": {"--eval"}, "mongosh": {"--eval"}, "sqlcmd": {"-Q", "-q"}, "mysqlsh": {"-e"},
              "duckdb": {"-c"}, "sqlite3": {"-cmd"}}


def sql_finding(sql: str, text: str) -> Optional[tuple]:
    sql = re.sub(r"'[^']*'", "''", sql)
    m = _SQL_HIGH.search(sql)
    if m:
        return HIGH, f"{' '.join(m.group(0).split()).rstrip(';')} destroys data ({text})"
    m = _SQL_MEDIUM.search(sql)
    if m:
        return MEDIUM, f"{' '.join(m.group(0).split())} changes or removes data ({text})"
    return None


def rule_sql(c: Ctx) -> Optional[tuple]:
    names = _SQL_FLAGS.get(c.prog, set())
    sqls = []
    args = c.args
    for i, w in enumerate(args):
        t = w.text
        for name in names:
            if t == name and i + 1 < len(args):
                sqls.append(args[i + 1].text)
            elif t.startswith(name + "=") or (len(name) == 2 and t.startswith(name) and len(t) > 2):
                sqls.append(t[len(name) + (1 if t.startswith(name + "=") else 0):])
    if c.prog in ("sqlite3", "duckdb", "redis-cli"):
        sqls.append(" ".join(w.text for w in args if not w.text.startswith("-")))
    sqls.extend(r.body for r in c.seg.redirects if r.body)
    for feeder in c.chain:
        if feeder.words and feeder.words[0].text in ("echo", "printf", "cat"):
            sqls.append(" ".join(w.text for w in feeder.words[1:]))
            sqls.extend(r.body for r in feeder.redirects if r.body)
    best = None
    for sql in sqls:
        best = _max(best, sql_finding(sql, c.text))
    return best


def rule_kubectl(c: Ctx) -> Optional[tuple]:
    pos = _positionals(c.args, {"-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user",
                                "-s", "--server", "-l", "--selector", "-f", "--filename", "-o"})
    if not pos:
        return None
    texts = [w.text for w in c.args]
    if pos[0] == "delete":
        if len(pos) > 1 and pos[1] in ("ns", "namespace", "namespaces", "pv", "pvc", "crd") or \
                any(t in ("--all", "-A", "--all-namespaces") for t in texts):
            return HIGH, f"deletes Kubernetes resources with everything in them ({c.text})"
        return MEDIUM, f"deletes Kubernetes resources ({c.text})"
    if pos[0] in ("drain",) or (pos[0] == "replace" and "--force" in texts):
        return MEDIUM, f"evicts or recreates running workloads ({c.text})"
    return None


def rule_iac(c: Ctx) -> Optional[tuple]:
    texts = [w.text for w in c.args]
    if "destroy" in texts or (texts[:1] == ["apply"] and "-destroy" in texts):
        return MEDIUM, f"{c.prog} destroy removes the managed infrastructure ({c.text})"
    if c.prog == "helm" and texts[:1] and texts[0] in ("uninstall", "delete", "del", "un"):
        return MEDIUM, f"uninstalls a Helm release and its resources ({c.text})"
    return None


def rule_container(c: Ctx) -> Optional[tuple]:
    texts = [w.text for w in c.args]
    if texts[:1] == ["volume"] and texts[1:2] and texts[1] in ("rm", "prune", "remove"):
        return MEDIUM, f"deletes container volumes and their data ({c.text})"
    if texts[:2] == ["system", "prune"] and "--volumes" in texts:
        return MEDIUM, f"deletes unused containers, images and volumes with their data ({c.text})"
    return None


def rule_cloud(c: Ctx) -> Optional[tuple]:
    texts = [w.text for w in c.args]
    if c.prog == "aws" and (texts[:2] == ["s3", "rb"] or texts[:2] == ["s3", "rm"] and "--recursive" in texts):
        return MEDIUM, f"deletes S3 objects or buckets ({c.text})"
    if c.prog == "gsutil" and any(t in ("rb",) or t == "rm" and ("-r" in texts or "-rf" in texts) for t in texts):
        return MEDIUM, f"deletes cloud storage objects or buckets ({c.text})"
    if any(t.startswith(("delete-", "terminate-")) for t in texts) or (c.prog != "aws" and "delete" in texts):
        return MEDIUM, f"deletes cloud resources ({c.text})"
    return None


def rule_misc(c: Ctx) -> Optional[tuple]:
    p, texts = c.prog, [w.text for w in c.args]
    if p in ("shutdown", "reboot", "poweroff", "halt") or (p == "systemctl" and texts[:1] and texts[0] in (
            "reboot", "poweroff", "halt", "kexec")) or (p in ("init", "telinit") and texts[:1] in (["0"], ["6"])):
        return MEDIUM, f"shuts down or reboots the machine ({c.text})"
    if p == "kill" and texts and texts[-1] == "-1" and len(texts) >= 2:
        return HIGH, f"kills every process you can signal ({c.text})"
    if p == "crontab" and "-r" in texts:
        return MEDIUM, f"crontab -r deletes all your cron jobs with no backup ({c.text})"
    if p in ("iptables", "ip6tables") and any(t in ("-F", "--flush") for t in texts) or \
            p == "nft" and texts[:2] == ["flush", "ruleset"]:
        return MEDIUM, f"flushes the firewall rules ({c.text})"
    if p in ("userdel", "deluser") and any(t in ("-r", "--remove", "--remove-home", "--remove-all-files") for t in texts):
        return MEDIUM, f"deletes a user and their home directory ({c.text})"
    if p in ("zfs", "zpool") and texts[:1] == ["destroy"] or p in ("lvremove", "vgremove", "pvremove",
                                                                   "blkdiscard", "wipefs"):
        return HIGH, f"{p} destroys a volume or its data ({c.text})"
    if p == "cryptsetup" and any(t in ("luksFormat", "erase", "luksErase") for t in texts) or \
            p == "mdadm" and "--zero-superblock" in texts:
        return HIGH, f"{p} erases the volume header (its data becomes unreadable) ({c.text})"
    if p == "dropdb" or p == "mysqladmin" and "drop" in texts:
        return HIGH, f"drops a database ({c.text})"
    if p == "rsync" and any(t.startswith("--delete") for t in texts):
        return MEDIUM, f"rsync --delete removes files in the destination that the source lacks ({c.text})"
    return None


def rule_exec_string(c: Ctx) -> Optional[tuple]:
    """``bash -c '...'``, ``eval ...``, ``watch ...``, ``su -c``, ``ssh host cmd``: judge the inner text."""
    texts = [w.text for w in c.args]
    inner, where = None, ""
    if c.prog in _SHELLS:
        if "-c" in texts[:-1]:
            inner = texts[texts.index("-c") + 1]
        elif c.prog == "su":
            return None
    elif c.prog in ("eval", "watch"):
        inner = " ".join(t for t in _skip_opts(c.args, {"-n", "--interval", "-d"}))
    elif c.prog in ("ssh", "mosh"):
        rest = _skip_opts(c.args, set("-b -c -D -E -e -F -I -i -J -L -l -m -O -o -p -Q -R -S -W -w -B".split()))
        if len(rest) > 1:
            inner, where = " ".join(rest[1:]), f" on {rest[0]}"
    found = c.recurse(inner) if inner else None
    if c.prog in _INTERPRETERS or c.prog in ("eval", "source", "."):
        for w in c.args:
            for sub in w.subs:
                first = sub.strip().split(None, 1)[:1]
                if first and first[0].rsplit("/", 1)[-1] in _DOWNLOADERS:
                    return HIGH, f"runs a script straight from the network ({c.text})"
    if found is not None and where:
        found = (found[0], found[1] + where)
    return found


def pipe_to_shell(c: Ctx) -> Optional[tuple]:
    if c.prog in _INTERPRETERS and c.chain:
        for feeder in c.chain:
            if feeder.words and feeder.words[0].text.rsplit("/", 1)[-1] in _DOWNLOADERS:
                return HIGH, (f"runs a script straight from the network "
                              f"({fragment([feeder.words[0].text, '…', '|', c.prog])})")
    return None


def _positionals(args: list, valued: set) -> list:
    out, i = [], 0
    while i < len(args):
        t = args[i].text
        if t in valued:
            i += 2
            continue
        if not t.startswith("-"):
            out.append(t)
        i += 1
    return out


def _skip_opts(args: list, valued: set) -> list:
    i = 0
    while i < len(args) and args[i].text.startswith("-"):
        i += 2 if args[i].text in valued else 1
    return [w.text for w in args[i:]]


_RULES: dict = {
    "rm": rule_rm, "unlink": None, "find": rule_find, "dd": rule_dd, "mke2fs": rule_mkfs,
    "mkswap": rule_mkfs, "newfs": rule_mkfs, "mkntfs": rule_mkfs,
    "fdisk": rule_partition, "sfdisk": rule_partition, "gdisk": rule_partition, "cfdisk": rule_partition,
    "parted": rule_partition, "sgdisk": rule_partition, "shred": rule_shred, "truncate": rule_truncate,
    "mv": rule_mv, "cp": rule_write_to_device, "tee": rule_write_to_device, "pv": rule_write_to_device,
    "chmod": rule_chmod, "chown": rule_chmod, "chgrp": rule_chmod, "git": rule_git,
    "kubectl": rule_kubectl, "oc": rule_kubectl, "terraform": rule_iac, "tofu": rule_iac,
    "terragrunt": rule_iac, "pulumi": rule_iac, "helm": rule_iac, "docker": rule_container,
    "podman": rule_container, "aws": rule_cloud, "gcloud": rule_cloud, "az": rule_cloud, "gsutil": rule_cloud,
    "eval": rule_exec_string, "watch": rule_exec_string, "ssh": rule_exec_string, "mosh": rule_exec_string,
    "source": rule_exec_string, ".": rule_exec_string, "su": rule_exec_string,
}
for _name in _SQL_FLAGS:
    _RULES[_name] = rule_sql
_RULES["redis-cli"] = rule_sql


def check(c: Ctx) -> Optional[tuple]:
    rule = _RULES.get(c.prog)
    if rule is None and c.prog.startswith("mkfs"):
        rule = rule_mkfs
    found = rule(c) if rule else None
    if c.prog in _INTERPRETERS:
        found = _max(found, pipe_to_shell(c))
        found = _max(found, rule_exec_string(c))
    found = _max(found, rule_misc(c))
    return found
