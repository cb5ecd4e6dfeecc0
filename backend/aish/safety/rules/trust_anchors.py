"""Effect: a certificate made a trusted root authority, for any program's words for the store.

Whoever holds the key of a root the machine trusts can impersonate every site and sign code it accepts.
Each platform names its trust store its own way; what the commands share is an add or import beside
the store of roots:

- a store named ``root`` (Windows' ``certutil -addstore root``, ``certmgr -add … root``, ``certoc``,
  ``Import-Certificate -CertStoreLocation Cert:\\LocalMachine\\Root``), macOS's trust settings
  (``security add-trusted-cert -r trustRoot``), p11-kit's ``trust anchor``, Java's ``cacerts`` store
  (``keytool -importcert -cacerts``, ``-keystore …/cacerts``);
- an NSS database given a certificate with the CA trust letter (``certutil -A -t "C,,"``);
- a certificate copied or installed into a system anchors folder (``/usr/local/share/ca-certificates/``,
  ``/etc/pki/ca-trust/source/anchors/``): the next refresh trusts it.

Listing, viewing or exporting a store, a certificate added to a personal (``my``) or an own keystore, and the
refresh itself (``update-ca-certificates``) stay quiet; removing a root is read elsewhere.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_ADDS = frozenset({"-add", "-addstore", "add", "import", "-import", "-importcert", "importcert", "add-trusted-cert",
                   "anchor", "-a", "--add", "--import", "install", "-i"})
_ROOT_STORE = lazy(r"^(root|authroot|trustroot|trustasroot)$|(\\|machine|user)root$|[/\\]cacerts$|^-cacerts$",
                   re.IGNORECASE)
_ANCHORS = lazy(r"^(/usr/local/share/ca-certificates|/usr/share/ca-certificates|/etc/pki/ca-trust/source/"
                r"anchors|/usr/share/pki/ca-trust-source/anchors|/etc/ca-certificates/trust-source/anchors|"
                r"/etc/pki/trust/anchors)(/|$)")
_COPIES = lazy(r"(^|[-_])(cp|copy|mv|move|install|ln|rsync|scp|ditto)(\.exe)?$", re.IGNORECASE)
_NOT_ADDING = frozenset({"-store", "-viewstore", "list", "-list", "--list", "-l", "-delstore", "--remove", "-delete",
                         "-del", "remove", "delete", "-dump", "extract", "-export", "export", "-exportcert", "-verify",
                         "verify"})
# Options whose value is the store (`-addstore root`, `-CertStoreLocation …\\Root`, `-r trustRoot`); another
# option's `root` is something else (`import -window root`: the screen).
_STORE_OPTION = lazy(r"store|location|trust|^-[rsf]$", re.IGNORECASE)
# A certificate on the line: a word naming one, or a file by its extension.
_CERT = lazy(r"cert|\.(crt|cer|pem|der|pfx|p12|p7b|p7c)[\"']?$")
# The NSS trust letters: a capital C in the first (TLS) field marks a CA trusted to issue server certificates.
_CA_TRUST = lazy(r"^[a-zA-Z]*C[a-zA-Z]*,")


# `c,` is the NSS trust letters' first field (`-t "C,,"`, `CT,C,C`).
_WORDS = ("root", "anchor", "cacerts", "ca-certificates", "ca-trust", "trust-source", "trust/anchors", "c,")


@triggered_by(*_WORDS, otherwise=False)
def may_trust(c: Ctx) -> bool:
    """A store's or a folder's word on the line: most commands leave here."""
    line = c.prog.lower() + " " + c.lowered
    return any(w in line for w in _WORDS)


def rule_root_trusted(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:32]
    lowered = [t.lower() for t in texts]
    name = c.prog.lower().rsplit("/", 1)[-1]
    operands = [t for t in texts if not t.startswith("-")]
    if operands and _COPIES.search(name) and len(operands) >= 2 and _ANCHORS.match(operands[-1]):
        return MEDIUM, f"{c.prog} puts {operands[0]} among the trusted root authorities ({operands[-1]}): " \
            f"whoever holds its key can impersonate any site ({c.text})"
    if set(lowered) & _NOT_ADDING:
        return None
    added = name.startswith("import-") or any(t in _ADDS for t in lowered)
    if not added or not (_CERT.search(name) or any(_CERT.search(t) for t in lowered)):
        return None  # `tc qdisc add dev eth0 root …`: a root that is no store of certificates
    store = next((t for k, t in enumerate(texts) if _ROOT_STORE.search(t.strip("'\"")) and
                  (k == 0 or t.startswith("-") or not texts[k - 1].startswith("-") or
                   _STORE_OPTION.search(texts[k - 1]))), None)
    if store is None and operands[:1] and operands[0].lower() == "anchor" and len(operands) > 1:
        store = "anchor"  # p11-kit's `trust anchor FILE`
    if store is None and "-a" in lowered and "-t" in lowered:
        flags = texts[lowered.index("-t") + 1:lowered.index("-t") + 2]
        if flags and _CA_TRUST.match(flags[0].strip("'\"") + ","):
            store = f"-t {flags[0]}"
    if store is None:
        return None
    return MEDIUM, f"{c.prog} adds a certificate to the trusted roots ({store}): whoever holds its key can " \
        f"impersonate any site and sign what the machine accepts ({c.text})"
