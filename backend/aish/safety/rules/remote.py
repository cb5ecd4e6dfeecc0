"""Effect: destroys remote or cloud resources.  Kubernetes, Helm, Terraform and friends,
cloud CLIs, hosted databases and repositories, fleet-wide execution.

A production-looking name anywhere in the command (namespace, context,
workspace, stack, bucket, project: ``prod``, ``production``, ``live``...)
raises the level, and so does "all of something"."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, LOW, MEDIUM, Ctx, positionals, skip_opts
from aish.safety.lazy_regex import lazy

PROD = re.compile(r"(^|[^a-z])(prod|production|prd|live|master|primary)([^a-z]|$)", re.IGNORECASE)
_KUBE_VALUED = {"-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-s", "--server",
                "-l", "--selector", "-f", "--filename", "-o", "--output", "-c", "--container", "--field-selector",
                "--grace-period", "--timeout", "-k", "--kustomize", "--token", "--as", "--replicas"}
# Verbs that make, show or name something: the words after them are its name (`create drop`, `mkdir remote:wipe`).
_NAMING_VERBS = frozenset({"create", "new", "add", "mkdir", "mb", "touch", "init", "show", "get", "describe", "list",
                           "ls", "lsd", "info", "cat", "rename", "config-create", "make", "mk"})
_DESTROY_VERBS = lazy(r"^(rm|rb|reset|deprovision|nuke|deleteall|"
                      r"([\w-]*[-:])?(delete|destroy|remove|terminate|purge|drop|wipe|erase|deregister|"
                      r"reset)([-:][\w-]*)?)$")



# What deleting each heavy kind takes with it (Kubernetes' kinds, short names included).
_K8S_HEAVY = {
    **dict.fromkeys(("ns", "namespace", "namespaces"), "the namespace and everything in it"),
    **dict.fromkeys(("pv", "persistentvolume", "persistentvolumes", "pvc", "persistentvolumeclaim",
                     "persistentvolumeclaims"), "persistent volumes: the data on them may go with them"),
    **dict.fromkeys(("crd", "crds", "customresourcedefinition", "customresourcedefinitions"),
                    "a resource definition and every resource of its kind"),
    **dict.fromkeys(("node", "nodes", "no"), "nodes from the cluster: what runs on them is rescheduled or lost"),
    **dict.fromkeys(("statefulset", "statefulsets", "sts"), "a stateful set: its pods stop, its volumes are left"),
    "all": "every resource of the common kinds (pods, services, deployments…)",
    **dict.fromkeys(("secret", "secrets"), "secrets: their values cannot be read back"),
}
_PODS = frozenset({"pod", "pods", "po"})
# `--field-selector=status.phase=Failed`, `--field-selector status.phase==Succeeded`: only pods that have ended
_FINISHED = lazy(r"^(--field-selector=)?status\.phase==?(Failed|Succeeded)$")


def _finished_pods(texts: list) -> bool:
    """Pods chosen by a phase that has ended (Failed, Succeeded), and by nothing wider."""
    chosen = [t for k, t in enumerate(texts) if t.startswith("--field-selector=") or
              (k and texts[k - 1] == "--field-selector")]
    return bool(chosen) and all(_FINISHED.match(t) for t in chosen) and "--all" not in texts


def _prod(c: Ctx) -> bool:
    return any(PROD.search(w.text) for w in c.args)


def rule_kubectl(c: Ctx) -> Optional[tuple]:
    pos = positionals(c.args, _KUBE_VALUED)
    if not pos:
        return None
    texts = c.texts
    if c.prog == "oc" and pos[:2] == ["adm", "drain"]:  # OpenShift's admin verbs: `oc adm drain NODE`
        pos = pos[1:]
    verb = pos[0]
    allish = any(t in ("--all", "-A", "--all-namespaces") for t in texts)
    prod = _prod(c)
    if verb in ("exec", "debug") and "--" in texts:  # `kubectl debug node/n1 -- chroot /host reboot`
        inner = " ".join(texts[texts.index("--") + 1:])
        found = c.recurse(inner)
        return (found[0], f"{found[1]} inside a pod") if found else None
    if verb == "delete":
        kinds = pos[1].split(",") if len(pos) > 1 else []
        feeder = c.chain[-1].argv if c.xargs and c.chain else []
        if kinds and set(kinds) <= _PODS and _finished_pods(texts) or \
                c.xargs and len(kinds) < 1 and feeder[:1] == [c.prog] and _finished_pods(feeder):
            return LOW, f"deletes pods that have finished (their logs go with them) ({c.text})"
        if c.xargs or any(w.subs for w in c.args):
            return HIGH, f"deletes every Kubernetes resource a listing returns ({c.text})"
        heavy = next((_K8S_HEAVY[k] for k in kinds if k in _K8S_HEAVY), None)
        if heavy or allish or prod:
            where = "every namespace" if "-A" in texts or "--all-namespaces" in texts else "the namespace"
            said = heavy or (f"all {kinds[0] if kinds else 'resources'} in {where}" if allish
                             else "resources in production")
            return HIGH, f"deletes {said} ({c.text})"
        return MEDIUM, f"deletes Kubernetes resources ({c.text})"
    if verb in ("drain",) or (verb == "replace" and "--force" in texts):
        return (HIGH if prod or allish else MEDIUM), f"evicts or recreates running workloads ({c.text})"
    if verb == "scale" and any(re.fullmatch(r"--replicas=0", t) for t in texts) or \
            verb == "scale" and "--replicas" in texts and texts[texts.index("--replicas") + 1:][:1] == ["0"]:
        return (HIGH if prod or allish else MEDIUM), f"scales workloads to zero: the service stops ({c.text})"
    if verb == "apply" and any(t.startswith("--prune") for t in texts):
        return MEDIUM, f"apply --prune deletes resources missing from the files ({c.text})"
    selected = any(t.startswith(("-l", "--selector")) for t in texts)
    if verb == "taint" and any(t.endswith(":NoExecute") for t in texts) and \
            (allish or c.xargs or any(w.subs for w in c.args) or selected):
        return MEDIUM, f"taints every node it selects NoExecute: their pods are evicted ({c.text})"
    if c.prog == "oc" and verb == "idle" and (allish or selected):
        return MEDIUM, f"oc idle scales every service it selects to zero ({c.text})"
    if verb in ("cordon", "taint") and prod:
        return LOW, f"stops scheduling on a production node ({c.text})"
    if verb == "config" and pos[1:2] and pos[1] in ("delete-context", "delete-cluster", "unset"):
        return LOW, f"removes kubeconfig entries ({c.text})"
    return None


def rule_helm(c: Ctx) -> Optional[tuple]:
    pos = positionals(c.args, _KUBE_VALUED | {"--kube-context"})
    if pos[:1] and pos[0] in ("uninstall", "delete", "del", "un"):
        return (HIGH if _prod(c) else MEDIUM), f"uninstalls a Helm release and its resources ({c.text})"
    return None


def rule_iac(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    pos = [t for t in texts if not t.startswith("-")]
    prod = _prod(c)
    if "destroy" in pos[:2] or (pos[:1] == ["apply"] and "-destroy" in texts) or \
            (c.prog in ("pulumi",) and pos[:1] == ["destroy"]) or (c.prog == "cdk" and "destroy" in pos):
        return (HIGH if prod or "run-all" in texts or any("non-interactive" in t for t in texts)
                or "-auto-approve" in texts or "--yes" in texts or "-y" in texts or "--force" in texts
                else MEDIUM), f"{c.prog} destroy removes the managed infrastructure ({c.text})"
    if pos[:2] in (["state", "rm"], ["state", "delete"], ["stack", "rm"], ["workspace", "delete"]) or \
            (c.prog == "pulumi" and pos[:1] == ["stack"] and "rm" in pos):
        return (HIGH if prod else MEDIUM), f"{c.prog} {' '.join(pos[:2])} forgets or deletes managed state ({c.text})"
    if c.prog in ("serverless", "sls", "sam", "copilot") and pos[:1] and pos[0] in ("remove", "delete"):
        return (HIGH if prod else MEDIUM), f"{c.prog} {pos[0]} tears down the deployed stack ({c.text})"
    return None


def rule_cloud(c: Ctx) -> Optional[tuple]:
    """Cloud CLIs: a destroying verb anywhere among the leading words; the whole account or project is high."""
    texts = c.texts
    pos = skip_opts(c.args, {"--profile", "--region", "--project", "-p", "--subscription", "--output", "-o",
                             "--zone", "--context", "-t", "--token", "--config"})
    words = [t for t in pos if not t.startswith("-")][:5]
    named = next((k for k, t in enumerate(words) if t in _NAMING_VERBS), None)
    if named is not None:  # `rclone config create drop dropbox`, `rclone mkdir remote:drop`: what follows is a name
        words = words[:named]
    prod = _prod(c)
    if c.prog in ("aws",) and words[:2] == ["s3", "rm"] and "--recursive" not in texts:
        return MEDIUM, f"deletes an S3 object (no trash to restore it from) ({c.text})"
    if c.prog in ("gsutil", "s3cmd", "mc", "rclone", "azcopy") or words[:1] in (["s3"], ["storage"]):
        recursive = any(t in ("-r", "-R", "--recursive", "-rf", "--force", "-f", "--purge") for t in texts)
        verb = next((t for t in words if t in ("rb", "purge", "del", "rm", "sync", "deletebucket")
                     or _DESTROY_VERBS.match(t)), None)
        if verb is not None:  # (`rclone rmdir` removes an empty directory only: no verb here; its `purge` is one)
            recursive = recursive or "batch" in verb or bool(set(words) & {"container", "bucket", "share",
                                                                           "filesystem", "fs"})
            if verb == "sync":
                return ((MEDIUM, f"{c.prog} sync deletes files in the destination that the source lacks ({c.text})")
                        if c.prog == "rclone" or "--delete" in texts else None)
            level = HIGH if verb in ("rb", "purge", "deletebucket") and (recursive or prod) or prod and recursive \
                else MEDIUM
            return level, f"deletes cloud storage objects or buckets ({c.text})"
        return None
    verb = next((t for t in words if _DESTROY_VERBS.match(t)), None)
    if verb is None:
        return None
    if c.prog in ("gh", "glab") and words[:2] not in (["repo", "delete"], ["release", "delete"]):
        return None  # the rest of gh is judged by its words (`gh secret delete`, not `gh alias delete`)
    whole = re.search(r"\b(projects?|group|resource-group|accounts?|organizations?|subscription|stack|apps?|"
                      r"clusters?|db-instance|db-cluster|databases?|table|bucket|repo|instances?|vpc|"
                      r"keyspace|zone|hosted-zone)\b", " ".join(words))
    level = HIGH if prod or whole and ("--force" in texts or "--yes" in texts or "-y" in texts
                                       or "--skip-final-snapshot" in texts or "--quiet" in texts or "-q" in texts
                                       or words[:2] in (["repo", "delete"], ["group", "delete"],
                                                        ["projects", "delete"])) else MEDIUM
    return level, f"{c.prog} {verb} deletes cloud resources ({c.text})"


def rule_db_admin(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    if c.prog in ("dropdb", "dropuser") or c.prog == "mysqladmin" and "drop" in texts:
        return HIGH, f"drops a database or its owner ({c.text})"
    if c.prog == "mysqladmin" and {"shutdown", "kill"} & {t.lower() for t in texts}:
        return MEDIUM, f"mysqladmin {'shutdown' if 'shutdown' in texts else 'kill'} stops the server or ends " \
            f"connections, for every client ({c.text})"
    if c.prog in ("pg_dump", "pg_restore") and any(t in ("-c", "--clean") for t in texts) and c.prog == "pg_restore":
        return MEDIUM, f"pg_restore --clean drops objects before restoring them ({c.text})"
    if c.prog in ("etcdctl",) and texts[:1] in (["del"], ["delete"]) and \
            not {"--prefix", '""', "", "--from-key", "--from-key=true"}.isdisjoint(texts):  # "" is every key
        return HIGH, f"deletes every key under a prefix ({c.text})"
    if c.prog == "etcdctl" and texts[:1] in (["del"], ["delete"]) and c.xargs:
        return HIGH, f"deletes every key the listing before it names ({c.text})"  # `etcdctl get --keys-only | xargs`
    if c.prog == "etcdctl" and texts[:2] == ["member", "remove"]:
        return MEDIUM, f"removes a member from the cluster: it stops serving ({c.text})"
    ops = [t for t in texts if not t.startswith("-")]  # after `--endpoints=…` and other options
    if c.prog == "etcdctl" and (ops[:1] in (["del"], ["delete"]) and len(ops) > 1 or
                                ops[:2] in (["user", "delete"], ["role", "delete"], ["lease", "revoke"])):
        return MEDIUM, f"deletes {ops[-1]} from the cluster's store ({c.text})"  # as `consul kv delete k`
    if c.prog == "vault" and texts[:2] == ["operator", "seal"]:
        return MEDIUM, f"seals the vault: no secret can be read until it is unsealed with the keys ({c.text})"
    if c.prog in ("consul",) and texts[:2] == ["kv", "delete"] and "-recurse" in texts:
        return HIGH, f"deletes a whole key tree ({c.text})"
    if c.prog in ("vault",) and ((texts[:2] == ["secrets", "disable"] or texts[:3] == ["kv", "metadata", "delete"]) or
                                 texts[:2] == ["kv", "destroy"]):
        return MEDIUM, f"permanently deletes secrets ({c.text})"
    if c.prog == "nomad" and texts[:2] == ["job", "stop"] and "-purge" in texts:
        return MEDIUM, f"stops and purges a job ({c.text})"
    return None


def rule_fleet(c: Ctx) -> Optional[tuple]:
    """``ansible -a``, ``salt cmd.run``, ``pssh``...: the inner command runs on many hosts."""
    texts = c.texts
    inner = None
    if c.prog in ("ansible",):
        for i, t in enumerate(texts):
            if t in ("-a", "--args") and i + 1 < len(texts):
                inner = texts[i + 1]
    elif c.prog in ("salt", "salt-ssh") and "cmd.run" in texts:
        rest = texts[texts.index("cmd.run") + 1:]
        inner = rest[0] if rest else None
    elif c.prog in ("pssh", "parallel-ssh", "pdsh", "clush", "mussh", "dsh"):
        rest = skip_opts(c.args, {"-h", "-H", "-w", "-l", "-p", "-t", "-o", "-e", "-O", "-x", "-g", "-f"})
        inner = " ".join(rest) if rest else None
    found = c.recurse(inner) if inner else None
    if found is not None:
        return found[0], f"{found[1]} on every host"
    return None


RULES = {"kubectl": [rule_kubectl], "oc": [rule_kubectl], "k": [rule_kubectl], "helm": [rule_helm],
         "terraform": [rule_iac], "tofu": [rule_iac], "terragrunt": [rule_iac], "pulumi": [rule_iac],
         "cdk": [rule_iac], "serverless": [rule_iac], "sls": [rule_iac], "sam": [rule_iac], "copilot": [rule_iac],
         "dropdb": [rule_db_admin], "dropuser": [rule_db_admin], "mysqladmin": [rule_db_admin],
         "pg_restore": [rule_db_admin], "etcdctl": [rule_db_admin], "consul": [rule_db_admin],
         "vault": [rule_db_admin], "nomad": [rule_db_admin], "ansible": [rule_fleet], "salt": [rule_fleet],
         "salt-ssh": [rule_fleet], "pssh": [rule_fleet], "parallel-ssh": [rule_fleet], "pdsh": [rule_fleet],
         "clush": [rule_fleet], "mussh": [rule_fleet], "dsh": [rule_fleet]}
for _p in ("aws", "gcloud", "az", "gsutil", "s3cmd", "mc", "rclone", "azcopy", "doctl", "hcloud", "linode-cli",
           "vultr-cli", "oci", "openstack", "heroku", "fly", "flyctl", "vercel", "netlify", "firebase", "gh", "glab",
           "ibmcloud", "scw", "exo", "civo", "upctl", "railway", "render", "supabase", "neonctl", "planetscale",
           "pscale", "wrangler", "eksctl", "aliyun", "tccli", "bq"):
    RULES.setdefault(_p, []).append(rule_cloud)
