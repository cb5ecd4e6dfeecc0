"""Effect: every right granted to everyone in a product's own ACL tool (brokers, coordination services,
data platforms), the counterpart of ``everyone_grants`` for files.

Each product names "anyone" its own way — IBM MQ's ``nobody`` group and ``everyone``, Kafka's
``User:*``, ZooKeeper's ``world:anyone``, Pulsar's role ``*``, RabbitMQ's ``guest`` given ``.*`` on
everything — and "every right" too (``+all``, ``+allmqi``, ``--operation All``, ``cdrwa``, three
``.*`` patterns, ``produce,consume,functions``).  Both together are the grant: ``setmqaut -m QM1 -t
qmgr -p nobody +allmqi``, ``kafka-acls --add --allow-principal 'User:*' --operation All``, ``zkCli.sh
setAcl / world:anyone:cdrwa``, ``rabbitmqctl set_permissions -p / guest '.*' '.*' '.*'``,
``pulsar-admin namespaces grant-permission … --role '*' --actions produce,consume``, Redis' default user
given every command without a password, the guest account made an administrator; a data lake's
own shell made world-writable at its root (``hdfs dfs -chmod -R 777 /``).  Named principals, read
rights, listings and removals stay quiet.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.triggers import triggered_by
from aish.safety.rules.common import HIGH, MEDIUM, Ctx

# Options that name who is granted.
_PRINCIPAL_OPTIONS = frozenset("-p -g --principal --allow-principal --role --roles --user -u --group --grantee "
                               "--allow-host --subject --identity".split())
_ANYONE = lazy(r"^(['\"]?)(\*|user:\*|group:\*|nobody|everyone|anyone|anonymous|allusers|allauthenticatedusers|"
               r"public|guest|all)\1$", 0)
_ZK_ANYONE = lazy(r"^world:anyone:([crwda]+)$", 0)
# Every right, in each product's spelling.
_EVERY_RIGHT = lazy(r"^(\+all\w*|all|\*|admin|fullcontrol|cdrwa|rwcda|produce,consume(,\w+)*|consume,produce(,\w+)*)$",
                    0)
_WORLD_MODES = frozenset({"777", "0777", "a+rwx", "o+w", "a+w", "o+rwx", "ugo+rwx", "666"})


def _principals(lowered: list) -> list:
    out = [lowered[k + 1] for k, t in enumerate(lowered[:-1]) if t in _PRINCIPAL_OPTIONS]
    out += [t.split("=", 1)[1] for t in lowered if t.startswith("--") and "=" in t and
            t.split("=", 1)[0] in _PRINCIPAL_OPTIONS]
    return out


def rule_product_grant(c: Ctx) -> Optional[tuple]:
    """Every right to everyone, in a broker's, coordinator's or data platform's own ACL words."""
    lowered = [t.lower() for t in c.texts]
    zk = next((m for m in map(_ZK_ANYONE.match, lowered) if m), None)
    if zk is not None and {"w", "a"} <= set(zk.group(1)):
        return MEDIUM, f"gives anyone every right on the node ({c.text})"
    if any(t in ("--remove", "--list", "revoke-permission", "-remove", "list_permissions") for t in lowered):
        return None
    if "setuser" in lowered and "default" in lowered and "nopass" in lowered and \
            set(t.strip("'\"") for t in lowered) & {"+@all", "allcommands"}:  # Redis/Valkey's default user opened
        return MEDIUM, f"every connection, without a password, gets every command ({c.text})"
    if "guest" in lowered and set(lowered) & {"administrator", "admin", "superuser"} and \
            any("tag" in t or "role" in t for t in lowered):  # `rabbitmqctl set_user_tags guest administrator`
        return MEDIUM, f"the guest account (a known password) is made an administrator ({c.text})"
    patterns = [t for t in lowered if t.strip("'\"") == ".*"]
    anyone = next((p for p in _principals(lowered) if _ANYONE.match(p)), None)
    if anyone is None and len(patterns) >= 2:  # `set_permissions -p / guest '.*' '.*' '.*'`
        anyone = next((t for t in lowered if t in ("guest", "anonymous", "everyone", "nobody")), None)
    if anyone is not None:
        right = next((t for t in lowered if _EVERY_RIGHT.match(t) and t not in (anyone, "all")), None) or \
            next((t for k, t in enumerate(lowered) if t == "all" and k and lowered[k - 1].startswith("--operation")),
                 None)
        if right is not None or len(patterns) >= 2:
            return MEDIUM, f"grants {anyone} every right ({right or ' '.join(patterns)}) ({c.text})"
    if "-chmod" in lowered and "-r" in lowered and set(lowered) & _WORLD_MODES:
        top = next((t for t in lowered if t in ("/", "/*", "/user", "/data", "/tmp", "hdfs:///")), None)
        if top is not None:
            return HIGH if top == "/" else MEDIUM, f"makes {top} and everything under it writable by anyone ({c.text})"
    return None


_MAY = lazy(r"grant|perm|acl|aut|chmod|principal|role|anyone|(^| )\+all|setuser|tags")


@triggered_by(_MAY, otherwise=False)
def may_grant(c: Ctx) -> bool:
    return bool(_MAY.search(c.prog.lower()) or _MAY.search(c.lowered))
