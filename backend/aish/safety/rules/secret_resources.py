"""Commands whose output is a cloud resource's secret or a key just made, by what their subcommands say
(asked by ``secret_exports`` for every step that feeds a network sender).

Cloud CLIs print the keys of what they manage: a storage account's or a database's access keys (``az
storage account keys list``, ``az cosmosdb keys list``, ``az redis list-keys``, ``az functionapp keys
list``), connection strings (``az storage account show-connection-string``), publishing profiles with
their passwords, admin and service keys (``az search admin-key show``, ``ibmcloud resource service-key
k``, ``cf service-key``), shared access signatures (``az storage container generate-sas``), a role's
temporary credentials (``aws sts assume-role``), login tokens (``aws cognito-idp initiate-auth``,
``aws rds generate-db-auth-token``, ``gcloud sql generate-login-token``), a Windows instance's password
(``aws ec2 get-password-data``), a key pair's private half (``aws ec2 create-key-pair``, ``aws lightsail
download-default-key-pair``), a service account's new key (``gcloud iam service-accounts keys create -``),
a secret resource extracted (``oc extract secret/db --to=-``).  Key generators print the private key they
made (``wg genkey``, ``age-keygen``, ``openssl genrsa``).  A bootstrap prints the first all-powerful token
(``consul acl bootstrap``, ``vault operator init``), one-time code generators a second factor (``oathtool
--totp``, ``ykman oath accounts code``: medium).  Listing a resource's key names, describing key pairs or
listing access-key ids prints nothing secret.
"""
from __future__ import annotations

from aish.safety.lazy_regex import lazy

# Subcommand words that name a resource's secret, read in the operands joined by spaces.
_STRONG = lazy(r"(?:^|[\s:])(?:show-)?connection-strings?\b|publish(?:ing)?-profiles?\b|\badmin-keys?\b|"
               r"\bservice-key\b(?!s)|(?<![\w-])(?:primary|secondary|shared|master|account|storage|function|host|"
               r"system)-keys?\b|\bgenerate-sas\b|\bsas-tokens?\b|\bassume-role[\w-]*|\bget-password-data\b|"
               r"\binitial-password\b|\b(?:admin-)?initiate-auth\b|\b(?:create|download)[\w-]*key-?pairs?\b|"
               r"\bgenerate-data-key\b")
# Keys listed: most clouds print their values (a key shown is mostly its public half or metadata).
_LISTED = lazy(r"(?:^|\s)(?:keys\s+(?:list|renew)|list-keys|key\s+list)(?:\s|$)")
# A credential made: a making verb first, a credential last (`generate-db-auth-token`, `create-access-key`).
_MAKING = frozenset({"create", "generate", "new", "issue", "mint"})
_MADE = frozenset({"token", "tokens", "key", "keys", "password", "secret", "credential", "credentials", "creds", "sas"})
_KEY_NOUNS = frozenset({"key", "keys"})
_KEY_MAKES = frozenset({"create", "add", "new", "generate", "mint"})
_PARTS = lazy(r"[-_]")
# Key generators that print the private key they made, and what makes them print only the public half or a file.
_GENERATORS = {"wg": {"genkey", "genpsk"}, "age-keygen": set(), "rage-keygen": set(),
               "openssl": {"genrsa", "genpkey", "gendsa"}}
_GENERATOR_QUIET = frozenset({"-y", "-out", "--output", "-o", "pubkey", "--help", "-h", "--version"})
# Bootstraps that print the first, all-powerful token or the unseal keys (`consul acl bootstrap`, `nomad acl
# bootstrap`, `vault operator init`), and a cluster's join token (`docker swarm join-token worker`).
_BOOTSTRAP = lazy(r"(?:^|\s)(?:acl\s+bootstrap|operator\s+init|join-token)(?:\s|$)")
# One-time codes: a generator's name, or an OTP word with a verb that prints the code.
_ONE_TIME_PROG = lazy(r"^(?:oathtool|2fa|totp|otp|[\w-]*-otp|otp-[\w-]+|otpclient-cli|mintotp)$")
_ONE_TIME_WORDS = frozenset({"oath", "otp", "totp", "hotp", "mfa", "2fa"})
_ONE_TIME_SHOWS = frozenset({"code", "codes", "show", "get", "generate", "now"})
_SECRET_RESOURCE = lazy(r"^secrets?/[\w.-]+$")
_RESOURCE_READS = frozenset({"extract", "get", "view", "cat"})


def resource_secret(prog: str, rest: list) -> str:
    """'high' when this command prints a resource's secret, a temporary credential or a key just made;
    'medium' for keys listed; '' otherwise."""
    lowered = [t.lower() for t in rest[:12]]
    operands = [t for t in lowered if not t.startswith("-")][:5]
    made = _GENERATORS.get(prog)
    if made is not None and (not made or operands[:1] and operands[0] in made) and \
            not set(lowered) & _GENERATOR_QUIET:
        return "high"  # `wg genkey`, `age-keygen`, `openssl genrsa 4096`
    if _ONE_TIME_PROG.match(prog) or set(operands[:3]) & _ONE_TIME_WORDS and set(operands[:4]) & _ONE_TIME_SHOWS:
        return "medium"  # `oathtool --totp -b KEY`, `ykman oath accounts code`: a second factor, valid for a while
    if not operands:
        return ""
    joined = " ".join(operands)
    if _STRONG.search(joined) or _BOOTSTRAP.search(joined):
        return "high"
    for k, op in enumerate(operands[:4]):
        parts = _PARTS.split(op)
        if len(parts) > 1 and parts[0] in _MAKING and parts[-1] in _MADE:
            return "high"  # `aws rds generate-db-auth-token`, `gcloud sql generate-login-token`
        if op in _KEY_MAKES and set(operands[max(0, k - 2):k]) & _KEY_NOUNS:
            return "high"  # `gcloud iam service-accounts keys create -`, `gaiad keys add k` (its mnemonic)
        if _SECRET_RESOURCE.match(op) and set(operands[:k]) & _RESOURCE_READS:
            return "high"  # `oc extract secret/db --to=-`
    return "medium" if _LISTED.search(joined) else ""

