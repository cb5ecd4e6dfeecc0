"""What code does through client libraries, whatever the language (read by ``interp``): infrastructure deleted
by a cloud, cluster or database SDK, every listed object removed, and secret files sent by any network client.

- A call named for deleting a kind of infrastructure (``delete_namespace``, ``deleteBucket``,
  ``drop_collection``, ``delete_db_instance``, ``terminate_instances``, ``destroy_stack``,
  ``bucket(...).delete(force=True)``): medium, high for what holds many things (a namespace, a cluster,
  a database, a bucket, a project, a repository, a keyspace, a stack).
- A loop or comprehension over a listing of everything (``containers.list(all=True)``, ``.objects.all()``,
  ``list_buckets()``, ``.items``) whose body removes, deletes, destroys, kills or stops each one: medium.
- A secret file named in the code (any path ``exfil`` knows as a key, a credential, a wallet, a password
  store, or history) where the code also uses a network client of any make (HTTP clients, sockets, SFTP,
  SMTP, FTP, cloud storage uploads, DNS resolvers): high for keys and credentials, medium for history.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import HIGH, MEDIUM, Ctx, worst
from aish.safety.shell_words import Word

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
_FORCED_DELETE = LazyRegex(r"\.\s*(?:bucket|Bucket|blob_container|container|database|Database|dataset|Dataset|"
                           r"namespace|cluster|index|table|Table|collection|keyspace)\s*\([^()]*\)\s*\.\s*"
                           r"(?:delete|drop|destroy)\s*\(\s*(?:force\s*=\s*True|delete_contents\s*=\s*True|"
                           r"not_found_ok|true|\{\s*force)")
_EVERY = LazyRegex(r"\.\s*(?:list|all|get_all\w*|find|scan|iterator)\s*\(\s*(?:all\s*=\s*True|\)|\{\s*\}\s*\))|"
                   r"\.list_\w+\s*\([^()]*\)")
_REMOVES = r"\.\s*(?:remove|delete|destroy|kill|stop|terminate|drop)\w*\s*\("
_EACH_REMOVED = LazyRegex(r"(?:\bfor\b[^\n]{0,200}?|\.\s*(?:each|forEach|map)\b[^\n]{0,200}?)" + _REMOVES +
                          r"|\[\s*[\w.()]+" + _REMOVES + r"[^\]]{0,200}\bfor\b")
# Network clients in any language (the address literal is read by `code_reach`; these are the libraries).
_NETWORK = LazyRegex(r"['\"]https?://|\b(?:requests|httpx|aiohttp|urllib3?|axios|superagent|node-fetch|needle|"
                     r"got|ky|undici|paramiko|pysftp|fabric|ftplib|smtplib|boto3|botocore|google\.cloud|"
                     r"azure\.storage|BlobServiceClient|BlobClient|Net::(?:HTTP|SFTP|SCP|FTP|SMTP)|LWP|HTTP::Tiny|"
                     r"HTTP::Request|Mail::\w+|Mojo::UserAgent|curl_init|fsockopen|stream_socket_client|WebClient|"
                     r"HttpClient|TcpClient|UdpClient|dgram|net\.connect|tls\.connect|socket|sendto|dns\.resolver|"
                     r"Resolv|gethostbyname|getaddrinfo|nodemailer|ssh2|scp2|ftp|sftp|upload_file|put_object|"
                     r"upload_blob|fetch|Invoke-(?:WebRequest|RestMethod)|HTTPoison|Req\.|httr|RCurl|HTTP\.jl|"
                     r"Faraday|RestClient|HTTParty|Excon|Typhoeus|reqwest|ureq|hyper)\b", re.IGNORECASE)
_STRING = re.compile(r"'([^'\\\n]{0,200})'|\"([^\"\\\n]{0,200})\"|`([^`\n]{0,200})`")
# A key given to the client as its own login (`key_filename=`, `privateKey:`, `-i`), not sent.
_LOGIN = re.compile(r"(?:key_?filename|private_?key\w*|pkey|identity\w*|key_?file|keyfile|cert\w*|ssl_\w+|tls_\w+|"
                    r"ca_?file|from_private_key_file|load_key\w*|read_private_key\w*|keys|IdentityFile)['\"]?\s*"
                    r"(?:=>?|:|\()\s*(?:\[\s*)?(?:open\s*\(\s*|readFileSync\s*\(\s*|File\.read\s*\(\s*)?$",
                    re.IGNORECASE)
_PATHISH = re.compile(r"^(?:[~/]|\.[\w-])|/\.[\w-]|(?:^|/)(?:id_\w+|credentials|\.netrc|\.pgpass|shadow)$")


def _secret_in_code(code: str) -> str:
    """'high' when the code names a key or credential file, 'medium' for history, '' otherwise."""
    from aish.safety.rules.exfil import secret_path  # exfil imports the rules that import this module

    found = ""
    for m in list(_STRING.finditer(code))[:40]:
        text = next(g for g in m.groups() if g is not None)
        if not _PATHISH.search(text) or " " in text.strip() or _LOGIN.search(code, max(0, m.start() - 40), m.start()):
            continue
        if text.startswith("/") and re.search(r"expanduser|homedir|HOME|home\(\)|Dir\.home|user\.home",
                                              code[max(0, m.start() - 80):m.start()]):
            text = "~" + text  # os.homedir() + '/.npmrc'
        level = secret_path(Word(text, text))
        found = "high" if "high" in (found, level) else found or level
        if found == "high":
            break
    return found


def judge(c: Ctx, code: str, shown: str) -> Optional[tuple]:
    code = code[:_LIMIT]
    best = None
    infra = _INFRA.search(code)
    forced = _FORCED_DELETE.search(code) if infra is None else None
    call = infra or forced
    if call is not None:
        noun = infra.group("noun").lower().replace("_", "") if infra is not None else "bucket"
        level = HIGH if noun.rstrip("s") in _BIG or noun in _BIG else MEDIUM
        best = (level, f"{c.prog} code deletes infrastructure through its client ({call.group(0).rstrip('( ')}) "
                       f"({shown})")
    if best is None and _EVERY.search(code) and _EACH_REMOVED.search(code):
        best = (MEDIUM, f"{c.prog} code removes every object a listing gives ({shown})")
    if _NETWORK.search(code):
        secret = _secret_in_code(code)
        if secret:
            best = worst(best, (HIGH if secret == "high" else MEDIUM,
                                f"{c.prog} code reads {'a key or credentials' if secret == 'high' else 'history'} "
                                f"and talks to the network ({shown})"))
    return best
