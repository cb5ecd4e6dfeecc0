"""How secret a name is: ``DB_PASSWORD`` holds one, ``"key"`` may, ``PASSWORD_FILE`` names a file.

A name is split into words (``SECRET_KEY_BASE`` -> secret key base, ``apiKey`` -> api key,
``x-api-key``, ``PGPASSWORD`` -> pgpassword) and judged by its secret word, the words before it
and the words after it:

- STRONG: a password, passphrase, secret, token, credential, personal access token or API key:
  any literal value long enough for its kind is a secret.
- MEDIUM: another word's key (``STRIPE_KEY``, ``ACCOUNT_KEY``, ``LicenseKey``) or ``auth``
  (``NPM_AUTH``, docker's ``"auth":``): a literal value with the variety of a credential.
- WEAK: a bare ``key``, ``sig``, ``signature``: only a value shaped like a generated credential.
- None: the name says what the value is *about* (``PASSWORD_FILE``, ``secretName``,
  ``existingSecret``, ``token_type``, ``max_tokens``, ``public_key``, ``key_id``, ``NextToken``).
"""
from __future__ import annotations

import re
from enum import IntEnum
from functools import lru_cache
from typing import Optional

from aish.safety.lazy_regex import lazy


class Strength(IntEnum):
    WEAK = 1
    MEDIUM = 2
    STRONG = 3


# The literals searched for in the lowercased text; each hit is then read as a whole name.
LITERALS = ("pass", "pwd", "secret", "token", "key", "auth", "cred", "pat", "sig", "session")

_STRONG_WORDS = frozenset("""password passwd passphrase pass pwd secret token credential credentials creds pat
    apikey secretkey accesskey privatekey authtoken accesstoken apitoken authkey masterkey pswd passcode""".split())
_STRONG_ENDINGS = ("password", "passwd", "passphrase", "secret", "token", "apikey", "secretkey", "accesskey",
                   "privatekey", "authtoken", "accesstoken", "licensekey", "masterkey", "authkey")
_WEAK_WORDS = frozenset({"key", "sig", "signature", "auth", "session"})
_NOT_KEYS = frozenset({"mon", "tur", "hot", "don", "jock", "whis", "lac", "hoc", "pass", "public", "pub", "primary",
                       "foreign", "sort", "partition", "cache", "hash", "short", "sign", "signing"})
# Words before the secret word that make the name about something else.
_NOT_SECRET_BEFORE = frozenset("""public pub primary foreign sort partition hash hashed cache idempotency row unique
    index routing shard lookup dict map existing max min num no has is show hide print get reset forgot
    require required validate check use enable disable allow with without cancel create make generate gen
    parse msg error err invalid missing gpg pgp signing keyboard hot next page continuation
    pagination cursor sync csrf xsrf form input field fields prompt label placeholder type kind ask
    askpass mask masked count total expected verify format length""".split())
# Words after it that keep it a secret (SECRET_KEY_BASE, client-key-data, STRIPE_KEY_LIVE).
_SECRET_AFTER = frozenset("""base value str string data b64 base64 hex raw plain plaintext live test prod
    production dev development staging sandbox old new secondary primary current default v1 v2 v3 enc encrypted
    key secret token pass password""".split())
# Words after it: the value is about the secret, not the secret (PASSWORD_FILE, token_type).
_NOT_SECRET_AFTER = frozenset("""name names id ids file files path paths dir directory folder type types kind class url
    uri urls endpoint length len size count max min version arn env var variable header field ref reference
    provider store manager policy label prefix suffix mode method format hash hashed digest expiry expires
    expiration expire ttl timeout lifetime age enabled enable disabled required rotation source algorithm alg
    pattern regex hint prompt placeholder description desc help title message error index limit usage cache
    location vault command cmd helper program script sock socket agent server host port user username login
    email holder owner created updated at date time timestamp last status state valid validity visible hidden
    exists list keys secrets tokens passwords uses scope scopes audience issuer kid fingerprint thumbprint pair
    ring store board word stroke press down up frame code map binding bindings chain event events handler
    callback fn func function class test tests spec specs mock example sample env_var parameter param
    params option options config configuration setting settings schema entity model table column row
    pattern service request response chars characters char bytes len regexp re""".split())
_PASS_WORD = lazy(r"(?:^|[_\-])pass$", re.IGNORECASE)
_CAMEL = lazy(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


@lru_cache(maxsize=4096)
def words(name: str) -> tuple[str, ...]:
    """``SECRET_KEY_BASE`` -> [secret, key, base]; ``apiKey`` -> [api, key]; ``--api-key`` -> [api, key]."""
    out: list[str] = []
    for part in re.split(r"[^A-Za-z0-9]+", name):
        out.extend(w.lower() for w in _CAMEL.findall(part) if not w.isdigit())
    return tuple(out)


def _secret_word(word: str, index: int, all_words: tuple[str, ...]) -> Optional[Strength]:
    if word in _STRONG_WORDS:
        if word in ("pwd", "pat") and len(all_words) == 1:
            return None  # PWD is the working directory; a lone "pat" is too short a word to trust
        return Strength.STRONG
    if any(word.endswith(e) for e in _STRONG_ENDINGS) and not word.startswith(("sig", "mon", "tur")):
        return Strength.STRONG
    if word == "key":
        return Strength.MEDIUM if index > 0 else Strength.WEAK
    if word.endswith("key") and len(word) > 3 and word[:-3] not in _NOT_KEYS:
        return Strength.MEDIUM  # functionkey, skey, hostkey ...
    if word in _WEAK_WORDS:
        return Strength.MEDIUM if word == "auth" and index > 0 else Strength.WEAK
    return None


@lru_cache(maxsize=4096)
def strength(name: str) -> Optional[Strength]:
    """How secret a value assigned to ``name`` is, or None when the name is about something else.

    The last secret word decides what the name is about (``aws_secret_access_key``: a key;
    ``secret_name``: a name); the strongest secret word decides how sure we are."""
    name = name.rsplit(".", 1)[-1] if not name.endswith(".") else name  # config.api_key: the member
    ws = words(name)
    if not ws or len(ws) > 8:
        return None
    found = [(i, s) for i, s in ((i, _secret_word(w, i, ws)) for i, w in enumerate(ws)) if s is not None]
    if not found:
        return None
    last = found[-1][0]
    after = ws[last + 1:]
    if any(w in _NOT_SECRET_AFTER for w in after):
        return None  # PASSWORD_FILE, secretName, token_type, key_id
    if any(w in _NOT_SECRET_BEFORE for w in ws[:last]):
        return None  # public_key, existingSecret, max_tokens, NextToken
    if ws[last] == "pass" and (last + 1 < len(ws) or not _PASS_WORD.search(name)):
        return None  # DB_PASS, pass: but not allPass, bypass, pass_through
    if ws[last] == "key" and last > 0 and ws[last - 1] in ("password", "passwd", "pass"):
        return None  # passwordKey: the key under which a password is stored (Helm, Kubernetes)
    if ws[last] == "key" and last > 0 and ws[last - 1] in _KEY_OWNERS:
        best = Strength.STRONG  # api_key, access_key, private_key, client_key
    else:
        best = max(s for _, s in found)
    return best


_KEY_OWNERS = frozenset("""api access secret private master license licence encryption auth app application client
    service account admin server consumer integration storage subscription shared sas webhook session signing
    hmac jwt cookie deploy deployment personal user bot""".split())
