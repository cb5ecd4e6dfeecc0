"""Commands whose OUTPUT is a secret, read where their output goes out (``exfil`` and ``reach`` ask
this of every step that feeds a network sender).

A file is not the only place a secret comes from.  It is printed by:

- a credential helper asked for it (``docker-credential-pass get``, ``git credential fill``,
  ``git-credential-osxkeychain get``): any program or subcommand named for credentials, with a
  reading verb;
- a secret store or password manager reading an entry (``gopass show``, ``rbw get``, ``keyring get``,
  ``secret-tool lookup``, ``kwallet-query -r``, ``envchain NS env``): a program whose name says it
  keeps secrets, doing anything but listing or managing itself;
- a cloud's secret service (``aws secretsmanager get-secret-value``, ``gcloud secrets versions
  access``, ``az keyvault secret show``, ``aws ssm get-parameter --with-decryption``): a secret noun
  among the subcommands and a reading verb;
- a decryption (``age -d -i KEY``, ``rage -d``, ``sops -d``, ``gpg --decrypt``, ``ansible-vault view``):
  what was encrypted was encrypted for a reason;
- a key exported or shown (``gpg2 --export-secret-keys``, ``--export-private``, ``wg show wg0
  private-key``, ``wg showconf``).

Each is "high": what comes out is a password, a token or a private key.  Alone on the line (printed to
the terminal, written to a file) they stay quiet: only a sink makes them a leak.
"""
from __future__ import annotations

import re

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.secret_exports import exported_secret
from aish.safety.rules.secret_sources import source_says_secret

# Password managers and secret stores, by their own names.
_STORES = frozenset({"pass", "passage", "gopass", "lpass", "rbw", "bw", "op", "keyring", "secret-tool", "kwallet-query",
                     "keepassxc-cli", "kpcli", "kbs2", "envchain", "chamber", "teller", "berglas", "vault", "bao",
                     "doppler", "infisical", "akeyless", "conjur", "keeper", "pass-cli", "enpass-cli", "bitwarden",
                     "1password", "proton-pass", "pwsafe", "himitsu", "sops", "ansible-vault", "security",
                     "credstash", "vaultcmd", "summon", "aws-vault"})
# Name parts that say a program keeps secrets (`docker-credential-desktop`, `git-credential-store`, `kwallet5`).
_KEEPER_PART = LazyRegex(r"^(credentials?|secrets?|keyring|keychain|k?wallet\d*|vault|passwords?|passphrase)$")
# Subcommand nouns of a bigger CLI that name its secret service.
_SECRET_NOUNS = frozenset({"credential", "credentials", "secret", "secrets", "secretsmanager", "keyvault", "kv",
                           "keyring", "keychain", "password", "passwords", "passphrase", "vault"})
# Verbs that print what is kept.
_READS = frozenset({"get", "fill", "show", "read", "view", "lookup", "export", "reveal", "print", "cat", "dump",
                    "decrypt", "access", "env", "printenv", "download", "unseal", "open", "totp", "otp", "copy"})
_READ_PREFIX = LazyRegex(r"^(get|show|read|reveal|export|print|dump|access|download|decrypt)[-_]")
# What a store does that prints nothing kept (listing names, managing itself).
_MANAGES = frozenset({"list", "ls", "search", "find", "help", "version", "status", "sync", "login", "logout", "lock",
                      "unlock", "config", "configure", "init", "setup", "erase", "store", "set", "insert", "add",
                      "rm", "remove", "delete", "edit", "mv", "cp", "git", "grep", "audit", "serve", "server",
                      "completion", "completions", "update", "upgrade"})
# Programs that decrypt, and how they are told to.
_DECRYPTORS = frozenset({"age", "rage", "gpg", "gpg2", "sops", "ccrypt", "scrypt", "openssl", "ansible-vault",
                         "gocryptfs-xray", "minisign", "kbs2", "7z", "7za", "gpgtar", "cryptcat"})
_DECRYPT_WORDS = frozenset({"-d", "--decrypt", "-decrypt", "decrypt", "view", "--view", "-dc", "--output=-"})
# Words that show or export a private key, whatever the program.
_KEY_OUT = LazyRegex(r"^(--?export-(secret|private)[\w-]*|private-?keys?|--show-private[\w-]*|--reveal|"
                     r"--show-secrets?|--show-passwords?|--with-decryption|showconf)$", re.IGNORECASE)
_SEPARATORS = re.compile(r"[-_.]+")
# Shell-history tools: what was typed, tokens pasted on command lines with it; and what they do that prints nothing.
_HISTORY_TOOLS = frozenset({"atuin", "hishtory", "mcfly", "hstr", "resh", "get-history", "ghy"})
_HISTORY_QUIET = frozenset({"stats", "import", "sync", "init", "key", "account", "daemon", "server", "register",
                            "login", "logout", "status", "config", "enable", "disable", "install", "uninstall",
                            "update", "gen-completions", "doctor", "info", "--help", "help", "--version"})
# The environment in PowerShell's words (`Get-ChildItem env:`, `[Environment]::GetEnvironmentVariables()`).
_PS_LISTERS = frozenset({"get-childitem", "gci", "ls", "dir", "get-item", "gi"})
_ENV_DRIVE = LazyRegex(r"^env:[\\/]?\*?$", re.IGNORECASE)
_PROC_ENVIRON = LazyRegex(r"^/proc/(\d+|self|\*|\$\$|\$\w+|\$\(.*\))/environ$")
# Searches for passwords in files (`findstr /si password *.config`, `Select-String -Pattern connectionString`).
_SEARCHERS = frozenset({"findstr", "findstr.exe", "select-string", "sls", "grep", "egrep", "rg", "ag", "ack", "git"})
_SECRET_WORD = LazyRegex(r"pass(word|wd)?|pwd|cpassword|connectionstring|secret|api_?key|credential|token",
                         re.IGNORECASE)


def prints_secret(texts: list) -> str:
    """'high' when the command of these words prints a password, a token or a private key; '' otherwise."""
    if not texts:
        return ""
    prog = texts[0].rsplit("/", 1)[-1].lower()
    prog = re.sub(r"\.(exe|sh|py)$", "", prog)
    rest = texts[1:]
    if any(_KEY_OUT.match(t) for t in rest):
        return "high"
    operands = [t.lower() for t in rest if not t.startswith("-")][:6]
    if prog in _DECRYPTORS and (set(rest) & _DECRYPT_WORDS or prog == "openssl" and "-d" in rest):
        return "high"
    named_keeper = prog in _STORES or any(_KEEPER_PART.match(p) for p in _SEPARATORS.split(prog))
    if named_keeper and not (operands[:1] and operands[0] in _MANAGES) and (
            prog not in ("vault", "bao", "security", "op", "sops", "ansible-vault", "envchain") or _reads(operands)):
        return "high"  # `rbw get github`, `keyring get svc user`, `docker-credential-desktop get`, `envchain ns env`
    nouns = {p for op in operands[:4] for p in _SEPARATORS.split(op)}
    if nouns & _SECRET_NOUNS and _reads(operands):
        return "high"  # `git credential fill`, `aws secretsmanager get-secret-value`, `az keyvault secret show`
    if "decrypt" in operands[:3] or "--decrypt" in rest or "decrypt" in _SEPARATORS.split(prog) or \
            prog.startswith("blackbox_") and prog != "blackbox_list_files" or \
            prog == "transcrypt" and ("--display" in rest or "-d" in rest):
        return "high"  # `ejson decrypt`, `dotenvx decrypt --stdout`, `eyaml decrypt`, `blackbox_cat`
    return _also_secret(prog, rest, operands)


def _also_secret(prog: str, rest: list, operands: list) -> str:
    """'high' for Wi-Fi keys and stored logon passwords shown in clear; 'medium' for what often holds tokens:
    the shell history, the environment (a process's or a container's too), a search for passwords, a deployment's
    outputs as JSON."""
    lowered = [t.lower() for t in rest]
    if prog == "netsh" and "wlan" in lowered and "key=clear" in lowered or \
            prog == "reg" and lowered[:1] == ["query"] and any("password" in t for t in lowered[1:]):
        return "high"  # `netsh wlan show profile X key=clear`, `reg query …\Winlogon /v DefaultPassword`
    if prog in ("terraform", "tofu", "terragrunt", "pulumi") and "output" in lowered and \
            ({"-json", "--json", "-raw", "--show-secrets"} & set(lowered)) or \
            prog in ("docker", "podman", "nerdctl") and "inspect" in lowered and any(".env" in t for t in lowered) or \
            prog == "ps" and any(re.fullmatch(r"-?[a-z]*e[a-z]*", t) and "e" in t.lstrip("-") and
                                 not t.startswith("-") for t in lowered):
        return "medium"  # `terraform output -json`, `docker inspect -f '{{.Config.Env}}'`, `ps eww`
    if prog in _HISTORY_TOOLS and not (operands[:1] and operands[0] in _HISTORY_QUIET):
        return "medium"  # `atuin history list`, `atuin search`, `hishtory export`, `mcfly search`
    if prog in _PS_LISTERS and any(_ENV_DRIVE.match(t) for t in rest) or \
            prog.startswith("[environment]::getenvironmentvariable") or \
            prog in ("echo", "printf", "write-output", "print") and any("${!" in t for t in rest) or \
            any(_PROC_ENVIRON.match(t) for t in rest):
        return "medium"  # `gci env:`, `echo "$v=${!v}"` over `compgen -v`, `xargs -0 -a /proc/1/environ`
    if prog in _SEARCHERS and (prog != "git" or operands[:1] == ["grep"]) and \
            _searches_secrets(prog, rest[1:] if prog == "git" else rest):
        return "medium"  # what it finds is the lines that hold passwords
    found = source_says_secret(prog, rest)  # any program whose own words say it prints secrets
    return found if found == "high" else exported_secret(prog, rest) or found  # `lotus wallet export ADDR`


def _searches_secrets(prog: str, rest: list) -> bool:
    """Is the pattern of this search a password's name (`findstr /si password`, `-Pattern 'connectionString'`)?"""
    if prog in ("select-string", "sls"):
        lowered = [t.lower() for t in rest]
        pattern = rest[lowered.index("-pattern") + 1] if "-pattern" in lowered[:-1] else \
            next((t for t in rest if not t.startswith("-")), "")
    else:
        pattern = next((t for t in rest if not t.startswith(("-", "/"))), "")
    return bool(pattern) and bool(_SECRET_WORD.search(pattern))


def _reads(operands: list) -> bool:
    return any(op in _READS or _READ_PREFIX.match(op) for op in operands)
