"""What code does through client libraries, whatever the language (read by ``interp``): infrastructure deleted
by a cloud, cluster or database SDK, every listed object removed, and secret files sent by any network client.

- A call named for deleting a kind of infrastructure (``delete_namespace``, ``deleteBucket``,
  ``drop_collection``, ``delete_db_instance``, ``terminate_instances``, ``destroy_stack``,
  ``bucket(...).delete(force=True)``): medium, high for what holds many things (a namespace, a cluster,
  a database, a bucket, a project, a repository, a keyspace, a stack).
- Application servers' admin scripting told to uninstall, undeploy or remove (``AdminApp.uninstall('shop')``,
  ``AdminConfig.remove(id)``, WLST's ``undeploy('shop')`` and ``delete('ms1', 'Server')``): medium.
- A loop or comprehension over a listing of everything (``containers.list(all=True)``, ``.objects.all()``,
  ``list_buckets()``, ``.items``) whose body removes, deletes, destroys, kills or stops each one: medium.
- The whole environment (``dict(os.environ)``, ``JSON.stringify(process.env)``, ``ENV.to_h``, ``%ENV``,
  ``getenv()``, ``Deno.env.toObject()``) where the code uses a network client: medium (an environment handed
  to a child process, ``env=os.environ``, is not sent).
- A secret file named in the code (any path ``exfil`` knows as a key, a credential, a wallet, a password
  store, or history) where the code also uses a network client of any make (HTTP clients, sockets, SFTP,
  SMTP, FTP, cloud storage uploads, DNS resolvers): high for keys and credentials, medium for history.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.code_secret_paths import secret_in_code
from aish.safety.rules.common import HIGH, MEDIUM, Ctx, worst
from aish.safety.rules.exfil import secret_path
from aish.safety.lazy_regex import lazy

_LIMIT = 8000
_BIG = {"namespace", "cluster", "database", "db", "bucket", "project", "repository", "repo", "keyspace", "stack",
        "collection", "organization", "org", "account", "subscription", "resourcegroup", "resource_group",
        "instances", "vault", "zone", "hostedzone", "table", "schema", "tenant", "workspace", "filesystem"}
_INFRA = LazyRegex(r"(?<![\w])(?:[\w$]+(?:\.|::|->))*(?P<verb>delete|drop|destroy|terminate|purge|remove|deregister)_?"
                   r"(?P<noun>namespace|cluster|database|db_instance|db_cluster|db|bucket|project|repository|repo|"
                   r"keyspace|stack|collection|organization|org|account|subscription|resource_?group|instances?|"
                   r"vault|hosted_?zone|zone|index|indices|table|schema|tenant|workspace|volume|snapshot|topic|queue|"
                   r"function|service|deployment|node_?group|domain|secret|vpc|subnet|user_pool|app|site|environment|"
                   r"key_?ring|crypto_?key|registry|image|file_?system|backup|certificate|server|droplet|"
                   r"virtual_?machine|vm)s?\s*\(", re.IGNORECASE)
# A delete on a collection of infrastructure (`client.resource_groups.begin_delete('rg')`, `.namespaces.delete(…)`).
_COLLECTION_DELETE = LazyRegex(r"\.\s*(?P<noun>resource_groups|namespaces|clusters|databases|buckets|projects|"
                               r"repositories|repos|tables|collections|instances|servers|volumes|snapshots|zones|"
                               r"keyspaces|indices|stacks|vaults|topics|queues|deployments|services|apps|sites|"
                               r"droplets|virtual_machines|disks|file_systems|backups|accounts|subscriptions)\s*(?:\(\s*\))?\s*\.\s*"
                               r"(?:begin_)?(?:delete|remove|destroy|drop|purge)\w*\s*\(")
_FORCED_DELETE = LazyRegex(r"\.\s*(?:bucket|Bucket|blob_container|container|database|Database|dataset|Dataset|"
                           r"namespace|cluster|index|table|Table|collection|keyspace)\s*\([^()]*\)\s*\.\s*"
                           r"(?:delete|drop|destroy)\s*\(\s*(?:force\s*=\s*True|delete_contents\s*=\s*True|"
                           r"not_found_ok|true|\{\s*force)")
_EVERY = LazyRegex(r"\.\s*(?:list|all|get_all\w*|find|scan|iterator)\s*\(\s*(?:all\s*=\s*True|\)|\{\s*\}\s*\))|"
                   r"\.list_\w+\s*\([^()]*\)")
_REMOVES = r"\.\s*(?:remove|delete|destroy|kill|stop|terminate|drop)\w*\s*\("
_EACH_REMOVED = LazyRegex(r"(?:\bfor\b[^\n]{0,200}?|\.\s*(?:each|forEach|map)\b[^\n]{0,200}?)" + _REMOVES +
                          r"|\[\s*[\w.()]+" + _REMOVES + r"[^\]]{0,200}\bfor\b")
# Application servers' admin scripting (WebSphere's wsadmin, WebLogic's WLST, Jenkins' script console): an
# application uninstalled or undeployed, a configuration object removed, a server or cluster deleted by type.
_ADMIN_REMOVES = LazyRegex(r"(?<![\w.])(?:[\w$]+\.)*(?:uninstall|undeploy|uninstallApplication|undeployApplication|"
                           r"deleteServer|deleteCluster|deleteNode|deleteApplication)\s*\(\s*['\"]|"
                           r"\bAdmin(?:Config|App|Task|Control)\.(?:remove|delete\w*|uninstall\w*)\s*\(|"
                           r"(?<![\w.])delete\s*\(\s*['\"][^'\"]+['\"]\s*,\s*['\"][A-Z]\w+['\"]\s*\)|"
                           r"\$Admin(?:Config|App|Task|Control)\s+(?:remove|uninstall|delete\w*)\b")  # Jacl
# Calls that delete many stored objects in one request (S3's delete_objects, a bucket's deleteFiles, deleteMany).
_BULK = LazyRegex(r"\.\s*(?:delete_objects|deleteObjects|deleteFiles|delete_blobs|deleteBlobs|delete_many|deleteMany|"
                  r"bulk_delete|bulkDelete|batch_delete|batchDelete|purge_queue|purgeQueue|delete_by_query|"
                  r"deleteByQuery|remove_all|removeAll|destroy_all|delete_all|deleteAll)\s*\(")
# Network clients in any language (the address literal is read by `code_reach`; these are the libraries).
_NETWORK = LazyRegex(r"['\"]https?://|\b(?:requests|httpx|aiohttp|urllib3?|axios|superagent|node-fetch|needle|"
                     r"got|ky|undici|paramiko|pysftp|fabric|ftplib|smtplib|boto3|botocore|google\.cloud|"
                     r"azure\.storage|BlobServiceClient|BlobClient|Net::(?:HTTP|SFTP|SCP|FTP|SMTP)|LWP|HTTP::Tiny|"
                     r"HTTP::Request|Mail::\w+|Mojo::UserAgent|curl_init|fsockopen|stream_socket_client|WebClient|"
                     r"HttpClient|TcpClient|UdpClient|dgram|net\.connect|tls\.connect|socket|sendto|dns\.resolver|"
                     r"Resolv|gethostbyname|getaddrinfo|nodemailer|ssh2|scp2|ftp|sftp|upload_file|put_object|"
                     r"upload_blob|fetch|Invoke-(?:WebRequest|RestMethod)|HTTPoison|Req\.|httr|RCurl|HTTP\.jl|"
                     r"Faraday|RestClient|HTTParty|Excon|Typhoeus|reqwest|ureq|hyper)\b", re.IGNORECASE)
# The whole environment as data (not one variable read by name, not handed on to a child process as its env).
_WHOLE_ENV = LazyRegex(r"process\.env\b(?!\s*[.\[])|os\.environ\b(?!\s*[.\[])|os\.environ\.(?:items|copy)\s*\(|"
                       r"\bENV\.to_[ha]\b|%ENV\b|(?<![.\w])getenv\s*\(\s*\)|System\.getenv\s*\(\s*\)|"
                       r"Environment\.GetEnvironmentVariables\s*\(|Deno\.env\.toObject\s*\(|\bSystem\.get_env\s*\(\s*\)")
_CHILD_ENV = lazy(r"\benv\s*[=:]\s*(?:dict\s*\(\s*)?(?:os\.environ|process\.env|ENV)\b|\{\s*\.\.\.process\.env")


def judge(c: Ctx, code: str, shown: str, given: str = "") -> Optional[tuple]:
    """``code`` written out plainly; ``given`` as it was typed (ruby's `"#{ENV.to_h}"` is read there)."""
    code, given = code[:_LIMIT], (given or code)[:_LIMIT]
    best = None
    infra = _INFRA.search(code) or _COLLECTION_DELETE.search(code)
    forced = _FORCED_DELETE.search(code) if infra is None else None
    call = infra or forced
    if call is not None:
        noun = infra.group("noun").lower().replace("_", "") if infra is not None else "bucket"
        level = HIGH if noun.rstrip("s") in _BIG or noun in _BIG else MEDIUM
        best = (level, f"{c.prog} code deletes infrastructure through its client ({call.group(0).rstrip('( ')}) "
                       f"({shown})")
    best = best or admin_removal(c.prog, code, shown)
    bulk = _BULK.search(code) if best is None else None
    if bulk is not None:
        best = (MEDIUM, f"{c.prog} code deletes many stored objects at once ({bulk.group(0).rstrip('( ')}) ({shown})")
    if best is None and _EVERY.search(code) and _EACH_REMOVED.search(code):
        best = (MEDIUM, f"{c.prog} code removes every object a listing gives ({shown})")
    if _NETWORK.search(code):
        if _WHOLE_ENV.search(_CHILD_ENV.sub("", given) if "env" in given else given):
            best = worst(best, (MEDIUM, f"{c.prog} code sends the whole environment (its tokens) to the network "
                                        f"({shown})"))
        secret = secret_in_code(code, secret_path)
        if secret:
            best = worst(best, (HIGH if secret == "high" else MEDIUM,
                                f"{c.prog} code reads {'a key or credentials' if secret == 'high' else 'history'} "
                                f"and talks to the network ({shown})"))
    return best


def admin_removal(prog: str, code: str, shown: str) -> Optional[tuple]:
    """wsadmin's ``AdminApp.uninstall('shop')`` (or Jacl's ``$AdminApp uninstall shop``), WLST's ``undeploy('shop')``
    and ``delete('ms1', 'Server')``: an application or server removed through its admin scripting."""
    admin = _ADMIN_REMOVES.search(code)
    if admin is None:
        return None
    return MEDIUM, f"{prog} code removes an application or server through its admin scripting " \
                   f"({admin.group(0).rstrip('( ')}) ({shown})"
