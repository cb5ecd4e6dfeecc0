"""Commands whose output is a secret because their WORDS say so, whatever the program (asked by
``secret_producers.prints_secret`` for every step that feeds a network sender).

``secret_producers`` knows stores and helpers by name; a program it has never met says what it prints in
its own words:

- its name says it keeps or dumps secrets (``lssecret``, ``kwalletcli``, ``gimme-aws-creds``, ``mimikatz``,
  ``hack-browser-data``, ``SharpChrome``): anything but listing or managing itself prints them;
- a subcommand, option value or argument names a secret (``dcli password``, ``-f Passwords``,
  ``getmasterprivate``, ``dumpprivkey``, ``z_exportkey``, ``"sekurlsa::logonpasswords"``,
  ``listdescriptors true``): a private key, a seed, a password store's folder, a credential process;
- it prints the environment as data (``jc env``, ``aws-okta exec prod -- printenv``, ``tmux
  show-environment``, ``node -p 'JSON.stringify(process.env)'``, ``netlify env:list --json``): the
  tokens every tool reads from it; behind a credential wrapper (okta, vault, sso, creds) they are cloud
  keys.

Alone on a line these print to the terminal and stay quiet: only a sink later on the line (a pipe, a file
sent on) makes them a leak.
"""
from __future__ import annotations

import re

from aish.safety.lazy_regex import LazyRegex
from aish.safety.lazy_regex import lazy

# A program's name that says it keeps, fetches or dumps secrets (`lssecret`, `kwalletcli`, `gimme-aws-creds`).
_KEEPER_NAME = LazyRegex(r"secret|password|creds|credential|wallet|keyring|keychain|katz|lazagne|browser-?data|"
                         r"chromepass|firepwd|dpapi|keepass|lastpass|bitwarden|dashlane|^dcli$|nordpass|passbolt|"
                         r"psono|enpass|roboform|passhole|^kpcli$|mimipenguin|^sharp(chrome|web)|okta|saml|awsume|unseal|"
                         r"aws-?sso|[a-z]pass(-?cli)?$|passview|keyview|^pass[-_](export|dump|show|cat)", re.IGNORECASE)
# Words in an argument that name a private key, a seed, dumped logons, whatever verb is with them.
_STRONG = LazyRegex(r"privkey|private-?_?keys?|masterprivate|xprv|logonpasswords|sekurlsa|lsadump|hashdump|dcsync|"
                    r"dumpwallet|exportkey|dumpkey|credential-?process|secretkey|export-?secret", re.IGNORECASE)
# A reading verb fused to what it reads (`getseed`, `showmnemonic`, `get_password`, `export-wallet`).
_FUSED_READ = LazyRegex(r"^(get|show|dump|export|print|reveal|read|list)[-_]?(master)?(private|priv|seed|mnemonic|"
                        r"secrets?|passwords?|passphrase|wallet|creds|credentials?|logins?)s?$", re.IGNORECASE)
# Argument words that name secrets (a store's folder, a subcommand): `-f Passwords`, `dcli password`.
_SECRET_WORDS = frozenset({"token", "tokens", "apikey", "accesstoken",  # `heroku auth:token`, `vault token lookup`
                           "password", "passwords", "passphrase", "secret", "secrets", "creds", "credential",
                           "credentials", "logins", "seed", "mnemonic", "private"})
# What a store or tool does that prints nothing kept: listing names, managing itself.
_MANAGES = frozenset({"list", "ls", "search", "find", "help", "version", "status", "sync", "login", "logout", "lock",
                      "unlock", "config", "configure", "init", "setup", "erase", "store", "set", "insert", "add",
                      "rm", "remove", "delete", "edit", "mv", "git", "audit", "serve", "server", "completion",
                      "update", "upgrade", "create", "generate", "new", "rotate", "describe", "tag", "import",
                      "check", "verify", "reset", "change", "policy", "--help", "-h", "--version", "-v", "--list",
                      "-l", "--list-profiles", "--setup", "--config"})
# What a store's listing prints in full: its items with their passwords.
_WHOLE_ITEMS = frozenset({"items", "logins", "passwords", "entries", "secrets", "credentials"})
# Options whose value is the program's own key or password (`cryptcat -k password`), not what it prints.
_OWN_LOGIN = LazyRegex(r"^-(k|p|P|w|W|-?(key|pass|password|passphrase|token|secret|auth)[\w-]*)$")
_SPLIT = lazy(r"[^A-Za-z0-9]+")
# Programs that print their arguments or read the files named: their words are text or paths, not a source.
_TEXT = frozenset({"echo", "printf", "print", "write-output", "write-host", "yes", "cat", "head", "tail", "less",
                   "more", "grep", "egrep", "rg", "sed", "awk", "jq", "yq", "sort", "uniq", "wc", "base64", "xxd",
                   "tar", "zip", "gzip", "find", "ls", "git", "man", "tldr", "openssl", "ssh-keygen", "htpasswd",
                   "mkpasswd", "pwgen", "apg", "diceware", "xkcdpass", "curl", "wget", "nc", "ncat", "docker"})
# The environment printed as data: a trailing `env`/`printenv`, a `show-environment`, code that prints it.
_ENV_LAST = frozenset({"env", "printenv"})
_ENV_CODE = LazyRegex(r"process\.env\b(?!\.)|os\.environ\b(?![.\[])|\bENV\.to_h\b|%ENV\b|System\.getenv\(\)|"
                      r"getenv\(\)|Environment\.GetEnvironmentVariables\(\)", re.IGNORECASE)
_ENV_NOUNS = frozenset({"environment", "environ", "env", "envs", "variables", "variable", "vars"})
_ENV_SHOWS = frozenset({"show", "list", "ls", "export", "dump", "json", "pull", "print", "get", "--json", "-j"})
_SUBCOMMAND = lazy(r"[\w:.-]+")  # a subcommand's word, not code (`print(os.environ["HOME"])`)
_NOT_ENV = frozenset({"conda", "mamba", "micromamba", "pyenv", "poetry", "pipenv", "uv", "hatch", "pdm", "nvm",
                      "rbenv", "nodenv", "goenv", "jenv", "virtualenv", "direnv-status", "spack", "pixi"})
# Wrappers that put cloud or vault credentials into the environment of what they run.
_CRED_WRAPPER = LazyRegex(r"okta|vault|sso|creds|saml|assume|granted|doppler|infisical|secret|^op$|keyring|"
                          r"aws|azure|gcloud|chamber|summon|teller", re.IGNORECASE)


def source_says_secret(prog: str, rest: list) -> str:
    """'high' when this command's words say it prints passwords or keys, 'medium' for the environment, ''."""
    if prog in _TEXT:
        return ""
    operands = [t for k, t in enumerate(rest) if not t.startswith("-") and not (k and _OWN_LOGIN.match(rest[k - 1]))]
    values = operands + [t.split("=", 1)[1] for t in rest if t.startswith("-") and "=" in t]
    lowered = [t.lower() for t in rest]
    managing = bool(set(lowered[:1]) & _MANAGES) or bool(operands[:1] and operands[0].lower() in _MANAGES)
    env = _environment(prog, rest, operands)
    if env == "high":
        return "high"
    if any(_STRONG.search(v) for v in values[:8]):
        return "high"
    parts = [p.lower() for v in values[:6] if "/" not in v and not _file_like(v) for p in _SPLIT.split(v) if p]
    if any(_FUSED_READ.match(p) for p in parts):
        return "high"
    if "descriptors" in " ".join(lowered) and "true" in lowered:
        return "high"  # `bitcoin-cli listdescriptors true`: the wallet's private descriptors
    if managing and (operands[1:2] and operands[1].lower() in _WHOLE_ITEMS or "--unlock" in lowered):
        return "high"  # `bw list items`, `secret-tool search --unlock`: the listing holds the passwords
    if managing:
        return env  # `bw list folders`, `keeper login`
    if _KEEPER_NAME.search(prog) and not _file_like(prog):
        return "high"
    if set(parts) & _SECRET_WORDS and not set(parts) & _MANAGES:
        return "high"  # `dcli password --output json`, `kwalletcli -f Passwords -e x`
    return env


def _environment(prog: str, rest: list, operands: list) -> str:
    if prog in _NOT_ENV:
        return ""
    if rest and rest[-1] in _ENV_LAST and len(rest) >= 1:
        # `jc env`, `aws-okta exec prod -- printenv`, `saml2aws exec -- env`
        return "high" if _CRED_WRAPPER.search(prog) else "medium"
    if prog == "direnv" and operands[:1] in (["export"], ["dump"]):
        return "medium"  # what the .envrc puts in the environment
    if any(_ENV_CODE.search(t) for t in rest[:6]):
        return "medium"  # `node -p 'JSON.stringify(process.env)'`
    parts = [p.lower() for t in operands[:3] if _SUBCOMMAND.fullmatch(t) for p in _SPLIT.split(t) if p]
    if set(parts) & _ENV_NOUNS and (set(parts) | {t.lower() for t in rest}) & _ENV_SHOWS or \
            "show-environment" in operands[:2]:
        return "medium"  # `tmux show-environment -g`, `netlify env:list --json`, `railway variables --json`
    return ""


def _file_like(word: str) -> bool:
    return bool(re.search(r"\.(txt|csv|json|ya?ml|html?|md|log|conf|py|js|sh|rb|go|rs|java|xml|ini|toml)$", word,
                          re.IGNORECASE))
