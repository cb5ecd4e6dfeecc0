"""Effect: who may log in changed behind others' backs, by any program.

- A file that decides who logs in written by a program that fetches or produces it (``axel -o
  /root/.ssh/authorized_keys URL``, ``lwp-download URL ~deploy/.ssh/authorized_keys``, ``aria2c -d
  /root/.ssh -o authorized_keys URL``, ``gdown URL -O /etc/sudoers``): a key, a sudo rule or a PAM stack
  from elsewhere replaces the machine's.
- A password file recreated (``htdigest -c FILE realm admin``, ``htpasswd -c``, ``mosquitto_passwd -c``):
  ``-c`` starts the file anew, every other user's login is dropped; a password file tool told to force
  (``orapwd file=… force=y``) writes over the one that exists.
- Another account's password set from the command line (``ldappasswd … -s NEW uid=ceo,…``, ``gsec -modify
  SYSDBA -pw NEW``, ``ipmi-config --commit --key-pair=User2:Password=NEW``, ``racadm set
  iDRAC.Users.2.Password NEW``, ``pveum passwd root@pam``, ``ipa passwd admin``, ``dscl . -passwd
  /Users/admin``): whoever signed in with the old one is locked out.
- An administrator's account locked or disabled by any account tool (``lusermod -L root``, ``pw lock root``,
  ``samba-tool user disable Administrator``).
- A login setting weakened in a security file by a program that rewrites it (``comby -in-place
  'PermitRootLogin no' 'PermitRootLogin yes' /etc/ssh/sshd_config``): any program given the file and the
  weak value.

One's own password changed, a file of one's own fetched, a password file added to without ``-c``, reading
these files, and a setting made stronger stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

# Files that decide who logs in and as whom.
_LOGIN_FILE = LazyRegex(r"(^|/)(authorized_keys2?|sudoers|sudoers\.d/[^/]+|shadow|gshadow|pam\.d/[^/]+|pam\.conf|"
                        r"sshd_config|sshd_config\.d/[^/]+|doas\.conf|ld\.so\.preload)$|^/etc/(passwd|group)$")
_LOGIN_DIR = LazyRegex(r"(^|/)(\.ssh|sudoers\.d|pam\.d|sshd_config\.d)/?$")
_PATH_WORDS = ("authorized_keys", "sudoers", "shadow", "/etc/passwd", "/etc/group", "pam.d", "pam.conf",
               "sshd_config", "doas.conf", "ld.so.preload", "/.ssh")
# Options whose value is what a program writes, and the folder it writes into.
_OUT = frozenset({"-o", "-O", "--output", "--out", "--output-document", "--output-file", "-outfile", "--dest",
                  "--destination", "--outfile", "-out"})
_DIR = frozenset({"-d", "--dir", "--directory", "-P", "--directory-prefix"})
_FETCH_VERB = LazyRegex(r"^(download|get|pull|fetch|copy|cp|sync|restore)([-_]|$)", re.IGNORECASE)
_REMOTE = LazyRegex(r"^([a-z][\w+.-]*://|[\w.-]+@[\w.-]+:|[\w-]+:[\w./~-]|Qm\w{20,}|bafy\w{20,})", re.IGNORECASE)
# Programs that only read, compare or check the files named.
_READERS = frozenset({"cat", "less", "more", "head", "tail", "grep", "egrep", "rg", "diff", "cmp", "ls", "stat",
                      "file", "wc", "visudo", "sshd", "ssh-keygen", "md5sum", "sha256sum", "test", "[", "vim",
                      "nano", "vi", "code", "bat", "getent", "pwck", "grpck", "ssh-copy-id", "chmod", "chown",
                      "restorecon", "lsattr", "chattr", "install", "cp", "mv", "ln", "rsync", "scp", "tee", "sed",
                      "awk", "curl", "wget", "dd", "truncate", "shred", "rm", "touch", "echo", "printf", "sudo",
                      "sudoedit", "git", "find", "tar", "unzip", "docker", "kubectl", "ansible", "openssl"})

_ACCOUNT_WORDS = ("passw", "-pw", "digest", "lock", "disable", "--commit", "-l", "/active:no", "force=", "pwfile",
                  "pw_file", "keystore", "truststore", "changeauth", "change_auth")
_GATE_WORDS = _PATH_WORDS + tuple(w for w in _ACCOUNT_WORDS if w != "-l")
_PASSWORD_TOOL = LazyRegex(r"passw|digest", re.IGNORECASE)
_RECREATE = frozenset({"-c", "-cm", "-cB", "-cs", "-cp", "-cd"})
# Options that carry the NEW password, and subcommands that set one.
_NEW_PASSWORD = LazyRegex(r"^-{1,2}(s|pw|newpw|new-?password|newpassword|new-?pass|set-?password|password-new|"
                          r"passwd)$", re.IGNORECASE)
_SET_WORDS = frozenset({"passwd", "password", "setpassword", "set-password", "-passwd", "sp", "setpw"})
# Programs that look an entry up in the account databases by the database's name (`passwd`, `shadow`).
_DATABASE_READERS = frozenset({"getent", "ypcat", "ypmatch", "niscat", "nismatch", "lslogins", "pwck", "grpck"})
_MODIFY = frozenset({"-modify", "-mo", "modify", "--modify", "mod", "-mod"})
_ADMIN = LazyRegex(r"^(root|admin|administrator|sysdba|sa|superuser|postgres|elastic|ceo|cn=admin|"
                   r"uid=(root|admin|ceo|cfo|cto)|[\w.-]*admin[\w.-]*)([@,/:].*)?$|/users/(admin|root)\w*$",
                   re.IGNORECASE)
_KEY_PAIR_PASSWORD = LazyRegex(r"user\d*:password=\S", re.IGNORECASE)
_DOTTED_PASSWORD = LazyRegex(r"^[\w.]*users?\.\d+\.password$", re.IGNORECASE)
_LOCKS = frozenset({"--lock", "lock", "disable", "--disable", "-disable", "/active:no", "lockuser"})
_OTHER_ACCOUNT = LazyRegex(r"^(root|admin|administrator|sysdba|sa|superuser)$", re.IGNORECASE)

_SETTING = LazyRegex(r"permitrootlogin|passwordauthentication|permitemptypasswords|pubkeyauthentication|strictmodes|"
                     r"selinux=|pam_\w+|nopasswd|authenticate|nullok|usepam", re.IGNORECASE)
# Weak values of login settings, written into a security file by any program.
_WEAK = LazyRegex(r"permitrootlogin\s+yes|passwordauthentication\s+yes|permitemptypasswords\s+yes|"
                  r"pubkeyauthentication\s+no|strictmodes\s+no|selinux=(disabled|permissive)|pam_permit\.so|"
                  r"nopasswd|!authenticate|\bnullok\b|usepam\s+no", re.IGNORECASE)


@triggered_by(_PATH_WORDS + _ACCOUNT_WORDS, otherwise=False)
def may_replace(c: Ctx) -> bool:
    """One search of the line: a login file or an account word."""
    line = c.prog.lower() + " " + c.lowered
    return any(w in line for w in _GATE_WORDS) or "-L" in c.texts  # `-l` wakes this test, only `-L` locks


def rule_credentials_replaced(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    if not texts:
        return None
    return _written_into(c) or _weakened(c) or _recreated(c) or _forced_anew(c) or _store_recreated(c) or \
        _password_set(c) or _inner_password_set(c) or _admin_password_tool(c) or _admin_locked(c)


def _written_into(c: Ctx) -> Optional[tuple]:
    """A login file as the output of a program that fetches or produces it."""
    name = c.prog.lower()
    if name in _READERS:
        return None
    texts = c.texts
    folder = next((texts[k + 1] for k, t in enumerate(texts[:-1]) if t in _DIR), "")
    outs = [texts[k + 1] for k, t in enumerate(texts[:-1]) if t in _OUT]
    outs += [t.split("=", 1)[1] for t in texts if t.split("=", 1)[0] in _OUT and "=" in t]
    if folder and _LOGIN_DIR.search(folder.rstrip("/") + "/"):
        outs += [folder.rstrip("/") + "/" + o for o in outs if "/" not in o]
    operands = [t for t in texts if not t.startswith("-")]
    remote = any(_REMOTE.match(t) for t in operands)
    fetches = any(_FETCH_VERB.search(t) for t in operands[:2])
    if fetches:  # `oras pull REF -o /root/.ssh/`: files pulled into a login folder
        found = next((o for o in outs if _LOGIN_DIR.search(o.rstrip("/") + "/")), None)
        if found:
            return HIGH, f"{c.prog} writes what it pulls into {found}: who may log in is replaced ({c.text})"
    if (remote or fetches) and len(operands) >= 2 and operands[-1] not in outs:
        outs.append(operands[-1])  # `lwp-download URL FILE`, `rclone copyto remote:k FILE`
    for out in outs:
        if _LOGIN_FILE.search(out):
            return HIGH, f"{c.prog} writes {out}: who may log in or become root is replaced by what it fetched " \
                         f"({c.text})"
    return None


def _weakened(c: Ctx) -> Optional[tuple]:
    """A security file given to any program with a weak login setting among its words."""
    name = c.prog.lower()
    if name in _READERS or name in ("grep", "crudini", "augtool"):
        return None
    texts = c.texts
    if not any(_LOGIN_FILE.search(t) or t.startswith("/etc/selinux/") for t in texts):
        return None
    if any(t.lower().startswith(("--get", "get", "print", "--list", "-l")) for t in texts[:2]):
        return None
    said = [t for t in texts if _SETTING.search(t) and not _LOGIN_FILE.search(t)]
    if said and _WEAK.search(said[-1]):  # the last word naming the setting is what it becomes
        return MEDIUM, f"{c.prog} writes a weak login setting ({said[-1]}) into a security file ({c.text})"
    return None


def _recreated(c: Ctx) -> Optional[tuple]:
    """``htdigest -c FILE realm user``: the password file begun anew."""
    if not _PASSWORD_TOOL.search(c.prog) or "mkpasswd" in c.prog or not set(c.texts) & _RECREATE or \
            any(t.startswith("-") and not t.startswith("--") and "b" in t for t in c.texts):
        return None  # `htpasswd -b -c FILE user PW`: a provisioning script writing a new file in one go
    at = next(k for k, t in enumerate(c.texts) if t in _RECREATE)
    if c.texts[at + 1:at + 2] and c.texts[at + 1].isdigit():
        return None  # `grub2-mkpasswd-pbkdf2 -c 100000`: a count, not a file
    operands = [t for t in c.texts if not t.startswith("-")]
    if len(operands) >= 2:
        return MEDIUM, f"{c.prog} -c creates {operands[0]} anew: every other user's password in it is dropped " \
                       f"({c.text})"
    return None


_FORCE_VALUES = frozenset({"force=y", "force=yes", "force=true", "--force", "-force", "-f"})
_PASSWORD_FILE_TOOL = LazyRegex(r"^\w{2,}pwd$|pw_?file|passw(or)?d_?file|passwdfile", re.IGNORECASE)


def _forced_anew(c: Ctx) -> Optional[tuple]:
    """``orapwd file=… password=… force=y``: a password file tool told to write over the file that exists."""
    if not _PASSWORD_FILE_TOOL.search(c.prog) or not {t.lower() for t in c.texts} & _FORCE_VALUES:
        return None
    target = next((t.split("=", 1)[1] for t in c.texts if t.lower().startswith("file=")), None) or \
        next((t for t in c.texts if not t.startswith("-") and "=" not in t), None)
    if target is None:
        return None
    return MEDIUM, f"{c.prog} writes {target} anew by force: every password kept in it is replaced ({c.text})"


_STORE_NAME = LazyRegex(r"keystore|truststore|credstore|secretstore|secret-store|credential-store", re.IGNORECASE)
_CREATES = frozenset({"create", "init", "initialize", "new", "recreate"})
_HIERARCHIES = frozenset({"owner", "o", "endorsement", "e", "lockout", "l", "platform", "p", "0x40000001",
                          "0x4000000a", "0x4000000b", "0x4000000c"})


def _store_recreated(c: Ctx) -> Optional[tuple]:
    """``yes | elasticsearch-keystore create``: a secrets store made anew over the one a service reads (answered
    yes or forced); ``tpm2_changeauth -c owner NEW``: a TPM hierarchy's authorization replaced."""
    name = c.prog.lower()
    words = [t.lower() for t in c.texts]
    if ("changeauth" in name or "change_auth" in name or words[:1] == ["changeauth"]) and \
            any(words[k + 1] in _HIERARCHIES for k, t in enumerate(words[:-1]) if t in ("-c", "--object-context")):
        return MEDIUM, f"{c.prog} replaces a TPM hierarchy's authorization: whatever used the old one is locked " \
            f"out ({c.text})"
    if not _STORE_NAME.search(name) and not any(_STORE_NAME.search(w) for w in words[:1]):
        return None
    operands = [w for w in words if not w.startswith("-")]
    if not set(operands[:2]) & _CREATES:
        return None
    answered = any(feeder.words and feeder.words[0].text in ("yes", "echo", "printf") for feeder in c.chain[-1:])
    if answered or set(words) & {"-f", "--force", "-y", "--yes", "--overwrite"}:
        return MEDIUM, f"{c.prog} creates its secrets store anew over the existing one: every secret kept in it " \
            f"is gone ({c.text})"
    return None


def _password_set(c: Ctx) -> Optional[tuple]:
    """Another account's password set from the command line."""
    texts = c.texts
    lowered = [t.lower() for t in texts]
    if any(_KEY_PAIR_PASSWORD.search(t) for t in texts) and "--commit" in lowered:
        return MEDIUM, f"{c.prog} commits a new password for a controller's user ({c.text})"
    if "set" in lowered[:1] and any(_DOTTED_PASSWORD.match(t) for t in texts[1:3]):
        return MEDIUM, f"{c.prog} sets a controller user's password ({c.text})"
    new = next((k for k, t in enumerate(texts[:-1]) if _NEW_PASSWORD.match(t)), None)
    if new is not None and (_PASSWORD_TOOL.search(c.prog) or set(lowered) & _MODIFY):
        target = [t for k, t in enumerate(texts) if k != new + 1 and not t.startswith("-") and
                  (k == 0 or not texts[k - 1].startswith("-") or texts[k - 1].lower() in _MODIFY)]
        if target:
            return MEDIUM, f"{c.prog} sets {target[-1]}'s password: whoever signed in with the old one is locked " \
                           f"out ({c.text})"
    at = next((k for k, t in enumerate(lowered[:3]) if t in _SET_WORDS), None)
    if c.prog in _DATABASE_READERS:
        return None  # `getent passwd root`, `ypmatch root passwd`: the account database read, no password set
    user = next((texts[k + 1] for k, t in enumerate(texts[:-1]) if t in ("-u", "--user", "-U", "--username")), "")
    if at is not None and (any(_ADMIN.match(t) for t in texts[at + 1:at + 4] if not t.startswith("-") or "/" in t)
                           or _ADMIN.match(user)):  # `mysqladmin -u root password NEW`
        return MEDIUM, f"{c.prog} {texts[at]} sets the administrator's password: whoever signed in with the old " \
                       f"one is locked out ({c.text})"
    return None


def _inner_password_set(c: Ctx) -> Optional[tuple]:
    """A query given to an admin shell (``kadmin.local -q 'cpw -pw NEW admin/admin'``): its own words."""
    for t in c.texts:
        words = t.split()
        if len(words) >= 3 and any(_NEW_PASSWORD.match(w) for w in words) and any(_ADMIN.match(w) for w in words[1:]):
            return MEDIUM, f"{c.prog} sets an administrator's password ({c.text})"
    return None


def _admin_password_tool(c: Ctx) -> Optional[tuple]:
    """``smbpasswd -a -s root``, ``kpasswd admin``: a password tool given an administrator's account."""
    if not _PASSWORD_TOOL.search(c.prog) or "mkpasswd" in c.prog or c.prog in ("passwd", "passwd.exe") or \
            set(c.texts) & {"-v", "--verify", "-n", "-l", "-S", "-x", "-d", "-e"}:
        return None  # `sudo passwd root`: the machine's own root, set by its administrator
    operands = [t for t in c.texts if not t.startswith("-")]
    if operands and _OTHER_ACCOUNT.match(operands[-1]):
        return MEDIUM, f"{c.prog} sets the {operands[-1]} account's password ({c.text})"
    return None


def _admin_locked(c: Ctx) -> Optional[tuple]:
    """``lusermod -L root``, ``pw lock root``, ``samba-tool user disable Administrator``."""
    lowered = [t.lower() for t in c.texts]
    if "-L" not in c.texts[:3] and not set(lowered[:3]) & _LOCKS and \
            not any(set(re.split(r"[-_]", t)) & _LOCKS for t in lowered[:3]):
        return None  # `-L`, `lock`, `user-disable` (`chage -l root` lists)
    operands = [t for t in c.texts if not t.startswith("-")]
    if operands and _OTHER_ACCOUNT.match(operands[-1]):
        return HIGH, f"{c.prog} locks the {operands[-1]} account: nobody can sign in as it ({c.text})"
    return None
