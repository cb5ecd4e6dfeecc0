"""A program's name as the rules know it, when it is installed under another.

GNU's tools are installed with a ``g`` in front where the system has tools of the same name
(Homebrew's coreutils, findutils, gnu-sed, gnu-tar, grep and inetutils on macOS; the BSDs' ports):
``gchmod``, ``grm``, ``gdd``, ``gtimeout``, ``gsed`` are GNU's ``chmod``, ``rm``, ``dd``, ``timeout``,
``sed``, and each is judged by that tool's rules; so are uutils' Rust ports installed beside them as
``uu-chmod``, ``uu-rm``.  Only these packages' names lose the ``g``:
``gawk``, ``gpg``, ``gdisk`` and ``gftp`` (a GTK client) are programs of their own.

This is the one place a name is mapped to the name the rules know; other spellings of one program
belong here too.
"""
from __future__ import annotations

# The packages' programs that rules judge, run a command or are common in pipes (coreutils, findutils, sed,
# tar, grep, make, inetutils).  Short names are left out where the g-name is another program: `god` is a
# process monitor, not GNU's od; `gpaste` a clipboard manager.
_GNU_PREFIXED = frozenset("""
base64 basename cat chcon chgrp chmod chown chroot cp csplit cut date dd df dirname du echo env head install kill
ln ls md5sum mkdir mkfifo mknod mktemp mv nice nohup printf readlink realpath rm rmdir runcon seq sha1sum
sha256sum sha512sum shred sort split stat stdbuf tail tee timeout touch truncate uniq unlink wc
find xargs locate updatedb sed tar grep egrep fgrep make
ifconfig hostname telnet tftp rcp rsh rexec rlogin traceroute whois logger
""".split())


def plain_name(name: str) -> str:
    """``gchmod`` -> ``chmod``, uutils' ``uu-chmod`` -> ``chmod``; any other name as it is."""
    if name[:1] == "g" and name[1:] in _GNU_PREFIXED:
        return name[1:]
    if name[:3] in ("uu-", "uu_") and name[3:] in _GNU_PREFIXED:
        return name[3:]
    return name
