"""Effect: mass deletion through another tool.  Containers, images, volumes, networks;
branches and tags, locally or on a remote.

"All of something" decides the level: the arguments come from a substitution
or ``xargs`` that lists everything (``docker rm -f $(docker ps -aq)``,
``git tag -l | xargs git tag -d``), or an ``--all``/``prune`` form does."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, LOW, MEDIUM, Ctx, positionals
from aish.safety.rules.history import PROTECTED_BRANCH, git_sub
from aish.safety.lazy_regex import lazy

_CONTAINER_TOOLS = {"docker", "podman", "nerdctl", "finch", "lima"}
_LISTS = lazy(r"\b(ps|images|image\s+ls|container\s+ls|volume\s+ls|network\s+ls|ls|list|branch|tag|"
              r"for-each-ref|show-ref|ls-remote|get|lsb)\b")


def listed(c: Ctx) -> bool:
    """Are the arguments computed from a listing (a substitution or ``xargs`` fed by one)?"""
    for w in c.args:
        for sub in w.subs:
            if _LISTS.search(sub):
                return True
    if c.xargs:
        return True
    return False


_FILTER = re.compile(r"(?:^|\s)(?:-f|--filter|-[a-z]*f)[\s=]+['\"]?([\w.=:-]+)")  # `-qf dangling=true` too


def _filter_of(c: Ctx) -> Optional[str]:
    """The filter a listing's substitution gives (``-f status=exited``, ``--filter dangling=true``), if any."""
    for w in c.args:
        for sub in w.subs:
            m = _FILTER.search(sub)
            if m:
                return m.group(1)
    return None


def rule_containers(c: Ctx) -> Optional[tuple]:
    pos = positionals(c.args, {"-H", "--host", "--context", "-c", "--config", "-f", "--file", "-p",
                               "--project-name", "--filter", "--format", "-t"})
    texts = c.texts
    if not pos:
        return None
    verb = pos[0]
    obj = "compose" if c.prog.endswith("compose") else ""
    if verb in ("container", "image", "volume", "network", "system", "builder", "buildx", "compose", "stack",
                "service", "swarm", "secret", "config", "node", "machine", "pod"):
        obj, verb = verb, (pos[1] if len(pos) > 1 else "")
    if obj == "system" and verb == "reset":
        return HIGH, f"{c.prog} system reset deletes every container, image, volume and network ({c.text})"
    allflag = any(t == "--all" or re.fullmatch(r"-[a-zA-Z]*a[a-zA-Z]*", t) for t in texts)
    everything = listed(c) or allflag
    if obj in ("builder", "buildx"):
        return None  # build cache
    if verb in ("rm", "rmi", "remove", "delete", "prune", "kill", "down", "leave", "destroy"):
        what = {"volume": "volumes and their data", "image": "images", "network": "networks",
                "system": "containers, images and networks", "compose": "the project's containers",
                "stack": "a whole stack", "service": "services", "swarm": "the swarm", "pod": "pods",
                "machine": "a machine and its disk", "secret": "secrets", "config": "configs"}.get(
                    obj, "images" if verb == "rmi" else "containers")
        if obj == "system" and "--volumes" in texts:
            what += ", and volumes with their data"
        if obj == "compose" and verb == "down":
            if any(t in ("-v", "--volumes") for t in texts):
                return MEDIUM, f"compose down -v deletes the project's volumes and their data ({c.text})"
            if "--rmi" in texts or any(t.startswith("--rmi=") for t in texts):
                return LOW, f"compose down --rmi removes the project's images (pulled or built again) ({c.text})"
            return None
        if verb == "kill":
            if obj == "compose" and pos[-1] == "kill":  # no service named: every service of the project
                return MEDIUM, f"compose kill sends SIGKILL to every service's containers (unsaved state is lost) " \
                               f"({c.text})"
            return (MEDIUM, f"kills every running container ({c.text})") if everything else None
        if verb == "leave":
            return (MEDIUM, f"leaves the swarm ({c.text})") if "--force" in texts or "-f" in texts else None
        # `rm -v`, `rm -fv`, `compose rm -fsv`: the container's anonymous volumes go with it
        with_volumes = "--volumes" in texts or verb == "rm" and any(re.fullmatch(r"-[a-zA-Z]*v[a-zA-Z]*", t)
                                                                    for t in texts)
        picked = (_filter_of(c) or "") if everything and not allflag else ""  # `… $(docker ps -aq -f status=exited)`
        unused = bool(picked) and _UNUSED.fullmatch(picked.replace(" ", "")) is not None  # what prune would take
        if obj == "volume" or with_volumes:
            level = HIGH if (everything and not unused) or verb == "prune" and allflag else MEDIUM
            return level, f"deletes {what}{' with their volumes' if obj != 'volume' else ''} ({c.text})"
        if verb == "prune":
            return (MEDIUM if allflag or obj == "system" else LOW), f"deletes unused {what} ({c.text})"
        if everything:
            if unused:
                return LOW, f"deletes the {what} its listing picks ({picked}): those prune would take ({c.text})"
            if picked:
                return MEDIUM, f"deletes the {what} its listing picks ({picked}) ({c.text})"
            return MEDIUM, f"deletes all {what} ({c.text})"
        if obj in ("stack", "swarm", "machine"):
            return MEDIUM, f"deletes {what} ({c.text})"
        if obj == "secret" and len(pos) > 2:  # as `gh secret delete`, `vault kv delete`: its value is not kept here
            return MEDIUM, f"deletes the secret {' '.join(pos[2:5])}: the services that read it lose it ({c.text})"
        return None
    if verb == "stop" and everything:
        return LOW, f"stops every running container ({c.text})"
    return None


# Listings' filters that pick only what nothing uses: exited, created or dead containers, dangling images and volumes
_UNUSED = lazy(r"(status=(exited|created|dead)|dangling=(true|1))(,(status=(exited|created|dead)|dangling=(true|1)))*")


def rule_cri(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    if texts[:1] and texts[0] in ("rm", "rmi", "rmp", "delete") and any(t in ("-a", "--all", "--prune") for t in texts):
        return MEDIUM, f"deletes every container, pod or image on the node ({c.text})"
    if c.prog in ("minikube", "kind", "k3d") and "delete" in texts and ("--all" in texts or "--purge" in texts):
        return MEDIUM, f"deletes every local cluster ({c.text})"
    return None


def rule_git_refs(c: Ctx) -> Optional[tuple]:
    """Deleting branches and tags, one or in bulk, here or on a remote."""
    sub, rest = git_sub(c)
    texts = [w.text for w in rest]
    many = listed(c) or any(w.glob for w in rest)
    if sub == "push":
        deletes = "--delete" in texts or "-d" in texts or any(t.startswith(":") and len(t) > 1 for t in texts)
        if "--prune" in texts:
            return HIGH if any(t in ("--all", "--mirror") or "*" in t for t in texts) else MEDIUM, \
                f"push --prune deletes remote branches this clone does not have ({c.text})"
        if deletes:
            names = [t.lstrip(":") for t in texts if not t.startswith("-")][1:]
            if many or len(names) > 2:
                return HIGH, f"deletes many branches or tags on the remote ({c.text})"
            if any(PROTECTED_BRANCH.match(n.split("/")[-1]) for n in names):
                return HIGH, f"deletes a main branch on the remote ({c.text})"
            return MEDIUM, f"deletes branches or tags on the remote ({c.text})"
        computed = [sub for w in rest for sub in w.subs if not re.match(r"\s*git\s+(rev-parse|branch\s+--show-current|"
                                                                       r"symbolic-ref)", sub)]
        if computed or c.xargs:
            builds_deletes = any(re.search(r"['\"/#|]:|\s:%|printf\s+['\"]?:", sub) for sub in computed) or \
                any(re.search(r"['\"]:%|['\"/#]:", " ".join(w.text for w in f.words)) for f in c.chain)
            return (HIGH if builds_deletes else MEDIUM,
                    f"pushes refspecs computed at run time (a ':branch' refspec deletes that branch) ({c.text})")
        return None
    if sub == "branch" and any(t in ("-D", "-d", "--delete") or re.fullmatch(r"-[a-zA-Z]*D[a-zA-Z]*", t)
                               for t in texts):
        forced = any(t == "-D" or re.fullmatch(r"-[a-zA-Z]*D[a-zA-Z]*", t) or t == "--force" for t in texts)
        remote = "-r" in texts or "--remotes" in texts
        if many:
            return MEDIUM, f"deletes many branches at once ({c.text})"
        if forced and not remote:
            return LOW, f"force-deletes a branch even if unmerged (reflog keeps it a while) ({c.text})"
        return None
    if sub == "tag" and any(t in ("-d", "--delete") for t in texts) and many:
        return MEDIUM, f"deletes many tags at once ({c.text})"
    if sub == "remote" and texts[:1] in (["prune"],) and "--dry-run" not in texts and "-n" not in texts:
        return LOW, f"forgets remote-tracking branches that are gone on the remote ({c.text})"
    return None


RULES = {"git": [rule_git_refs], "crictl": [rule_cri], "ctr": [rule_cri], "minikube": [rule_cri],
         "kind": [rule_cri], "k3d": [rule_cri]}
for _p in _CONTAINER_TOOLS | {"docker-compose", "podman-compose"}:
    RULES[_p] = [rule_containers]
