"""Places whose files are secrets by where they are, not by their own name (read by ``exfil.secret_path``).

``exfil`` knows key and credential files by name (``id_rsa``, ``credentials``, ``.netrc``); many secrets
have plain names in a directory that says what they are:

- wallets of any coin or app: everything under ``~/.electrum``, ``~/.bitcoin``, ``~/.ethereum``,
  ``~/.config/solana``, ``Exodus``, ``Atomic``, ``Ledger Live``, a ``wallets/`` or ``keystore/`` folder,
  a ``*.wallet`` bundle, seed files;
- password managers' and messengers' local stores (``Bitwarden/data.json``, ``1Password``, ``KeePassXC``,
  ``Signal/config.json``, ``Telegram Desktop/tdata``, ``discord/Local Storage``), browser profiles' key
  files are named in ``exfil``;
- cluster and service admin credentials (``/etc/kubernetes/admin.conf`` and its PKI, ``/etc/rancher/k3s/
  k3s.yaml``, a Jenkins ``secrets/`` folder), files named for secrets with a prefix (``gitlab-secrets.json``,
  ``prod.secrets.yaml``), unseal and recovery keys;
- a dot-directory named for what it keeps (``~/.near-credentials/testnet/x.json``), a vault's password
  file, command-line tools' login files under their plain names (``~/.fly/config.yml``, ``~/.railway/
  config.json``, ``~/.config/netlify/config.json``, ``~/.dbt/profiles.yml``, ``~/.gradle/gradle.properties``,
  ``~/.config/sops/age/keys.txt``);
- a secret's copy under another suffix (``id_rsa.bak``, ``credentials.old``, ``.pgpass~``), not an encrypted one.
"""
from __future__ import annotations

import re

from aish.safety.lazy_regex import LazyRegex

SECRET_PLACE = LazyRegex(
    r"(?:^|/)\.?(?:electrum[\w-]*|bitcoin|litecoin|dogecoin|zcash|monero|ethereum|exodus|atomic|solana|"
    r"ledger live|metamask|phantom|wasabi(?:wallet)?|sparrow|armory|trezor|keplr|bitwarden|1password|keepassxc|"
    r"enpass|dashlane|lastpass|signal|telegram desktop/tdata|discord/local storage|element/)(?:/|$)|"
    r"(?:^|/)(?:wallets?|keystores?|keyrings?|private-keys-v1\.d|secrets)/[^/]+$|\.wallet(?:/|$)|"
    r"(?:^|/)(?:seed|mnemonic|recovery[-_]?(?:keys?|codes?|phrase)|unseal[-_]?keys?)[\w.-]*$|"
    r"(?:^|/)[\w.-]+[-_.]secrets?\.(?:json|ya?ml|toml|env|txt|ini)$|"
    r"^/etc/kubernetes/(?:[\w-]+\.conf|pki/.+\.key)$|^/etc/rancher/(?:k3s|rke2)/[\w-]+\.ya?ml$|"
    r"^/var/lib/rancher/k3s/server/(?:token|cred/.+)$|"
    # a dot-directory named for what it keeps (`~/.near-credentials/…`, `~/.secrets/x`), a vault's password file
    r"(?:^|/)\.[\w-]*(?:credentials?|secrets?|tokens?|passwords?)[\w-]*/|(?:^|/)\.?vault[-_]?pass(?:word)?[\w.-]*$|"
    # CLIs' login files under their own names: tokens and passwords in plain text
    r"(?:^|/)\.(?:fly/config\.ya?ml|railway/config\.json|bluemix/config\.json|aptos/config\.ya?ml|"
    r"snowflake/(?:connections|config)\.toml|dbt/profiles\.ya?ml|gradle/gradle\.properties|"
    r"wrangler/config/[\w.-]+\.toml|oci/[\w.-]+\.pem|config/netlify/config\.json|config/configstore/[\w.-]+\.json|"
    r"config/heroku/[\w.-]+|config/op/config|config/sops/age/keys\.txt|config/age/[\w.-]+|"
    r"local/share/(?:keyrings|kwalletd)/[^/]+)$",
    re.IGNORECASE)

# A secret's copy under another suffix is the secret (`id_rsa.bak`, `.env.old`, `.pgpass~`); an encrypted one
# (`credentials.yml.enc`, `*.gpg`, `*.age`) is not: it is made to be kept where others can read it.
COPY_SUFFIX = LazyRegex(r"(?<=[\w-])\.(?:bak|backup|old|orig|save|copy|swp|tmp|[0-9]{1,3})$|"
                        r"(?<=[\w-])~$")
