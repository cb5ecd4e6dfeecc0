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
    r"^/var/lib/rancher/k3s/server/(?:token|cred/.+)$",
    re.IGNORECASE)

# A secret's copy under another suffix is the secret (`id_rsa.bak`, `.env.old`, `.pgpass~`); an encrypted one
# (`credentials.yml.enc`, `*.gpg`, `*.age`) is not: it is made to be kept where others can read it.
COPY_SUFFIX = LazyRegex(r"(?<=[\w-])\.(?:bak|backup|old|orig|save|copy|swp|tmp|[0-9]{1,3})$|"
                        r"(?<=[\w-])~$")
