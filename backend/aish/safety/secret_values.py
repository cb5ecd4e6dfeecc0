"""What a value looks like: a literal secret, a reference to one, or a placeholder.

A secret is a value, not a name.  ``TOKEN=$GH_TOKEN``, ``token = session.token``,
``api_key=os.environ["API_KEY"]``, ``password: <your password>`` and ``PASSWORD_FILE=/run/x``
name a secret without holding one; ``DB_PASSWORD=Tr0ub4dor&3xYz`` holds one.  These checks
are pure functions of the value (and how it was written: quoted or bare), used by the context
rules in ``secret_context``.

``looks_random`` is the shape of a generated credential (mixed character classes, no long
runs of one class, enough distinct characters): what a value must look like when the name in
front of it is only weakly secret (``"key":``) or absent.  ``strong`` decides whether a value,
once found, is also replaced where it appears later without its context: ``postgres`` after
``POSTGRES_PASSWORD:`` is a secret there, but replacing every later ``postgres`` would break
image names, user names and URL schemes.
"""
from __future__ import annotations

import math
import re
from collections import Counter

from aish.safety.lazy_regex import lazy

# A reference to a variable, a setting or a template, or an expression: not the secret itself.
_REFERENCE = lazy(
    r"""^(?:\$|<(?!secret:)|%[A-Za-z_][\w]*%|%\(|\{\{|\{%|<%|\#\{|@\{|&\{|\[\[|ENC\[|vault:|op://|arn:aws:secretsmanager
        |(?:process\.env|import\.meta\.env|os\.environ|os\.getenv|env|ENV|System\.getenv|getenv|secrets|vars)\b
        )""", re.VERBOSE)
_CODE_START = lazy(r"^(?:\((?!\))|\[|\{(?!\{)|&|\*|!!)")
# A bare identifier path or call in code: session.token, config.api_key, self._key, getpass()
_CODE = lazy(r"^[A-Za-z_$][\w$]*(?:(?:(?:\.|->|::)[A-Za-z_$][\w$]*)+(?:\(.*\)?|\[.*\]?)?|\(.*\)?|\[.*\]?);?$")
_CODE_NAME = lazy(r"[a-z][A-Z]|[A-Za-z]_[A-Za-z]")
_JS_NAME = lazy(r"^[A-Za-z_]\w*\$(?:[A-Za-z_][\w$]*|\d+)$")
_IDENTIFIER = lazy(r"^[A-Za-z_]\w*$")
_IDENTIFIER_PART = lazy(r"^[A-Za-z]*\d{0,2}$")  # a word with at most a short number at its end
_PLACEHOLDER = lazy(r"^(?:<[^<>]*>|\[[^\[\]]*\]|\(.*\)|\.\.\.+|…|(.)\1+|[*xX#•_.-]+)$")
_ELIDED = lazy(r"([xX*#•])\1{4}|\.\.\.")  # sk_live_xxxxx..., ghp_****
# Values made only of these words are placeholders: your-api-key-here, <token>, changeme, example-secret
_PLACEHOLDER_WORDS = frozenset("""
    your my the a an enter insert replace put add own here goes placeholder changeme change me redacted
    example examples dummy sample fixme todo tbd foo bar baz xxx xxxx value api key keys token secret
    password pass passwd pwd access auth client app application id private personal service account
    none null nil undefined true false yes no on off empty required optional string str int bool boolean
    bytes object any default auto unset masked hidden protected not set new old test user username login
    email name
    """.split())
_PATH = lazy(r"^(?:~?/|\.{1,2}/|[A-Za-z]:\\|file:)[^\s]*[/\\]")
# An option's spec rather than a value: docker build --secret id=npmrc,src=..., --mount type=secret,...
_SPEC = lazy(r"^(?:id|src|source|env|type|target|dst|destination|mode|uid|gid|required|name)=", re.IGNORECASE)
_CODE_SYNTAX = lazy(r"&&|\|\||=>|[({\[][^)}\]]*$|^[^({\[]*[)}\]]|\?[^?]*:")
_FILENAME = lazy(r"^[A-Za-z_\-./]+\.(?:[a-z]{1,4})$")
_VERSION = lazy(r"^[\^~>=<]*v?\d+(?:\.[\dx*]+)+(?:[-+][\w.]+)?$")
_NUMBER = lazy(r"^[+-]?\d+(?:\.\d+)?(?:[kKmMgG]i?[bB]?|ms|s|m|h|d|%)?$")

MIN_PASSWORD = 4   # shorter values after a password name are sizes, flags or examples
MIN_TOKEN = 8      # no issued token, key or secret is shorter
MIN_RANDOM = 16    # a value recognised by its shape alone


def is_reference(value: str, *, quoted: bool) -> bool:
    """``$X``, ``${X}``, ``{{ x }}``, ``process.env.X``; bare code (``session.token``, ``getpass()``,
    ``keys[name]``, ``Symbol.toStringTag``)."""
    if _REFERENCE.match(value):
        return True
    if not quoted and _CODE_START.match(value):
        return True  # (cast)x, [list], {object}, &pointer, *deref, !!bool
    if not quoted and _CODE.match(value):
        if any(c in value for c in "([") or not any(c.isdigit() for c in value):
            return True  # a call, an index, or a dotted path of words
        return not looks_random(value)
    if not quoted and _JS_NAME.match(value):
        return True  # utils$1, _resolveConfig$withCredentials
    return False


def is_identifier(value: str) -> bool:
    """A bare word that code would read as a variable (``api_key = api_key``, ``token = tok``)."""
    return bool(_IDENTIFIER.match(value)) and all(_IDENTIFIER_PART.match(part) for part in value.split("_")) \
        and not looks_random(value)


def is_code_name(value: str) -> bool:
    """A name only code writes: ``urlPassword``, ``default_config``, ``getToken`` (a YAML
    password is rarely camelCase or snake_case words)."""
    return is_identifier(value) and bool(_CODE_NAME.search(value))


def is_placeholder(value: str) -> bool:
    value = value.strip()
    if _PLACEHOLDER.match(value) or value.endswith(("...", "…")) or _ELIDED.search(value):
        return True
    if value.lower().startswith(("your", "<your", "insert", "replace")):
        return True  # YOURSECRETKEYGOESHERE
    words = [w for w in re.split(r"[-_ .:/]+", value.lower()) if w]
    return all(w in _PLACEHOLDER_WORDS for w in words)


def is_literal_secret(value: str, *, quoted: bool, minimum: int = MIN_PASSWORD) -> bool:
    """A literal value long enough for its kind that is neither a reference, a placeholder,
    a path nor a plain number."""
    value = value.strip()
    if len(value) < minimum or not any(c.isalnum() for c in value):
        return False
    if is_reference(value, quoted=quoted) or is_placeholder(value):
        return False
    if not quoted and _SPEC.match(value):
        return False
    if not quoted and _CODE_SYNTAX.search(value):
        return False  # minified or inline code: a}),b(c)&&d, x?y:z
    if not quoted and _FILENAME.match(value):
        return False  # a build target or a file: git-credential-osxkeychain.o
    if _PATH.match(value) or "://" in value[:12]:
        return False  # a file holding the secret, or a URL (its password is found by the URL rule)
    if (_NUMBER.match(value) and len(value) < 6) or _VERSION.match(value):
        return False
    return True


def entropy(value: str) -> float:
    """Shannon entropy in bits per character."""
    if not value:
        return 0.0
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in Counter(value).values())


def classes(value: str) -> int:
    """How many of lower case, upper case and digits ``value`` holds."""
    return bool(_LOWER.search(value)) + bool(_UPPER.search(value)) + bool(_DIGIT.search(value))


_HEX = lazy(r"^[0-9a-fA-F]+$")
_LOWER, _UPPER, _DIGIT = lazy(r"[a-z]"), lazy(r"[A-Z]"), lazy(r"[0-9]")
_SPACE = lazy(r"\s")
# Each character's class (a, A, 0, or _ for anything else), so that runs are counted by regexes.
_CLASS_OF = str.maketrans({**{c: "a" for c in "abcdefghijklmnopqrstuvwxyz"},
                           **{c: "A" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"},
                           **{c: "0" for c in "0123456789"}})
_RUNS = lazy(r"a+|A+|0+")
_SEGMENTS = lazy(r"[aA0]+")
_OTHER = lazy(r"[^aA0]")
_VOWELS = lazy(r"[aeiouAEIOU]")
_LETTERS = lazy(r"[A-Za-z]")


def looks_random(value: str, minimum: int = MIN_RANDOM) -> bool:
    """The shape of a generated credential: long enough, several character classes (or long
    hex), many distinct characters, not a word with a number on it."""
    if len(value) < minimum or len(value) > 4096 or _SPACE.search(value):
        return False
    if _HEX.match(value):
        return len(value) >= 32 and entropy(value) >= 3.0
    if classes(value) < 2:
        return False
    shape = value.translate(_CLASS_OF)
    alnum = len(value) - len(_OTHER.findall(shape))
    if alnum < 0.7 * len(value):
        return False
    if switches(shape) < 0.2 * alnum:
        return False  # words with a number: few changes between character classes
    letters = len(_LETTERS.findall(value))
    if letters >= 8 and letters >= len(value) - 2 and len(_VOWELS.findall(value)) > 0.34 * letters:
        return False  # pronounceable: camelCase names and words (a random string has ~20% vowels)
    return entropy(value) >= (3.0 if len(value) < 24 else 3.3)


def switches(shape: str) -> int:
    """Changes of class between adjacent letters/digits (``shape``: the value through
    ``_CLASS_OF``): about half the pairs of a random string, one per word in camelCase."""
    return len(_RUNS.findall(shape)) - len(_SEGMENTS.findall(shape))


def shape_of(value: str) -> str:
    return value.translate(_CLASS_OF)


def strong(value: str) -> bool:
    """Distinctive enough to replace wherever it appears later, without its context: a
    generated credential, or a password with symbols (``Tr0ub4dor&3xYz``); not a word, a
    name in code (``urlPassword``) or a word with a number (``postgres2``)."""
    if looks_random(value, 12):
        return True
    if len(value) < 8 or any(c.isspace() for c in value) or classes(value) < 2 or is_code_name(value):
        return False
    return any(c.isdigit() or not c.isalnum() and c not in "_-." for c in value) and entropy(value) >= 2.5
