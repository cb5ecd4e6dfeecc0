"""Effect: a system file or setting changed by a writer the other rules do not follow.

``meaning`` reads what a line written by a redirection, ``tee`` or an editor says, and ``content`` what a
``cp``/``install``/``ln``/``dd`` over a file costs.  These writers and settings were read by neither:

- copies and moves whose content is unknown onto a file the system needs to boot or log in (sudoers,
  PAM, sshd, hosts, fstab, passwd): ``mv``, a local ``rsync``, ``scp``, ``ditto``, Windows' ``copy``,
  ``xcopy``, ``move`` and ``Copy-Item``, and the configuration tools' copies (an ansible ``copy`` or
  ``template``, salt's ``file.copy``/``file.managed``, ``puppet apply -e 'file {…}'``);
- a kernel setting written to ``/proc/sys`` that breaks (``kernel_breaks``), a sysfs node written to
  remove, unbind, stop or take offline a device (``/sys/block/sdb/device/delete``);
- tools whose own words are the change: ``visudo`` fed rules, ``systemctl edit|set-property|revert``
  (a unit's drop-in or limits), ``debconf-set-selections`` pre-answering a login or boot question, an
  ansible ``sysctl`` module that weakens or breaks, a boot entry created, switched off or removed
  (``efibootmgr -c|-A|-O``, ``bootctl install|remove|unlink``).

Appending a local name to ``/etc/hosts``, tuning ``vm.swappiness``, choosing the default boot entry
(``efibootmgr -o``) and copying a unit into ``/etc/systemd/system`` with ``cp`` are judged elsewhere or
stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.baseline_values import weak_sysctl
from aish.safety.rules.common import MEDIUM, describe, fragment, target
from aish.safety.rules.kernel_breaks import breaking, proc_value
from aish.safety.rules.system_files import spelled
from aish.safety.shell_words import Word
from aish.safety.unwrap import unwrap
from aish.safety.lazy_regex import lazy

# copies, moves and links whose destination ``content`` does not read already (it reads cp, install, ln, tee)
_COPIERS = frozenset({"mv", "rsync", "scp", "ditto", "gmv", "copy", "xcopy", "move", "copy-item", "cpi", "move-item",
                      "mi"})
_COPY_VALUED = frozenset({"-t", "--target-directory", "-m", "--mode", "-o", "--owner", "-g", "--group", "-S",
                          "--suffix", "-e", "--rsh", "--exclude", "--include", "--filter", "--chmod", "--chown",
                          "--files-from", "--exclude-from", "--include-from", "--port", "-P", "-i", "-F", "-l",
                          "--backup-dir", "--log-file", "--password-file", "-path", "-literalpath"})
_TOOLS = frozenset({"ansible", "salt", "salt-call", "salt-ssh", "puppet", "visudo", "systemctl",
                    "debconf-set-selections", "bootctl", "efibootmgr"})
_REMOTE = lazy(r"^[\w.@-]+:(?=/|~)")  # scp/rsync `host:/etc/hosts`


def _positionals(texts: list, valued: frozenset = frozenset()) -> list:
    out: list = []
    k = 0
    while k < len(texts):
        t = texts[k]
        if t == "--":
            return out + texts[k + 1:]
        if t.startswith("-") and len(t) > 1 or t.startswith("/") and len(t) < 4 and t[1:2].isalpha() and \
                t[1:].isalpha() and t.upper() == t:  # `copy /Y a b`: cmd's switches
            k += 2 if t.lower() in valued and "=" not in t else 1
            continue
        out.append(t)
        k += 1
    return out


def _copied(prog: str, texts: list) -> list:
    """The files a copy, move, link or install creates: its destination, or the source's name inside it."""
    lowered = [t.lower() for t in texts]
    into = next((texts[k + 1] for k, t in enumerate(lowered[:-1]) if t in ("-t", "--target-directory",
                                                                           "-destination")), None)
    pos = _positionals(texts, _COPY_VALUED | {"-destination"})
    if into is None:
        if len(pos) < 2:
            return []
        into, pos = pos[-1], pos[:-1]
    into = _REMOTE.sub("", into)
    name = pos[0].rstrip("/\\").replace("\\", "/").rsplit("/", 1)[-1] if pos else ""
    inside = [into.rstrip("/\\") + "/" + name] if name else []
    # `mv x.service /etc/systemd/system/`: a folder said as one is not replaced, what lands in it is
    return inside if inside and into.endswith(("/", "\\")) else [into] + inside


def _fed(seg, chain: list) -> str:
    parts = [r.body for r in seg.redirects if r.body]
    parts += [r.target.text for r in seg.redirects if r.op == "<<<" and r.target is not None]
    for feeder in chain[-2:]:
        if feeder.words and feeder.words[0].text in ("echo", "printf"):
            parts.append(" ".join(w.text for w in feeder.words[1:]))
        parts += [r.body for r in feeder.redirects if r.body]
    return "\n".join(parts).replace("\\n", "\n")


_ANSIBLE_COPIES = frozenset({"copy", "template", "get_url", "assemble", "unarchive", "synchronize"})


def _kv(text: str) -> dict:
    return {m.group(1): m.group(2) or m.group(3) or m.group(4)
            for m in re.finditer(r"(\w+)=(?:'([^']*)'|\"([^\"]*)\"|(\S+))", text)}


def _ansible(texts: list) -> list:
    """``ansible web -b -m copy -a "src=… dest=/etc/ssh/sshd_config"``, ``-m sysctl -a "name=… value=…"``."""
    module = next((texts[k + 1] for k, t in enumerate(texts[:-1]) if t in ("-m", "--module-name")), "")
    module = module.rsplit(".", 1)[-1]
    args = _kv(next((texts[k + 1] for k, t in enumerate(texts[:-1]) if t in ("-a", "--args")), ""))
    if module in _ANSIBLE_COPIES and "content" not in args:
        return [(args[k], None) for k in ("dest", "path") if k in args][:1]
    if module == "sysctl" and "name" in args and "value" in args:
        found = breaking(args["name"], args["value"]) or weak_sysctl(args["name"], args["value"])
        return [("/proc/sys/" + args["name"].replace(".", "/"), found)] if found else []
    return []


def _salt(texts: list) -> list:
    """``salt '*' file.copy SRC /etc/sudoers``, ``file.managed /etc/pam.d/sshd source=salt://…``."""
    for k, t in enumerate(texts):
        if t in ("file.copy", "file.rename", "file.move", "file.symlink", "file.managed") and k + 1 < len(texts):
            rest = [x for x in texts[k + 1:] if "=" not in x]
            return (rest[-1:] if t != "file.managed" else rest[:1])
    return []


def _tool(prog: str, texts: list, fed: str, seg) -> list:
    """The files a configuration tool writes: (path, None) when the content is unknown, or a finding's
    reason (path, reason) when the tool's own words say what changes."""
    first = texts[0] if texts else ""
    if prog == "ansible":
        return _ansible(texts)
    if prog.startswith("salt"):
        return [(p, None) for p in _salt(texts)]
    if prog == "puppet" and first == "apply":
        code = next((texts[k + 1] for k, t in enumerate(texts[:-1]) if t in ("-e", "--execute")), "")
        return [(p, None) for p in re.findall(r"\bfile\s*\{\s*['\"]([^'\"]+)['\"]", code)]
    if prog == "visudo" and (any(r.op == "<" for r in seg.redirects) or fed) and "-c" not in texts:
        target = next((texts[k + 1] for k, t in enumerate(texts[:-1]) if t in ("-f", "--file")), "/etc/sudoers")
        return [(target, "installs the rules it is fed as sudoers rules")]
    if prog == "systemctl" and not {"--user", "--runtime"} & set(texts):
        pos = _positionals(texts, frozenset({"-H", "--host", "-M", "--machine", "-p", "--property"}))
        if pos[:1] in (["edit"], ["set-property"], ["revert"]) and len(pos) > 1:
            return [(f"/etc/systemd/system/{pos[1]}.d/", f"systemctl {pos[0]} changes how {pos[1]} runs "
                                                         f"(a drop-in overrides or a limit caps the unit)")]
        return []
    if prog == "debconf-set-selections" and not {"-c", "--checkonly"} & set(texts):
        line = next((m.group(0) for m in _DEBCONF_RISK.finditer(fed + "\n" + " ".join(texts))), None)
        return [("debconf", f"pre-answers a login or boot question: {line.strip()[:60]}")] if line else []
    return _boot_entry(prog, texts)


_DEBCONF_RISK = lazy(r"^.*\b(permit-root-login|root-password|password(-again)?|grub-pc/install_devices|"
                     r"sudo|pam|ssh)\S*\s+(boolean|password|string|multiselect|select)\s+\S.*$",
                     re.MULTILINE | re.IGNORECASE)


# What a boot manager is told that adds, hides or removes a way to boot (choosing among the entries there are,
# `efibootmgr -o`, `grub-set-default`, is everyday and stays quiet).
_BOOT_WRITES = {"efibootmgr": {"-c", "--create", "-C", "--create-only", "-A", "--inactive", "-O", "--delete-bootorder"},
                "bootctl": {"remove", "unlink", "install"}}


def _boot_entry(prog: str, texts: list) -> list:
    """``efibootmgr -c …`` (a new entry, first in the order), ``-A`` (an entry switched off), ``bootctl install``:
    what the machine can boot, kept in the firmware's variables or the EFI partition."""
    names = _BOOT_WRITES.get(prog, ())
    if any(t.split("=", 1)[0] in names for t in texts):
        return [("(boot entries)", f"{prog} adds, switches off or removes a way the machine boots")]
    return []


def _content_of(seg, chain: list) -> str:
    from aish.safety.rules.meaning import content_of  # what echo, printf, a heredoc or a pipe writes

    return content_of(seg, chain)


_SYS_NODE = lazy(r"^/sys/(block|class/block|bus/\w+/devices|devices)/.+/(device/delete|delete|remove|"
                 r"bcache/(stop|detach)|device/state)$|^/sys/fs/bcache/[^/]+/(unregister|stop)$|"
                 r"^/sys/bus/\w+/drivers/[^/]+/unbind$")


def _node_written(path: str, text: str) -> Optional[str]:
    """A write to a sysfs node that removes, stops or detaches a device (``echo 1 > /sys/block/sdb/device/delete``)."""
    if not _SYS_NODE.match(path) or not text.strip():
        return None
    if path.endswith("/state") and "offline" not in text:
        return None
    return f"removes, stops or detaches the device ({path}): what is on it or reached through it goes away"


def _names_writer(words: list) -> bool:
    """Is one of the first eight words a writer's name (``_GATE``)?"""
    for w in words[:8]:
        if w.text.rsplit("/", 1)[-1].lower() in _GATE:
            return True
    return False


def rule_system_file_written(seg, chain: list) -> Optional[tuple]:
    """A write by any writer that changes what a system file or setting means (see the module's doc)."""
    if not seg.redirects and not _names_writer(seg.words):
        return None  # no redirection and no writer among the first words: nothing is written
    from aish.safety.rules.meaning import written_files

    line = fragment([w.raw for w in seg.words], 60)
    redirected = written_files(seg)
    if redirected:
        text = _content_of(seg, chain)
        for path, _ in redirected:
            why = proc_value(path, text) or _node_written(path, text)
            if why:
                return MEDIUM, f"{why} ({line})"
    words = unwrap(seg.words)[0] if seg.words else []
    if not words:
        return None
    prog = words[0].text.rsplit("/", 1)[-1].lower()
    prog = prog[:-4] if prog.endswith(".exe") else prog
    if prog in _COPIERS:
        texts = [w.raw.strip("'\"") if "\\" in w.raw else w.text for w in words[1:]]
        found = [(p, None) for p in _copied(prog, texts)]
    elif prog in _TOOLS:
        found = _tool(prog, [w.text for w in words[1:]], _fed(seg, chain), seg)
    else:
        return None
    for path, why in found:
        if why:
            return MEDIUM, f"{why} ({line})"
        t = target(Word(spelled(path), path))
        if t.kind == "critical":
            return MEDIUM, f"{prog} replaces {describe(t)}: what it says now is unknown ({line})"
    return None


_GATE = _COPIERS | _TOOLS | {"tee", "sponge", "add-content", "ac", "set-content", "sc", "out-file"} | \
    {name + ".exe" for name in _COPIERS}
