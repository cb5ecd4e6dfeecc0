"""Effect: a system file named as what a program writes, in the spellings of configuration and rewriting tools.

``credentials_replaced`` reads a login file given to an output option (``-o``, ``--output``) and ``meaning``
reads redirections and editors.  Configuration-management tools, template renderers and code rewriters name
the file they write in their own spellings, and a program no rule names says it the same way:

- a ``key=value`` destination (``dest=``, ``path=``, ``target=``, ``file=``, ``dst=``):
  ``pyinfra host files.put src=keys dest=/root/.ssh/authorized_keys``, ``cdist``'s and ``mgmt``'s file
  types, an ``ansible`` module's arguments spelled for another runner;
- a template's ``SOURCE:DESTINATION`` (``consul-template -template "hosts.ctmpl:/etc/hosts"``,
  ``confd``, ``envtpl``, ``gomplate``-style pairs): the file is rendered over whenever the data changes;
- a rewriter told to write in place (``-i``, ``--in-place``, ``-in-place``, ``--write``, ``--accept-all``)
  and given the file or its folder (``comby 'a' 'b' /etc/resolv.conf -i``, ``codemod --accept-all -d
  /etc/pam.d 'pam_unix' 'pam_permit'``, ``fastmod --accept-all -d /etc/ssh …``).

The files are those whose content decides who logs in, how names resolve, what is mounted or run at boot
(sudoers, PAM, sshd, passwd/shadow, authorized_keys, hosts, resolv.conf, nsswitch, fstab, crontabs,
systemd units, sysctl, ld.so.preload, SELinux's config, the boot loader's).  The same tools writing a
user's own files, a build's, or reading the system's, stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.programs import HTTPIE_CLIENTS
from aish.safety.rules.common import HIGH, LETTER_READERS, MEDIUM, Ctx
from aish.safety.rules.system_files import swap_lines_only
from aish.safety.rules.triggers import triggered_by

_WORDS = ("/etc", "/root", "/.ssh", "/boot", "/var/spool/cron", "/usr/lib/systemd", "/lib/systemd", " /")
SYSTEM_FILE = LazyRegex(
    r"^(/private)?/etc/(sudoers(\.d(/.*)?)?|shadow|gshadow|passwd|group|pam\.d(/.*)?|pam\.conf|"
    r"ssh(/sshd_config(\.d(/.*)?)?)?|hosts|hosts\.(allow|deny)|resolv\.conf|nsswitch\.conf|fstab|crypttab|"
    r"crontab|cron\.(d|daily|hourly|weekly|monthly)(/.*)?|ld\.so\.preload|ld\.so\.conf(\.d(/.*)?)?|"
    r"sysctl\.conf|sysctl\.d(/.*)?|systemd/(system|network|logind\.conf|journald\.conf)(/.*)?|"
    r"selinux/config|default/grub|security(/.*)?|inittab|profile|profile\.d(/.*)?|bash\.bashrc|environment|"
    r"login\.defs|doas\.conf|modprobe\.d(/.*)?|rc\.local|network/interfaces|netplan(/.*)?|"
    r"sysconfig/(network-scripts/.*|selinux|iptables|firewalld)|iptables/.*|nftables\.conf|"
    r"apparmor\.d(/.*)?|audit(/.*)?|krb5\.conf|sssd/.*|nslcd\.conf|exports|shells|securetty)/?$|"
    r"(^|/)\.ssh/authorized_keys2?$|^/root/(\.ssh(/.*)?|\.(bashrc|profile|bash_profile|zshrc))$|"
    r"^/boot/.+|^/var/spool/cron(/.*)?$|^(/usr)?/lib/systemd/system/.+")
_LOGIN = LazyRegex(r"sudoers|shadow|passwd|pam\.|authorized_keys|sshd_config|/\.ssh")
_DEST_KEYS = frozenset({"dest", "destination", "path", "target", "file", "dst", "filename", "to", "out", "output",
                        "outfile", "target_file", "dest_file", "config_file", "name"})
# Options whose `key=value` is a condition to match, not a file to write: a filter's field (`auditctl -a always,exit
# -F path=/etc/shadow -p wa` watches the file), a selector, a form's field (`curl -F file=@x`), a query's clause.
_MATCH_OPTIONS = frozenset({"-F", "--filter", "-filter", "--field", "--where", "-where", "--match", "--selector",
                            "--field-selector", "-l", "--query", "--condition", "--form", "--form-string"})
_IN_PLACE = frozenset({"-i", "--in-place", "-in-place", "--inplace", "--write", "--accept-all", "--go",
                       "--overwrite", "--apply", "-write", "--fix"})
_DIR_OPTIONS = frozenset({"-d", "--dir", "--directory", "--root", "-r", "--path"})
_OUTPUT_OPTIONS = frozenset({"--out", "--output", "--output-file", "--output-files", "--output-dir", "--outdir",
                            "--out-dir", "--outfile", "--dest", "--destination", "--target", "--target-dir",
                            "--base-directory", "--install-dir", "--write-to", "-o", "-O", "--prefix-dir"})
_SYSTEM_ROOT = LazyRegex(r"^(/private)?/etc/?$|^/$|^/root/?$|^/usr/lib/systemd/system/?$")
_TEMPLATE = LazyRegex(r"\.(c?tmpl|tpl|tmpl|j2|jinja2?|tera|mustache|hbs|erb|gotmpl|template|tt2?|liquid)$|"
                      r"^[\w.-]*template", re.IGNORECASE)
_SAID_SETTING = LazyRegex(r"permitrootlogin|passwordauthentication|permitemptypasswords|pubkeyauthentication|"
                          r"strictmodes|selinux=|nopasswd|nullok|usepam", re.IGNORECASE)
_READ_WORDS = frozenset({"get", "fetch", "show", "cat", "list", "read", "diff", "check", "validate", "lint", "backup",
                         "export", "dump", "save", "archive",
                         "--check", "--diff", "--dry-run", "-n", "--list", "files.get", "download"})


@triggered_by(_WORDS, otherwise=False)
def may_target(c: Ctx) -> bool:
    """Cheap: the line names a folder system files live in."""
    low = c.lowered
    return any(w in low for w in _WORDS)


def _system(path: str) -> bool:
    path = path.strip().strip("'\"")
    return bool(path) and SYSTEM_FILE.search(path) is not None


def _level(path: str) -> int:
    return HIGH if _LOGIN.search(path) else MEDIUM


def rule_system_target(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:64]  # a setting, a target or a verb is among the first words: long lines are not read
    low = [t.lower() for t in texts]
    if set(low[:3]) & _READ_WORDS or any(t.startswith(("files.get", "fact")) for t in low[:3]):
        return None
    for k, t in enumerate(texts):  # `dest=/etc/sudoers`, `path=/etc/hosts`
        if c.prog in HTTPIE_CLIENTS:
            break  # `http --form POST URL path=/etc/passwd`: the request's data, not a file written
        key, eq, value = t.partition("=")
        if eq and key.lower().lstrip("-") in _DEST_KEYS and _system(value) and \
                not (k and texts[k - 1] in _MATCH_OPTIONS):  # `auditctl -F path=/etc/shadow`: what is watched
            return _level(value), f"{c.prog} writes {value.strip(chr(39) + chr(34))}, named as its destination: " \
                                  f"a system file's meaning is replaced ({c.text})"
    for k, t in enumerate(texts):  # `--out /etc/fstab`, `--destination /etc`, `--output-files /etc/sysctl.d`
        name, eq, value = t.partition("=")
        if not eq and k + 1 < len(texts):
            value = texts[k + 1]
        if name in _OUTPUT_OPTIONS and not value.startswith(("/boot/", "'/boot/", '"/boot/')) and \
                not (len(name) == 2 and c.prog in LETTER_READERS) and \
                (_system(value) or _SYSTEM_ROOT.match(value.strip("'\""))):  # `grub-mkconfig -o /boot/…` rebuilds
            value = value.strip("'\"")
            return _level(value), f"{c.prog} {name} {value}: what it produces replaces the system's files there " \
                                  f"({c.text})"
    for k, t in enumerate(texts):  # `-template "in.ctmpl:/etc/hosts[:command]"`
        if ":/" not in t:
            continue
        parts = t.strip("'\"").split(":")
        source = parts[0]
        templated = _TEMPLATE.search(source) is not None or (k > 0 and "template" in low[k - 1])
        dest = next((p for p in parts[1:] if p.startswith("/")), "")
        if templated and _system(dest):
            return _level(dest), f"{c.prog} renders {source} over {dest}: a system file is rewritten whenever " \
                                 f"its data changes ({c.text})"
    if set(low) & _IN_PLACE:  # a rewriter told to write in place, given a system file or folder
        named = [t for t in texts if not t.startswith("-") and _system(t)]
        named += [texts[k + 1] for k, t in enumerate(low[:-1]) if t in _DIR_OPTIONS and _system(texts[k + 1])]
        # a login setting's value: credentials_replaced; fstab's swap lines commented out: content (low)
        if named and not _SAID_SETTING.search(" ".join(texts)) and \
                not (named[0] == "/etc/fstab" and c.prog == "sed" and swap_lines_only(texts)):
            return MEDIUM, f"{c.prog} rewrites {named[0]} in place: a system file's meaning is changed ({c.text})"
    return None
