"""Commands that print a secret by what their subcommands SAY they do with a key holder, whatever the program
(asked by ``secret_producers.prints_secret`` for every step that feeds a network sender).

``secret_producers`` and ``secret_sources`` know stores, helpers and secret words; tools that hold keys for
you (chains' node daemons, wallets, identity managers, cluster and storage clients) print them with a verb
said to their holder:

- a key, wallet, identity, keystore or account exported, dumped or decrypted: ``lotus wallet export ADDR``,
  ``gaiad keys export val --unarmored-hex --unsafe`` (any Cosmos chain's daemon), ``dfx identity export
  alice``, ``avalanche key export k``, ``goal account export -a ADDR``, ``sui keytool export``, ``sq key
  export``, ``cast wallet decrypt-keystore k``, ``git-crypt export-key -``, ``algokey export`` (the
  holder in the program's own name); a public half (``--public``, ``cert``) is not a secret;
- a configuration that holds credentials dumped or exported (``rclone config dump``, ``mc alias export
  x``, ``docker context export prod -``, ``kubectl config view --flatten``, ``s3cmd --dump-config``),
  shown (``rclone config show``: medium, most configurations hold a token somewhere);
- a credential made and printed: ``aws iam create-access-key``, ``argocd account generate-token``,
  ``npm token create``, ``fly tokens create deploy``, ``openstack application credential create``,
  ``ibmcloud iam api-key-create k``, ``az ad app credential reset``;
- an option that reveals: ``--show-token``, ``--print-token``, ``--unarmored``, ``--include-secrets``,
  ``oc whoami -t``;
- an infrastructure state pulled whole (``terraform state pull``): it holds every secret the resources got.

Alone on a line these print to the terminal (or a file) and stay quiet: only a sink makes them a leak.
"""
from __future__ import annotations

import re

from aish.safety.lazy_regex import lazy
from aish.safety.rules.secret_resources import resource_secret

# What holds keys, as a subcommand's noun (or the end of the program's name: `algokey`, `ethkey`).
_HOLDERS = frozenset({"key", "keys", "wallet", "wallets", "identity", "identities", "keystore", "keystores",
                      "keypair", "keypairs", "keytool", "account", "accounts", "signer", "signers", "privkey",
                      "seed", "mnemonic"})
_HOLDER_NAME = lazy(r"(?:key|keys|wallet|keytool|keystore)$")
# Verbs that print what a holder keeps.
_EXPORT = lazy(r"^(?:export|dump|reveal|decrypt|unlock-export)(?:[-_][\w-]+)?$")
# A verb fused to its holder: `export-key`, `dump-keys`, `export-account`, `export-identity`.
_FUSED = lazy(r"^(?:export|dump|reveal)[-_]?(?:private[-_]?)?(?:keys?|keypairs?|keystores?|identity|identities|"
              r"accounts?|wallets?|signers?|seed|mnemonic|creds|credentials?)$")
# The public half: an export of it is no secret.
_PUBLIC = frozenset({"--public", "-pub", "--pub", "pub", "public", "pubkey", "public-key", "cert", "certs",
                     "certificate", "--cert-only", "--armor-public", "address", "addresses", "--address-only"})
# An export told to take the secret half (an OpenPGP tool's `-s` too).
_SECRET_HALF = frozenset({"--secret", "--secret-keys", "--secret-key", "--private", "--include-private",
                          "--with-private", "--with-secret", "--with-secret-keys"})
_PGP = frozenset({"pgp", "gpg", "openpgp"})
# Programs whose keys are public ones: a package manager's keyring.
_PUBLIC_KEYRINGS = frozenset({"apt-key", "rpmkeys", "pacman-key", "gpgv", "ssh-keyscan"})
# Configurations that hold credentials, and how they are printed whole.
_CONFIGS = frozenset({"config", "configuration", "alias", "aliases", "context", "contexts", "kubeconfig", "rc"})
_CONFIG_DUMPS = frozenset({"dump", "export"})
_CONFIG_SHOWS = frozenset({"show", "view", "cat", "print"})
_CONFIG_WHOLE = frozenset({"--raw", "--flatten", "--show-secrets", "--unmask", "--unredacted", "--decrypt"})
_SECRET_KEY = lazy(r"token|passw|secret|_auth|apikey|api_key|oauth|private")
_CONFIG_OPTIONS = lazy(r"^--(?:dump|show|print|export)-?(?:config|configuration|credentials|creds|settings)$")
# Credentials made (and printed once): noun and verb, or fused.
_MADE_NOUNS = frozenset({"token", "tokens", "access-key", "access-keys", "accesskey", "api-key", "api-keys", "apikey",
                         "apikeys", "creds", "credential", "credentials", "svcacct", "service-token", "service-tokens",
                         "authorizations", "authorization", "auth"})
_MAKES = frozenset({"create", "generate", "new", "issue", "mint", "add", "reset", "authorizations:create",
                    "rotate"})
_MADE_PARTS = frozenset({"token", "tokens", "creds", "credential", "credentials", "apikey", "secret", "password"})
_PARTS = lazy(r"[-_.:]")
_FUSED_MADE = lazy(r"^(?:(?:create|generate|new|issue|mint)[-_](?:access[-_]?key|api[-_]?key|token|tokens|"
                   r"credentials?|creds|service[-_]?token)|(?:token|tokens|api[-_]?key|access[-_]?key)[-_]"
                   r"(?:create|generate|new|issue))$")
# Options that reveal what would be hidden.
_REVEALS = lazy(r"^--(?:show|print|reveal|include|with|display|output|expose)[-_]?(?:tokens?|secrets?|passwords?|"
                r"credentials?|creds|private[-_]?keys?|values)$|^--unarmored(?:-hex)?$|^--plain-?text$|^--[\w-]*unseal$|"
                r"^--(?:no-?mask(?:ing)?|unmask(?:ed)?|unredacted)$")
_STATE = frozenset({"terraform", "tofu", "terragrunt", "opentofu"})
# Single sign-on and role helpers told to print the credentials they got (`aws2-wrap --export`, `assume --export`).
_SIGN_ON = lazy(r"sso|okta|saml|assume|granted|awsume|aws|azure|gcloud|creds|leapp|onelogin|adfs", re.IGNORECASE)
_SIGN_ON_EXPORTS = frozenset({"--export", "--export-env", "--export-vars", "--env", "--exec-env", "--print-env",
                              "--show-env", "--export-credentials"})
# A Windows host's stores of logons dumped by the remote tools (`nxc smb HOST --sam`, `crackmapexec … --lsa`).
_DUMPS = frozenset({"--sam", "--lsa", "--ntds", "--dpapi", "--laps", "--gmsa", "--lsass"})
# Secret scanners: what they report is the secrets they found (redacted only when told).
_SCANNERS = frozenset({"gitleaks", "noseyparker", "nosey-parker", "trufflehog", "shhgit", "whispers", "kingfisher",
                       "ggshield", "talisman", "git-secrets", "detect-secrets", "secretlint", "ripsecrets"})
_SCANNER_QUIET = frozenset({"--redact", "version", "--version", "help", "--help", "-h", "install", "init",
                            "audit", "--baseline"})


def exported_secret(prog: str, rest: list) -> str:
    """'high' when this command's subcommands export a key holder's secret, make a credential or print a
    configuration whole; 'medium' for a configuration shown or a state pulled; '' otherwise."""
    lowered = [t.lower() for t in rest[:12]]
    operands = [t for t in lowered if not t.startswith("-")][:5]
    if any(_REVEALS.match(t) for t in lowered):
        return "high"
    if prog in _STATE and operands[:2] == ["state", "pull"] or prog == "pulumi" and operands[:2] == ["stack", "export"]:
        return "medium"  # every value the resources were given, passwords and keys among them
    if set(lowered) & _DUMPS or _SIGN_ON.search(prog) and set(lowered) & _SIGN_ON_EXPORTS:
        return "high"  # `nxc smb HOST --sam`, `aws2-wrap --profile p --export`, `assume prod --export`
    if prog in _SCANNERS and not set(lowered) & _SCANNER_QUIET:
        return "high"  # `gitleaks detect --report-path /dev/stdout`: the secrets found, in full
    if prog == "nmcli" and "-s" in lowered:
        return "high"  # `nmcli -s connection show home`: -s is --show-secrets (Wi-Fi and VPN passwords)
    if "whoami" in operands[:2] and "-t" in lowered:
        return "high"  # `oc whoami -t`: the session's token
    if prog not in _PUBLIC_KEYRINGS and not set(lowered) & _PUBLIC and _exports_holder(prog, operands):
        return "high"
    if any(_EXPORT.match(op) for op in operands[:3]) and (set(lowered) & _SECRET_HALF or
                                                         "-s" in lowered and set(operands) & _PGP):
        return "high"  # `keybase pgp export -s`, `X gpg export --secret`
    if _made(operands):
        return "high"
    return _configuration(operands, lowered) or resource_secret(prog, rest)  # `az storage account keys list`


def _exports_holder(prog: str, operands: list) -> bool:
    for k, op in enumerate(operands[:4]):
        if _FUSED.match(op):
            return True  # `git-crypt export-key`, `near account export-account`
        if _EXPORT.match(op) and (k == 0 and _HOLDER_NAME.search(prog) or
                                  any(o in _HOLDERS for o in operands[max(0, k - 2):k])):
            return True  # `lotus wallet export`, `gaiad keys export`, `algokey export`
    return False


def _made(operands: list) -> bool:
    for k, op in enumerate(operands[:4]):
        if _FUSED_MADE.match(op):
            return True  # `aws iam create-access-key`, `argocd account generate-token`
        if op in _MAKES and any(o in _MADE_NOUNS or set(_PARTS.split(o)) & _MADE_PARTS
                                for o in operands[max(0, k - 2):k]):
            return True  # `npm token create`, `fly tokens create deploy`, `az ad app credential reset`
    return False


def _configuration(operands: list, lowered: list) -> str:
    if any(_CONFIG_OPTIONS.match(t) for t in lowered):
        return "high"  # `s3cmd --dump-config`
    if any(":" in op for op in operands):  # `dokku config:export app`, `firebase functions:config:get`
        operands = [part for op in operands for part in (op.split(":") if "/" not in op else [op]) if part]
    for k, op in enumerate(operands[:4]):
        if op not in _CONFIGS:
            continue
        after = operands[k + 1:k + 2]
        asked = after[:1] == ["get"] or "--get" in lowered or len(operands) == k + 2  # `config KEY`, no value
        if asked and any(_SECRET_KEY.search(o) for o in operands[k + 1:k + 3]):
            return "high"  # `npm config get //registry.npmjs.org/:_authToken`, `composer config github-oauth.x`
        if after and after[0] in _CONFIG_DUMPS or set(lowered) & _CONFIG_WHOLE and after and \
                after[0] in _CONFIG_SHOWS | {"list", "ls"}:
            return "high"  # `rclone config dump`, `mc alias export x`, `kubectl config view --flatten`
        if after and after[0] in _CONFIG_SHOWS | {"list", "ls"} or after == ["get"] and len(operands) == k + 2:
            return "medium"  # `rclone config show`, `mc alias list`: tokens and passwords, among the rest
    return ""


# A secret store written: where a secret belongs (`gh secret set K < KEY`, `vault kv put`, `aws secretsmanager
# put-secret-value`, `gcloud secrets versions add --data-file=KEY`, `az keyvault secret set --file`, `wrangler secret
# put`, `vercel env add`, `heroku config:set`): a key handed to it is stored for the user, not sent to others.
_STORE_NOUNS = frozenset({"secret", "secrets", "secretsmanager", "keyvault", "kv", "vault", "credential", "credentials",
                          "variable", "variables", "env", "config", "parameter"})
_STORE_VERBS = frozenset({"set", "put", "add", "create", "insert", "store", "write", "import", "update"})
_FUSED_STORES = frozenset({"put-secret-value", "create-secret", "update-secret", "put-parameter"})


def into_secret_store(texts: list) -> bool:
    """Does this command write into a secret store (its subcommands name the store and a storing verb)?"""
    words = {p for t in texts[:5] if not t.startswith("-") for p in t.lower().split(":")}
    return bool(words & _FUSED_STORES) or bool(words & _STORE_NOUNS) and bool(words & _STORE_VERBS)
